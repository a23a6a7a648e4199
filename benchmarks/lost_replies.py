"""Count lost replies: execute one notebook N times with nbclient's own waiting.

A lost reply is a cell whose ``execute_reply`` reaches the client long after the kernel finished
the cell (kernel and client both idle) because a wake-up was missed; nbclient then waits until the
cell's time limit ends. Each run here uses a short limit (``--cell-timeout``) so a loss costs that,
not 10 minutes, and prints the run's longest idle wait and the cell where it happened.

    .venv/bin/python benchmarks/lost_replies.py notebooks/day00_setup.ipynb --runs 20
    .venv/bin/python benchmarks/lost_replies.py notebooks/day07_gpu_utilization.ipynb \\
        --runs 10 --drop num_workers --drop run_ranks      # bisect: without the cells that fork
    .venv/bin/python benchmarks/lost_replies.py notebooks/day00_setup.ipynb --short-polls
    .venv/bin/python benchmarks/lost_replies.py build/lost/minimal.ipynb --minimal 200 --runs 5
    .venv/bin/python benchmarks/lost_replies.py build/lost/plain.ipynb --minimal 200 --kind plain

``--drop TEXT`` removes every code cell whose source contains TEXT (the notebook still has to run
to the end without them: later cells may need what a dropped cell defined). ``--append FILE``
adds one JSON line per run to FILE, so campaigns run on different days add up.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import select
import statistics
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import nbformat
import zmq

from helpers.course.notebooks import execute as execute_module
from helpers.course.notebooks.execute import LOST_REPLY_SECONDS, execute

LATE_SECONDS = 2.0
LATE_RUNS = []  # how many late replies each run had


class _Watched(execute_module._Client):
    """The course's client; when a reply is late, prints what the client's shell socket holds."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.late = 0
        LATE_RUNS.append(self)

    wake_after_send = False

    async def async_start_new_kernel_client(self):
        client = await super().async_start_new_kernel_client()
        if self.wake_after_send:
            client.shell_channel.send = _waking(client.shell_channel)
        return client

    async def async_execute_cell(self, cell, cell_index, *args, **kwargs):
        watchdog = asyncio.ensure_future(self._watch(cell_index))
        try:
            return await super().async_execute_cell(cell, cell_index, *args, **kwargs)
        finally:
            watchdog.cancel()

    async def _watch(self, cell_index):
        waits = self.waits
        while True:
            await asyncio.sleep(1)
            pending = [r for r, c in waits.cells.items() if c == cell_index and r in waits.done]
            late = [
                r
                for r in pending
                if (datetime.now(timezone.utc) - waits.done[r]).total_seconds() > LATE_SECONDS
            ]
            if late:
                lines, waiting = _socket_state(self.kc.shell_channel.socket)
                if waiting:  # the reply lay in the socket: a missed wake-up
                    self.late += 1
                print(f"  cell {cell_index}: kernel finished, not done after 2 s", flush=True)
                for line in lines:
                    print("   ", line, flush=True)
                return


def _waking(channel):
    """``channel.send``, then a look at the socket's events (the suspected cause, undone).

    jupyter_client's ``Session.send`` sends on a plain shadow of the asyncio socket; that
    ``zmq_send`` may take in the reply's wake-up without pyzmq's asyncio layer noticing. Reading
    ``EVENTS`` through the asyncio socket makes pyzmq schedule its handler if a reply is waiting.
    """
    send = channel.send

    def send_and_wake(msg):
        send(msg)
        channel.socket.get(zmq.EVENTS)

    return send_and_wake


def _socket_state(socket) -> tuple[list[str], bool]:
    """The shell socket as the event loop sees it.

    Reads ``EVENTS`` last: pyzmq then schedules the socket's handler, which delivers a waiting
    reply (so the run goes on instead of waiting for the cell's limit).
    """
    loop = asyncio.get_running_loop()
    fd = socket.FD
    key = loop._selector.get_map().get(fd)
    registered = []  # one entry per epoll instance of this process (each thread's loop has one)
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}") == "anon_inode:[eventpoll]":
                info = Path(f"/proc/self/fdinfo/{name}").read_text(encoding="utf-8")
                registered.append(f"tfd: {fd:8d} " in info)
        except OSError:
            pass
    readable = bool(select.select([fd], [], [], 0)[0])
    info = Path(f"/proc/self/fdinfo/{fd}").read_text(encoding="utf-8")
    fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    count = fields.get("eventfd-count", "?").strip()
    futures = [(e.kind, e.future.done()) for e in socket._recv_futures]
    threads = [t.name for t in threading.enumerate()]
    lines = [
        f"fd {fd} -> {os.readlink(f'/proc/self/fd/{fd}')} (eventfd-count {count}, "
        f"readable: {readable}), in the selector's map: {key is not None}, in epoll: {registered}",
        f"io state {socket._state}, loop is the running one: {socket._current_loop is loop}",
        f"recv futures (kind, done): {futures}; threads: {threads}",
        f"processes holding this eventfd: {_holders(fields.get('eventfd-id', '').strip())}",
    ]
    events = socket.get(zmq.EVENTS)
    lines.append(f"EVENTS now: {events} (POLLIN, 1: a message is waiting)")
    return lines, bool(events & zmq.POLLIN)


