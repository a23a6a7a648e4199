"""Executing the course's notebooks: for the tests (fast mode) and ``make course`` (full mode).

Each notebook runs top to bottom in a fresh kernel, in its own folder, with ``COURSE_FAST`` set for
the mode asked for. ``make course`` writes the executed copies and an HTML copy of each into
``build/course/`` so an instructor can pre-run the course on the room's machine.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from queue import Empty

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, DeadKernelError

from helpers import paths

# The compile cache the caller chose, read when this module is imported: later, creating the first
# optimiser in this process imports torch._dynamo, which writes its own default into os.environ.
_CALLER_CACHE = os.environ.get("TORCHINDUCTOR_CACHE_DIR")


class _Client(NotebookClient):
    """nbclient, waiting for each kernel message in polls of at most a second.

    pyzmq's asyncio poll can miss the wake-up for a message that has already arrived (seen in
    ``make course`` on a cell that draws widgets, kernel and client both idle); it then returns
    only when its timeout ends, so the cell's whole limit (10 minutes) is spent waiting. A poll that
    ends looks at the socket once more, so short polls cost a missed wake-up at most a second.
    """

    async def async_start_new_kernel_client(self):
        client = await super().async_start_new_kernel_client()
        for channel in (client.shell_channel, client.iopub_channel):
            channel.get_msg = _in_short_polls(channel.get_msg)
        return client


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


def execute(
    path: Path,
    *,
    fast: bool,
    cell_timeout: int = 600,
    env: dict[str, str] | None = None,
    notebook: nbformat.NotebookNode | None = None,
) -> Run:
    """Run the notebook at ``path`` in a fresh kernel in its folder; a cell's error is returned.

    ``env`` adds environment variables for the kernel; ``COURSE_FAST`` follows ``fast``.
    ``torch.compile`` keeps its cache in ``build/`` (``paths.COMPILE_CACHE``) unless
    ``TORCHINDUCTOR_CACHE_DIR`` was set when this process started (or is given in ``env``), so the
    tests and ``make course`` compile each function once.
    ``notebook`` runs that notebook instead of the file's content (still in the file's folder).
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
    )
    start = time.perf_counter()
    error = None
    try:
        client.execute(env=kernel_env)
    except CellExecutionError as err:
        error = str(err)
    except TimeoutError as err:
        error = f"a cell ran longer than {cell_timeout} s: {err}"
    except DeadKernelError as err:
        error = f"the kernel died (out of memory?): {err}"
    return Run(path, nb, time.perf_counter() - start, error)


def _html(nb: nbformat.NotebookNode) -> str:
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter().from_notebook_node(nb)
    return body


def build_course(
    out: Path | None = None, *, fast: bool = False, notebooks: list[Path] | None = None
):
    """Execute every lesson and master into ``out`` (default ``build/course``), with HTML copies.

    Prints each notebook's time and where its copies are; writes ``timings.json`` beside them.
    Returns the list of :class:`Run`; a failed notebook is reported and the others still run.
    """
    out = out or paths.EXECUTED
    notebooks = notebooks if notebooks is not None else paths.lessons() + paths.masters()
    runs, timings = [], {}
    mode = "fast" if fast else "full"
    print(f"Executing {len(notebooks)} notebooks in {mode} mode into {out}/")
    for path in notebooks:
        run = execute(path, fast=fast)
        full = path.resolve()
        relative = (
            full.relative_to(paths.ROOT) if full.is_relative_to(paths.ROOT) else Path(full.name)
        )
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(run.notebook, target)
        target.with_suffix(".html").write_text(_html(run.notebook), encoding="utf-8")
        issues = [run.error] if run.error else problems(run.notebook)
        status = "ok" if not issues else "FAILED"
        print(f"  {run.seconds:7.1f} s  {status:6}  {target.with_suffix('.html')}")
        for issue in issues:
            print("           " + issue.strip().splitlines()[-1][:300])
        timings[str(relative)] = {"seconds": round(run.seconds, 2), "status": status}
        run.error = run.error or ("\n".join(issues) if issues else None)
        runs.append(run)
    timings_file = out / "timings.json"  # merged, so running a few notebooks keeps the others
    if timings_file.is_file():
        earlier = json.loads(timings_file.read_text(encoding="utf-8"))
        if earlier.get("mode") == mode:
            timings = {**earlier.get("notebooks", {}), **timings}
    from helpers.hardware import card_line

    record = {"mode": mode, "machine": card_line(), "notebooks": timings}
    timings_file.write_text(json.dumps(record, indent=2), encoding="utf-8")
    total = sum(r.seconds for r in runs)
    failed = [r for r in runs if r.error]
    print(f"Done in {total:.0f} s: {len(runs) - len(failed)} ok, {len(failed)} failed.")
    return runs
