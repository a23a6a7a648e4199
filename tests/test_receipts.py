"""helpers.receipts: the schema, its plausibility bounds, and finding the learner's receipts, with
the fixture receipts of tests/fixtures/receipts (hand-written, realistic, not measurements)."""

import json
import shutil
from pathlib import Path

import pytest

from helpers import receipts

FIXTURES = Path(__file__).parent / "fixtures" / "receipts"
H100, A100S, LAPTOP, M2 = (
    FIXTURES / "one_gpu" / "h100.json",
    FIXTURES / "two_gpus" / "a100x2.json",
    FIXTURES / "cpu" / "laptop.json",
    FIXTURES / "mps" / "m2.json",
)
EPYC = FIXTURES / "avx2" / "epyc.json"


def payload(path=H100):
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", [H100, A100S, LAPTOP, M2, EPYC])
def test_the_good_fixtures_are_valid(path):
    assert receipts.validate(payload(path)) == []


def test_the_malformed_fixture_names_each_key():
    problems = receipts.validate(payload(FIXTURES / "broken" / "malformed.json"))
    assert problems == [
        "copies: '64 MiB at 25 GB/s' is not a table",
        "machine.count: '1' is not a whole number",
        "sync.item_s: missing (a number)",
    ]


def test_the_implausible_fixture_breaks_three_bounds():
    problems = receipts.validate(payload(FIXTURES / "broken" / "implausible.json"))
    assert [p.split(":")[0] for p in problems] == [
        "sync.launch_s",
        "copies.h2d_pinned",
        "roofs.peak_flops",
    ]
    assert "faster than the bus (64 GB/s)" in problems[1]


def changed(edit, path=H100):
    data = payload(path)
    edit(data)
    return receipts.validate(data)


def test_not_an_object_and_another_schema():
    assert receipts.validate([1, 2]) == ["the file holds a list, not a receipt (a JSON object)"]
    old = {"card": {"gpu": "NVIDIA H100"}, "points": []}  # the reference's format before receipts
    assert receipts.validate(old) == ["schema: None is not course-receipt/1"]


def test_types_optional_nulls_and_booleans():
    assert changed(lambda d: d["sync"].update(graph_node_s=None)) == []
    assert changed(lambda d: d["sync"].update(launch_s=True)) == [
        "sync.launch_s: True is not a number"
    ]
    assert changed(lambda d: d.update(allreduce=[])) == ["allreduce: [] is not a table or null"]
    assert changed(lambda d: d["day06"].update(points={})) == ["day06.points: {} is not a list"]
    assert changed(lambda d: d.update(machine=None))[0] == "machine: None is not a table"


def test_mode_device_count_and_date():
    assert changed(lambda d: d.update(mode="quick")) == ["mode: 'quick' is not one of full, fast"]
    assert changed(lambda d: d["machine"].update(device="xpu")) == [
        "machine.device: 'xpu' is not one of cuda, mps, cpu"
    ]
    assert changed(lambda d: d["machine"].update(count=0)) == ["machine.count: 0 devices"]
    assert changed(lambda d: d.update(date="28/11/2026")) == [
        "date: '28/11/2026' is not an ISO 8601 date and time"
    ]
    assert changed(lambda d: d.update(date="2026-11-28T14:05:12")) == [
        "date: '2026-11-28T14:05:12' has no time zone (e.g. +00:00)"
    ]


@pytest.mark.parametrize("launch", [0.5e-6, 250e-6])
def test_a_cuda_launch_lies_between_1_and_100_us(launch):
    problems = changed(lambda d: d["sync"].update(launch_s=launch))
    assert problems[0].startswith("sync.launch_s:") and "outside 1 to 100 µs" in problems[0]


