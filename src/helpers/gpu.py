"""What GPU this is (day 1): NVIDIA's architecture from the compute capability, a rough tier from
the product name, memory and multiprocessors; and the Apple GPU through MPS.

Everything here returns nothing when there is no GPU, and is tested with fake devices.
"""

from __future__ import annotations

import re

import psutil
import torch

from helpers import nvml
from helpers.cpu import cpu_name
from helpers.i18n import N_, _
from helpers.topology import binary_size

GENERATIONS = {
    3: "Kepler",
    5: "Maxwell",
    6: "Pascal",
    (7, 0): "Volta",
    (7, 2): "Volta",
    (7, 5): "Turing",
    (8, 0): "Ampere",
    (8, 6): "Ampere",
    (8, 7): "Ampere",
    (8, 9): "Ada Lovelace",
    (9, 0): "Hopper",
    10: "Blackwell",
    (11, 0): "Blackwell",
    12: "Blackwell",
}
"""Compute capability (a whole major version, or (major, minor)) -> NVIDIA architecture."""


def architecture(major: int, minor: int) -> str:
    """The NVIDIA architecture generation of a compute capability, e.g. ``(8, 6) -> 'Ampere'``.

    Compute capability names the instruction set, not the speed: a 8.6 card can be slower than a
    7.0 one. Values missing from the table say so rather than guess.

    >>> architecture(8, 6), architecture(9, 0)
    ('Ampere', 'Hopper')
    >>> architecture(4, 0)
    "unknown (compute capability 4.0 is not in the course's table)"
    """
    found = GENERATIONS.get((major, minor)) or GENERATIONS.get(major)
    return found or f"unknown (compute capability {major}.{minor} is not in the course's table)"


DATA_CENTRE = re.compile(
    r"\b(Tesla|[ABHLV]\d{2,3}[A-Z]?|[BG]B?\d{3}|T4|L4|L40S?|A10G?|A16|A2|P4|P40|P100|K80|M60|"
    r"Instinct|MI\d{2,3}X?|Server Edition|GH200|GB200)\b"
)
WORKSTATION = re.compile(r"\b(Quadro|RTX A\d{4}|RTX \d{4} Ada|RTX PRO|Radeon PRO|NVIDIA RTX A)")
CONSUMER = re.compile(r"\b(GeForce|TITAN|RTX \d{4}|GTX|Radeon RX)\b")


def gpu_tier(name: str, memory_gb: float) -> tuple[str, str]:
    """A rough tier, ``'consumer'``, ``'workstation'`` or ``'data centre'``, and the reason.

    Read from the product name first (NVIDIA and AMD name their lines consistently), then from the
    memory size. It is a rule of thumb, not a specification.

    >>> gpu_tier("NVIDIA GeForce RTX 4090", 24)[0], gpu_tier("NVIDIA H100 80GB HBM3", 80)[0]
    ('consumer', 'data centre')
    """
    if match := DATA_CENTRE.search(name):
        return N_("data centre"), _(
            "the name contains {line!r}, a data-centre product line"
        ).format(line=match.group(0))
    if match := WORKSTATION.search(name):
        return N_("workstation"), _("the name contains {line!r}, a workstation line").format(
            line=match.group(0)
        )
    if match := CONSUMER.search(name):
        return N_("consumer"), _("the name contains {line!r}, a consumer (gaming) line").format(
            line=match.group(0)
        )
    if memory_gb >= 40:
        return "data centre", _(
            "unknown name; {memory_gb:.0f} GB of memory is data-centre sized"
        ).format(memory_gb=memory_gb)
    return "consumer", _(
        "unknown name; {memory_gb:.0f} GB of memory is consumer sized (a guess)"
    ).format(memory_gb=memory_gb)


def gpu_info() -> list[dict]:
    """One dict per CUDA (or ROCm) GPU; an empty list when there is none."""
    if not torch.cuda.is_available():
        return []
    driver = nvml.driver_version()
    gpus = []
    for index in range(torch.cuda.device_count()):
        props = torch.cuda.get_device_properties(index)
        free, total = torch.cuda.mem_get_info(index)
        memory_gb = props.total_memory / 1e9
        tier, reason = gpu_tier(props.name, memory_gb)
        rocm = getattr(props, "gcnArchName", None) if torch.version.hip else None
        gpus.append(
            {
                "index": index,
                "name": props.name,
                "memory_total_gb": round(memory_gb, 1),
                "memory_total_gib": round(props.total_memory / 2**30, 1),
                "memory_free_gb": round(free / 1e9, 1),
                "compute_capability": f"{props.major}.{props.minor}",
                N_("architecture"): f"AMD {rocm}"
                if rocm
                else architecture(props.major, props.minor),
                "multiprocessors": props.multi_processor_count,
                "l2_cache": binary_size(str(l2))
                if (l2 := getattr(props, "L2_cache_size", 0))
                else None,
                N_("tier"): tier,
                "tier_reason": reason,
                "driver": driver,
                "cuda_runtime": torch.version.cuda or torch.version.hip,
            }
        )
    return gpus


def mps_info() -> dict | None:
    """The Apple GPU through MPS, or ``None`` when MPS is not available."""
    if not torch.backends.mps.is_available():
        return None
    info = {
        "chip": cpu_name(),
        "memory": N_("unified: shared with the CPU"),
        "memory_total_gb": round(psutil.virtual_memory().total / 1e9, 1),
    }
    if hasattr(torch.mps, "recommended_max_memory"):
        info["recommended_max_gb"] = round(torch.mps.recommended_max_memory() / 1e9, 1)
    return info


def memory_note(total_bytes: int, name: str) -> str:
    """The same memory in both units: GB (10^9 bytes, the tables' unit) and GiB (2^30 bytes).

    >>> note = memory_note(80 * 2**30, "an '80 GB' card")
    >>> "85.9 GB" in note, "80.0 GiB" in note
    (True, True)
    """
    return _(
        "{name}: {n:,} bytes, {gb:.1f} GB (10^9 bytes, the unit of the tables "
        "here) or {gib:.1f} GiB (2^30 bytes)."
    ).format(name=name, n=total_bytes, gb=total_bytes / 1e9, gib=total_bytes / 2**30)


def found_note(kind: str) -> list[str]:
    """What day 1 says about the GPU it found: ``kind`` is ``'cuda'`` (the table says it all),
    ``'mps'`` or ``'none'``.

    >>> found_note("none")[0]
    '**No GPU here** (no CUDA, ROCm or MPS device): the course runs on the CPU.'
    """
    if kind == "cuda":
        return []
    if kind == "mps":
        return [_("**Apple GPU (MPS)** found:")]
    return [
        _("**No GPU here** (no CUDA, ROCm or MPS device): the course runs on the CPU."),
        _("The table below shows what the same reading says about some well-known cards."),
    ]
