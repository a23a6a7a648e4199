"""The script ``torchrun`` runs on day 8: the same code on 1 process, on N, on several machines
(day 8, sections 1, 2 and 7; its measurements, sections 3, 4, 5 and 8, in :mod:`.ddp_measure`).

Run it with PyTorch's launcher (never inside a notebook's kernel)::

    torchrun --standalone --nproc-per-node=2 -m helpers.ddp_train --out build/run --parts train

``torchrun`` starts the processes and tells each one who it is through environment variables
(``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK``, ``MASTER_ADDR``...); ``init_process_group`` reads them.
Each ``--parts`` item is one experiment; rank 0 writes what it found to ``<out>/<part>.json``:

* ``hello``: who is who (rank, local rank, world size, backend, host);
* ``sampler``: the rows ``DistributedSampler`` gives each rank;
* ``train``: data-parallel training with DDP: each rank its own rows, gradients averaged, logs
  and checkpoints by rank 0 only (atomically), resumed from the latest checkpoint after a
  restart; ``--fail-at`` kills one worker mid-training (once) to show it;
* ``ring``: the hand-written ring all-reduce against ``dist.all_reduce``: equal results, times
  over message sizes;
* ``bytes``: the bytes each rank sends in the ring, counted, for every group size up to the world;
* ``split``: time per step split into compute and communication for a small and a wide network,
  DDP's buckets, and the one-process runs that scaling is measured against;
* ``fsdp``: a sharded (FSDP) model on NVIDIA GPUs (nccl only).

This module holds the training worker and the entry point; the command line and what a worker
writes are in :mod:`helpers.ddp_io`, the measurements (``ring``, ``bytes``, ``split``, ``fsdp``)
in :mod:`helpers.ddp_measure`. Sizes come from :data:`helpers.config.SIZES` (the workers inherit
``COURSE_FAST``). Used on day 8.
"""

from __future__ import annotations

import json
import os
import signal
import socket

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from helpers.ddp_io import PARTS, arguments, line, log, write
from helpers.ddp_measure import count_bytes, fsdp, ring, split
from helpers.distributed import (
    load_checkpoint,
    make_data,
    make_model,
    make_optimizer,
    rank_rows,
    sampler_rows,
    save_checkpoint,
)
from helpers.i18n import N_
from helpers.training import sgd_step

__all__ = ["PARTS", "RUN", "arguments", "hello", "main", "sampler", "train"]


# --- hello, sampler ---------------------------------------------------------------------------


def hello(args, device) -> None:
    me = {
        "rank": dist.get_rank(),
        "local_rank": int(os.environ.get("LOCAL_RANK", 0)),
        "world_size": dist.get_world_size(),
        N_("host"): socket.gethostname(),
        "pid": os.getpid(),
        N_("backend"): dist.get_backend(),
        "device": str(device),
        N_("restart"): int(os.environ.get("TORCHELASTIC_RESTART_COUNT", 0)),
    }
    everyone = [None] * dist.get_world_size()
    dist.all_gather_object(everyone, me)
    total = torch.tensor([dist.get_rank() + 1.0], device=device)
    dist.all_reduce(total)  # 1 + 2 + ... + world_size, on every rank
    line(
        f"rank {me['rank']} of {me['world_size']} (local rank {me['local_rank']}) on "
        f"{me['host']}, pid {me['pid']}: all_reduce of rank + 1 gives {total.item():g}"
    )
    write(args, "hello", {"ranks": everyone, "all_reduce": total.item()})


def sampler(args, device) -> None:
    rank, world = dist.get_rank(), dist.get_world_size()
    n = 2 * world + 1  # not a multiple of the world size: the sampler pads
    mine = {
        N_("in order"): sampler_rows(n, world, rank),
        "shuffled, epoch 0": sampler_rows(n, world, rank, shuffle=True, epoch=0),
        "shuffled, epoch 1": sampler_rows(n, world, rank, shuffle=True, epoch=1),
    }
    everyone = [None] * world
    dist.all_gather_object(everyone, mine)
    write(args, "sampler", {"rows": n, "ranks": everyone})


# --- train --------------------------------------------------------------------------------------


def train(args, device) -> None:
    rank, world = dist.get_rank(), dist.get_world_size()
    restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", 0))
    folder = args.checkpoints or args.out / "checkpoints"
    latest = folder / "latest.pt"
    X, y = make_data(args.rows, args.widths[0], args.widths[-1])
    model = make_model(args.widths).to(device)
    optimizer = make_optimizer(model, args.lr)
    start = 0
    if (state := load_checkpoint(latest)) is not None:  # every rank reads the same file
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start = state["step"]
    log(f"attempt {restart}: {world} processes, starting at step {start}")
    if rank == 0:
        with open(args.out / "attempts.jsonl", "a", encoding="utf-8") as file:
            file.write(json.dumps({"restart": restart, "resumed_from": start}) + "\n")
    ddp = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    losses = {}
    for step in range(start, args.steps):
        if step == args.fail_at and rank == args.fail_rank and restart == 0:
            line(f"rank {rank}: killed at step {step} (SIGKILL, no goodbye)")
            os.kill(os.getpid(), signal.SIGKILL)
        rows = rank_rows(args.rows, world, rank, step, args.batch)
        loss = sgd_step(ddp, optimizer, X[rows].to(device), y[rows].to(device))
        if rank == 0 and (step % args.log_every == 0 or step == args.steps - 1):
            losses[step] = loss.item()  # a sync, on rank 0 only, every log_every steps
            print(f"step {step:4d}  loss {losses[step]:.4f}  (rank 0's rows)", flush=True)
        if rank == 0 and (step + 1) % args.every == 0:
            state = {"step": step + 1, "model": model.state_dict()}
            save_checkpoint(latest, state | {"optimizer": optimizer.state_dict()})
    if rank == 0:
        save_checkpoint(args.out / "final.pt", {k: v.cpu() for k, v in model.state_dict().items()})
    write(args, "train", {"world": world, "restart": restart, "start": start, "losses": losses})


def join(backend: str, device: torch.device) -> None:
    """``init_process_group`` from what torchrun put in the environment, with one detail: after a
    restart, torchrun hands the workers the same key-value store as before, still holding the
    previous attempt's addresses, and a worker may read a dead one (PyTorch issue #167288). Each
    attempt therefore gets keys of its own (a ``PrefixStore``)."""
    store, rank, world = next(dist.rendezvous("env://"))
    attempt = os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")
    dist.init_process_group(
        backend,
        store=dist.PrefixStore(f"attempt-{attempt}", store),
        rank=rank,
        world_size=world,
        device_id=device if backend == "nccl" else None,
    )


RUN = {
    "hello": hello,
    "sampler": sampler,
    "train": train,
    "ring": ring,
    "bytes": count_bytes,
    "split": split,
    "fsdp": fsdp,
}


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.device == "cuda":
        device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0)))
        torch.cuda.set_device(device)
    else:
        device = torch.device("cpu")
    backend = args.backend or ("nccl" if device.type == "cuda" else "gloo")
    join(backend, device)
    try:
        for part in args.parts:
            RUN[part](args, device)
        dist.barrier()
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
