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
unreachable: how to use a mirror), checks that the PyTorch there is new enough for the course,
installs the course into the running environment without touching its PyTorch (a constraint pins
the installed version), checks that PyTorch is the same file afterwards, and ends with
``python -m helpers doctor``. When pip fails, :func:`diagnose` reads its messages to tell a
version conflict (pip's resolver refusing, an old PyTorch, an old Python) from a slow or
unreachable index or a package the index lacks, and the advice fits the cause.

It speaks the language of the edition the notebook belongs to (:func:`edition_language`): it runs
from the course's ``src/`` folder, so the notebook's folder is read from what started it, the
kernel: Jupyter's ``JPY_SESSION_NAME`` (the notebook's path), else the kernel's working folder;
``COURSE_LANG`` wins over both. The first cell itself cannot (``helpers`` is not importable yet):
its three short errors stay English, and everything this command says is translated.
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
from pathlib import Path, PurePosixPath, PureWindowsPath

from helpers.course import paths
from helpers.i18n import LANGUAGES, _

DEFAULT_INDEX = "https://pypi.org/simple"
MIRROR = "https://pypi.tuna.tsinghua.edu.cn/simple"
"""A well-known PyPI mirror in mainland China (Tsinghua University), named in the advice."""
SLOW_INDEX_S = 5.0
"""An index that takes longer than this to answer one small query gets the mirror advice."""
INDEX_TIMEOUT_S = 15


NEEDS_PYTHON = (3, 10)
"""The oldest Python the course runs on (``requires-python`` in pyproject.toml)."""


def mirror_advice(index: str) -> str:
    """How to install from a mirror when ``index`` is slow or unreachable."""
    return _(
        "The package index ({index}) is slow or unreachable from here, as PyPI often is from "
        "mainland China. Use a mirror: run `import os; os.environ['PIP_INDEX_URL'] = "
        "'{mirror}'` in the notebook (or `export PIP_INDEX_URL={mirror}` in a terminal, or "
        "`pip config set global.index-url {mirror}` once), then run the first cell again."
    ).format(index=index, mirror=MIRROR)


# -- which edition ---------------------------------------------------------------------------------


def _edition_in(path: str) -> str | None:
    r"""The translated edition a path lies in (``.../notebooks/zh/...``), if any.

    >>> _edition_in("/root/course/notebooks/zh/day00_setup.ipynb"), _edition_in("notebooks/zh")
    ('zh', 'zh')
    >>> _edition_in("C:\\Users\\li\\course\\notebooks\\zh"), _edition_in("/content")
    ('zh', None)
    """
    parts = (PureWindowsPath(path) if "\\" in path else PurePosixPath(path)).parts
    for folder, name in zip(parts, parts[1:], strict=False):
        if folder == "notebooks" and name in LANGUAGES and name != "en":
            return name
    return None


def kernel_folder() -> str | None:
    """The working folder of the process that started this one (the notebook's kernel, whose
    folder is the notebook's), where the system says: Linux's ``/proc``, else psutil."""
    parent = os.getppid()
    try:
        return os.readlink(f"/proc/{parent}/cwd")
    except OSError:
        pass
    try:
        import psutil

        return psutil.Process(parent).cwd()
    except Exception:  # noqa: BLE001 - no psutil, no such process, no permission: unknown
        return None


