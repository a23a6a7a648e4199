"""Each day's receipt figures beside this machine's (dayNN.beside_receipt),
with the fixture receipts (one GPU, two GPUs, a CPU, a malformed one, none at all)."""

import shutil
from pathlib import Path

import pandas as pd
import pytest

from helpers import (
    day01,
    day02,
    day05a_receipt,
    day05a_rules,
    day06,
    day07,
    day08,
    loop_prices,
    paths,
    receipts,
    takeoff,
)

FIXTURES = Path(__file__).parent / "fixtures" / "receipts"
HOW_TO = "python -m helpers receipt --out"


def shelf_of(tmp_path, *names, reference=None):
    """A receipts folder holding copies of the named fixtures (``one_gpu/h100.json``...)."""
    for name in names:
        shutil.copy(FIXTURES / name, tmp_path / Path(name).name)
    return receipts.load_all(tmp_path, reference=reference)


ONE, TWO, CPU, M2 = "one_gpu/h100.json", "two_gpus/a100x2.json", "cpu/laptop.json", "mps/m2.json"
MALFORMED = "broken/malformed.json"
HERE_CARD = {  # hardware.card() of a CPU-only machine
    "cpu": "AMD EPYC 7B13", "memory_gb": 31.4, "torch": "2.13.0+cpu", "torch_threads": 2,
    "device": "cpu",
}  # fmt: skip


def test_day01_puts_every_card_beside_this_machine(tmp_path):
    found = day01.beside_receipt(HERE_CARD, shelf_of(tmp_path, ONE, CPU))
    assert list(found.table.columns) == [
        "this machine (cpu), now",
        "NVIDIA H100 80GB HBM3, 2026-11-28 (your receipt)",
        "AMD Ryzen 7 7840U w/ Radeon 780M Graphics, 2026-12-01 (your receipt)",
    ]
    assert found.table.iloc[1].tolist() == ["31.4 GB", "85.0 GB", "33.6 GB"]
    assert "from `h100.json`" in found.text and "Also: **AMD Ryzen" in found.text


def test_day01_without_a_receipt_says_how_to_make_one(tmp_path):
    found = day01.beside_receipt(HERE_CARD, receipts.load_all(tmp_path, reference=None))
    assert found.table is None and HOW_TO in found.text
    assert f"copy the file into `{receipts.folder()}`" in found.text


def test_the_reference_is_labelled_as_not_yours(tmp_path):
    found = day01.beside_receipt(HERE_CARD, receipts.load_all(tmp_path, reference=FIXTURES / ONE))
    assert "(the course's reference, not yours)" in found.table.columns[1]
    assert "measured by the course, not by you" in found.text


def test_a_malformed_receipt_is_skipped_and_named(tmp_path):
    found = day01.beside_receipt(HERE_CARD, shelf_of(tmp_path, MALFORMED, ONE))
    assert found.text.startswith("Skipped a broken receipt: ") and "malformed.json" in found.text
    assert found.table.shape[1] == 2
    alone = day01.beside_receipt(HERE_CARD, shelf_of(tmp_path / "..", MALFORMED))
    assert alone.table is None and "malformed.json" in alone.text and HOW_TO in alone.text


def copies_here(device_type="cpu"):
    """Day 2's table on this CPU (two sizes per variant, GB/s as measure_copies computes it)."""
    variants = {"cpu": ["CPU memory, copy_ into a buffer", "CPU memory, clone() allocates"]}
    rows = [
        {"variant": v, "bytes": n, "GB/s": rate}
        for v in variants[device_type]
        for n, rate in [(1024, 0.9), (2**20, 12.0), (4 * 2**20, 7.5)]  # peak in the cache
    ]
    return pd.DataFrame(rows)


def test_day02_copies_pageable_and_pinned_beside_the_cpu_copy(tmp_path):
    found = day02.beside_receipt(copies_here(), "cpu", shelf_of(tmp_path, ONE))
    assert found.table.iloc[:, 1].tolist() == [
        "19.0 GB/s (64 MiB)", "49.0 GB/s (64 MiB)", "16.0 GB/s (64 MiB)", "50.0 GB/s (64 MiB)",
        "2,900.0 GB/s (64 MiB)",
    ]  # fmt: skip
    # the CPU's copy_ at day 2's largest size, named: not its best rate at a size in the cache
    assert found.table.iloc[:, 0].tolist()[-1] == "7.5 GB/s (4 MiB)"
    # one row, one convention: the CPU's copy and the GPU's within-device copy both count read +
    # write; the bus's rows count each byte once, and every row says which
    assert found.table.index[-1] == "within the device, read + write (on a CPU: memory to memory)"
    assert all(name.endswith("(each byte once)") for name in found.table.index[:4])
    assert "pinned copy of 67,108,864 bytes ran 2.6× as fast as a pageable one" in found.text


