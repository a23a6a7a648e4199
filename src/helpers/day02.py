"""Day 2 · Moving models and data to a device

What the measurements of
``notebooks/day02_devices.ipynb``
mean, in the course's language: what the device-mismatch error and a copy back to the CPU look
like on the other kinds of device, what the copies cost (:mod:`helpers.copies`), whether a copy
overlapped a product on a second CUDA stream, and the copies beside a receipt's.

>>> mismatch_note("mps").startswith("That is how MPS words it")
True
"""

from __future__ import annotations

import mmap
import platform

import pandas as pd

from helpers import receipts
from helpers.copies import (
    POOL_BYTES,
    WITHIN_ONE_MEMORY,
    AllocationPair,
    AllocationSizes,
    CopyCurve,
)
from helpers.i18n import N_, _, label, word
from helpers.narration import Beside, copy_rate, heading, here, receipt_label, size_text
from helpers.receipts import Shelf

NAMES = (
    N_("size"),
    N_("model.to(target) returns the same module object"),
    N_("the model's parameters are now on the target"),
    N_("x.to(target) returns a new tensor"),
    N_("the new tensor is on the target"),
    N_("the old tensor has not moved"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""


PEAK_HOLDS = 0.8
"""Share of the peak throughput the largest copies keep to count as holding it ("within 20 %"):
a margin wide enough that run-to-run noise in a median does not read as a fall."""

OVERLAP = 0.9
"""Two streams must take less than this share of one stream's time to count as overlapping: a
10 % margin, so that noise in two medians of 10 runs does not read as an overlap."""

CUDA_MISMATCH = "Expected all tensors to be on the same device"
"""How CUDA's device-mismatch error starts (it then names both devices, e.g. ``cuda:0`` and
``cpu``)."""

MPS_MISMATCH = "Tensor for argument input is on cpu but expected on mps"
"""MPS's wording of the same error since PyTorch 2.4 (pytorch/pytorch#130790)."""


# ---- one device's error, the others' wording (section 3) ---------------------------------------


def mismatch_note(device_type: str) -> str:
    """What the device-mismatch error says on the other devices than ``device_type``."""
    cuda = _(
        "on an NVIDIA GPU it starts `{error}` and names both devices (`cuda:0`, `cpu`)"
    ).format(error=CUDA_MISMATCH)
    mps = _("on a Mac's GPU (MPS, PyTorch 2.4 and later) it reads `{error}`").format(
        error=MPS_MISMATCH
    )
    if device_type == "cuda":
        return _("That is CUDA's wording; {mps}.").format(mps=mps)
    if device_type == "mps":
        return _("That is how MPS words it; {cuda}.").format(cuda=cuda)
    return _(
        "That is the `{device}` device's version of the error. The same "
        "mistake raises a `RuntimeError` on a GPU too: {cuda}; {mps}."
    ).format(device=device_type, cuda=cuda, mps=mps)


# ---- what a copy costs (helpers.copies; section 5) ----------------------------------------------


def _bytes(n: int) -> str:
    return _("{n:,} bytes").format(n=n)


def variant_findings(curve: CopyCurve) -> list[str]:
    """Sentences about one variant's copies (:func:`helpers.copies.copy_curve`): the fixed cost,
    the peak rate, many small copies against one large one, and what happens above the peak
    (whether the largest size keeps :data:`PEAK_HOLDS` of the peak's throughput)."""
    name = word(curve.variant)  # the variant, in the course's language
    counted = _("read + write") if curve.traffic == WITHIN_ONE_MEMORY else _("each byte once")
    found = [
        _(
            "**{name}**: no copy took less than {fixed_us:.1f} µs (the "
            "{quickest:,}-byte one), an upper bound on the fixed cost; bandwidth "
            "peaks at {rate:.1f} GB/s ({counted}, at {at}). At that pace {balance_kib:,.0f} "
            "KiB are copied in the fixed cost's time: copies well below that size are "
            "mostly fixed cost."
        ).format(
            name=name,
            counted=counted,
            fixed_us=curve.fixed_s * 1e6,
            quickest=curve.quickest_bytes,
            rate=curve.peak_rate,
            at=_bytes(curve.peak_bytes),
            balance_kib=curve.balance_kib,
        )
    ]
    said = {
        "large": _bytes(curve.largest_bytes),
        "pieces": curve.pieces,
        N_("small"): curve.smallest_bytes,
        "ratio": curve.pieces_ratio,
        "one_ms": curve.largest_s * 1e3,
    }
    if curve.peak_at_largest:
        found.append(
            _(
                "Moving {large} as {pieces:,} copies of {small:,} would take "
                "**{ratio:.1f}×** as long as one copy ({one_ms:,.1f} ms), the best "
                "size here."
            ).format(**said)
        )
        return found
    found.append(
        _(
            "Moving {large} as {pieces:,} copies of {small:,} would take "
            "**{ratio:.1f}×** as long as one copy ({one_ms:,.1f} ms); in copies of "
            "{best:,}, the best size here, {best_ms:,.1f} ms."
        ).format(best=curve.peak_bytes, best_ms=curve.best_split_s * 1e3, **said)
    )
    if curve.largest_share < PEAK_HOLDS:
        found.append(
            _(
                "Above {at} bandwidth falls to {rate:.1f} GB/s at the largest size "
                "({share:.0%} of the peak)."
            ).format(
                at=_bytes(curve.peak_bytes), rate=curve.largest_rate, share=curve.largest_share
            )
        )
    else:
        found.append(
            _(
                "Above {at} bandwidth stays within 20 % of the peak up to the largest "
                "size ({rate:.1f} GB/s)."
            ).format(at=_bytes(curve.peak_bytes), rate=curve.largest_rate)
        )
    return found


def allocation_note(device_type: str, system: str | None = None) -> str:
    """Why the allocating variant differs from ``copy_`` on this kind of device (and, for the
    CPU, this operating system: ``platform.system()`` unless ``system`` is given).

    >>> allocation_note("cuda").startswith("PyTorch keeps freed GPU memory")
    True
    """
    if device_type in ("cuda", "mps"):
        return _(
            "PyTorch keeps freed GPU memory in its caching allocator and hands it "
            "out again, so after the first runs a new buffer on the GPU costs "
            "little; what differs is mostly the copy itself."
        )
    system = system or platform.system()
    library = (
        _(
            "glibc, Linux's C library, hands blocks above its threshold (128 KiB, "
            "rising to at most 32 MiB as large blocks are freed) straight to the "
            "kernel"
        )
        if system == "Linux"
        else _("the C library hands large blocks straight to the operating system")
    )
    return _(
        "On the CPU a large new buffer is fresh memory: {library}, and the "
        "first write to each {page_kib} KiB page stops the copy for a page "
        "fault."
    ).format(library=library, page_kib=mmap.PAGESIZE // 1024)


def allocation_finding(pair: AllocationPair, device_type: str) -> str:
    """At the largest size: a copy that allocates its buffer against one into an existing buffer
    (:func:`helpers.copies.allocation_pair`), with why they differ on this device."""
    return _(
        "At {size}, a copy that allocates its buffer (*{alloc}*) took "
        "**{alloc_ms:,.2f} ms**, one into an existing buffer (*{plain}*) "
        "**{plain_ms:,.2f} ms** ({ratio:.1f}×). {note}"
    ).format(
        size=_bytes(pair.bytes),
        alloc=word(pair.alloc),
        alloc_ms=pair.alloc_s * 1e3,
        plain=word(pair.plain),
        plain_ms=pair.plain_s * 1e3,
        ratio=pair.ratio,
        note=allocation_note(device_type),
    )


def allocation_sizes_finding(found: AllocationSizes, device_type: str) -> str:
    """The allocating copy against the plain one at every size (:func:`helpers.copies.
    allocation_sizes`): where it took less time, more, or neither beyond the runs' quartiles;
    on a CPU, why allocating can win at middle sizes."""
    said = {"alloc": word(found.alloc), "plain": word(found.plain)}

    def sizes(part: tuple[int, ...]) -> str:
        return _(", ").join(size_text(n) for n in part)

    lines = []
    if found.faster:
        lines.append(
            _("*{alloc}* took less time than *{plain}* at {sizes}.").format(
                sizes=sizes(found.faster), **said
            )
        )
    if found.slower:
        lines.append(
            _("*{alloc}* took more time than *{plain}* at {sizes}.").format(
                sizes=sizes(found.slower), **said
            )
        )
    if found.even:
        lines.append(
            _("At {sizes} the two were within each other's quartiles.").format(
                sizes=sizes(found.even)
            )
        )
    if found.faster and device_type == "cpu":
        lines.append(
            _(
                "Allocating cannot make a copy cheaper by itself; what most likely differs at "
                "those sizes is the cache: below the C library's threshold a new buffer is a "
                "block just freed, still in the cache, while `copy_` writes into pieces of a "
                "{pool_mib} MiB pool that have gone cold. The page faults show only where the "
                "new buffer comes fresh from the operating system."
            ).format(pool_mib=POOL_BYTES // 2**20)
        )
    return _("Size by size: {lines}").format(lines=" ".join(lines))


def bandwidth_axis(device_type: str) -> str:
    """The bandwidth axis of day 2's plot, with how its bytes are counted on ``device_type``
    (:func:`helpers.copies.traffic`), in the plot's language."""
    if device_type == "cpu":
        return label("bandwidth (GB/s, read + write)")
    return label("bandwidth (GB/s, each byte once)")


# ---- the same copies on a GPU, from a receipt (helpers.receipts; section 5) ---------------------


COPY_NAMES = {
    "h2d_pageable": N_("host to device, pageable memory (each byte once)"),
    "h2d_pinned": N_("host to device, pinned memory (each byte once)"),
    "d2h_pageable": N_("device to host, pageable memory (each byte once)"),
    "d2h_pinned": N_("device to host, pinned memory (each byte once)"),
    "on_device": N_("within the device, read + write (on a CPU: memory to memory)"),
}
"""A receipt's copy paths, by their key, as the table names them, each with how its bytes are
counted (:func:`helpers.copies.traffic`): once across the bus, twice within one memory."""


COPY_ROWS = {  # a receipt's key: this machine's copy_ variant that measures the same path
    "h2d_pageable": (N_("pageable -> GPU, copy_"), N_("host -> MPS, copy_")),
    "h2d_pinned": (N_("pinned -> GPU, copy_"),),
    "d2h_pageable": (),
    "d2h_pinned": (),
    "on_device": (N_("CPU memory, copy_ into a buffer"),),
}
"""Day 2's copy variants (``helpers.copies``) by the receipt's copy they stand beside."""


def beside_receipt(copies: pd.DataFrame, device_type: str, found: Shelf | None = None) -> Beside:
    """Day 2: the receipt's copy bandwidths (pageable and pinned, each way, and within the device,
    at its copy size) beside this machine's ``copy_`` variants at the largest size of day 2's
    table: each figure with its size, so that a copy in the cache is not read beside one from
    memory."""
    found = receipts.load_all() if found is None else found
    receipt = found.pick()
    if receipt is None:
        return Beside(heading(found, None))
    largest = copies[copies["bytes"] == copies["bytes"].max()]  # like the receipt: one size
    rate = dict(zip(largest["variant"], largest["GB/s"] * 1e9, strict=True))
    size = int(largest["bytes"].iloc[0])
    ours = {k: next((rate[v] for v in names if v in rate), None) for k, names in COPY_ROWS.items()}
    theirs = receipt["copies"]
    table = pd.DataFrame(
        {
            here(device_type): [copy_rate(ours[k], size) for k in COPY_ROWS],
            receipt_label(receipt): [copy_rate(theirs[k], theirs["bytes"]) for k in COPY_ROWS],
        },
        index=[word(COPY_NAMES[k]) for k in COPY_ROWS],
    )
    rates = [r for r in (receipt["copies"]["h2d_pageable"], receipt["copies"]["h2d_pinned"]) if r]
    notes = [heading(found, receipt)]
    if len(rates) == 2:
        notes.append(
            _(
                "On that device a pinned copy of {size:,} bytes ran {ratio:.1f}× as "
                "fast as a pageable one: a pageable copy goes through a pinned staging "
                "buffer first."
            ).format(ratio=rates[1] / rates[0], size=receipt["copies"]["bytes"])
        )
    return Beside("\n\n".join(notes), table)


# ---- a copy beside a product, on a second stream (section 5) -----------------------------------


def streams_finding(one_stream: float | None, two_streams: float | None, device: str) -> str:
    """A product then a copy on one CUDA stream against the copy on a second stream (median
    seconds; the copy overlapped when two streams take less than :data:`OVERLAP` of one's time),
    or, without them (``None``: no CUDA GPU on ``device``), why nothing was shown."""
    if one_stream is None or two_streams is None:
        return _(
            "No CUDA GPU here ({device}): there are no streams to overlap, so this "
            "cannot be shown on this machine; on an NVIDIA GPU this cell compares "
            "one stream with two."
        ).format(device=device)
    said = {"one_ms": one_stream * 1e3, "two_ms": two_streams * 1e3}
    if two_streams < OVERLAP * one_stream:
        found = _(
            "Product then copy, one stream: **{one_ms:.2f} ms**; copy on a second "
            "stream: **{two_ms:.2f} ms** ({ratio:.2f}x): here the copy overlapped."
        )
    else:
        found = _(
            "Product then copy, one stream: **{one_ms:.2f} ms**; copy on a second "
            "stream: **{two_ms:.2f} ms** ({ratio:.2f}x): here the copy did not "
            "overlap measurably."
        )
    return found.format(ratio=one_stream / two_streams, **said)


# ---- reading a copy back to the CPU (section 5) ------------------------------------------------


def readback_note(device_type: str) -> str:
    """How to wait for a ``non_blocking`` copy back to the CPU on ``device_type``.

    >>> "torch.mps.synchronize()" in readback_note("mps")
    True
    """
    if device_type == "cuda":
        return _(
            "On CUDA, `non_blocking=True` to the CPU returns before the numbers "
            "have arrived: wait with `torch.cuda.synchronize()` or an event's "
            "`synchronize()` before reading them."
        )
    if device_type == "mps":
        return _(
            "On MPS too, a `non_blocking=True` copy to the CPU may return before "
            "the numbers are there (pytorch/pytorch#140296): call "
            "`torch.mps.synchronize()` before reading them."
        )
    return _(
        "Here the tensors live on the {device} already, so `.to('cpu')` "
        "returns the tensor itself and there is nothing to wait for. With a "
        "GPU, wait before reading a `non_blocking=True` copy: "
        "`torch.cuda.synchronize()` on an NVIDIA GPU, "
        "`torch.mps.synchronize()` on a Mac."
    ).format(device=device_type.upper())
