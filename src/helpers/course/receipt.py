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
* day 6: the take-off curve (time per step against rows, each point in several blocks), on this
  device and on its host's CPU, and the ImageNet estimate's figures (a 16-bit matrix product);
* day 7: the busy share and model FLOP utilisation of the lesson's step and the wide one;
* day 7b: the lever ladder of the character model (tokens per second, speed-up, loss check, bytes
  kept for backward and, on CUDA, peak memory per rung) and each number type's matrix-product
  peak (fp32, TF32, bf16 or fp16), measured and from the datasheet: ``null`` where the device
  lacks one;
* the host: its CPU, usable CPUs, whether it is a virtual machine, its JPEG decoding rate;
* with two or more GPUs, all-reduce bus bandwidth from day 8's own run (``torchrun``, NCCL).

:func:`collect` measures (the days' parts are in :mod:`helpers.course.receipt_days`);
:func:`write` checks the payload with the lessons' own reader (:func:`helpers.receipts.validate`:
the format and its plausibility bounds) before writing it. ``python -m helpers gpu-check`` is
this on a CUDA GPU, plus the notebooks; :func:`summary` puts a receipt on one screen (both
commands print it).
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
from helpers.course import receipt_days as days
from helpers.receipts import FIX, SCHEMA, validate


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


EXTRAS = ("host", "imagenet")
"""Sections a receipt may hold beyond ``course-receipt/1``'s required ones (older receipts lack
them; the lessons then say "not measured")."""


def extras(device: torch.device, s: Sizes) -> dict:
    """The optional sections: the host (:func:`helpers.course.receipt_days.host`) and day 6's
    ImageNet figures (:func:`helpers.course.receipt_days.imagenet`)."""
    return {"host": days.host(), "imagenet": days.imagenet(device, s)}


def collect(device: torch.device, fast: bool = False) -> dict:
    """Every measurement of this device, as a receipt's payload (not yet checked).

    Day 5 comes last: its compiled code can slow the eager steps measured after it in the same
    process (on a busy 2-core CPU, one run: a small step took 1.1 ms before day 5's compiles and
    21-28 ms after)."""
    s = sizes(fast)
    print(f"Measuring {device.type} ({'fast' if fast else 'full'} mode)...", flush=True)
    found = {"machine": machine(device), "sync": days.sync(device, s)}
    found |= {"copies": days.copy_rates(device, s), "roofs": days.roofs(device, s)}
    found["day06"] = days.day06(device, s)
    found["day07"] = days.day07(device, s, found["roofs"]["peak_flops"])
    best_peak(found, device)
    found["day07b"] = days.day07b(device, s)
    found["day05"] = days.day05(device, s)
    found |= extras(device, s)
    gpus = found["machine"]["count"] if device.type == "cuda" else 0
    order = ("machine", "sync", "copies", "roofs", "day05", "day06", "day07", "day07b")
    return {
        "schema": SCHEMA,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "mode": "fast" if fast else "full",
        **{key: found[key] for key in order},
        "allreduce": allreduce(gpus, s),
        **{key: found[key] for key in EXTRAS},
    }


def write(payload: dict, out: Path) -> Path:
    """Check ``payload`` and write it to ``out`` as JSON. When the check fails, raise
    ``ValueError`` with every problem; the measurements are kept beside ``out`` in
    ``NAME.rejected.json`` (a run is not lost to one implausible figure), never in ``out``."""
    problems = validate(payload)
    target = out if not problems else out.with_name(f"{out.stem}.rejected.json")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    if problems:
        raise ValueError(
            f"{out}: not written, the receipt fails its check: {'; '.join(problems)} (what was "
            f"measured is in {target}, for a look)"
        )
    return out


