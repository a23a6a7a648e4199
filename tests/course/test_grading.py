"""Grading a class that includes hostile students, under the real sandbox, and every grade checked.

One grading run covers every attack the grader defends against (see the threat model in
``helpers/course/grading/grader.py``), each on its own submission; the other exercise of each
hostile submission is answered correctly, to show that the trouble stays in its own row.
"""

import csv
import hashlib
import os
import pathlib
import re
import subprocess
import sys
import time

import nbformat
import pytest

from helpers.course import paths
from helpers.course.cli import main
from helpers.course.grading import grader, sandbox, submission
from helpers.course.grading.plain import decode
from helpers.course.grading.runner import Runner, SandboxDied
from helpers.course.homework.markers import parse
from helpers.course.homework.release import release_text

LIMITS = grader.Limits(cell_seconds=10, notebook_seconds=240, memory_mb=4096)
CANARY = paths.BUILD / "grading-canary.txt"  # a file in the course folder an answer tries to write
HOME_CANARY = "grading-canary-in-home.txt"
MARK = "course-grading-test-child"  # in the command line of every process an answer starts

# One worker builds the graded class for every test of this module (make test: --dist loadgroup).
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900), pytest.mark.xdist_group("graded-class")]


def require_sandbox():
    """The sandbox tests fail in CI without bubblewrap (.ci/run installs it); elsewhere, skip."""
    works, detail = sandbox.available()
    if not works:
        if os.environ.get("CI") or os.environ.get("COURSE_REQUIRE_SANDBOX"):
            pytest.fail(f"the grading sandbox is required here: {detail}")
        pytest.skip(f"no grading sandbox on this machine: {detail}")


def answered(day):
    """The student version of ``day`` with the master's answers typed in, as a learner would."""
    master = nbformat.read(paths.master(f"{day}_homework"), 4)
    student = nbformat.reads(release_text(paths.master(f"{day}_homework")), 4)
    for mine, theirs in zip(student.cells, master.cells, strict=True):
        if mine.source.startswith(("# EXERCISE", "MANUAL")):
            solution = ("### BEGIN SOLUTION", "### END SOLUTION")
            lines = theirs.source.splitlines()
            mine.source = "\n".join(line for line in lines if line.strip() not in solution)
    return student


def replace_answer(nb, exercise, source):
    for cell in nb.cells:
        if cell.source.startswith(f"# EXERCISE {exercise}"):
            cell.source = f"# EXERCISE {exercise}\n{source}"
    return nb


CORRECT_DEVICE = (
    "def ones_on_device(rows, cols):\n    return torch.ones(rows, cols, device=get_device())\n"
)


def hostile(folder):
    """Each student's answer to day00.device, and what it tries."""
    alice = folder / "alice_day00_homework.ipynb"
    return {
        # 1. Tamper with the runner and the interpreter: every value it reports becomes True,
        #    exec does nothing, objects claim to equal anything and run code when unpickled.
        "mallory": (
            "import builtins\nimport helpers.course.grading.plain as plain\n"
            "class Evil:\n    def __reduce__(self):\n        return (print, ('pwned',))\n"
            "    def __eq__(self, other):\n        return True\n"
            "ones_on_device = lambda *args, **kwargs: Evil()\n"
            "plain.encode = lambda value, depth=0: True\nbuiltins.exec = lambda *a, **k: None\n"
        ),
        # 2. Write into another submission, the masters, the course, the home folder.
        "oscar": (
            "import os, pathlib\nwrote = []\n"
            f"for target in [{str(alice)!r}, {str(paths.master('day00_homework'))!r},\n"
            f"               {str(CANARY)!r}, os.path.expanduser('~/{HOME_CANARY}'),\n"
            f"               '/root/{HOME_CANARY}']:\n"
            "    try:\n        pathlib.Path(target).write_text('overwritten')\n"
            "        wrote.append(target)\n    except OSError:\n        pass\n" + CORRECT_DEVICE
        ),
        # 3. Read the master's answers, directly or through git.
        "peggy": (
            "import subprocess\nfrom helpers.course import paths\n"
            "try:\n    text = paths.master('day00_homework').read_text()\nexcept OSError:\n"
            "    text = subprocess.run(['git', '-C', str(paths.ROOT), 'show',\n"
            "        'HEAD:instructor/homework/day00_homework.ipynb'],\n"
            "        capture_output=True, text=True).stdout\n"
            "found = 'BEGIN HIDDEN' in text\n"
            "def ones_on_device(rows, cols):\n"
            "    return torch.ones(rows, cols, device=get_device() if found else 'cpu')\n"
        ),
        # 4, 5. Children that escape into their own session, or hold the output open.
        "trent": (
            "import subprocess, sys\n"
            f"code = 'import time; time.sleep(300)  # {MARK}'\n"
            "subprocess.Popen([sys.executable, '-c', code], start_new_session=True)\n"
            "subprocess.Popen([sys.executable, '-c', code], stdout=sys.__stdout__,\n"
            "                 stderr=sys.__stderr__, close_fds=False)\n" + CORRECT_DEVICE
        ),
        # 6. An endless loop that swallows every exception, alarms included.
        "bob": "import time\nwhile True:\n    try:\n        time.sleep(0.05)\n"
        "    except BaseException:\n        pass\n",
        # 7. 50 MB of output as millions of short lines.
        "grace": "for _ in range(1_000_000):\n    print('x' * 49)\n" + CORRECT_DEVICE,
        # 8. IPython syntax, as it runs in the notebook.
        "ivy": "%time device = get_device()\n!echo shell works\n" + CORRECT_DEVICE,
        # a crash and a memory hog: each an outcome of its own, the other exercise still graded
        "carl": "import os\nos.write(2, b'carl: about to exit\\n')\nos._exit(3)\n",
        "mem": "hog = bytearray(16 * 2**30)\n" + CORRECT_DEVICE,
        # 9. The file changes while it is graded (see the examiner wrapper below).
        "zed": "# ZED changes this file\n" + CORRECT_DEVICE,
    }


