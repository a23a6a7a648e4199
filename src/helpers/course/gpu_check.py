"""``python -m helpers gpu-check --out DIR``: the course's GPU reference, in one run.

On a machine with an NVIDIA GPU it measures the receipt (:mod:`helpers.course.receipt`: the
lessons' own functions at the sizes of ``helpers.config.KNOBS``; days 2, 5, 6, 7 and, with two
GPUs or more, 8's all-reduce), checks it, writes it to ``DIR/gpu_reference.json``, prints a
one-screen summary, and with ``--notebooks`` also executes every lesson in fast mode into ``DIR``
when Jupyter is installed. Copy the JSON to ``data/gpu_reference.json`` to ship it as the course's
reference (``benchmarks/gpu_run.sh`` does all of it). On a machine without CUDA it says so and
exits with status 1: ``python -m helpers receipt`` measures any device.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

from helpers.config import fast_mode
from helpers.course import receipt


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
    if payload["allreduce"]:
        best = max(p["bus_bytes_per_s"] for p in payload["allreduce"]["points"])
        lines.append(f"all-reduce, {payload['allreduce']['gpus']} GPUs: {best / 1e9:.0f} GB/s")
    return "\n".join(lines)


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
    print(summary(payload))
    print(f"wrote {target} (copy it to data/gpu_reference.json to ship it as the reference)")
    if notebooks:
        _notebooks(out)
    return 0
