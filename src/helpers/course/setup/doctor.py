"""``python -m helpers doctor``: is this setup ready for the course, and if not, what to do.

It reports Python, PyTorch and its build, the device the course will use, the course's packages and
its data, and warns with the fix when something is off (an NVIDIA GPU with a CPU-only PyTorch, a
driver too old for the build, an Apple silicon Mac without MPS, the grading sandbox missing, a
space in a path that ``torch.compile`` builds against, a Windows whose Chinese code page makes
``torch.compile`` fail on the compiler's Chinese messages). It speaks the course's language
(:func:`helpers.i18n.language`): English in a terminal unless ``COURSE_LANG=zh``, Chinese in
the Chinese edition's day 0.
"""

from __future__ import annotations

import importlib.metadata as metadata
import locale
import platform
import re
import shutil
import sys
from pathlib import Path

import torch
from packaging.requirements import Requirement
from wcwidth import wcswidth

from helpers import compiled
from helpers.config import TESTED_TORCH, fast_mode
from helpers.course import paths
from helpers.data import DataFileError, load_heart
from helpers.device import DeviceUnavailableError, available_devices, get_device
from helpers.hardware import card, torch_build
from helpers.i18n import _, word

CUDA_INSTALL = "https://pytorch.org/get-started/locally/"


CHINESE_CODE_PAGES = {936: "GBK", 950: "Big5", 54936: "GB18030", 20936: "GB2312"}
"""Windows' Chinese code pages, by number."""
COMPILE_ISSUE = "pytorch/pytorch#157673"


def windows_code_page() -> int | None:
    """Windows' ANSI code page (936 on a simplified-Chinese Windows), or None elsewhere. Python's
    own UTF-8 mode does not change it: the compiler's messages still come in it."""
    if platform.system() != "Windows":
        return None
    try:
        import ctypes

        return int(ctypes.windll.kernel32.GetACP())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        found = locale.getpreferredencoding(False).lower().removeprefix("cp")
        return int(found) if found.isdigit() else None


def chinese_windows_compiler() -> str | None:
    """The warning for a Windows with a Chinese code page, where Visual Studio's C++ compiler
    (``cl.exe``, which ``torch.compile`` builds with on a CPU) speaks Chinese unless its English
    language pack is installed: PyTorch then fails reading its messages (a ``UnicodeDecodeError``
    from the ``gbk`` or ``utf-8`` codec in older releases; newer ones stop with "only support
    MSVC with English language pack"). PyTorch's maintainers' fix, in pytorch/pytorch#157673 and
    #159537: install the English language pack in the Visual Studio Installer."""
    page = windows_code_page()
    if page not in CHINESE_CODE_PAGES:
        return None
    return _(
        "This Windows uses a Chinese code page ({page}, {name}). `torch.compile` builds its C++ "
        "with Visual Studio's compiler (cl.exe), and when that compiler answers in Chinese, "
        "PyTorch cannot read it: the build stops with a UnicodeDecodeError ('gbk' or 'utf-8' "
        "codec can't decode) or, in newer PyTorch, 'only support MSVC with English language "
        "pack' ({issue}). The fix PyTorch's developers give: open the Visual Studio Installer, "
        "choose Modify > Language packs, tick English, install, then restart the kernel. "
        "Everything else runs without it; day 5's compiled variants are left out until then."
    ).format(page=page, name=CHINESE_CODE_PAGES[page], issue=COMPILE_ISSUE)


def _nvidia_gpu_present() -> bool:
    """Whether the system has an NVIDIA driver, whatever PyTorch thinks."""
    gpus = Path("/proc/driver/nvidia/gpus")
    return shutil.which("nvidia-smi") is not None or (gpus.is_dir() and any(gpus.iterdir()))


def _course_packages() -> list[tuple[str, str | None]]:
    """The course's dependencies (from this package's metadata) and their installed versions."""
    names = []
    for line in metadata.requires("helpers") or []:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate():  # not an extra
            names.append(requirement.name)
    found = []
    for name in names:
        try:
            found.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            found.append((name, None))
    return found


LOCK = paths.LOCK


def tested_versions(lock: Path | None = None) -> dict[str, str]:
    """``{package: version}`` from the lock file's ``name==version`` lines (empty without one)."""
    lock = lock or LOCK
    if not lock.is_file():
        return {}
    pins = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        name, sep, version = line.split("#")[0].strip().partition("==")
        if sep:
            pins[name.strip().lower()] = version.strip()
    return pins


def untested_versions(lock: Path | None = None) -> list[str]:
    """``'name installed (tested: version)'`` for each locked package installed at another
    version; packages that are not installed are left to the package check."""
    found = []
    for name, tested in sorted(tested_versions(lock).items()):
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
        if installed != tested:
            found.append(f"{name} {installed} (tested: {tested})")
    return found


Row = tuple[str | None, str]
"""One line of the report: a label and its value, or (``None``, a heading)."""
LABEL_INDENT, GAP = 2, 2


