"""Overhead, bandwidth or compute: which limit a workload meets on this device (day 5b, section 3).

Every loop is held back by one of three things (Horace He, "Making Deep Learning Go Brrrr From
First Principles"):

* **compute**: the arithmetic units are busy; the time is about FLOPs / peak FLOP/s;
* **bandwidth**: moving bytes to and from memory takes the time; about bytes / bandwidth;
* **overhead**: neither; Python, dispatch, autograd, kernel launches and waits take the time.

A *roofline* draws what a device can reach: achieved FLOP/s against *arithmetic intensity* (FLOPs
per byte moved). The slanted roof is bandwidth times intensity, the flat one the peak; they meet at
the *ridge*. A workload's point sits under the roof; how far under says how much of its time is
neither arithmetic nor memory traffic. :func:`measure_peak_flops` and :func:`measure_bandwidth`
measure the two roofs on the learner's device (day 7 measures them again to price utilisation:
(day 7, section 1)). The roofs are best cases (a large matrix product, a plain copy): real
operators reach a fraction of them. This module computes; which limit a point meets, and what it
means, the lesson says (:func:`helpers.day05b.regime`, with its threshold ``ROOF_SHARE``).

A roof holds only in the regime it was measured in. Bandwidth depends on where the bytes live:
a copy that fits in the last-level cache runs faster than one that streams from memory, so
:func:`measure_roof` copies as many bytes as the workload it is for moves, with the same threads,
and labels the roof ``cache`` or ``memory`` (:func:`memory_level`). A point above its roof means the
roof was measured too low for it; :func:`above_roof` names that roof, so that a lesson can say so
instead of printing more than 100 %.

>>> roof = Roof(peak_flops=100e9, bandwidth=10e9)
>>> roof.ridge  # FLOPs per byte where the two roofs meet
10.0
>>> tiny = Workload("tiny epoch", flops=4e4, bytes=2e4, seconds=500e-6)
>>> roof.arithmetic_seconds(tiny), roof.memory_seconds(tiny)  # both far under its 500 µs
(4e-07, 2e-06)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from helpers.copies import traffic
from helpers.i18n import N_, catalog, label, language, plot_language, word
from helpers.timing import benchmark


@dataclass(frozen=True)
class Roof:
    """What a device can reach: its peak arithmetic rate and its memory bandwidth."""

    peak_flops: float
    """Floating-point operations per second, measured on a large matrix product."""
    bandwidth: float
    """Bytes per second, measured on a large copy (bytes read plus bytes written)."""
    level: str = ""
    """Where that copy's bytes lived, ``cache`` or ``memory`` (:func:`memory_level`); empty for a
    roof not measured by :func:`measure_roof`."""
    copied: int = 0
    """The bytes of the copy the bandwidth was measured with."""
    threads: int | None = None
    """The CPU threads it was measured with (``None`` on a GPU)."""

    @property
    def ridge(self) -> float:
        """The intensity (FLOPs per byte) where the roofs meet: below it memory limits first."""
        return self.peak_flops / self.bandwidth

    def attainable(self, intensity: float) -> float:
        """The highest FLOP/s a workload of this intensity can reach: the lower roof."""
        return min(self.peak_flops, intensity * self.bandwidth)

    def arithmetic_seconds(self, work: Workload) -> float:
        """Arithmetic time: the workload's FLOPs at the peak rate."""
        return work.flops / self.peak_flops

    def memory_seconds(self, work: Workload) -> float:
        """The time to move the workload's bytes at full bandwidth."""
        return work.bytes / self.bandwidth


@dataclass(frozen=True)
class Workload:
    """One measured piece of work: its FLOPs, the bytes it moves, and its measured time. The
    ``name`` stays as given (English in the lessons); sentences and plots show it through
    :func:`helpers.i18n.word`."""

    name: str
    flops: float
    bytes: float
    seconds: float

    @property
    def intensity(self) -> float:
        """FLOPs per byte moved."""
        return self.flops / self.bytes

    @property
    def achieved(self) -> float:
        """FLOP/s actually reached."""
        return self.flops / self.seconds


def last_level_cache(
    device: torch.device | str = "cpu", root: Path = Path("/sys/devices/system/cpu/cpu0/cache")
) -> int | None:
    """Bytes of the device's last-level cache: on a CPU the largest cache Linux lists for CPU 0
    (under ``root``), on a CUDA GPU its L2; ``None`` when unknown (another system, device)."""
    device = torch.device(device)
    if device.type == "cuda":
        return getattr(torch.cuda.get_device_properties(device), "L2_cache_size", None) or None
    if device.type != "cpu":
        return None
    sizes = []
    for index in root.glob("index*"):
        try:
            text = (index / "size").read_text(encoding="utf-8").strip()
        except OSError:
            continue
        units = {"K": 2**10, "M": 2**20, "G": 2**30}
        if text[:-1].isdigit() and text[-1] in units:
            sizes.append(int(text[:-1]) * units[text[-1]])
    return max(sizes, default=None)