def _holders(eventfd_id: str) -> list[str]:
    """Every process (pid and name) with this eventfd open."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                info = Path(f"/proc/{pid}/fdinfo/{fd}").read_text(encoding="utf-8")
                if eventfd_id and f"eventfd-id: {eventfd_id}\n" in info:
                    name = Path(f"/proc/{pid}/comm").read_text(encoding="utf-8").strip()
                    found.append(f"{pid} {name} fd {fd}")
        except OSError:
            continue
    return found


def minimal(cells: int, kind: str) -> nbformat.NotebookNode:
    """``cells`` cells that each print one line: into an ``Output`` widget, through the lessons'
    ``knob_panel`` (which draws into one), or plainly."""
    from nbformat.v4 import new_code_cell, new_notebook

    first = {
        "widget": "import ipywidgets as widgets\n\nout = widgets.Output()\ndisplay(out)",
        "knob": "import ipywidgets as widgets\n\nfrom helpers.widgets import knob_panel",
        "plain": "pass",
    }[kind]
    source = {
        "widget": "with out:\n    out.clear_output(wait=True)\n    print({})",
        "knob": "knob_panel(print, {{'n': widgets.IntSlider(value={})}}, title='one knob')",
        "plain": "print({})",
    }[kind]
    return new_notebook(
        cells=[new_code_cell(first)] + [new_code_cell(source.format(i)) for i in range(cells)]
    )


def without(nb: nbformat.NotebookNode, texts: list[str]) -> nbformat.NotebookNode:
    """A copy of ``nb`` without the code cells whose source contains any of ``texts``."""
    nb = copy.deepcopy(nb)
    nb.cells = [
        c for c in nb.cells if c.cell_type != "code" or not any(t in c.source for t in texts)
    ]
    return nb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path, help="a notebook, or a new file for --minimal")
    parser.add_argument("--minimal", type=int, help="write a minimal notebook of this many cells")
    parser.add_argument(
        "--kind", choices=["widget", "knob", "plain"], default="widget", help="for --minimal"
    )
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--full", action="store_true", help="full mode (default: fast)")
    parser.add_argument("--cell-timeout", type=int, default=60)
    parser.add_argument("--drop", action="append", default=[], help="drop cells with this text")
    parser.add_argument("--short-polls", action="store_true", help="the tests' 1-s polls")
    parser.add_argument(
        "--wake-after-send", action="store_true", help="look at the shell socket after a send"
    )
    parser.add_argument("--append", type=Path, help="add one JSON line per run to this file")
    args = parser.parse_args()

    execute_module._Client = _Watched
    _Watched.wake_after_send = args.wake_after_send
    if args.minimal:
        nbformat.write(minimal(args.minimal, args.kind), args.notebook)
    nb = without(nbformat.read(args.notebook, as_version=4), args.drop)
    print(
        f"{args.notebook.name}: {sum(c.cell_type == 'code' for c in nb.cells)} code cells, "
        f"dropped {args.drop or 'none'}, {'full' if args.full else 'fast'} mode, "
        f"{'1-s polls' if args.short_polls else 'nbclient waiting'}"
        f"{', waking after a send' if args.wake_after_send else ''}, "
        f"cell limit {args.cell_timeout} s"
    )
    waits, lost = [], 0
    for number in range(1, args.runs + 1):
        run = execute(
            args.notebook.resolve(),
            fast=not args.full,
            cell_timeout=args.cell_timeout,
            env={"OMP_NUM_THREADS": "1"},
            notebook=copy.deepcopy(nb),
            short_polls=args.short_polls,
        )
        waits.append(run.idle_wait)
        late = LATE_RUNS[-1].late  # replies found waiting after 2 s, then delivered
        lost += run.lost_reply or late > 0
        flag = f"  LOST REPLY ({late} cells found waiting)" if run.lost_reply or late else ""
        error = f"  error: {run.error.strip().splitlines()[-1][:120]}" if run.error else ""
        print(
            f"run {number:3}: {run.seconds:6.1f} s, longest idle wait {run.idle_wait:7.3f} s "
            f"(cell {run.idle_wait_cell}){flag}{error}",
            flush=True,
        )
        if args.append:
            record = {
                "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
                "notebook": args.notebook.name,
                "dropped": args.drop,
                "mode": "full" if args.full else "fast",
                "short_polls": args.short_polls,
                "wake_after_send": args.wake_after_send,
                "seconds": round(run.seconds, 2),
                "idle_wait_s": round(run.idle_wait, 4),
                "idle_wait_cell": run.idle_wait_cell,
                "lost_reply": run.lost_reply or late > 0,
                "late_cells": late,
                "error": bool(run.error),
                "load": os.getloadavg()[0],
            }
            with args.append.open("a", encoding="utf-8") as file:
                file.write(json.dumps(record) + "\n")
    print(
        f"{lost} runs of {args.runs} lost a reply (found waiting after {LATE_SECONDS:.0f} s or "
        f"an idle wait over {LOST_REPLY_SECONDS:.0f} s); "
        f"idle wait median {statistics.median(waits):.3f} s, longest {max(waits):.3f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