def edition_language(environ=None, folder: str | None = None) -> str | None:
    """The language of the edition whose notebook started the set-up, or None (English):
    ``COURSE_LANG`` when set, else the notebook Jupyter names (``JPY_SESSION_NAME``), else the
    kernel's working folder (``folder``, default :func:`kernel_folder`).

    >>> edition_language({"JPY_SESSION_NAME": "/c/notebooks/zh/day00_setup.ipynb"})
    'zh'
    >>> edition_language({"JPY_SESSION_NAME": "/c/notebooks/day00_setup.ipynb"}, "/c/notebooks/zh")
    >>> edition_language({}, "/root/course/notebooks/zh")
    'zh'
    >>> edition_language({"COURSE_LANG": "en"}, "/root/course/notebooks/zh")
    """
    environ = os.environ if environ is None else environ
    chosen = environ.get("COURSE_LANG", "").strip()
    if chosen:
        return None if chosen.lower().startswith("en") else chosen
    if environ.get("JPY_SESSION_NAME", "").strip():
        return _edition_in(environ["JPY_SESSION_NAME"])
    folder = folder if folder is not None else kernel_folder()
    return _edition_in(folder) if folder else None


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
        hint = "" if gpu else _("Runtime > Change runtime type > a GPU, then run the first cell.")
        return Place("Colab", gpu, hint)
    if {"KAGGLE_KERNEL_RUN_TYPE", "KAGGLE_URL_BASE"} & set(environ):
        hint = "" if gpu else _("Settings > Accelerator > a GPU (and Internet on), then rerun.")
        return Place("Kaggle", gpu, hint)
    if gpu:
        return Place(_("a machine with CUDA"), gpu)
    return Place(_("a machine without CUDA"), None, _("The course runs on the CPU here."))


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
        env={**environ, **UTF8},
        encoding="utf-8",
        errors="replace",
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
            command, capture_output=True, text=True, timeout=timeout + 30, encoding="utf-8",
            errors="replace", env={**os.environ, **UTF8},
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return IndexCheck(False, time.perf_counter() - start, "no answer")
    seconds = time.perf_counter() - start
    lines = [ln for ln in (done.stderr + done.stdout).splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("ERROR")]
    detail = (errors or lines or ["no output"])[-1].strip()
    if done.returncode and "unknown command" in detail:  # pip before 21.2: cannot ask, go on
        return IndexCheck(True, 0.0, detail)
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


def needed_torch(pyproject: Path | None = None) -> str:
    """The oldest PyTorch the course runs with, from its ``torch>=`` requirement (``2.4``)."""
    text = (pyproject or paths.PYPROJECT).read_text(encoding="utf-8")
    found = re.search(r'"torch>=([0-9][0-9.]*)"', text)
    return found[1] if found else "2.4"


def release(version: str) -> tuple[int, ...]:
    """A version's release numbers, for comparing (``"2.1.0+cu121"``: ``(2, 1, 0)``).

    >>> release("2.1.0+cu121") < release("2.4") <= release("2.13.0")
    True
    """
    return tuple(int(n) for n in re.findall(r"\d+", version.split("+")[0])[:3])


@dataclass(frozen=True)
class Diagnosis:
    """Why pip failed, as far as its messages say: ``kind`` is ``"conflict"`` (its resolver found
    no versions that fit together), ``"python"`` (this Python is too old for a package),
    ``"network"`` (the index was slow or did not answer), ``"missing"`` (the index has no version
    of a package) or ``"unknown"``; ``lines`` are pip's own lines that say so."""

    kind: str
    lines: tuple[str, ...] = ()

    @property
    def mentions_torch(self) -> bool:
        return any(re.search(r"\btorch\b", line) for line in self.lines)


NETWORK = re.compile(
    r"NewConnectionError|ConnectTimeoutError|ReadTimeoutError|Read timed out|Max retries exceeded"
    r"|Connection (?:refused|reset|aborted)|Network is unreachable|Name or service not known"
    r"|Temporary failure in name resolution|nodename nor servname|getaddrinfo failed"
    r"|SSLError|ProxyError|RemoteDisconnected|IncompleteRead|Connection broken",
    re.I,
)
CONFLICT = re.compile(r"ResolutionImpossible|conflicting dependencies|The conflict is caused by")


def diagnose(output: str) -> Diagnosis:
    """Read pip's messages after a failed install (see :class:`Diagnosis`).

    >>> diagnose("ERROR: ResolutionImpossible: for help visit https://pip.pypa.io").kind
    'conflict'
    >>> diagnose("WARNING: Retrying (Retry(total=4)) after connection broken by "
    ...          "'NewConnectionError(...)': /simple/tqdm/").kind
    'network'
    """
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if CONFLICT.search(output):
        start = next(i for i, line in enumerate(lines) if CONFLICT.search(line))
        cause = [ln for ln in lines[start:] if " depends on " in ln or "requested" in ln]
        return Diagnosis("conflict", tuple(cause or lines[start : start + 4]))
    python = [ln for ln in lines if "requires a different Python" in ln]
    if python:
        return Diagnosis("python", tuple(python[:2]))
    network = [ln for ln in lines if NETWORK.search(ln)]
    if network:
        return Diagnosis("network", tuple(network[-2:]))
    missing = [ln for ln in lines if "No matching distribution found for" in ln]
    if missing:
        return Diagnosis("missing", tuple(missing[:2]))
    errors = [ln for ln in lines if ln.startswith("ERROR")]
    return Diagnosis("unknown", tuple(errors[-2:]))


