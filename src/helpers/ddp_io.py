"""A day-8 worker's inputs and outputs: its command line, the results it writes, what it prints.

Shared by the script (:mod:`helpers.ddp_train`) and its measurements (:mod:`helpers.ddp_measure`).
Sizes default to :data:`helpers.config.SIZES` (the workers inherit ``COURSE_FAST``): the notebook
passes only what differs from run to run (the parts, the device, the steps, a failure to inject).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import torch.distributed as dist

from helpers.config import SIZES

PARTS = ("hello", "sampler", "train", "ring", "bytes", "split", "fsdp")
DESCRIPTION = (
    "The script torchrun runs on day 8: the same code on 1 process, on N, on several machines."
)


def widths(text: str) -> tuple[int, ...]:
    return tuple(int(w) for w in text.split(","))


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("--out", type=Path, required=True, help="where rank 0 writes results")
    parser.add_argument("--parts", default="train", help=f"comma-separated, from {PARTS}")
    parser.add_argument("--backend", default=None, help="gloo or nccl (default: from the device)")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    train = parser.add_argument_group("train")
    train.add_argument("--rows", type=int, default=SIZES.day08_rows)
    train.add_argument("--widths", type=widths, default=SIZES.day08_widths)
    train.add_argument("--batch", type=int, default=SIZES.day08_batch, help="rows per rank")
    train.add_argument("--steps", type=int, default=SIZES.day08_steps, help="train up to here")
    train.add_argument("--lr", type=float, default=SIZES.day08_lr)
    train.add_argument("--every", type=int, default=SIZES.day08_every, help="checkpoint interval")
    train.add_argument("--checkpoints", type=Path, default=None, help="default: <out>/checkpoints")
    train.add_argument("--fail-at", type=int, default=None, help="kill a worker at this step")
    train.add_argument("--fail-rank", type=int, default=1)
    train.add_argument("--log-every", type=int, default=10)
    args = parser.parse_args(argv)
    args.parts = [p for p in args.parts.split(",") if p]
    unknown = sorted(set(args.parts) - set(PARTS))
    if unknown:
        parser.error(f"unknown parts {unknown}; choose from {PARTS}")
    return args


def write(args: argparse.Namespace, part: str, result: dict) -> None:
    """Rank 0 writes one part's result (write, then rename: a reader never sees half a file)."""
    if dist.get_rank() == 0:
        path = args.out / f"{part}.json"
        partial = path.with_name(path.name + ".partial")
        partial.write_text(json.dumps(result, indent=1), encoding="utf-8")
        os.replace(partial, path)


def log(*text: object) -> None:
    """Print on rank 0 only: N processes printing the same line N times helps nobody."""
    if dist.get_rank() == 0:
        print(*text, flush=True)


def line(text: str) -> None:
    """Print one line from any rank in one write, so two ranks' lines never run together."""
    print(text + "\n", end="", flush=True)
