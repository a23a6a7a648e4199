"""Fast mode and the sizes each day uses.

The course runs in two modes with the same cells:

* **full mode** (the default): the sizes the lessons talk about, what learners run;
* **fast mode** (``COURSE_FAST=1``): small sizes so that every notebook runs in seconds, used by the
  tests and CI.

This module is the only place that reads ``COURSE_FAST``. Notebooks never test the variable; they
read sizes from :data:`SIZES` (every day uses it)::

    from helpers.config import SIZES
    epochs = SIZES.day05_epochs

It also reads ``COURSE_START_METHOD`` (how new processes start) and applies it to nothing: the code
that starts processes asks for it (:func:`worker_context` for ``DataLoader`` workers).
Importing this module changes nothing in the process.

>>> sizes(fast=True).day05_epochs < sizes(fast=False).day05_epochs
True
>>> fast_mode("yes"), fast_mode("0")
(True, False)
>>> start_method("spawn"), start_method("")
('spawn', None)
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import os
from dataclasses import dataclass, field, fields
from typing import Any

TESTED_TORCH = "2.13.0"
"""The PyTorch release the course is tested with (the Makefile's default ``TORCH_SPEC``)."""

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"", "0", "false", "no", "off"}


def fast_mode(value: str | None = None) -> bool:
    """Whether fast mode is on, from ``value`` or else the ``COURSE_FAST`` environment variable.

    Accepts 1/0, true/false, yes/no, on/off (any case); anything else raises ``ValueError``.
    """
    raw = os.environ.get("COURSE_FAST", "") if value is None else value
    text = raw.strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(
        f"COURSE_FAST={raw!r} is not understood. Use COURSE_FAST=1 for fast mode "
        "or COURSE_FAST=0 (or leave it unset) for full mode."
    )


START_METHODS = ("fork", "spawn", "forkserver")


def start_method(value: str | None = None) -> str | None:
    """How new processes start, from ``value`` or else ``COURSE_START_METHOD``: ``None`` (unset)
    keeps the platform's default; ``spawn`` starts them as macOS and Windows do (a fresh
    interpreter that imports what it runs, so nothing defined in a notebook reaches it)."""
    raw = os.environ.get("COURSE_START_METHOD", "") if value is None else value
    text = raw.strip().lower()
    if not text:
        return None
    if text not in START_METHODS or text not in multiprocessing.get_all_start_methods():
        allowed = ", ".join(
            m for m in START_METHODS if m in multiprocessing.get_all_start_methods()
        )
        raise ValueError(
            f"COURSE_START_METHOD={raw!r} is not a start method this system has; use one of "
            f"{allowed}, or leave it unset for the platform's default."
        )
    return text


START_METHOD = start_method()
"""The start method asked for with ``COURSE_START_METHOD`` (``None``: the platform's default),
read at import and never set for the whole process: each place that starts processes uses it,
through a context of its own (:func:`worker_context` for ``DataLoader`` workers,
:func:`helpers.ranks.run_ranks`, the grader's examiners)."""


def worker_context(num_workers: int) -> multiprocessing.context.BaseContext | None:
    """What to pass as ``multiprocessing_context`` to a ``DataLoader`` with ``num_workers``
    workers, so that they start as ``COURSE_START_METHOD`` asks (:data:`START_METHOD`)::

        loader = DataLoader(data, num_workers=2, multiprocessing_context=worker_context(2))

    ``None`` (PyTorch's default: the platform's start method) when the variable is unset, and
    always with no workers: a ``DataLoader`` without workers refuses a context.

    >>> worker_context(0) is None
    True
    """
    if num_workers < 0:
        raise ValueError(f"num_workers must be 0 or more, got {num_workers}")
    if num_workers == 0 or START_METHOD is None:
        return None
    return multiprocessing.get_context(START_METHOD)


_EVERY = (1, 100, 200, 1000, 2000, None)  # day 5: the lesson's logging intervals, and never
_SWEEP = (1, 2, 5, 20, 100, 500, 2000, None)  # day 5: recordings per run spread on a log scale
_CHAIN = {"cpu": 2**22, "gpu": 2**27}  # day 5: float32 elements for bandwidth, by device kind