def _width(text: str) -> int:
    """How many columns ``text`` takes in a terminal (a Chinese character takes two).

    >>> _width("OS"), _width("操作系统"), _width("2.13.0+cu128")
    (2, 8, 12)
    """
    return max(wcswidth(text), len(text))  # wcswidth says -1 for a control character


CLOSING, OPENING = "，。、；：！？）」』》”", "（「『《“"
"""Punctuation that may not start a line, and that may not end one (Chinese typesetting)."""


def _tokens(text: str) -> list[str]:
    """``text`` in the pieces a line may break between: words, spaces, and each wide (Chinese)
    character, with the punctuation that may not start or end a line kept with its neighbour."""
    pieces: list[str] = []
    for piece in re.findall(r"\s+|[^\s\u1100-\uffff]+|\S", text):
        after = pieces[-1][-1] if pieces else ""
        if pieces and (piece in CLOSING or (after in OPENING and not piece.isspace())):
            pieces[-1] += piece
        else:
            pieces.append(piece)
    return pieces


def wrap(text: str, width: int) -> list[str]:
    """``text`` as lines of at most ``width`` terminal columns, broken between words or between
    Chinese characters; a word longer than a line (a path) is cut where it must be.

    >>> wrap("2.13.0+cpu (build: CPU only)", 12)
    ['2.13.0+cpu', '(build: CPU', 'only)']
    >>> wrap("正常（每个软件包都与锁文件一致）", 12)
    ['正常（每个软', '件包都与锁文', '件一致）']
    >>> wrap("/a/very/long/path/to/python", 10)
    ['/a/very/lo', 'ng/path/to', '/python']
    """
    lines, line = [], ""
    for piece in _tokens(text):
        if not line.strip() or _width(line + piece.rstrip()) <= width:
            line = line + piece if line.strip() else piece.lstrip()
        else:
            lines.append(line.rstrip())
            line = piece.lstrip()
        while _width(line) > width:  # one piece longer than a whole line
            cut = max(1, next(i for i in range(len(line), 0, -1) if _width(line[:i]) <= width))
            lines.append(line[:cut])
            line = line[cut:]
    return [*lines, line.rstrip()] if line.strip() or not lines else lines


def report_lines(rows: list[Row], columns: int) -> list[str]:
    """The report's rows as lines of at most ``columns`` terminal columns: every label padded
    to the widest one by display width, so that the values line up in one column whatever the
    language, and a value too long for the line continued below itself.

    >>> print("\\n".join(report_lines([("OS", "Linux"), ("操作系统", "Linux"),
    ...     (None, "Packages"), ("jupyterlab-slideshow", "0.3.4")], 40)))
      OS                    Linux
      操作系统              Linux
    Packages
      jupyterlab-slideshow  0.3.4
    """
    labels = [_width(label) for label, _value in rows if label is not None]
    column = LABEL_INDENT + max(labels, default=0) + GAP
    lines = []
    for label, value in rows:
        if label is None:
            lines.append(value)
            continue
        pad = " " * (column - LABEL_INDENT - _width(label))
        first, *rest = wrap(value, max(columns - column, 16))
        lines.append(f"{' ' * LABEL_INDENT}{label}{pad}{first}")
        lines += [" " * column + more for more in rest]
    return lines


def _row(rows: list[Row], label: str, value: object) -> None:
    rows.append((label, str(value)))


def _flag(value: bool) -> str:
    return _("True") if value else _("False")


def _machine(rows: list[Row], errors: list[str]) -> torch.device | None:
    """Report Python, PyTorch and the device; return the course's device (None if unusable)."""
    _row(rows, "Python", f"{platform.python_version()} ({sys.executable})")
    _row(rows, _("OS"), f"{platform.system()} {platform.release()} ({platform.machine()})")
    build = word(torch_build())
    _row(
        rows,
        "PyTorch",
        _("{version} (build: {build})").format(version=torch.__version__, build=build),
    )
    _row(rows, _("CUDA available"), _flag(torch.cuda.is_available()))
    _row(rows, _("MPS available"), _flag(torch.backends.mps.is_available()))
    _row(rows, _("devices"), ", ".join(available_devices()))
    try:
        device = get_device()
    except DeviceUnavailableError as err:
        _row(rows, _("course device"), _("NOT AVAILABLE"))
        errors.append(_("{error} Unset COURSE_DEVICE to let the course choose.").format(error=err))
        return None
    _row(rows, _("course device"), device)
    info = card()
    cpus = {"usable": info["cpu_usable"], "logical": info["cpu_logical"]}
    _row(
        rows,
        "CPU",
        _("{cpu} ({usable} usable of {logical} logical)").format(cpu=info["cpu"], **cpus),
    )
    _row(rows, _("memory"), f"{info['memory_gb']} GB")
    if "gpu" in info:
        _row(rows, "GPU", word(info["gpu"]))
    return device


