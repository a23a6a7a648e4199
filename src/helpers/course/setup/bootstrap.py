"""``python -m helpers bootstrap``: start the course where a GPU is rented.

Most learners rent their GPU by the hour in a cloud notebook (Colab, Kaggle, or a JupyterLab with
PyTorch already installed on a GPU-rental platform). There the course is not cloned and set up
with ``make``: one cell starts it. That cell (:func:`first_cell`, the same text in the README and,
hidden, at the top of every lesson) is plain Python, because ``helpers`` does not exist yet:

1. where ``helpers`` already imports (the learner's own machine), it does nothing;
2. it finds the course folder above the notebook, or else clones the repository (``[tool.course]
   repository`` in pyproject.toml, or the ``COURSE_REPO_URL`` variable, e.g. a mirror) next to
   it: a notebook opened alone gets the other lessons and the data;
3. it runs this command from that folder, then lets the running kernel import ``helpers``.

The command says where it runs (:func:`detect`), checks that the package index answers (slow or
unreachable: how to use a mirror), installs the course into the running environment without
touching its PyTorch (a constraint pins the installed version), checks that PyTorch is the same
file afterwards, and ends with ``python -m helpers doctor``.
"""

from __future__ import annotations

import importlib.metadata as metadata
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from helpers.course import paths

DEFAULT_INDEX = "https://pypi.org/simple"
MIRROR = "https://pypi.tuna.tsinghua.edu.cn/simple"
"""A well-known PyPI mirror in mainland China (Tsinghua University), named in the advice."""
SLOW_INDEX_S = 5.0
"""An index that takes longer than this to answer one small query gets the mirror advice."""
INDEX_TIMEOUT_S = 15


def mirror_advice(index: str) -> str:
    """How to install from a mirror when ``index`` is slow or unreachable."""
    return (
        f"The package index ({index}) is slow or unreachable from here, as PyPI often is from "
        f"mainland China. Use a mirror: run `import os; os.environ['PIP_INDEX_URL'] = "
        f"'{MIRROR}'` in the notebook (or `export PIP_INDEX_URL={MIRROR}` in a terminal, or "
        f"`pip config set global.index-url {MIRROR}` once), then run the first cell again."
    )


# -- where we are --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Where the course runs: ``name`` (Colab, Kaggle, a machine with CUDA, ...), ``gpu``."""

    name: str
    gpu: str | None
    advice: str = ""


def _colab(environ) -> bool:
    if any(key.startswith("COLAB_") for key in environ):
        return True
    try:
        return importlib.util.find_spec("google.colab") is not None
    except (ImportError, ValueError):  # no ``google`` package at all
        return False


def detect(environ=None) -> Place:
    """Colab (``google.colab`` importable or ``COLAB_*`` variables), Kaggle (its
    ``KAGGLE_KERNEL_RUN_TYPE``/``KAGGLE_URL_BASE``), or any other machine, with its CUDA GPU."""
    environ = os.environ if environ is None else environ
    import torch

    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    if _colab(environ):
        hint = "" if gpu else "Runtime > Change runtime type > a GPU, then run the first cell."
        return Place("Colab", gpu, hint)
    if {"KAGGLE_KERNEL_RUN_TYPE", "KAGGLE_URL_BASE"} & set(environ):
        hint = "" if gpu else "Settings > Accelerator > a GPU (and Internet on), then rerun."
        return Place("Kaggle", gpu, hint)
    if gpu:
        return Place("a machine with CUDA", gpu)
    return Place("a machine without CUDA", None, "The course runs on the CPU here.")


# -- PyTorch, before and after -------------------------------------------------------------------


@dataclass(frozen=True)
class Torch:
    """The installed PyTorch: its version and the file ``import torch`` loads, with its mtime."""

    version: str
    path: str
    mtime_ns: int


def installed_torch() -> Torch | None:
    """The PyTorch this Python would import (None if there is none)."""
    importlib.invalidate_caches()
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        return None
    return Torch(metadata.version("torch"), spec.origin, os.stat(spec.origin).st_mtime_ns)


