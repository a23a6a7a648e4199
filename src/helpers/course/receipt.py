"""``python -m helpers receipt --out FILE``: what this device does, in one JSON file (a receipt).

The format is ``course-receipt/1`` (``helpers.receipts`` reads it back in the lessons). On a CUDA
GPU, an Apple GPU (MPS) or a CPU it measures, through the lessons' own functions and with the
sizes of :data:`helpers.config.KNOBS` (fast or full mode):

* the machine: device name and count, memory, driver, CUDA, torch, Python, host CPU, threads;
* synchronisation: one small kernel's launch, one ``.item()`` (day 5), a CUDA graph's replay
  per node (CUDA only);
* copies (day 2): host to device and back, pageable and pinned, and within the device;
* the roofs (days 5, 7): the largest matrix product's FLOP/s and the copy bandwidth, beside the
  datasheet's ceilings (:mod:`helpers.datasheets`) when the GPU is known;
* day 5: the lesson loop against its faster variants, as the lesson runs them;
* day 6: the take-off curve (time per step against rows), on this device and on the CPU;
* day 7: the busy share and model FLOP utilisation of the lesson's step and the wide one;
* with two or more GPUs, all-reduce bus bandwidth from day 8's own run (``torchrun``, NCCL).

:func:`collect` measures, :func:`write` checks the payload with the lessons' own reader
(:func:`helpers.receipts.validate`: the format and its plausibility bounds) before writing it.
``python -m helpers gpu-check`` is this on a CUDA GPU, plus the notebooks; its
:func:`~helpers.course.gpu_check.summary` puts a receipt on one screen.
"""

from __future__ import annotations

import datetime
import json
import platform
import sys
import tempfile
from pathlib import Path

import torch

from helpers.config import Sizes, fast_mode, sizes
from helpers.receipts import FIX, SCHEMA, validate

WIDE = "wide 4-512-512-3"
"""Day 6's wide network (a key of ``helpers.takeoff.MODELS``): capped in rows on a CPU."""


def _kind(device: torch.device) -> str:
    """``cpu`` or ``gpu``: how knobs that depend on the device are keyed."""
    return "cpu" if device.type == "cpu" else "gpu"


def machine(device: torch.device) -> dict:
    """The device and the host: name, count, memory, driver and library versions."""
    import psutil

    from helpers import nvml
    from helpers.cpu import cpu_name

    host = cpu_name()
    found = {"device": device.type, "name": host, "count": 1, "memory_bytes": None}
    found |= {"driver": None, "cuda": None}
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device.index or torch.cuda.current_device())
        found |= {"name": props.name, "count": torch.cuda.device_count()}
        found |= {"memory_bytes": props.total_memory, "driver": nvml.driver_version()}
        found["cuda"] = torch.version.cuda
    else:  # a CPU, or an Apple GPU sharing the host's memory
        found["memory_bytes"] = psutil.virtual_memory().total
    if device.type == "mps":
        found["name"] = f"{host} GPU (MPS)"
    return found | {
        "torch": torch.__version__,
        "python": platform.python_version(),
        "cpu": host,
        "threads": torch.get_num_threads(),
    }


def graph_replay_per_node(x: torch.Tensor, nodes: int, device: torch.device) -> float:
    """Seconds per node of replaying a CUDA graph of ``nodes`` small kernels on ``x``."""
    from helpers.timing import benchmark

    x.add_(1)  # warm-up outside the capture
    torch.cuda.synchronize(device)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(nodes):
            x.add_(1)
    return benchmark(graph.replay, device=device).median / nodes


