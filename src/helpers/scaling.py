"""Communication against compute, and what more processes buy: the numbers of day 8.

* :func:`time_steps` and :func:`interleaved`: seconds per step, measured on every rank together
  (a barrier first), variants in a shuffled order that is the same on every rank;
* :func:`communication_split`: a DDP step split into compute and the communication it waits for,
  and :func:`communication_verdict` in words;
* :func:`scaling` / :func:`scaling_verdict`: strong and weak scaling, speed-up and efficiency;
* :func:`effective_batch` and :func:`scaled_lr`: the batch behind each step, and the learning-rate
  rule that goes with it;
* :func:`memory_per_gpu`: what ZeRO / FSDP sharding saves per GPU.

Latency and bandwidth (the α-β model) are in :mod:`helpers.links`. Used on day 8.

>>> effective_batch(32, world_size=8, accumulation=2), scaled_lr(0.1, base_batch=256, batch=1024)
(512, 0.4)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import torch

from helpers import narration
from helpers.i18n import N_, _, word
from helpers.timing import Measurement, timed

# --- Timing steps, communication against compute, scaling ------------------------------------


def time_steps(
    step: Callable[[], object],
    *,
    steps: int,
    device: torch.device | str,
    barrier: Callable[[], object] | None = None,
) -> float:
    """Seconds per step of ``steps`` calls of ``step``, the device synchronised around them;
    ``barrier`` (e.g. ``dist.barrier``) runs first, so that all ranks start together."""
    if barrier is not None:
        barrier()
    with timed(device) as watch:
        for _step in range(steps):
            step()
    return watch.seconds / steps


def interleaved(
    variants: dict[str, Callable[[], float]], *, repeats: int, seed: int = 0
) -> dict[str, Measurement]:
    """Call each variant ``repeats`` times, in a new shuffled order each round (the same order on
    every rank, from ``seed``); each call returns one sample."""
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {name: [] for name in variants}
    for _repeat in range(repeats):
        names = list(variants)
        rng.shuffle(names)
        for name in names:
            samples[name].append(variants[name]())
    return {name: Measurement(s) for name, s in samples.items()}


def communication_split(compute: float, ddp: float, allreduce: float) -> dict[str, float]:
    """Split a DDP step's time (all in seconds per step).

    ``compute``: the step with DDP's all-reduce switched off (``no_sync``); ``ddp``: the real
    step; ``allreduce``: an all-reduce of all the gradients alone. The communication the step
    waits for (``exposed``) is ``ddp - compute``; what overlapping with backward hid is
    ``allreduce - exposed`` (never below 0).

    >>> s = communication_split(compute=0.010, ddp=0.013, allreduce=0.005)
    >>> round(s["exposed"], 3), round(s["hidden"], 3), round(s["share"], 2)
    (0.003, 0.002, 0.23)
    """
    exposed = max(0.0, ddp - compute)
    return {
        "compute": compute,
        "ddp": ddp,
        "allreduce": allreduce,
        "exposed": exposed,
        "hidden": max(0.0, allreduce - exposed),
        N_("share"): exposed / ddp if ddp > 0 else 0.0,
    }


def communication_verdict(name: str, split: dict[str, float]) -> str:
    """Which dominates the step of model ``name``: computing or waiting for communication.

    >>> communication_verdict("wide", communication_split(0.010, 0.011, 0.004))[:44]
    'The wide model: communication is 9% of each '
    """
    share, exposed, allreduce = split["share"], split["exposed"], split["allreduce"]
    if share >= 0.5:
        kind = _("**communication-bound**: more processes make each step slower, not faster")
    elif share >= 0.2:
        kind = _(
            "communication is a large part: fewer, larger all-reduces (bigger batches) pay off"
        )
    else:
        kind = _("**compute-bound**: the all-reduce costs little next to the arithmetic")
    if exposed > allreduce:
        overlap = _(
            "The step waited longer than one all-reduce of all the gradients takes "
            "alone ({allreduce_ms:.2f} ms): overlapping hid nothing, and the other "
            "{other_ms:.2f} ms are not the all-reduce itself: DDP's own work "
            "around it, or processes slowing each other's compute."
        ).format(allreduce_ms=allreduce * 1e3, other_ms=(exposed - allreduce) * 1e3)
    else:
        hidden = split["hidden"] / allreduce if allreduce > 0 else 0.0
        overlap = _(
            "Overlapping the all-reduce with the backward pass hid {hidden:.0%} of it."
        ).format(hidden=hidden)
    return _(
        "The {name} model: communication is {share:.0%} of each step "
        "({exposed_ms:.2f} of {step_ms:.2f} ms); {kind}. {overlap}"
    ).format(
        name=word(name),
        share=share,
        exposed_ms=exposed * 1e3,
        step_ms=split["ddp"] * 1e3,
        kind=kind,
        overlap=overlap,
    )


@dataclass(frozen=True)
class Scaling:
    """One scaling measurement: ``processes`` processes against one."""

    kind: str
    """``"strong"`` (the same global batch, split) or ``"weak"`` (the same batch per process)."""
    processes: int
    one: float
    """Seconds per step with one process."""
    many: float
    """Seconds per step with ``processes`` processes."""
    rows_one: int
    rows_many: int
    """Rows per step in all (all processes together)."""

    @property
    def speedup(self) -> float:
        """Rows per second with ``processes`` over rows per second with one."""
        return (self.rows_many / self.many) / (self.rows_one / self.one)

    @property
    def efficiency(self) -> float:
        """``speedup / processes``: 1 is perfect scaling."""
        return self.speedup / self.processes


def scaling(kind: str, processes: int, one: float, many: float, rows: int) -> Scaling:
    """A strong or weak scaling measurement; ``rows``: rows per step of the one-process run.

    Strong scaling keeps the global batch (``processes`` share ``rows``); weak scaling gives
    every process ``rows``.

    >>> s = scaling("strong", 2, one=0.10, many=0.06, rows=256)
    >>> round(s.speedup, 2), round(s.efficiency, 2)
    (1.67, 0.83)
    """
    if kind not in ("strong", "weak"):
        raise ValueError(f"kind must be 'strong' or 'weak', got {kind!r}")
    if processes < 1 or one <= 0 or many <= 0:
        raise ValueError("need processes >= 1 and positive step times")
    rows_many = rows if kind == "strong" else rows * processes
    return Scaling(kind, processes, one, many, rows, rows_many)


SHARED_CORES = 1.15
"""Compute that takes this many times as long beside the other processes as alone: they slow
each other (shared cores, memory, caches); below it, the difference is read as none."""


def scaling_verdict(s: Scaling, contention: float | None = None) -> str:
    """What a scaling measurement says, in words that depend on the numbers. ``contention``: how
    many times as long the same compute took beside the other processes as alone (when measured).

    >>> scaling_verdict(scaling("weak", 2, 0.1, 0.25, 256))[:60]
    'Weak scaling, 2 processes: 0.80× the throughput of one proce'
    """
    if contention is None:
        lost = _("the loss is communication, or processes slowing each other's compute")
    elif contention > SHARED_CORES:
        lost = _(
            "the loss is communication and shared cores (compute: {contention:.2f}× alone)"
        ).format(contention=contention)
    else:
        lost = _(
            "the loss is communication (compute beside the others: {contention:.2f}× alone)"
        ).format(contention=contention)
    if s.kind == "strong":
        head = _(
            "Strong scaling, {processes} processes: {speedup:.2f}× the throughput "
            "of one process (efficiency {efficiency:.0%})"
        )
    else:
        head = _(
            "Weak scaling, {processes} processes: {speedup:.2f}× the throughput of "
            "one process (efficiency {efficiency:.0%})"
        )
    head = head.format(processes=s.processes, speedup=s.speedup, efficiency=s.efficiency)
    if s.speedup < 1:
        return _(
            "{head}: **slower than one process**: it loses more than the split work saves; {lost}."
        ).format(head=head, lost=lost)
    if s.efficiency > 1.1:
        return _(
            "{head}: **above the ideal**, more than N times one process's "
            "throughput from N processes: the one-process run was slowed (noise, "
            "or data that fits the caches of N processes but not of one); repeat "
            "it before reading it."
        ).format(head=head)
    if s.efficiency >= 0.9:
        return _("{head}: **near-perfect** scaling.").format(head=head)
    if s.efficiency >= 0.6:
        return _("{head}: **useful but lossy**; {lost}.").format(head=head, lost=lost)
    return _(
        "{head}: **poor**, under 60% of the ideal; the split of a step into "
        "compute and communication says how much of the loss is the all-reduce."
    ).format(head=head)


def difference_verdict(difference, a: str, b: str) -> str:
    """A paired difference of seconds per step (``helpers.stats.paired_difference``), in ms.

    >>> from helpers.stats import paired_difference
    >>> d = paired_difference([0.012, 0.013, 0.012], [0.010, 0.011, 0.010])
    >>> for part in difference_verdict(d, "x", "y").split(": "):
    ...     print(part)
    x minus y, per step
    +2.00 ms (95% interval +2.00 ms to +2.00 ms)
    the interval excludes zero, so x is slower.
    """
    a, b = word(a), word(b)
    said = _("{a} minus {b}, per step: {value}: {zero}").format(
        a=a,
        b=b,
        value=narration.interval(difference, 1e3, " ms", 2),
        zero=narration.zero(difference),
    )
    if not difference.distinguishable:
        return _("{said}; no difference shows.").format(said=said)
    return _("{said}, so {slower} is slower.").format(
        said=said, slower=a if difference.value > 0 else b
    )


def contention_verdict(rows: int, beside: float, alone: float) -> str:
    """Did the processes slow each other's compute? ``beside``: seconds per step of compute
    only, with the other processes computing too; ``alone``: the same rows in one process.

    >>> contention_verdict(128, 0.050, 0.030).split(": ")[1]
    '1.67× as long'
    """
    ratio = beside / alone
    head = _(
        "Even without communication, computing {rows} rows took "
        "{beside_ms:.1f} ms per step beside the other processes, against "
        "{alone_ms:.1f} ms alone"
    ).format(rows=rows, beside_ms=beside * 1e3, alone_ms=alone * 1e3)
    if ratio > SHARED_CORES:
        return _(
            "{head}: {ratio:.2f}× as long: the processes share its cores, memory and caches."
        ).format(head=head, ratio=ratio)
    if ratio < 1 / SHARED_CORES:
        return _(
            "{head}: {ratio:.2f}× as long, faster beside the others than alone, "
            "which sharing cannot explain: one of the two was disturbed, so this "
            "comparison says nothing about contention."
        ).format(head=head, ratio=ratio)
    return _(
        "{head}: about the same ({ratio:.2f}×), so the processes hardly slowed "
        "each other's compute; what the extra process loses goes to "
        "communication."
    ).format(head=head, ratio=ratio)


# --- Habits: batch size and learning rate ----------------------------------------------------


def effective_batch(per_rank: int, world_size: int, accumulation: int = 1) -> int:
    """Rows behind each optimizer step: per-rank batch x ranks x accumulation steps."""
    if min(per_rank, world_size, accumulation) < 1:
        raise ValueError("batch, world size and accumulation must all be at least 1")
    return per_rank * world_size * accumulation


def scaled_lr(base_lr: float, base_batch: int, batch: int) -> float:
    """The linear scaling rule (Goyal et al., 2017): k times the batch, k times the learning
    rate (with a warm-up for large k). A rule of thumb to start from, not a law."""
    return base_lr * batch / base_batch


# --- Sharding: memory per GPU --------------------------------------------------------------

RECIPES = {
    # bytes per parameter: weights, gradients, optimizer states
    N_("mixed precision + Adam"): (2, 2, 12),  # fp16/bf16 weights and grads; fp32 master, m, v
    "float32 + Adam": (4, 4, 8),
    N_("float32 + SGD with momentum"): (4, 4, 4),
}
"""Bytes per parameter for common training recipes (as in the ZeRO paper, Rajbhandari et al.)."""


def memory_per_gpu(params: float, gpus: int, recipe: str = "mixed precision + Adam"):
    """Bytes per GPU for weights, gradients and optimizer states (activations not included).

    DDP keeps everything on every GPU; ZeRO-1 shards the optimizer states, ZeRO-2 the gradients
    too, ZeRO-3 (PyTorch's FSDP) the weights as well. The ZeRO paper's example, 7.5 billion
    parameters on 64 GPUs:

    >>> [round(bytes_ / 1e9, 1) for bytes_ in memory_per_gpu(7.5e9, 64).values()]
    [120.0, 31.4, 16.6, 1.9]
    """
    if recipe not in RECIPES:
        raise ValueError(f"unknown recipe {recipe!r}; choose one of {', '.join(RECIPES)}")
    if params <= 0 or gpus < 1:
        raise ValueError("need a positive number of parameters and at least one GPU")
    w, g, o = (params * b for b in RECIPES[recipe])
    return {
        N_("DDP (nothing sharded)"): w + g + o,
        N_("ZeRO-1 (optimizer states)"): w + g + o / gpus,
        N_("ZeRO-2 (+ gradients)"): w + (g + o) / gpus,
        N_("ZeRO-3 / FSDP (+ weights)"): (w + g + o) / gpus,
    }
