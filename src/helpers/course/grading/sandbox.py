"""The OS sandbox around the process that runs answer code (:mod:`.runner`), on Linux.

:func:`command` is the bubblewrap command line the runner starts inside:

* no network but its own loopback (127.0.0.1 works, nothing else);
* read-only binds of exactly what answers need: the Python installation and environment, the
  course's ``src/`` and ``data/``; nothing else of the course (no ``instructor/``, no ``.git``, no
  output folder, no other submission, no home folder) exists inside;
* a private writable ``/tmp``, ``/dev/shm`` and working folder (size-limited memory file
  systems); everything else, the sandbox's own root and ``/dev`` included, is read-only, and so is
  ``/proc/sys`` (the kernel's settings);
* its own user namespace (answers run as uid 65534, ``nobody``, without capabilities) and PID
  namespace: when the runner is killed, every process it started dies with it;
* a new session, a cleared environment;
* address-space, file-size and core-dump limits set before it starts (the kernel enforces them,
  see :class:`.runner.Runner`), and the bounds of :mod:`.bounds` on the number of processes and
  their total memory.

:func:`available` says whether it works here (``make doctor`` shows it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from helpers.course import paths

SCRATCH_BYTES = 256 * 2**20
SANDBOX_UID = 65534
"""The user answers run as inside the sandbox's user namespace (``nobody``)."""
ETC_FILES = [
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "passwd",
    "group",
    "nsswitch.conf",
    "hosts",
    "fonts",
    "alternatives",
]


def bwrap() -> str | None:
    """The bubblewrap executable, or ``None`` when there is none (not Linux, not installed)."""
    return shutil.which("bwrap") if sys.platform.startswith("linux") else None


def available() -> tuple[bool, str]:
    """Whether the sandbox works here, and a sentence saying why not (or which bwrap)."""
    exe = bwrap()
    if exe is None:
        why = "not Linux" if not sys.platform.startswith("linux") else "bubblewrap not installed"
        return False, f"{why}: install Debian's `bubblewrap` (apt-get install bubblewrap)"
    try:
        probe = subprocess.run(
            [*command(), "--", "/bin/true"],
            capture_output=True,
            text=True,
            timeout=30,
            encoding="utf-8",
        )
    except (OSError, subprocess.SubprocessError) as err:
        return False, f"{exe} failed to start: {err}"
    if probe.returncode != 0:
        return False, f"{exe} cannot create a sandbox here: {probe.stderr.strip()[:300]}"
    return True, exe


def _python_folders() -> list[Path]:
    """Folders the Python environment needs, none of which holds the masters, the repo's .git, the
    system's temporary folder (the examiners' private folders), the home folder or the folder the
    grader was started in (where submissions and grades may lie)."""
    wanted = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix)}
    wanted |= {Path(p) for p in sys.path if p and Path(p).is_dir()}
    secret = [paths.MASTERS.resolve(), paths.GIT.resolve()]
    secret += [Path(tempfile.gettempdir()).resolve(), Path.home().resolve(), Path.cwd().resolve()]
    keep = []
    for folder in sorted(f.resolve() for f in wanted):
        if any(s == folder or s.is_relative_to(folder) for s in secret):
            continue  # e.g. the course folder itself on sys.path: src/ is bound on its own
        if not any(folder.is_relative_to(k) for k in keep):
            keep.append(folder)
    return keep


def python() -> str:
    """The interpreter the runner starts with: this one, by a path that exists in the sandbox.

    The environment's folders are bound where they really are (symbolic links resolved), so a
    ``.venv`` that links to a folder elsewhere is started by its real path; the file name is kept
    (``bin/python`` of a virtual environment is itself a link to the base interpreter, and Python
    finds the environment from the name it was started by)."""
    exe = Path(sys.executable)
    return str(exe.parent.resolve() / exe.name)


def _isolation() -> list[str]:
    """Namespaces, identity, capabilities: what makes the runner a stranger here."""
    return [
        "--unshare-user",
        "--uid",
        str(SANDBOX_UID),
        "--gid",
        str(SANDBOX_UID),
        "--unshare-net",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--hostname",
        "sandbox",
    ]


def _system() -> list[str]:
    """Read-only binds of the system's programs and libraries, the few ``/etc`` files Python
    needs, and the CPU topology PyTorch reads."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        target = Path("/") / name
        if target.is_symlink():
            args += ["--symlink", os.readlink(target), str(target)]
        elif target.is_dir():
            args += ["--ro-bind", str(target), str(target)]
    for name in ETC_FILES:
        if (Path("/etc") / name).exists():
            args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    if Path("/sys/devices/system/cpu").is_dir():
        args += ["--ro-bind", "/sys/devices/system/cpu", "/sys/devices/system/cpu"]
    return args


def _environment() -> dict[str, str]:
    """The runner's whole environment (bubblewrap clears the rest)."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": "/scratch",
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "COURSE_ROOT": str(paths.ROOT),
        "COURSE_FAST": "1",
        "OMP_NUM_THREADS": "1",
        "MPLBACKEND": "Agg",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def command() -> list[str]:
    """The bubblewrap command line (without the program to run)."""
    args = [bwrap() or "bwrap", *_isolation(), *_system()]
    # The private memory file systems first, then the course's folders: a course that lives under
    # /tmp (a CI checkout) stays visible through its binds on top of the sandbox's own /tmp.
    # /proc/sys is read-only: bubblewrap leaves it writable when its directory is not, and the
    # runner is root outside its user namespace.
    args += ["--dev", "/dev", "--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys"]
    for folder in ("/tmp", "/scratch", "/dev/shm"):
        args += ["--size", str(SCRATCH_BYTES), "--tmpfs", folder]
    for folder in [*_python_folders(), paths.SRC.resolve(), paths.DATA.resolve()]:
        args += ["--ro-bind", str(folder), str(folder)]
    # The sandbox's own root and /dev are memory file systems without a size: read-only.
    args += ["--remount-ro", "/dev", "--remount-ro", "/", "--chdir", "/scratch", "--clearenv"]
    for key, value in _environment().items():
        args += ["--setenv", key, value]
    return args
