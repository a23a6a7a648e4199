"""Day 5b's narration (helpers.day05b, helpers.day05b_fixes): what the three quantities, the
timeline, the roofline and the fixes found, each sentence following the numbers it is given."""

from __future__ import annotations

import pytest

from helpers import compiled, day05b, day05b_fixes, standard_fixes
from helpers.roofline import Roof, Workload


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "en")


def test_the_timeline_names_the_kernels_only_where_there_are_some():
    seen = {"shown": 5, "traced_us": 900.0, "epoch_us": 160.0, "slowdown": 3.2,
            "operators": 0.45, "trace": "build/t.json"}  # fmt: skip
    cpu = day05b.timeline_finding(kernels=None, **seen)
    gpu = day05b.timeline_finding(kernels=0.08, **seen)
    assert "kernels" not in cpu and "The GPU's kernels fill **8%** of it." in gpu
    assert "**900 µs** each" in cpu and "5.6× an epoch" in cpu and "`build/t.json`" in cpu


def test_the_compile_advice_warns_about_fast_mode_only_without_a_cold_compile():
    assert day05b_fixes.compile_note("Fastest: x.", True) == "Fastest: x."
    assert "Fast mode measures no cold compile" in day05b_fixes.compile_note("Fastest: x.", False)


@pytest.mark.parametrize(("device", "where"), [("cpu", "(one thread)"), ("cuda", "(cuda)")])
def test_the_arithmetic_names_one_thread_on_a_cpu_and_the_device_elsewhere(device, where):
    said = day05b.arithmetic_finding(flops=283, peak=5e10, device_type=device, arithmetic=5.7e-9,
                                    epoch=160e-6, inside=90e-6)  # fmt: skip
    assert where in said and "**283 FLOPs**" in said
    assert "(56% of the epoch)" in said


# ---- section 8: where a workload sits under its roof -------------------------------------------

ROOF = Roof(peak_flops=100e9, bandwidth=10e9)
# Roofs as day 5 measured them on a 2-core EPYC (32 MiB L3), one thread: peak 68 GFLOP/s; a copy
# of 256 KiB (in cache) 40 GB/s, of 16 MiB 20 GB/s.
CACHE = Roof(68e9, 40e9, level="cache", copied=2**18, threads=1)
MEMORY = Roof(68e9, 20e9, level="memory", copied=2**26, threads=1)


def test_a_point_names_the_regime_and_its_reason():
    tiny = day05b.roofline_point(Workload("lesson loop", 4e4, 2e4, 500e-6), ROOF)
    assert "**overhead-bound**" in tiny and "of the time is neither" in tiny
    assert "arithmetic at the peak would take 400 ns" in tiny and "Of its 500 µs" in tiny
    big = day05b.roofline_point(Workload("matmul", 2e9, 12e6, 0.025), ROOF)
    assert "**compute-bound**: the arithmetic at the peak would fill 80% of its time" in big
    copy = day05b.roofline_point(Workload("copy", 8e6, 8e6, 0.0012), ROOF)
    assert (
        "**bandwidth-bound**: moving its bytes at full bandwidth would fill 67% of its time" in copy
    )
    assert "takes most" not in copy


def test_a_verdict_is_worded_by_the_share_it_measured():
    """Bandwidth-bound at a third of the time is not "most of the time": the sentence gives the
    share, and the rule it passed (day 5's eager chain on this CPU: 32 %, the rule 25 %)."""
    chain = Workload("chain, eager", 8 * 2**24, 72 * 2**24, 0.125)
    said = day05b.roofline_point(chain, Roof(160e9, 30e9))
    assert day05b.regime(chain, Roof(160e9, 30e9)) == "bandwidth-bound"
    assert "would fill 32% of its time" in said and "at least 25% (the rule)" in said
    assert day05b.regime(chain, Roof(160e9, 30e9), share=0.4) == "overhead-bound"


def test_a_point_under_its_roof_gets_its_share():
    # The compiled chain on 4 Mi elements: 8 B and 8 FLOPs per element in 1.81 ms.
    chain = Workload("chain, compiled", 8 * 2**22, 8 * 2**22, 1.81e-3)
    text = day05b.roofline_point(chain, MEMORY)
    assert "92.7% of what the roof (memory: copying 64 MiB, 1 thread) allows" in text
    assert "above" not in text