def test_day02_with_a_cpu_receipt_has_no_bus(tmp_path):
    found = day02.beside_receipt(copies_here(), "cpu", shelf_of(tmp_path, CPU))
    assert found.table.iloc[:4, 1].tolist() == ["not measured"] * 4
    assert "pinned copy" not in found.text
    assert day02.beside_receipt(copies_here(), "cpu", shelf_of(tmp_path / "..")).table is None


def test_day06_source_needs_a_gpu(tmp_path):
    assert "2 × NVIDIA A100-SXM4-80GB" in day06.beside_receipt(shelf_of(tmp_path, TWO, CPU)).text
    cpu_only = day06.beside_receipt(receipts.load_all(FIXTURES / "cpu", reference=None))
    assert "No GPU curve to draw" in cpu_only.text and HOW_TO in cpu_only.text


def test_load_reference_reads_the_gpu_curve_of_a_receipt(tmp_path, monkeypatch):
    from helpers.narration import receipt_label

    receipt, table = takeoff.load_reference(shelf_of(tmp_path, ONE, CPU))
    assert receipt_label(receipt) == "NVIDIA H100 80GB HBM3, 2026-11-28 (your receipt)"
    assert set(table["device"]) == {"cuda"} and set(table["model"]) == set(takeoff.MODELS)
    first = table.iloc[0]
    assert first["flops"] == takeoff.flops_per_step(takeoff.MODELS[first["model"]], first["rows"])
    crossing = takeoff.curve_crossover(
        table[(table["model"] == "IrisMLP 4-10-3")].assign(seconds=lambda t: t["rows"] * 2e-8),
        table[table["model"] == "IrisMLP 4-10-3"],
    )  # a CPU curve of 20 ns per row crosses the H100's flat 190 µs near 10,000 rows
    assert 5_000 < crossing < 20_000
    assert takeoff.load_reference(receipts.load_all(FIXTURES / "cpu", reference=None)) is None
    assert takeoff.load_reference(receipts.load_all(tmp_path / "none", reference=None)) is None
    monkeypatch.setenv("COURSE_RECEIPTS", str(tmp_path / "none"))  # the learner has none
    assert takeoff.load_reference(reference=FIXTURES / ONE)[0].reference is True


CPU_VERDICT = day05a_rules.Judgement("issue", "supported (second half only)")
HERE = {"recording": 1.1e-6, "lesson": 9.5e-5, "kept": 9.0e-5, "fastest": 6.0e-6}


def test_day05_prices_the_sync_and_the_floor_on_the_gpu(tmp_path):
    receipt = receipts.load(FIXTURES / ONE)
    prices = loop_prices.prices(receipt)
    assert prices["recording"] == pytest.approx(50e-6)  # 210 µs recording, 160 µs not
    assert prices["launches"] == pytest.approx(21 * 4.6e-6)
    assert prices["student"] == pytest.approx(20_000 * 160e-6 + 200 * 50e-6)
    found = day05a_receipt.beside_receipt(HERE, CPU_VERDICT, "cpu", shelf_of(tmp_path, ONE))
    assert found.table.iloc[:, 1].tolist()[:2] == ["17.0 µs", "50.0 µs"]
    assert found.table.iloc[:, 0].tolist()[:3] == ["not measured", "1.1 µs", "not measured"]
    assert "here *supported (second half only)*; on NVIDIA H100" in found.text
    assert "*supported*" in found.text and "at least 14.40×" in found.text  # the quartile


def test_day05_judges_the_third_part_with_each_outcome():
    gpu = receipts.load(FIXTURES / ONE)
    assert day05a_rules.judge_receipt(gpu).verdict == "supported"
    payload = receipts.load(FIXTURES / ONE).payload
    payload["day07"]["lesson loop 4-10-3, 120 rows"]["device busy share"] = 0.8  # kernels busy
    busy = receipts.Receipt(gpu.path, payload)
    assert day05a_rules.judge_receipt(busy).verdict == "not supported"
    laptop = receipts.load(FIXTURES / CPU)
    assert day05a_rules.judge_receipt(laptop).verdict == "supported (second half only)"
    payload["day07"] = {}  # no busy share of the lesson loop, and no day05.busy_share
    assert day05a_rules.judge_receipt(receipts.Receipt(gpu.path, payload)) is None
    payload["day05"]["busy_share"] = 0.1
    assert loop_prices.busy_share(receipts.Receipt(gpu.path, payload)) == 0.1