def memory_level(nbytes: float, cache: int | None) -> str:
    """``'cache'`` when ``nbytes`` (what a copy reads plus writes) fit in half a last-level cache
    of ``cache`` bytes (the cache holds everything else too, and is often shared), else
    ``'memory'`` (also when the cache size is unknown).

    >>> memory_level(2 * 2**20, 32 * 2**20), memory_level(32 * 2**20, 32 * 2**20)
    ('cache', 'memory')
    """
    return N_("cache") if cache is not None and nbytes <= cache / 2 else "memory"


def above_roof(work: Workload, roof: Roof) -> str | None:
    """Which roof ``work`` sits above: ``'bandwidth'`` (the slanted one, where it is the lower
    roof: the copy that measured it moved bytes slower than this workload did) or ``'flat'`` (the
    measured peak, where that is the lower one); ``None`` when it is under its roof (a roof is an
    upper bound only in the regime it was measured in).

    >>> above_roof(Workload("fast copy", flops=1e6, bytes=1e6, seconds=50e-6), Roof(100e9, 10e9))
    'bandwidth'
    """
    if work.achieved <= roof.attainable(work.intensity):
        return None
    return "bandwidth" if work.intensity * roof.bandwidth < roof.peak_flops else "flat"


def reach(work: Workload, roof: Roof) -> float:
    """The share of what ``roof`` allows at ``work``'s intensity that it achieved (above 1 for a
    point above its roof: :func:`above_roof`)."""
    return work.achieved / roof.attainable(work.intensity)


def overhead_share(work: Workload, roof: Roof) -> float:
    """The share of ``work``'s time that is neither arithmetic at the peak nor memory traffic at
    full bandwidth: what an overhead-bound workload spends on Python, dispatch, launches, waits."""
    return 1 - max(roof.arithmetic_seconds(work), roof.memory_seconds(work)) / work.seconds


def measure_peak_flops(
    device: torch.device | str,
    size: int | None = None,
    threads: int = 1,
    dtype: torch.dtype = torch.float32,
) -> float:
    """FLOP/s of a ``size`` x ``size`` matrix product of ``dtype`` numbers (float32 unless told)
    on ``device`` (the flat roof): the fastest of the benchmark's blocks, since a roof is a best
    case.

    ``size`` defaults to 1024 on a CPU and 4096 on a GPU; ``threads`` is the CPU thread count
    the benchmark uses (the lesson's loop runs on one). Each number type has its own peak
    (:mod:`helpers.peaks`: day 7b, section 4).
    """
    device = torch.device(device)
    size = size or (1024 if device.type == "cpu" else 4096)
    a = torch.randn(size, size, device=device, dtype=dtype)
    b = torch.randn(size, size, device=device, dtype=dtype)
    a @ b  # warm-up: library loading, workspace allocation
    seconds = min(benchmark(lambda: a @ b, device=device, threads=threads).samples)
    return 2 * size**3 / seconds


def measure_bandwidth(device: torch.device | str, elements: int, threads: int = 1) -> float:
    """Bytes per second of copying ``elements`` float32 numbers on ``device``, read and written
    (traffic twice the copy's size: the course's one convention, :mod:`helpers.copies`): the
    slanted roof, from the fastest of the benchmark's blocks. The size decides the
    regime: a copy that fits in the last-level cache measures the cache, a larger one the memory
    (:func:`measure_roof` labels which)."""
    device = torch.device(device)
    source = torch.randn(elements, device=device)
    target = torch.empty_like(source)
    target.copy_(source)  # warm-up: the first touch of fresh memory is slower
    seconds = min(benchmark(lambda: target.copy_(source), device=device, threads=threads).samples)
    return traffic(source.element_size() * source.numel(), within_one_memory=True) / seconds


def _mib(nbytes: float) -> str:
    return f"{nbytes / 2**20:,.3g} MiB" if nbytes >= 2**20 else f"{nbytes / 2**10:,.3g} KiB"


def measure_roof(
    device: torch.device | str, elements: int, peak_flops: float, threads: int = 1
) -> Roof:
    """The roof for workloads that move about ``elements`` float32 numbers at a time with
    ``threads`` CPU threads: the bandwidth of a copy of that size (labelled ``cache`` or
    ``memory``, :func:`memory_level`) under the flat roof ``peak_flops`` (measured with the same
    threads, :func:`measure_peak_flops`)."""
    device = torch.device(device)
    bandwidth = measure_bandwidth(device, elements, threads)
    copied = 4 * elements
    level = memory_level(2 * copied, last_level_cache(device))
    on_cpu = threads if device.type == "cpu" else None
    return Roof(peak_flops, bandwidth, level=level, copied=copied, threads=on_cpu)


