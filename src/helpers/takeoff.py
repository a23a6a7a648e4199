"""Day 6: when does a GPU take off? Time per training step against problem size (day 6; day 7
reuses the step timing).

A training step costs a fixed overhead (launching a few dozen operations, Python, autograd) plus
time that grows with the work. :func:`sweep` measures time per step over a range of row counts for
a few network widths; :func:`takeoff` and :func:`crossover` find, from the data, where the work
starts to dominate the overhead and where one device overtakes another.

The reference GPU curve shown to learners without a GPU is written by
``python -m helpers gpu-check`` on a machine with one (copied to ``data/gpu_reference.json``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from tqdm.auto import tqdm

from helpers.models import mlp
from helpers.paths import GPU_REFERENCE
from helpers.timing import benchmark
from helpers.training import sgd_step

MODELS = {"IrisMLP 4-10-3": (4, 10, 3), "wide 4-512-512-3": (4, 512, 512, 3)}
"""The two networks of the lesson, by their layer widths."""


def flops_per_step(widths: Sequence[int], rows: int) -> int:
    """Floating-point operations of one training step on ``rows`` rows, counting the matrix
    products (2 per multiply-add, every row, every weight): the forward pass, the gradients of
    the weights, and the gradients of the layers' inputs, except the first layer's: nothing
    needs the gradient of the data, and autograd does not compute it. The course's one FLOP
    count (days 5, 6 and 7, and the day-6 homework); biases, activations, the loss and the
    update are left out (a few operations per number, not per multiply-add).

    >>> flops_per_step((4, 10, 3), 120)  # forward 2*120*70, weights 2*120*70, fc2's input 2*120*30
    40800
    """
    pairs = list(zip(widths[:-1], widths[1:], strict=True))
    weights = sum(a * b for a, b in pairs)
    first = pairs[0][0] * pairs[0][1]
    return rows * (6 * weights - 2 * first)


def bytes_per_step(widths: Sequence[int], rows: int) -> int:
    """A rough count of the bytes a step moves (float32): every weight read forward, read
    backward and updated (read and written), and every activation written forward and read back."""
    weights = sum(a * b + b for a, b in zip(widths[:-1], widths[1:], strict=True))
    activations = rows * sum(widths)
    return 4 * (4 * weights + 2 * activations)


def step_time(
    widths: Sequence[int],
    rows: int,
    *,
    device: torch.device | str,
    min_run_time: float = 0.2,
    batch: int | None = None,
) -> dict:
    """Seconds of one SGD step on ``rows`` random rows (a batch of ``batch`` of them).

    Timed with :func:`helpers.timing.benchmark` on all the threads PyTorch uses: steps run in
    blocks until ``min_run_time`` seconds have passed, and the result is the median block. A step
    of a fraction of a millisecond is then timed hundreds of times, so one pause of the machine
    (another program, a thread woken late) moves one block, not the answer; a long step runs
    twice (once to size the blocks, once timed).

    Returns a row for :func:`sweep`'s table: widths, rows, batch, device, median and quartiles.
    """
    device = torch.device(device)
    batch = rows if batch is None else batch
    generator = torch.Generator().manual_seed(0)
    X = torch.randn(batch, widths[0], generator=generator).to(device)
    y = torch.randint(0, widths[-1], (batch,), generator=generator).to(device)
    torch.manual_seed(0)
    model = mlp(widths).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    result = benchmark(
        lambda: sgd_step(model, optimizer, X, y),
        device=device,
        threads=torch.get_num_threads(),
        min_run_time=min_run_time,
    )
    q1, q3 = result.quartiles
    return {
        "rows": rows,
        "batch": batch,
        "device": str(device),
        "seconds": result.median,
        "q1": q1,
        "q3": q3,
    }


def sweep(
    models: dict[str, Sequence[int]],
    rows: Sequence[int],
    *,
    device: torch.device | str,
    max_rows: dict[str, int] | None = None,
    min_run_time: float = 0.2,
    progress: bool | str = True,
) -> pd.DataFrame:
    """Time per step for every model at every row count (full batch), as one table.

    ``max_rows`` caps the row count per model (the wide model on a CPU); ``min_run_time`` is
    :func:`step_time`'s, per point. A progress bar counts the points (labelled ``progress`` when
    that is a string; hidden with ``progress=False``).
    """
    max_rows = max_rows or {}
    points = [
        (name, widths, n)
        for name, widths in models.items()
        for n in rows
        if n <= max_rows.get(name, n)
    ]
    label = progress if isinstance(progress, str) else "sweep"
    table = []
    for name, widths, n in tqdm(points, desc=label, unit="point", disable=progress is False):
        row = step_time(widths, n, device=device, min_run_time=min_run_time)
        row |= {
            "model": name,
            "flops": flops_per_step(widths, n),
            "bytes": bytes_per_step(widths, n),
        }
        table.append(row)
    return pd.DataFrame(table)


def _crossing(x: np.ndarray, y: np.ndarray, level: np.ndarray) -> float | None:
    """The first x where y rises through ``level``, interpolated on log-log axes."""
    above = y >= level
    if not above.any():
        return None
    i = int(np.argmax(above))
    if i == 0:
        return float(x[0])
    lx, ly, ll = np.log(x[i - 1 : i + 1]), np.log(y[i - 1 : i + 1]), np.log(level[i - 1 : i + 1])
    gap = ly - ll
    t = gap[0] / (gap[0] - gap[1])
    return float(math.exp(lx[0] + t * (lx[1] - lx[0])))


def _curve(rows: Sequence[float], seconds: Sequence[float], caller: str):
    """One measured curve as two float arrays, checked: at least two sizes, increasing."""
    x, y = np.asarray(rows, dtype=float), np.asarray(seconds, dtype=float)
    if len(x) < 2 or np.any(np.diff(x) <= 0):
        raise ValueError(f"{caller}() needs at least two sizes, in increasing order")
    return x, y


TAKEOFF_FACTOR = 2.0
"""A step is mostly work once it takes this many times the fixed overhead (the take-off point)."""


def takeoff(
    rows: Sequence[float], seconds: Sequence[float], factor: float = TAKEOFF_FACTOR
) -> float | None:
    """The row count where time per step reaches ``factor`` times the fixed per-step overhead.

    The overhead is the time at the smallest size measured (which should be small enough for the
    work to be negligible). Interpolated on log-log axes between measured points; ``None`` when the
    largest size measured stays below. Below this size a step is mostly overhead; above it, mostly
    work. When the second size already takes ``factor`` times the first, the first point is work,
    not overhead (:func:`curve_shape`: "rising from the smallest size"): the take-off is at or
    below the smallest size, which is returned.
    """
    x, y = _curve(rows, seconds, "takeoff")
    if y[1] >= factor * y[0]:
        return float(x[0])
    return _crossing(x, y, np.full_like(y, factor * y[0]))


def curve_shape(name: str, rows: Sequence[float], seconds: Sequence[float]) -> str:
    """How one measured curve of time per step looks, in words: flat at first and then rising (a
    fixed overhead, then work), rising from the smallest size, or falling somewhere, which more
    work cannot do: a pause of the machine inflated the smaller point.

    >>> curve_shape("tiny", [100, 1000, 10000], [1e-3, 1.1e-3, 5e-3])
    '**tiny**: flat at first, then rising: a fixed overhead of 1.00 ms per step, then work.'
    >>> curve_shape("tiny", [100, 1000], [20e-3, 1e-3]).split(":")[1]
    ' the time per step fell from 20.00 ms at 100 rows to 1.00 ms at 1,000 rows'
    """
    x, y = _curve(rows, seconds, "curve_shape")
    falls = np.flatnonzero(y[1:] < y[:-1] / 1.5)  # a third less time for more rows
    if len(falls):
        i = int(falls[0])
        return (
            f"**{name}**: the time per step fell from {y[i] * 1e3:.2f} ms at {x[i]:,.0f} rows to "
            f"{y[i + 1] * 1e3:.2f} ms at {x[i + 1]:,.0f} rows: more work cannot take less time, "
            "so something else (another program, a pause of the machine) slowed the smaller "
            "point. Run the sweep again before reading this curve."
        )
    overhead = f"a fixed overhead of {y[0] * 1e3:.2f} ms per step"
    if y[-1] < TAKEOFF_FACTOR * y[0]:
        return f"**{name}**: flat over every size measured: {overhead}, up to {x[-1]:,.0f} rows."
    if y[1] < TAKEOFF_FACTOR * y[0]:
        return f"**{name}**: flat at first, then rising: {overhead}, then work."
    return (
        f"**{name}**: rising from the smallest size measured ({x[0]:,.0f} rows): the work already "
        "outweighs the fixed overhead there."
    )


def crossover(
    rows: Sequence[float], slower_at_first: Sequence[float], faster_later: Sequence[float]
) -> float | None:
    """The row count where the second curve becomes faster than the first (e.g. the GPU's time
    per step drops below the CPU's), interpolated on log-log axes; ``None`` if it never does, and
    the first size if it is faster from the start."""
    x = np.asarray(rows, dtype=float)
    a, b = np.asarray(slower_at_first, dtype=float), np.asarray(faster_later, dtype=float)
    if not (len(x) == len(a) == len(b)) or len(x) < 1:
        raise ValueError("crossover() needs three sequences of the same, non-zero length")
    return _crossing(x, a, b)


def curve_crossover(cpu: pd.DataFrame, gpu: pd.DataFrame) -> float | None:
    """Where the ``gpu`` curve's time per step drops below the ``cpu`` curve's (both tables with
    ``rows`` and ``seconds``, one model, e.g. from :func:`sweep` or a stored reference).

    The GPU's time is interpolated on log-log axes at the CPU's row counts, within the rows both
    curves cover. ``None`` when the GPU is never faster there.

    >>> cpu = pd.DataFrame({"rows": [100, 1000, 10000], "seconds": [1e-4, 5e-4, 5e-3]})
    >>> gpu = pd.DataFrame({"rows": [100, 10000], "seconds": [1e-3, 1.2e-3]})
    >>> round(curve_crossover(cpu, gpu))
    2263
    """
    cpu, gpu = cpu.sort_values("rows"), gpu.sort_values("rows")
    inside = cpu[(cpu["rows"] >= gpu["rows"].min()) & (cpu["rows"] <= gpu["rows"].max())]
    if len(inside) < 2:
        return None
    log_gpu = np.interp(np.log(inside["rows"]), np.log(gpu["rows"]), np.log(gpu["seconds"]))
    return crossover(inside["rows"], inside["seconds"], np.exp(log_gpu))


LESSON_RANGE = (1e5, 1e6)
"""The lesson's estimate: a GPU starts to pay off for a small MLP at 100,000 to 1,000,000 rows."""


def judge_lesson_range(
    pays_off: float | None, largest: float, against: str, smallest: float | None = None
) -> str:
    """The lesson's "100k-1M rows", read against a crossover found from two curves.

    >>> judge_lesson_range(2300, 1e6, "the reference GPU").split(": ")[1]
    "far below the lesson's 100,000-1,000,000."
    """
    low, high = LESSON_RANGE
    span = f"the lesson's {low:,.0f}-{high:,.0f}"
    if pays_off is None:
        return (
            f"Against {against}, the GPU is not faster anywhere up to {largest:,.0f} rows "
            f"measured: these curves cannot confirm {span}."
        )
    where = f"Against {against}, the GPU pays off from about {pays_off:,.0f} rows"
    if smallest is not None and pays_off <= smallest:
        where = (
            f"Against {against}, the GPU is faster already at the smallest size measured "
            f"({smallest:,.0f} rows)"
        )
    if pays_off < low / 10:
        return f"{where}: far below {span}."
    if pays_off < low:
        return f"{where}: below {span}, within a factor of ten."
    if pays_off <= high:
        return f"{where}: within {span}."
    return f"{where}: above {span}."


def lesson_bound(cpu: pd.DataFrame, step_seconds: float) -> float | None:
    """Where the ``cpu`` curve (``rows``, ``seconds``) reaches ``step_seconds``, a GPU's time per
    step measured at one size only; ``None`` if it stays below it at every size measured.

    A GPU step does not get faster with more rows, so below this row count the CPU is faster:
    the GPU cannot pay off earlier (a lower bound on the crossover, not the crossover).

    >>> cpu = pd.DataFrame({"rows": [100, 1000, 10000], "seconds": [2e-4, 4e-4, 2e-3]})
    >>> round(lesson_bound(cpu, 6.7e-4))
    2092
    """
    cpu = cpu.sort_values("rows")
    flat = np.full(len(cpu), float(step_seconds))
    return crossover(cpu["rows"], cpu["seconds"], flat)


def judge_lesson_bound(
    bound: float | None, largest: float, step_seconds: float, rows: int = 120
) -> str:
    """The lesson's "100k-1M rows", read against the bound that one GPU point gives
    (:func:`lesson_bound`): conditional words, since a single point is not a curve.

    >>> print(judge_lesson_bound(2300, 1e6, 6.7e-4).split(". ")[1])
    A GPU step does not get faster with more rows, so the GPU cannot pay off below about 2,300 \
rows, where your CPU's step reaches that time
    """
    low, high = LESSON_RANGE
    span = f"the lesson's {low:,.0f}-{high:,.0f} rows"
    head = (
        f"The lesson's GPU was measured at one size only: {rows} rows, "
        f"{step_seconds * 1e3:.2f} ms per epoch (a whole loop, divided by its epochs). A GPU step "
        "does not get faster with more rows, so "
    )
    if bound is None:
        head += (
            f"the GPU cannot pay off below {largest:,.0f} rows: your CPU's step stays faster than "
            "that at every size measured."
        )
        if largest >= high:
            return f"{head} That alone rules out {span}: the lesson's estimate is too low here."
        return f"{head} That bound is below {span}: it neither confirms nor rules it out."
    head += (
        f"the GPU cannot pay off below about {bound:,.0f} rows, where your CPU's step reaches "
        "that time."
    )
    if bound > high:
        return f"{head} That alone rules out {span}: the lesson's estimate is too low here."
    where = "within" if bound >= low else "below"
    return (
        f"{head} That bound is {where} {span}, so it does not rule the range out. Only if the "
        f"GPU's step stayed at its {rows}-row time up to {bound:,.0f} rows (likely for so small a "
        "network, but not measured) would it pay off right there; a GPU curve (this machine's, or "
        "a reference measured on a GPU) turns the bound into a measurement."
    )


RESNET50_FLOPS_PER_IMAGE = 3 * 2 * 3.8e9
"""Training ResNet-50 on one 224x224 image: 3.8 billion multiply-adds forward (He et al., 2016),
2 FLOPs each, and about 3 times the forward pass for forward plus backward."""
IMAGENET_IMAGES = 1_281_167
"""ImageNet-1k's training images."""


def training_estimate(
    flops_per_second: float, images_per_second: float, *, epochs: int = 90
) -> dict[str, float | str]:
    """Hours to train ResNet-50 on ImageNet-1k for ``epochs`` epochs (90 is the classic
    schedule), bounded by arithmetic at ``flops_per_second`` and by loading the images at
    ``images_per_second``: whichever is slower sets the pace.

    >>> estimate = training_estimate(10e12, 2000, epochs=90)
    >>> [round(estimate[k], 1) for k in ("arithmetic hours", "loading hours")], estimate["bound"]
    ([73.0, 16.0], 'arithmetic')
    """
    if flops_per_second <= 0 or images_per_second <= 0 or epochs < 1:
        raise ValueError("need positive speeds and at least one epoch")
    arithmetic = epochs * IMAGENET_IMAGES * RESNET50_FLOPS_PER_IMAGE / flops_per_second / 3600
    loading = epochs * IMAGENET_IMAGES / images_per_second / 3600
    return {
        "arithmetic hours": arithmetic,
        "loading hours": loading,
        "hours": max(arithmetic, loading),
        "bound": "arithmetic" if arithmetic >= loading else "data loading",
    }


def load_reference(path: Path = GPU_REFERENCE) -> tuple[dict, pd.DataFrame] | None:
    """The stored reference GPU sweep as ``(card, table)``, or ``None`` when there is none."""
    if not path.is_file():
        return None
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        return payload["card"], pd.DataFrame(payload["points"])
    except (ValueError, KeyError) as err:
        raise ValueError(
            f"{path} is not a reference sweep ({err}); re-measure it with "
            "`python -m helpers gpu-check --out DIR` on a GPU machine, then copy "
            "DIR/gpu_reference.json here."
        ) from None
