"""Bounds on one grading sandbox as a whole: how many processes it runs, how much memory in all.

``RLIMIT_AS`` caps each process of the sandbox; it does not stop an answer that starts processes
without end (a fork loop), nor many processes that each stay under the cap. Each runner therefore
gets a control group of its own, where the machine lets the grader make one (cgroup v1 ``pids``
and ``memory`` controllers, or cgroup v2 with both delegated):

* ``pids.max``: at most :data:`PROCESSES` processes and threads at once; one more ``fork`` fails
  with ``BlockingIOError`` inside the sandbox;
* ``memory.limit_in_bytes`` (v1) or ``memory.max`` (v2): the memory limit of the grading run, for
  the sandbox's processes together (its memory file systems included); above it the kernel ends
  one of them, and the grader reports the exercise as ``memory``.

Where no control group can be made (an ordinary user without delegation, another system), a
:class:`Watchdog` in the grader counts the sandbox's processes and their resident memory every
:data:`WATCH_SECONDS` and kills the whole sandbox when either is over its bound: coarser (a fast
fork loop gets further before it is seen) but the same bounds. ``report.txt`` says which holds.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
import uuid
from pathlib import Path

PROCESSES = 256
"""Most processes (threads included) one sandbox may run at once."""
PREFIX = "course-grading-"
WATCH_SECONDS = 0.1
"""How often the watchdog looks, where there are no control groups."""


def _mounts() -> dict[str, Path]:
    """Where each cgroup controller is mounted here (``"v2"`` for the unified hierarchy)."""
    found: dict[str, Path] = {}
    try:
        lines = Path("/proc/self/mountinfo").read_text(encoding="utf-8").splitlines()
    except OSError:
        return found
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, kinds = left.split(), right.split()
        if len(fields) < 5 or len(kinds) < 3:
            continue
        point = Path(fields[4])
        if kinds[0] == "cgroup2":
            found.setdefault("v2", point)
        elif kinds[0] == "cgroup":
            for option in kinds[2].split(","):
                if option in ("pids", "memory"):
                    found.setdefault(option, point)
    return found


def _own_groups() -> dict[str, str]:
    """This process's control group in each hierarchy (``"v2"`` for the unified one)."""
    groups: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text(encoding="utf-8").splitlines():
            number, controllers, path = line.split(":", 2)
            if number == "0":
                groups["v2"] = path
            for controller in controllers.split(","):
                groups[controller] = path
    return groups


class Bound:
    """The control groups of one runner: made before it starts, removed when it ends."""

    def __init__(self, folders: dict[str, Path]) -> None:
        self.folders = folders  # controller ("pids", "memory" or "v2") -> its folder
        self.state: dict[str, int] = {}

    def start(self, pid: int) -> None:
        """Nothing to do once the runner runs: the kernel enforces the groups' limits."""

    def enter(self) -> None:
        """Move the calling process (the runner, before bwrap starts) into the groups."""
        for folder in self.folders.values():
            (folder / "cgroup.procs").write_text(str(os.getpid()), encoding="utf-8")

    def _counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for name, folder in self.folders.items():
            for file in ("pids.events", "memory.events", "memory.oom_control"):
                with contextlib.suppress(OSError):
                    for line in (folder / file).read_text(encoding="utf-8").splitlines():
                        key, _, value = line.partition(" ")
                        if key in ("max", "oom_kill", "oom") and value.strip().isdigit():
                            counts[f"{name}.{key}"] = int(value)
        return counts

    def exceeded(self) -> tuple[str, str] | None:
        """``(status, reason)`` when the sandbox hit a bound, else ``None``."""
        counts = self.state or self._counts()
        if counts.get("memory.oom_kill") or counts.get("v2.oom_kill"):
            return "memory", "the sandbox's processes together ran out of memory (killed)"
        if counts.get("pids.max") or counts.get("v2.max"):
            return "crashed", f"the answer tried to run more than {PROCESSES} processes at once"
        return None

    def close(self) -> None:
        """End whatever is left in the groups and remove them."""
        if not self.folders:
            return
        self.state = self._counts()
        for folder in self.folders.values():
            for _ in range(50):
                with contextlib.suppress(OSError):
                    folder.rmdir()
                if not folder.exists():
                    break
                with contextlib.suppress(OSError, ValueError):
                    procs = (folder / "cgroup.procs").read_text(encoding="utf-8").split()
                    for pid in procs:
                        with contextlib.suppress(ProcessLookupError, PermissionError):
                            os.kill(int(pid), signal.SIGKILL)
                time.sleep(0.02)
        self.folders = {}