def summary(payload: dict) -> str:
    """One screen: the machine, sync costs, copies, roofs, day 5's speed-ups, day 6, day 7."""
    from helpers import takeoff

    m, sync_, c, r = payload["machine"], payload["sync"], payload["copies"], payload["roofs"]
    count = f"{m['count']} × " if m["count"] > 1 else ""
    node = sync_["graph_node_s"]
    lines = [
        f"{count}{m['name']} | driver {m['driver']} | CUDA {m['cuda']} | torch {m['torch']} | "
        f"{payload['date']} ({payload['mode']} mode)",
        f"launch {sync_['launch_s'] * 1e6:.1f} µs, one .item() {sync_['item_s'] * 1e6:.1f} µs"
        + (f", a CUDA graph node {node * 1e6:.2f} µs" if node else ""),
        "copies (GB/s): "
        + ", ".join(f"{k} {v / 1e9:.1f}" for k, v in c.items() if k != "bytes" and v),
        f"roofs: {r['peak_flops'] / 1e12:.2f} TFLOP/s ({r['matmul_n']}²), "
        f"{r['bandwidth_bytes_per_s'] / 1e9:.0f} GB/s",
        f"day 5: {payload['day05']['kernels_per_epoch']:.0f} kernels per epoch",
    ]
    for name, v in payload["day05"]["variants"].items():
        lines.append(f"  {name:48} {v['s_per_epoch'] * 1e6:9.1f} µs/epoch  {v['speedup']:6.2f}x")
    points = payload["day06"]["points"]
    for on, model in dict.fromkeys((p["device"], p["model"]) for p in points):
        part = sorted((p for p in points if (p["device"], p["model"]) == (on, model)),
                      key=lambda p: p["rows"])  # fmt: skip
        found = takeoff.takeoff([p["rows"] for p in part], [p["seconds"] for p in part])
        where = "beyond the sizes measured" if found is None else f"{found:,.0f} rows"
        lines.append(f"day 6: {model} on {on}: {part[0]['seconds'] * 1e3:.3f} ms per step at "
                     f"{part[0]['rows']:,} rows, take-off at {where}")  # fmt: skip
    for name, f in payload["day07"].items():
        lines.append(f"day 7: {name}: busy {f['device busy share']:.0%}, MFU {f['MFU']:.2%}")
    if payload.get("host"):
        h = payload["host"]
        virtual = {True: ", a virtual machine", False: "", None: ", virtual machine unknown"}
        lines.append(f"host: {h['cpu']}, {h['usable_cpus']} usable CPUs"
                     f"{virtual[h['virtual_machine']]}, "
                     f"{h['jpeg_per_core_per_s']:,.0f} JPEGs per second per core")  # fmt: skip
    if payload.get("imagenet"):
        i = payload["imagenet"]
        flops = i["autocast_matmul_flops"] / 1e12
        lines.append(
            f"{i['autocast_dtype']} matrix product: {flops:.2f} TFLOP/s ({i['matmul_n']}²)"
        )
    lines += ladder_summary(payload.get("day07b"))
    if payload["allreduce"]:
        best = max(p["bus_bytes_per_s"] for p in payload["allreduce"]["points"])
        lines.append(f"all-reduce, {payload['allreduce']['gpus']} GPUs: {best / 1e9:.0f} GB/s")
    return "\n".join(lines)


def ladder_summary(ladder: dict | None) -> list[str]:
    """Day 7b's lines of the summary: the peaks, then one line per rung."""
    if ladder is None:
        return []

    def tflops(value):
        return "not measured" if value is None else f"{value / 1e12:.3g}"

    sheet = ladder["datasheet"] or {}
    lines = [
        "day 7b peaks (TFLOP/s, measured / datasheet): "
        + ", ".join(f"{k} {tflops(v)} / {tflops(sheet.get(k))}" for k, v in ladder["peaks"].items())
    ]
    for r in ladder["rungs"]:
        if r["why_not"]:
            lines.append(f"  {r['lever']:16} not applied: {r['why_not']}")
            continue
        peak = "not measured" if r["peak_bytes"] is None else f"{r['peak_bytes'] / 1e6:.0f} MB"
        speed = "not measured" if r["tokens_per_s"] is None else f"{r['tokens_per_s']:,.0f}"
        speedup = f"{r['speedup']:.2f}x" if r["speedup"] else "first"
        lines.append(
            f"  {r['lever']:16} {r['number_type']:5} {speed:>12} tokens/s {speedup:>6} "
            f"{'kept' if r['kept'] else 'left off'}, peak memory {peak}"
        )
    return lines


def receipt(out: Path, *, fast: bool = False, device: str | None = None) -> int:
    """``python -m helpers receipt``: measure this device, check, write ``out``, summarise."""
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
