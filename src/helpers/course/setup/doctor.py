"""``python -m helpers doctor``: is this setup ready for the course, and if not, what to do.

It reports Python, PyTorch and its build, the device the course will use, the course's packages and
its data, and warns with the fix when something is off (an NVIDIA GPU with a CPU-only PyTorch, a
driver too old for the build, an Apple silicon Mac without MPS, the grading sandbox missing, a
space in a path that ``torch.compile`` builds against). It speaks the course's language
(:func:`helpers.messages.language`): English in a terminal unless ``COURSE_LANG=zh``, Chinese in
the Chinese edition's day 0.
"""

from __future__ import annotations

import importlib.metadata as metadata
import platform
import shutil
import sys
import unicodedata
from pathlib import Path

import torch
from packaging.requirements import Requirement

from helpers import compiled
from helpers.config import TESTED_TORCH, fast_mode
from helpers.course import paths
from helpers.data import DataFileError, load_heart
from helpers.device import DeviceUnavailableError, available_devices, get_device
from helpers.hardware import card, torch_build
from helpers.messages import text, word

CUDA_INSTALL = "https://pytorch.org/get-started/locally/"


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


def _width(label: str) -> int:
    """How many columns ``label`` takes in a terminal (a Chinese character takes two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in label)


def _row(label: str, value: object) -> None:
    """One line of the report: ``label`` padded to 18 columns, then ``value``.

    >>> _row("OS", "Linux"); _row("操作系统", "Linux")
      OS                 Linux
      操作系统           Linux
    """
    print(f"  {label}{' ' * max(0, 18 - _width(label))} {value}")


def _flag(value: bool) -> str:
    return text("doctor.yes" if value else "doctor.no")


def _machine(errors: list[str]) -> torch.device | None:
    """Report Python, PyTorch and the device; return the course's device (None if unusable)."""
    _row("Python", f"{platform.python_version()} ({sys.executable})")
    _row(text("doctor.os"), f"{platform.system()} {platform.release()} ({platform.machine()})")
    build = word(torch_build())
    _row("PyTorch", text("doctor.pytorch", version=torch.__version__, build=build))
    _row(text("doctor.cuda"), _flag(torch.cuda.is_available()))
    _row(text("doctor.mps"), _flag(torch.backends.mps.is_available()))
    _row(text("doctor.devices"), ", ".join(available_devices()))
    try:
        device = get_device()
    except DeviceUnavailableError as err:
        _row(text("doctor.device"), text("doctor.device.missing"))
        errors.append(text("doctor.device.unset", error=err))
        return None
    _row(text("doctor.device"), device)
    info = card()
    cpus = {"usable": info["cpu_usable"], "logical": info["cpu_logical"]}
    _row("CPU", text("doctor.cpu", cpu=info["cpu"], **cpus))
    _row(text("doctor.memory"), f"{info['memory_gb']} GB")
    if "gpu" in info:
        _row("GPU", word(info["gpu"]))
    return device


def _packages_and_data(errors: list[str]) -> None:
    try:
        _row(text("doctor.mode"), text("doctor.mode.fast" if fast_mode() else "doctor.mode.full"))
    except ValueError as err:
        errors.append(str(err))
    print(text("doctor.packages"))
    for name, version in _course_packages():
        _row(name, version or text("doctor.package.missing"))
        if version is None:
            errors.append(text("doctor.package.install", name=name))
    tested = text("doctor.tested")
    if not LOCK.is_file():
        _row(tested, text("doctor.tested.no_lock"))
    elif untested := untested_versions():
        _row(tested, text("doctor.tested.differ", n=len(untested)))
    else:
        _row(tested, text("doctor.tested.ok"))
    from helpers.course.grading import sandbox

    works, detail = sandbox.available()
    said = "doctor.sandbox.ok" if works else "doctor.sandbox.missing"
    _row(text("doctor.sandbox"), text(said, detail=detail))
    from helpers.course.setup import git

    if not git.is_checkout():
        state = "doctor.filter.no_clone"
    else:
        state = "doctor.filter.ok" if git.filter_installed() else "doctor.filter.off"
    _row(text("doctor.filter"), text(state))
    try:
        load_heart()
        _row(text("doctor.heart"), text("doctor.ok"))
    except DataFileError as err:
        _row(text("doctor.heart"), text("doctor.heart.problem"))
        errors.append(str(err))


def _warnings() -> list[str]:
    """What works but is not as it should be, each with its fix."""
    found = []
    if torch.__version__.split("+")[0] != TESTED_TORCH:
        found.append(text("doctor.warn.torch", version=torch.__version__, tested=TESTED_TORCH))
    if untested := untested_versions():
        shown = text("joint.items").join(untested[:8])
        if len(untested) > 8:
            shown = text("doctor.warn.more", shown=shown, n=len(untested) - 8)
        found.append(text("doctor.warn.versions", shown=shown))
    if _nvidia_gpu_present() and not torch.cuda.is_available():
        if torch.version.cuda is None:
            found.append(text("doctor.warn.cpu_build", url=CUDA_INSTALL))
        else:
            found.append(text("doctor.warn.driver", cuda=torch.version.cuda))
    if problem := compiled.build_problem():
        found.append(text("doctor.warn.compile", problem=problem))
    apple_silicon = platform.system() == "Darwin" and platform.machine() == "arm64"
    if apple_silicon and not torch.backends.mps.is_available():
        found.append(text("doctor.warn.mps"))
    return found


def doctor() -> int:
    """Print a report of this setup; return 0 when it is usable, 1 when something must be fixed."""
    errors: list[str] = []
    print(text("doctor.title"))
    device = _machine(errors)
    _packages_and_data(errors)
    warnings = _warnings()
    for warning in warnings:
        print(text("doctor.warning", warning=warning))
    for error in errors:
        print(text("doctor.error", error=error))
    if not errors:
        print(text("doctor.good.warnings" if warnings else "doctor.good", device=device))
    return 1 if errors else 0