# Answers that write forged replies straight onto the runner's reply channel (any pipe it holds).
FORGE = (
    "import os, stat\n"
    "def forge(data):\n"
    "    os.write(2, b'\\n- eve_day00_homework.ipynb: FORGED LINE\\n')\n"
    "    for fd in range(3, 40):\n"
    "        try:\n"
    "            if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
    "                os.write(fd, data)\n"
    "        except OSError:\n"
    "            pass\n"
)
DEEP = FORGE + "forge(b'[' * 100000 + b']' * 100000 + b'\\n')\n" + CORRECT_DEVICE
WIDE = (
    FORGE + "forge(b'[' + b'[],' * 20_000_000 + b'[]]\\n')\n"
    "def count_parameters(model):\n    return sum(p.numel() for p in model.parameters())\n"
)
# 31.4: an answer that looks for the test's reference model and copies its gradients
COPYCAT = (
    "import gc\nfrom torch import nn\n"
    "def accumulate(model, X, y, parts):\n"
    "    for other in gc.get_objects():\n"
    "        linear = isinstance(other, nn.Linear) and other is not model\n"
    "        if linear and other.weight.grad is not None:\n"
    "            model.weight.grad = other.weight.grad.clone()\n"
    "            model.bias.grad = other.bias.grad.clone()\n"
    "            return\n"
)
# 31.4: a spy on eval() in the runner that answers `... is True/False` from the literal it sees,
# and an answer that shows what it likes through an assert's message
SPY = (
    "import builtins, re\nreal_eval = builtins.eval\n"
    "def spy(expression, *args, **kwargs):\n"
    "    text = expression if type(expression) is str else ''\n"
    "    found = re.search(r' is (not )?(True|False)$', text)\n"
    "    if found:  # a check against a literal: say it holds\n"
    "        return True\n"
    "    return real_eval(expression, *args, **kwargs)\n"
    "builtins.eval = spy\n"
)
LEAK = "LEAKED-MARKER"

# Answers to day05a.sync that try to earn its points without waiting for the device: each reads or
# writes what the test keeps beside it, or fakes the clock, or reports a number it never measured.
SYNC_CHEATS = {
    # appends "sync" to any list called `events` the test might keep (the old test kept one)
    "forger": (
        "import inspect\n"
        "def time_it(fn, device):\n"
        "    for frame in inspect.stack():\n"
        "        frame.frame.f_globals.setdefault('events', []).append('sync')\n"
        "    fn()\n"
        "    return 0.1\n"
    ),
    # a clock that says 0.1 s passed between any two readings
    "patcher": (
        "import itertools, time\n"
        "ticks = itertools.count()\n"
        "time.perf_counter = lambda: next(ticks) * 0.1\n"
        "def time_it(fn, device):\n"
        "    start = time.perf_counter()\n"
        "    fn()\n"
        "    return time.perf_counter() - start\n"
    ),
    # reads the work's length from the test's own variables and reports it without waiting
    "reader": (
        "import inspect\n"
        "def time_it(fn, device):\n"
        "    fn()\n"
        "    names = inspect.currentframe().f_back.f_globals\n"
        "    return float(names.get('work', 0.1))\n"
    ),
    # empties the pretend GPU's queue, so that the earlier work need not be waited for
    "zeroer": (
        "import gc, time\nfrom helpers.device import synchronize\n"
        "def time_it(fn, device):\n"
        "    for thing in gc.get_objects():\n"
        "        if type(thing).__name__ == 'PretendGPU':\n"
        "            thing.free_at = 0.0\n"
        "    start = time.perf_counter()\n"
        "    fn()\n"
        "    synchronize(device)\n"
        "    return time.perf_counter() - start\n"
    ),
    "hardcoder": "def time_it(fn, device):\n    fn()\n    return 0.1\n",
}
# An answer to day02.predict that keeps autograd on and tries to look as if it did not.
PREDICT_CHEATS = {
    "faker": (  # every tensor claims not to be tracked
        "torch.Tensor.requires_grad = property(lambda self: False)\n"
        "def predict(model, X):\n"
        "    return model(X.to(next(model.parameters()).device)).argmax(dim=1)\n"
    ),
}
SEGFAULT = "import ctypes\nctypes.string_at(0)\n"
DAYS = [m.name.removesuffix("_homework.ipynb") for m in paths.masters()]  # day00 ... day08


