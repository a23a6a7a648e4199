"""Day 8's measurements, run by every worker of :mod:`helpers.ddp_train`
(day 8, sections 3, 4, 5 and 8).

* ``ring``: the hand-written ring all-reduce against ``dist.all_reduce``: equal results, times
  over message sizes;
* ``bytes``: the bytes each rank sends in the ring, counted, for every group size up to the world;
* ``split``: time per step split into compute and communication for a small and a wide network,
  DDP's buckets, and the one-process runs that scaling is measured against;
* ``fsdp``: a sharded (FSDP) model on NVIDIA GPUs (nccl only).

Sizes come from :data:`helpers.config.SIZES`; rank 0 writes each result (:func:`.ddp_io.write`).
"""

from __future__ import annotations

import copy
import statistics

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from helpers.config import SIZES
from helpers.ddp_io import log, write
from helpers.distributed import (
    count_sends,
    make_data,
    make_model,
    make_optimizer,
    ring_all_reduce,
    ring_bytes_per_rank,
)
from helpers.i18n import N_
from helpers.scaling import interleaved, time_steps
from helpers.training import sgd_step

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
    elements = SIZES.day08_count_elements  # divisible by every group size from 1 to 8
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
        for label, cap in (("bucket_cap_mb=1", 1), (N_("one bucket"), 10_000)):
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
    for name, layers in (("small", SIZES.day08_small), (N_("wide"), SIZES.day08_wide)):
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
    for _attempt in range(3):
        sgd_step(model, optimizer, X.to(device), y.to(device))
    mine = {"local": local, "peak_bytes": torch.cuda.max_memory_allocated(device)}
    everyone = [None] * dist.get_world_size()
    dist.all_gather_object(everyone, mine)
    write(args, "fsdp", {"params": full, "ranks": everyone})
