"""Fast mode and the sizes each day uses.

The course runs in two modes with the same cells:

* **full mode** (the default): the sizes the lessons talk about, what learners run;
* **fast mode** (``COURSE_FAST=1``): small sizes so that every notebook runs in seconds, used by the
  tests and CI.

This module is the only place that reads ``COURSE_FAST``. Notebooks never test the variable; they
read sizes from :data:`SIZES` (every day uses it)::

    from helpers.config import SIZES
    epochs = SIZES.day05_epochs

>>> sizes(fast=True).day05_epochs < sizes(fast=False).day05_epochs
True
>>> fast_mode("yes"), fast_mode("0")
(True, False)
>>> start_method("spawn"), start_method("")
('spawn', None)
"""

from __future__ import annotations

import multiprocessing
import os

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
"""The start method asked for with ``COURSE_START_METHOD`` (``None``: the platform's default).
It is set for the whole process here, so ``DataLoader`` workers start that way too."""
if START_METHOD is not None:
    multiprocessing.set_start_method(START_METHOD, force=True)


_EVERY = (1, 100, 200, 1000, 2000, None)  # day 5: the lesson's logging intervals, and never
_SWEEP = (1, 2, 5, 20, 100, 500, 2000, None)  # day 5: recordings per run spread on a log scale
_CHAIN = {"cpu": 2**22, "gpu": 2**27}  # day 5: float32 elements for bandwidth, by device kind


def _powers(base: float, first: int, last: int, step: int = 1) -> tuple[int, ...]:
    """``base**first`` to ``base**last`` (exponents ``step`` apart), rounded to whole numbers."""
    return tuple(round(base**k) for k in range(first, last + 1, step))


