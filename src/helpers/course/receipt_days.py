"""The days' measurements of a receipt (:mod:`helpers.course.receipt`): each calls the functions
its lesson calls, with the sizes of :data:`helpers.config.KNOBS` (``s``: fast or full mode).

* :func:`sync`: one small kernel's launch, one ``.item()`` (day 5), a CUDA graph's replay per node;
* :func:`copy_rates`: day 2's copies to the device, back (pageable, pinned), within the device;
* :func:`roofs`: the largest matrix product and day 5's memory roof, beside the datasheet's;
* :func:`day05`: day 5's fixes as its section 8 runs them; :func:`day06`: the take-off sweep
  (every point in several blocks: a spread for each); :func:`day07`: the busy share and MFU of
  the lesson's step and of the wide one, timed as day 5 times its loop;
* :func:`host`: the machine that holds the device (its CPU, usable CPUs, a virtual machine or
  not, how fast one core decodes day 6's JPEGs): figures that time the CPU's part of the work
  measure it as much as the device;
* :func:`imagenet`: day 6's ImageNet estimate on this device: a matrix product's peak in the
  16-bit type autocast uses here (how such a device trains an image model).
* :func:`day07b`: day 7b's lever ladder as its section 2 climbs it, and the matrix-product peak
  of each number type (measured, and the datasheet's).
"""

from __future__ import annotations

import torch

from helpers.config import Sizes
from helpers.i18n import N_

WIDE = N_("wide 4-512-512-3")
"""Day 6's wide network (a key of ``helpers.takeoff.MODELS``): capped in rows on a CPU."""


def _kind(device: torch.device) -> str:
    """``cpu`` or ``gpu``: how knobs that depend on the device are keyed."""
    return "cpu" if device.type == "cpu" else "gpu"


def graph_replay_per_node(x: torch.Tensor, nodes: int, device: torch.device) -> float:
    """Seconds per node of replaying a CUDA graph of ``nodes`` small kernels on ``x``."""
    from helpers.timing import benchmark

    x.add_(1)  # warm-up outside the capture
    torch.cuda.synchronize(device)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _node in range(nodes):
            x.add_(1)
    return benchmark(graph.replay, device=device).median / nodes


def sync(device: torch.device, s: Sizes) -> dict:
    """One small kernel's launch (enqueue), one ``.item()`` as day 5 times it, a graph node."""
    from helpers.data import load_iris_split
    from helpers.models import IrisMLP
    from helpers.timing import benchmark

    tiny = torch.zeros(1, device=device)
    X, _X_test, y, _y_test = load_iris_split(device=device)
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
        return _fixes(device, s) | {"sweeps": day05_sweeps(device, s)}
    finally:
        torch.set_num_threads(threads)


def _fixes(device: torch.device, s: Sizes) -> dict:
    from helpers import compiled, loops, standard_fixes
    from helpers.data import load_iris_split
    from helpers.models import IrisMLP
    from helpers.profiling import covered, profile_ops, timeline
    from helpers.timing import compare
    from helpers.training import train

    X, _X_test, y, _y_test = load_iris_split(device=device)
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
        N_("losses kept on the device"): lambda: standard_fixes.kept_loop(fresh(), X, y, epochs),
        N_("fused optimiser"): lambda: standard_fixes.fused_loop(fresh(), X, y, epochs),
        N_("hand-written step"): lambda: loops.handwritten_loop(fresh(), X, y, epochs),
    }
    if device.type == "cuda":
        graphed = "model as CUDA graphs (make_graphed_callables)"
        variants[graphed] = lambda: standard_fixes.graphed_loop(fresh(), X, y, epochs)
    ready, notes = {}, {}
    if s.receipt_compile:
        ready, notes = compiled.compile_all(device, per_call, fresh, X, y)
    start = fresh().state_dict()
    for name, (made, k, _compile_s) in ready.items():
        if k is None:  # a compiled model: reset to the same start before each run
            variants[name] = lambda made=made: made.restart(start).loop(X, y, epochs)
        else:
            variants[name] = lambda step=made, k=k: loops.handwritten_loop(
                fresh(), X, y, epochs, step=step, epochs_per_call=k, static_weights=True
            )
    result = compare(variants, device=device, repeats=s.day05_repeats, warmup=1, progress="day 5")
    found = {}
    for name, m in result.measurements.items():
        ratio = result.ratios(lesson, name)
        found[name] = {"s_per_epoch": m.median / epochs, "speedup": ratio.median}
        found[name]["speedup_q1"] = ratio.quartiles[0]  # what day 5's verdict reads
    fastest = max(found, key=lambda name: found[name]["speedup"])
    standard = [n for n in found if standard_fixes.kind(n) == standard_fixes.STANDARD_CODE]
    return {"epochs": epochs, "kernels_per_epoch": float(kernels / profiled), "lesson": lesson} | {
        "every": every,
        "fastest": fastest,
        "fastest_standard": max(standard, key=lambda name: found[name]["speedup"]),
        "variants": found,
        "busy_share": busy,
        "notes": notes or {"compiled variants": "not compiled in fast mode"},
    }


