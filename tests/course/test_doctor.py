import os
import subprocess
import sys

import pytest
import torch

from helpers.course import doctor


def run_helpers(*args, **env):
    return subprocess.run(
        [sys.executable, "-m", "helpers", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
    )


def test_doctor_reports_the_setup(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(doctor, "_nvidia_gpu_present", lambda: False)
    assert doctor.doctor() == 0
    out = capsys.readouterr().out
    assert "course device      cpu" in out
    assert f"PyTorch            {torch.__version__}" in out
    assert "Heart data         ok" in out
    assert "notebook filter" in out
    assert "All good" in out


@pytest.mark.slow
def test_doctor_with_a_missing_device_gives_the_clear_error_not_a_traceback():
    result = run_helpers("doctor", COURSE_DEVICE="cuda" if not torch.cuda.is_available() else "xpu")
    assert result.returncode == 1
    assert "ERROR: COURSE_DEVICE asked for" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_doctor_warns_about_a_cpu_only_build_on_an_nvidia_machine(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(doctor, "_nvidia_gpu_present", lambda: True)
    monkeypatch.setattr(torch.version, "cuda", None)
    assert doctor.doctor() == 0  # it still works, on the CPU
    out = capsys.readouterr().out
    assert "WARNING: This machine has an NVIDIA GPU but PyTorch is a CPU-only build" in out
    assert "TORCH_INDEX=https://download.pytorch.org/whl/cu" in out


def test_doctor_warns_about_a_driver_too_old_for_the_cuda_build(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(doctor, "_nvidia_gpu_present", lambda: True)
    monkeypatch.setattr(torch.version, "cuda", "12.8")
    doctor.doctor()
    assert "built for CUDA 12.8 but sees no GPU" in capsys.readouterr().out


def test_doctor_warns_about_an_apple_mac_without_mps(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(doctor.platform, "system", lambda: "Darwin")
    monkeypatch.setattr(doctor.platform, "machine", lambda: "arm64")
    monkeypatch.setattr(doctor, "_nvidia_gpu_present", lambda: False)
    doctor.doctor()
    assert "Apple silicon Mac but MPS is not available" in capsys.readouterr().out


def test_doctor_reports_a_missing_package(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(doctor, "_course_packages", lambda: [("tqdm", None)])
    assert doctor.doctor() == 1
    assert "ERROR: tqdm is not installed: run `make install`" in capsys.readouterr().out


def test_doctor_reports_a_bad_fast_mode_value(no_gpu, capsys, monkeypatch):
    monkeypatch.setenv("COURSE_FAST", "sometimes")
    assert doctor.doctor() == 1
    assert "COURSE_FAST='sometimes' is not understood" in capsys.readouterr().out


def test_course_packages_are_read_from_the_package_metadata():
    names = [name for name, _ in doctor._course_packages()]
    assert {"torch", "jupyterlab", "ipywidgets", "tqdm"} <= set(names)
    assert "pytest" not in names  # dev tools are not course packages
