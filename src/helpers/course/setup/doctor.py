"""``python -m helpers doctor``: is this setup ready for the course, and if not, what to do.

It reports Python, PyTorch and its build, the device the course will use, the course's packages and
its data, and warns with the fix when something is off (an NVIDIA GPU with a CPU-only PyTorch, a
driver too old for the build, an Apple silicon Mac without MPS, the grading sandbox missing, a
space in a path that ``torch.compile`` builds against).
"""

from __future__ import annotations

import importlib.metadata as metadata
import platform
import shutil
import sys
from pathlib import Path

import torch
from packaging.requirements import Requirement

from helpers import compiled
from helpers.config import TESTED_TORCH, fast_mode
from helpers.course import paths
from helpers.data import DataFileError, load_heart
from helpers.device import DeviceUnavailableError, available_devices, get_device
from helpers.hardware import card, torch_build

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


def _row(label: str, value: object) -> None:
    print(f"  {label:<18} {value}")


def _machine(errors: list[str]) -> torch.device | None:
    """Report Python, PyTorch and the device; return the course's device (None if unusable)."""
    _row("Python", f"{platform.python_version()} ({sys.executable})")
    _row("OS", f"{platform.system()} {platform.release()} ({platform.machine()})")
    _row("PyTorch", f"{torch.__version__} (build: {torch_build()})")
    _row("CUDA available", torch.cuda.is_available())
    _row("MPS available", torch.backends.mps.is_available())
    _row("devices", ", ".join(available_devices()))
    try:
        device = get_device()
    except DeviceUnavailableError as err:
        _row("course device", "NOT AVAILABLE")
        errors.append(f"{err} Unset COURSE_DEVICE to let the course choose.")
        return None
    _row("course device", device)
    info = card()
    _row("CPU", f"{info['cpu']} ({info['cpu_usable']} usable of {info['cpu_logical']} logical)")
    _row("memory", f"{info['memory_gb']} GB")
    if "gpu" in info:
        _row("GPU", info["gpu"])
    return device


def _packages_and_data(errors: list[str]) -> None:
    try:
        _row("mode", "fast (COURSE_FAST=1)" if fast_mode() else "full")
    except ValueError as err:
        errors.append(str(err))
    print("Packages")
    for name, version in _course_packages():
        _row(name, version or "MISSING")
        if version is None:
            errors.append(f"{name} is not installed: run `make install` (or `pip install -e .`).")
    if not LOCK.is_file():
        _row("tested versions", "no requirements-lock.txt here: versions not compared")
    elif untested := untested_versions():
        _row("tested versions", f"{len(untested)} installed package(s) differ (see the warning)")
    else:
        _row("tested versions", "ok (every package as in requirements-lock.txt)")
    from helpers.course.grading import sandbox

    works, detail = sandbox.available()
    _row("grading sandbox", f"ok ({detail})" if works else f"not available: {detail}")
    from helpers.course.setup import git

    if not git.is_checkout():
        _row("notebook filter", "not a git clone: nothing to keep out of commits")
    elif git.filter_installed():
        _row("notebook filter", "ok (outputs stay out of git commits)")
    else:
        _row("notebook filter", "off: `python -m helpers git-filter` keeps outputs out of commits")
    try:
        load_heart()
        _row("Heart data", "ok")
    except DataFileError as err:
        _row("Heart data", "PROBLEM")
        errors.append(str(err))


def _warnings() -> list[str]:
    """What works but is not as it should be, each with its fix."""
    found = []
    if torch.__version__.split("+")[0] != TESTED_TORCH:
        found.append(
            f"PyTorch {torch.__version__} is not the tested {TESTED_TORCH}; the course should "
            f"work, but if something breaks, try `make install TORCH_SPEC=torch=={TESTED_TORCH}`."
        )
    if untested := untested_versions():
        shown = ", ".join(untested[:8]) + (
            f" and {len(untested) - 8} more" if len(untested) > 8 else ""
        )
        found.append(
            f"Versions outside the tested set: {shown}. The course should work; if something "
            "breaks, `make install` installs the tested versions (requirements-lock.txt)."
        )
    if _nvidia_gpu_present() and not torch.cuda.is_available():
        if torch.version.cuda is None:
            found.append(
                "This machine has an NVIDIA GPU but PyTorch is a CPU-only build, so the course "
                "runs on the CPU. Fix: reinstall a CUDA build, e.g. `make install "
                "TORCH_INDEX=https://download.pytorch.org/whl/cu128` (pick the CUDA version for "
                f"your driver at {CUDA_INSTALL})."
            )
        else:
            found.append(
                f"PyTorch is built for CUDA {torch.version.cuda} but sees no GPU: the driver may "
                "be too old for this build. Check `nvidia-smi`: the 'CUDA Version' it shows needs "
                f"at least the same major version as {torch.version.cuda} (within one major "
                "version, CUDA's minor-version compatibility lets a newer build run), else "
                "install a build for an older CUDA."
            )
    if problem := compiled.build_problem():
        found.append(f"{problem}. Everything else runs; day 5's compiled variants are left out.")
    apple_silicon = platform.system() == "Darwin" and platform.machine() == "arm64"
    if apple_silicon and not torch.backends.mps.is_available():
        found.append(
            "This is an Apple silicon Mac but MPS is not available: update macOS (12.3+) and "
            "check that Python is a native arm64 build (`python -c 'import platform; "
            "print(platform.machine())'` should print arm64)."
        )
    return found


def doctor() -> int:
    """Print a report of this setup; return 0 when it is usable, 1 when something must be fixed."""
    errors: list[str] = []
    print("Course setup check")
    device = _machine(errors)
    _packages_and_data(errors)
    warnings = _warnings()
    for text in warnings:
        print(f"WARNING: {text}")
    for text in errors:
        print(f"ERROR: {text}")
    if not errors:
        print(f"All good{' (with warnings)' if warnings else ''}: the course will run on {device}.")
    return 1 if errors else 0