def _say(text: str = "") -> None:
    print(text, flush=True)  # before a child process writes to the same stream


UTF8 = {"PYTHONIOENCODING": "utf-8"}
"""What a Python child needs to write UTF-8 into a pipe whatever the locale (a Chinese Windows
writes GBK otherwise)."""


def speak_utf8() -> dict[str, str]:
    """Write UTF-8 when the output goes to a pipe (the first cell reads it as UTF-8, whatever the
    locale); a terminal keeps its own encoding. Returns what a child Python writing to the same
    output needs in its environment."""
    if sys.stdout.isatty():
        return {}
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8")
    return dict(UTF8)


def _run(command: list[str], cwd: Path | None = None, env: dict | None = None) -> int:
    """Run a command whose messages the learner reads as they come; its exit status."""
    return subprocess.run(command, cwd=cwd, env={**os.environ, **(env or {})}).returncode


def _pip(command: list[str]) -> tuple[int, str]:
    """Run pip, showing its messages as they come; its exit status and what it printed."""
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        errors="replace",
        env={**os.environ, **UTF8},
    )
    seen = []
    assert process.stdout is not None
    for line in process.stdout:
        print(line, end="", flush=True)
        seen.append(line)
    return process.wait(), "".join(seen)


def _index_answers(check: IndexCheck, python: str) -> bool:
    """Say what the index check found; False when pip cannot install from it."""
    if not check.ok:
        index = index_url(python)
        _say(
            _("ERROR: the package index ({index}) did not answer (pip: {detail}).").format(
                index=index, detail=check.detail
            )
        )
        _say(mirror_advice(index))
    elif check.seconds > SLOW_INDEX_S:
        _say(_("NOTE: the package index took {s:.0f} s to answer.").format(s=check.seconds))
        _say(mirror_advice(index_url(python)))
    return check.ok


def new_enough(torch: Torch, needed: str) -> bool:
    """Whether the installed PyTorch is one the course runs with; if not, say what to do."""
    if release(torch.version) >= release(needed):
        return True
    _say(
        _(
            "ERROR: this environment's PyTorch {version} is older than the course needs "
            "(torch>={needed}); the set-up never replaces the PyTorch it finds, so nothing was "
            "installed. This is not the package index. Choose an image (a machine type, a "
            "runtime) with PyTorch {needed} or newer (the course is tested with {tested}), or "
            "upgrade it yourself with the build for this machine's GPU (README: 'Getting the "
            "right PyTorch'), then run the first cell again."
        ).format(version=torch.version, needed=needed, tested=_tested_torch())
    )
    return False


def _tested_torch() -> str:
    from helpers.config import TESTED_TORCH

    return TESTED_TORCH


def explain_failure(found: Diagnosis, torch: Torch, python: str) -> list[str]:
    """What to tell the learner about a failed install, for each kind of cause."""
    shown = "; ".join(found.lines)
    if found.kind == "conflict":
        said = [
            _(
                "ERROR: pip found no versions that fit together (a version conflict, not the "
                "package index): {lines}"
            ).format(lines=shown)
        ]
        if found.mentions_torch:
            said.append(
                _(
                    "The set-up keeps this environment's PyTorch {version} as it is, and a "
                    "package the course needs asks for another one. Choose an image with a newer "
                    "PyTorch (the course is tested with {tested}), or upgrade PyTorch yourself "
                    "with the build for this machine's GPU, then run the first cell again."
                ).format(version=torch.version, tested=_tested_torch())
            )
        else:
            said.append(
                _(
                    "A package already installed here pins a version the course cannot use "
                    "(pip's lines above name it): upgrade it (`pip install -U <name>`), or start "
                    "from an image with newer packages, then run the first cell again."
                )
            )
        return said
    if found.kind == "python":
        needed = ".".join(map(str, NEEDS_PYTHON))
        return [
            _(
                "ERROR: this Python ({version}) is older than the course needs ({needed} or "
                "newer): choose an image with a newer Python, then run the first cell again."
            ).format(version=platform_python(), needed=needed)
        ]
    index = index_url(python)
    if found.kind == "network":
        return [
            _("ERROR: pip could not download from the package index ({index}): {lines}").format(
                index=index, lines=shown
            ),
            mirror_advice(index),
        ]
    if found.kind == "missing":
        return [
            _(
                "ERROR: the package index ({index}) has no version that fits: {lines}. A mirror "
                "that is behind PyPI or lacks a package answers so: try another mirror, or PyPI "
                "itself, then run the first cell again."
            ).format(index=index, lines=shown)
        ]
    return [
        _("ERROR: pip could not install the course (its messages are above)."),
        _(
            "If they speak of connections or timeouts, the package index ({index}) is the "
            "cause: use a mirror (below). If they speak of versions, an image with a newer "
            "PyTorch and Python is the fix."
        ).format(index=index),
        mirror_advice(index),
    ]