# The types of the knobs that hold several values.
Ints = tuple[int, ...]
Every = tuple[int | None, ...]  # recording intervals in epochs; None: never
ByKind = dict[str, int]  # by device kind: "cpu", "gpu"

_UNSET: Any = object()


def _powers(base: float, first: int, last: int, step: int = 1) -> tuple[int, ...]:
    """``base**first`` to ``base**last`` (exponents ``step`` apart), rounded to whole numbers."""
    return tuple(round(base**k) for k in range(first, last + 1, step))


def knob(full: Any, fast: Any) -> Any:
    """One field of :class:`Sizes`: its value in full mode and in fast mode, side by side.

    The two values live in the field's metadata (``KNOBS`` is read from there); a :class:`Sizes`
    takes the one of its mode. Given as a keyword, a value replaces it (``Sizes(fast=True,
    day05_fix_epochs=20)``, or :func:`dataclasses.replace`)."""
    return field(default=_UNSET, kw_only=True, metadata={"full": full, "fast": fast})


@dataclass(frozen=True, eq=False, repr=False)
class Sizes:
    """The sizes of every experiment in one mode: ``fast`` (fast mode) or not (full mode).

    Every knob of every experiment is a typed field, declared once with its value in full mode
    (what learners run) and in fast mode (seconds per notebook, for the tests): one line each, so
    the two modes read side by side. Frozen: derive other sizes with :func:`dataclasses.replace`.

    >>> FAST, FULL.day00_epochs, FAST.day00_epochs
    (Sizes(fast mode), 500, 50)
    >>> from dataclasses import replace
    >>> replace(FAST, day05_fix_epochs=20).day05_fix_epochs, FAST.day05_fix_epochs
    (20, 300)
    """

    fast: bool
    """Fast mode (``True``) or full mode (``False``)."""

    # fmt: off
    # name                   type     full mode                    fast mode
    # Day 0: a few training steps that prove the setup works.
    day00_epochs:            int    = knob(500,                     50)
    # Day 1: how long the live view watches a workload.
    day01_watch_seconds:     float  = knob(4.0,                     1.0)
    # Day 2: training the Iris MLP on the device; copy sizes (1 KiB to 64 MiB) and repeats.
    day02_epochs:            int    = knob(2000,                    200)
    day02_copy_sizes:        Ints   = knob(_powers(2, 10, 26, 2),   _powers(2, 10, 22, 4))
    day02_copy_repeats:      int    = knob(11,                      3)
    # Day 4: the Heart Disease MLP, and repeats of 5-fold cross-validation.
    day04_epochs:            int    = knob(1000,                    200)
    day04_cv_repeats:        int    = knob(10,                      2)
    # Day 5: the lesson's run (20000 full-batch epochs, once per condition), then shorter runs
    # measured properly (repeated) at recording intervals spread on a log scale, the profiled
    # epochs (and those drawn as a timeline), the runs of the fixes and the epochs per call of
    # the amortised one, the wide network's rows and the elementwise chain's length on the
    # roofline (the same in both modes, so that both compile the same functions: one cache).
    day05_epochs:            int    = knob(20_000,                  2_000)
    day05_record_every:      Every  = knob(_EVERY,                  _EVERY)
    day05_sweep_every:       Every  = knob(_SWEEP,                  _SWEEP)
    day05_measure_epochs:    int    = knob(2000,                    500)
    day05_repeats:           int    = knob(5,                       2)
    day05_profile_epochs:    int    = knob(200,                     50)
    day05_timeline_epochs:   int    = knob(3,                       2)
    day05_fix_epochs:        int    = knob(2000,                    300)
    day05_epochs_per_call:   int    = knob(10,                      10)
    day05_wide_rows:         int    = knob(10_000,                  1000)
    day05_chain_elements:    ByKind = knob(_CHAIN,                  _CHAIN)
    # Day 5: the copy that measures the cache's bandwidth (256 KiB); whether to time compiling in
    # fresh processes, cold and warm cache (tens of seconds); a long training, in epochs.
    day05_cache_elements:    int    = knob(2**16,                   2**16)
    day05_cold_compile:      bool   = knob(True,                    False)
    day05_long_epochs:       int    = knob(1_000_000,               1_000_000)
    # Day 5a: made-up experiments that show what an interval is; the device-bound loop whose
    # recordings a GPU's queue can make wait (a 4-W-W-3 network on this many rows, this many
    # epochs per run: GPUs only).
    day05_simulated:         int    = knob(1000,                    200)
    day05_device_width:      int    = knob(1024,                    256)
    day05_device_rows:       int    = knob(16_384,                  4_096)
    day05_device_epochs:     int    = knob(200,                     50)
    # Day 6: rows per full-batch step in half decades, 1e2 to 1e6 (fast: 1e4); the wide model's
    # cap on a CPU; repeats (seconds of blocks per point, and at least this many blocks: a point
    # timed in one block has no spread); the batch-size sweep over a fixed data set.
    day06_rows:              Ints   = knob(_powers(10**0.5, 4, 12), _powers(10**0.5, 4, 8))
    day06_wide_cpu_max_rows: int    = knob(100_000,                 10_000)
    day06_min_run_time:      float  = knob(0.2,                     0.02)
    day06_min_blocks:        int    = knob(5,                       2)
    day06_dataset_rows:      int    = knob(100_000,                 1000)
    day06_batches:           Ints   = knob((32, 128, 512, 2048, 8192, 32768, 100_000),
                                                                    (32, 128, 512, 1000))
    # Day 7: the JPEG data set (items, picture size), worker counts and the epochs timed per
    # loader setting, batch sizes for memory, steps for the algorithm comparisons, repeats, and
    # the runs per learning rate (its verdict needs an interval narrower than the effect).
    day07_items:             int    = knob(512,                     256)
    day07_image_size:        int    = knob(256,                     128)
    day07_workers:           Ints   = knob((0, 1, 2, 4),            (0, 2))
    day07_loader_repeats:    int    = knob(3,                       2)
    day07_batches:           Ints   = knob((256, 1024, 4096, 16384), (256, 1024))
    day07_steps:             int    = knob(200,                     20)
    day07_repeats:           int    = knob(3,                       2)
    day07_habit_repeats:     int    = knob(7,                       3)
    day07_wide_rows:         int    = knob(4096,                    1024)
    day07_tuning_epochs:     int    = knob(300,                     60)
    day07_tuning_repeats:    int    = knob(15,                      5)
    day07_max_epochs:        int    = knob(3000,                    600)
    # Day 7: copies of the Iris network trained in one batched step, and their epochs per run.
    day07_models_per_launch: Ints   = knob((1, 8, 64),              (1, 8, 64))
    day07_many_epochs:       int    = knob(20,                      5)
    # Day 7b: the character-level transformer (width, heads, layers, context in characters); the
    # ladder's batch, the larger batch's factor, training steps per timed call, the rounds of each
    # comparison and the steps of each loss check; whether to compile (a cold cache costs tens of
    # seconds on a CPU); the matrix products that measure each number type's peak (n x n, by
    # device kind); the memory lab's budget (bytes); the training before the sample, in steps,
    # and the sample's characters.
    day07b_width:            int    = knob(64,                      32)
    day07b_heads:            int    = knob(8,                       2)
    day07b_layers:           int    = knob(2,                       2)
    day07b_context:          int    = knob(64,                      32)
    day07b_batch:            int    = knob(16,                      8)
    day07b_batch_factor:     int    = knob(4,                       4)
    day07b_steps_per_call:   int    = knob(4,                       4)
    day07b_repeats:          int    = knob(3,                       2)
    day07b_check_steps:      int    = knob(8,                       4)
    day07b_compile:          bool   = knob(True,                    False)
    day07b_matmul_n:         ByKind = knob({"cpu": 1024, "gpu": 8192}, {"cpu": 512, "gpu": 2048})
    day07b_budget:           int    = knob(64 * 2**20,              16 * 2**20)
    day07b_train_steps:      int    = knob(400,                     40)
    day07b_sample_chars:     int    = knob(120,                     60)
    # The receipt and gpu-check (python -m helpers receipt; they also use the days' knobs above):
    # the largest matrix product (n x n, by device kind), the small kernels captured in one CUDA
    # graph, whether to compile day 5's compiled variants (a cold cache takes tens of seconds on a
    # CPU), day 5's baseline (its loop recording every N epochs), the all-reduce run's limit (s).
    receipt_matmul_n:        ByKind = knob({"cpu": 2048, "gpu": 8192}, {"cpu": 1024, "gpu": 2048})
    receipt_graph_nodes:     int    = knob(200,                     20)
    receipt_compile:         bool   = knob(True,                    False)
    receipt_lesson_every:    int    = knob(100,                     100)
    receipt_allreduce_s:     float  = knob(900,                     300)
    # The receipt's day 7b ladder: whether to try torch.compile's max-autotune on a GPU (minutes of
    # compiling: it benchmarks kernels for every matrix product).
    receipt_autotune:        bool   = knob(True,                    False)
    # Day 8: the DDP training run (rows, network, rows per rank per step, steps, checkpoints);
    # the fault demo's extra steps; all-reduce sizes in bytes (32 B, 8 floats, to 64 MiB: a
    # smaller tensor leaves a ring's chunk empty); the small and wide networks whose steps are
    # split into compute and communication, their rows per rank, steps per sample, and repeats
    # of every timing.
    day08_rows:              int    = knob(4096,                    512)
    day08_widths:            Ints   = knob((16, 64, 64, 4),         (16, 64, 64, 4))
    day08_batch:             int    = knob(32,                      16)
    day08_steps:             int    = knob(60,                      20)
    day08_every:             int    = knob(10,                      5)
    day08_more_steps:        int    = knob(40,                      12)
    day08_sizes:             Ints   = knob(_powers(2, 5, 26, 3),    _powers(2, 7, 22, 5))
    day08_small:             Ints   = knob((4, 10, 3),              (4, 10, 3))
    day08_wide:              Ints   = knob((256, 1024, 1024, 1024, 10), (64, 512, 512, 10))
    day08_split_rows:        int    = knob(128,                     32)
    day08_split_steps:       int    = knob(8,                       2)
    day08_repeats:           int    = knob(5,                       2)
    # Day 8: network cards per machine in the estimate for two machines (one per GPU on most
    # 8-GPU training servers; NCCL runs a ring through each, side by side).
    day08_nics_per_machine:  int    = knob(8,                       8)
    # Day 8: the learning rate of the DDP run and of the single-process runs it is checked against
    # (passed to nobody: the workers and the notebook both read it here); the elements of the
    # tensor whose ring bytes are counted (840 is divisible by every group size from 1 to 8).
    day08_lr:                float  = knob(0.05,                    0.05)
    day08_count_elements:    int    = knob(840 * 64,                840 * 64)
    # fmt: on

    def __post_init__(self) -> None:
        mode = "fast" if self.fast else "full"
        for knob_field in fields(self):
            if getattr(self, knob_field.name) is _UNSET:
                object.__setattr__(self, knob_field.name, knob_field.metadata[mode])

    def __repr__(self) -> str:
        return f"Sizes({'fast' if self.fast else 'full'} mode)"


KNOBS: dict[str, tuple[object, object]] = {
    f.name: (f.metadata["full"], f.metadata["fast"]) for f in fields(Sizes) if f.metadata
}
"""Every knob by name: ``(full mode, fast mode)``, read from :class:`Sizes`'s fields, where the
values are written."""

FULL = Sizes(fast=False)
FAST = Sizes(fast=True)


def sizes(fast: bool | None = None) -> Sizes:
    """The sizes for fast mode (``True``), full mode (``False``) or the current mode (``None``)."""
    return FAST if (fast_mode() if fast is None else fast) else FULL


SIZES: Sizes = sizes()
"""The sizes for the mode this process runs in (fixed at import)."""
