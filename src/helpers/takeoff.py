"""When does a GPU take off? Time per training step against problem size (day 6, sections 1, 2
and 4; day 7 reuses the step timing).

A training step costs a fixed overhead (launching a few dozen operations, Python, autograd) plus
time that grows with the work. :func:`sweep` measures time per step over a range of row counts for
a few network widths (each step counted and timed by :mod:`helpers.work`); :func:`takeoff`
finds, from the data, where the work starts to dominate the overhead; :mod:`helpers.crossover`
finds where one device overtakes another (its names are importable from here too);
:func:`training_estimate` scales the arithmetic up to ResNet-50 on ImageNet.

The reference GPU curve shown to learners without a GPU is written by
``python -m helpers gpu-check`` on a machine with one (copied to ``data/gpu_reference.json``).
This module computes; what the curves say, the lesson says (:mod:`helpers.day06`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from tqdm.auto import tqdm

from helpers.crossover import (
    Crossing,
    Support,
    _crossing,
    crossing,
    crossover,
    curve_crossover,
    lesson_bound,
    support,
)
from helpers.i18n import N_, word
from helpers.paths import GPU_REFERENCE
from helpers.receipts import Receipt, load_all
from helpers.work import bytes_per_step, flops_per_step, step_time

__all__ = [  # where curves cross: helpers.crossover; counting and timing a step: helpers.work
    "IMAGENET_IMAGES", "MODELS", "RESNET50_FLOPS_PER_IMAGE", "TAKEOFF_FACTOR", "Crossing",
    "CurvePair", "Support", "bytes_per_step", "crossing", "crossover", "curve", "curve_crossover",
    "curve_pairs", "decode_rate", "flops_per_step", "host_curve", "imagenet_estimates",
    "lesson_bound", "load_reference", "receipt_rates", "step_time", "support", "sweep",
    "takeoff", "training_estimate",
]  # fmt: skip

MODELS = {"IrisMLP 4-10-3": (4, 10, 3), "wide 4-512-512-3": (4, 512, 512, 3)}
"""The two networks of the lesson, by their layer widths."""


def sweep(
    models: dict[str, Sequence[int]],
    rows: Sequence[int],
    *,
    device: torch.device | str,
    max_rows: dict[str, int] | None = None,
    min_run_time: float = 0.2,
    progress: bool | str = True,
    min_blocks: int = 1,
) -> pd.DataFrame:
    """Time per step for every model at every row count (full batch), as one table.

    ``max_rows`` caps the row count per model (the wide model on a CPU); ``min_run_time`` and
    ``min_blocks`` are :func:`step_time`'s, per point. A progress bar counts the points
    (labelled ``progress`` when that is a string; hidden with ``progress=False``).
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
    for name, widths, n in tqdm(points, desc=word(label), unit="point", disable=progress is False):
        row = step_time(widths, n, device=device, min_run_time=min_run_time, min_blocks=min_blocks)
        row |= {
            "model": name,
            "flops": flops_per_step(widths, n),
            "bytes": bytes_per_step(widths, n),
        }
        table.append(row)
    return pd.DataFrame(table)


def curve(
    rows: Sequence[float], seconds: Sequence[float], caller: str = "curve"
) -> tuple[np.ndarray, np.ndarray]:
    """One measured curve as two float arrays, checked: at least two sizes, increasing (an error
    names ``caller``, the function that was given the curve)."""
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
    not overhead (:func:`helpers.day06.curve_shape`: "rising from the smallest size"): the
    take-off is at or below the smallest size, which is returned.
    """
    x, y = curve(rows, seconds, "takeoff")
    if y[1] >= factor * y[0]:
        return float(x[0])
    return _crossing(x, y, np.full_like(y, factor * y[0]))


RESNET50_FLOPS_PER_IMAGE = 3 * 2 * 3.8e9
"""Training ResNet-50 on one 224x224 image: 3.8 billion multiply-adds forward (He et al., 2016),
2 FLOPs each, and about 3 times the forward pass for forward plus backward."""
IMAGENET_IMAGES = 1_281_167
"""ImageNet-1k's training images."""


