"""What known GPUs' datasheets promise: the ceilings a measurement must stay under (day 2,
section 5; day 5b, section 3; day 7, section 1).

A measured matrix product cannot beat the datasheet's peak, and a copy between the host and the
GPU cannot beat the bus it crosses. :func:`datasheet` finds a GPU by the name PyTorch reports and
gives both ceilings; the receipt (``python -m helpers receipt``) records them beside what it
measured, and its check rejects a figure above them.

Figures are the vendors' (dense, no sparsity), for the fastest version sold under a name (an H100
SXM for every "H100"), so that they stay ceilings: the tensor-core TF32 peak where the GPU has
one (a float32 matrix product may use it), else the float32 peak; the host link per direction.

>>> datasheet("NVIDIA H100 80GB HBM3").flops / 1e12, datasheet("NVIDIA H100 PCIe").bus
(494.7, 64000000000.0)
>>> datasheet("NVIDIA GH200 480GB").link, datasheet("Tesla T4").flops / 1e12
('NVLink-C2C', 8.1)
>>> datasheet("NVIDIA L40S").name, datasheet("NVIDIA L4").name, datasheet("Apple M2") is None
('L40S', 'L4', True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from helpers.links import LINKS

BUSES = {
    "PCIe 3.0 x16": 16e9,
    "PCIe 4.0 x16": LINKS["PCIe 4.0 x16"],
    "PCIe 5.0 x16": LINKS["PCIe 5.0 x16"],
    "PCIe 6.0 x16": 128e9,
    "NVLink-C2C": 450e9,
}
"""Host links, bytes/s per direction (PCIe x16 rounded up; NVLink-C2C: 900 GB/s both ways)."""


@dataclass(frozen=True)
class Datasheet:
    name: str
    flops: float
    """Peak FLOP/s of a float32 matrix product (TF32 tensor cores where there are any)."""
    link: str
    """The link to the host, a key of :data:`BUSES`."""

    @property
    def bus(self) -> float:
        """Bytes per second, per direction, of the link to the host."""
        return BUSES[self.link]


DATASHEETS = [  # the first whose name matches wins: GH200 before H200, L40S before L40 and L4
    Datasheet("B200", 1.1e15, "PCIe 6.0 x16"),
    Datasheet("GH200", 494.7e12, "NVLink-C2C"),
    Datasheet("H200", 494.7e12, "PCIe 5.0 x16"),
    Datasheet("H100", 494.7e12, "PCIe 5.0 x16"),
    Datasheet("A100", 156e12, "PCIe 4.0 x16"),
    Datasheet("L40S", 183e12, "PCIe 4.0 x16"),
    Datasheet("L40", 90.5e12, "PCIe 4.0 x16"),
    Datasheet("L4", 60e12, "PCIe 4.0 x16"),
    Datasheet("A10G?", 62.5e12, "PCIe 4.0 x16"),
    Datasheet("V100S?", 16.4e12, "PCIe 3.0 x16"),
    Datasheet("P100", 10.6e12, "PCIe 3.0 x16"),
    Datasheet("T4", 8.1e12, "PCIe 3.0 x16"),
    Datasheet("RTX 5090", 104.8e12, "PCIe 5.0 x16"),
    Datasheet("RTX 4090", 82.6e12, "PCIe 4.0 x16"),
    Datasheet("RTX 4080( SUPER)?", 52.2e12, "PCIe 4.0 x16"),
    Datasheet("RTX 3090( Ti)?", 40e12, "PCIe 4.0 x16"),
]
"""Known GPUs, their names as regular expressions (``A10G?``: the A10 and AWS's A10G)."""


def datasheet(name: str) -> Datasheet | None:
    """The datasheet of the GPU called ``name`` (as ``torch.cuda.get_device_name`` says it), or
    ``None`` for a GPU (or a CPU) not in :data:`DATASHEETS`. The result's ``name`` is the
    model matched."""
    for sheet in DATASHEETS:
        match = re.search(rf"\b{sheet.name}\b", name)
        if match:
            return Datasheet(match.group(0), sheet.flops, sheet.link)
    return None
