"""``python -m helpers gpu-check --out DIR``: the course's GPU reference, in one run.

On a machine with an NVIDIA GPU it measures the receipt (:mod:`helpers.course.receipt`: the
lessons' own functions at the sizes of ``helpers.config.KNOBS``; days 2, 5, 6, 7, 7b's ladder
and peaks and, with two GPUs or more, 8's all-reduce), checks it, writes it to
``DIR/gpu_reference.json``, prints the receipt's one-screen summary
(:func:`helpers.course.receipt.summary`), and with ``--notebooks`` also executes every lesson in
fast mode into ``DIR`` when Jupyter is installed. Copy the JSON to
``data/gpu_reference.json`` to ship it as the course's reference (``benchmarks/gpu_run.sh`` does
all of it). On a machine without CUDA it says so and exits with status 1: ``python -m helpers
receipt`` measures any device.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

from helpers.config import fast_mode
from helpers.course import receipt


def _notebooks(out: Path) -> None:
    try:
        from helpers.course.notebooks.execute import build_course
    except ImportError as err:
        print(f"--notebooks: Jupyter is not installed here ({err}); skipped.")
        return
    build_course(out / "notebooks-fast", fast=True)


def gpu_check(out: Path, *, notebooks: bool = False, fast: bool = False) -> int:
    if not torch.cuda.is_available():
        print(
            "ERROR: no CUDA GPU here (torch "
            f"{torch.__version__}, CUDA build: {torch.version.cuda or 'none'}). gpu-check measures "
            "an NVIDIA GPU: run it on a machine with one (`python -m helpers receipt` measures "
            "any device).",
            file=sys.stderr,
        )
        return 1
    device = torch.device("cuda")
    print(f"Measuring {torch.cuda.get_device_name(device)}...")
    payload = receipt.collect(device, fast=fast or fast_mode())
    target = out / "gpu_reference.json"
    try:
        receipt.write(payload, target)
    except ValueError as err:
        print(f"ERROR: {err}", file=sys.stderr)
        return 1
    print(receipt.summary(payload))
    print(f"wrote {target} (copy it to data/gpu_reference.json to ship it as the reference)")
    if notebooks:
        _notebooks(out)
    return 0