def test_day05_without_losses_kept_on_the_device_and_with_a_quartile(tmp_path):
    payload = receipts.load(FIXTURES / M2).payload
    del payload["day05"]["variants"]["losses kept on the device"]
    payload["day05"]["variants"]["hand-written step"]["speedup_q1"] = 2.5
    m2 = receipts.Receipt(FIXTURES / M2, payload)
    assert loop_prices.prices(m2)["recording"] == pytest.approx(180e-6)  # one .item()
    shelf = receipts.Shelf([m2], [])
    found = day05a_receipt.beside_receipt(HERE, CPU_VERDICT, "cpu", shelf)
    assert "at least 2.50×" in found.text and "median" not in found.text
    del payload["day05"]["variants"]["hand-written step"]["speedup_q1"]  # a median alone
    assert day05a_rules.judge_receipt(m2) is None
    assert (
        "not the lower quartile"
        in day05a_receipt.beside_receipt(HERE, CPU_VERDICT, "cpu", shelf).text
    )
    payload["day07"] = {}
    assert "no busy share" in day05a_receipt.beside_receipt(HERE, CPU_VERDICT, "cpu", shelf).text


def test_day05_without_a_receipt(tmp_path):
    found = day05a_receipt.beside_receipt(HERE, CPU_VERDICT, "cpu", shelf_of(tmp_path, MALFORMED))
    assert found.table is None and HOW_TO in found.text and "malformed.json" in found.text


FIGURES = {"lesson loop 4-10-3, 120 rows": {"device busy share": 0.31, "MFU": 9e-4}}


def test_day07_puts_mfu_and_bandwidth_side_by_side(tmp_path):
    found = day07.beside_receipt(FIGURES, 1.2e11, "cpu", 1.1e10, shelf_of(tmp_path, ONE))
    table = found.table
    assert table.loc["lesson loop 4-10-3, 120 rows: MFU"].tolist() == ["0.09%", "0.0004%"]
    assert table.loc["wide 4-512-512-3, 4096 rows: MFU"].tolist() == ["not measured", "32%"]
    bandwidth = "memory bandwidth (a copy within the device, read + write)"
    assert table.loc[bandwidth].tolist() == ["11.0 GB/s (64 MiB)", "2,900.0 GB/s (64 MiB)"]
    two = day07.beside_receipt(FIGURES, 1.2e11, "cpu", 1.1e10, shelf_of(tmp_path, ONE), threads=2)
    assert two.table.loc[bandwidth].tolist()[0] == "11.0 GB/s (64 MiB, 2 threads)"
    # like with like: this machine's 64 MiB copy beside the receipt's 64 MiB copy within the
    # device (copies.on_device), not beside day 5's roof measured at another size
    assert "That receipt timed each step alone" in found.text  # a receipt before step_profile
    assert table.loc["peak FLOP/s (a large matrix product)"].tolist() == [
        "0.120 TFLOP/s", "51.000 TFLOP/s",
    ]  # fmt: skip
    on_two = day07.beside_receipt(FIGURES, 1.2e11, "cpu", found=shelf_of(tmp_path, TWO))
    assert "2 × NVIDIA A100-SXM4-80GB" in on_two.table.columns[1]
    laptop = day07.beside_receipt(
        FIGURES, 1.2e11, "cpu", found=receipts.load_all(FIXTURES / "cpu", None)
    )
    assert laptop.table.iloc[-1].tolist() == ["not measured", "not measured"]
    assert day07.beside_receipt(FIGURES, 1e11, "cpu", found=shelf_of(tmp_path / "..")).table is None


def test_day08_needs_two_gpus(tmp_path):
    fitted = {"dist.all_reduce": 1.8e9, "ring": None}
    found = day08.beside_receipt(fitted, shelf_of(tmp_path, TWO))
    assert found.table.iloc[:, 0].tolist() == ["35.0 GB/s", "105.0 GB/s", "179.0 GB/s"]
    assert found.table.index[0].endswith(" bytes")
    assert "2 GPUs: 2 × NVIDIA A100-SXM4-80GB, 2026-11-30" in found.table.columns[0]
    assert "**dist.all_reduce** here: 1.8 GB/s fitted" in found.text and "99×" in found.text
    one = day08.beside_receipt(fitted, receipts.load_all(FIXTURES / "one_gpu", None))
    assert one.table is None and "No receipt of two or more GPUs" in one.text
    assert day08.beside_receipt(fitted, receipts.load_all(FIXTURES / "cpu", None)).table is None


