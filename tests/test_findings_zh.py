"""The lesson modules' findings speak the course's language: each verdict, asked in Chinese, is
Chinese, and carries the same numbers, formatted the same way, as its English form."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from helpers import (
    copies,
    crossover,
    day01,
    day02,
    day03,
    day04,
    day05a,
    day05a_evidence,
    day05a_rules,
    day05b,
    day05b_fixes,
    day06,
    day07,
    day07_algorithms,
    day08,
    day08_scaling,
    gpu,
    hardware,
    links,
    live,
    many_models,
    narration,
    observation,
    receipts,
    roofline,
    scaling,
    stats,
    utilisation,
)
from helpers.i18n import _

CARD = {"cpu": "AMD EPYC 7763", "cpu_usable": 8, "device": "cpu", "torch": "2.5.1",
        "torch_build": "CPU", "torch_threads": 8, "python": "3.11.9"}  # fmt: skip
CJK = re.compile("[\u4e00-\u9fff]")
NUMBER = re.compile(r"[+-]?\d+(?:,\d{3})*(?:\.\d+)?")


def _copies_table():
    table = pd.DataFrame(
        {
            "variant": ["v"] * 4,
            "bytes": [1024, 65536, 1048576, 16777216],
            "median_s": [5e-6, 2.0e-5, 2.9e-4, 9.0e-3],
        }
    )
    table["GB/s"] = table["bytes"] / table["median_s"] / 1e9
    return table


WORK = roofline.Workload("the lesson's epoch", flops=2e3, bytes=4e4, seconds=1.5e-4)
ROOF = roofline.Roof(5e10, 2e10, level="memory", copied=2**26, threads=1)
FIT = links.fit_alpha_beta(
    [32, 1e3, 1e4, 1e5, 1e6, 1e7], [5e-5 + s / 1e9 for s in [32, 1e3, 1e4, 1e5, 1e6, 1e7]]
)
LINE = stats.check_line([0, 10, 20, 30, 40, 50], [2.0, 2.11, 2.19, 2.31, 2.4, 2.52])

SAME = [0.9, 0.91, 0.92], [0.8, 0.82, 0.81]
HABIT, FIX = [30e-3, 29e-3, 31e-3], [5e-4, 5.1e-4, 5e-4]
LESSON, BATCHED = [1.31, 1.25, 1.40], [0.105, 0.098, 0.110]
ZERO = [6.92, 7.41, 6.60]
REFERENCE = receipts.load(Path(__file__).parents[1] / "data" / "gpu_reference.json", True)

FINDINGS = {
    "difference": lambda: narration.difference(stats.paired_difference(*SAME), "one-hot", "codes"),
    "same rows": lambda: narration.same_rows(
        stats.same_rows([1] * 12 + [0] * 3, [0] * 12 + [1] * 3), "a", "b"
    ),
    "price": lambda: narration.price(stats.fit_affine([0, 10, 20, 30], [5.0, 5.1, 5.25, 5.3])),
    "line": lambda: narration.line(LINE),
    "device_notes": lambda: day02.mismatch_note("cpu") + day02.readback_note("cuda"),
    "device_notes.moved": lambda: day03.parameter_move_note(False, "meta"),
    "hardware.card_line": lambda: hardware.card_line(CARD),
    "hardware.card_line_one_thread": lambda: hardware.card_line(CARD | {"torch_threads": 1}),
    "distributed.identical": lambda: narration.same_weights(
        0.0, tolerance=1e-6, what=_("the run that lost a worker and the undisturbed one")
    ),
    "distributed.same": lambda: narration.same_weights(
        2e-7, tolerance=1e-4, what=_("the ring and all_reduce"), things=_("sums")
    ),
    "distributed.different": lambda: narration.same_weights(
        3e-3, tolerance=1e-5, what=_("the 8 stacked copies and the 8 trained alone")
    ),
    "preprocessing": lambda: day04.code_note("thal", "rises"),
    "copies": lambda: " ".join(day02.variant_findings(copies.copy_curve(_copies_table()))),
    "copies.allocation": lambda: day02.allocation_note("cpu", "Linux"),
    "day07.accumulation": lambda: day07.accumulation_verdict(
        410e6, 120e6, parts=4, device_type="cuda"
    ),
    "day07.batching": lambda: day07_algorithms.batching_verdict(
        64, many_models.batching_gain(LESSON, BATCHED)
    ),
    "day07.sharing": lambda: day07_algorithms.sharing_verdict(
        many_models.sharing(1, 64, 0.010, 0.022)
    ),
    "day07.cost": lambda: day07_algorithms.cost_verdict(
        "a Python loop", utilisation.habit_cost(HABIT, FIX)
    ),
    "day07.busy": lambda: day07.busy_verdict("the loop", busy=0.9, mfu=0.002, kind="kernel"),
    "day06.shape": lambda: day06.curve_shape("tiny", [100, 1000, 10000], [1e-3, 1.1e-3, 5e-3]),
    "day06.range": lambda: day06.judge_lesson_range(2300, largest=1e6, against="GPU"),
    "day06.bound": lambda: day06.judge_lesson_bound(2300, largest=1e6, step_seconds=6.7e-4),
    "roofline": lambda: day05b.roofline_point(WORK, ROOF),
    "day05.single": lambda: day05a.single_runs_say(observation.student_fit()),
    "day05.sync": lambda: day05a_evidence.verdict_lines(
        [day05a_rules.judge_sync(LINE, device_type="cpu")]
    ),
    "day05.compute": lambda: day05a_evidence.verdict_lines(
        [day05a_rules.judge_compute_claim(flops=2e3, peak_flops=5e10, inside_operators=2e-5)]
    ),
    "compiled": lambda: day05b_fixes.compile_advice(
        pd.DataFrame(
            {"µs per epoch": [150.0, 30.0], "compile, cold cache (s)": [0.0, 30.0],
             "compile, warm cache (s)": [0.0, 3.0]},
            index=["eager", "compiled"],
        ),
        20000,
        1_000_000,
    ),  # fmt: skip
    "scaling": lambda: day08_scaling.scaling_verdict(scaling.scaling("weak", 2, 0.1, 0.25, 256)),
    "scaling.contention": lambda: day08_scaling.contention_verdict(
        scaling.Contention(128, 0.050, 0.030)
    ),
    "scaling.communication": lambda: day08.communication_verdict(
        "wide", scaling.communication_split(0.010, 0.011, 0.004)
    ),
    "links": lambda: day08.link_fit_text(FIT),
    "day08.sampler": lambda: day08.sampler_finding(
        rows=5, ranks=2, per_rank=3, twice=1, distinct=5, changes=True
    ),
    "day08.memory": lambda: day08_scaling.memory_fits(
        scaling.memory_per_gpu(7.5e9, 64), billions=7.5, gpus=64, recipe="mixed precision + Adam"
    ),
    "topology": lambda: day01.smt_sentence({2: 8, 1: 8}),
    "gpu": lambda: day01.tier_reason(gpu.gpu_tier("NVIDIA GeForce RTX 4090", 24)),
    "day07.workers": lambda: " ".join(day07.workers_finding(
        gains={"num_workers=1": stats.paired_ratio(ZERO, [7.0, 7.2, 6.9]),
               "num_workers=2": stats.paired_ratio(ZERO, [3.5, 3.7, 3.4])},
        cpus=2, most=4, at_cpus=2, beyond=stats.paired_ratio(ZERO, ZERO[::-1]),
        kept=stats.paired_ratio([3.5, 3.7, 3.4], [3.3, 3.6, 3.2]))),
    "day07.busier": lambda: day07.busy_not_throughput(
        "num_workers=4", before=0.14, after=0.86, gain=stats.paired_ratio(ZERO, [6.0, 7.3, 6.0])),
    "day07.tuning": lambda: day07_algorithms.tuning_verdict(
        {"learning rate 0.1": 35, "learning rate 0.01": 333},
        stats.paired_difference([0.0453, 0.0580, 0.0440], [0.0469, 0.0470, 0.0480]),
        baseline_s=0.047, timed_epochs=300),
    "day07.bandwidths": lambda: day07.bandwidths_note(1.76e10, threads=2),
    "day06.support": lambda: day06.support_note(
        "tiny", crossover.support(pd.DataFrame({"rows": [100, 316, 1000],
                                                "seconds": [9e-4, 6.6e-4, 7.3e-4]})), points=3),
    "day06.weeks": lambda: day06.weeks_verdict(9626),
    "day06.crossing": lambda: day06.judge_lesson_range(
        crossover.Crossing(6437.0, 3162.0, 10000.0), largest=1e6, against="GPU", smallest=100),
    "day02.allocation_sizes": lambda: day02.allocation_sizes_finding(
        copies.AllocationSizes("a", "b", (65536, 262144), (67108864,), (1024,)), "cpu"),
    "narration.host": lambda: narration.host_note(REFERENCE, ours="2.13.0+cpu"),
}  # fmt: skip


@pytest.mark.parametrize("name", FINDINGS)
def test_each_finding_is_chinese_with_the_english_numbers(name, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "en")
    english = FINDINGS[name]()
    monkeypatch.setenv("COURSE_LANG", "zh")
    chinese = FINDINGS[name]()
    assert CJK.search(chinese) and not CJK.search(english.replace("底噪", "")), chinese
    assert sorted(NUMBER.findall(chinese)) == sorted(NUMBER.findall(english)), (english, chinese)


def test_tables_and_labels_follow_the_language(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    line = day05a_rules.judge_sync(LINE, device_type="cpu")
    table = day05a_evidence.verdict_table([line])
    assert table.index.name == "论断" and list(table.columns) == ["你的数据", "规则"]
    assert table.iloc[0, 0] == "在 CPU 上无法检验"
    assert live.Sampler.source.fget(type("S", (), {"lib": None, "mps": False})()) == (
        "没有找到 GPU 或驱动程序：改为显示本进程的 CPU 占用和内存"
    )
    monkeypatch.setenv("COURSE_LANG", "en")
    assert day05a_evidence.verdict_table([line]).iloc[0, 0] == "not testable on a CPU"


@pytest.mark.parametrize(
    ("font", "x_label"), [("Noto Sans CJK SC", "算术强度"), (None, "arithmetic")]
)
def test_plot_labels_are_chinese_only_where_a_font_can_draw_them(font, x_label, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    from helpers import fonts, i18n

    monkeypatch.setenv("COURSE_LANG", "zh")
    monkeypatch.setattr(fonts, "cjk_font", lambda installed=None: font)
    monkeypatch.setattr(fonts, "use_cjk_font", lambda installed=None: font)
    i18n.plots_draw_chinese.cache_clear()
    try:
        ax = roofline.draw(ROOF, [WORK], regimes=[day05b.regime(WORK, ROOF)])
        assert ax.get_xlabel().startswith(x_label)
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert any(("开销受限" if font else "overhead-bound") in t for t in legend), legend
    finally:
        i18n.plots_draw_chinese.cache_clear()