# Every knob of every experiment: its value in full mode (what learners run) and in fast mode
# (seconds per notebook, for the tests). One line each, so the two modes read side by side.
KNOBS: dict[str, tuple[object, object]] = {
    # name                     full mode                   fast mode
    # Day 0: a few training steps that prove the setup works.
    "day00_epochs":            (500,                        50),
    # Day 1: how long the live view watches a workload.
    "day01_watch_seconds":     (4.0,                        1.0),
    # Day 2: training the Iris MLP on the device; copy sizes (1 KiB to 64 MiB) and repeats.
    "day02_epochs":            (2000,                       200),
    "day02_copy_sizes":        (_powers(2, 10, 26, 2),      _powers(2, 10, 22, 4)),
    "day02_copy_repeats":      (11,                         3),
    # Day 4: the Heart Disease MLP, and repeats of 5-fold cross-validation.
    "day04_epochs":            (1000,                       200),
    "day04_cv_repeats":        (10,                         2),
    # Day 5: the lesson's run (20000 full-batch epochs, once per condition), then shorter runs
    # measured properly (repeated) at recording intervals spread on a log scale, the profiled
    # epochs (and those drawn as a timeline), the runs of the fixes and the epochs per call of
    # the amortised one, the wide network's rows and the elementwise chain's length on the
    # roofline (the same in both modes, so that both compile the same functions: one cache).
    "day05_epochs":            (20_000,                     2_000),
    "day05_record_every":      (_EVERY,                     _EVERY),
    "day05_sweep_every":       (_SWEEP,                     _SWEEP),
    "day05_measure_epochs":    (2000,                       500),
    "day05_repeats":           (5,                          2),
    "day05_profile_epochs":    (200,                        50),
    "day05_timeline_epochs":   (3,                          2),
    "day05_fix_epochs":        (2000,                       300),
    "day05_epochs_per_call":   (10,                         10),
    "day05_wide_rows":         (10_000,                     1000),
    "day05_chain_elements":    (_CHAIN,                     _CHAIN),
    # Day 5: the copy that measures the cache's bandwidth (256 KiB); whether to time compiling in
    # fresh processes, cold and warm cache (tens of seconds); a long training, in epochs.
    "day05_cache_elements":    (2**16,                      2**16),
    "day05_cold_compile":      (True,                       False),
    "day05_long_epochs":       (1_000_000,                  1_000_000),
    # Day 6: rows per full-batch step in half decades, 1e2 to 1e6 (fast: 1e4); the wide model's
    # cap on a CPU; repeats; the batch-size sweep over a fixed data set.
    "day06_rows":              (_powers(10**0.5, 4, 12),    _powers(10**0.5, 4, 8)),
    "day06_wide_cpu_max_rows": (100_000,                    10_000),
    "day06_min_run_time":      (0.2,                        0.02),
    "day06_dataset_rows":      (100_000,                    1000),
    "day06_batches":           ((32, 128, 512, 2048, 8192, 32768, 100_000), (32, 128, 512, 1000)),
    # Day 7: the JPEG data set (items, picture size), worker counts, batch sizes for memory,
    # steps for the algorithm comparisons, repeats.
    "day07_items":             (1536,                       256),
    "day07_image_size":        (256,                        128),
    "day07_workers":           ((0, 1, 2, 4),               (0, 1, 2)),
    "day07_batches":           ((256, 1024, 4096, 16384),   (256, 1024)),
    "day07_steps":             (200,                        20),
    "day07_repeats":           (3,                          2),
    "day07_habit_repeats":     (7,                          3),
    "day07_wide_rows":         (4096,                       1024),
    "day07_tuning_epochs":     (300,                        60),
    "day07_max_epochs":        (3000,                       600),
    # Day 7: copies of the Iris network trained in one batched step, and their epochs per run.
    "day07_models_per_launch": ((1, 8, 64),                 (1, 8, 64)),
    "day07_many_epochs":       (20,                         5),
    # The receipt and gpu-check (python -m helpers receipt; they also use the days' knobs above):
    # the largest matrix product (n x n, by device kind), the small kernels captured in one CUDA
    # graph, whether to compile day 5's compiled variants (a cold cache takes tens of seconds on a
    # CPU), day 5's baseline (its loop recording every N epochs), the all-reduce run's limit (s).
    "receipt_matmul_n":        ({"cpu": 2048, "gpu": 8192}, {"cpu": 1024, "gpu": 2048}),
    "receipt_graph_nodes":     (200,                        20),
    "receipt_compile":         (True,                       False),
    "receipt_lesson_every":    (100,                        100),
    "receipt_allreduce_s":     (900,                        300),
    # Day 8: the DDP training run (rows, network, rows per rank per step, steps, checkpoints);
    # the fault demo's extra steps; all-reduce sizes in bytes (32 B, 8 floats, to 64 MiB: a
    # smaller tensor leaves a ring's chunk empty); the small and wide networks whose steps are
    # split into compute and communication, their rows per rank, steps per sample, and repeats
    # of every timing.
    "day08_rows":              (4096,                       512),
    "day08_widths":            ((16, 64, 64, 4),            (16, 64, 64, 4)),
    "day08_batch":             (32,                         16),
    "day08_steps":             (60,                         20),
    "day08_every":             (10,                         5),
    "day08_more_steps":        (40,                         12),
    "day08_sizes":             (_powers(2, 5, 26, 3),       _powers(2, 7, 22, 5)),
    "day08_small":             ((4, 10, 3),                 (4, 10, 3)),
    "day08_wide":              ((256, 1024, 1024, 1024, 10), (64, 512, 512, 10)),
    "day08_split_rows":        (128,                        32),
    "day08_split_steps":       (8,                          2),
    "day08_repeats":           (5,                          2),
    # Day 8: the learning rate of the DDP run and of the single-process runs it is checked against
    # (passed to nobody: the workers and the notebook both read it here); the elements of the
    # tensor whose ring bytes are counted (840 is divisible by every group size from 1 to 8).
    "day08_lr":                (0.05,                       0.05),
    "day08_count_elements":    (840 * 64,                   840 * 64),
}  # fmt: skip


class Sizes:
    """The sizes of every experiment in one mode, as attributes named after :data:`KNOBS`."""

    def __init__(self, fast: bool) -> None:
        self.fast = fast
        for name, (full, quick) in KNOBS.items():
            setattr(self, name, quick if fast else full)

    def __repr__(self) -> str:
        return f"Sizes({'fast' if self.fast else 'full'} mode)"


FULL = Sizes(fast=False)
FAST = Sizes(fast=True)


def sizes(fast: bool | None = None) -> Sizes:
    """The sizes for fast mode (``True``), full mode (``False``) or the current mode (``None``)."""
    return FAST if (fast_mode() if fast is None else fast) else FULL


SIZES: Sizes = sizes()
"""The sizes for the mode this process runs in (fixed at import)."""
