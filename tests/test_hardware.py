import pytest
import torch

from helpers import cpu, day01, hardware, topology


def test_card_on_this_machine(no_gpu):
    info = hardware.card()
    assert info["device"] == "cpu"
    assert "gpu" not in info
    assert 1 <= info["cpu_usable"] <= info["cpu_logical"]
    assert info["torch"] == torch.__version__
    assert info["memory_gb"] > 0
    assert info["cpu"]


def test_card_with_a_cuda_gpu(fake_cuda, monkeypatch):
    monkeypatch.delenv("COURSE_DEVICE", raising=False)
    info = hardware.card()
    assert info["device"] == "cuda"
    assert info["gpu"] == "NVIDIA H100 80GB HBM3"
    assert info["gpu_memory_gb"] == 85.5
    assert info["gpu_capability"] == "9.0"
    assert info["gpu_count"] == 2
    assert "NVIDIA H100 80GB HBM3 | device cuda" in hardware.card_line(info)


def test_card_with_mps(fake_mps, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.delenv("COURSE_DEVICE", raising=False)
    info = hardware.card()
    assert info["device"] == "mps" and "Apple GPU" in info["gpu"]


@pytest.mark.parametrize(
    ("cuda", "hip", "mps", "expected"),
    [
        (None, None, False, "CPU only"),
        ("12.8", None, False, "CUDA 12.8"),
        (None, "6.4", False, "ROCm 6.4"),
        (None, None, True, "MPS"),
    ],
)
def test_torch_build(monkeypatch, cuda, hip, mps, expected):
    monkeypatch.setattr(torch.version, "cuda", cuda)
    monkeypatch.setattr(torch.version, "hip", hip)
    monkeypatch.setattr(torch.backends.mps, "is_built", lambda: mps)
    assert hardware.torch_build() == expected


@pytest.mark.parametrize(
    ("files", "affinity", "expected"),
    [
        ({"cpu.max": "max 100000"}, 8, 8),
        ({"cpu.max": "150000 100000"}, 8, 2),  # 1.5 CPUs of quota: 2 can run
        ({"cpu/cpu.cfs_quota_us": "400000", "cpu/cpu.cfs_period_us": "100000"}, 16, 4),
        ({"cpu/cpu.cfs_quota_us": "-1", "cpu/cpu.cfs_period_us": "100000"}, 16, 16),
        ({}, 3, 3),
    ],
)
def test_usable_cpus_honours_affinity_and_container_quotas(
    monkeypatch, tmp_path, files, affinity, expected
):
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    real_path = topology.Path
    monkeypatch.setattr(
        topology, "Path", lambda p: real_path(str(p).replace("/sys/fs/cgroup", str(tmp_path)))
    )
    monkeypatch.setattr(
        topology.os, "sched_getaffinity", lambda pid: set(range(affinity)), raising=False
    )
    assert topology.usable_cpus() == expected


def test_cpu_name_on_linux_reads_proc_cpuinfo(monkeypatch, tmp_path):
    (tmp_path / "cpuinfo").write_text(
        "processor\t: 0\nmodel name\t: AMD EPYC 9654 96-Core\n", encoding="utf-8"
    )
    real_path = cpu.Path
    monkeypatch.setattr(cpu.platform, "system", lambda: "Linux")
    monkeypatch.setattr(cpu, "Path", lambda p: real_path(str(p).replace("/proc", str(tmp_path))))
    assert cpu.cpu_name() == "AMD EPYC 9654 96-Core"


def test_cpu_name_on_a_mac_asks_sysctl(monkeypatch):
    class Done:
        returncode, stdout = 0, "Apple M3 Pro\n"

    monkeypatch.setattr(cpu.platform, "system", lambda: "Darwin")
    monkeypatch.setattr(cpu.subprocess, "run", lambda *a, **k: Done())
    assert cpu.cpu_name() == "Apple M3 Pro"


def test_cpu_name_falls_back_to_the_architecture(monkeypatch):
    monkeypatch.setattr(cpu.platform, "system", lambda: "Plan9")
    monkeypatch.setattr(cpu.platform, "processor", lambda: "")
    monkeypatch.setattr(cpu.platform, "machine", lambda: "riscv64")
    assert cpu.cpu_name() == "riscv64"


INTEL_SPR = """processor\t: 0
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 143
model name\t: Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz
stepping\t: 8
flags\t\t: fpu sse4_1 sse4_2 avx fma avx2 avx512f avx512_vnni avx512_bf16 avx512_fp16 amx_tile \
amx_bf16 amx_int8

processor\t: 1
vendor_id\t: GenuineIntel
"""
AMD_GENOA = "vendor_id : AuthenticAMD\ncpu family : 25\nmodel : 17\nmodel name : AMD EPYC 9654\n"
AMD_MILAN = "vendor_id : AuthenticAMD\ncpu family : 25\nmodel : 1\nmodel name : AMD EPYC\n"
GRAVITON3 = """processor\t: 0
BogoMIPS\t: 2100.00
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 asimddp sve i8mm bf16
CPU implementer\t: 0x41
CPU architecture: 8
CPU part\t: 0xd40
"""


@pytest.mark.parametrize(
    ("text", "arch", "generation", "widest"),
    [
        (INTEL_SPR, "x86_64", "Sapphire Rapids", "AMX-INT8"),
        (AMD_GENOA, "x86_64", "Zen 4", "none"),
        (AMD_MILAN, "x86_64", "Zen 3", "none"),
        (GRAVITON3, "aarch64", "Neoverse V1", "SVE"),
    ],
)
def test_cpuinfo_is_read_into_a_generation_and_extensions(text, arch, generation, widest):
    info = hardware.parse_cpuinfo(text)
    assert hardware.microarchitecture(info) == generation
    found = hardware.vector_extensions(info["flags"], machine=arch)
    assert (found[-1] if found else "none") == widest


def test_sapphire_rapids_in_detail():
    info = hardware.parse_cpuinfo(INTEL_SPR)
    assert info["name"].startswith("Intel(R) Xeon(R) Platinum 8481C")
    assert (info["family"], info["model"], info["stepping"]) == (6, 143, 8)
    found = hardware.vector_extensions(info["flags"], machine="x86_64")
    assert found[:4] == ["SSE4.2", "AVX", "FMA", "AVX2"] and "AVX-512 BF16" in found


@pytest.mark.parametrize(
    ("info", "expected"),
    [
        ({"vendor": "GenuineIntel", "family": 6, "model": 0x01}, "unknown (family 0x6, model 0x1"),
        ({"vendor": "AuthenticAMD", "family": 0x17, "model": 0x31}, "Zen 2"),
        ({"vendor": "AuthenticAMD", "family": 0x1A, "model": 0x02}, "Zen 5"),
        ({"name": "Apple M3 Pro"}, "Apple M3 Pro"),
        ({"name": "something"}, "unknown"),
    ],
)
def test_microarchitecture_edges(info, expected):
    assert hardware.microarchitecture(info).startswith(expected)


def test_cache_sizes_from_sysfs(tmp_path):
    for index, (level, kind, size, shared) in enumerate(
        [
            (1, "Data", "48K", "0,64"),
            (2, "Unified", "2048K", "0,64"),
            (3, "Unified", "107520K", "0-127"),
            (0, "Instruction", "32K", "5"),
        ]
    ):
        folder = tmp_path / f"index{index}"
        folder.mkdir()
        for name, value in (("level", level), ("type", kind), ("size", size),
                            ("shared_cpu_list", shared)):  # fmt: skip
            (folder / name).write_text(f"{value}\n", encoding="utf-8")
    assert hardware.cache_sizes(tmp_path) == {
        "L1d": "48 KiB (shared by CPUs 0,64)",
        "L2": "2 MiB (shared by CPUs 0,64)",
        "L3": "105 MiB (shared by CPUs 0-127)",
        "L0i": "32 KiB (CPU 5 only)",
    }


def test_cpu_info_and_torch_info_on_this_machine():
    cpu = hardware.cpu_info()
    assert cpu["physical_cores"] >= 1 and cpu["logical_cpus"] >= cpu["physical_cores"]
    assert cpu["memory_available_gb"] <= cpu["memory_total_gb"]
    info = hardware.torch_info()
    assert info["intra_op_threads"] == torch.get_num_threads()
    assert info["cpu_capability"] == torch.backends.cpu.get_cpu_capability()


def write_topology(root, siblings):
    for number, text in enumerate(siblings):
        folder = root / f"cpu{number}" / "topology"
        folder.mkdir(parents=True)
        (folder / "thread_siblings_list").write_text(f"{text}\n", encoding="utf-8")


HYBRID = ["0-1", "0-1", "2-3", "2-3", "4", "5", "6"]  # 2 cores with 2 threads, 3 with one


def test_threads_from_sysfs_counts_cores_by_their_threads(tmp_path):
    write_topology(tmp_path, HYBRID)
    assert topology.threads_from_sysfs(tmp_path) == {2: 2, 1: 3}
    assert topology.threads_from_sysfs(tmp_path / "missing") is None


@pytest.mark.parametrize(
    ("physical", "logical", "sysfs", "layout", "says"),
    [
        (14, 20, None, {2: 6, 1: 8}, "The cores differ: of 14 cores, 6 run 2 and 8 run 1"),
        (14, 20, {2: 6, 1: 8}, {2: 6, 1: 8}, "a hybrid CPU"),
        (8, 16, None, {2: 8}, "Each core runs 2 hardware threads"),
        (2, 2, {1: 2}, {1: 2}, "logical CPUs and cores are the same"),
        (None, 4, None, None, "could not be read"),
        (4, 24, None, {6: 4}, "Each core runs 6 hardware threads"),
        (4, 13, None, None, "could not be read"),
    ],
)
def test_threads_per_core_and_its_sentence(physical, logical, sysfs, layout, says):
    found = topology.threads_per_core(physical, logical, sysfs)
    assert found == layout
    assert says in day01.smt_sentence(found)


def test_cpu_info_on_a_hybrid_cpu_says_the_cores_differ(monkeypatch):
    monkeypatch.setattr(hardware.psutil, "cpu_count", lambda logical=True: 14)
    monkeypatch.setattr(hardware.os, "cpu_count", lambda: 20)
    monkeypatch.setattr(hardware, "threads_from_sysfs", lambda: None)
    info = hardware.cpu_info()
    assert info["threads_per_core"] is None  # not 20 // 14 == 1
    assert info["cores_by_threads"] == {2: 6, 1: 8}


@pytest.mark.parametrize(
    ("config", "blas"),
    [
        ("  - Build settings: BLAS_INFO=mkl, BUILD_TYPE=Release", "mkl"),
        ("  - Build settings: BLAS_INFO=open, BUILD_TYPE=Release", "open"),
        ("  - Build settings: BUILD_TYPE=Release", "n/a"),
    ],
)
def test_blas_library_from_the_build_settings(config, blas):
    assert hardware.blas_library(config) == blas


def test_memory_note_gives_both_units():
    note = day01.memory_note(85_520_809_984, "NVIDIA H100 80GB HBM3")
    assert "85.5 GB" in note and "79.6 GiB" in note