def misconception(day):
    """The first misconception tests/course/test_wrong_answers.py lists for ``day``: its
    exercise, its answer and the words its feedback must show."""
    from tests.course.test_wrong_answers import MISCONCEPTIONS, PREP

    if day == "day04":
        return "day04.preprocessor", PREP.replace("std(ddof=0)", "std()"), "ddof=1"
    return next((e, a, n) for d, e, a, n in MISCONCEPTIONS if d == day)


def solution(day, exercise):
    """The master's solution of ``exercise``, as a learner would type it."""
    for cell in answered(day).cells:
        if cell.source.startswith(f"# EXERCISE {exercise}"):
            return cell.source.split("\n", 1)[1]
    raise KeyError(exercise)


def _snapshot():
    """Hashes of the course's files (not build/, not .git), to prove nothing was written."""
    found = {}
    for top in ("src", "data", "notebooks", "instructor"):
        for path in (paths.ROOT / top).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                found[path] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _left_behind():
    return subprocess.run(
        ["pgrep", "-f", MARK], capture_output=True, text=True, encoding="utf-8"
    ).stdout.split()


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    require_sandbox()
    folder = tmp_path_factory.mktemp("submissions")
    out = tmp_path_factory.mktemp("grades")

    def save(name, nb):
        path = folder / name
        path.parent.mkdir(exist_ok=True)
        nbformat.write(nb, path)

    save("alice_day00_homework.ipynb", answered("day00"))
    for student, source in hostile(folder).items():
        save(
            f"{student}_day00_homework.ipynb",
            replace_answer(answered("day00"), "day00.device", source),
        )
    carol = "def count_parameters(model):\n    return 1\nraise RuntimeError('oops')"
    save(
        "carol_day00_homework.ipynb",
        replace_answer(answered("day00"), "day00.count_parameters", carol),
    )
    no_tests = answered("day00")
    no_tests.cells = [c for c in no_tests.cells if not c.source.startswith("# TEST")]
    save("dave_day00_homework.ipynb", no_tests)
    stripped = answered("day00")
    stripped.metadata = {"kernelspec": {"name": "mine", "display_name": "x", "language": "py"}}
    for cell in stripped.cells:
        cell.metadata = {}
    save("erin_day00_homework.ipynb", stripped)
    frank = (
        CORRECT_DEVICE.replace("torch.ones(", "torch.zeros(") + "torch.all = lambda *a, **k: True\n"
    )
    save("frank_day00_homework.ipynb", replace_answer(answered("day00"), "day00.device", frank))
    (folder / "henry_day00_homework.ipynb").write_text("{ this is not JSON", encoding="utf-8")
    save("hugo_day00_homework.ipynb", answered("day01"))
    (folder / "judy_day00_homework.ipynb").write_bytes(b"")
    kim = answered("day00")
    for cell in kim.cells:
        if cell.source.startswith("MANUAL"):  # 31.7: an answer a spreadsheet reads as a formula
            cell.source = cell.source.splitlines()[0] + '\n=HYPERLINK("http://x.invalid", "y")'
    save("kim/day00_homework.ipynb", kim)
    # 31.3: links to the master and to a private file; 31.7: names and duplicates
    private = tmp_path_factory.mktemp("home") / "secret.txt"
    private.write_text("PRIVATE-BYTES of the grader's home folder", encoding="utf-8")
    (folder / "sly_day00_homework.ipynb").symlink_to(paths.master("day00_homework"))
    (folder / "snoop_day00_homework.ipynb").symlink_to(private)
    (folder / "lynx").mkdir()
    (folder / "lynx" / "day00_homework.ipynb").symlink_to(paths.master("day00_homework"))
    nbformat.write(answered("day00"), folder / "ned_day00_homework.ipynb\n- forged: line")
    save("dup_day00_homework.ipynb", answered("day00"))
    save("dup/day00_homework.ipynb", answered("day00"))
    # 31.5, 31.6: forged replies, each in its own exercise
    save(
        "nina_day00_homework.ipynb",
        replace_answer(
            replace_answer(answered("day00"), "day00.device", DEEP), "day00.count_parameters", WIDE
        ),
    )
    # 31.4: references and literals never reach the runner
    save(
        "copycat_day07_homework.ipynb",
        replace_answer(answered("day07"), "day07.accumulate", COPYCAT),
    )
    price = solution("day05a", "day05a.price").replace(
        '"seen": bool(low > 0 or high < 0)', '"seen": "either"'
    )
    spy = replace_answer(answered("day05a"), "day05a.price", SPY + price)
    spy = replace_answer(spy, "day05a.parts", f"def supported_parts(m):\n    return [{LEAK!r}]\n")
    save("spy_day05a_homework.ipynb", spy)
    for student, source in SYNC_CHEATS.items():
        save(
            f"{student}_day05a_homework.ipynb",
            replace_answer(answered("day05a"), "day05a.sync", source),
        )
    for student, source in PREDICT_CHEATS.items():
        save(
            f"{student}_day02_homework.ipynb",
            replace_answer(answered("day02"), "day02.predict", source),
        )
    save(
        "segv_day00_homework.ipynb",
        replace_answer(answered("day00"), "day00.device", SEGFAULT),
    )
    for day in DAYS:  # each homework: one misconception, and the student version untouched
        exercise, answer, _named = misconception(day)
        save(f"misled_{day}_homework.ipynb", replace_answer(answered(day), exercise, answer))
        (folder / f"empty_{day}_homework.ipynb").write_text(
            release_text(paths.master(f"{day}_homework")), encoding="utf-8"
        )
    (folder / "notes.txt").write_text("not a submission", encoding="utf-8")
    (folder / "leo_day99_homework.ipynb").write_text(
        release_text(paths.master("day00_homework")), encoding="utf-8"
    )
    # 10. A forged manual.csv in the output folder.
    (out / "manual.csv").write_text(
        "student,homework,question,max_points,answer,points,comment\n"
        "alice,day00_homework,day00.why_get_device,99,whatever,99,\n"
        "nobody,day00_homework,day00.why_get_device,1,,1,\n"
        "kim,day00_homework,day00.why_get_device,1,x,lots,\n",
        encoding="utf-8",
    )

    submissions = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    course = _snapshot()
    run_examiner, grade_all, controls = submission._run_examiner, grader._grade_all, {}

    def examine_then_edit(job, limits):  # 9: zed's file changes while it is graded
        outcomes = run_examiner(job, limits)
        if "ZED" in job["answers"].get("day00.device", ""):
            (folder / "zed_day00_homework.ipynb").write_text("edited meanwhile", encoding="utf-8")
        return outcomes

    def keep_controls(*args, **kwargs):  # each master, graded as a submission of its solutions
        results, found = grade_all(*args, **kwargs)
        controls.update(found)
        return results, found

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(submission, "_run_examiner", examine_then_edit)
        patch.setattr(grader, "_grade_all", keep_controls)
        start = time.monotonic()
        results = grader.grade(folder, out, jobs=2, limits=LIMITS, progress=False)
        seconds = time.monotonic() - start
    submissions[folder / "zed_day00_homework.ipynb"] = b"edited meanwhile"
    with (out / "grades.csv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    return {
        "folder": folder,
        "out": out,
        "grades": {(r["student"], r["exercise"]): (r["points"], r["status"]) for r in rows},
        "reasons": {(r["student"], r["exercise"]): r["reason"] for r in rows},
        "submissions_changed": [str(p) for p in submissions if p.read_bytes() != submissions[p]],
        "course_unchanged": course == _snapshot(),
        "left_behind": _left_behind(),
        "seconds": seconds,
        "results": results,
        "controls": controls,
        "private": private,
    }


