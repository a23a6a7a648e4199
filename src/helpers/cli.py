"""The course's command line: ``python -m helpers <command>``.

Commands:
    doctor   check this setup: Python, PyTorch and its build, the device, packages, data
    lab      open JupyterLab on the course (what ``make lab`` runs)
    course   execute every notebook into build/course/ with HTML copies (``make course``)
    release  write the student versions of the homework masters (``make student``)
    takeoff  measure day 6's time-per-step sweep on this machine's GPU (the reference curve)
    grade    grade a folder of submitted homework (``make grade``)
    outline  update lessons' navigation and slides, run times, and the README's course map
    submit   check a homework notebook and write the copy to hand in
"""

from __future__ import annotations

import argparse
import importlib.metadata as metadata
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import torch

from helpers.config import ROOT, TESTED_TORCH, fast_mode
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
    for requirement in metadata.requires("helpers") or []:
        if "extra ==" in requirement:
            continue
        names.append(re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0])
    found = []
    for name in names:
        try:
            found.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            found.append((name, None))
    return found


def doctor() -> int:
    """Print a report of this setup; return 0 when it is usable, 1 when something must be fixed."""
    errors: list[str] = []
    warnings: list[str] = []

    def row(label: str, value: object) -> None:
        print(f"  {label:<18} {value}")

    print("Course setup check")
    row("Python", f"{platform.python_version()} ({sys.executable})")
    row("OS", f"{platform.system()} {platform.release()} ({platform.machine()})")
    row("PyTorch", f"{torch.__version__} (build: {torch_build()})")
    row("CUDA available", torch.cuda.is_available())
    row("MPS available", torch.backends.mps.is_available())
    row("devices", ", ".join(available_devices()))
    try:
        device = get_device()
        row("course device", device)
    except DeviceUnavailableError as err:
        row("course device", "NOT AVAILABLE")
        errors.append(f"{err} Unset COURSE_DEVICE to let the course choose.")
        device = None
    if device is not None:
        info = card()
        row("CPU", f"{info['cpu']} ({info['cpu_usable']} usable of {info['cpu_logical']} logical)")
        row("memory", f"{info['memory_gb']} GB")
        if "gpu" in info:
            row("GPU", info["gpu"])
    try:
        row("mode", "fast (COURSE_FAST=1)" if fast_mode() else "full")
    except ValueError as err:
        errors.append(str(err))

    print("Packages")
    for name, version in _course_packages():
        row(name, version or "MISSING")
        if version is None:
            errors.append(f"{name} is not installed: run `make install` (or `pip install -e .`).")

    try:
        load_heart()
        row("Heart data", "ok")
    except DataFileError as err:
        row("Heart data", "PROBLEM")
        errors.append(str(err))

    if torch.__version__.split("+")[0] != TESTED_TORCH:
        warnings.append(
            f"PyTorch {torch.__version__} is not the tested {TESTED_TORCH}; the course should "
            f"work, but if something breaks, try `make install TORCH_SPEC=torch=={TESTED_TORCH}`."
        )
    if _nvidia_gpu_present() and not torch.cuda.is_available():
        if torch.version.cuda is None:
            warnings.append(
                "This machine has an NVIDIA GPU but PyTorch is a CPU-only build, so the course "
                "runs on the CPU. Fix: reinstall a CUDA build, e.g. `make install "
                "TORCH_INDEX=https://download.pytorch.org/whl/cu128` (pick the CUDA version for "
                f"your driver at {CUDA_INSTALL})."
            )
        else:
            warnings.append(
                f"PyTorch is built for CUDA {torch.version.cuda} but sees no GPU: the driver may "
                "be too old for this build. Check `nvidia-smi` (the 'CUDA Version' it shows "
                f"must be at least {torch.version.cuda}) or install a build for an older CUDA."
            )
    apple_silicon = platform.system() == "Darwin" and platform.machine() == "arm64"
    if apple_silicon and not torch.backends.mps.is_available():
        warnings.append(
            "This is an Apple silicon Mac but MPS is not available: update macOS (12.3+) and "
            "check that Python is a native arm64 build (`python -c 'import platform; "
            "print(platform.machine())'` should print arm64)."
        )

    for text in warnings:
        print(f"WARNING: {text}")
    for text in errors:
        print(f"ERROR: {text}")
    if not errors:
        print(f"All good{' (with warnings)' if warnings else ''}: the course will run on {device}.")
    return 1 if errors else 0


def lab(extra: list[str]) -> int:
    """Start JupyterLab on the course, showing the notebooks folder."""
    command = [
        sys.executable, "-m", "jupyter", "lab",
        f"--ServerApp.root_dir={ROOT}",
        "--LabApp.default_url=/lab/tree/notebooks",
        *extra,
    ]  # fmt: skip
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # containers often run as root
        command.append("--allow-root")
    if os.name == "posix":  # become JupyterLab, so that Ctrl+C and signals reach it directly
        os.execv(sys.executable, command)
    try:
        return subprocess.call(command)
    except KeyboardInterrupt:
        return 0


def _release(*, check_only: bool, force: bool) -> int:
    from helpers import homework  # imported here: nbformat is slow to import

    try:
        if check_only:
            stale = homework.out_of_date()
            for path in stale:
                print(f"out of date: {path.relative_to(ROOT)} (run `python -m helpers release`)")
            print("Student versions are current." if not stale else "")
            return 1 if stale else 0
        written = homework.release(force=force)
    except (homework.HomeworkFormatError, FileExistsError, FileNotFoundError) as err:
        print(f"ERROR: {err}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path.relative_to(ROOT)}")
    masters = len(homework.all_masters())
    print(f"{masters} master(s), {len(written)} student version(s) updated, the rest current.")
    return 0


