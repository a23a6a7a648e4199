"""``python -m helpers gpu-check --out DIR``: the lessons' GPU measurements, in one run.

On a machine with an NVIDIA GPU it measures, through the lesson modules (no Jupyter needed):

* day 6: time per step against rows for both networks, on the GPU and on this machine's CPU;
* day 5: the price of one ``.item()``, kernels per epoch, and the lesson loop against its fastest
  variants (losses kept on the device, the hand-written step, ``torch.compile``, CUDA graphs, the
  amortised step);
* the roofs: peak FLOP/s (a large matrix product) and memory bandwidth (a large copy);
* day 7: the device's busy share (kernels running) and the model FLOP utilisation of the lesson's
  loop and of the wide network.

It writes ``DIR/gpu_reference.json`` in the format of ``data/gpu_reference.json`` (the card of the
machine, with GPU name, driver, CUDA and torch versions, and the date), prints a one-screen summary,
and with ``--notebooks`` also executes every lesson in fast mode into ``DIR`` when Jupyter is
installed. Copy the JSON to ``data/gpu_reference.json`` to ship it as the course's reference.
On a machine without CUDA it says so and exits with status 1.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

import torch

SWEEP_ROWS = [10**k for k in range(2, 7)]
FIX_EPOCHS = 2000


def _sweeps(device: torch.device, fast: bool) -> list[dict]:
    from helpers import takeoff

    rows = SWEEP_ROWS[:3] if fast else SWEEP_ROWS
    cpu_cap = {"wide 4-512-512-3": 10_000 if fast else 100_000}
    tables = [
        takeoff.sweep(
            takeoff.MODELS,
            rows,
            device=device,
            min_run_time=0.02 if fast else 0.2,
            progress=f"sweep on {device}",
        ),
        takeoff.sweep(
            takeoff.MODELS,
            rows,
            device="cpu",
            max_rows=cpu_cap,
            min_run_time=0.02 if fast else 0.2,
            progress="sweep on cpu",
        ),
    ]
    return [row for table in tables for row in table.to_dict(orient="records")]


def _day05(device: torch.device, fast: bool) -> dict:
    from helpers import loops
    from helpers.data import load_iris_split
    from helpers.models import IrisMLP
    from helpers.profiling import profile_ops
    from helpers.timing import benchmark, compare
    from helpers.training import train

    X, _, y, _ = load_iris_split(device=device)
    loss = torch.nn.functional.cross_entropy(IrisMLP().to(device)(X), y)
    item = benchmark(loss.item, device=device).median
    epochs = 50
    ops = profile_ops(
        lambda: train(IrisMLP().to(device), X, y, epochs, progress=False), device=device
    )
    n = 300 if fast else FIX_EPOCHS

    def fresh():
        torch.manual_seed(0)
        return IrisMLP().to(device)

    variants = {
        "lesson loop, .item() every epoch": lambda: train(
            fresh(), X, y, n, record_every=1, progress=False
        ),
        "losses kept on the device": lambda: loops.device_losses_loop(fresh(), X, y, n),
        "hand-written step": lambda: loops.handwritten_loop(fresh(), X, y, n),
    }
    for name, make in [
        ("torch.compile", lambda: loops.compiled_step()),
        ("CUDA graphs", lambda: loops.compiled_step("reduce-overhead")),
        ("amortised, 10 epochs per call", lambda: loops.amortised_step(10)),
    ]:
        try:
            step = make()
            loops.handwritten_loop(fresh(), X, y, 20, step=step)  # compiles
        except Exception as err:  # noqa: BLE001 - reported, the rest still measured
            print(f"  {name}: not available ({type(err).__name__}: {str(err)[:100]})")
            continue
        variants[f"hand-written step, {name}"] = lambda step=step: loops.handwritten_loop(
            fresh(), X, y, n, step=step
        )
    result = compare(variants, device=device, repeats=2 if fast else 5, progress="day-5 variants")
    base = "lesson loop, .item() every epoch"
    return {
        "item_us": item * 1e6,
        "kernels_per_epoch": ops.attrs["kernels"] / epochs,
        "epochs": n,
        "variants": {
            name: {"us_per_epoch": m.median / n * 1e6, "speedup": result.ratios(base, name).median}
            for name, m in result.measurements.items()
        },
    }


def _roofs_and_day07(device: torch.device) -> tuple[dict, dict]:
    from helpers import roofline
    from helpers.utilisation import step_utilisation

    peak = roofline.measure_peak_flops(device)
    bandwidth = roofline.measure_bandwidth(device, elements=2**27)
    roofs = {"peak_flops": peak, "bandwidth_bytes_per_s": bandwidth}
    day07 = {
        name: step_utilisation(widths, rows, device=device, peak=peak)
        for name, widths, rows in [
            ("lesson loop 4-10-3, 120 rows", (4, 10, 3), 120),
            ("wide 4-512-512-3, 4096 rows", (4, 512, 512, 3), 4096),
        ]
    }
    return roofs, day07


def collect(device: torch.device, fast: bool = False) -> dict:
    """Every measurement, as the reference file's payload."""
    from helpers.hardware import card

    roofs, day07 = _roofs_and_day07(device)
    return {
        "card": card(),
        "date": datetime.date.today().isoformat(),
        "points": _sweeps(device, fast),
        "day05": _day05(device, fast),
        "roofline": roofs,
        "day07": day07,
    }