def test_the_sentences_exist_in_chinese(monkeypatch, tmp_path):
    monkeypatch.setenv("COURSE_LANG", "zh")
    found = day01.beside_receipt(HERE_CARD, shelf_of(tmp_path, ONE))
    assert found.table.columns[1] == "NVIDIA H100 80GB HBM3，2026-11-28（你的测量单）"
    assert "与本机并排" in found.text
    ring = day08.beside_receipt({"dist.all_reduce": 1.8e9}, shelf_of(tmp_path, TWO)).table
    assert ring.index[0].endswith(" 字节")


def test_show_displays_the_sentences_and_the_table(capsys, tmp_path):
    day01.beside_receipt(HERE_CARD, shelf_of(tmp_path, ONE)).show()
    out = capsys.readouterr().out
    assert "Beside this machine" in out and "85.0 GB" in out


def test_the_reference_s_price_of_a_recording_is_per_recording_and_said_to_be_noise():
    """The H200 reference records every 100 epochs: its lesson loop's epoch less the kept loop's
    (982.5 - 957.5 µs) is 25 µs per *epoch*, so 2.5 ms per recording; and that loop was not faster
    without the recordings in three rounds out of four (lower quartile 0.96), so the price is
    not told from noise. The student's run is priced with the per-recording figure."""
    reference = receipts.load(paths.GPU_REFERENCE)
    prices = loop_prices.prices(reference)
    assert loop_prices.every(reference) == 100
    assert prices["recording"] == pytest.approx(2.495e-3, rel=1e-3)
    assert not loop_prices.recording_told(reference)
    assert prices["student"] == pytest.approx(20_000 * 957.5e-6 + 200 * 2.495e-3, rel=1e-3)
    found = day05a_receipt.beside_receipt(HERE, CPU_VERDICT, "cpu", receipts.Shelf([reference], []))
    assert "**it cannot be told from noise**" in found.text
    assert "took about 13.4 s on their consumer GPU" in found.text
    # the reference predates the recording sweeps: part 2 says "not measured", not a verdict
    assert "**The second part (a threshold):** not measured on this receipt" in found.text


REFERENCE = Path(__file__).parents[1] / "data" / "gpu_reference.json"


def test_day07_reads_the_reference_s_copy_like_with_like(tmp_path):
    # the H200's receipt: its 64 MiB copy within the device, 3,890.5 GB/s read + write; day 5's
    # roof (4,216.3 GB/s, another size) stood in that row before, beside a 16 MiB copy here
    shelf = receipts.load_all(tmp_path / "none", reference=REFERENCE)
    found = day07.beside_receipt(FIGURES, 1.2e11, "cpu", 1.76e10, shelf, threads=2)
    row = found.table.loc["memory bandwidth (a copy within the device, read + write)"]
    assert row.tolist() == ["17.6 GB/s (64 MiB, 2 threads)", "3,890.5 GB/s (64 MiB)"]
    assert "That receipt timed each step alone" in found.text
    note = day07.bandwidths_note(1.76e10, threads=2)
    assert "17.6 GB/s, 64 MiB with 2 thread(s), counted read + write" in note


def test_the_reference_s_host_and_pytorch_are_named_beside_its_figures(tmp_path):
    # the H200's launch (9.3 µs) and its lesson epoch (982 µs) are its host CPU's work as much as
    # the GPU's; it ran torch 2.11 where the course pins 2.13
    shelf = receipts.load_all(tmp_path / "none", reference=REFERENCE)
    for found in (
        day06.beside_receipt(shelf),
        day07.beside_receipt(FIGURES, 1.2e11, "cpu", 1.76e10, shelf),
        day01.beside_receipt(HERE_CARD, shelf),
    ):
        assert "Its host: **Intel(R) Xeon(R) Processor**, 16 threads" in found.text
        assert "whether it is a virtual machine, the receipt does not say" in found.text
        assert "measures this host too" in found.text
        assert "It ran PyTorch 2.11.0+cu130; the course is tested with 2.13.0" in found.text
    newer = receipts.Receipt(REFERENCE, receipts.load(REFERENCE).payload, reference=True)
    newer.payload["machine"] = newer.payload["machine"] | {"torch": "2.13.0+cu130"}
    newer.payload["host"] = {"cpu": "x", "usable_cpus": 16, "virtual_machine": True,
                             "jpeg_per_core_per_s": 400.0}  # fmt: skip
    from helpers.narration import host_note

    note = host_note(newer, ours="2.13.0+cpu")
    assert "(a virtual machine)" in note and "PyTorch" not in note
    cpu_only = day01.beside_receipt(HERE_CARD, shelf_of(tmp_path, CPU))
    assert "Its host" not in cpu_only.text  # a CPU's receipt is its own host