def sync(device: torch.device, s: Sizes) -> dict:
    """One small kernel's launch (enqueue), one ``.item()`` as day 5 times it, a graph node."""
    from helpers.data import load_iris_split
    from helpers.models import IrisMLP
    from helpers.timing import benchmark

    tiny = torch.zeros(1, device=device)
    X, _, y, _ = load_iris_split(device=device)
    loss = torch.nn.functional.cross_entropy(IrisMLP().to(device)(X), y)
    node = None
    if device.type == "cuda":
        node = graph_replay_per_node(tiny, s.receipt_graph_nodes, device)
    return {
        "launch_s": benchmark(lambda: tiny.add_(1), device=device).median,
        "item_s": benchmark(loss.item, device=device).median,
        "graph_node_s": node,
    }


def readback(device: torch.device, n_bytes: int, pinned: bool) -> float:
    """Bytes per second of copying ``n_bytes`` from the device into host memory (pinned or not)."""
    from helpers.timing import benchmark

    source = torch.ones(n_bytes // torch.float32.itemsize, device=device)
    target = torch.empty(source.shape, pin_memory=pinned)
    return n_bytes / benchmark(lambda: target.copy_(source), device=device).median


def copy_rates(device: torch.device, s: Sizes) -> dict:
    """Day 2's copies at its largest size: host to device (its own function), device to host,
    pageable and pinned (CUDA), and within the device (the roofline's copy)."""
    from helpers import roofline
    from helpers.copies import measure_copies

    n = max(s.day02_copy_sizes)
    found = dict.fromkeys(("h2d_pageable", "h2d_pinned", "d2h_pageable", "d2h_pinned"))
    if device.type != "cpu":
        table = measure_copies(device, [n], repeats=s.day02_copy_repeats)
        rate = dict(zip(table["variant"], table["bytes"] / table["median_s"], strict=True))
        found["h2d_pageable"] = rate.get("pageable -> GPU, copy_") or rate["host -> MPS, copy_"]
        found["h2d_pinned"] = rate.get("pinned -> GPU, copy_")
        found["d2h_pageable"] = readback(device, n, pinned=False)
    if device.type == "cuda":
        found["d2h_pinned"] = readback(device, n, pinned=True)
    on_device = roofline.measure_bandwidth(device, n // torch.float32.itemsize)
    return {"bytes": n, **found, "on_device": on_device}


def roofs(device: torch.device, s: Sizes) -> dict:
    """The largest matrix product's FLOP/s and day 5's memory roof, beside the datasheet's."""
    from helpers import roofline
    from helpers.datasheets import datasheet

    n, threads = s.receipt_matmul_n[_kind(device)], torch.get_num_threads()
    elements = s.day05_chain_elements[_kind(device)]
    sheet = datasheet(torch.cuda.get_device_name(device)) if device.type == "cuda" else None
    return {
        "matmul_n": n,
        "peak_flops": roofline.measure_peak_flops(device, size=n, threads=threads),
        "bandwidth_bytes_per_s": roofline.measure_bandwidth(device, elements, threads=threads),
        "datasheet_flops": sheet.flops if sheet else None,
        "bus_bytes_per_s": sheet.bus if sheet else None,
    }


def day05(device: torch.device, s: Sizes) -> dict:
    """Day 5's fixes, as the lesson runs them (section 8, one CPU thread), with kernels per epoch
    and the device's busy share of a lesson epoch (section 7's timeline): the lesson loop
    recording every N epochs, the losses kept on the device, the hand-written step, and
    (``receipt_compile``) the compiled variants, CUDA graphs with static weights, left out where
    Inductor declines them."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as day 5 does: tiny operations on more threads measure the threads
    try:
        return _fixes(device, s)
    finally:
        torch.set_num_threads(threads)


def _fixes(device: torch.device, s: Sizes) -> dict:
    from helpers import compiled, loops
    from helpers.data import load_iris_split
    from helpers.models import IrisMLP
    from helpers.profiling import covered, profile_ops, timeline
    from helpers.timing import compare
    from helpers.training import train

    X, _, y, _ = load_iris_split(device=device)
    epochs, every, per_call = s.day05_fix_epochs, s.receipt_lesson_every, s.day05_epochs_per_call

    def fresh():
        torch.manual_seed(0)
        return IrisMLP().to(device)

    profiled, shown = s.day05_profile_epochs, s.day05_timeline_epochs
    ops = profile_ops(lambda: train(fresh(), X, y, profiled, progress=False), device=device)
    model = fresh()  # its first epochs pay one-off costs: a warm-up, then day 5's timeline
    train(model, X, y, shown, progress=False)
    events = timeline(lambda: train(model, X, y, shown, progress=False), device=device)
    busy = covered(events, "kernel" if device.type == "cuda" else "operator")
    aten = ops[ops.index.str.startswith("aten::")]
    kernels = ops.attrs["kernels"] if device.type == "cuda" else aten["computing_calls"].sum()
    lesson = f"lesson loop, .item() every {every} epochs"
    variants = {
        lesson: lambda: train(fresh(), X, y, epochs, record_every=every, progress=False),
        "losses kept on the device": lambda: loops.device_losses_loop(fresh(), X, y, epochs),
        "hand-written step": lambda: loops.handwritten_loop(fresh(), X, y, epochs),
    }
    ready, notes = {}, {}
    if s.receipt_compile:
        ready, notes = compiled.compile_all(device, per_call, fresh, X, y)
    for name, (step, k, _) in ready.items():
        variants[name] = lambda step=step, k=k: loops.handwritten_loop(
            fresh(), X, y, epochs, step=step, epochs_per_call=k, static_weights=True
        )
    result = compare(variants, device=device, repeats=s.day05_repeats, warmup=1, progress="day 5")
    found = {}
    for name, m in result.measurements.items():
        ratio = result.ratios(lesson, name)
        found[name] = {"s_per_epoch": m.median / epochs, "speedup": ratio.median}
        found[name]["speedup_q1"] = ratio.quartiles[0]  # what day 5's verdict reads
    fastest = max(found, key=lambda name: found[name]["speedup"])
    return {"epochs": epochs, "kernels_per_epoch": float(kernels / profiled), "lesson": lesson} | {
        "fastest": fastest,
        "variants": found,
        "busy_share": busy,
        "notes": notes or {"compiled variants": "not compiled in fast mode"},
    }


def day06(device: torch.device, s: Sizes) -> dict:
    """Day 6's take-off sweep (its cell, its sizes): on the CPU, and on ``device`` if another."""
    from helpers import takeoff

    devices = [torch.device("cpu")] + ([device] if device.type != "cpu" else [])
    points = []
    for on in devices:
        caps = {WIDE: s.day06_wide_cpu_max_rows} if on.type == "cpu" else None
        table = takeoff.sweep(
            takeoff.MODELS,
            list(s.day06_rows),
            device=on,
            max_rows=caps,
            min_run_time=s.day06_min_run_time,
            progress=f"day 6 on {on.type}",
        )
        points += [row | {"device": on.type} for row in table.to_dict(orient="records")]
    return {"points": points}


def day07(device: torch.device, s: Sizes, peak: float) -> dict:
    """Day 7's busy share and MFU of the lesson's step and of the wide network's."""
    from helpers.data import load_iris_split
    from helpers.takeoff import MODELS
    from helpers.utilisation import step_utilisation

    rows = len(load_iris_split()[0])
    return {
        f"lesson loop 4-10-3, {rows} rows": step_utilisation(
            MODELS["IrisMLP 4-10-3"], rows, device=device, peak=peak
        ),
        f"{WIDE}, {s.day07_wide_rows} rows": step_utilisation(
            MODELS[WIDE], s.day07_wide_rows, device=device, peak=peak
        ),
    }


def allreduce(gpus: int, s: Sizes, device_type: str = "cuda") -> dict | None:
    """All-reduce bus bandwidth over day 8's message sizes, from day 8's own run (``torchrun``
    of ``helpers.ddp_train --parts ring``, one process per GPU, NCCL on CUDA, gloo on a CPU);
    ``None`` with fewer than two GPUs. Bus bandwidth: the bytes each rank sends in a ring
    (:func:`helpers.ring.ring_bytes_per_rank`) per second, NCCL's "busbw"."""
    if gpus <= 1:
        return None
    from helpers import torchrun
    from helpers.ring import ring_bytes_per_rank

    fast = "1" if s.fast else "0"
    with tempfile.TemporaryDirectory(prefix="receipt-allreduce-") as folder:
        run = torchrun.launch(
            ["--parts", "ring", "--device", device_type],
            nproc=gpus,
            out=Path(folder),
            timeout=s.receipt_allreduce_s,
            env={"COURSE_FAST": fast},
        )
        ring = run.result("ring")
    points = [
        {"bytes": n, "seconds": t, "bus_bytes_per_s": ring_bytes_per_rank(n, gpus) / t}
        for n, t in zip(ring["sizes"], ring["seconds"]["dist.all_reduce"], strict=True)
    ]
    return {"gpus": gpus, "points": points}


def best_peak(found: dict, device: torch.device) -> None:
    """A roof is a best case, and a busy machine slows one measurement: time the largest matrix
    product again after the lessons' steps and keep the fastest FLOP/s seen (the two products,
    and day 7's steps: a step faster than the product means the product was slowed); express
    day 7's MFU against it."""
    from helpers import roofline

    roofs, threads = found["roofs"], torch.get_num_threads()
    first = roofs["peak_flops"]
    again = roofline.measure_peak_flops(device, size=roofs["matmul_n"], threads=threads)
    steps = [figures["MFU"] * first for figures in found["day07"].values()]  # their FLOP/s
    roofs["peak_flops"] = max(first, again, *steps)
    for figures in found["day07"].values():
        figures["MFU"] *= first / roofs["peak_flops"]


def collect(device: torch.device, fast: bool = False) -> dict:
    """Every measurement of this device, as a receipt's payload (not yet checked).

    Day 5 comes last: its compiled code can slow the eager steps measured after it in the same
    process (on a busy 2-core CPU, one run: a small step took 1.1 ms before day 5's compiles and
    21-28 ms after)."""
    s = sizes(fast)
    print(f"Measuring {device.type} ({'fast' if fast else 'full'} mode)...", flush=True)
    found = {"machine": machine(device), "sync": sync(device, s), "copies": copy_rates(device, s)}
    found |= {"roofs": roofs(device, s), "day06": day06(device, s)}
    found["day07"] = day07(device, s, found["roofs"]["peak_flops"])
    best_peak(found, device)
    found["day05"] = day05(device, s)
    gpus = found["machine"]["count"] if device.type == "cuda" else 0
    order = ("machine", "sync", "copies", "roofs", "day05", "day06", "day07")
    return {
        "schema": SCHEMA,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "mode": "fast" if fast else "full",
        **{key: found[key] for key in order},
        "allreduce": allreduce(gpus, s),
    }


def write(payload: dict, out: Path) -> Path:
    """Check ``payload`` and write it to ``out`` as JSON; raise ``ValueError`` (nothing written)
    with every problem when the check fails."""
    problems = validate(payload)
    if problems:
        raise ValueError(f"{out}: not written, the receipt fails its check: {'; '.join(problems)}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    return out


def receipt(out: Path, *, fast: bool = False, device: str | None = None) -> int:
    """``python -m helpers receipt``: measure this device, check, write ``out``, summarise."""
    from helpers.course.gpu_check import summary
    from helpers.device import get_device

    payload = collect(get_device(device), fast=fast or fast_mode())
    try:
        write(payload, out)
    except ValueError as err:
        print(f"ERROR: {err}. To fix: {FIX} (a busy machine can distort it).", file=sys.stderr)
        return 1
    print(summary(payload))
    print(f"wrote {out}")
    return 0
