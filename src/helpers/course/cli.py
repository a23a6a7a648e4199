"""The course's command line: python -m helpers <command>.

One function per command; each imports what it needs when it runs, so that `--help` is instant.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path


def _error(message: str) -> int:
    print(f"ERROR: {message}", file=sys.stderr)
    return 1


def _shown(path: Path) -> Path:
    """A path as the course folder sees it (relative to it, when it is inside)."""
    from helpers.course import paths

    try:
        return path.resolve().relative_to(paths.ROOT)
    except ValueError:
        return path


def doctor(args: argparse.Namespace) -> int:
    from helpers.course.setup.doctor import doctor

    return doctor()


def lab(args: argparse.Namespace) -> int:
    """Start JupyterLab on the course (this process becomes JupyterLab on Linux and macOS)."""
    from helpers.course.setup.lab import command

    argv, env = command(args.extra)
    if os.name == "posix":  # become JupyterLab, so that Ctrl+C and signals reach it directly
        os.execve(sys.executable, argv, env)
    try:
        return subprocess.call(argv, env=env)
    except KeyboardInterrupt:
        return 0


def git_filter(args: argparse.Namespace) -> int:
    from helpers.course.setup import git

    try:
        written = git.install_filter()
    except git.GitFilterError as err:
        if not git.is_checkout():  # a download, not a clone: nothing to keep clean
            print(f"Nothing to do: {err}")
            return 0
        return _error(str(err))
    for key, value in written.items():
        print(f"git config {key} {value}")
    print("Notebook outputs now stay in your working copy and out of git's commits.")
    return 0


def course(args: argparse.Namespace) -> int:
    from helpers.course import paths
    from helpers.course.notebooks import edition
    from helpers.course.notebooks.execute import build_course

    missing = [str(p) for p in args.notebooks if not p.is_file()]
    if missing:
        return _error(f"no notebook at {', '.join(missing)}")
    every = [*paths.lessons(), *paths.masters(), *edition.lessons("zh")]  # both editions
    notebooks = [p.resolve() for p in args.notebooks] or every
    runs = build_course(args.out, fast=args.fast, notebooks=notebooks)
    return 1 if any(r.error for r in runs) else 0


def release(args: argparse.Namespace) -> int:
    from helpers.course import paths
    from helpers.course.homework import release
    from helpers.course.homework.markers import HomeworkFormatError

    try:
        if args.check:
            found = release.statuses()
            for item in found:
                if item.state != "current":
                    print(f"{item.state}: {_shown(item.path)}: {item.advice}")
            if all(item.state == "current" for item in found):
                print("Student versions are current.")
            elif all(item.ok for item in found):
                print("Student versions are current (answered ones included).")
            return 0 if all(item.ok for item in found) else 1
        written = release.release(force=args.force)
    except (HomeworkFormatError, FileExistsError, FileNotFoundError) as err:
        return _error(str(err))
    for path in written:
        print(f"wrote {_shown(path)}")
    print(f"{len(paths.masters())} master(s), {len(written)} student version(s) updated.")
    return 0


def gpu_check(args: argparse.Namespace) -> int:
    from helpers.course.gpu_check import gpu_check

    return gpu_check(args.out, notebooks=args.notebooks, fast=args.fast)


def receipt(args: argparse.Namespace) -> int:
    from helpers.course.receipt import receipt

    return receipt(args.out, fast=args.fast, device=args.device)


def grade(args: argparse.Namespace) -> int:
    from helpers.course import paths
    from helpers.course.grading import grader

    args.out = args.out or paths.GRADES
    limits = grader.Limits(args.cell_timeout, args.timeout, args.memory_mb)
    try:
        results = grader.grade(
            args.submissions,
            args.out,
            jobs=args.jobs,
            limits=limits,
            sandboxed=not args.no_sandbox,
        )
    except (FileNotFoundError, ValueError, grader.SandboxUnavailable) as err:
        return _error(str(err))
    print((args.out / "report.txt").read_text(encoding="utf-8"), end="")
    print(
        f"Grades: {args.out / 'grades.csv'}; to grade by hand: {args.out / 'manual.csv'}; "
        f"feedback: {args.out / 'feedback'}/ ({sum(not r.blocked for r in results)} file(s))"
    )
    return 1 if any(r.blocked for r in results) else 0


def submit(args: argparse.Namespace) -> int:
    from helpers.course.homework.submit import submit

    return submit(args.notebook, args.student, args.out, force=args.force)


def outline(args: argparse.Namespace) -> int:
    from helpers.course.notebooks.outline import outline

    try:
        changed = outline(args.timings, check=args.check)
    except (ValueError, FileNotFoundError) as err:
        return _error(str(err))
    for path in changed:
        print(f"{'out of date' if args.check else 'updated'}: {path}")
    return 1 if args.check and changed else 0


def guide(args: argparse.Namespace) -> int:
    from helpers.course.notebooks.guide import guide

    try:
        changed = guide(args.executed, check=args.check)
    except (ValueError, FileNotFoundError) as err:
        return _error(str(err))
    for path in changed:
        print(f"{'out of date' if args.check else 'updated'}: {path}")
    return 1 if args.check and changed else 0


def vendor(args: argparse.Namespace) -> int:
    from helpers.course.notebooks.html import RENDERER_PACKAGE, vendor

    try:
        written = vendor()
    except RuntimeError as err:
        return _error(str(err))
    print(f"{RENDERER_PACKAGE}: {_shown(written)}")
    return 0


def translate(args: argparse.Namespace) -> int:
    from helpers.course.notebooks import translate

    try:
        if args.stamp:
            changed = translate.stamp(args.stamp, args.cells or None)
            print(f"{len(changed)} block(s) now match their English: {', '.join(changed) or '-'}")
            return 0
        if args.update:
            for path in translate.update(args.lang):
                print(f"updated {_shown(path)}")
        found = translate.findings(args.lang)
    except (ValueError, FileNotFoundError) as err:
        return _error(str(err))
    for item in found:
        print(item.line())
    states = {s: sum(f.state == s for f in found) for s in ("stale", "missing", "orphan")}
    if not found:
        print(f"Every translated ({args.lang}) cell matches its English.")
    else:
        print(", ".join(f"{n} {s}" for s, n in states.items()) + ": see above.")
    return 1 if found else 0


def edition(args: argparse.Namespace) -> int:
    from helpers.course.notebooks import translate
    from helpers.course.notebooks.edition import build

    try:
        changed, english = build(args.lang, check=args.check)
    except (ValueError, FileNotFoundError) as err:
        return _error(str(err))
    for path in changed:
        print(f"{'out of date' if args.check else 'wrote'}: {_shown(path)}")
    if english:
        print(f"{english} Markdown cell(s) have no translation yet and stay in English.")
    stale = [f for f in translate.findings(args.lang) if f.state == "stale"]
    if stale:
        print(f"{len(stale)} cell(s) translate older English: `python -m helpers translate`.")
    if not changed:
        print(f"The {args.lang} edition is current.")
    return 1 if args.check and changed else 0


def messages(args: argparse.Namespace) -> int:
    """Bring the message catalogs in step with the code and compile them (or, with --check, say
    only what is out of step)."""
    from helpers.course.notebooks import catalog

    found = []
    for lang in catalog.translated_languages():
        if not args.check:
            catalog.update(lang, drop_obsolete=args.drop_obsolete)
            print(f"updated {_shown(catalog.po_path(lang))} and {catalog.mo_path(lang).name}")
        found += [f"{lang}: {problem}" for problem in catalog.problems(lang)]
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} message(s) to translate or review in the .po file above (Poedit "
              "opens it), then run `python -m helpers messages` again.")  # fmt: skip
    else:
        print("Every message the code prints is translated.")
    return 1 if found else 0


def bootstrap(args: argparse.Namespace) -> int:
    from helpers.course.setup.bootstrap import bootstrap

    return bootstrap()


def _setup_commands(command) -> None:
    command(doctor, "check this setup and say how to fix what is off (make doctor)")
    command(lab, "open JupyterLab on the course, at day 0 (make lab); more options: jupyter lab's")
    command(git_filter, "keep notebook outputs out of git commits in this clone (make install)")
    command(bootstrap, "install the course next to a cloud notebook's PyTorch (README: first cell)")


def _homework_commands(command) -> None:
    sub = command(release, "write the student versions of the homework masters (make student)")
    sub.add_argument("--check", action="store_true", help="only report out-of-date copies")
    sub.add_argument("--force", action="store_true", help="overwrite answered copies (backup)")

    sub = command(submit, "check your homework and write the copy to hand in")
    sub.add_argument("notebook", type=Path, help="your homework notebook")
    sub.add_argument("--student", required=True, help="your name or id: letters, digits, _ . -")
    sub.add_argument("--out", type=Path, default=Path("submissions"), help="where to write it")
    sub.add_argument("--force", action="store_true", help="replace an earlier copy there")

    sub = command(receipt, "measure this device (GPU or CPU) into one JSON file, a receipt")
    sub.add_argument("--out", type=Path, required=True, help="the receipt's file (JSON)")
    sub.add_argument("--fast", action="store_true", help="small sizes (also COURSE_FAST=1)")
    sub.add_argument("--device", default=None, help="cuda, mps or cpu (default: the best here)")

    sub = command(grade, "grade a folder of submitted homework (make grade)")
    sub.add_argument("submissions", type=Path, help="folder of submissions")
    sub.add_argument("--out", type=Path, default=None, help="output folder (build/grades)")
    sub.add_argument("--jobs", type=int, default=1, help="submissions graded in parallel")
    sub.add_argument("--cell-timeout", type=float, default=60, help="seconds per cell")
    sub.add_argument("--timeout", type=float, default=600, help="seconds per notebook")
    sub.add_argument("--memory-mb", type=int, default=4096, help="memory limit per process")
    sub.add_argument(
        "--no-sandbox",
        action="store_true",
        help="grade without an OS sandbox (answer code runs with your rights; the report says so)",
    )


def _run_commands(command) -> None:
    sub = command(
        course, "execute every notebook into build/course/ with HTML copies (make course)"
    )
    sub.add_argument("--fast", action="store_true", help="use fast mode (small sizes)")
    sub.add_argument("--out", type=Path, default=None, help="output folder (build/course)")
    sub.add_argument("notebooks", nargs="*", type=Path, help="only these notebooks")

    command(vendor, "fetch the HTML copies' widget renderer from the npm registry (maintainers)")

    sub = command(gpu_check, "measure the lessons on an NVIDIA GPU (the course's GPU reference)")
    sub.add_argument("--out", type=Path, required=True, help="folder for gpu_reference.json")
    sub.add_argument("--notebooks", action="store_true", help="also run every lesson (fast mode)")
    sub.add_argument("--fast", action="store_true", help="small sizes, to try the command")

    sub = command(outline, "update lessons' navigation, slides, run times and the course map")
    sub.add_argument("--timings", type=Path, help="take run times from build/course/timings.json")
    sub.add_argument("--check", action="store_true", help="only list what is out of date")

    sub = command(
        guide, "write the instructor guide's day plans from make course's executed copies"
    )
    sub.add_argument("--executed", type=Path, help="folder of executed lessons (build/course)")
    sub.add_argument("--check", action="store_true", help="only say whether it is out of date")


def _translation_commands(command) -> None:
    sub = command(translate, "list translated cells that are stale, missing or orphaned")
    sub.add_argument("--check", action="store_true", help="only list them (the default)")
    sub.add_argument("--lang", default="zh", help="the language (zh)")
    sub.add_argument("--update", action="store_true", help="add blocks to translate (en=todo)")
    sub.add_argument("--stamp", type=Path, help="a translation file whose revised blocks to mark")
    sub.add_argument("cells", nargs="*", help="with --stamp: only these cells (todo ones too)")

    sub = command(messages, "update the code's message catalogs (.po) and compile them (.mo)")
    sub.add_argument("--check", action="store_true", help="only say what is out of step")
    sub.add_argument(
        "--drop-obsolete", action="store_true", help="delete translations no code asks for"
    )

    sub = command(edition, "write a translated edition of the course (notebooks/<lang>/, README)")
    sub.add_argument("lang", help="the language: zh")
    sub.add_argument("--check", action="store_true", help="only say what is out of date")


def parser() -> argparse.ArgumentParser:
    """The command line: one sub-command per function above, grouped by job."""
    description = "The course's command line. Run a command with --help for its options."
    main = argparse.ArgumentParser(prog="python -m helpers", description=description)
    commands = main.add_subparsers(dest="command", required=True, metavar="command")

    def command(func, text: str) -> argparse.ArgumentParser:
        name = func.__name__.replace("_", "-")
        sub = commands.add_parser(name, help=text, description=text)
        sub.set_defaults(func=func)
        return sub

    for group in (_setup_commands, _homework_commands, _run_commands, _translation_commands):
        group(command)
    return main


def main(argv: list[str] | None = None) -> int:
    cli = parser()
    args, extra = cli.parse_known_args(argv)
    if extra and args.func is not lab:
        cli.error(f"unrecognised arguments: {' '.join(extra)}")
    args.extra = extra
    return args.func(args)
