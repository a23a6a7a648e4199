"""Shared fixtures: fake GPUs, so every GPU branch is tested on any machine."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
import torch


def pytest_configure(config):
    """Under pytest-xdist, each worker gets its share of the cores. Two workers with two threads
    each on two cores make OpenMP's threads wait for each other: the tests of loops, training and
    many_models took 130 s that way, 21 s with one thread per worker."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        threads = max(1, (os.cpu_count() or 1) // workers)
        torch.set_num_threads(threads)
        os.environ.setdefault("OMP_NUM_THREADS", str(threads))  # for the processes tests start


def pytest_collection_modifyitems(config, items):
    """Modules with slow tests first (in their order): with two workers, a notebook started last
    keeps one worker busy while the other has nothing left to do. A module's tests stay together,
    so its module-scoped fixtures are built once."""

    def module(item) -> str:
        return item.nodeid.split("::")[0]

    slow = {module(item) for item in items if _slow(item)}
    items.sort(key=lambda item: module(item) not in slow)


def _slow(item) -> bool:
    return any(item.get_closest_marker(name) for name in ("slow", "notebook", "browser"))


@pytest.fixture
def calls():
    """A list that fake device functions append their calls to."""
    return []


@pytest.fixture
def fake_cuda(monkeypatch, calls):
    """Pretend this machine has two NVIDIA H100 GPUs (compute capability 9.0, 80 GB)."""
    props = SimpleNamespace(
        name="NVIDIA H100 80GB HBM3", total_memory=85_520_809_984, major=9, minor=0,
        multi_processor_count=132,
    )  # fmt: skip
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda index=None: props)
    monkeypatch.setattr(
        torch.cuda, "synchronize", lambda device=None: calls.append(("cuda", device))
    )
    return props


@pytest.fixture
def fake_mps(monkeypatch, calls):
    """Pretend this is an Apple silicon Mac with MPS."""
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: True)
    monkeypatch.setattr(torch.backends.mps, "is_built", lambda: True)
    monkeypatch.setattr(torch.mps, "synchronize", lambda: calls.append(("mps", None)))


@pytest.fixture
def no_gpu(monkeypatch):
    """Pretend there is neither CUDA nor MPS, whatever this machine has."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    monkeypatch.delenv("COURSE_DEVICE", raising=False)
