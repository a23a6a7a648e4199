import pytest
import torch

from helpers.device import DeviceUnavailableError, available_devices, get_device, synchronize


def test_cpu_when_nothing_else(no_gpu):
    assert available_devices() == ["cpu"]
    assert get_device() == torch.device("cpu")


def test_cuda_first(fake_cuda, fake_mps, monkeypatch):
    monkeypatch.delenv("COURSE_DEVICE", raising=False)
    assert available_devices() == ["cuda:0", "cuda:1", "mps", "cpu"]
    assert get_device() == torch.device("cuda")


def test_mps_before_cpu(fake_mps, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.delenv("COURSE_DEVICE", raising=False)
    assert get_device() == torch.device("mps")


def test_course_device_forces_a_device(fake_cuda, monkeypatch):
    monkeypatch.setenv("COURSE_DEVICE", "cpu")
    assert get_device() == torch.device("cpu")
    monkeypatch.setenv("COURSE_DEVICE", "cuda:1")
    assert get_device() == torch.device("cuda:1")
    assert get_device("cuda:0") == torch.device("cuda:0")  # an argument beats the variable


def test_missing_cuda_says_what_is_available(no_gpu, monkeypatch):
    monkeypatch.setenv("COURSE_DEVICE", "cuda")
    with pytest.raises(DeviceUnavailableError, match=r"COURSE_DEVICE asked for 'cuda'.*cpu"):
        get_device()


def test_cpu_only_build_is_named_as_the_cause(no_gpu, monkeypatch):
    monkeypatch.setattr(torch.version, "cuda", None)
    monkeypatch.setattr(torch.version, "hip", None)
    with pytest.raises(DeviceUnavailableError, match="CPU-only build"):
        get_device("cuda")


def test_missing_mps(no_gpu):
    with pytest.raises(DeviceUnavailableError, match=r"'mps'.*Available here: cpu"):
        get_device("mps")


def test_gpu_index_out_of_range(fake_cuda):
    with pytest.raises(DeviceUnavailableError, match=r"has 2 CUDA device\(s\) \(cuda:0, cuda:1\)"):
        get_device("cuda:2")


def test_not_a_device_name(no_gpu):
    with pytest.raises(DeviceUnavailableError, match=r"'gpu', which is not a device name"):
        get_device("gpu")


def test_the_error_follows_the_course_language(no_gpu, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    with pytest.raises(DeviceUnavailableError, match=r"'mps'.*这里可用的设备：cpu"):
        get_device("mps")


def test_synchronize_waits_for_the_right_device(fake_cuda, fake_mps, calls):
    synchronize("cpu")
    assert calls == []
    synchronize("cuda:1")
    synchronize(torch.device("mps"))
    assert calls == [("cuda", torch.device("cuda:1")), ("mps", None)]
