"""python -m helpers gpu-check: it refuses without CUDA; its payload and summary, faked."""

import json

import pandas as pd

from helpers import takeoff
from helpers.course import gpu_check
from helpers.course.cli import main


def test_it_refuses_clearly_without_a_cuda_gpu(no_gpu, tmp_path, capsys):
    assert main(["gpu-check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "no CUDA GPU here" in err and "run it on a machine with one" in err
    assert not (tmp_path / "gpu_reference.json").exists()


def fake_measurements(monkeypatch):
    rows = [100, 1000, 10000]
    points = [
        {
            "model": m,
            "rows": n,
            "device": d,
            "seconds": s,
            "q1": s,
            "q3": s,
            "batch": n,
            "flops": takeoff.flops_per_step(takeoff.MODELS[m], n),
            "bytes": 1,
        }
        for m in takeoff.MODELS
        for d, s in [("cuda", [5e-4, 5.1e-4, 2e-3]), ("cpu", [1e-4, 1e-3, 1e-2])]
        for n, s in zip(rows, s, strict=True)
    ]
    monkeypatch.setattr(gpu_check, "_sweeps", lambda device, fast: points)
    day05 = {
        "item_us": 12.0,
        "kernels_per_epoch": 18.0,
        "epochs": 2000,
        "variants": {
            "lesson loop, .item() every epoch": {"us_per_epoch": 600.0, "speedup": 1.0},
            "hand-written step, CUDA graphs": {"us_per_epoch": 20.0, "speedup": 30.0},
        },
    }
    monkeypatch.setattr(gpu_check, "_day05", lambda device, fast: day05)
    day07 = {
        "lesson loop 4-10-3, 120 rows": {"device busy share": 0.4, "MFU": 1e-5, "ms per step": 0.6}
    }
    roofs = {"peak_flops": 5e14, "bandwidth_bytes_per_s": 4e12}
    monkeypatch.setattr(gpu_check, "_roofs_and_day07", lambda device: (roofs, day07))


def test_it_writes_the_reference_and_a_one_screen_summary(fake_cuda, monkeypatch, tmp_path, capsys):
    fake_measurements(monkeypatch)
    monkeypatch.setattr(gpu_check.torch.cuda, "get_device_name", lambda d=None: "NVIDIA H100")
    monkeypatch.setattr("helpers.nvml.driver_version", lambda: "570.1")
    assert main(["gpu-check", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    payload = json.loads((tmp_path / "gpu_reference.json").read_text(encoding="utf-8"))
    assert {"card", "date", "points", "day05", "roofline", "day07"} <= set(payload)
    assert payload["card"]["gpu"] == fake_cuda.name and payload["card"]["driver"] == "570.1"
    table = pd.DataFrame(payload["points"])  # day 6 reads receipts now (helpers.receipts)
    assert isinstance(table, pd.DataFrame) and set(table["device"]) == {"cuda", "cpu"}
    assert "500.0 TFLOP/s, 4000 GB/s" in out and "30.00x" in out
    assert "take-off at" in out and "kernels running 40%" in out
    assert len(out.splitlines()) < 25  # one screen