def platform_python() -> str:
    return ".".join(map(str, sys.version_info[:3]))


def _install(python: str, root: Path, torch: Torch) -> bool:
    """pip installs the course; False (and why) when it failed or PyTorch changed."""
    constraints = paths.BUILD / "bootstrap" / "constraints.txt"
    constraints.parent.mkdir(parents=True, exist_ok=True)
    constraints.write_text(f"torch=={torch.version}\n", encoding="utf-8")
    before = installed_versions()
    _say(_("Installing the course from {root}").format(root=root))
    code, output = _pip(install_command(python, root, constraints, isolated=not builds_here()))
    if code:
        for line in explain_failure(diagnose(output), torch, python):
            _say(line)
        return False
    after = installed_torch()
    if after != torch:
        now = (
            _("{version} at {path}").format(version=after.version, path=after.path)
            if after
            else _("nothing")
        )
        _say(
            _("ERROR: the install changed PyTorch: {before} at {path} is now {now}.").format(
                before=torch.version, path=torch.path, now=now
            )
        )
        return False
    before.pop("helpers", None)  # the course itself (a copy from an earlier run)
    if changed := changed_versions(before, installed_versions()):
        _say(_("Changed: {packages}.").format(packages=", ".join(changed)))
        _say(_("Restart the kernel (Colab: Runtime > Restart session) and run the lesson again."))
    return True


def bootstrap(python: str = sys.executable, root: Path | None = None) -> int:
    """Install the course into this environment next to its PyTorch; 0 when ready."""
    root = root or paths.ROOT
    child = speak_utf8()
    lang = edition_language()
    if lang and not os.environ.get("COURSE_LANG", "").strip():
        os.environ["COURSE_LANG"] = lang  # this command and the doctor after it speak it
    with ThreadPoolExecutor(1) as pool:
        index = pool.submit(check_index, python)  # asked while PyTorch loads
        place = detect()
        gpu = _(" (GPU: {gpu})").format(gpu=place.gpu) if place.gpu else ""
        _say(_("Course set-up on {place}").format(place=place.name) + gpu)
        if place.advice:
            _say(_("NOTE: {advice}").format(advice=place.advice))
        torch = installed_torch()
        if torch is None:
            _say(
                _(
                    "ERROR: this Python ({python}) has no PyTorch. Cloud notebooks come with "
                    "one; on your own machine use `make lab` (it sets up its own environment), "
                    "or install the PyTorch for your GPU first ({url})."
                ).format(python=python, url="https://pytorch.org/get-started/locally/")
            )
            return 1
        _say(
            _("PyTorch {version} stays as it is ({folder})").format(
                version=torch.version, folder=Path(torch.path).parent
            )
        )
        if not new_enough(torch, needed_torch(root / "pyproject.toml")):
            return 1
        if not _index_answers(index.result(), python) or not _install(python, root, torch):
            return 1
    _say(
        _("The course is in {root}; its lessons are in {lessons}.").format(
            root=root, lessons=root / paths.NOTEBOOKS.relative_to(paths.ROOT)
        )
    )
    return _run([python, "-m", "helpers", "doctor"], cwd=root, env=child)


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
