import pandas as pd
import pytest
import torch

from helpers import copies, day02


def test_pieces_per_run_fills_the_pool_up_to_a_cap():
    assert copies.pieces_per_run(2**20) == copies.POOL_BYTES // 2**20
    assert copies.pieces_per_run(1024) == copies.MAX_PIECES
    assert copies.pieces_per_run(2 * copies.POOL_BYTES) == 1
    with pytest.raises(ValueError, match="multiple of 4 bytes"):
        copies.pieces_per_run(6)


def test_rotating_goes_round_the_pool_without_repeating_within_a_run():
    nxt = copies._rotating(3, 5)
    assert nxt() == [0, 1, 2]
    assert nxt() == [3, 4, 0]


def test_cpu_variants_copy_into_the_existing_buffer_and_clone_allocates():
    pools = copies.CopyPools(torch.device("cpu"), 2**20)
    target = pools.target
    variants = pools.variants(2**20)
    assert list(variants) == ["CPU memory, copy_ into a buffer", "CPU memory, clone() allocates"]
    variants["CPU memory, copy_ into a buffer"]()
    assert pools.target is target  # written in place
    assert torch.equal(target, torch.ones_like(target))  # every piece copied once in one run


@pytest.mark.parametrize(
    ("kind", "names"),
    [
        ("cuda", ["pageable -> GPU, copy_", "pinned -> GPU, copy_",
                  "pinned -> GPU, copy_ non_blocking", "pageable -> GPU, .to() allocates"]),
        ("mps", ["host -> MPS, copy_", "host -> MPS, .to() allocates"]),
    ],
)  # fmt: skip
def test_gpu_variants_are_named_for_their_device(kind, names):
    pools = copies.CopyPools(torch.device("meta"), 4096)  # tensors need no GPU; only names read
    pools.device = torch.device(kind)
    assert list(pools.variants(4096)) == names


