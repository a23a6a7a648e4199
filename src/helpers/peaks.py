"""Each number type's peak, measured and promised, and model FLOP utilisation against the right one
(day 7b, sections 3 and 4).

A device does not have one peak: a float32 matrix product on an H100's CUDA cores reaches a few
tens of TFLOP/s, the same product rounded to TF32 on its tensor cores several times more, and
bfloat16 twice that again. Model FLOP utilisation (MFU: the model's FLOPs per second over a peak)
means something only against the peak of the type the products ran in:

* :func:`precision` sets ``torch.set_float32_matmul_precision`` for a block and puts it back;
  :func:`tf32_changes_bits` asks the device whether ``"high"`` changes a float32 product (it does
  where tensor cores round to TF32; on a CPU, and on GPUs before compute capability 8.0, it does
  not);
* :func:`measured` times the largest matrix product in each type the device computes in;
  :func:`promised` reads the same peaks from the datasheet (:mod:`helpers.datasheets`);
* :func:`mfu` divides; :func:`draw` puts training steps on one roofline with a flat roof per type
  (:mod:`helpers.roofline` has the single-roof version and the regime rules).

>>> with precision("high"):
...     torch.get_float32_matmul_precision()
'high'
>>> torch.get_float32_matmul_precision()
'highest'
>>> mfu(2e12, 4e12), mfu(2e12, None)
(0.5, None)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import torch

from helpers.datasheets import NUMBER_TYPES, datasheet
from helpers.i18n import label, plot_language, word
from helpers.memory import autocast_dtype
from helpers.roofline import Roof, Workload, measure_peak_flops

DTYPES = {
    "fp32": torch.float32,
    "tf32": torch.float32,
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
}
"""The tensors' type for each number type (TF32 is float32 tensors, rounded in the product)."""


@contextmanager
def precision(mode: str) -> Iterator[None]:
    """``torch.set_float32_matmul_precision(mode)`` inside the block (``"highest"``: float32
    products in float32; ``"high"``: TF32 allowed), the previous setting restored after it."""
    before = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision(mode)
    try:
        yield
    finally:
        torch.set_float32_matmul_precision(before)


def tf32_changes_bits(device: torch.device | str, size: int = 256) -> bool:
    """Whether allowing TF32 changes the result of a float32 matrix product on ``device``: the
    device's own answer to "does this lever do anything here?"."""
    generator = torch.Generator().manual_seed(0)
    a, b = (torch.randn(size, size, generator=generator).to(device) for _matrix in range(2))
    with precision("highest"):
        exact = a @ b
    with precision("high"):
        rounded = a @ b
    return not torch.equal(exact, rounded)


def sixteen_bit(device: torch.device | str) -> str:
    """The 16-bit type autocast computes in on ``device`` (``"bf16"`` or ``"fp16"``), as
    :func:`helpers.memory.autocast_dtype` chooses it."""
    return "bf16" if autocast_dtype(device).dtype == torch.bfloat16 else "fp16"


def measured(device: torch.device | str, size: int, threads: int) -> dict[str, float | None]:
    """The fastest ``size`` x ``size`` matrix product in FLOP/s, for float32 (TF32 off), TF32
    (``None`` where allowing it changes nothing) and the 16-bit type autocast uses here (the other
    16-bit type ``None``). ``threads``: CPU threads of the benchmark."""
    device = torch.device(device)
    found: dict[str, float | None] = dict.fromkeys(NUMBER_TYPES)
    with precision("highest"):
        found["fp32"] = measure_peak_flops(device, size=size, threads=threads)
    if tf32_changes_bits(device):
        with precision("high"):
            found["tf32"] = measure_peak_flops(device, size=size, threads=threads)
    half = sixteen_bit(device)
    found[half] = measure_peak_flops(device, size=size, threads=threads, dtype=DTYPES[half])
    return found


def promised(device: torch.device | str) -> dict[str, float | None] | None:
    """The datasheet's dense peaks of ``device`` by number type, with its ``source``; ``None``
    for a device the course's table does not know (every CPU, an Apple GPU, an unknown GPU)."""
    device = torch.device(device)
    if device.type != "cuda":
        return None
    sheet = datasheet(torch.cuda.get_device_name(device))
    if sheet is None:
        return None
    return {kind: sheet.peak(kind) for kind in NUMBER_TYPES} | {"source": sheet.source}


def mfu(flops_per_second: float, peak: float | None) -> float | None:
    """Model FLOP utilisation: achieved FLOP/s over ``peak`` (``None`` without a peak)."""
    return None if not peak else flops_per_second / peak


MARKERS = {"fp32": "o", "tf32": "s", "bf16": "^", "fp16": "v"}
STYLES = {"fp32": "-", "tf32": "--", "bf16": "-.", "fp16": ":"}


def draw(roofs: dict[str, Roof], points: Sequence[tuple[Workload, str]], *, title: str, ax=None):
    """A roofline with one flat roof per number type (``roofs``: type -> :class:`Roof`, each with
    that type's measured peak and the device's bandwidth) and each training step (a
    :class:`Workload`) under the roof of the type it computed in. ``title`` names the machine:
    a figure never mixes machines."""
    import matplotlib.pyplot as plt
    import numpy as np

    if ax is None:
        _figure, ax = plt.subplots(figsize=(7.5, 4.5))
    lang = plot_language()
    intensities = [w.intensity for w, _kind in points] + [r.ridge for r in roofs.values()]
    x = np.logspace(np.log10(min(intensities)) - 1, np.log10(max(intensities)) + 1, 200)
    for kind, roof in roofs.items():
        ax.plot(
            x,
            [roof.attainable(i) for i in x],
            color="black",
            lw=1.5,
            ls=STYLES[kind],
            label=label("roof, {kind}: {peak:,.4g} GFLOP/s").format(
                kind=kind, peak=roof.peak_flops / 1e9
            ),
        )
    for work, kind in points:
        ax.scatter(
            work.intensity,
            work.achieved,
            s=60,
            marker=MARKERS[kind],
            zorder=3,
            label=f"{word(work.name, lang)} ({kind})",
        )
    ax.set(
        xscale="log",
        yscale="log",
        title=title,
        xlabel=label("arithmetic intensity (FLOPs per byte moved, log scale)"),
        ylabel=label("achieved FLOP/s (log scale)"),
    )
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="lower right")
    return ax
