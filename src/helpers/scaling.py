"""Communication against compute, and what more processes buy (day 8, sections 2, 4, 5 and 8).

* :func:`time_steps` and :func:`interleaved`: seconds per step, measured on every rank together
  (a barrier first), variants in a shuffled order that is the same on every rank;
* :func:`communication_split`: a DDP step split into compute and the communication it waits for
  (section 4);
* :func:`scaling` and :class:`Contention`: strong and weak scaling, speed-up and efficiency, and
  whether the processes slowed each other's compute (section 5);
* :func:`effective_batch` and :func:`scaled_lr`: the batch behind each step, and the learning-rate
  rule that goes with it (section 2);
* :func:`memory_per_gpu`: what ZeRO / FSDP sharding saves per GPU (section 8).

Latency and bandwidth (the α-β model) are in :mod:`helpers.links`. This module computes; what
the numbers mean, the lesson says (:mod:`helpers.day08`).

>>> effective_batch(32, world_size=8, accumulation=2), scaled_lr(0.1, base_batch=256, batch=1024)
(512, 0.4)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import torch

from helpers.i18n import N_
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


@dataclass(frozen=True)
class Contention:
    """The same compute beside the other processes and alone: did they slow each other?"""

    rows: int
    """Rows per step, in each process."""
    beside: float
    """Seconds per step of compute only (DDP's all-reduce off), the other processes computing."""
    alone: float
    """Seconds per step of the same rows in one process, alone.

    >>> round(Contention(128, beside=0.050, alone=0.030).ratio, 2)
    1.67
    """

    @property
    def ratio(self) -> float:
        """How many times as long the compute took beside the others as alone."""
        return self.beside / self.alone


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
