"""The script ``torchrun`` runs on day 8: the same code on 1 process, on N, on several machines.

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

Sizes come from :data:`helpers.config.SIZES` (the workers inherit ``COURSE_FAST``) unless given.
Used on day 8.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import signal
import socket
import statistics
from pathlib import Path

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from helpers.config import SIZES
from helpers.distributed import (
    count_sends,
    load_checkpoint,
    make_data,
    make_model,
    make_optimizer,
    rank_rows,
    ring_all_reduce,
    ring_bytes_per_rank,
    sampler_rows,
    save_checkpoint,
)
from helpers.scaling import interleaved, time_steps
from helpers.training import sgd_step

PARTS = ("hello", "sampler", "train", "ring", "bytes", "split", "fsdp")


def widths(text: str) -> tuple[int, ...]:
    return tuple(int(w) for w in text.split(","))


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="where rank 0 writes results")
    parser.add_argument("--parts", default="train", help=f"comma-separated, from {PARTS}")
    parser.add_argument("--backend", default=None, help="gloo or nccl (default: from the device)")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    train = parser.add_argument_group("train")
    train.add_argument("--rows", type=int, default=SIZES.day08_rows)
    train.add_argument("--widths", type=widths, default=SIZES.day08_widths)
    train.add_argument("--batch", type=int, default=SIZES.day08_batch, help="rows per rank")
    train.add_argument("--steps", type=int, default=SIZES.day08_steps, help="train up to here")
    train.add_argument("--lr", type=float, default=0.05)
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


# --- hello, sampler ---------------------------------------------------------------------------


def hello(args, device) -> None:
    me = {
        "rank": dist.get_rank(),
        "local_rank": int(os.environ.get("LOCAL_RANK", 0)),
        "world_size": dist.get_world_size(),
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "backend": dist.get_backend(),
        "device": str(device),
        "restart": int(os.environ.get("TORCHELASTIC_RESTART_COUNT", 0)),
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
        "in order": sampler_rows(n, world, rank),
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


# --- ring, bytes ----------------------------------------------------------------------------


def ring(args, device) -> None:
    rank = dist.get_rank()
    timings, differences = {"ring": [], "dist.all_reduce": []}, []
    for size in SIZES.day08_sizes:
        elements = max(1, size // 4)  # float32
        x = torch.randn(elements, generator=torch.Generator().manual_seed(rank)).to(device)
        mine, theirs = ring_all_reduce(x.clone()), x.clone()
        dist.all_reduce(theirs)
        differences.append(float((mine - theirs).abs().max()))
        buffer = torch.zeros(elements, device=device)  # zeros: repeated sums stay finite
        calls = max(1, min(20, 2**18 // size))  # small messages: many calls per sample
        variants = {
            "ring": lambda b=buffer, c=calls: time_steps(
                lambda: ring_all_reduce(b), steps=c, device=device, barrier=dist.barrier
            ),
            "dist.all_reduce": lambda b=buffer, c=calls: time_steps(
                lambda: dist.all_reduce(b), steps=c, device=device, barrier=dist.barrier
            ),
        }
        for fn in variants.values():
            fn()  # warm-up
        for name, m in interleaved(variants, repeats=SIZES.day08_repeats, seed=size).items():
            timings[name].append(m.median)
        log(f"all-reduce of {size:>10,} bytes: ring {timings['ring'][-1] * 1e6:9.1f} µs")
    write(
        args,
        "ring",
        {"sizes": list(SIZES.day08_sizes), "seconds": timings, "max_difference": differences},
    )


def count_bytes(args, device) -> None:
    rank, world = dist.get_rank(), dist.get_world_size()
    elements = 840 * 64  # 840 is divisible by every group size from 1 to 8
    found = {}
    for p in range(2, world + 1):
        group = dist.new_group(list(range(p)))  # every rank takes part in creating it
        mine = None
        if rank < p:
            x = torch.randn(elements, generator=torch.Generator().manual_seed(rank)).to(device)
            reference = x.clone()
            dist.all_reduce(reference, group=group)
            with count_sends() as counter:
                ring_all_reduce(x, group=group)
            difference = float((x - reference).abs().max())  # float sums in another order
            mine = {"bytes": counter.bytes, "difference": difference}
        everyone = [None] * world
        dist.all_gather_object(everyone, mine)
        found[p] = {
            "bytes_per_rank": [e["bytes"] for e in everyone[:p]],
            "difference_from_all_reduce": max(e["difference"] for e in everyone[:p]),
            "formula": ring_bytes_per_rank(elements * 4, p),
        }
    write(args, "bytes", {"tensor_bytes": elements * 4, "groups": found})


# --- split: compute against communication, and the one-process runs --------------------------


def _step(model, optimizer, X, y):
    return lambda: sgd_step(model, optimizer, X, y)


def split_variants(name, layers, rows, device, world, wide):
    """The step variants to time for one network, as ``{name: (alone, step)}``."""
    X, y = make_data(rows * world, layers[0], layers[-1], seed=dist.get_rank())
    X, y = X.to(device), y.to(device)
    mine = X[:rows], y[:rows]
    variants = {}
    base = make_model(layers).to(device)

    def ddp(**options):
        model = DDP(copy.deepcopy(base), **options)
        return model, make_optimizer(model, 0.01)

    one = copy.deepcopy(base)
    one_opt = make_optimizer(one, 0.01)
    variants[f"{name}: one process, {rows * world} rows"] = (True, _step(one, one_opt, X, y))
    model, opt = ddp()

    def compute_only():
        with model.no_sync():  # gradients stay local: no all-reduce
            sgd_step(model, opt, *mine)

    variants[f"{name}: compute only"] = (False, compute_only)
    variants[f"{name}: DDP step"] = (False, _step(model, opt, *mine))
    flat = torch.zeros(sum(p.numel() for p in base.parameters()), device=device)
    variants[f"{name}: all-reduce alone"] = (False, lambda: dist.all_reduce(flat))
    if wide:
        variants[f"{name}: one process, {rows} rows"] = (True, _step(one, one_opt, *mine))
        for label, cap in (("bucket_cap_mb=1", 1), ("one bucket", 10_000)):
            m, o = ddp(bucket_cap_mb=cap)
            variants[f"{name}: DDP, {label}"] = (False, _step(m, o, *mine))
    else:

        def with_item():
            sgd_step(model, opt, *mine).item()  # a sync on every rank, every step

        variants[f"{name}: DDP step + .item()"] = (False, with_item)
    return variants


def split(args, device) -> None:
    world, rows = dist.get_world_size(), SIZES.day08_split_rows
    variants = {}
    for name, layers in (("small", SIZES.day08_small), ("wide", SIZES.day08_wide)):
        variants |= split_variants(name, layers, rows, device, world, wide=name == "wide")
    steps = SIZES.day08_split_steps

    def sample(alone, step):
        def run():
            dist.barrier()
            if not alone:
                return time_steps(step, steps=steps, device=device)
            seconds = time_steps(step, steps=steps, device=device) if dist.get_rank() == 0 else 0
            dist.barrier()  # the other ranks wait, idle, while rank 0 runs alone
            return seconds

        return run

    timers = {name: sample(*v) for name, v in variants.items()}
    for run in timers.values():
        run()  # warm-up (DDP builds its buckets on the first steps)
    measured = interleaved(timers, repeats=SIZES.day08_repeats)
    samples = torch.tensor([m.samples for m in measured.values()], dtype=torch.float64)
    dist.all_reduce(samples, op=dist.ReduceOp.MAX)  # each round, the slowest rank sets the pace
    samples = dict(zip(measured, samples.tolist(), strict=True))
    seconds = {name: statistics.median(s) for name, s in samples.items()}
    params = {
        name: sum(p.numel() for p in make_model(layers).parameters())
        for name, layers in (("small", SIZES.day08_small), ("wide", SIZES.day08_wide))
    }
    result = {"world": world, "rows": rows, "params": params, "seconds": seconds}
    write(args, "split", result | {"samples": samples})
    log("split: " + ", ".join(f"{k} {v * 1e3:.2f} ms" for k, v in seconds.items()))


# --- fsdp (NVIDIA GPUs only) ----------------------------------------------------------------


def fsdp(args, device) -> None:
    if device.type != "cuda":
        raise RuntimeError("the FSDP part needs NVIDIA GPUs and nccl (gloo lacks what it needs)")
    from torch.distributed.fsdp import fully_shard

    layers = SIZES.day08_wide
    model = make_model(layers).to(device)
    full = sum(p.numel() for p in model.parameters())
    for layer in model:
        if isinstance(layer, torch.nn.Linear):
            fully_shard(layer)
    fully_shard(model)
    local = sum(p.to_local().numel() for p in model.parameters())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    X, y = make_data(SIZES.day08_split_rows, layers[0], layers[-1], seed=dist.get_rank())
    torch.cuda.reset_peak_memory_stats(device)
    for _ in range(3):
        sgd_step(model, optimizer, X.to(device), y.to(device))
    mine = {"local": local, "peak_bytes": torch.cuda.max_memory_allocated(device)}
    everyone = [None] * dist.get_world_size()
    dist.all_gather_object(everyone, mine)
    write(args, "fsdp", {"params": full, "ranks": everyone})


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
