"""What GPU this is (day 1, section 3): NVIDIA's architecture from the compute capability, a rough
tier from the product name, memory and multiprocessors; and the Apple GPU through MPS.

Everything here returns nothing when there is no GPU, and is tested with fake devices. What day 1
says about these figures (why a card is of its tier, memory in two units) is
:mod:`helpers.day01`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import psutil
import torch

from helpers import nvml
from helpers.cpu import cpu_name
from helpers.i18n import N_
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


DATA_CENTRE_GB = 40
"""Memory (GB) from which a card with an unknown name is taken for a data-centre one: consumer
cards stay below it (32 GB on an RTX 5090); smaller data-centre cards (T4, L4) go by their name."""


@dataclass(frozen=True)
class Tier:
    """A GPU's rough tier and what it was read from: the product line its name contains, or
    (``line`` is ``None``, an unknown name) its memory against :data:`DATA_CENTRE_GB`. Shown as
    the tier's name."""

    tier: str
    """``'consumer'``, ``'workstation'`` or ``'data centre'`` (a name, shown through ``word``)."""
    line: str | None
    """The product line the name contains (``'GeForce'``, ``'H100'``), ``None`` when unknown."""
    memory_gb: float
    threshold_gb: float = DATA_CENTRE_GB

    def __str__(self) -> str:
        return self.tier


def gpu_tier(name: str, memory_gb: float) -> Tier:
    """A rough tier, ``'consumer'``, ``'workstation'`` or ``'data centre'``, and its evidence.

    Read from the product name first (NVIDIA and AMD name their lines consistently), then from the
    memory size. It is a rule of thumb, not a specification.

    >>> gpu_tier("NVIDIA GeForce RTX 4090", 24).tier, gpu_tier("NVIDIA H100 80GB HBM3", 80).tier
    ('consumer', 'data centre')
    >>> gpu_tier("Future GPU", 300)
    Tier(tier='data centre', line=None, memory_gb=300, threshold_gb=40)
    """
    for tier, pattern in (
        (N_("data centre"), DATA_CENTRE),
        (N_("workstation"), WORKSTATION),
        (N_("consumer"), CONSUMER),
    ):
        if match := pattern.search(name):
            return Tier(tier, match.group(0), memory_gb)
    return Tier("data centre" if memory_gb >= DATA_CENTRE_GB else "consumer", None, memory_gb)


def gpu_info() -> list[dict]:
    """One dict per CUDA (or ROCm) GPU; an empty list when there is none. Its ``tier`` is a
    :class:`Tier` (shown as its name; :func:`helpers.day01.gpu_rows` adds the reason)."""
    if not torch.cuda.is_available():
        return []
    driver = nvml.driver_version()
    gpus = []
    for index in range(torch.cuda.device_count()):
        props = torch.cuda.get_device_properties(index)
        free, total = torch.cuda.mem_get_info(index)
        memory_gb = props.total_memory / 1e9
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
                N_("tier"): gpu_tier(props.name, memory_gb),
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