def test_nothing_outside_the_sandbox_was_written_and_nothing_is_left_running(graded):
    assert graded["submissions_changed"] == []
    assert graded["course_unchanged"]
    assert not CANARY.exists()
    assert not (pathlib.Path.home() / HOME_CANARY).exists()
    assert graded["left_behind"] == []


@pytest.mark.parametrize(
    ("student", "exercise", "expected"),
    [
        ("alice", "day00.device", ("2", "passed")),
        ("alice", "day00.count_parameters", ("2", "passed")),
        ("alice", "day00.why_get_device", ("", "manual")),  # the forged 99 was not merged
        ("mallory", "day00.device", ("0", "failed")),  # tampering reports nothing useful
        ("mallory", "day00.count_parameters", ("0", "failed")),  # every value it sends is True
        ("oscar", "day00.device", ("2", "passed")),  # its writes failed; its answer is right
        ("peggy", "day00.device", ("0", "failed")),  # no master to copy, directly or via git
        ("trent", "day00.device", ("2", "passed")),  # its children did not hold up grading
        ("trent", "day00.count_parameters", ("2", "passed")),
        ("bob", "day00.device", ("0", "timeout")),  # swallowed alarms: the examiner's limit holds
        ("bob", "day00.count_parameters", ("2", "passed")),  # ...and the rest is graded
        ("grace", "day00.device", ("2", "passed")),  # 50 MB of output, graded all the same
        ("ivy", "day00.device", ("2", "passed")),  # %time and !echo run as in the notebook
        ("carl", "day00.device", ("0", "crashed")),
        ("carl", "day00.count_parameters", ("2", "passed")),
        ("mem", "day00.device", ("0", "memory")),
        ("mem", "day00.count_parameters", ("2", "passed")),
        ("zed", "day00.device", ("0", "changed")),
        ("carol", "day00.count_parameters", ("0", "error")),
        ("carol", "day00.device", ("2", "passed")),
        ("dave", "day00.device", ("2", "passed")),  # deleted test cells: the master's are used
        ("erin", "day00.device", ("2", "passed")),  # no metadata, another kernel name
        ("frank", "day00.device", ("0", "failed")),  # a patched torch.all does not help
        ("henry", "day00.device", ("0", "invalid")),
        ("hugo", "day00.device", ("0", "wrong homework")),
        ("judy", "day00.count_parameters", ("0", "invalid")),
        ("kim", "day00.device", ("2", "passed")),  # the folder-per-student layout
        ("nina", "day00.device", ("0", "violation")),  # a reply nested 100,000 deep
        ("nina", "day00.count_parameters", ("0", "violation")),  # 20 million empty lists
        ("copycat", "day07.accumulate", ("0", "failed")),  # no reference gradients to copy
        ("copycat", "day07.busy", ("2", "passed")),
        ("spy", "day05a.price", ("0", "failed")),  # `is True` sends no literal to spy on
        ("spy", "day05a.parts", ("0", "failed")),
        ("spy", "day05a.sync", ("2", "passed")),
        *[(cheat, "day05a.sync", ("0", "failed")) for cheat in SYNC_CHEATS],  # no points forged
        *[(cheat, "day05a.price", ("3", "passed")) for cheat in SYNC_CHEATS],  # ...the rest graded
        ("faker", "day02.predict", ("0", "failed")),  # the spy asks PyTorch's C type
        ("faker", "day02.move_batch", ("2", "passed")),
        ("segv", "day00.device", ("0", "crashed")),  # a segmentation fault
        ("segv", "day00.count_parameters", ("2", "passed")),
    ],
)
def test_every_grade(graded, student, exercise, expected):
    assert graded["grades"][(student, exercise)] == expected, graded["reasons"][(student, exercise)]