def test_measure_copies_reports_time_per_copy():
    table = copies.measure_copies(torch.device("cpu"), [1024, 2**20], repeats=2, warmup=1)
    assert len(table) == 4
    assert set(table["pieces"]) == {copies.MAX_PIECES, copies.POOL_BYTES // 2**20}
    assert (table["median_s"] > 0).all()
    assert (table["q1_s"] <= table["q3_s"]).all()
    # one convention for every bandwidth: a copy within the CPU's memory reads and writes each
    # byte, so it counts twice its size, as the roofline's copy and a receipt's on-device copy do
    ratio = 2 * table["bytes"] / table["median_s"] / 1e9
    assert ratio.tolist() == pytest.approx(table["GB/s"].tolist())
    assert set(table["traffic"]) == {2}


def test_one_bandwidth_convention_for_day_2_and_the_roofline(monkeypatch):
    from helpers import roofline, timing

    fixed = timing.Measurement([0.01])  # every copy takes 10 ms
    monkeypatch.setattr(roofline, "benchmark", lambda *args, **kwargs: fixed)
    elements = 2**24  # 64 MiB of float32, day 2's largest copy and a receipt's copies.bytes
    assert roofline.measure_bandwidth("cpu", elements) == pytest.approx(2 * 2**26 / 0.01)
    assert copies.traffic(2**26, within_one_memory=True) == 2 * 2**26
    assert copies.traffic(2**26, within_one_memory=False) == 2**26


def frame(variant, rows):
    data = pd.DataFrame(rows, columns=["bytes", "median_s"]).assign(variant=variant)
    data["GB/s"] = data["bytes"] / data["median_s"] / 1e9
    return data


# CPU copy_ on this machine kind: ~5 µs at 1 KiB, peak near 1 MiB, ~3 GB/s at 64 MiB
FALLS = [(1024, 5e-6), (2**20, 2.9e-4), (2**26, 0.030)]
STAYS = [(1024, 5e-6), (2**20, 2.9e-4), (2**26, 0.0195)]
PEAK_AT_LARGEST = [(1024, 5e-6), (2**20, 3.5e-4), (2**26, 0.0173)]


def findings(part):
    return day02.variant_findings(copies.copy_curve(part))


def finding(table, kind):
    pair = copies.allocation_pair(table)
    return None if pair is None else day02.allocation_finding(pair, kind)


def test_a_variants_curve_holds_the_figures_the_findings_read():
    curve = copies.copy_curve(frame("v", FALLS))
    assert (curve.fixed_s, curve.quickest_bytes, curve.peak_bytes) == (5e-6, 1024, 2**20)
    assert (curve.smallest_bytes, curve.largest_bytes, curve.pieces) == (1024, 2**26, 65536)
    assert not curve.peak_at_largest and curve.largest_share == pytest.approx(2.237 / 3.616, 1e-3)
    assert curve.best_split_s == pytest.approx(64 * 2.9e-4)
    assert curve.pieces_ratio == pytest.approx(65536 * 5e-6 / 0.030)


def test_findings_when_throughput_falls_above_the_peak():
    first, pieces, above = findings(frame("v", FALLS))
    assert "5.0 µs (the 1,024-byte one)" in first
    assert "peaks at 3.6 GB/s (each byte once, at 1,048,576 bytes)" in first
    assert "18 KiB are copied in the fixed cost's time" in first
    assert "65,536 copies of 1,024" in pieces and "the best size here, 18.6 ms" in pieces
    assert above.startswith("Above 1,048,576 bytes bandwidth falls to 2.2 GB/s")


def test_findings_when_throughput_stays_near_the_peak():
    *_, above = findings(frame("v", STAYS))
    assert copies.copy_curve(frame("v", STAYS)).largest_share >= day02.PEAK_HOLDS
    assert "stays within 20 % of the peak" in above


def test_findings_when_the_largest_copy_is_the_fastest():
    found = findings(frame("v", PEAK_AT_LARGEST))
    assert len(found) == 2
    assert found[1].endswith("(17.3 ms), the best size here.")
    assert "**18.9×**" in found[1]


def test_allocation_finding_on_each_device():
    table = pd.concat(
        [
            frame("CPU memory, copy_ into a buffer", STAYS),
            frame("CPU memory, clone() allocates", [(1024, 9e-6), (2**26, 0.129)]),
        ]
    )
    pair = copies.allocation_pair(table)
    assert (pair.bytes, pair.alloc_s, pair.plain_s) == (2**26, 0.129, 0.0195)
    cpu = finding(table, "cpu")
    assert "**129.00 ms**" in cpu and "**19.50 ms** (6.6×)" in cpu and "page fault" in cpu
    gpu = table.replace(
        {"variant": {"CPU memory, clone() allocates": "host -> MPS, .to() allocates"}}
    )
    assert "caching allocator" in finding(gpu, "mps")
    assert copies.allocation_pair(frame("CPU memory, copy_ into a buffer", STAYS)) is None


@pytest.mark.parametrize(
    ("kind", "system", "says"),
    [
        ("cpu", "Linux", "glibc"),
        ("cpu", "Darwin", "the C library hands large blocks straight to the operating system"),
        ("cuda", "Linux", "caching allocator"),
    ],
)
def test_allocation_note_names_what_this_device_and_system_do(kind, system, says):
    note = day02.allocation_note(kind, system)
    assert says in note
    assert ("glibc" in note) == (kind == "cpu" and system == "Linux")


@pytest.mark.parametrize(
    ("one", "two", "words"),
    [
        (0.0181, 0.0113, "here the copy overlapped."),  # 64 MiB beside a 4096² product, a T4
        (0.0181, 0.0175, "did not overlap measurably."),  # the copy waited for the product
        (None, None, "No CUDA GPU here (cpu)"),
    ],
)
def test_streams_say_whether_the_copy_overlapped(one, two, words, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "en")
    assert words in day02.streams_finding(one, two, "cpu")


def test_every_variant_has_a_chinese_name_and_the_findings_use_it(monkeypatch):
    from helpers.i18n import word

    pools = copies.CopyPools(torch.device("meta"), 4096)  # tensors need no GPU; only names read
    for kind in ("cpu", "cuda", "mps"):
        pools.device = torch.device(kind)
        for name in pools.variants(4096):
            assert word(name, "zh") != name, name
    monkeypatch.setenv("COURSE_LANG", "zh")
    table = pd.concat(
        [
            frame("CPU memory, copy_ into a buffer", STAYS),
            frame("CPU memory, clone() allocates", [(1024, 9e-6), (2**26, 0.129)]),
        ]
    )
    first = findings(table[table["variant"].str.contains("copy_")])[0]
    assert first.startswith("**CPU 内存，copy_ 进已有缓冲区**")
    allocation = finding(table, "cpu")
    assert "*CPU 内存，clone() 新分配缓冲区*" in allocation and "allocates" not in allocation


def test_a_cpu_copy_says_it_counts_read_and_write():
    part = frame("CPU memory, copy_ into a buffer", FALLS).assign(traffic=2)
    part["GB/s"] *= 2
    first = findings(part)[0]
    assert "peaks at 7.2 GB/s (read + write, at 1,048,576 bytes)" in first
    assert "18 KiB are copied in the fixed cost's time" in first  # bytes copied, not counted


def quartiles(variant, rows):
    """Rows of day 2's table: bytes, median, and quartiles 10 % either side of it."""
    data = pd.DataFrame(rows, columns=["bytes", "median_s"]).assign(variant=variant)
    return data.assign(q1_s=data["median_s"] * 0.9, q3_s=data["median_s"] * 1.1)


def test_the_allocating_copy_is_read_at_every_size_not_only_the_largest(monkeypatch):
    # day 2 on this CPU, full mode: clone() beat copy_ from 64 KiB to 4 MiB, lost at 64 MiB
    monkeypatch.setenv("COURSE_LANG", "en")
    sizes = [2**10, 2**12, 2**14, 2**16, 2**18, 2**20, 2**22, 2**24, 2**26]
    plain = [5e-6, 6e-6, 9e-6, 2.2e-5, 7.9e-5, 3.3e-4, 1.3e-3, 4.6e-3, 0.0152]
    alloc = [5.1e-6, 6.2e-6, 9.1e-6, 1.2e-5, 4.0e-5, 1.7e-4, 8.0e-4, 4.7e-3, 0.0450]
    table = pd.concat(
        [
            quartiles("CPU memory, copy_ into a buffer", list(zip(sizes, plain, strict=True))),
            quartiles("CPU memory, clone() allocates", list(zip(sizes, alloc, strict=True))),
        ]
    )
    found = copies.allocation_sizes(table)
    assert found.faster == (2**16, 2**18, 2**20, 2**22)
    assert found.slower == (2**26,)
    assert found.even == (2**10, 2**12, 2**14, 2**24)
    text = day02.allocation_sizes_finding(found, "cpu")
    assert (
        "less time than *CPU memory, copy_ into a buffer* at 64 KiB, 256 KiB, 1 MiB, 4 MiB" in text
    )
    assert "more time than *CPU memory, copy_ into a buffer* at 64 MiB." in text
    assert "most likely differs at those sizes is the cache" in text
    assert "the cache" not in day02.allocation_sizes_finding(found, "cuda")
