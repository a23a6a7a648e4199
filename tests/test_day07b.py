"""Day 7b's narration (helpers.day07b, day07b_peaks, day07b_memory): every verdict's outcomes with
realistic inputs, including a GPU receipt where bf16 pays and an AVX2 CPU where it does not."""

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from helpers import activations, day07b, day07b_memory, day07b_peaks, receipts
from helpers.charlm import Shape
from helpers.ladder import Fall, Rung
from helpers.levers import Setup
from helpers.roofline import Roof, Workload
from helpers.timing import Measurement

FIXTURES = Path(__file__).parent / "fixtures" / "receipts"
H100, EPYC = FIXTURES / "one_gpu" / "h100.json", FIXTURES / "avx2" / "epyc.json"
FELL = Fall(start=7.99, before=7.117, after=7.118, steps=1e-5)


def ladder_of(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))["day07b"]


def measured_rung(path: Path, lever: str) -> Measurement:
    """A receipt's rung as the round-by-round ratios its median and quartiles describe."""
    row = next(r for r in ladder_of(path)["rungs"] if r["lever"] == lever)
    return Measurement([row["speedup_q1"], row["speedup"], row["speedup_q3"]])


def test_bf16_pays_on_the_h100_and_is_kept():
    speedup = measured_rung(H100, "16-bit autocast")
    assert day07b.speed(speedup) == "faster" and day07b.keep(speedup, FELL)


def test_bf16_on_an_avx2_cpu_is_thirty_times_slower_and_left_off():
    speedup = measured_rung(EPYC, "16-bit autocast")
    assert day07b.speed(speedup) == "slower" and not day07b.keep(speedup, FELL)


def test_tf32_on_a_launch_bound_h100_step_cannot_be_told_from_noise():
    speedup = measured_rung(H100, "TF32")
    assert day07b.speed(speedup) == "no clear difference" and not day07b.keep(speedup, FELL)


@pytest.mark.parametrize(
    ("samples", "verdict"),
    [
        ([1.06, 1.08, 1.07], "faster"),  # small but in every round
        ([0.9, 0.95, 1.2, 1.3, 1.4], "no clear difference"),  # a fast median, slow rounds
        ([1.04, 1.04, 1.04], "no clear difference"),  # in every round, but within the noise
        ([0.9, 0.93, 0.92], "slower"),
    ],
)
def test_the_speed_verdict_needs_most_rounds_and_more_than_the_noise(samples, verdict):
    assert day07b.speed(Measurement(samples)) == verdict


def test_a_faster_lever_that_stopped_the_loss_falling_is_left_off():
    broken = Fall(start=7.99, before=7.1, after=8.3, steps=0.2)
    assert not day07b.keep(Measurement([2.0, 2.1, 2.2]), broken)


def rung(lever="16-bit autocast", samples=(1.2, 1.25, 1.3), kept=True, fall=FELL, **setup):
    return Rung(lever, setup=Setup(batch=16, half="bf16", **setup), speedup=Measurement(
        list(samples)), seconds=0.1, tokens_per_s=40960.0, before_tokens_per_s=32768.0,
        fall=fall, kept=kept, saved_bytes=17_972_740)  # fmt: skip


def test_the_rung_lines_say_what_happened():
    assert day07b.rung_line(Rung("fp32", setup=Setup(batch=16), kept=True)) == (
        "**fp32**: the first rung, fp32 products, batch 16."
    )
    kept = day07b.rung_line(rung())
    assert kept.startswith("**16-bit autocast**: 1.25× the speed") and kept.endswith(
        "faster, kept."
    )
    left = day07b.rung_line(rung(samples=(0.029, 0.031, 0.034), kept=False))
    assert "0.03×" in left and left.endswith("slower, left off.")
    broken = day07b.rung_line(rung(kept=False, fall=Fall(8.0, 7.1, 8.4, 0.3)))
    assert "the loss did not fall: left off" in broken
    assert "TF32 needs an NVIDIA GPU" in day07b.rung_line(Rung("TF32", "TF32 changes nothing here"))


@pytest.mark.parametrize("reason", [
    "TF32 changes nothing here", "no fused AdamW for this device", "needs an NVIDIA GPU",
    "not compiled in fast mode", "not tried in this run", "torch.compile cannot build here",
])  # fmt: skip
def test_every_reason_a_lever_does_not_apply_has_its_sentence(reason):
    assert day07b.rung_line(Rung("torch.compile", reason)).startswith("**torch.compile**: not")