def test_launch_and_item_off_cuda():
    assert changed(lambda d: d["sync"].update(launch_s=0.0), LAPTOP) == [
        "sync.launch_s: 0.0 is not a positive time"
    ]
    # on a CPU .item() reads memory: cheaper than an operator (the laptop fixture), not a problem
    assert payload(LAPTOP)["sync"]["item_s"] < payload(LAPTOP)["sync"]["launch_s"]
    # on a GPU it is a round trip: 1 µs to 1 ms, and it may come out below a launch (an H200:
    # a launch measured at 11 µs, an .item() at 9 µs)
    assert changed(lambda d: d["sync"].update(item_s=5e-6), M2) == []
    assert changed(lambda d: d["sync"].update(launch_s=11.2e-6, item_s=8.9e-6)) == []
    assert changed(lambda d: d["sync"].update(item_s=0.5e-6), M2) == [
        "sync.item_s: one .item() (0.5 µs) is outside 1 µs to 1 ms, where a round trip to a mps "
        "device lies"
    ]
    assert changed(lambda d: d["sync"].update(item_s=0.0), LAPTOP) == [
        "sync.item_s: 0.0 is not a positive time"
    ]
    assert changed(lambda d: d["sync"].update(graph_node_s=-1e-6)) == [
        "sync.graph_node_s: -1 µs per node is not plausible"
    ]


def test_bandwidth_bounds():
    # the copy within the device is not bounded by the bus (the H100's 2.9 TB/s against 64 GB/s)
    assert payload(H100)["copies"]["on_device"] > payload(H100)["roofs"]["bus_bytes_per_s"]
    assert changed(lambda d: d["copies"].update(on_device=1.2e13)) == [
        "copies.on_device: 1.2e+04 GB/s is outside 0 to 10,000 GB/s"
    ]
    assert changed(lambda d: d["copies"].update(d2h_pageable=7e10)) == [
        "copies.d2h_pageable: 70 GB/s is faster than the bus (64 GB/s)"
    ]
    unknown_bus = changed(lambda d: d["roofs"].update(bus_bytes_per_s=None, peak_flops=1e14) or
                          d["copies"].update(h2d_pinned=7e10))  # fmt: skip
    assert unknown_bus == ["roofs.peak_flops: 100 TFLOP/s is above the datasheet's 67 TFLOP/s"]
    assert changed(lambda d: d["roofs"].update(bandwidth_bytes_per_s=0)) == [
        "roofs.bandwidth_bytes_per_s: 0 GB/s is outside 0 to 10,000 GB/s"
    ]


def test_flops_bounds():
    assert changed(lambda d: d["roofs"].update(peak_flops=2e16)) == [
        "roofs.peak_flops: 2e+04 TFLOP/s is outside 0 to 10,000 TFLOP/s"
    ]
    assert changed(lambda d: d["roofs"].update(peak_flops=9e13, datasheet_flops=None)) == []


def test_lesson_sections():
    lesson = "lesson loop, .item() every epoch"
    assert changed(lambda d: d["day05"]["variants"][lesson].update(speedup=0)) == [
        f"day05.variants[{lesson!r}].speedup: 0 is not positive"
    ]
    assert changed(lambda d: d["day05"]["variants"][lesson].update(speedup_q1=0.9)) == []
    assert changed(lambda d: d["day05"]["variants"][lesson].update(speedup_q1="0.9")) == [
        f"day05.variants[{lesson!r}].speedup_q1: '0.9' is not positive"
    ]
    assert changed(lambda d: d["day05"].update(busy_share=0.09)) == []
    assert changed(lambda d: d["day05"].update(busy_share=9)) == [
        "day05.busy_share: 9 is not a share between 0 and 1"
    ]
    assert changed(lambda d: d["day05"].update(fastest="CUDA graphs")) == [
        "day05.fastest: 'CUDA graphs' is not one of day05.variants"
    ]
    assert changed(lambda d: d["day06"]["points"][0].update(seconds=0)) == [
        "day06.points[0]: needs a model, rows > 0 and seconds > 0"
    ]
    name = "wide 4-512-512-3, 4096 rows"
    assert changed(lambda d: d["day07"][name].update(MFU=32)) == [
        f"day07[{name!r}]: its busy share and MFU must lie between 0 and 1"
    ]


def test_allreduce_bounds():
    assert changed(lambda d: d["allreduce"].update(gpus=4), A100S) == [
        "allreduce.gpus: 4 is not between 2 and machine.count"
    ]
    assert changed(lambda d: d["allreduce"]["points"][1].update(bus_bytes_per_s=-1), A100S) == [
        "allreduce.points[1].bus_bytes_per_s: -1 is not a plausible rate"
    ]