def installed_versions() -> dict[str, str]:
    """``{name: version}`` of every distribution this Python sees (the first one of each name)."""
    found: dict[str, str] = {}
    for dist in metadata.distributions():
        name = (dist.metadata["Name"] or "").lower().replace("_", "-")
        if name:
            found.setdefault(name, dist.version)
    return found


def changed_versions(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """``'name old -> new'`` for every package an install changed (new ones are not listed).

    >>> changed_versions({"a": "1", "b": "2"}, {"a": "1", "b": "3", "c": "1"})
    ['b 2 -> 3']
    """
    return [f"{n} {v} -> {after[n]}" for n, v in sorted(before.items()) if after.get(n, v) != v]


# -- the package index ---------------------------------------------------------------------------


def index_url(python: str = sys.executable, environ=None) -> str:
    """The index pip will use: ``PIP_INDEX_URL``, else pip's configuration, else PyPI."""
    environ = os.environ if environ is None else environ
    if environ.get("PIP_INDEX_URL", "").strip():
        return environ["PIP_INDEX_URL"].strip()
    listed = subprocess.run(
        [python, "-m", "pip", "config", "list"],
        capture_output=True,
        text=True,
        env=environ,
        encoding="utf-8",
    ).stdout
    found = re.findall(r"^\S*\.index-url='([^']*)'$", listed, flags=re.M)
    return found[-1] if found else DEFAULT_INDEX


@dataclass(frozen=True)
class IndexCheck:
    ok: bool
    seconds: float
    detail: str


def check_index(python: str = sys.executable, timeout: int = INDEX_TIMEOUT_S) -> IndexCheck:
    """Ask the index one small question (pip's own versions), as pip itself would."""
    command = [python, "-m", "pip", "index", "versions", "pip", "--retries", "0"]
    command += ["--timeout", str(timeout), "--disable-pip-version-check"]
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout + 30, encoding="utf-8"
        )
    except subprocess.TimeoutExpired:
        return IndexCheck(False, time.perf_counter() - start, "no answer")
    seconds = time.perf_counter() - start
    lines = [ln for ln in (done.stderr + done.stdout).splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("ERROR")]
    detail = (errors or lines or ["no output"])[-1].strip()
    return IndexCheck(done.returncode == 0, seconds, detail)


# -- the install ---------------------------------------------------------------------------------


def builds_here() -> bool:
    """Whether this environment's own setuptools can build the course (70.1 and later need no
    ``wheel``): then pip downloads no build tools, one thing less to fetch from a slow index."""
    try:
        found = re.match(r"(\d+)\.(\d+)", metadata.version("setuptools"))
    except metadata.PackageNotFoundError:
        return False
    return found is not None and (int(found[1]), int(found[2])) >= (70, 1)


def install_command(python: str, root: Path, constraints: Path, isolated: bool) -> list[str]:
    """pip installs the course (editable, so it finds its data) with PyTorch pinned."""
    command = [python, "-m", "pip", "install", "-e", str(root), "-c", str(constraints)]
    command.append("--disable-pip-version-check")
    return command if isolated else [*command, "--no-build-isolation"]


def _say(text: str = "") -> None:
    print(text, flush=True)  # before a child process writes to the same stream


def _run(command: list[str], cwd: Path | None = None) -> int:
    """Run a command whose messages the learner reads as they come; its exit status."""
    return subprocess.run(command, cwd=cwd).returncode


def _index_answers(check: IndexCheck, python: str) -> bool:
    """Say what the index check found; False when pip cannot install from it."""
    if not check.ok:
        index = index_url(python)
        _say(f"ERROR: the package index ({index}) did not answer (pip: {check.detail}).")
        _say(mirror_advice(index))
    elif check.seconds > SLOW_INDEX_S:
        _say(f"NOTE: the package index took {check.seconds:.0f} s to answer.")
        _say(mirror_advice(index_url(python)))
    return check.ok


