"""How notebooks are executed: the environment their kernels get, how messages are awaited."""

import asyncio
import time
from queue import Empty

import nbformat
import pytest
from nbformat.v4 import new_notebook

from helpers import paths
from helpers.course import execute as execute_module


class FakeClient:
    """Records the environment a kernel would get, runs nothing."""

    seen: list[dict] = []

    def __init__(self, nb, **kwargs):
        self.nb = nb

    def execute(self, env):
        FakeClient.seen.append(env)


def run_with(monkeypatch, tmp_path, **kwargs):
    FakeClient.seen.clear()
    monkeypatch.setattr(execute_module, "_Client", FakeClient)
    path = tmp_path / "day99_x.ipynb"
    nbformat.write(new_notebook(), path)
    execute_module.execute(path, **kwargs)
    return FakeClient.seen[-1]


def test_kernels_share_one_compile_cache_under_build(monkeypatch, tmp_path):
    monkeypatch.setattr(execute_module, "_CALLER_CACHE", None)
    # what torch._dynamo writes into os.environ when this process creates its first optimiser
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", "/tmp/torchinductor_someone")
    env = run_with(monkeypatch, tmp_path, fast=True)
    assert env["TORCHINDUCTOR_CACHE_DIR"] == str(paths.COMPILE_CACHE)
    assert paths.COMPILE_CACHE.parent == paths.BUILD
    assert env["COURSE_FAST"] == "1"
    assert run_with(monkeypatch, tmp_path, fast=False)["COURSE_FAST"] == "0"


def test_a_cache_folder_chosen_by_the_caller_wins(monkeypatch, tmp_path):
    monkeypatch.setattr(execute_module, "_CALLER_CACHE", str(tmp_path / "mine"))
    env = run_with(monkeypatch, tmp_path, fast=True)
    assert env["TORCHINDUCTOR_CACHE_DIR"] == str(tmp_path / "mine")
    env = run_with(monkeypatch, tmp_path, fast=True, env={"TORCHINDUCTOR_CACHE_DIR": "/x"})
    assert env["TORCHINDUCTOR_CACHE_DIR"] == "/x"


def test_a_missed_wake_up_costs_one_short_poll_not_the_whole_wait():
    calls = []

    async def get_msg(timeout=None):  # as pyzmq when it misses the wake-up: the message that
        calls.append(timeout)  # arrived is returned only when the poll's timeout ends
        await asyncio.sleep(timeout)
        if len(calls) < 3:
            raise Empty
        return {"msg_type": "execute_reply"}

    waiting = execute_module._in_short_polls(get_msg, longest=0.05)
    start = time.perf_counter()
    assert asyncio.run(waiting(timeout=600))["msg_type"] == "execute_reply"
    assert time.perf_counter() - start < 5 and calls == [0.05] * 3
    calls.clear()
    assert asyncio.run(waiting(timeout=None))["msg_type"] == "execute_reply"  # no limit: polls on


def test_short_polls_still_end_at_the_callers_timeout():
    async def nothing(timeout=None):
        await asyncio.sleep(timeout)
        raise Empty

    start = time.perf_counter()
    with pytest.raises(Empty):
        asyncio.run(execute_module._in_short_polls(nothing, longest=0.05)(timeout=0.3))
    assert 0.3 <= time.perf_counter() - start < 5