def day05_sweeps(device: torch.device, s: Sizes) -> dict:
    """Day 5a's recording sweep, timed on ``device`` in each regime it has (section 5): the
    lesson's loop (launch-bound on a GPU) and, on a device that queues work, the device-bound
    loop. Per regime: the recordings per run and every round's seconds, for
    :func:`helpers.stats.check_line`."""
    from functools import partial

    from helpers import loops
    from helpers.data import load_iris_split
    from helpers.models import IrisMLP
    from helpers.training import train

    X, _X_test, y, _y_test = load_iris_split(device=device)

    def lesson(every, epochs):
        torch.manual_seed(0)
        return train(IrisMLP().to(device), X, y, epochs, record_every=every, progress=False)

    wide = partial(loops.device_bound_run, width=s.day05_device_width,
                   rows=s.day05_device_rows, device=device)  # fmt: skip
    runs = {"launch-bound": (lesson, s.day05_measure_epochs)}
    if device.type in ("cuda", "mps"):
        runs["device-bound"] = (wide, s.day05_device_epochs)
    found = {}
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as day 5a does
    try:
        for regime, (run, epochs) in runs.items():
            xs, ys = loops.recording_sweep(run, s.day05_sweep_every, epochs, device=device,
                                           repeats=s.day05_repeats, progress=regime)  # fmt: skip
            levels = sorted(set(xs))
            found[regime] = {
                "epochs": epochs,
                "recordings": levels,
                "seconds": [[t for x, t in zip(xs, ys, strict=True) if x == n] for n in levels],
            }
    finally:
        torch.set_num_threads(threads)
    return found


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
            min_blocks=s.day06_min_blocks,
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


def rung_row(rung) -> dict:
    """One rung of day 7b's ladder as plain data (``None`` for what it did not measure)."""
    applied, fall, ratio = rung.why_not is None, rung.fall, rung.speedup
    return {
        "lever": rung.lever,
        "why_not": rung.why_not,
        "number_type": rung.setup.number_type if applied else None,
        "batch": rung.setup.batch if applied else None,
        "compile": rung.setup.compile if applied else None,
        "tokens_per_s": rung.tokens_per_s,
        "speedup": ratio.median if ratio else None,
        "speedup_q1": ratio.quartiles[0] if ratio else None,
        "speedup_q3": ratio.quartiles[1] if ratio else None,
        "kept": rung.kept,
        "loss_difference": fall.difference if fall else None,
        "loss_falls": fall.falls if fall else None,
        "saved_bytes": rung.saved_bytes,
        "peak_bytes": rung.peak_bytes,
        "first_step_s": rung.first_step_s,
    }


def day07b(device: torch.device, s: Sizes) -> dict:
    """Day 7b's ladder on ``device`` (its sizes and its keep rule; max-autotune on a GPU when
    ``receipt_autotune``), and each number type's matrix-product peak, measured on the largest
    product and from the datasheet."""
    import dataclasses

    from helpers import charlm, day07b, ladder, peaks
    from helpers.data import load_poems
    from helpers.levers import LEVERS

    text = load_poems()
    vocab = charlm.Vocabulary(text)
    shape = charlm.Shape(
        vocab=len(vocab),
        context=s.day07b_context,
        width=s.day07b_width,
        heads=s.day07b_heads,
        layers=s.day07b_layers,
    )
    climb = ladder.Ladder(
        shape,
        vocab.encode(text).to(device),
        device,
        batch=s.day07b_batch,
        factor=s.day07b_batch_factor,
        steps_per_call=s.day07b_steps_per_call,
        check_steps=s.day07b_check_steps,
        repeats=s.day07b_repeats,
        keep=day07b.keep,
    )
    climb.start()
    autotune = s.receipt_autotune and device.type == "cuda"
    for lever in LEVERS:
        climb.climb(lever, compile=s.day07b_compile, autotune=autotune)
    n, threads = s.receipt_matmul_n[_kind(device)], torch.get_num_threads()
    return {
        "shape": dataclasses.asdict(shape),
        "tokens_per_call": climb.tokens_per_call,
        "flops_per_token": charlm.flops_per_token(shape),
        "peaks": peaks.measured(device, size=n, threads=threads),
        "datasheet": peaks.promised(device),
        "rungs": [rung_row(r) for r in climb.rungs],
    }


def host() -> dict:
    """The machine that holds the device: its CPU, the CPUs this process may use, whether it is
    a virtual machine (``None``: cannot be told), and the JPEG pictures one core decodes per
    second (:func:`helpers.takeoff.decode_rate`, day 6's loading rate per core)."""
    from helpers.cpu import cpu_name, virtual_machine
    from helpers.hardware import usable_cpus
    from helpers.takeoff import decode_rate

    return {
        "cpu": cpu_name(),
        "usable_cpus": usable_cpus(),
        "virtual_machine": virtual_machine(),
        "jpeg_per_core_per_s": decode_rate(),
    }


def imagenet(device: torch.device, s: Sizes) -> dict:
    """Day 6's ImageNet estimate on ``device``: the FLOP/s of the largest matrix product in the
    16-bit type autocast uses there (:func:`helpers.memory.autocast_dtype`: how such a device
    trains ResNet-50), the fastest of the benchmark's blocks, as the float32 roof is taken."""
    from helpers import roofline
    from helpers.memory import autocast_dtype

    dtype = autocast_dtype(device).dtype
    n = s.receipt_matmul_n[_kind(device)]
    flops = roofline.measure_peak_flops(
        device, size=n, threads=torch.get_num_threads(), dtype=dtype
    )
    return {
        "autocast_dtype": str(dtype).removeprefix("torch."),
        "autocast_matmul_flops": flops,
        "matmul_n": n,
    }
