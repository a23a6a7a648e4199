"""Shared fixtures: fake GPUs, so every GPU branch is tested on any machine."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch


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