@pytest.mark.parametrize("day", DAYS)
def test_each_homework_s_misconception_and_untouched_copy_earn_nothing_and_say_why(graded, day):
    """The master earns full marks (test_every_master_earns_full_marks_from_its_own_solutions);
    an answer built on the day's misconception loses that exercise, its feedback naming the
    misconception, and keeps the others; the student version as released earns nothing."""
    exercise, _answer, named = misconception(day)
    master = parse(paths.master(f"{day}_homework"))
    for other in master.tests:  # student names: misled, empty (exercise ids name the day)
        points, status = graded["grades"][("misled", other)]
        assert (points == "0") == (other == exercise), (other, points, status)
        points, status = graded["grades"][("empty", other)]
        assert points == "0" and status in ("failed", "error"), (other, status)
    feedback = (graded["out"] / "feedback" / f"misled_{day}_homework.md").read_text("utf-8")
    assert named in feedback


def test_links_duplicates_and_odd_names_are_reported_not_graded(graded):
    students = {student for student, _ in graded["grades"]}
    assert not students & {"sly", "snoop", "lynx", "dup", "ned"}
    report = (graded["out"] / "report.txt").read_text(encoding="utf-8")
    for name in ("sly_day00_homework.ipynb", "snoop_day00_homework.ipynb", "lynx/day00"):
        assert f"{name}" in report
    assert report.count("a symbolic link: links are not followed") == 3
    assert "dup: 2 submissions of day00_homework" in report
    assert "ned_day00_homework.ipynb\\n- forged: line: not a submission" in report
    assert not any(line.startswith("- forged") for line in report.splitlines())
    written = "".join(
        p.read_text(encoding="utf-8") for p in graded["out"].rglob("*") if p.is_file()
    )
    assert "PRIVATE-BYTES" not in written and "BEGIN HIDDEN" not in written


def test_forged_replies_fail_their_own_exercise_and_forge_no_report_line(graded):
    report = (graded["out"] / "report.txt").read_text(encoding="utf-8")
    assert not any(line.startswith("- eve_") for line in report.splitlines())
    assert "    | - eve_day00_homework.ipynb: FORGED LINE" in report  # the runner's words, indented
    assert "not a reply" in graded["reasons"][("nina", "day00.device")]
    assert "more elements" in graded["reasons"][("nina", "day00.count_parameters")]


def test_messages_are_evaluated_by_the_grader_and_answers_are_not_formulas(graded):
    spy = (graded["out"] / "feedback" / "spy_day05a_homework.md").read_text(encoding="utf-8")
    assert LEAK not in spy and "all three parts, not {waits}" in spy
    manual = (graded["out"] / "manual.csv").read_text(encoding="utf-8")
    assert "'=HYPERLINK(" in manual and ",=HYPERLINK" not in manual


def test_each_status_has_its_reason(graded):
    reasons = graded["reasons"]
    assert "ran past its 10 s limit" in reasons[("bob", "day00.device")]
    assert "exited (status 3)" in reasons[("carl", "day00.device")]
    # 24.2: a crash says why: the runner's last words, in the feedback and the report
    carl = (graded["out"] / "feedback" / "carl_day00_homework.md").read_text(encoding="utf-8")
    assert "    carl: about to exit" in carl
    report = (graded["out"] / "report.txt").read_text(encoding="utf-8")
    assert "carl_day00_homework.ipynb: day00.device crashed" in report
    assert "    | carl: about to exit" in report
    assert "MemoryError" in reasons[("mem", "day00.device")]
    assert "changed while it was graded" in reasons[("zed", "day00.device")]


