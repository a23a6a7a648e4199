"""Executing the course's notebooks: for the tests (fast mode) and ``make course`` (full mode).

Each notebook runs top to bottom in a fresh kernel, in its own folder, with ``COURSE_FAST`` set for
the mode asked for. ``make course`` writes the executed copies and an HTML copy of each into
``build/course/`` so an instructor can pre-run the course on the room's machine; the HTML copies
work offline (:mod:`.html`).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from queue import Empty

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, DeadKernelError

from helpers.course import paths
from helpers.course.notebooks.waits import LOST_REPLY_SECONDS, Waits

# The compile cache the caller chose, read when this module is imported: later, creating the first
# optimiser in this process imports torch._dynamo, which writes its own default into os.environ.
_CALLER_CACHE = os.environ.get("TORCHINDUCTOR_CACHE_DIR")


COURSE_CELL_TIMEOUT = 300
"""``make course``'s limit per cell: what a lost reply costs there (nbclient's default is 600 s)."""


class _Client(NotebookClient):
    """nbclient, recording each cell's idle wait; with ``short_polls``, waiting in polls of 1 s.

    A reply can lie unread in the client's shell socket while the client sleeps (kernel and client
    both idle) until the poll's timeout, the cell's whole limit, ends. The cause (reproduced with
    ``benchmarks/lost_replies.py``): while a cell runs, nbclient sends on the shell socket for each
    output an ``ipywidgets.Output`` widget captures (``OutputWidget.sync_state``), and
    jupyter_client's ``Session.send`` sends on a plain shadow of the asyncio socket. That send
    takes in the socket's pending wake-up (libzmq's edge-triggered ``ZMQ_FD``) without pyzmq's
    asyncio layer noticing, so a reply that arrived then wakes nobody. A poll that ends looks at
    the socket once more, so short polls cost such a miss at most a second (the tests use them).
    Without them the client waits as nbclient, nbconvert and papermill do (``make course``), and
    :class:`~helpers.course.notebooks.waits.Waits` shows what a miss cost.
    """

    def __init__(self, nb, *, short_polls: bool = True, **kwargs):
        super().__init__(nb, **kwargs)
        self.short_polls = short_polls
        self.waits = Waits()
        self._cell_index = -1

    async def async_start_new_kernel_client(self):
        client = await super().async_start_new_kernel_client()
        for channel in (client.shell_channel, client.iopub_channel):
            get_msg = _in_short_polls(channel.get_msg) if self.short_polls else channel.get_msg
            channel.get_msg = _noting(get_msg, self.waits.note)
        execute = client.execute

        def execute_and_note(*args, **kwargs):
            msg_id = execute(*args, **kwargs)
            self.waits.sent(msg_id, self._cell_index)
            return msg_id

        client.execute = execute_and_note
        return client

    async def async_execute_cell(self, cell, cell_index, *args, **kwargs):
        self._cell_index = cell_index
        return await super().async_execute_cell(cell, cell_index, *args, **kwargs)


def _noting(get_msg, note):
    """``get_msg`` unchanged (same timeout), telling ``note`` each message and when it came."""

    async def get_msg_and_note(timeout: float | None = None):
        msg = await get_msg(timeout=timeout)
        note(msg, datetime.now(timezone.utc))
        return msg

    return get_msg_and_note


def _in_short_polls(get_msg, longest: float = 1.0):
    async def get_msg_in_short_polls(timeout: float | None = None):
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            left = longest if end is None else min(longest, max(0.0, end - time.monotonic()))
            try:
                return await get_msg(timeout=left)
            except Empty:
                if end is not None and time.monotonic() >= end:
                    raise

    return get_msg_in_short_polls


@dataclass
class Run:
    """One executed notebook."""

    path: Path
    notebook: nbformat.NotebookNode
    seconds: float
    error: str | None = None
    """Why the run failed (the cell's traceback), or ``None`` when it ran to the end."""
    idle_wait: float = 0.0
    """The longest time (s) between the kernel finishing a cell and the client seeing it."""
    idle_wait_cell: int | None = None
    """The index of the cell where that longest wait happened."""
    lost_cells: list[int] = field(default_factory=list)
    """The cells whose reply was lost (an idle wait over ``LOST_REPLY_SECONDS``)."""

    @property
    def lost_reply(self) -> bool:
        return self.idle_wait > LOST_REPLY_SECONDS


def problems(nb: nbformat.NotebookNode) -> list[str]:
    """Error outputs and warnings printed in an executed notebook, as ``'cell N: text'`` lines."""
    found = []
    for index, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                found.append(f"cell {index}: {out.ename}: {out.evalue}")
            elif out.output_type == "stream" and out.name == "stderr":
                text = out.text
                if any(word in text for word in ("Traceback", "Error", "Warning")):
                    found.append(f"cell {index}: stderr: {text.strip()[:500]}")
    return found


def shown(nb: nbformat.NotebookNode) -> list[str]:
    """What an executed notebook's cells showed, one string per output: its Markdown and the
    text it printed."""
    return [
        str(out.get("data", {}).get("text/markdown", "")) + str(out.get("text", ""))
        for cell in nb.cells
        for out in cell.get("outputs", [])
    ]


def _run(client: _Client, env: dict[str, str], cell_timeout: int) -> str | None:
    """Execute the client's notebook; returns why it stopped early (``None``: it ran through)."""
    try:
        client.execute(env=env)
    except CellExecutionError as err:
        return str(err)
    except TimeoutError as err:
        unread = client.waits.unread_request()
        if unread is None:
            return f"a cell ran longer than {cell_timeout} s: {err}"
        return (
            f"cell {unread}: the kernel never answered its request in {cell_timeout} s "
            "(a lost request: kernel and client both waited)"
        )
    except DeadKernelError as err:
        return f"the kernel died (out of memory?): {err}"
    return None


def execute(
    path: Path,
    *,
    fast: bool,
    cell_timeout: int = 600,
    env: dict[str, str] | None = None,
    notebook: nbformat.NotebookNode | None = None,
    short_polls: bool = True,
) -> Run:
    """Run the notebook at ``path`` in a fresh kernel in its folder; a cell's error is returned.

    ``env`` adds environment variables for the kernel; ``COURSE_FAST`` follows ``fast``.
    ``torch.compile`` keeps its cache in ``build/`` (``paths.COMPILE_CACHE``) unless
    ``TORCHINDUCTOR_CACHE_DIR`` was set when this process started (or is given in ``env``), so the
    tests and ``make course`` compile each function once.
    ``notebook`` runs that notebook instead of the file's content (still in the file's folder).
    ``short_polls=False`` waits for the kernel's messages as nbclient does by itself (a missed
    wake-up then costs up to ``cell_timeout``); either way the run reports its longest idle wait.
    """
    nb = notebook if notebook is not None else nbformat.read(path, as_version=4)
    kernel_env = {
        **os.environ,
        "TORCHINDUCTOR_CACHE_DIR": _CALLER_CACHE or str(paths.COMPILE_CACHE),
        **(env or {}),
        "COURSE_FAST": "1" if fast else "0",
    }
    client = _Client(
        nb,
        timeout=cell_timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        shutdown_kernel="immediate",  # a graceful shutdown can wait on leftover threads
        short_polls=short_polls,
    )
    start = time.perf_counter()
    error = _run(client, kernel_env, cell_timeout)
    seconds = time.perf_counter() - start
    lost = client.waits.over(LOST_REPLY_SECONDS)
    return Run(path, nb, seconds, error, *client.waits.longest(), lost_cells=lost)


def _html(nb: nbformat.NotebookNode) -> str:
    from helpers.course.notebooks.html import export

    return export(nb)


def _keep(run: Run, path: Path, out: Path) -> tuple[str, dict]:
    """Write an executed notebook and its HTML copy under ``out``, print how it went, and return
    where it lies (relative to ``out``) and its entry in ``timings.json``."""
    full = path.resolve()
    relative = full.relative_to(paths.ROOT) if full.is_relative_to(paths.ROOT) else Path(full.name)
    target = out / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(run.notebook, target)
    target.with_suffix(".html").write_text(_html(run.notebook), encoding="utf-8")
    issues = [run.error] if run.error else problems(run.notebook)
    status = "ok" if not issues else "FAILED"
    wait = f"wait {run.idle_wait:5.2f} s"
    print(f"  {run.seconds:7.1f} s  {status:6}  {wait}  {target.with_suffix('.html')}")
    for issue in issues:
        print("           " + issue.strip().splitlines()[-1][:300])
    if run.lost_reply:
        print(f"           {lost_reply_line(run)}")
    run.error = run.error or ("\n".join(issues) if issues else None)
    return str(relative), {
        "seconds": round(run.seconds, 2),
        "status": status,
        "idle_wait_s": round(run.idle_wait, 3),
        "idle_wait_cell": run.idle_wait_cell,
        "lost_reply": run.lost_reply,
        "lost_reply_cells": run.lost_cells,
    }


def _write_timings(file: Path, mode: str, timings: dict) -> None:
    """``timings.json``, merged with the earlier runs of the same mode (so that running a few
    notebooks keeps the others' times). Each notebook's entry names the machine that ran it (an
    earlier run may have been on another); ``machine`` is this run's."""
    from helpers.hardware import card_line

    machine = card_line(lang="en")
    timings = {name: {**entry, "machine": machine} for name, entry in timings.items()}
    if file.is_file():
        earlier = json.loads(file.read_text(encoding="utf-8"))
        if earlier.get("mode") == mode:
            timings = {**earlier.get("notebooks", {}), **timings}
    record = {"mode": mode, "machine": machine, "notebooks": timings}
    file.write_text(json.dumps(record, indent=2), encoding="utf-8")


def build_course(
    out: Path | None = None, *, fast: bool = False, notebooks: list[Path] | None = None
):
    """Execute every lesson and master into ``out`` (default ``build/course``), with HTML copies.

    The kernel's messages are awaited as nbclient does by itself (as ``jupyter nbconvert --execute``
    and papermill do), with cells limited to ``COURSE_CELL_TIMEOUT``. Prints each notebook's time,
    its longest idle wait (flagging a lost reply) and where its copies are; writes
    ``timings.json`` beside them. Returns the list of :class:`Run`; a failed notebook is reported
    and the others still run.
    """
    out = out or paths.EXECUTED
    notebooks = notebooks if notebooks is not None else paths.lessons() + paths.masters()
    runs, timings = [], {}
    mode = "fast" if fast else "full"
    print(f"Executing {len(notebooks)} notebooks in {mode} mode into {out}/")
    for path in notebooks:
        run = execute(path, fast=fast, cell_timeout=COURSE_CELL_TIMEOUT, short_polls=False)
        relative, entry = _keep(run, path, out)
        timings[relative] = entry
        runs.append(run)
    _write_timings(out / "timings.json", mode, timings)
    total = sum(r.seconds for r in runs)
    failed = [r for r in runs if r.error]
    lost = sum(r.lost_reply for r in runs)
    print(
        f"Done in {total:.0f} s: {len(runs) - len(failed)} ok, {len(failed)} failed, "
        f"{lost} with a lost reply (longest idle wait {max_wait(runs):.2f} s)."
    )
    return runs


def max_wait(runs: list[Run]) -> float:
    """The longest idle wait of all ``runs``, in seconds."""
    return max((r.idle_wait for r in runs), default=0.0)


def lost_reply_line(run: Run) -> str:
    """One line saying where ``run`` lost a reply and what it cost."""
    cells = ", ".join(map(str, run.lost_cells)) or str(run.idle_wait_cell)
    return (
        f"LOST REPLY in cell {cells}: the longest came {run.idle_wait:.0f} s after the kernel "
        f"finished the cell (limit {LOST_REPLY_SECONDS:.0f} s; see the README's troubleshooting)"
    )