def roof_label(roof: Roof, lang: str | None = None) -> str:
    """How a roof is named in a legend or a sentence, in ``lang`` (default: the course's):
    ``'memory: copying 64 MiB, 1 thread'``, or ``'this device'`` for a roof not measured by
    :func:`measure_roof`.

    >>> roof_label(Roof(68e9, 40e9, level="cache", copied=2**18, threads=1), "en")
    'cache: copying 256 KiB, 1 thread'
    """
    words = catalog(lang or language())
    if not roof.level:
        return words.gettext("this device")
    said = {"level": word(roof.level, lang), "size": _mib(roof.copied), "threads": roof.threads}
    if roof.threads is None:
        return words.gettext("{level}: copying {size}").format(**said)
    return words.ngettext(
        "{level}: copying {size}, {threads} thread",
        "{level}: copying {size}, {threads} threads",
        roof.threads,
    ).format(**said)


# A chain of eight elementwise operations. Run one operator at a time (eager), each reads its
# inputs from memory and writes its result back; compiled, they fuse into one loop that reads x
# once and writes the result once: the same arithmetic, a ninth of the memory traffic.
CHAIN_FLOPS = 8
"""Floating-point operations per element of :func:`elementwise_chain`."""
CHAIN_BYTES_EAGER = 6 * 8 + 2 * 12
"""Bytes per element moved eagerly: six operators read 4 bytes and write 4; two (``* x`` and
``+ x``) read 8 and write 4."""
CHAIN_BYTES_FUSED = 8
"""Bytes per element moved by one fused loop: read ``x`` once, write the result once."""


def elementwise_chain(x: torch.Tensor) -> torch.Tensor:
    """Eight cheap elementwise operations on ``x``, the kind a model does between its matrix
    products (activations, normalisations, residual additions).

    >>> elementwise_chain(torch.tensor([1.0, -2.0]))
    tensor([ 1.5000, -1.5000])
    """
    y = x * 1.5
    y = y + 0.5
    y = y.relu()
    y = y * x
    y = y - 1.0
    y = y.abs()
    y = y * 0.5
    return y + x


def elementwise_chain_reused(x: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    """:func:`elementwise_chain` writing every step into one reused buffer ``out`` (``x``'s shape):
    the same operators and the same bytes moved, but no fresh result allocated per operator.

    >>> x = torch.tensor([1.0, -2.0])
    >>> elementwise_chain_reused(x, torch.empty(2))
    tensor([ 1.5000, -1.5000])
    """
    torch.mul(x, 1.5, out=out)
    out.add_(0.5).relu_().mul_(x).sub_(1.0).abs_().mul_(0.5)
    return out.add_(x)


def fused_chain():
    """:func:`elementwise_chain` compiled by ``torch.compile``: one generated loop that reads ``x``
    once and writes the result once. It compiles at its first call."""
    return torch.compile(elementwise_chain, fullgraph=True)


def draw(
    roof: Roof | Sequence[Roof],
    workloads: Sequence[Workload],
    ax=None,
    regimes: Sequence[str] | None = None,
):
    """The roofline on log-log axes, with each workload as a point, marked by its regime when
    ``regimes`` names one per workload (the lesson decides them: day 5b's ``regime``).

    ``roof`` is one roof for all workloads, or one per workload (each measured in its regime):
    every distinct roof is drawn once, with its own line style."""
    import matplotlib.pyplot as plt

    if ax is None:
        _figure, ax = plt.subplots(figsize=(7.5, 4.5))
    roofs = [roof] * len(workloads) if isinstance(roof, Roof) else list(roof)
    if len(roofs) != len(workloads):
        raise ValueError(f"one roof per workload: {len(roofs)} roofs, {len(workloads)} workloads")
    distinct = list(dict.fromkeys(roofs)) or [roof]
    intensities = [w.intensity for w in workloads] + [r.ridge for r in distinct]
    x = np.logspace(np.log10(min(intensities)) - 1, np.log10(max(intensities)) + 1, 200)
    for one, style in zip(distinct, ["-", "--", "-.", ":"] * len(distinct), strict=False):
        named = label("roof ({roof})").format(roof=roof_label(one, plot_language()))
        ax.plot(x, [one.attainable(i) for i in x], color="black", lw=2, ls=style, label=named)
    markers = {"compute-bound": "s", "bandwidth-bound": "^", "overhead-bound": "o"}
    for i, work in enumerate(workloads):
        name = word(work.name, plot_language())
        found = regimes[i] if regimes is not None else None
        if found is not None:
            name = label("{name} ({found})").format(name=name, found=word(found, plot_language()))
        marker = markers.get(found, "o")
        ax.scatter(work.intensity, work.achieved, s=60, marker=marker, zorder=3, label=name)
    ax.set(
        xscale="log",
        yscale="log",
        xlabel=label("arithmetic intensity (FLOPs per byte moved, log scale)"),
        ylabel=label("achieved FLOP/s (log scale)"),
        title=label("Roofline: peak {peak:.3g} GFLOP/s, bandwidth {bandwidths} GB/s").format(
            peak=distinct[0].peak_flops / 1e9,
            bandwidths=", ".join(f"{r.bandwidth / 1e9:.3g}" for r in distinct),
        ),
    )
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="lower right")
    return ax