def summary(payload: dict) -> str:
    """One screen: the machine, the roofs, day 5's speed-ups, day 6's take-off, day 7's figures."""
    from helpers import takeoff

    card = payload["card"]
    lines = [
        f"{card.get('gpu')} | driver {card.get('driver')} | CUDA {card.get('cuda')} | torch "
        f"{card.get('torch')} | {payload['date']}",
        f"roofs: {payload['roofline']['peak_flops'] / 1e12:.1f} TFLOP/s, "
        f"{payload['roofline']['bandwidth_bytes_per_s'] / 1e9:.0f} GB/s",
        f"day 5: one .item() {payload['day05']['item_us']:.1f} µs, "
        f"{payload['day05']['kernels_per_epoch']:.0f} kernels per epoch",
    ]
    for name, v in payload["day05"]["variants"].items():
        lines.append(f"  {name:48} {v['us_per_epoch']:9.1f} µs/epoch  {v['speedup']:6.2f}x")
    points = [p for p in payload["points"] if p["device"] != "cpu"]
    for model in dict.fromkeys(p["model"] for p in points):
        part = sorted((p for p in points if p["model"] == model), key=lambda p: p["rows"])
        found = takeoff.takeoff([p["rows"] for p in part], [p["seconds"] for p in part])
        where = "beyond the sizes measured" if found is None else f"{found:,.0f} rows"
        lines.append(
            f"day 6: {model} on the GPU: {part[0]['seconds'] * 1e3:.3f} ms per step at "
            f"{part[0]['rows']} rows, take-off at {where}"
        )
    for name, f in payload["day07"].items():
        lines.append(
            f"day 7: {name}: kernels running {f['device busy share']:.0%}, MFU {f['MFU']:.2%}"
        )
    return "\n".join(lines)


def _notebooks(out: Path) -> None:
    try:
        from helpers.course.execute import build_course
    except ImportError as err:
        print(f"--notebooks: Jupyter is not installed here ({err}); skipped.")
        return
    build_course(out / "notebooks-fast", fast=True)


def gpu_check(out: Path, *, notebooks: bool = False, fast: bool = False) -> int:
    if not torch.cuda.is_available():
        print(
            "ERROR: no CUDA GPU here (torch "
            f"{torch.__version__}, CUDA build: {torch.version.cuda or 'none'}). gpu-check measures "
            "an NVIDIA GPU: run it on a machine with one.",
            file=sys.stderr,
        )
        return 1
    device = torch.device("cuda")
    out.mkdir(parents=True, exist_ok=True)
    print(f"Measuring {torch.cuda.get_device_name(device)}...")
    payload = collect(device, fast=fast)
    target = out / "gpu_reference.json"
    target.write_text(json.dumps(payload, indent=1, default=str) + "\n", encoding="utf-8")
    print(summary(payload))
    print(f"wrote {target} (copy it to data/gpu_reference.json to ship it as the reference)")
    if notebooks:
        _notebooks(out)
    return 0
