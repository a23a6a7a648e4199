"""How notebooks are executed: the environment their kernels get, how messages are awaited."""

import asyncio
import json
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from queue import Empty

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from helpers.course import paths
from helpers.course.notebooks import execute as execute_module
from helpers.course.notebooks.waits import Waits


class FakeClient:
    """Records the environment a kernel would get, runs nothing."""

    seen: list[dict] = []

    def __init__(self, nb, **kwargs):
        self.nb = nb
        self.waits = Waits()

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
    spaced = any(c.isspace() for c in str(paths.BUILD))  # then outside (pytorch#191010)
    assert (paths.COMPILE_CACHE.parent == paths.BUILD) != spaced
    assert not any(c.isspace() for c in str(paths.COMPILE_CACHE))
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


T0 = datetime(2026, 12, 4, 12, 0, tzinfo=timezone.utc)


def message(kind, request, sent, state=None):
    """A kernel message as jupyter_client hands it over (dates already parsed)."""
    return {
        "msg_type": kind,
        "header": {"date": sent},
        "parent_header": {"msg_id": request},
        "content": {"execution_state": state} if state else {"status": "ok"},
    }


def seconds(s):
    return timedelta(seconds=s)


def test_the_idle_wait_is_from_the_kernel_finishing_to_the_client_seeing_both_messages():
    waits = Waits()
    waits.sent("a", 3)
    waits.sent("b", 5)
    # cell 3: the reply arrives first, idle 2 ms after the kernel sent it
    waits.note(message("status", "a", T0, "busy"), T0 + seconds(0.001))
    waits.note(message("execute_reply", "a", T0 + seconds(1.0)), T0 + seconds(1.001))
    waits.note(message("status", "a", T0 + seconds(1.001), "idle"), T0 + seconds(1.003))
    assert waits.longest() == pytest.approx((0.002, 3))
    # cell 5: idle seen at once, the reply lay unread for 60 s (a missed wake-up)
    waits.note(message("status", "b", T0 + seconds(2.001), "idle"), T0 + seconds(2.002))
    waits.note(message("execute_reply", "b", T0 + seconds(2.0)), T0 + seconds(62.0))
    wait, cell = waits.longest()
    assert cell == 5 and wait == pytest.approx(59.999)
    assert waits.over(5.0) == [5] and waits.over(60.0) == []


def test_messages_of_other_requests_and_other_kinds_do_not_count():
    waits = Waits()
    assert waits.longest() == (0.0, None)  # nothing executed yet
    waits.sent("a", 0)
    late = T0 + seconds(100)
    waits.note(message("kernel_info_reply", "startup", T0), late)  # not a cell's request
    waits.note(message("execute_reply", "startup", T0), late)
    waits.note(message("stream", "a", T0), late)  # output, not the end of the cell
    waits.note(message("status", "a", T0, "busy"), late)
    assert waits.longest() == (0.0, None)
    waits.note(message("execute_reply", "a", T0.isoformat()), T0 + seconds(0.5))  # a string date
    assert waits.longest() == pytest.approx((0.5, 0))


def test_a_request_the_kernel_never_answered_is_named():
    waits = Waits()
    assert waits.unread_request() is None  # nothing sent
    waits.sent("a", 0)
    waits.note(message("execute_reply", "a", T0), T0)
    waits.sent("b", 2)
    assert waits.unread_request() == 2  # not even a busy status for cell 2
    waits.note(message("status", "b", T0, "busy"), T0)
    assert waits.unread_request() is None  # the kernel read it: a long cell, not a lost request


def test_a_run_above_the_limit_is_a_lost_reply():
    quick = execute_module.Run(Path("x.ipynb"), new_notebook(), 3.0, None, 0.004, 2)
    slow = execute_module.Run(Path("x.ipynb"), new_notebook(), 63.0, None, 60.0, 7, [3, 7])
    assert not quick.lost_reply and slow.lost_reply
    assert execute_module.max_wait([quick, slow]) == 60.0
    line = execute_module.lost_reply_line(slow)
    assert "LOST REPLY in cell 3, 7: the longest came 60 s after" in line


def test_noting_passes_the_callers_timeout_through_and_notes_each_message():
    calls, noted = [], []

    async def get_msg(timeout=None):
        calls.append(timeout)
        return {"msg_type": "execute_reply"}

    noting = execute_module._noting(get_msg, lambda msg, now: noted.append((msg, now)))
    assert asyncio.run(noting(timeout=600))["msg_type"] == "execute_reply"
    assert calls == [600]  # nbclient's own wait, not cut into polls
    assert noted[0][0]["msg_type"] == "execute_reply" and noted[0][1].tzinfo is not None