def test_load_names_the_file_the_key_and_the_fix(tmp_path):
    receipt = receipts.load(A100S)
    assert receipt.name == "2 × NVIDIA A100-SXM4-80GB" and receipt.day == "2026-11-30"
    assert receipts.load(H100).name == "NVIDIA H100 80GB HBM3" and not receipt.reference
    broken = FIXTURES / "broken" / "malformed.json"
    with pytest.raises(receipts.ReceiptError, match=r"malformed\.json: copies: .*helpers receipt"):
        receipts.load(broken)
    (tmp_path / "cut.json").write_text('{"schema": "course-rec', encoding="utf-8")
    with pytest.raises(receipts.ReceiptError, match=r"cut\.json: not a readable JSON file"):
        receipts.load(tmp_path / "cut.json")


def test_the_folder_setting(monkeypatch, tmp_path):
    monkeypatch.delenv("COURSE_RECEIPTS", raising=False)
    assert receipts.folder() == receipts.RECEIPTS and receipts.RECEIPTS.name == "receipts"
    monkeypatch.setenv("COURSE_RECEIPTS", str(tmp_path))
    assert receipts.folder() == tmp_path and receipts.find() == []
    assert receipts.find(tmp_path / "absent") == []


def test_load_all_prefers_the_learners_and_lists_the_broken(tmp_path):
    for path in [H100, A100S, LAPTOP, FIXTURES / "broken" / "implausible.json"]:
        shutil.copy(path, tmp_path / path.name)
    shelf = receipts.load_all(tmp_path, reference=M2)
    assert [r.path.name for r in shelf.receipts] == ["laptop.json", "a100x2.json", "h100.json"]
    assert len(shelf.broken) == 1 and "implausible.json: sync.launch_s" in shelf.broken[0]
    assert shelf.pick().path.name == "a100x2.json"  # the newest GPU, not the newer laptop
    assert shelf.pick(gpus=2).path.name == "a100x2.json"


def test_load_all_falls_back_on_the_reference(tmp_path):
    shelf = receipts.load_all(tmp_path / "none", reference=H100)
    assert shelf.pick().reference and shelf.broken == []
    assert shelf.pick(gpus=2) is None
    nothing = receipts.load_all(tmp_path, reference=tmp_path / "gpu_reference.json")
    assert nothing.receipts == [] and nothing.pick() is None
    bad = receipts.load_all(tmp_path, reference=FIXTURES / "broken" / "malformed.json")
    assert bad.receipts == [] and "malformed.json" in bad.broken[0]


def test_a_cpu_receipt_is_picked_when_there_is_no_gpu(tmp_path):
    shutil.copy(LAPTOP, tmp_path)
    shelf = receipts.load_all(tmp_path, reference=None)
    assert shelf.pick().device == "cpu" and shelf.pick(gpus=2) is None


def test_a_receipt_from_before_day_7b_has_no_ladder_and_stays_valid():
    data = payload(A100S)
    assert "day07b" not in data and receipts.validate(data) == []


def test_the_ladder_section_is_checked_when_there_is_one():
    data = payload(H100)
    data["day07b"]["peaks"]["bf16"] = 1.2e15  # faster than the H100's datasheet promises
    data["day07b"]["rungs"][2]["tokens_per_s"] = -5.0
    data["day07b"]["rungs"][3]["kept"] = "yes"
    del data["day07b"]["rungs"][4]["saved_bytes"]
    assert receipts.validate(data) == [
        "day07b.peaks.bf16: 1,200 TFLOP/s is above the datasheet's 989.4 TFLOP/s",
        "day07b.rungs[2].tokens_per_s: -5.0 is not positive",
        "day07b.rungs[3].kept: 'yes' is not a flag",
        "day07b.rungs[4].saved_bytes: missing (a whole number or null)",
    ]
    data["day07b"] = {"peaks": {}}
    assert receipts.validate(data)[0] == "day07b.shape: missing (a table)"
    data["day07b"] = "fast"
    assert receipts.validate(data) == ["day07b: 'fast' is not a table"]


def test_a_cpu_ladder_needs_a_float32_peak_and_nothing_else():
    data = payload(EPYC)
    assert data["day07b"]["peaks"]["tf32"] is None and receipts.validate(data) == []
    data["day07b"]["peaks"]["fp32"] = None
    assert receipts.validate(data) == ["day07b.peaks.fp32: None is not a plausible FLOP/s"]
