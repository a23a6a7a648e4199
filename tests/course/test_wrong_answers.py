"""Tests of the homework tests: answers built on a plausible misconception, which a master's tests
must reject with a visible check whose message names that misconception (hidden checks only count
in the feedback), while the master's own solution passes every check. Run in-process against the
master's test cell; tests/course/test_grading.py grades such answers in the sandbox."""

import functools

import pytest

from helpers.course import paths
from helpers.course.homework.checks import run_statements
from helpers.course.homework.markers import (
    BEGIN_SOLUTION,
    END_SOLUTION,
    EXERCISE_RE,
    TEST_RE,
    parse,
)


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


def solution(homework: str, exercise_id: str) -> str:
    """The master's answer to ``exercise_id``, as a learner would type it."""
    master = parse(paths.master(homework))
    lines = master.source(master.exercises[exercise_id]).splitlines()
    return "\n".join(line for line in lines if line.strip() not in (BEGIN_SOLUTION, END_SOLUTION))


def outcomes(homework: str, exercise_id: str, answer: str) -> list:
    """Every check of ``exercise_id``'s test cell, hidden ones too, run against ``answer``."""
    master, ready = set_up(homework)
    env = dict(ready)
    exec(answer, env)  # noqa: S102
    return run_statements(master.source(master.tests[exercise_id]), env, exercise_id)


DEVICE = "def ones_on_device(rows, cols):\n    return torch.ones(rows, cols, device={})\n"
COUNT = "def count_parameters(model):\n    return sum({})\n"
LAYOUT = """
def core_layout(siblings):
    layout = {{}}
    for key in {}:
        layout[len(key)] = layout.get(len(key), 0) + 1
    return layout
"""
PREDICT = """
def predict(model, X):
    {}
    return model(X).argmax(dim=1)
"""
COUNT_CALLS = """
def count_calls(model):
    counts = {{}}
    for name, module in model.{}():
        if isinstance(module, nn.Linear):
            counts[name] = 0
            {}
    return counts
"""
HOOK = """def hook(module, inputs, output, name=name):
                counts[name] += 1

            module.register_forward_hook(hook)"""
WRAP = """def wrapped(x, name=name, forward=module.forward):
                counts[name] += 1
                return forward(x)

            module.forward = wrapped"""
SMOOTHER_ON_THE_CLASS = """
class Smoother:
    count, value = 0, None

    def __init__(self, alpha):
        if not 0 < alpha <= 1:
            raise ValueError(alpha)
        self.alpha = alpha

    def __call__(self, value):
        Smoother.count += 1
        old = Smoother.value
        Smoother.value = value if old is None else self.alpha * value + (1 - self.alpha) * old
        return Smoother.value
"""
PROPORTIONAL_RUNS = """
def predicted_seconds(runs, recordings):
    most, seconds = max(runs)
    return float(seconds * recordings / most)
"""
UNPAIRED = """
def saving(rounds):
    often, rarely = [r[0] for r in rounds], [r[1] for r in rounds]
    difference = float(np.mean(often) - np.mean(rarely))
    seen = len(rounds) > 1 and stats.ttest_ind(often, rarely).pvalue < 0.05
    return {"seconds": difference, "seen": bool(seen)}
"""
POSITIVE_IS_SEEN = """
def saving(rounds):
    difference = float(np.mean([often - rarely for often, rarely in rounds]))
    return {"seconds": difference, "seen": difference > 0}
"""
TIME_IT = """
from helpers.device import synchronize


def time_it(fn, device):
{}
"""
PARTS = """
from helpers.stats import check_line


def supported_parts(m):
    x, y = np.asarray(m["recordings"], dtype=float), np.asarray(m["seconds"], dtype=float)
    line = check_line(x, y)
    floor, price, bend = line.fit.a, line.fit.b, line.bend
    parts = set()
    if {floor}:
        parts.add("floor")
    if {sync}:
        parts.add("sync")
    rare = float(np.median(y[x == x.min()]))
    if rare - m["inside_ops_s"] > rare / 2:
        parts.add("issue")
    return parts
"""
GOOD_FLOOR = 'floor.distinguishable and floor.value - m["inside_ops_s"] > floor.value / 2'
GOOD_SYNC = (
    'm["device"] == "cuda" and price.distinguishable and price.value > 0 and bend.distinguishable'
    " and line.above.value > line.below.value and not line.below.distinguishable"
)
INTENSITY_ONLY = """
def limited_by(flops, bytes_moved, seconds, peak_flops, bandwidth):
    return "compute" if flops / bytes_moved >= peak_flops / bandwidth else "bandwidth"
"""
EPOCH = """
def epoch_seconds(steps, rows, batch):
    (small, t_small), (large, t_large) = sorted(steps.items())[:2]
    per_row = (t_large - t_small) / (large - small)
    fixed = t_small - per_row * small
    return float({})
"""
GRID_CROSSOVER = """
def crossover_rows(cpu, gpu):
    for rows in sorted(cpu):
        if gpu[rows] < cpu[rows]:
            return float(rows)
    return None
"""
TAKEOFF_CROSSOVER = """
def crossover_rows(cpu, gpu):
    sizes = sorted(gpu)
    for rows in sizes:
        if gpu[rows] >= 2 * gpu[sizes[0]]:
            return float(rows)
    return None
"""
SUMMED_KERNELS = """
def busy_share(kernels, start, end):
    return sum(min(last, end) - max(first, start) for first, last in kernels) / (end - start)
"""
SPAN_OF_KERNELS = """
def busy_share(kernels, start, end):
    first, last = min(k[0] for k in kernels), max(k[1] for k in kernels)
    return (min(last, end) - max(first, start)) / (end - start)
"""
ACCUMULATE = """
def accumulate(model, X, y, parts):
    {}
    for xb, yb in zip(X.chunk(parts), y.chunk(parts), strict=True):
        ({}).backward()
"""
LOSS = "nn.functional.cross_entropy(model(xb), yb)"
SPEEDUP = """
def ddp_speedup(compute_s, gradient_bytes, world, latency_s, bytes_per_s):
    return compute_s / (compute_s / world + {})
"""

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