def test_make_course_waits_as_nbclient_does_and_reports_each_notebooks_wait(
    monkeypatch, tmp_path, capsys
):
    asked = []

    def fake_execute(path, **kwargs):
        asked.append(kwargs)
        wait, cell, lost = (61.5, 4, [4]) if "lost" in path.name else (0.003, 1, [])
        nb = nbformat.read(path, as_version=4)
        return execute_module.Run(path, nb, 2.0, None, wait, cell, lost)

    monkeypatch.setattr(execute_module, "execute", fake_execute)
    monkeypatch.setattr(execute_module, "_html", lambda nb: "<html></html>")
    notebooks = []
    for name in ("day01_fine.ipynb", "day02_lost.ipynb"):
        nbformat.write(new_notebook(), tmp_path / name)
        notebooks.append(tmp_path / name)
    runs = execute_module.build_course(tmp_path / "out", notebooks=notebooks)
    assert all(a["short_polls"] is False for a in asked)
    assert all(a["cell_timeout"] == execute_module.COURSE_CELL_TIMEOUT <= 300 for a in asked)
    assert [r.lost_reply for r in runs] == [False, True]
    printed = capsys.readouterr().out
    assert "wait  0.00 s" in printed and "wait 61.50 s" in printed
    assert "LOST REPLY in cell 4: the longest came 62 s after" in printed
    assert "1 with a lost reply (longest idle wait 61.50 s)" in printed
    record = json.loads((tmp_path / "out" / "timings.json").read_text(encoding="utf-8"))
    lost = record["notebooks"]["day02_lost.ipynb"]
    assert lost["idle_wait_s"] == 61.5 and lost["idle_wait_cell"] == 4 and lost["lost_reply"]
    assert lost["lost_reply_cells"] == [4]
    assert record["notebooks"]["day01_fine.ipynb"]["lost_reply"] is False
    # each notebook names its machine: a later run on another keeps the earlier one's name
    earlier = {**record, "notebooks": {**record["notebooks"], "day00_old.ipynb": {"machine": "X"}}}
    (tmp_path / "out" / "timings.json").write_text(json.dumps(earlier), encoding="utf-8")
    execute_module.build_course(tmp_path / "out", notebooks=notebooks[:1])
    merged = json.loads((tmp_path / "out" / "timings.json").read_text(encoding="utf-8"))
    assert merged["notebooks"]["day00_old.ipynb"]["machine"] == "X"
    assert merged["notebooks"]["day01_fine.ipynb"]["machine"] == merged["machine"] != "X"


def test_a_real_run_reports_its_idle_wait(tmp_path):
    nb = new_notebook(cells=[new_code_cell("x = 1"), new_code_cell("print(x + 1)")])
    path = tmp_path / "two cells.ipynb"
    nbformat.write(nb, path)
    run = execute_module.execute(path, fast=True, cell_timeout=60, short_polls=False)
    assert run.error is None
    assert run.notebook.cells[1].outputs[0]["text"] == "2\n"
    assert run.idle_wait_cell in (0, 1)  # measured on the cells that ran
    assert 0 <= run.idle_wait < 1 and not run.lost_reply and run.lost_cells == []


class LostRequestClient(FakeClient):
    """Sends cell 3's request; the kernel never answers it and the cell's limit ends."""

    def execute(self, env):
        self.waits.sent("a", 3)
        if self.answered:
            self.waits.note(message("status", "a", T0, "busy"), T0)
        raise TimeoutError("Cell execution timed out")


@pytest.mark.parametrize("answered", [False, True])
def test_a_timeout_says_whether_the_kernel_ever_read_the_request(monkeypatch, tmp_path, answered):
    monkeypatch.setattr(LostRequestClient, "answered", answered, raising=False)
    monkeypatch.setattr(execute_module, "_Client", LostRequestClient)
    path = tmp_path / "day99_x.ipynb"
    nbformat.write(new_notebook(), path)
    run = execute_module.execute(path, fast=True, cell_timeout=30)
    if answered:
        assert run.error.startswith("a cell ran longer than 30 s")
    else:
        assert run.error.startswith("cell 3: the kernel never answered its request in 30 s")