def _v1(memory_bytes: int) -> dict[str, Path] | None:
    mounts, groups = _mounts(), _own_groups()
    if "pids" not in mounts or "memory" not in mounts:
        return None
    name = PREFIX + uuid.uuid4().hex[:12]
    folders = {}
    try:
        for controller in ("pids", "memory"):
            parent = mounts[controller] / groups.get(controller, "/").lstrip("/")
            folder = parent / name
            folder.mkdir()
            folders[controller] = folder
        (folders["pids"] / "pids.max").write_text(str(PROCESSES), encoding="utf-8")
        memory = folders["memory"]
        (memory / "memory.limit_in_bytes").write_text(str(memory_bytes), encoding="utf-8")
        with contextlib.suppress(OSError):  # no swap accounting: nothing to bound there
            (memory / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes), "utf-8")
    except OSError:
        for folder in folders.values():
            with contextlib.suppress(OSError):
                folder.rmdir()
        return None
    return folders


def _v2(memory_bytes: int) -> dict[str, Path] | None:
    mounts, groups = _mounts(), _own_groups()
    if "v2" not in mounts or "v2" not in groups:
        return None
    parent = mounts["v2"] / groups["v2"].lstrip("/")
    try:
        enabled = (parent / "cgroup.subtree_control").read_text(encoding="utf-8").split()
    except OSError:
        return None
    if "pids" not in enabled or "memory" not in enabled:
        return None
    folder = parent / (PREFIX + uuid.uuid4().hex[:12])
    try:
        folder.mkdir()
        (folder / "pids.max").write_text(str(PROCESSES), encoding="utf-8")
        (folder / "memory.max").write_text(str(memory_bytes), encoding="utf-8")
        with contextlib.suppress(OSError):
            (folder / "memory.swap.max").write_text("0", encoding="utf-8")
    except OSError:
        with contextlib.suppress(OSError):
            folder.rmdir()
        return None
    return {"v2": folder}


def _table() -> dict[int, tuple[int, int, int]]:
    """Every process here: pid -> (parent pid, threads, resident bytes)."""
    page = os.sysconf("SC_PAGE_SIZE")
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        found[int(entry.name)] = (int(fields[1]), int(fields[17]), int(fields[21]) * page)
    return found


class Watchdog:
    """Bounds kept by looking: the runner's descendants counted (threads included) and their
    resident memory summed every :data:`WATCH_SECONDS`; over a bound, the sandbox is killed."""

    def __init__(self, memory_bytes: int) -> None:
        self.memory_bytes = memory_bytes
        self.folders: dict = {}
        self.why: tuple[str, str] | None = None
        self.done = threading.Event()

    def enter(self) -> None:
        """Nothing to do in the runner: the watchdog looks from outside."""

    def start(self, pid: int) -> None:
        threading.Thread(target=self._watch, args=(pid,), daemon=True).start()

    def _watch(self, root: int) -> None:
        while not self.done.wait(WATCH_SECONDS):
            table = _table()
            children: dict[int, list[int]] = {}
            for pid, (parent, _, _) in table.items():
                children.setdefault(parent, []).append(pid)
            todo, count, memory = [root], 0, 0
            while todo:
                pid = todo.pop()
                if pid in table:
                    count += table[pid][1]
                    memory += table[pid][2]
                todo += children.get(pid, [])
            if count > PROCESSES:
                self.why = "crashed", f"the answer ran more than {PROCESSES} processes at once"
            elif memory > self.memory_bytes:
                self.why = "memory", "the sandbox's processes together ran out of memory (killed)"
            if self.why:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(root, signal.SIGKILL)  # bwrap dies, and its PID namespace with it
                return

    def exceeded(self) -> tuple[str, str] | None:
        return self.why

    def close(self) -> None:
        self.done.set()


def make(memory_mb: int) -> Bound | Watchdog:
    """Fresh bounds for one runner: control groups where they can be made, else a watchdog."""
    memory_bytes = memory_mb * 2**20
    folders = _v1(memory_bytes) or _v2(memory_bytes)
    return Bound(folders) if folders else Watchdog(memory_bytes)


def describe(memory_mb: int) -> str:
    """Which bounds hold for a whole sandbox here, in words (for ``report.txt``)."""
    bound = make(memory_mb)
    if isinstance(bound, Watchdog):
        return (
            f"a watchdog (no control group could be made here): at most {PROCESSES} processes "
            f"and {memory_mb} MB resident in all per sandbox, checked every {WATCH_SECONDS:g} s"
        )
    kind = "cgroup v2" if "v2" in bound.folders else "cgroup v1"
    bound.close()
    return (
        f"{kind}: at most {PROCESSES} processes and {memory_mb} MB in all per sandbox "
        "(pids and memory controllers)"
    )