@pytest.mark.parametrize(
    ("lever", "fall", "said"),
    [
        ("fused AdamW", Fall(8.0, 7.117, 7.117, 0.0), "to the last bit"),
        ("16-bit autocast", Fall(8.0, 7.117232, 7.117332, 2e-5), "the same loss within rounding"),
        ("16-bit autocast", Fall(8.0, 7.1, 7.15, 0.01), "changed the numbers, not the training"),
        ("torch.compile", Fall(8.0, 7.1, 7.5, 0.05), "changed the training:"),
        ("larger batch", Fall(8.0, 7.117, 7.817, None), "changes the training by design"),
        ("16-bit autocast", Fall(8.0, 7.1, 8.2, 0.1), "broke training here"),
    ],
)
def test_the_loss_check_reads_the_held_out_losses(lever, fall, said):
    assert said in day07b.fall_line(rung(lever=lever, fall=fall), 8)


def test_the_ladder_table_has_a_row_per_lever_and_says_what_was_not_measured():
    rungs = [
        Rung(
            "fp32", setup=Setup(batch=16), kept=True, tokens_per_s=30000.0, saved_bytes=23_355_908
        ),
        rung(),
        Rung("CUDA graphs", "needs an NVIDIA GPU"),
    ]
    table = day07b.ladder_table(rungs)
    assert list(table.index) == ["fp32", "16-bit autocast", "CUDA graphs"]
    assert table.loc["CUDA graphs", "applies"] == "needs an NVIDIA GPU"
    assert table.loc["16-bit autocast", "kept"] == "yes"
    assert table.loc["16-bit autocast", "middle half of the rounds"] == "1.23-1.27"
    assert pd.isna(table.loc["fp32", "× the rung before"])
    assert pd.isna(table.loc["fp32", "peak allocated (MB)"])


@pytest.mark.parametrize(
    ("achieved", "verdict"),
    [
        (1e9, "overhead and memory traffic take the rest"),
        (2e14, "real arithmetic, with room left"),
        (3e14, "as busy as the training of large models gets"),
    ],
)
def test_mfu_is_judged_against_the_peak_of_its_own_type(achieved, verdict):
    line = day07b_peaks.mfu_line(
        "16-bit autocast", kind="bf16", achieved=achieved, peak=702e12, fp32_peak=51e12,
        sheet=989.4e12,
    )  # fmt: skip
    assert verdict in line and "Against the datasheet's bf16 peak: " in line
    assert "the wrong peak makes it look 13.8× better" in line


def test_an_fp32_rung_has_no_wrong_peak_and_a_missing_peak_says_so():
    line = day07b_peaks.mfu_line("fp32", kind="fp32", achieved=1e12, peak=51e12, fp32_peak=51e12)
    assert "2%" in line and "wrong peak" not in line and "datasheet" not in line
    none = day07b_peaks.mfu_line("TF32", kind="tf32", achieved=1e12, peak=None, fp32_peak=5e10)
    assert "no tf32 peak measured" in none


def test_shares_print_with_two_significant_digits():
    assert [day07b_peaks.percent(x) for x in (0.12, 0.00034, 1.0)] == ["12%", "0.034%", "100%"]


def test_the_peaks_table_puts_measured_beside_promised():
    measured = {"fp32": 51e12, "tf32": 378e12, "bf16": 702e12, "fp16": None}
    promised = {"fp32": 67e12, "tf32": 494.7e12, "bf16": 989.4e12, "fp16": 989.4e12, "source": "x"}
    table = day07b_peaks.peaks_table(measured, promised)
    assert table.loc["bf16"].tolist() == pytest.approx([702.0, 989.4])
    assert pd.isna(table.loc["fp16", "measured peak (TFLOP/s)"])
    assert day07b_peaks.peaks_table(measured, None)["datasheet (TFLOP/s)"].isna().all()


def test_the_regime_line_names_the_limit_and_its_shares():
    roof = Roof(peak_flops=50e9, bandwidth=20e9)
    line = day07b_peaks.regime_line(Workload("fp32", flops=1e9, bytes=1e8, seconds=1.0), roof)
    assert line == (
        "**fp32**: overhead-bound: arithmetic at the peak would take 2% of its time, moving its "
        "bytes 0%."
    )
    busy = day07b_peaks.regime_line(Workload("torch.compile", 4e10, 1e8, 1.0), roof)
    assert "compute-bound" in busy and "80% of its time" in busy


def shelf(tmp_path, *paths, reference=None):
    for path in paths:
        shutil.copy(path, tmp_path / path.name)
    return receipts.load_all(tmp_path, reference=reference)


