"""What known GPUs' datasheets promise: the ceilings a measurement must stay under (day 2,
section 5; day 5b, section 3; day 7, section 1; day 7b, section 4).

A measured matrix product cannot beat the datasheet's peak, and a copy between the host and the
GPU cannot beat the bus it crosses. :func:`datasheet` finds a GPU by the name PyTorch reports and
gives its dense matrix-product peak for each number type and its bus; the receipt
(``python -m helpers receipt``) records them beside what it measured, and its check rejects a
figure above them.

A GPU has one peak per number type, and they differ by an order of magnitude: plain float32
arithmetic (``fp32``, the CUDA cores), float32 products rounded to TF32 on tensor cores (``tf32``:
what ``torch.set_float32_matmul_precision("high")`` allows, from compute capability 8.0),
bfloat16 and float16 on tensor cores (``bf16``, ``fp16``; float16 only before 8.0). A figure of
``None`` means the GPU has no fast path for that type. Model FLOP utilisation is honest only
against the peak of the type the products ran in (:mod:`helpers.peaks`).

Figures are the vendors' (dense: half of the "with sparsity" ones; 16-bit products with float32
accumulation, as PyTorch computes them), for the fastest version sold under a name (an H100 SXM
for every "H100"), so that they stay ceilings; each row names its source. The host link is per
direction.

>>> sheet = datasheet("NVIDIA H100 80GB HBM3")
>>> sheet.fp32 / 1e12, sheet.tf32 / 1e12, sheet.bf16 / 1e12, sheet.flops / 1e12
(67.0, 494.7, 989.4, 494.7)
>>> t4 = datasheet("Tesla T4")
>>> datasheet("NVIDIA GH200 480GB").link, t4.flops / 1e12, t4.bf16, t4.fp16 / 1e12
('NVLink-C2C', 8.1, None, 65.0)
>>> datasheet("NVIDIA L40S").name, datasheet("NVIDIA L4").name, datasheet("Apple M2") is None
('L40S', 'L4', True)
"""

from __future__ import annotations

import dataclasses
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

NUMBER_TYPES = ("fp32", "tf32", "bf16", "fp16")
"""The number types a matrix product can run in, as the course names them."""


@dataclass(frozen=True)
class Datasheet:
    name: str
    fp32: float
    """Peak FLOP/s of plain float32 arithmetic (no tensor cores)."""
    tf32: float | None
    """Dense peak of float32 products on tensor cores in TF32; ``None``: no TF32."""
    bf16: float | None
    """Dense peak of bfloat16 products (float32 accumulation); ``None``: no bfloat16 fast path."""
    fp16: float | None
    """Dense peak of float16 products (float32 accumulation); ``None``: none."""
    link: str
    """The link to the host, a key of :data:`BUSES`."""
    source: str
    """Where the figures come from."""

    @property
    def flops(self) -> float:
        """The ceiling of a float32 matrix product: the TF32 peak where tensor cores may take it
        (``set_float32_matmul_precision("high")``), else the float32 peak. What the receipt's
        measured peak is checked against."""
        return max(self.fp32, self.tf32 or 0.0)

    def peak(self, number_type: str) -> float | None:
        """The dense peak for ``number_type`` (one of :data:`NUMBER_TYPES`), or ``None``."""
        if number_type not in NUMBER_TYPES:
            raise ValueError(f"{number_type!r} is not one of {', '.join(NUMBER_TYPES)}")
        return getattr(self, number_type)

    @property
    def bus(self) -> float:
        """Bytes per second, per direction, of the link to the host."""
        return BUSES[self.link]