MISCONCEPTIONS = [
    ("day00", "day00.device", DEVICE.format("'cpu'"), "a device written into the function"),
    (
        "day00",
        "day00.device",
        "device = get_device()\n" + DEVICE.format("device"),
        "chosen once before the function was called",
    ),
    (
        "day00",
        "day00.count_parameters",
        COUNT.format("p.numel() for p in model.parameters()"),
        "the first layer is frozen",
    ),
    (
        "day00",
        "day00.count_parameters",
        COUNT.format("m.weight.numel() for m in model.modules() if isinstance(m, nn.Linear)"),
        "biases are trained too",
    ),
    (
        "day01",
        "day01.cores",
        LAYOUT.format("[tuple(text.split(',')) for text in siblings.values()]"),
        "each core is listed once for each of its hardware threads",
    ),
    (
        "day01",
        "day01.cores",
        LAYOUT.format("{tuple(text.strip().split(',')) for text in siblings.values()}"),
        "Linux writes neighbouring CPUs as a range",
    ),
    (
        "day01",
        "day01.weights_gib",
        "def weights_gib(n, dtype):\n"
        "    return n * torch.tensor([], dtype=dtype).element_size() / 1e9",
        "a GiB is 2**30 bytes, not 10**9",
    ),
    (
        "day02",
        "day02.move_batch",
        "def move_batch(batch, device):\n"
        "    batch.update({k: v.to(device) for k, v in batch.items() if torch.is_tensor(v)})\n"
        "    return dict(batch)\n",
        "the caller's dictionary changed",
    ),
    (
        "day02",
        "day02.predict",
        PREDICT.format("X = X.to(next(model.parameters()).device)"),
        "predicting needs no gradients",
    ),
    ("day03", "day03.smoother", SMOOTHER_ON_THE_CLASS, "not on the class"),
    ("day03", "day03.count_calls", COUNT_CALLS.format("named_modules", WRAP), "skips nn.Module"),
    ("day03", "day03.count_calls", COUNT_CALLS.format("named_children", HOOK), "named_children"),
    ("day05a", "day05a.predict", PROPORTIONAL_RUNS, "not proportional to the recordings"),
    ("day05a", "day05a.price", UNPAIRED, "compare them round by round (paired)"),
    ("day05a", "day05a.price", POSITIVE_IS_SEEN, "a positive difference is not yet a saving"),
    (
        "day05a",
        "day05a.sync",
        TIME_IT.format(
            "    start = time.perf_counter()\n    fn()\n    return time.perf_counter() - start"
        ),
        "fn() only queues the work",
    ),
    (
        "day05a",
        "day05a.sync",
        TIME_IT.format(
            "    start = time.perf_counter()\n    fn()\n    synchronize(device)\n"
            "    return time.perf_counter() - start"
        ),
        "queued before it was counted too",
    ),
    (
        "day05a",
        "day05a.parts",
        PARTS.format(floor="floor.distinguishable", sync=GOOD_SYNC),
        "the floor is the work itself, not overhead",
    ),
    (
        "day05a",
        "day05a.parts",
        PARTS.format(floor=GOOD_FLOOR, sync='m["device"] == "cuda" and price.value > 0'),
        "a price the runs cannot tell from zero",
    ),
    (
        "day05a",
        "day05a.parts",
        PARTS.format(floor=GOOD_FLOOR, sync="price.distinguishable and price.value > 0"),
        "no threshold effect",
    ),
    (
        "day05a",
        "day05a.parts",
        PARTS.format(floor=GOOD_FLOOR, sync=GOOD_SYNC.replace('m["device"] == "cuda" and ', "")),
        "nothing is queued there",
    ),
    ("day05b", "day05b.bound", INTENSITY_ONLY, "the rest is overhead"),
    ("day06", "day06.epoch", EPOCH.format("rows * per_row"), "part of it is fixed"),
    (
        "day06",
        "day06.epoch",
        EPOCH.format("rows // batch * (fixed + batch * per_row)"),
        "it is a step too",
    ),
    ("day06", "day06.crossover", GRID_CROSSOVER, "not at the first measured size"),
    ("day06", "day06.crossover", TAKEOFF_CROSSOVER, "own curve takes off"),
    ("day07", "day07.busy", SUMMED_KERNELS, "overlapping kernels count once"),
    ("day07", "day07.busy", SPAN_OF_KERNELS, "the gaps are not busy time"),
    (
        "day07",
        "day07.accumulate",
        ACCUMULATE.format("model.zero_grad()", f"{LOSS} / parts"),
        "right only when the parts are equal",
    ),
    (
        "day07",
        "day07.accumulate",
        ACCUMULATE.format("", f"{LOSS} * len(xb) / len(X)"),
        "so start from zero",
    ),
    (
        "day08",
        "day08.speedup",
        SPEEDUP.format("2 * (world - 1) * gradient_bytes / world / bytes_per_s"),
        "pays the link's latency",
    ),
    (
        "day08",
        "day08.speedup",
        SPEEDUP.format("2 * (world - 1) * (latency_s + gradient_bytes / bytes_per_s)"),
        "moves 1/N of the gradients",
    ),
    ("day07b", "day07b.kept_bytes", KEPT_NO_ATTENTION, "short by exactly the attention"),
    ("day07b", "day07b.choose", CHOOSE_EVERY_LEVER, "30 times slower"),
    ("day07b", "day07b.choose", CHOOSE_MEDIAN_ONLY, "that is noise"),
]
EXERCISES = sorted({(day, exercise) for day, exercise, _, _ in MISCONCEPTIONS})


