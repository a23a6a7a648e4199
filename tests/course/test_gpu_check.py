"""python -m helpers gpu-check: it refuses without CUDA; on a faked GPU it writes the receipt."""

import json
from pathlib import Path

from helpers.course import receipt, receipt_days
from helpers.course.cli import main
from tests.course.test_receipt import h100_payload


def test_it_refuses_clearly_without_a_cuda_gpu(no_gpu, tmp_path, capsys):
    assert main(["gpu-check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "no CUDA GPU here" in err and "run it on a machine with one" in err
    assert not (tmp_path / "gpu_reference.json").exists()


def fake_measurements(monkeypatch):
    """Every section measured by the receipt's functions, faked as an H100 would answer."""
    payload = h100_payload()
    payload["day06"]["points"] = [
        {"model": m, "rows": n, "device": d, "seconds": s}
        for m in ("IrisMLP 4-10-3", "wide 4-512-512-3")
        for d, seconds in [("cuda", [5e-4, 5.1e-4, 2e-3]), ("cpu", [1e-4, 1e-3, 1e-2])]
        for n, s in zip([100, 1000, 10000], seconds, strict=True)
    ]
    payload["day05"]["variants"]["hand-written step, CUDA graphs"] = {
        "s_per_epoch": 2e-5,
        "speedup": 30.0,
    }
    measured = {"sync": "sync", "copy_rates": "copies", "roofs": "roofs", "day05": "day05"}
    for function, name in (measured | {"day06": "day06"}).items():
        monkeypatch.setattr(receipt_days, function, lambda device, s, part=payload[name]: part)
    monkeypatch.setattr(receipt_days, "day07", lambda device, s, peak: payload["day07"])
    fixture = Path(__file__).parents[1] / "fixtures" / "receipts" / "one_gpu" / "h100.json"
    ladder = json.loads(fixture.read_text(encoding="utf-8"))["day07b"]
    monkeypatch.setattr(receipt_days, "day07b", lambda device, s: ladder)
    host = {"cpu": "AMD EPYC", "usable_cpus": 16, "virtual_machine": True,
            "jpeg_per_core_per_s": 400.0}  # fmt: skip
    monkeypatch.setattr(receipt_days, "host", lambda: host)
    imagenet = {"autocast_dtype": "bfloat16", "autocast_matmul_flops": 7e14, "matmul_n": 8192}
    monkeypatch.setattr(receipt_days, "imagenet", lambda device, s: imagenet)
    monkeypatch.setattr("helpers.roofline.measure_peak_flops", lambda d, size, threads: 1e14)
    ranks = []
    monkeypatch.setattr(receipt, "allreduce", lambda gpus, s: ranks.append(gpus))
    return ranks


def test_it_writes_the_receipt_and_a_one_screen_summary(fake_cuda, monkeypatch, tmp_path, capsys):
    ranks = fake_measurements(monkeypatch)
    monkeypatch.setattr("helpers.nvml.driver_version", lambda: "570.1")
    monkeypatch.setattr(receipt.torch.cuda, "get_device_name", lambda d=None: fake_cuda.name)
    assert main(["gpu-check", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    payload = json.loads((tmp_path / "gpu_reference.json").read_text(encoding="utf-8"))
    assert receipt.validate(payload) == [] and payload["mode"] == "full"
    assert payload["machine"]["name"] == fake_cuda.name and payload["machine"]["driver"] == "570.1"
    assert payload["machine"]["count"] == 2 and ranks == [2]  # two GPUs: all-reduce measured
    assert "2 × NVIDIA H100 80GB HBM3" in out and "400.00 TFLOP/s (8192²), 3000 GB/s" in out
    assert "30.00x" in out and "take-off at" in out and "busy 30%" in out
    assert "a CUDA graph node 2.00 µs" in out
    assert payload["day07b"]["rungs"][2]["lever"] == "16-bit autocast"
    assert "bf16 702 / 989" in out and "1.41x kept, peak memory 131 MB" in out
    assert "host: AMD EPYC, 16 usable CPUs, a virtual machine, 400 JPEGs" in out
    assert "bfloat16 matrix product: 700.00 TFLOP/s (8192²)" in out
    assert payload["host"]["usable_cpus"] == 16 and payload["imagenet"]["matmul_n"] == 8192
    assert len(out.splitlines()) < 30  # one screen of a terminal


def test_a_broken_measurement_is_not_shipped(fake_cuda, monkeypatch, tmp_path, capsys):
    fake_measurements(monkeypatch)
    monkeypatch.setattr(receipt_days, "roofs", lambda device, s: h100_payload()["roofs"] | {
        "peak_flops": 2e15})  # fmt: skip
    monkeypatch.setattr(receipt.torch.cuda, "get_device_name", lambda d=None: fake_cuda.name)
    assert main(["gpu-check", "--out", str(tmp_path)]) == 1
    assert "above the datasheet" in capsys.readouterr().err
    assert not (tmp_path / "gpu_reference.json").exists()
