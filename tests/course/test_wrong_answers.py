"""Tests of the homework tests: a wrong answer that a master's tests (hidden ones included) must
reject, run in-process against the master's own test cell."""

import functools

import pytest

from helpers.course import paths
from helpers.course.homework.checks import run_statements
from helpers.course.homework.markers import EXERCISE_RE, TEST_RE, parse


@functools.cache
def set_up(homework: str) -> tuple:
    """The parsed master and its set-up cells' variables, as a learner's kernel has them."""
    master = parse(paths.master(homework))
    env = {"__name__": "__main__"}
    for cell in master.notebook.cells:  # the set-up cells, as a learner runs them
        first = cell.source.splitlines()[0] if cell.source else ""
        if cell.cell_type == "code" and not (
            EXERCISE_RE.match(first) or TEST_RE.match(first) or first.startswith("check(")
        ):
            exec(cell.source, env)  # noqa: S102 - the course's own master
    return master, env


def outcomes(homework: str, exercise_id: str, answer: str) -> list:
    """Every check of ``exercise_id``'s test cell, hidden ones too, run against ``answer``."""
    master, ready = set_up(homework)
    env = dict(ready)
    exec(answer, env)  # noqa: S102
    return run_statements(master.source(master.tests[exercise_id]), env, exercise_id)


PREDICT_RIGHT = """
def predict(model, X):
    X = X.to(next(model.parameters()).device)
    with torch.no_grad():
        return model(X).argmax(dim=1)
"""
PREDICT_TRACKS_GRADIENTS = """
def predict(model, X):
    return model(X.to(next(model.parameters()).device)).argmax(dim=1)
"""

PREP_RIGHT = """
class MyPreprocessor:
    def __init__(self):
        self.medians = None

    def __call__(self, X, is_train):
        X = X[HEART_FEATURES]
        if is_train:
            self.medians = X.median()
            filled = X.fillna(self.medians)
            self.means, self.stds = filled.mean(), filled.std(ddof=0)
        elif self.medians is None:
            raise RuntimeError("call with is_train=True on the training rows first")
        return (X.fillna(self.medians) - self.means) / self.stds
"""
PREP_NO_CHECK = PREP_RIGHT.replace(
    'raise RuntimeError("call with is_train=True on the training rows first")', "pass"
)  # untrained, it fails on a missing attribute or pandas' fillna(None): not its own error
PREP_VAGUE = PREP_RIGHT.replace("call with is_train=True on the training rows first", "no")

ONES_RIGHT = """
def ones_on_device(rows, cols):
    return torch.ones(rows, cols, device=get_device())
"""
ONES_ON_CPU = ONES_RIGHT.replace("get_device()", "'cpu'")  # right on a CPU grader, wrong on a GPU
ONES_FIXED_ONCE = "device = get_device()\n" + ONES_RIGHT.replace("get_device()", "device")
KEPT_RIGHT = """
def kept_bytes(batch, context, width, heads, layers, vocab):
    b, t, d, h, v = batch, context, width, heads, vocab
    block = 4 * (16 * b * t * d + 4 * b * t + b * h * t * t)
    after = 4 * (2 * b * t * d + 2 * b * t + b * t * v)
    return layers * block + after + 8 * (2 * b * t + t) + 4
"""
KEPT_NO_ATTENTION = KEPT_RIGHT.replace(" + b * h * t * t", "")  # the T x T weights forgotten
KEPT_ALL_FLOAT32 = KEPT_RIGHT.replace("8 * (2 * b * t + t)", "4 * (2 * b * t + t)")  # int64 as 4
# the visible shape's bytes, typed in: passes what a learner sees, not the shapes the grader tries
KEPT_TYPED = "def kept_bytes(batch, context, width, heads, layers, vocab):\n    return 849156\n"
CHOOSE_RIGHT = """
def choose(rungs):
    return [r["lever"] for r in rungs[1:] if r["why_not"] is None and r["loss_falls"]
            and r["speedup"] >= 1.05 and r["speedup_q1"] > 1]
"""
CHOOSE_EVERY_LEVER = """
def choose(rungs):
    return [r["lever"] for r in rungs[1:] if r["why_not"] is None]
"""
CHOOSE_MEDIAN_ONLY = """
def choose(rungs):
    return [r["lever"] for r in rungs[1:] if r["why_not"] is None and r["speedup"] > 1]
"""
RIGHT = {
    "day07b.kept_bytes": KEPT_RIGHT,
    "day07b.choose": CHOOSE_RIGHT,
    "day00.device": ONES_RIGHT,
    "day02.predict": PREDICT_RIGHT,
    "day04.preprocessor": PREP_RIGHT,
}


@pytest.mark.parametrize(
    ("homework", "exercise_id", "answer", "rejected_by"),
    [
        ("day00_homework", "day00.device", ONES_ON_CPU, "ask get_device() inside the function"),
        ("day00_homework", "day00.device", ONES_FIXED_ONCE, "ask get_device() inside"),
        ("day02_homework", "day02.predict", PREDICT_TRACKS_GRADIENTS, "without tracking gradients"),
        ("day04_homework", "day04.preprocessor", PREP_NO_CHECK, "must raise a RuntimeError"),
        ("day04_homework", "day04.preprocessor", PREP_VAGUE, "say how to fix it"),
        (
            "day07b_homework",
            "day07b.kept_bytes",
            KEPT_NO_ATTENTION,
            "short by exactly the attention",
        ),
        ("day07b_homework", "day07b.kept_bytes", KEPT_ALL_FLOAT32, "autograd kept"),
        ("day07b_homework", "day07b.kept_bytes", KEPT_TYPED, "another shape"),
        ("day07b_homework", "day07b.choose", CHOOSE_EVERY_LEVER, "30 times slower"),
        ("day07b_homework", "day07b.choose", CHOOSE_MEDIAN_ONLY, "that is noise"),
    ],
)
def test_a_wrong_answer_is_rejected_and_the_right_one_passes(
    homework, exercise_id, answer, rejected_by
):
    failed = [o for o in outcomes(homework, exercise_id, answer) if o.status != "passed"]
    assert [o.reason for o in failed if rejected_by in (o.reason or "")], failed
    assert all(o.status == "passed" for o in outcomes(homework, exercise_id, RIGHT[exercise_id]))