T = 1e12
HOPPER = "NVIDIA {} datasheet ({} SXM; tensor figures halved from 'with sparsity')"
GEFORCE = "NVIDIA {} architecture whitepaper ({}; 16-bit with FP32 accumulate)"
DATASHEETS = [  # the first whose name matches wins: GH200 before H200, L40S before L40 and L4
    Datasheet("B200", 75 * T, 1100 * T, 2250 * T, 2250 * T, "PCIe 6.0 x16",
              "NVIDIA HGX B200 specifications, per GPU (dense)"),
    Datasheet("GH200", 67 * T, 494.7 * T, 989.4 * T, 989.4 * T, "NVLink-C2C",
              "NVIDIA GH200 Grace Hopper Superchip datasheet (dense)"),
    Datasheet("H200", 67 * T, 494.7 * T, 989.4 * T, 989.4 * T, "PCIe 5.0 x16",
              HOPPER.format("H200 Tensor Core GPU", "H200")),
    Datasheet("H100", 67 * T, 494.7 * T, 989.4 * T, 989.4 * T, "PCIe 5.0 x16",
              HOPPER.format("H100 Tensor Core GPU", "H100")),
    Datasheet("A100", 19.5 * T, 156 * T, 312 * T, 312 * T, "PCIe 4.0 x16",
              HOPPER.format("A100 Tensor Core GPU", "A100")),
    Datasheet("L40S", 91.6 * T, 183 * T, 362 * T, 362 * T, "PCIe 4.0 x16",
              "NVIDIA L40S datasheet (dense)"),
    Datasheet("L40", 90.5 * T, 90.5 * T, 181 * T, 181 * T, "PCIe 4.0 x16",
              "NVIDIA L40 datasheet (dense)"),
    Datasheet("L4", 30.3 * T, 60 * T, 121 * T, 121 * T, "PCIe 4.0 x16",
              "NVIDIA L4 Tensor Core GPU datasheet (dense)"),
    Datasheet("A10G?", 31.2 * T, 62.5 * T, 125 * T, 125 * T, "PCIe 4.0 x16",
              "NVIDIA A10 Tensor Core GPU datasheet (dense; an A10G is slower)"),
    Datasheet("V100S?", 16.4 * T, None, None, 130 * T, "PCIe 3.0 x16",
              "NVIDIA V100S datasheet (float16 tensor cores only)"),
    Datasheet("P100", 10.6 * T, None, None, 21.2 * T, "PCIe 3.0 x16",
              "NVIDIA Tesla P100 datasheet (SXM2; no tensor cores)"),
    Datasheet("T4", 8.1 * T, None, None, 65 * T, "PCIe 3.0 x16",
              "NVIDIA T4 datasheet (float16 tensor cores only)"),
    Datasheet("RTX 5090", 104.8 * T, 104.8 * T, 209.5 * T, 209.5 * T, "PCIe 5.0 x16",
              GEFORCE.format("RTX Blackwell", "GeForce RTX 5090")),
    Datasheet("RTX 4090", 82.6 * T, 82.6 * T, 165.2 * T, 165.2 * T, "PCIe 4.0 x16",
              GEFORCE.format("Ada Lovelace", "GeForce RTX 4090")),
    Datasheet("RTX 4080( SUPER)?", 52.2 * T, 52.2 * T, 104.4 * T, 104.4 * T, "PCIe 4.0 x16",
              GEFORCE.format("Ada Lovelace", "GeForce RTX 4080 SUPER")),
    Datasheet("RTX 3090( Ti)?", 40 * T, 40 * T, 80 * T, 80 * T, "PCIe 4.0 x16",
              GEFORCE.format("Ampere GA102", "GeForce RTX 3090 Ti")),
]  # fmt: skip
"""Known GPUs, their names as regular expressions (``A10G?``: the A10 and AWS's A10G)."""


def datasheet(name: str) -> Datasheet | None:
    """The datasheet of the GPU called ``name`` (as ``torch.cuda.get_device_name`` says it), or
    ``None`` for a GPU (or a CPU) not in :data:`DATASHEETS`. The result's ``name`` is the
    model matched."""
    for sheet in DATASHEETS:
        match = re.search(rf"\b{sheet.name}\b", name)
        if match:
            return dataclasses.replace(sheet, name=match.group(0))
    return None