def test_a_point_above_its_roof_names_the_roof_that_was_too_low():
    # The same chain at 170 % of a 20 GB/s roof (as seen on another machine): 1.0 ms.
    fast = Workload("chain, compiled", 8 * 2**22, 8 * 2**22, 0.987e-3)
    text = day05b.roofline_point(fast, MEMORY)
    assert "above the bandwidth roof (memory" in text and "so that roof was too low" in text
    assert "%" not in text.split(". Of its")[0]
    assert "85.0% of what the roof (cache" in day05b.roofline_point(fast, CACHE)
    # 2 GFLOP of matrix products in 25 ms is 80 GFLOP/s, above a 68 GFLOP/s peak.
    matmul = day05b.roofline_point(Workload("wide network", 2e9, 12e6, 0.025), MEMORY)
    assert "above the flat roof" in matmul and "the measured peak was too low" in matmul


def test_the_roofline_finding_places_each_workload_and_says_what_fusing_gained():
    placed = [(Workload("lesson epoch", 4e4, 2e4, 500e-6), CACHE)]
    said = day05b.roofline_finding(peak=68e9, threads=1, roofs=[CACHE, MEMORY],
                                   placed=placed, speedup=26.9, reused=3.0, fewer=9)  # fmt: skip
    assert "Peak **68.0 GFLOP/s** (a large matrix product, 1 thread)" in said
    assert "**40.0 GB/s** (cache" in said and "\n- **lesson epoch**: " in said
    assert "**26.9×** as fast as eager" in said and "9× fewer bytes" in said
    # the part of the gain that reusing one buffer gives (no allocations, the same bytes)
    assert "ran **3.0×** as fast as eager. The rest, **9.0×**, is fusion's own" in said
    unmeasured = day05b.roofline_finding(
        peak=68e9,
        threads=None,
        roofs=[CACHE],
        placed=placed,
        speedup=None,
        reused=2.0,
        fewer=9,
        why="-",
    )
    assert "The compiled chain is not measured here: -." in unmeasured
    assert "(a large matrix product, the whole device)" in unmeasured


# ---- section 9: the fixes end to end ------------------------------------------------------------

# Day 5 as measured on 2-core CPUs (one thread): the lesson's loop about 550 µs per epoch; the
# amortised variant about 40 µs after 21.7 s of compiling with a cold cache, about 3 s warm.
EPOCH = {"lesson loop": 550e-6, "hand-written step": 150e-6, "amortised": 40e-6}
COLD = {"amortised": 21.7}
WARM = {"amortised": 3.0}


def test_advice_follows_the_table():
    table = compiled.end_to_end(EPOCH, COLD, WARM, 20_000, baseline="lesson loop")
    text = day05b_fixes.compile_advice(table, 20_000, 1_000_000)
    cold, warm = text.split("; ")
    # Cold: 21.7 s of compiling is more than the 20,000 epochs save over the hand-written step.
    assert "**hand-written step** for 20,000 epochs (3.0 s in all)" in cold
    assert "**amortised** for 1,000,000" in cold
    # Warm: 3 s of loading still outweigh 20,000 epochs x 110 µs saved (2.2 s).
    assert "**hand-written step** for 20,000 epochs (3.0 s in all)" in warm
    assert "**amortised** for 1,000,000 (43 s)" in warm
    without_step = {k: v for k, v in EPOCH.items() if k != "hand-written step"}
    table = compiled.end_to_end(without_step, COLD, WARM, 20_000, baseline="lesson loop")
    assert "**amortised** for 20,000 epochs (3.8 s in all)" in day05b_fixes.compile_advice(
        table, 20_000, 10
    )


def test_advice_without_a_cold_measurement_says_so():
    table = compiled.end_to_end(EPOCH, {}, WARM, 20_000, baseline="lesson loop")
    said = day05b_fixes.compile_advice(table, 20_000, 10**6)
    assert "with a cold cache: not measured in this run" in said


def test_the_fastest_standard_fix_and_ceiling_are_reported_apart():
    said = day05b_fixes.fastest_finding(
        standard="fused optimiser", standard_speedup=1.3, standard_low=1.1, ceiling="amortised",
        ceiling_speedup=11.0, ceiling_epoch=14e-6, arithmetic=0.6e-6, slower=[], repeats=5,
        epochs=2000,
    )  # fmt: skip
    assert "standard-code** fix per epoch is **fused optimiser**, **1.30×**" in said
    assert "(faster in three rounds out of four)" in said and "Slower than" not in said
    assert "**ceiling** is **amortised**, **11.0×**" in said and "**23×** the arithmetic" in said


