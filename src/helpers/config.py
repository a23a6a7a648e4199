"""Fast mode and the sizes each day uses.

The course runs in two modes with the same cells:

* **full mode** (the default): the sizes the lessons talk about, what learners run;
* **fast mode** (``COURSE_FAST=1``): small sizes so that every notebook runs in seconds, used by the
  tests and CI.

This module is the only place that reads ``COURSE_FAST``. Notebooks never test the variable; they
read sizes from :data:`SIZES`::

    from helpers.config import SIZES
    epochs = SIZES.day05_epochs
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root folder (the package is installed in place from ``src/``)."""

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


@dataclass(frozen=True)
class Sizes:
    """The sizes of every experiment in the course, for one mode."""

    fast: bool
    # Day 0: a few training steps that prove the setup works.
    day00_epochs: int
    # Day 1: how long the live view watches a workload.
    day01_watch_seconds: float
    # Day 2: training the Iris MLP on the chosen device; host-to-device copy sizes and repeats.
    day02_epochs: int
    day02_copy_sizes: tuple[int, ...]
    day02_copy_repeats: int
    # Day 4: the Heart Disease MLP, and repeats of 5-fold cross-validation.
    day04_epochs: int
    day04_cv_repeats: int
    # Day 5: the logging-frequency experiment (20000 full-batch epochs in the lesson), run once
    # per condition as the learner did; then measured properly on shorter runs, repeated.
    day05_epochs: int
    day05_record_every: tuple[int | None, ...]
    day05_measure_epochs: int
    day05_repeats: int
    day05_profile_epochs: int
    day05_fix_epochs: int
    # Day 6: rows per full-batch step (the wide model stops at a cap on the CPU), repeats; the
    # batch-size sweep over a fixed data set.
    day06_rows: tuple[int, ...]
    day06_wide_cpu_max_rows: int
    day06_repeats: int
    day06_dataset_rows: int
    day06_batches: tuple[int, ...]
    # Day 7: the slow data set (items, decode time), worker counts, batch sizes for memory,
    # steps for the algorithm comparisons, repeats.
    day07_items: int
    day07_decode_ms: float
    day07_workers: tuple[int, ...]
    day07_batches: tuple[int, ...]
    day07_steps: int
    day07_repeats: int


FULL = Sizes(
    fast=False,
    day00_epochs=500,
    day01_watch_seconds=4.0,
    day02_epochs=2000,
    day02_copy_sizes=tuple(2**k for k in range(10, 29, 2)),  # 1 KiB to 256 MiB
    day02_copy_repeats=15,
    day04_epochs=1000,
    day04_cv_repeats=10,
    day05_epochs=20_000,
    day05_record_every=(1, 100, 200, 1000, 2000, None),
    day05_measure_epochs=5000,
    day05_repeats=3,
    day05_profile_epochs=200,
    day05_fix_epochs=2000,
    day06_rows=tuple(round(10 ** (k / 2)) for k in range(4, 13)),  # 100 to 1e6, half decades
    day06_wide_cpu_max_rows=100_000,
    day06_repeats=3,
    day06_dataset_rows=100_000,
    day06_batches=(32, 128, 512, 2048, 8192, 32768, 100_000),
    day07_items=1536,
    day07_decode_ms=1.0,
    day07_workers=(0, 1, 2, 4),
    day07_batches=(256, 1024, 4096, 16384),
    day07_steps=200,
    day07_repeats=3,
)

FAST = Sizes(
    fast=True,
    day00_epochs=50,
    day01_watch_seconds=1.0,
    day02_epochs=200,
    day02_copy_sizes=tuple(2**k for k in range(10, 23, 4)),  # 1 KiB to 4 MiB
    day02_copy_repeats=3,
    day04_epochs=200,
    day04_cv_repeats=2,
    day05_epochs=2_000,
    day05_record_every=(1, 100, 200, 1000, 2000, None),
    day05_measure_epochs=500,
    day05_repeats=2,
    day05_profile_epochs=50,
    day05_fix_epochs=300,
    day06_rows=tuple(round(10 ** (k / 2)) for k in range(4, 9)),  # 100 to 1e4
    day06_wide_cpu_max_rows=10_000,
    day06_repeats=2,
    day06_dataset_rows=1000,
    day06_batches=(32, 128, 512, 1000),
    day07_items=256,
    day07_decode_ms=0.5,
    day07_workers=(0, 1, 2),
    day07_batches=(256, 1024),
    day07_steps=20,
    day07_repeats=2,
)


def sizes(fast: bool | None = None) -> Sizes:
    """The sizes for fast mode (``True``), full mode (``False``) or the current mode (``None``)."""
    return FAST if (fast_mode() if fast is None else fast) else FULL


SIZES: Sizes = sizes()
"""The sizes for the mode this process runs in (fixed at import)."""