def _takeoff(device_name: str | None, out: Path | None, *, fast: bool) -> int:
    from helpers import takeoff

    try:
        device = get_device(device_name)
    except DeviceUnavailableError as err:
        print(f"ERROR: {err}", file=sys.stderr)
        return 1
    out = out or takeoff.REFERENCE
    if device.type == "cpu" and out.resolve() == takeoff.REFERENCE.resolve():
        print(
            f"ERROR: {out} holds the reference *GPU* curve, and this would measure the CPU. Run it "
            "on a machine with a GPU, or pass --out somewhere else to keep a CPU sweep.",
            file=sys.stderr,
        )
        return 1
    rows = [10**k for k in range(2, 5 if fast else 7)]
    print(f"Measuring time per step on {device} for rows {rows}...")
    table = takeoff.sweep(takeoff.MODELS, rows, device=device, repeats=2 if fast else 5)
    print(table[["model", "rows", "seconds"]].to_string(index=False))
    print(f"wrote {takeoff.save_reference(table, out)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="command")
    commands.add_parser("doctor", help="check this setup and say how to fix what is off")
    commands.add_parser("lab", help="open JupyterLab on the course (extra options go to jupyter)")
    course = commands.add_parser("course", help="execute every notebook into build/course/")
    course.add_argument("--fast", action="store_true", help="use fast mode (small sizes)")
    course.add_argument("--out", type=Path, default=None, help="output folder (build/course)")
    course.add_argument("notebooks", nargs="*", type=Path, help="only these notebooks")

    release = commands.add_parser("release", help="write student versions of the homework")
    release.add_argument("--check", action="store_true", help="only report out-of-date copies")
    release.add_argument("--force", action="store_true", help="overwrite answered copies (backup)")

    sweep = commands.add_parser("takeoff", help="measure day 6's sweep (the GPU reference curve)")
    sweep.add_argument("--device", default=None, help="device to measure (default: the best)")
    sweep.add_argument("--out", type=Path, default=None, help="where to write the sweep (JSON)")
    sweep.add_argument("--fast", action="store_true", help="small sizes, to try the command")

    grade = commands.add_parser("grade", help="grade submitted homework")
    grade.add_argument("submissions", type=Path, help="folder of submissions")
    grade.add_argument("--out", type=Path, default=Path("build/grades"), help="output folder")
    grade.add_argument("--jobs", type=int, default=1, help="submissions graded in parallel")
    grade.add_argument("--cell-timeout", type=float, default=60, help="seconds per cell")
    grade.add_argument("--timeout", type=float, default=600, help="seconds per notebook")
    grade.add_argument("--memory-mb", type=int, default=4096, help="memory limit per process")
    submit = commands.add_parser("submit", help="check your homework and write the copy to hand in")
    submit.add_argument("notebook", type=Path, help="your homework notebook")
    submit.add_argument("--student", required=True, help="your name or id: letters, digits, _ . -")
    submit.add_argument("--out", type=Path, default=Path("submissions"), help="where to write it")
    submit.add_argument("--force", action="store_true", help="replace an earlier copy there")

    outline = commands.add_parser("outline", help="update navigation, slides and the course map")
    outline.add_argument(
        "--timings",
        type=Path,
        default=None,
        help="set run times from make course (build/course/timings.json)",
    )
    outline.add_argument("--check", action="store_true", help="only list what is out of date")

    args, extra = parser.parse_known_args(argv)
    if args.command == "lab":
        return lab(extra)
    if extra:
        parser.error(f"unrecognised arguments: {' '.join(extra)}")
    if args.command == "doctor":
        return doctor()
    if args.command == "grade":
        from helpers import grading

        limits = grading.Limits(args.cell_timeout, args.timeout, args.memory_mb)
        try:
            results = grading.grade(args.submissions, args.out, jobs=args.jobs, limits=limits)
        except (FileNotFoundError, ValueError) as err:
            print(f"ERROR: {err}", file=sys.stderr)
            return 1
        print((args.out / "report.txt").read_text(), end="")
        print(
            f"Grades: {args.out / 'grades.csv'}; to grade by hand: {args.out / 'manual.csv'}; "
            f"feedback: {args.out / 'feedback'}/ ({len(results)} file(s))"
        )
        return 0
    if args.command == "submit":
        from helpers.submit import submit

        return submit(args.notebook, args.student, args.out, force=args.force)
    if args.command == "outline":
        from helpers.outline import outline as update_outline

        try:
            changed = update_outline(args.timings, check=args.check)
        except (ValueError, FileNotFoundError) as err:
            print(f"ERROR: {err}", file=sys.stderr)
            return 1
        for path in changed:
            print(f"{'out of date' if args.check else 'updated'}: {path}")
        return 1 if args.check and changed else 0
    if args.command == "takeoff":
        return _takeoff(args.device, args.out, fast=args.fast)
    if args.command == "release":
        return _release(check_only=args.check, force=args.force)
    if args.command == "course":
        from helpers.notebooks import build_course  # imported here: nbformat is slow to import

        for path in args.notebooks:
            if not path.is_file():
                parser.error(f"no notebook at {path}")
        paths = [p.resolve() for p in args.notebooks] or None
        runs = build_course(args.out, fast=args.fast, paths=paths)
        return 1 if any(r.error for r in runs) else 0
    return 2  # pragma: no cover (argparse requires a command)