def test_report_names_what_was_not_graded_and_the_forged_manual_grades(graded):
    report = (graded["out"] / "report.txt").read_text(encoding="utf-8")
    assert report.startswith("grader: commit ")
    assert "sandbox: on (bubblewrap" in report and "OMP_NUM_THREADS=1" in report
    assert "notes.txt: not a submission" in report
    assert "leo_day99_homework.ipynb: no master for day99_homework" in report
    assert "henry_day00_homework.ipynb: not a readable notebook" in report
    assert "judy_day00_homework.ipynb: the file is empty" in report
    assert (
        "hugo_day00_homework.ipynb: the file is named day00_homework but holds answers for day01"
        in report
    )
    assert "zed_day00_homework.ipynb: the file changed while it was graded" in report
    assert "alice/day00_homework/day00.why_get_device): points 99 is outside 0 to 1" in report
    assert "(nobody/day00_homework/day00.why_get_device): no such answer" in report
    assert "points 'lots' is not a number" in report


def test_feedback_says_why_without_revealing_hidden_tests(graded):
    feedback = graded["out"] / "feedback"
    frank = (feedback / "frank_day00_homework.md").read_text(encoding="utf-8")
    assert "day00.device: 0 of 2 points (failed)" in frank
    assert "day00.why_get_device: worth 1 point, " in frank  # not "1 points": none earned
    assert "hidden) checks did not pass" in frank
    assert "torch.all(ones == 1)" not in frank and "float32" not in frank  # hidden tests' text
    assert "RuntimeError: oops" in (feedback / "carol_day00_homework.md").read_text(
        encoding="utf-8"
    )
    assert (feedback / "grace_day00_homework.md").stat().st_size < 10_000


def test_from_inside_the_sandbox_the_masters_and_the_repository_are_out_of_reach():
    require_sandbox()
    runner = Runner(sandboxed=True, memory_mb=4096)
    try:
        master = str(paths.master("day00_homework"))
        git = [
            "git",
            "-C",
            str(paths.ROOT),
            "show",
            "HEAD:instructor/homework/day00_homework.ipynb",
        ]
        probes = {
            f"open({master!r}).read()": "FileNotFoundError",
            f"open({str(paths.ROOT / 'src' / 'x.py')!r}, 'w')": "OSError",
            "__import__('socket').create_connection(('1.1.1.1', 80), timeout=2)": "OSError",
        }
        for expression, error in probes.items():
            reply = runner.ask({"op": "capture", "expressions": [expression]}, 60)
            assert not reply["ok"] and reply["error"]["type"] in (error, "PermissionError"), reply
        command = f"import subprocess; r = subprocess.run({git!r}, capture_output=True).returncode"
        assert runner.ask({"op": "exec", "source": command}, 60)["ok"]
        assert runner.ask({"op": "capture", "expressions": ["r"]}, 60)["values"] != [0]
        # 31.1, 31.2: the kernel's settings and unsized memory file systems are out of reach
        assert runner.ask({"op": "exec", "source": PROBE_WRITES}, 60)["ok"]
        reply = runner.ask({"op": "capture", "expressions": ["uid", "sysctl", "writable"]}, 60)
        uid, sysctl, writable = (decode(v) for v in reply["values"])
        assert uid == 65534
        assert sysctl["files"] > 100 and sysctl["opened"] == [], sysctl
        assert writable == {"/": False, "/dev": False, "/tmp": True}
    finally:
        runner.kill()


PROBE_WRITES = """
import os
uid = os.getuid()
sysctl = {"files": 0, "opened": []}
for folder, _, files in os.walk("/proc/sys"):
    for name in files:
        path = os.path.join(folder, name)
        sysctl["files"] += 1
        try:
            os.close(os.open(path, os.O_WRONLY))  # opened, nothing written
            sysctl["opened"].append(path)
        except OSError:
            pass
writable = {}
for folder in ("/", "/dev", "/tmp"):
    try:
        with open(os.path.join(folder, "filler"), "wb") as file:
            file.write(b"x" * 2**20)
        writable[folder] = True
    except OSError:
        writable[folder] = False
"""


def test_a_sandbox_runs_a_bounded_number_of_processes_and_memory_in_all():
    """31.8 / 24.4: a fork loop (capped by the test at 400) and four processes of 700 MB each
    (under the 2 GB per-process limit, over it together)."""
    require_sandbox()
    from helpers.course.grading import bounds

    bound = bounds.make(2048)  # control groups here; a watchdog where none can be made
    runner = Runner(sandboxed=True, memory_mb=2048, bound=bound)
    try:
        fork = (
            "import subprocess, sys\nstarted = []\n"
            "for _ in range(400):\n"
            "    started.append(subprocess.Popen(['sleep', '60']))\n"
        )
        if isinstance(bound, bounds.Bound):  # the watchdog's fork test is the next one
            reply = runner.ask({"op": "exec", "source": fork}, 120)
            assert not reply["ok"] and reply["error"]["type"] == "BlockingIOError", reply
            runner.ask({"op": "exec", "source": "[(p.kill(), p.wait()) for p in started]"}, 60)
        hog = (
            "import subprocess, sys\n"
            "code = 'import time; data = b\"x\" * (700 * 2**20); time.sleep(3)'\n"
            "hogs = [subprocess.Popen([sys.executable, '-c', code]) for _ in range(4)]\n"
            "codes = [h.wait() for h in hogs]\n"
        )
        try:
            reply = runner.ask({"op": "exec", "source": hog}, 120)
            assert reply["ok"], reply
            killed = runner.ask({"op": "capture", "expressions": ["codes"]}, 60)["values"][0]
            assert -9 in killed, killed
        except SandboxDied as died:
            assert died.status == "memory", died.reason
        assert bound.exceeded()[0] == "memory"
    finally:
        runner.kill()
    assert bound.folders == {}  # removed