def _packages_and_data(rows: list[Row], errors: list[str]) -> None:
    try:
        _row(rows, _("mode"), (_("fast (COURSE_FAST=1)") if fast_mode() else _("full")))
    except ValueError as err:
        errors.append(str(err))
    rows.append((None, _("Packages")))
    for name, version in _course_packages():
        _row(rows, name, version or _("MISSING"))
        if version is None:
            errors.append(
                _("{name} is not installed: run `make install` (or `pip install -e .`).").format(
                    name=name
                )
            )
    tested = _("tested versions")
    if not LOCK.is_file():
        _row(rows, tested, _("no requirements-lock.txt here: versions not compared"))
    elif untested := untested_versions():
        _row(
            rows,
            tested,
            _("{n} installed package(s) differ (see the warning)").format(n=len(untested)),
        )
    else:
        _row(rows, tested, _("ok (every package as in requirements-lock.txt)"))
    from helpers.course.grading import sandbox

    works, detail = sandbox.available()
    said = _("ok ({detail})") if works else _("not available: {detail}")
    _row(rows, _("grading sandbox"), said.format(detail=detail))
    from helpers.course.setup import git

    if not git.is_checkout():
        state = _("not a git clone: nothing to keep out of commits")
    else:
        state = (
            _("ok (outputs stay out of git commits)")
            if git.filter_installed()
            else _("off: `python -m helpers git-filter` keeps outputs out of commits")
        )
    _row(rows, _("notebook filter"), state)
    try:
        load_heart()
        _row(rows, _("Heart data"), _("ok"))
    except DataFileError as err:
        _row(rows, _("Heart data"), _("PROBLEM"))
        errors.append(str(err))


def _warnings() -> list[str]:
    """What works but is not as it should be, each with its fix."""
    found = []
    if torch.__version__.split("+")[0] != TESTED_TORCH:
        found.append(
            _(
                "PyTorch {version} is not the tested {tested}; the course should work, "
                "but if something breaks, try `make install "
                "TORCH_SPEC=torch=={tested}`."
            ).format(version=torch.__version__, tested=TESTED_TORCH)
        )
    if untested := untested_versions():
        shown = _(", ").join(untested[:8])
        if len(untested) > 8:
            shown = _("{shown} and {n} more").format(shown=shown, n=len(untested) - 8)
        found.append(
            _(
                "Versions outside the tested set: {shown}. The course should work; if "
                "something breaks, `make install` installs the tested versions "
                "(requirements-lock.txt)."
            ).format(shown=shown)
        )
    if _nvidia_gpu_present() and not torch.cuda.is_available():
        if torch.version.cuda is None:
            found.append(
                _(
                    "This machine has an NVIDIA GPU but PyTorch is a CPU-only build, so "
                    "the course runs on the CPU. Fix: reinstall a CUDA build, e.g. `make "
                    "install TORCH_INDEX=https://download.pytorch.org/whl/cu128` (pick the "
                    "CUDA version for your driver at {url})."
                ).format(url=CUDA_INSTALL)
            )
        else:
            found.append(
                _(
                    "PyTorch is built for CUDA {cuda} but sees no GPU: the driver may be "
                    "too old for this build. Check `nvidia-smi`: the 'CUDA Version' it "
                    "shows needs at least the same major version as {cuda} (within one "
                    "major version, CUDA's minor-version compatibility lets a newer build "
                    "run), else install a build for an older CUDA."
                ).format(cuda=torch.version.cuda)
            )
    if problem := compiled.build_problem():
        found.append(
            _("{problem}. Everything else runs; day 5's compiled variants are left out.").format(
                problem=problem
            )
        )
    if compiler := chinese_windows_compiler():
        found.append(compiler)
    apple_silicon = platform.system() == "Darwin" and platform.machine() == "arm64"
    if apple_silicon and not torch.backends.mps.is_available():
        found.append(
            _(
                "This is an Apple silicon Mac but MPS is not available: update macOS "
                "(12.3+) and check that Python is a native arm64 build (`python -c "
                "'import platform; print(platform.machine())'` should print arm64)."
            )
        )
    return found


def doctor() -> int:
    """Print a report of this setup; return 0 when it is usable, 1 when something must be fixed."""
    errors: list[str] = []
    rows: list[Row] = [(None, _("Course setup check"))]
    try:
        device = _machine(rows, errors)
        _packages_and_data(rows, errors)
    finally:  # what was found so far, even if a check failed
        print("\n".join(report_lines(rows, shutil.get_terminal_size((100, 24)).columns)))
    warnings = _warnings()
    for warning in warnings:
        print(_("WARNING: {warning}").format(warning=warning))
    for error in errors:
        print(_("ERROR: {error}").format(error=error))
    if not errors:
        print(
            (
                _("All good (with warnings): the course will run on {device}.")
                if warnings
                else _("All good: the course will run on {device}.")
            ).format(device=device)
        )
    return 1 if errors else 0