def _install(python: str, root: Path, torch: Torch) -> bool:
    """pip installs the course; False (and why) when it failed or PyTorch changed."""
    constraints = paths.BUILD / "bootstrap" / "constraints.txt"
    constraints.parent.mkdir(parents=True, exist_ok=True)
    constraints.write_text(f"torch=={torch.version}\n", encoding="utf-8")
    before = installed_versions()
    _say(f"Installing the course from {root}")
    if _run(install_command(python, root, constraints, isolated=not builds_here())):
        _say("ERROR: pip could not install the course (its messages are above).")
        _say(mirror_advice(index_url(python)))
        return False
    after = installed_torch()
    if after != torch:
        now = f"{after.version} at {after.path}" if after else "nothing"
        _say(f"ERROR: the install changed PyTorch: {torch.version} at {torch.path} is now {now}.")
        return False
    before.pop("helpers", None)  # the course itself (a copy from an earlier run)
    if changed := changed_versions(before, installed_versions()):
        _say(f"Changed: {', '.join(changed)}.")
        _say("Restart the kernel (Colab: Runtime > Restart session) and run the lesson again.")
    return True


def bootstrap(python: str = sys.executable, root: Path | None = None) -> int:
    """Install the course into this environment next to its PyTorch; 0 when ready."""
    root = root or paths.ROOT
    with ThreadPoolExecutor(1) as pool:
        index = pool.submit(check_index, python)  # asked while PyTorch loads
        place = detect()
        _say(f"Course set-up on {place.name}" + (f" (GPU: {place.gpu})" if place.gpu else ""))
        if place.advice:
            _say(f"NOTE: {place.advice}")
        torch = installed_torch()
        if torch is None:
            _say(
                f"ERROR: this Python ({python}) has no PyTorch. Cloud notebooks come with one; "
                "on your own machine use `make lab` (it sets up its own environment), or install "
                "the PyTorch for your GPU first (https://pytorch.org/get-started/locally/)."
            )
            return 1
        _say(f"PyTorch {torch.version} stays as it is ({Path(torch.path).parent})")
        if not _index_answers(index.result(), python) or not _install(python, root, torch):
            return 1
    _say(f"The course is in {root}; its lessons are in {root / 'notebooks'}.")
    return _run([python, "-m", "helpers", "doctor"], cwd=root)


# -- the first cell ------------------------------------------------------------------------------

TAG = "bootstrap"
"""The tag of the lessons' first cell (``python -m helpers outline`` writes it)."""

FIRST_CELL = """\
# Starts the course in a cloud notebook (Colab, Kaggle, a rented GPU); does nothing where installed.
def start_course(url=__URL__):
    import importlib.util
    import os
    import shutil
    import sys
    from pathlib import Path
    from subprocess import PIPE, STDOUT, Popen

    def run(command, failed, cwd=None):
        out = Popen(command, cwd=cwd, stdout=PIPE, stderr=STDOUT, text=True, encoding="utf-8")
        for line in out.stdout:
            print(line, end="")
        if out.wait():
            raise RuntimeError(failed)

    if importlib.util.find_spec("helpers"):
        return
    url, here = os.environ.get("COURSE_REPO_URL") or url, Path.cwd()
    course = next((p for p in (here, *here.parents) if (p / "src" / "helpers").is_dir()), None)
    course = course or here / (url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git") or "course")
    if not course.is_dir() and not shutil.which("git"):
        raise RuntimeError("Fetching the course needs git: install it, then rerun this cell.")
    if not course.is_dir():
        run(["git", "clone", url, course], f"Could not clone {url!r}: set COURSE_REPO_URL.")
    run([sys.executable, "-m", "helpers", "bootstrap"], "Set-up failed (above).", course / "src")
    sys.path.insert(0, str(course / "src"))


start_course()
"""


def first_cell(url: str) -> str:
    """The first cell, for the README and the top of each lesson (``url``: the repository)."""
    return FIRST_CELL.replace("__URL__", json.dumps(url)).rstrip("\n")


def settings(pyproject: Path | None = None) -> tuple[str, str]:
    """``(repository, branch)`` from pyproject.toml's ``[tool.course]``; the repository is empty
    until the course is published (then the README and the lessons link to it)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    text = (pyproject or paths.PYPROJECT).read_text(encoding="utf-8")
    course = tomllib.loads(text).get("tool", {}).get("course", {})
    return course.get("repository", "").strip(), course.get("branch", "").strip() or "main"
