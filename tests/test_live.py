import sys
import time
from types import ModuleType

import pytest

from helpers import day01, nvml
from helpers.live import LiveView, Sampler


@pytest.fixture
def fresh_nvml():
    nvml.library.cache_clear()
    yield
    nvml.library.cache_clear()


def test_nvml_is_none_without_a_driver(monkeypatch, fresh_nvml):
    fake = ModuleType("pynvml")

    class NVMLError(Exception):
        pass

    def no_driver():
        raise NVMLError("NVML Shared Library Not Found")

    fake.NVMLError, fake.nvmlInit = NVMLError, no_driver
    monkeypatch.setitem(sys.modules, "pynvml", fake)
    assert nvml.library() is None


def test_nvml_is_none_without_the_package(monkeypatch, fresh_nvml):
    monkeypatch.setitem(sys.modules, "pynvml", None)  # makes `import pynvml` fail
    assert nvml.library() is None


def test_sampler_reads_every_gpu_through_nvml(monkeypatch):
    from tests.test_hardware_gpu import CARDS, FakeNVML

    monkeypatch.setattr(nvml, "library", lambda: FakeNVML([CARDS["H100"], CARDS["T4"]]))
    sampler = Sampler()
    row = sampler()
    assert "NVML" in sampler.source
    assert row["gpu0_memory_total_gb"] == pytest.approx(85.52, abs=0.01)
    assert row["gpu1_memory_used_gb"] == pytest.approx(15_835_660_288 // 4 / 1e9)
    assert row["gpu1_utilization_percent"] == 87
    assert row["process_memory_gb"] > 0


def test_sampler_without_a_gpu_watches_the_process(monkeypatch, no_gpu):
    monkeypatch.setattr(nvml, "library", lambda: None)
    sampler = Sampler()
    assert "no GPU or driver found" in sampler.source
    assert set(sampler()) == {"seconds", "process_cpu_percent", "process_memory_gb"}


def test_sampler_on_a_mac_reads_mps_memory(monkeypatch, fake_mps):
    import torch

    monkeypatch.setattr(nvml, "library", lambda: None)
    monkeypatch.setattr(torch.mps, "driver_allocated_memory", lambda: 3_000_000_000, raising=False)
    sampler = Sampler()
    assert "MPS" in sampler.source and sampler()["mps_allocated_gb"] == 3.0


class Counting:
    """A sampler that counts: memory grows by 1 GB a reading, the GPU is always 50% busy."""

    source = "a test"

    def __init__(self):
        self.n = 0

    def __call__(self):
        self.n += 1
        return {"seconds": time.monotonic(), "process_cpu_percent": 10.0,
                "process_memory_gb": 0.5, "gpu0_memory_used_gb": float(self.n),
                "gpu0_memory_total_gb": 80.0, "gpu0_utilization_percent": 50.0}  # fmt: skip


def test_live_view_updates_while_the_block_runs_and_stops_after():
    view = LiveView(interval=0.02, sampler=Counting())
    with view:
        time.sleep(0.3)
    readings = len(view.rows)
    assert readings >= 5  # the first, several from the thread, and the last
    time.sleep(0.1)
    assert len(view.rows) == readings, "the thread must stop when the block ends"
    bar, label, _ = view._bars["gpu0_memory_used_gb"]
    assert bar.value == readings and bar.max == 80.0
    assert label.value == f"{readings:.1f} GB of 80.0"
    history = view.history
    assert history["seconds"].iloc[0] == 0 and history["seconds"].is_monotonic_increasing
    found = view.summary()
    assert found.readings == readings and found.cpu_percent == 10.0
    assert list(found.figures) == [
        "process_memory_gb", "gpu0_memory_used_gb", "gpu0_utilization_percent"
    ]  # fmt: skip
    assert found.figures["gpu0_memory_used_gb"] == readings  # the peak
    summary = day01.live_summary(found)
    assert summary.startswith(f"{readings} readings over ")
    assert "GPU0 busy 50% on average" in summary and f"peak gpu0 memory used {readings}" in summary
    assert summary.endswith("process CPU 10% on average (100% = one CPU kept busy)")


def test_live_view_rejects_a_bad_interval():
    with pytest.raises(ValueError, match="interval must be a positive number of seconds, got 0"):
        LiveView(interval=0)


def test_live_view_records_even_when_the_block_fails():
    view = LiveView(interval=0.05, sampler=Counting())
    with pytest.raises(RuntimeError), view:
        raise RuntimeError("boom")
    assert len(view.rows) >= 2 and not view._thread.is_alive()
    assert len(view.history) >= 2
