"""Shared fixtures: fake GPUs, so every GPU branch is tested on any machine, and a lesson
executed once for every test that reads it (``fast_run``). Also the order in which ``make test``
hands out its tests (the longest first) and the threads each of its workers uses."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import fields
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
import torch
from filelock import FileLock

from helpers import paths


def pytest_configure(config):
    """One compile cache for the whole run; under pytest-xdist, each worker's share of the
    cores. Two workers with two threads each on two cores make OpenMP's threads wait for each
    other: the tests of loops, training and many_models took 130 s that way, 21 s with one
    thread per worker."""
    # Every compile of the run in one cache, the one the notebooks and make course use (PyTorch's
    # own default is a folder in /tmp: a second cold cache on a fresh machine).
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", str(paths.COMPILE_CACHE))
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        threads = max(1, (os.cpu_count() or 1) // workers)
        torch.set_num_threads(threads)
        os.environ.setdefault("OMP_NUM_THREADS", str(threads))  # for the processes tests start


# The modules that hold the longest items of make test (a minute or more each, or a group that
# one worker runs together): they start first, so that no worker is still running one of them
# when the other has nothing left to do.
LONGEST = (
    "tests/course/test_grading.py",
    "tests/test_portability.py",
    "tests/course/test_browser.py",
)


def pytest_collection_modifyitems(config, items):
    """The longest modules first (:data:`LONGEST`), then the other modules with slow tests (in
    their order): with two workers, a notebook started last keeps one worker busy while the other
    has nothing left to do. A module's tests stay together, so its module-scoped fixtures are
    built once."""

    def module(item) -> str:
        return item.nodeid.split("::")[0]

    slow = {module(item) for item in items if _slow(item)}

    def order(item) -> tuple[int, int]:
        name = module(item)
        return (0, LONGEST.index(name)) if name in LONGEST else (1 if name in slow else 2, 0)

    items.sort(key=order)


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


@pytest.fixture(scope="session")
def fast_run(tmp_path_factory):
    """``fast_run(path, env)``: the notebook at ``path`` executed in fast mode with ``env``, once
    per test run, whichever tests read it and on whichever pytest-xdist worker: the first to ask
    runs it, the others wait for it and read what it left (pytest-xdist's recipe for running a
    session fixture once: a folder all workers share, and a file lock)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base

    from helpers.course.notebooks.execute import Run, execute

    def run(path: Path, env: dict[str, str]) -> Run:
        key = hashlib.sha256(path.read_bytes() + json.dumps(env, sort_keys=True).encode())
        stored = shared / f"fast-run-{key.hexdigest()[:16]}.json"
        with FileLock(f"{stored}.lock"):
            if stored.is_file():
                kept = json.loads(stored.read_text(encoding="utf-8"))
                notebook = nbformat.reads(kept.pop("notebook"), as_version=4)
                return Run(**kept | {"path": path, "notebook": notebook})
            done = execute(path, fast=True, cell_timeout=180, env=env)
            kept = {f.name: getattr(done, f.name) for f in fields(Run)} | {"path": None}
            kept["notebook"] = nbformat.writes(done.notebook)
            partial = stored.with_suffix(".partial")
            partial.write_text(json.dumps(kept), encoding="utf-8")
            partial.replace(stored)  # whole or not at all, whoever reads it
            return done

    return run