def training_estimate(
    flops_per_second: float | None, images_per_second: float | None, *, epochs: int = 90
) -> dict[str, float | str | None]:
    """Hours to train ResNet-50 on ImageNet-1k for ``epochs`` epochs (90 is the classic
    schedule), bounded by arithmetic at ``flops_per_second`` and by loading the images at
    ``images_per_second``: whichever is slower sets the pace. A rate that was not measured
    (``None``) leaves its hours ``None``, and ``hours`` is then the other bound alone: a lower
    bound on the training's time (``bound`` says which is missing).

    >>> estimate = training_estimate(10e12, 2000, epochs=90)
    >>> [round(estimate[k], 1) for k in ("arithmetic hours", "loading hours")], estimate["bound"]
    ([73.0, 16.0], 'arithmetic')
    >>> training_estimate(10e12, None)["bound"]
    'at least the arithmetic (loading not measured)'
    """
    given = [rate for rate in (flops_per_second, images_per_second) if rate is not None]
    if any(rate <= 0 for rate in given) or epochs < 1:
        raise ValueError("need positive speeds and at least one epoch")
    arithmetic = loading = None
    if flops_per_second is not None:
        arithmetic = epochs * IMAGENET_IMAGES * RESNET50_FLOPS_PER_IMAGE / flops_per_second / 3600
    if images_per_second is not None:
        loading = epochs * IMAGENET_IMAGES / images_per_second / 3600
    if arithmetic is None and loading is None:
        bound = N_("not measured")
    elif loading is None:
        bound = N_("at least the arithmetic (loading not measured)")
    elif arithmetic is None:
        bound = N_("at least the loading (arithmetic not measured)")
    else:
        bound = N_("arithmetic") if arithmetic >= loading else N_("data loading")
    known = [hours for hours in (arithmetic, loading) if hours is not None]
    return {
        N_("arithmetic hours"): arithmetic,
        N_("loading hours"): loading,
        N_("hours"): max(known) if known else None,
        N_("bound"): bound,
    }


DECODED = {"n": 64, "image_size": 256}
"""The pictures whose decoding day 6 times for its loading bound (day 7's data set at its full
picture size)."""


def decode_rate() -> float:
    """JPEG pictures per second that one CPU core of this machine decodes and shrinks
    (:class:`helpers.data.JpegDataset`, :data:`DECODED`): day 6's loading rate per core."""
    from helpers.data import JpegDataset

    return JpegDataset(**DECODED).items_per_second(DECODED["n"])


def receipt_rates(receipt: Receipt) -> dict[str, float | str | None]:
    """A receipt's figures for the ImageNet estimate, each ``None`` when the receipt has not
    measured it (an older receipt): ``flops``, a matrix product's peak in ``dtype``, autocast's
    16-bit type on that device (how it trains an image model), and ``images``, the pictures per
    second its host decodes on all its usable CPUs (its rate per core times their number)."""
    imagenet, host = receipt.payload.get("imagenet") or {}, receipt.payload.get("host") or {}
    images = None
    if host:
        images = host["jpeg_per_core_per_s"] * host["usable_cpus"]
    return {
        "flops": imagenet.get("autocast_matmul_flops"),
        "dtype": imagenet.get("autocast_dtype"),
        "images": images,
    }


def imagenet_estimates(
    rates: dict[str, tuple[float | None, float | None]], *, epochs: int = 90
) -> pd.DataFrame:
    """:func:`training_estimate` for each machine of ``rates`` (its name: FLOP/s and pictures
    per second, either ``None`` when not measured), one row each, with the FLOP/s used."""
    rows = {
        name: {N_("GFLOP/s"): None if flops is None else flops / 1e9}
        | training_estimate(flops, images, epochs=epochs)
        for name, (flops, images) in rates.items()
    }
    return pd.DataFrame(rows).T


