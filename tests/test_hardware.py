import pytest
import torch

from helpers import hardware


def test_card_on_this_machine(no_gpu):
    info = hardware.card()
    assert info["device"] == "cpu"
    assert "gpu" not in info
    assert 1 <= info["cpu_usable"] <= info["cpu_logical"]
    assert info["torch"] == torch.__version__
    assert info["memory_gb"] > 0
    assert info["cpu"]


def test_card_with_a_cuda_gpu(fake_cuda, monkeypatch):
    monkeypatch.delenv("COURSE_DEVICE", raising=False)
    info = hardware.card()
    assert info["device"] == "cuda"
    assert info["gpu"] == "NVIDIA H100 80GB HBM3"
    assert info["gpu_memory_gb"] == 85.5
    assert info["gpu_capability"] == "9.0"
    assert info["gpu_count"] == 2
    assert "NVIDIA H100 80GB HBM3 | device cuda" in hardware.card_line(info)


def test_card_with_mps(fake_mps, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.delenv("COURSE_DEVICE", raising=False)
    info = hardware.card()
    assert info["device"] == "mps" and "Apple GPU" in info["gpu"]


@pytest.mark.parametrize(
    ("cuda", "hip", "mps", "expected"),
    [
        (None, None, False, "CPU only"),
        ("12.8", None, False, "CUDA 12.8"),
        (None, "6.4", False, "ROCm 6.4"),
        (None, None, True, "MPS"),
    ],
)
def test_torch_build(monkeypatch, cuda, hip, mps, expected):
    monkeypatch.setattr(torch.version, "cuda", cuda)
    monkeypatch.setattr(torch.version, "hip", hip)
    monkeypatch.setattr(torch.backends.mps, "is_built", lambda: mps)
    assert hardware.torch_build() == expected


@pytest.mark.parametrize(
    ("files", "affinity", "expected"),
    [
        ({"cpu.max": "max 100000"}, 8, 8),
        ({"cpu.max": "150000 100000"}, 8, 2),  # 1.5 CPUs of quota: 2 can run
        ({"cpu/cpu.cfs_quota_us": "400000", "cpu/cpu.cfs_period_us": "100000"}, 16, 4),
        ({"cpu/cpu.cfs_quota_us": "-1", "cpu/cpu.cfs_period_us": "100000"}, 16, 16),
        ({}, 3, 3),
    ],
)
def test_usable_cpus_honours_affinity_and_container_quotas(
    monkeypatch, tmp_path, files, affinity, expected
):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    real_path = hardware.Path
    monkeypatch.setattr(
        hardware, "Path", lambda p: real_path(str(p).replace("/sys/fs/cgroup", str(tmp_path)))
    )
    monkeypatch.setattr(
        hardware.os, "sched_getaffinity", lambda pid: set(range(affinity)), raising=False
    )
    assert hardware.usable_cpus() == expected


def test_cpu_name_on_linux_reads_proc_cpuinfo(monkeypatch, tmp_path):
    (tmp_path / "cpuinfo").write_text("processor\t: 0\nmodel name\t: AMD EPYC 9654 96-Core\n")
    real_path = hardware.Path
    monkeypatch.setattr(hardware.platform, "system", lambda: "Linux")
    monkeypatch.setattr(
        hardware, "Path", lambda p: real_path(str(p).replace("/proc", str(tmp_path)))
    )
    assert hardware.cpu_name() == "AMD EPYC 9654 96-Core"


def test_cpu_name_on_a_mac_asks_sysctl(monkeypatch):
    class Done:
        stdout = "Apple M3 Pro\n"

    monkeypatch.setattr(hardware.platform, "system", lambda: "Darwin")
    monkeypatch.setattr(hardware.subprocess, "run", lambda *a, **k: Done())
    assert hardware.cpu_name() == "Apple M3 Pro"


def test_cpu_name_falls_back_to_the_architecture(monkeypatch):
    monkeypatch.setattr(hardware.platform, "system", lambda: "Plan9")
    monkeypatch.setattr(hardware.platform, "processor", lambda: "")
    monkeypatch.setattr(hardware.platform, "machine", lambda: "riscv64")
    assert hardware.cpu_name() == "riscv64"