def test_every_auto_graded_exercise_but_the_ring_has_a_named_misconception():
    """Day 8's ring is rejected by its own messages (bytes sent, input changed); day 4's are the
    next test's."""
    every = {e for m in paths.masters() for e in parse(m).exercises}
    assert every - {e for _, e in EXERCISES} == {"day04.preprocessor", "day08.ring_mean"}


@pytest.mark.parametrize(("day", "exercise", "answer", "named"), MISCONCEPTIONS)
def test_a_misconception_fails_a_visible_check_that_names_it(day, exercise, answer, named):
    homework = f"{day}_homework"
    master, _ = set_up(homework)
    visible = master.source(master.tests[exercise]).split("### BEGIN HIDDEN TESTS")[0]
    failed = [o for o in outcomes(homework, exercise, answer) if o.status != "passed"]
    shown = [o.reason for o in failed if o.statement.splitlines()[0] in visible]
    assert any(named in reason for reason in shown), shown


@pytest.mark.parametrize(("day", "exercise"), EXERCISES)
def test_the_masters_own_answer_passes_every_check(day, exercise):
    homework = f"{day}_homework"
    found = outcomes(homework, exercise, solution(homework, exercise))
    assert all(o.status == "passed" for o in found), [o for o in found if o.status != "passed"]


PREP = solution("day04_homework", "day04.preprocessor")


@pytest.mark.parametrize(
    ("answer", "named"),
    [
        (PREP.replace("std(ddof=0)", "std()"), "ddof=1"),
        (PREP.replace("        if is_train:", "        if True:"), "data leakage"),
    ],
)
def test_day4_names_the_preprocessors_misconceptions(answer, named):
    failed = [
        o for o in outcomes("day04_homework", "day04.preprocessor", answer) if o.status != "passed"
    ]
    assert any(named in (o.reason or "") for o in failed), failed


@pytest.mark.parametrize(
    ("answer", "rejected_by"),
    [
        (  # untrained, it fails on a missing attribute or pandas' fillna(None): not its own error
            PREP.replace(
                'raise RuntimeError("call with is_train=True on the training rows first")', "pass"
            ),
            "must raise a RuntimeError",
        ),
        (PREP.replace("call with is_train=True on the training rows first", "no"), "say how"),
    ],
)
def test_day4_hidden_checks_reject_a_preprocessor_without_its_own_error(answer, rejected_by):
    failed = [
        o for o in outcomes("day04_homework", "day04.preprocessor", answer) if o.status != "passed"
    ]
    assert [o for o in failed if rejected_by in (o.reason or "")], failed


@pytest.mark.parametrize(
    ("answer", "rejected_by"),
    [(KEPT_ALL_FLOAT32, "autograd kept"), (KEPT_TYPED, "another shape")],
)
def test_day7b_rejects_int64_counted_as_four_bytes_and_a_typed_in_number(answer, rejected_by):
    failed = [
        o for o in outcomes("day07b_homework", "day07b.kept_bytes", answer) if o.status != "passed"
    ]
    assert [o.reason for o in failed if rejected_by in (o.reason or "")], failed
