"""Day 1's hardware reading, GPU branches included, on faked devices with real cards' numbers."""

from types import SimpleNamespace

import pytest
import torch

from helpers import day01, hardware, nvml

# name, total_memory (bytes), compute capability, SMs, L2 (bytes): as PyTorch reports these cards.
CARDS = {
    "H100": ("NVIDIA H100 80GB HBM3", 85_520_809_984, (9, 0), 132, 52_428_800),
    "RTX 4090": ("NVIDIA GeForce RTX 4090", 25_757_220_864, (8, 9), 128, 75_497_472),
    "T4": ("Tesla T4", 15_835_660_288, (7, 5), 40, 4_194_304),
    "RTX A6000": ("NVIDIA RTX A6000", 51_041_271_808, (8, 6), 84, 6_291_456),
    "GTX 1080 Ti": ("NVIDIA GeForce GTX 1080 Ti", 11_810_832_384, (6, 1), 28, 2_883_584),
    "future": ("NVIDIA Z999", 300_000_000_000, (14, 0), 200, 0),
}


class FakeNVML:
    """Enough of pynvml for the course: a driver, and per-GPU memory and utilisation."""

    class NVMLError(Exception):
        pass

    def __init__(self, cards):
        self.cards = cards

    def nvmlInit(self):
        pass

    def nvmlSystemGetDriverVersion(self):
        return "570.86.15"

    def nvmlDeviceGetCount(self):
        return len(self.cards)

    def nvmlDeviceGetHandleByIndex(self, index):
        return index

    def nvmlDeviceGetMemoryInfo(self, handle):
        total = self.cards[handle][1]
        return SimpleNamespace(total=total, used=total // 4, free=total - total // 4)

    def nvmlDeviceGetUtilizationRates(self, handle):
        return SimpleNamespace(gpu=87, memory=40)


@pytest.fixture
def fake_gpus(monkeypatch):
    """Install fake CUDA GPUs (and a fake NVML driver) for the cards named."""

    def install(*names):
        cards = [CARDS[name] for name in names]

        def props(index=None):
            name, memory, (major, minor), sms, l2 = cards[index or 0]
            return SimpleNamespace(name=name, total_memory=memory, major=major, minor=minor,
                                   multi_processor_count=sms, L2_cache_size=l2)  # fmt: skip

        monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
        monkeypatch.setattr(torch.cuda, "device_count", lambda: len(cards))
        monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
        monkeypatch.setattr(torch.cuda, "get_device_properties", props)
        monkeypatch.setattr(
            torch.cuda, "mem_get_info", lambda i=None: (cards[i][1] // 2, cards[i][1])
        )
        monkeypatch.setattr(torch.version, "cuda", "12.8")
        monkeypatch.setattr(torch.version, "hip", None)
        monkeypatch.delenv("COURSE_DEVICE", raising=False)
        fake = FakeNVML(cards)
        monkeypatch.setattr(nvml, "library", lambda: fake)
        return cards

    return install


@pytest.mark.parametrize(
    ("card", "arch", "tier", "l2"),
    [
        ("H100", "Hopper", "data centre", "50 MiB"),
        ("RTX 4090", "Ada Lovelace", "consumer", "72 MiB"),
        ("T4", "Turing", "data centre", "4 MiB"),
        ("RTX A6000", "Ampere", "workstation", "6 MiB"),
        ("GTX 1080 Ti", "Pascal", "consumer", "2.75 MiB"),
    ],
)
def test_gpu_info_for_real_cards(fake_gpus, card, arch, tier, l2):
    name, memory, (major, minor), sms, _ = fake_gpus(card)[0]
    (info,) = hardware.gpu_info()
    assert info["name"] == name
    assert info["architecture"] == arch
    assert info["compute_capability"] == f"{major}.{minor}"
    assert info["multiprocessors"] == sms
    assert info["l2_cache"] == l2
    assert info["tier"].tier == tier and str(info["tier"]) == tier
    (row,) = day01.gpu_rows([info])
    assert row["tier"] == tier and row["tier_reason"].startswith("the name contains")
    assert list(row).index("tier_reason") == list(row).index("tier") + 1
    assert info["memory_total_gb"] == round(memory / 1e9, 1)
    assert info["memory_total_gib"] == round(memory / 2**30, 1)
    assert info["memory_free_gb"] == round(memory / 2 / 1e9, 1)
    assert info["driver"] == "570.86.15" and info["cuda_runtime"] == "12.8"


def test_an_unknown_card_says_so_instead_of_guessing(fake_gpus):
    fake_gpus("future")
    (info,) = hardware.gpu_info()
    assert info["architecture"].startswith("unknown (compute capability 14.0")
    assert info["tier"].tier == "data centre" and info["tier"].line is None
    assert "unknown name; 300 GB" in day01.gpu_rows([info])[0]["tier_reason"]
    assert info["l2_cache"] is None


def test_several_gpus_are_all_listed(fake_gpus):
    fake_gpus("H100", "T4")
    assert [g["name"] for g in hardware.gpu_info()] == ["NVIDIA H100 80GB HBM3", "Tesla T4"]
    sections = set(hardware.report().index.get_level_values("section"))
    assert {"GPU 0", "GPU 1", "CPU", "PyTorch"} <= sections
    assert hardware.report().loc[("GPU 1", "tier"), "value"] == "data centre"
    gpus = hardware.gpu_info()
    shown = hardware.report(day01.gpu_rows(gpus))
    assert "a data-centre product line" in shown.loc[("GPU 1", "tier_reason"), "value"]
    assert [g["index"] for g in gpus] == [0, 1]  # the rows handed in are left as they were


def test_card_labels_results_with_the_gpu(fake_gpus):
    fake_gpus("RTX 4090")
    info = hardware.card()
    assert info["gpu"] == "NVIDIA GeForce RTX 4090"
    assert info["gpu_arch"] == "Ada Lovelace"
    assert info["gpu_capability"] == "8.9"
    assert info["cuda"] == "12.8" and info["driver"] == "570.86.15"


def test_rocm_gpus_report_their_gfx_architecture(fake_gpus, monkeypatch):
    fake_gpus("future")
    monkeypatch.setattr(torch.version, "hip", "6.4")
    real = torch.cuda.get_device_properties
    monkeypatch.setattr(
        torch.cuda,
        "get_device_properties",
        lambda i=None: SimpleNamespace(**vars(real(i)), gcnArchName="gfx942"),
    )
    assert hardware.gpu_info()[0]["architecture"] == "AMD gfx942"


def test_no_gpu_is_said_plainly(no_gpu):
    assert hardware.gpu_info() == []
    assert hardware.mps_info() is None
    assert "the course runs on the CPU" in hardware.report().loc[("GPU", "none"), "value"]


def test_mps_is_reported(fake_mps, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.mps, "recommended_max_memory", lambda: 21_474_836_480, raising=False)
    info = hardware.mps_info()
    assert info["memory"].startswith("unified") and info["recommended_max_gb"] == 21.5
    assert "Apple GPU (MPS)" in set(hardware.report().index.get_level_values("section"))


@pytest.mark.parametrize(
    ("capability", "arch"),
    [((3, 7), "Kepler"), ((5, 2), "Maxwell"), ((6, 0), "Pascal"), ((7, 0), "Volta"),
     ((7, 2), "Volta"), ((7, 5), "Turing"), ((8, 0), "Ampere"), ((8, 6), "Ampere"),
     ((8, 7), "Ampere"), ((8, 9), "Ada Lovelace"), ((9, 0), "Hopper"), ((10, 0), "Blackwell"),
     ((10, 3), "Blackwell"), ((11, 0), "Blackwell"), ((12, 0), "Blackwell"),
     ((12, 1), "Blackwell")],
)  # fmt: skip
def test_architecture_table(capability, arch):
    assert hardware.architecture(*capability) == arch


@pytest.mark.parametrize("capability", [(4, 0), (7, 3), (8, 8), (9, 1), (11, 1), (13, 0)])
def test_architecture_outside_the_table_is_unknown(capability):
    assert hardware.architecture(*capability).startswith("unknown")


@pytest.mark.parametrize(
    ("name", "tier"),
    [
        ("NVIDIA A100-SXM4-80GB", "data centre"),
        ("NVIDIA A10G", "data centre"),
        ("NVIDIA L4", "data centre"),
        ("NVIDIA L40S", "data centre"),
        ("NVIDIA B200", "data centre"),
        ("NVIDIA GH200 480GB", "data centre"),
        ("AMD Instinct MI300X", "data centre"),
        ("NVIDIA RTX PRO 6000 Blackwell Server Edition", "data centre"),
        ("NVIDIA RTX 6000 Ada Generation", "workstation"),
        ("Quadro RTX 8000", "workstation"),
        ("NVIDIA RTX A2000 12GB", "workstation"),
        ("NVIDIA GeForce RTX 3060 Laptop GPU", "consumer"),
        ("NVIDIA TITAN RTX", "consumer"),
        ("AMD Radeon RX 7900 XTX", "consumer"),
    ],
)
def test_gpu_tier_from_the_name(name, tier):
    assert hardware.gpu_tier(name, 24).tier == tier


@pytest.mark.parametrize(
    ("name", "memory", "reason"),
    [
        ("NVIDIA H100 80GB HBM3", 80, "the name contains 'H100', a data-centre product line"),
        ("Quadro RTX 8000", 48, "the name contains 'Quadro', a workstation line"),
        ("NVIDIA GeForce RTX 4090", 24, "the name contains 'GeForce', a consumer (gaming) line"),
        ("Some GPU", 40, "unknown name; 40 GB of memory is data-centre sized"),
        ("Some GPU", 39.4, "unknown name; 39 GB of memory is consumer sized (a guess)"),
    ],
)
def test_day_1_says_why_a_card_has_its_tier(name, memory, reason, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "en")
    found = hardware.gpu_tier(name, memory)
    assert (found.memory_gb, found.threshold_gb) == (memory, hardware.DATA_CENTRE_GB)
    assert day01.tier_reason(found) == reason


def test_day_1_says_what_it_found_for_each_kind_of_gpu(monkeypatch):
    from helpers.day01 import found_note

    monkeypatch.setenv("COURSE_LANG", "en")
    assert found_note("cuda") == []  # the table of the cards says it
    assert found_note("mps") == ["**Apple GPU (MPS)** found:"]
    assert found_note("none")[0].startswith("**No GPU here**") and len(found_note("none")) == 2
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert found_note("none")[0].startswith("**这里没有 GPU**")
