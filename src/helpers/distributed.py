"""Data-parallel training with ``torch.distributed`` (day 8, sections 1, 2 and 7).

PyTorch's own engine does the work (process groups, ``DistributedDataParallel``, ``torchrun``);
this module holds what the lesson builds around it:

* :func:`plan`: which backend and how many processes (gloo on a CPU, nccl with one GPU per
  process), chosen from the device helper;
* :func:`rank_rows` and :func:`reference_weights`: which rows each rank trains on at each step,
  and the one-process run with the combined batch that DDP must equal;
* :func:`ring_all_reduce`: an all-reduce written from point-to-point ``isend``/``irecv``, and
  :func:`count_sends`, which counts the bytes that really went through ``isend`` (both in
  :mod:`helpers.ring`, importable from here);
* :func:`save_checkpoint` / :func:`load_checkpoint`: written by rank 0, atomically (write, then
  rename), so a worker killed at any moment never leaves half a checkpoint;
* :func:`run_ranks`: run a function on several local processes over loopback (forked, so it
  works on functions defined in a notebook), for the homework's tests (in :mod:`helpers.ranks`);

Launching is in :mod:`helpers.torchrun`, the numbers (timing, scaling, memory) in
:mod:`helpers.scaling`, the script ``torchrun`` runs in :mod:`helpers.ddp_train`. This module
computes; what its results mean, the lesson says (:mod:`helpers.day08`).

>>> ring_bytes_per_rank(12_000_000, 4) / 1e6  # each of 4 ranks sends 2(p-1)/p of the tensor
18.0
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import torch

from helpers.device import get_device
from helpers.models import mlp
from helpers.ranks import RankFailed, run_ranks
from helpers.ring import SendCounter, count_sends, ring_all_reduce, ring_bytes_per_rank
from helpers.training import sgd_step

__all__ = [  # the ring and run_ranks live in their own modules; importable from here as before
    "Plan", "RankFailed", "SendCounter", "backend_for", "count_sends", "load_checkpoint",
    "make_data", "make_model", "make_optimizer", "max_difference", "plan", "rank_rows",
    "reference_weights", "ring_all_reduce", "ring_bytes_per_rank", "run_ranks", "sampler_rows",
    "save_checkpoint",
]  # fmt: skip

# --- Which backend, how many processes ---------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """How the lesson runs its processes on this machine, and what the choice was made from (the
    lesson says why: :func:`helpers.day08.plan_reason`)."""

    backend: str
    """``"nccl"`` (NVIDIA GPUs) or ``"gloo"`` (CPU)."""
    device: str
    """``"cuda"`` or ``"cpu"``: where each process computes."""
    nproc: int
    """Processes per machine."""
    found: str
    """The device the choice was made for: ``"cuda"``, ``"mps"`` or ``"cpu"``."""
    gpus: int = 0
    """NVIDIA GPUs seen (when ``found`` is ``"cuda"``): NCCL needs one per process."""


def plan(device: torch.device | str | None = None, want: int = 2) -> Plan:
    """The backend and process count for ``device`` (default: the device helper's choice).

    NCCL needs one GPU per process, so NCCL is used only with at least two GPUs; with one GPU, on
    an Apple GPU (MPS has no distributed backend) or on a CPU, the processes use gloo on the CPU.

    >>> plan("cpu")
    Plan(backend='gloo', device='cpu', nproc=2, found='cpu', gpus=0)
    """
    device = torch.device(device) if device is not None else get_device()
    if want < 1:
        raise ValueError(f"want at least one process, got {want}")
    if device.type == "cuda":
        count = torch.cuda.device_count()
        if count >= 2:
            return Plan("nccl", "cuda", min(want, count), "cuda", count)
        return Plan("gloo", "cpu", want, "cuda", count)
    return Plan("gloo", "cpu", want, device.type)


def backend_for(device: torch.device | str) -> str:
    """``"nccl"`` for CUDA devices, ``"gloo"`` otherwise.

    >>> backend_for("cpu")
    'gloo'
    """
    return "nccl" if torch.device(device).type == "cuda" else "gloo"


# --- Data, and which rows each rank sees ----------------------------------------------------


def make_data(
    rows: int, features: int, classes: int, seed: int = 0
) -> tuple[torch.Tensor, torch.Tensor]:
    """A synthetic classification set: Gaussian features, labels from a random linear teacher.

    >>> X, y = make_data(6, 4, 3)
    >>> tuple(X.shape), y.dtype, int(y.max()) < 3
    ((6, 4), torch.int64, True)
    """
    generator = torch.Generator().manual_seed(seed)
    X = torch.randn(rows, features, generator=generator)
    teacher = torch.randn(features, classes, generator=generator)
    return X, (X @ teacher).argmax(dim=1)


def sampler_rows(
    n_rows: int, world_size: int, rank: int, *, shuffle: bool = False, seed: int = 0, epoch: int = 0
) -> list[int]:
    """The rows ``DistributedSampler`` gives ``rank`` (no process group needed).

    >>> sampler_rows(9, 2, 1)  # 9 rows, 2 ranks: padded to 10 by repeating row 0
    [1, 3, 5, 7, 0]
    """
    from torch.utils.data import DistributedSampler

    sampler = DistributedSampler(
        range(n_rows), num_replicas=world_size, rank=rank, shuffle=shuffle, seed=seed
    )
    sampler.set_epoch(epoch)
    return list(sampler)


def rank_rows(n_rows: int, world_size: int, rank: int, step: int, batch: int, seed: int = 0):
    """The rows ``rank`` trains on at global ``step``: its shuffled ``DistributedSampler`` share
    for the epoch the step falls in, cut into batches of ``batch`` (the last, short one dropped).

    Depends on the step alone, so a run resumed from a checkpoint sees exactly the rows an
    undisturbed run would.

    >>> rank_rows(8, 2, 0, step=0, batch=2) != rank_rows(8, 2, 1, step=0, batch=2)
    True
    """
    per_rank = math.ceil(n_rows / world_size)
    steps_per_epoch = per_rank // batch
    if steps_per_epoch < 1:
        raise ValueError(f"batch {batch} is larger than a rank's {per_rank} rows")
    epoch, index = divmod(step, steps_per_epoch)
    rows = sampler_rows(n_rows, world_size, rank, shuffle=True, seed=seed, epoch=epoch)
    return rows[index * batch : (index + 1) * batch]


def make_model(widths: Sequence[int], seed: int = 0) -> torch.nn.Module:
    """The network every rank (and the reference run) starts from."""
    torch.manual_seed(seed)
    return mlp(widths)


def make_optimizer(model: torch.nn.Module, lr: float) -> torch.optim.Optimizer:
    """SGD with momentum 0.9: its momentum buffers are state a checkpoint must keep."""
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)


def reference_weights(
    widths: Sequence[int],
    X: torch.Tensor,
    y: torch.Tensor,
    *,
    world_size: int,
    batch: int,
    steps: int,
    lr: float,
    seed: int = 0,
) -> dict[str, torch.Tensor]:
    """One process, no DDP: each step trains on the rows all ``world_size`` ranks would see
    together (``world_size * batch`` rows). DDP with ``batch`` rows per rank must end here."""
    model = make_model(widths, seed)
    optimizer = make_optimizer(model, lr)
    for step in range(steps):
        rows = [
            r
            for rank in range(world_size)
            for r in rank_rows(len(X), world_size, rank, step, batch)
        ]
        sgd_step(model, optimizer, X[rows], y[rows])
    return model.state_dict()


def max_difference(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> float:
    """The largest absolute difference between two state dicts with the same keys.

    >>> max_difference({"w": torch.zeros(2)}, {"w": torch.tensor([0.0, -0.5])})
    0.5
    """
    if a.keys() != b.keys():
        raise ValueError(f"different parameters: {sorted(a)} and {sorted(b)}")
    return max(float((a[k].float() - b[k].float()).abs().max()) for k in a)


# --- Checkpoints ---------------------------------------------------------------------------


def save_checkpoint(path: Path, state: dict) -> Path:
    """Write ``state`` to ``path`` atomically: into a temporary file beside it, flushed to disk,
    then renamed over ``path``. A process killed at any moment leaves the old checkpoint or the
    new one, never half of one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.partial-{os.getpid()}")
    try:
        with open(partial, "wb") as file:
            torch.save(state, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)  # atomic on POSIX and Windows
    finally:
        partial.unlink(missing_ok=True)
    return path


def load_checkpoint(path: Path) -> dict | None:
    """The checkpoint at ``path`` (on the CPU), or ``None`` when there is none yet."""
    path = Path(path)
    if not path.is_file():
        return None
    return torch.load(path, map_location="cpu", weights_only=True)