def host_curve(receipt: Receipt) -> pd.DataFrame | None:
    """The receipt's own host-CPU curve of :data:`MODELS` (its ``device`` "cpu" points, measured
    on the machine that holds its GPU), with ``flops`` and ``bytes`` per step; ``None`` when the
    receipt has none (a GPU's curve is then only comparable with another machine's CPU)."""
    points = [
        p for p in receipt["day06"]["points"] if p["device"] == "cpu" and p["model"] in MODELS
    ]
    if not points or receipt.device == "cpu":
        return None
    table = pd.DataFrame(points)
    pairs = list(zip(table["model"], table["rows"], strict=True))
    table["flops"] = [flops_per_step(MODELS[m], n) for m, n in pairs]
    table["bytes"] = [bytes_per_step(MODELS[m], n) for m, n in pairs]
    return table


def load_reference(
    shelf=None, reference: Path = GPU_REFERENCE
) -> tuple[Receipt, pd.DataFrame] | None:
    """A GPU's curve from a receipt, as ``(receipt, table)``, or ``None`` without a GPU receipt.

    The receipt is the newest of a GPU in ``shelf`` (a :class:`helpers.receipts.Shelf`; by default
    the learner's receipts, else the course's ``reference``, read by :mod:`helpers.receipts`, the
    one loader): its device, date, file and whether it is the course's reference, not the
    learner's (:func:`helpers.narration.receipt_label` names it for a plot or a table);
    ``table``: the GPU's points of :data:`MODELS` (``model``, ``rows``, ``device``, ``seconds``)
    with ``flops`` and ``bytes`` per step.
    """
    receipt = (load_all(reference=reference) if shelf is None else shelf).pick()
    if receipt is None or receipt.device == "cpu":
        return None
    points = [
        p for p in receipt["day06"]["points"] if p["device"] != "cpu" and p["model"] in MODELS
    ]
    if not points:
        return None
    table = pd.DataFrame(points)
    pairs = list(zip(table["model"], table["rows"], strict=True))
    table["flops"] = [flops_per_step(MODELS[m], n) for m, n in pairs]
    table["bytes"] = [bytes_per_step(MODELS[m], n) for m, n in pairs]
    return receipt, table


@dataclass(frozen=True)
class CurvePair:
    """A CPU's curve and a GPU's, to cross (:func:`helpers.crossover.crossing`): from one machine
    (``same_host``) or from two, which only a labelled figure may show."""

    cpu: pd.DataFrame
    gpu: pd.DataFrame
    same_host: bool
    receipt: Receipt | None = None
    """The receipt the GPU's curve (and, on its host, the CPU's) comes from; ``None``: measured
    here."""

    def here(self, side: str) -> bool:
        """Whether the ``side`` (``"cpu"`` or ``"gpu"``) curve was measured on this machine."""
        return self.receipt is None or (side == "cpu" and not self.same_host)


def curve_pairs(
    measured: pd.DataFrame, reference: tuple[Receipt, pd.DataFrame] | None = None
) -> list[CurvePair]:
    """The curves day 6 crosses, same machine first. With a GPU measured here (``measured`` has
    points of a device other than ``cpu``): this machine's CPU against it. Otherwise, with a GPU's
    receipt (``reference``, from :func:`load_reference`): the receipt's own host CPU against its
    GPU (:func:`host_curve`, when the receipt has it), then this machine's CPU against that GPU,
    two machines. Without either: none (one GPU point gives only a bound)."""
    cpu = measured[measured["device"] == "cpu"]
    gpu = measured[measured["device"] != "cpu"]
    if len(gpu):
        return [CurvePair(cpu, gpu, same_host=True)]
    if reference is None:
        return []
    receipt, table = reference
    host = host_curve(receipt)
    pairs = [] if host is None else [CurvePair(host, table, same_host=True, receipt=receipt)]
    return [*pairs, CurvePair(cpu, table, same_host=False, receipt=receipt)]