def test_a_fix_that_is_noise_or_slower_says_so():
    """On this CPU the best standard fix may be within the noise, and compiling the model made it
    slower: the finding says both, from the numbers."""
    said = day05b_fixes.fastest_finding(
        standard="losses kept on the device", standard_speedup=1.07, standard_low=0.97,
        ceiling="amortised", ceiling_speedup=6.9, ceiling_epoch=41e-6, arithmetic=0.65e-6,
        slower=["fused optimiser", "model and step compiled"], repeats=2, epochs=300,
    )  # fmt: skip
    assert "(not told from noise: it was not faster in three rounds out of four)" in said
    assert "Slower than the lesson loop here: fused optimiser, model and step compiled." in said


def test_the_summary_names_the_regime_the_best_standard_fix_and_the_ceiling():
    said = day05b_fixes.summary(
        device="cpu", regime="overhead-bound", arithmetic=0.001, inside=0.12,
        standard="losses kept on the device", standard_speedup=1.05, ceiling="amortised",
        ceiling_speedup=7.0, advice="Fastest: amortised.",
    )  # fmt: skip
    assert "**overhead-bound**" in said and "time inside operators 12%" in said
    assert "losses kept on the device, ran **1.05×**" in said and "amortised, **7.0×**" in said


def test_the_variants_are_standard_code_or_ceilings():
    assert standard_fixes.kind("model and step compiled") == standard_fixes.STANDARD_CODE
    assert standard_fixes.kind("hand-written step, torch.compile") == standard_fixes.CEILING
    assert standard_fixes.kind("amortised: 10 epochs per compiled call") == standard_fixes.CEILING


def test_day_5b_speaks_chinese(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    wide = Workload("wide network, 1000 rows", 2e9, 12e6, 0.025)
    assert day05b.roofline_point(wide, ROOF).startswith("**宽网络，1000 行**")
    assert wide.name == "wide network, 1000 rows"
    notes = {"amortised: 10 epochs per compiled call": "x", "hand-written step, CUDA graphs": "y"}
    said = day05b_fixes.same_losses_note(notes)
    assert "摊销（每次编译调用跑 10 个轮次）：x；手写的训练步，CUDA 图：y" in said
    variants = {"lesson loop, .item() every 100 epochs": 500e-6, "hand-written step": 100e-6}
    table = compiled.end_to_end(variants, {}, {}, 20_000, "lesson loop, .item() every 100 epochs")
    advice = day05b_fixes.compile_advice(table, 20_000, 10**6)
    assert "**手写的训练步**" in advice and "hand-written" not in advice


def test_no_standard_fix_that_beat_the_lesson_loop_is_said_so():
    said = day05b_fixes.fastest_finding(
        standard="losses kept on the device", standard_speedup=0.98, standard_low=0.9,
        ceiling="amortised", ceiling_speedup=6.9, ceiling_epoch=41e-6, arithmetic=0.65e-6,
        slower=["losses kept on the device"], repeats=5, epochs=2000,
    )  # fmt: skip
    assert "**No standard-code fix beat the lesson loop here**" in said
    assert "The fastest **standard-code** fix" not in said


def test_the_same_fixes_on_a_gpu_come_from_the_receipt_beside_this_machine(tmp_path):
    from helpers import paths, receipts

    shelf = receipts.load_all(tmp_path / "none", reference=paths.GPU_REFERENCE)
    here = {"lesson loop, .item() every 100 epochs": 1.0, "fused optimiser": 0.98}
    found = day05b_fixes.beside_receipt(here, "cpu", shelf)
    table = found.table
    assert table.loc["fused optimiser"].iloc[2] == "not measured"  # the reference predates it
    amortised = table.loc["amortised: 10 epochs per compiled call"]
    assert amortised.iloc[1] == "not measured" and amortised.iloc[2].startswith("17.97×")
    assert "(3 rounds in 4 at least 17.28×)" in amortised.iloc[2]
    assert "NVIDIA H200" in found.text