def test_a_gpu_receipt_with_a_ladder_is_shown_as_a_table(tmp_path):
    found = day07b_peaks.beside_receipt(shelf(tmp_path, H100, EPYC))
    assert "NVIDIA H100 80GB HBM3, 2026-11-28 (your receipt)" in found.text
    assert found.table.loc["16-bit autocast", "kept"] == "yes"
    assert found.table.loc["max-autotune", "kept"] == "no"
    assert found.table.loc["CUDA graphs", "peak allocated (MB)"] == pytest.approx(131.0)


def test_the_reference_made_before_this_lesson_shows_its_datasheet(tmp_path):
    reference = Path(__file__).parents[1] / "data" / "gpu_reference.json"
    found = day07b_peaks.beside_receipt(shelf(tmp_path, reference=reference))
    if "day07b" in json.loads(reference.read_text(encoding="utf-8")):
        pytest.skip("the reference has been measured with this lesson's ladder")
    assert "made before this lesson" in found.text and found.table is None
    assert "The datasheet of the H200 promises 67.0 TFLOP/s in float32" in found.text
    assert "494.7 TFLOP/s in TF32 and 989.4 TFLOP/s in bfloat16" in found.text


def test_a_cpu_receipt_is_no_gpu_ladder(tmp_path):
    found = day07b_peaks.beside_receipt(shelf(tmp_path, EPYC))
    assert found.table is None and "python -m helpers receipt --out" in found.text


SHAPE = Shape(vocab=2488, context=64, width=64, heads=8, layers=2)


def test_the_prediction_agrees_to_the_byte_or_says_how_far_off():
    exact = day07b_memory.prediction_line(predicted=23_355_908, measured=23_355_908)
    assert exact.endswith(
        "to the byte, so the list of what each operation keeps is the whole story."
    )
    close = day07b_memory.prediction_line(predicted=23_300_000, measured=23_355_908)
    assert "they agree (within 0.24%)" in close
    off = day07b_memory.prediction_line(predicted=13_165_060, measured=23_355_908)
    assert "43.6% apart, so something is kept that the list does not count" in off


def test_the_largest_part_of_a_lesson_step_is_the_output_layers_log_softmax():
    kinds = activations.kinds(activations.measure(SHAPE, 4), SHAPE, 4)
    assert day07b_memory.largest_part_line(kinds) == (
        "The largest part is **B×T×V** (float32): 44% of the bytes kept."
    )


def test_sixteen_bits_checkpointing_and_the_allocator_in_words():
    half = day07b_memory.half_line(full=23_355_908, half=17_972_740, kind="bf16",
                                   float32_part=12_000_000)  # fmt: skip
    assert "**18.0 MB** instead of 23.4 MB: 1.30× less, not 2×" in half
    trade = day07b_memory.checkpoint_line(
        plain=23_355_908, recompute=11_264_516, slowdown=Measurement([1.2, 1.3, 1.35])
    )
    assert "**2.1× less**" in trade and "**1.30×** as long" in trade
    assert "on CUDA only" in day07b_memory.allocator_line(peak=None, kept=1, snapshot=None)
    gpu = day07b_memory.allocator_line(peak=61_000_000, kept=23_355_908, snapshot="build/s.pickle")
    assert "**61.0 MB**" in gpu and "`build/s.pickle`" in gpu


@pytest.mark.parametrize(
    ("measured", "batch", "said"),
    [
        (40_000_000, 41, "the largest batch for 64 MiB is **41**"),
        (70_000_000, 41, "the formula misses something"),
        (0, 0, "not even one window fits"),
    ],
)
def test_the_budget_line_checks_the_formula_with_the_measurement(measured, batch, said):
    line = day07b_memory.budget_line(
        budget=64 * 2**20, batch=batch, measured=measured, steady=6_802_304, recompute=False
    )
    assert said in line and line.startswith("without checkpointing")


@pytest.mark.parametrize(
    ("end", "said"),
    [
        (3.47, "it uses the characters before"),
        (6.45, "learned which characters are common, not yet what follows what"),
        (7.95, "it has barely started"),
    ],
)
def test_the_training_is_judged_against_knowing_only_how_common_characters_are(end, said):
    line = day07b_memory.training_line(
        start=8.0,
        end=end,
        frequencies=6.44,
        steps=500,
        tokens=512_000,
        seconds=30.0,
        lever="torch.compile",
    )
    assert said in line and "**torch.compile**" in line
