"""Notebooks in git: outputs in working copies, never in commits (``python -m helpers git-filter``).

Learners and instructors run the lessons and save them, so a working copy holds outputs; commits
must not. ``.gitattributes`` (committed) sends every ``*.ipynb`` through a git *clean filter*:
nbstripout, the ecosystem's tool. Git runs it whenever a notebook goes into the index, so
``git status``, ``git diff`` and commits see the notebook without outputs while the file on disk
keeps them. The filter's command lives in ``.git/config``, which a clone never copies: every
clone sets it up once, with :func:`install_filter` (``make install`` does).

The command keeps cell ids (nbstripout would renumber them) and cuts ``language_info`` to what the
course commits (JupyterLab adds the Python version and more on save), so a lesson that JupyterLab
saved after a run and the committed lesson are the same notebook to git.

Git compares a file's size before it runs any filter, so a lesson saved with outputs would still
be listed by ``git status`` (though ``git diff`` shows nothing). ``make lab`` runs
:func:`after_save` after every save: when the filter makes the saved notebook exactly what git
already holds, it records the file's new size in the index; a real change is never staged.

:func:`committed` reads what git holds (the index), for the tests of the repository's rules.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from helpers.course import paths

FILTER = "nbstripout"
EXTRA_KEYS = tuple(
    f"metadata.language_info.{key}"
    for key in ("codemirror_mode", "file_extension", "mimetype", "nbconvert_exporter", "version")
)


class GitFilterError(RuntimeError):
    """The filter cannot be set up here; the message says why and what to do."""


def command(python: str | Path | None = None, *, textconv: bool = False) -> str:
    """The shell command git runs on a notebook (``textconv``: for ``git diff``)."""
    python = Path(python or sys.executable).as_posix()
    keys = " ".join(EXTRA_KEYS)
    return f'"{python}" -m nbstripout --keep-id --extra-keys "{keys}"' + (" -t" if textconv else "")


def settings(python: str | Path | None = None) -> dict[str, str]:
    """The git configuration the filter needs (names as in ``git config``)."""
    return {
        f"filter.{FILTER}.clean": command(python),
        f"filter.{FILTER}.smudge": "cat",
        "diff.ipynb.textconv": command(python, textconv=True),
    }


def _git(root: Path, *args: str, text: bool = True) -> subprocess.CompletedProcess:
    """Run git in ``root``; its output as text, or as bytes (``text=False``: a path it stores)."""
    decoding = {"text": True, "encoding": "utf-8", "errors": "replace"} if text else {}
    try:  # as text: git's own messages come in the locale's language and encoding
        return subprocess.run(["git", *args], cwd=root, capture_output=True, **decoding)
    except FileNotFoundError as err:
        raise GitFilterError("git is not installed (or not on the PATH).") from err


def is_checkout(root: Path | None = None) -> bool:
    """Whether ``root`` (the course folder) is inside a git working tree."""
    try:
        result = _git(root or paths.ROOT, "rev-parse", "--is-inside-work-tree")
    except GitFilterError:
        return False
    return result.returncode == 0 and result.stdout.strip() == "true"


def filter_installed(root: Path | None = None) -> bool:
    """Whether this clone runs notebooks through nbstripout, keeping cell ids, with a Python that
    is still there (an environment deleted or moved leaves git a filter it cannot run, and git
    then stores notebooks as they are, outputs and all)."""
    result = _git(root or paths.ROOT, "config", "--get", f"filter.{FILTER}.clean", text=False)
    # the path git holds is the file system's bytes: decoded as the file system does, it names
    # the same file under any locale (a UTF-8 folder name under a GBK locale on Linux included)
    clean = os.fsdecode(result.stdout).strip() if result.returncode == 0 else ""
    python = clean.split('"')[1] if clean.count('"') >= 2 else ""
    return "-m nbstripout" in clean and "--keep-id" in clean and Path(python).is_file()


def install_filter(root: Path | None = None, python: str | Path | None = None) -> dict[str, str]:
    """Set up the filter in this clone's ``.git/config``; returns the settings written.

    Raises:
        GitFilterError: not a git checkout, or nbstripout is not installed for ``python``.
    """
    root = root or paths.ROOT
    if not is_checkout(root):
        raise GitFilterError(f"{root} is not a git checkout: there are no commits to keep clean.")
    python = python or sys.executable
    found = "import importlib.util, sys; sys.exit(importlib.util.find_spec('nbstripout') is None)"
    if subprocess.run([str(python), "-c", found], capture_output=True).returncode != 0:
        raise GitFilterError(
            f"nbstripout is not installed for {python}; run `make install` "
            "(or `python -m pip install nbstripout`) first."
        )
    wanted = settings(python)
    for key, value in wanted.items():
        result = _git(root, "config", "--local", key, value)
        if result.returncode != 0:
            raise GitFilterError(f"git config {key} failed: {result.stderr.strip()}")
    settle_index(root)
    return wanted


def settle_index(root: Path) -> None:
    """Spare the first ``git status`` after a clone from running the filter on every notebook.

    Git trusts a file's size and time only when the file is older than the index; a file as new
    as the index is "racily clean" (git's Documentation/technical/racy-git.txt), and a clone
    marks such files for a content check. Right after a clone every file is one, and with the
    filter set up each check runs nbstripout, seconds apiece (it imports nbformat): the first
    ``git status`` took over two minutes. Here git checks them once without the filter (``cat``:
    a file checked out from a commit is what the commit holds, which the filter leaves as it is)
    and records their size and time, in an index newer than the files. A file changed since the
    checkout differs from the commit, so git still sees every change."""
    result = _git(root, "rev-parse", "--git-path", "index")
    index = root / result.stdout.strip()  # relative in a clone, absolute in a worktree
    if result.returncode != 0 or not index.is_file():
        return
    written = index.stat().st_mtime  # git may compare whole seconds: move on to the next one
    time.sleep(max(0.0, math.floor(written) + 1 - time.time()))
    _git(root, "-c", f"filter.{FILTER}.clean=cat", "update-index", "-q", "--refresh")
    os.utime(index)


def committed(path: Path, root: Path | None = None) -> str | None:
    """The text git holds for ``path`` (the index: what the next commit takes), or ``None`` when
    git does not track it (or this is not a git checkout)."""
    root = root or paths.ROOT
    relative = _relative(path, root)
    try:
        result = subprocess.run(
            ["git", "show", f":{relative}"], cwd=root, capture_output=True, check=False
        )
    except FileNotFoundError:
        return None
    return result.stdout.decode("utf-8") if result.returncode == 0 else None


def _relative(path: Path, root: Path) -> str:
    return Path(path).resolve().relative_to(root.resolve()).as_posix()


def refresh(path: Path, root: Path | None = None) -> bool:
    """If git's filter turns ``path`` into exactly what the index holds, record the file's new
    size and time in the index (so ``git status`` stops listing it) and return True. A file whose
    filtered content differs (a real change), or that git does not track, is left alone."""
    root = root or paths.ROOT
    relative = _relative(path, root)
    listed = _git(root, "ls-files", "--stage", "--", relative).stdout.split()
    if len(listed) < 2:
        return False
    held = listed[1]
    filtered = _git(root, "hash-object", f"--path={relative}", "--", relative)
    if filtered.returncode != 0 or filtered.stdout.strip() != held:
        return False
    return _git(root, "update-index", "--", relative).returncode == 0


_refreshing = threading.Lock()


def after_save(model: dict, os_path: str, contents_manager=None, **_) -> threading.Thread | None:
    """JupyterLab's post-save hook (``make lab`` sets it): :func:`refresh` a saved notebook.

    The filter takes a few seconds (nbstripout imports nbformat), so it runs in a thread of its
    own and JupyterLab goes on serving kernels meanwhile; the thread is not a daemon, so a server
    that stops waits for it. Saving must never fail because of git: problems are only logged.
    Returns the thread (for tests), or None when there is nothing to do.
    """
    if model.get("type") != "notebook":
        return None

    def work() -> None:
        try:
            with _refreshing:
                if is_checkout() and filter_installed():
                    refresh(Path(os_path))
        except Exception as err:  # noqa: BLE001 - a save hook must not break saving
            if contents_manager is not None:
                contents_manager.log.warning("git refresh after saving %s failed: %s", os_path, err)

    thread = threading.Thread(target=work, name="git-refresh-after-save")
    thread.start()
    return thread