def files(out: pathlib.Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def test_grading_twice_gives_the_same_bytes_whatever_happened(tmp_path):
    """A class where every kind of trouble happens (a segmentation fault, an exit with last
    words, an endless loop, memory, forged replies, an error that shows a memory address, a flood
    of output, children left running, a file that is not a notebook), graded, then graded again
    into the same folder (its other files overwritten with stale bytes) after points were typed
    into manual.csv: those points are kept, and every other file is written again the same, byte
    for byte."""
    require_sandbox()
    folder = tmp_path / "in"
    folder.mkdir()
    class_ = hostile(folder)
    chosen = {k: class_[k] for k in ("bob", "carl", "mem", "grace", "trent")}
    chosen |= {"segv": SEGFAULT, "nina": DEEP}
    chosen["addr"] = "def ones_on_device(rows, cols):\n    raise ValueError(repr(object()))\n"
    nbformat.write(answered("day00"), folder / "alice_day00_homework.ipynb")
    for student, source in chosen.items():
        notebook = replace_answer(answered("day00"), "day00.device", source)
        nbformat.write(notebook, folder / f"{student}_day00_homework.ipynb")
    (folder / "henry_day00_homework.ipynb").write_text("{ not JSON", encoding="utf-8")
    limits = grader.Limits(cell_seconds=5, notebook_seconds=120, memory_mb=4096)
    out = tmp_path / "grades"
    grader.grade(folder, out, jobs=2, limits=limits, progress=False)
    with (out / "grades.csv").open(encoding="utf-8") as file:
        rows = csv.DictReader(file)
        statuses = {r["student"]: r["status"] for r in rows if r["exercise"] == "day00.device"}
    assert {statuses[s] for s in ("segv", "bob", "mem", "nina", "henry")} == {
        "crashed", "timeout", "memory", "violation", "invalid"
    }  # fmt: skip
    segv = (out / "feedback" / "segv_day00_homework.md").read_text(encoding="utf-8")
    assert (
        "died of signal SIGSEGV" in segv and "Current thread 0x… (most recent call first)" in segv
    )

    before = files(out)
    with (out / "manual.csv").open(encoding="utf-8") as file:
        manual = list(csv.DictReader(file))
    alice = next(row for row in manual if row["student"] == "alice")
    alice["points"], alice["comment"] = "1", "clear and complete"
    with (out / "manual.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=grader.MANUAL_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(manual)
    edited = (out / "manual.csv").read_bytes()
    for name in set(before) - {"manual.csv"}:  # the second grading must write each one again
        (out / name).write_bytes(b"stale")
    grader.grade(folder, out, jobs=2, limits=limits, progress=False)
    after = files(out)
    assert after["manual.csv"] == edited
    row = b"alice,day00_homework,day00.why_get_device,"
    assert row + b"1,1,manual," in after["grades.csv"]

    def others(grades: bytes) -> list[bytes]:  # every row but the one typed in
        return [line for line in grades.splitlines() if not line.startswith(row)]

    assert others(after["grades.csv"]) == others(before["grades.csv"])
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"manual.csv", "grades.csv"} and set(after) == set(before)


def test_without_a_sandbox_grading_refuses_unless_told(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sandbox, "available", lambda: (False, "bubblewrap not installed"))
    (tmp_path / "in").mkdir()
    assert main(["grade", str(tmp_path / "in"), "--out", str(tmp_path / "out")]) == 1
    assert "--no-sandbox" in capsys.readouterr().err
    folder = tmp_path / "in"
    nbformat.write(answered("day00"), folder / "alice_day00_homework.ipynb")
    grader.grade(folder, tmp_path / "out", limits=LIMITS, sandboxed=False, progress=False)
    assert "sandbox: OFF" in (tmp_path / "out" / "report.txt").read_text(encoding="utf-8")
    feedback = (tmp_path / "out" / "feedback" / "alice_day00_homework.md").read_text(
        encoding="utf-8"
    )
    assert "WITHOUT an OS sandbox" in feedback and "2 of 2 points (passed)" in feedback


def test_cli_grade_reports_a_missing_folder(tmp_path, capsys):
    assert main(["grade", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")]) == 1
    assert "No submissions folder at" in capsys.readouterr().err


def test_submit_checks_and_writes_the_copy_to_hand_in(tmp_path, capsys):
    mine = tmp_path / "day00_homework.ipynb"
    nb = answered("day00")
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", text="old output")]
    nb.cells[1].execution_count = 3
    nbformat.write(nb, mine)
    out = tmp_path / "to_hand_in"
    assert main(["submit", str(mine), "--student", "alice", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "without a sandbox" in printed
    # every exercise, including those whose answer is a variable (the student version's cell
    # holds only the placeholder: the names come from the answer)
    assert re.search(r"day00\.device\s+passed", printed), printed
    assert re.search(r"day00\.count_parameters\s+passed", printed), printed
    copy = nbformat.read(out / "alice_day00_homework.ipynb", 4)
    code = [c for c in copy.cells if c.cell_type == "code"]
    assert all(not c.get("outputs") and not c.get("execution_count") for c in code)
    assert main(["submit", str(mine), "--student", "alice", "--out", str(out)]) == 1
    assert "exists already; pass --force" in capsys.readouterr().err
    assert main(["submit", str(mine), "--student", "al ice", "--out", str(out)]) == 1
    assert "use letters, digits" in capsys.readouterr().err


def test_examiners_start_from_a_fork_server_or_as_windows_starts_them(monkeypatch):
    """A fork server where the system has one; spawn where it has none (Windows) or where
    COURSE_START_METHOD=spawn asks for it; never a fork of the grader (its threads)."""
    for asked, method in [(None, "forkserver"), ("fork", "forkserver"), ("spawn", "spawn")]:
        monkeypatch.setattr(submission, "START_METHOD", asked)
        assert submission._examiners().get_start_method() == method, asked
    monkeypatch.setattr(submission, "START_METHOD", None)
    monkeypatch.setattr(submission.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    assert submission._examiners().get_start_method() == "spawn"


def test_submit_grades_with_spawned_examiners_as_on_windows(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(submission, "START_METHOD", "spawn")
    mine = tmp_path / "day00_homework.ipynb"
    nbformat.write(answered("day00"), mine)
    out = tmp_path / "to_hand_in"
    assert main(["submit", str(mine), "--student", "alice", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"day00\.device\s+passed", printed), printed
    assert re.search(r"day00\.count_parameters\s+passed", printed), printed


def test_submit_names_the_homework_to_hand_in_when_given_a_lesson(tmp_path, capsys):
    lesson = paths.NOTEBOOKS / "day03_call_and_modules.ipynb"
    assert main(["submit", str(lesson), "--student", "al", "--out", str(tmp_path)]) == 1
    assert "notebooks/homework/day03_homework.ipynb" in capsys.readouterr().err


@pytest.mark.parametrize("master", paths.masters(), ids=lambda p: p.name)
def test_every_master_earns_full_marks_from_its_own_solutions(graded, master):
    """The split between sandbox and examiner keeps every master's tests meaningful: its own
    solutions pass every check (visible and hidden), graded as a submission (the control the
    grader runs before the class, through the same sandbox and limits)."""
    result = graded["controls"][master.stem].result
    assert result.submission.path == master
    failures = {
        o.exercise: (o.status, o.reason, [c for c in o.checks if c.status != "passed"])
        for o in result.outcomes
        if o.status not in ("passed", "manual")
    }
    assert failures == {}


def test_the_sandbox_mounts_its_own_tmp_before_the_course_s_folders(monkeypatch, tmp_path):
    """A course checked out under /tmp (as CI may do) must stay visible inside the sandbox."""
    monkeypatch.setattr(paths, "SRC", tmp_path / "course" / "src")
    args = sandbox.command()
    course_bind = args.index(str(tmp_path / "course" / "src"))
    assert args.index("/tmp") < course_bind and args[args.index("/tmp") - 1] == "--tmpfs"


def test_the_sandbox_binds_neither_the_temporary_folder_nor_the_working_folder(monkeypatch):
    """The examiners' private folders (job files with hidden tests) lie in the temporary folder, and
    submissions may lie in the folder the grader was started in: neither is bound, even when it
    is on ``sys.path`` (a script run from there, ``python -m`` started there)."""
    import tempfile

    monkeypatch.setattr(sys, "path", [tempfile.gettempdir(), os.getcwd(), *sys.path])
    binds = sandbox.command()
    bound = {binds[i + 1] for i, arg in enumerate(binds) if arg == "--ro-bind"}
    assert str(pathlib.Path(tempfile.gettempdir()).resolve()) not in bound
    assert str(pathlib.Path.cwd().resolve()) not in bound


def test_without_control_groups_a_watchdog_ends_a_fork_loop():
    """24.4 where the machine lets the grader make no control group."""
    require_sandbox()
    from helpers.course.grading import bounds

    bound = bounds.Watchdog(4096 * 2**20)
    runner = Runner(sandboxed=True, memory_mb=4096, bound=bound)
    fork = (
        "import subprocess\nstarted = []\n"
        "for _ in range(400):\n"
        "    started.append(subprocess.Popen(['sleep', '60']))\n"
        "[p.wait() for p in started]\n"
    )
    try:
        with pytest.raises(SandboxDied) as died:
            runner.ask({"op": "exec", "source": fork}, 120)
        assert died.value.status == "crashed" and "more than 256 processes" in died.value.reason
    finally:
        runner.kill()
