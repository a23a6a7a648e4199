"""Day 8 · When one device is not enough. Sections 5 and 8: what a second process buys, and
sharding

Scaling and contention between processes (section 5) and what fits in a GPU's memory, sharded or
not (section 8), in the course's language. The numbers come from :mod:`helpers.scaling`, which
only computes; the thresholds are the constants below.

>>> print(memory_fits({"DDP (nothing sharded)": 1.2e12}, billions=70, gpus=8, recipe="x"))
70 billion parameters on 8 GPUs (x), activations not included. Fits in 80 GB (an H100's \
stated memory): none of these.
"""

from __future__ import annotations

from helpers.i18n import _, word
from helpers.scaling import Contention, Scaling

# --- Section 5: what a second process buys --------------------------------------------------

SHARED_CORES = 1.15
"""Compute that takes this many times as long beside the other processes as alone: they slow
each other (shared cores, memory, caches); below it, the difference is read as none."""
ABOVE_IDEAL = 1.1
"""An efficiency above this (more than N times one process's throughput from N processes)
means the one-process run was slowed: the measurement is to be repeated, not read."""
NEAR_PERFECT = 0.9
"""The efficiency from which scaling counts as near-perfect."""
USEFUL = 0.6
"""The efficiency from which scaling is useful but lossy; below it, poor."""


def contention_verdict(found: Contention) -> str:
    """Did the processes slow each other's compute (:data:`SHARED_CORES`)?

    >>> contention_verdict(Contention(128, beside=0.050, alone=0.030)).split(": ")[1]
    '1.67× as long'
    """
    ratio = found.ratio
    head = _(
        "Even without communication, computing {rows} rows took "
        "{beside_ms:.1f} ms per step beside the other processes, against "
        "{alone_ms:.1f} ms alone"
    ).format(rows=found.rows, beside_ms=found.beside * 1e3, alone_ms=found.alone * 1e3)
    if ratio > SHARED_CORES:
        return _(
            "{head}: {ratio:.2f}× as long: the processes share its cores, memory and caches."
        ).format(head=head, ratio=ratio)
    if ratio < 1 / SHARED_CORES:
        return _(
            "{head}: {ratio:.2f}× as long, faster beside the others than alone, "
            "which sharing cannot explain: one of the two was disturbed, so this "
            "comparison says nothing about contention."
        ).format(head=head, ratio=ratio)
    return _(
        "{head}: about the same ({ratio:.2f}×), so the processes hardly slowed "
        "each other's compute; what the extra process loses goes to "
        "communication."
    ).format(head=head, ratio=ratio)


def scaling_verdict(s: Scaling, contention: Contention | None = None) -> str:
    """What a scaling measurement says (:data:`ABOVE_IDEAL`, :data:`NEAR_PERFECT`,
    :data:`USEFUL`), and where the loss goes: ``contention``, when measured, says whether the
    processes slowed each other's compute (:data:`SHARED_CORES`).

    >>> from helpers.scaling import scaling
    >>> scaling_verdict(scaling("weak", 2, 0.1, 0.25, 256))[:60]
    'Weak scaling, 2 processes: 0.80× the throughput of one proce'
    """
    if contention is None:
        lost = _("the loss is communication, or processes slowing each other's compute")
    elif contention.ratio > SHARED_CORES:
        lost = _(
            "the loss is communication and shared cores (compute: {contention:.2f}× alone)"
        ).format(contention=contention.ratio)
    else:
        lost = _(
            "the loss is communication (compute beside the others: {contention:.2f}× alone)"
        ).format(contention=contention.ratio)
    if s.kind == "strong":
        head = _(
            "Strong scaling, {processes} processes: {speedup:.2f}× the throughput "
            "of one process (efficiency {efficiency:.0%})"
        )
    else:
        head = _(
            "Weak scaling, {processes} processes: {speedup:.2f}× the throughput of "
            "one process (efficiency {efficiency:.0%})"
        )
    head = head.format(processes=s.processes, speedup=s.speedup, efficiency=s.efficiency)
    if s.speedup < 1:
        return _(
            "{head}: **slower than one process**: it loses more than the split work saves; {lost}."
        ).format(head=head, lost=lost)
    if s.efficiency > ABOVE_IDEAL:
        return _(
            "{head}: **above the ideal**, more than N times one process's "
            "throughput from N processes: the one-process run was slowed (noise, "
            "or data that fits the caches of N processes but not of one); repeat "
            "it before reading it."
        ).format(head=head)
    if s.efficiency >= NEAR_PERFECT:
        return _("{head}: **near-perfect** scaling.").format(head=head)
    if s.efficiency >= USEFUL:
        return _("{head}: **useful but lossy**; {lost}.").format(head=head, lost=lost)
    return _(
        "{head}: **poor**, under 60% of the ideal; the split of a step into "
        "compute and communication says how much of the loss is the all-reduce."
    ).format(head=head)


# --- Section 8: sharding ------------------------------------------------------------------------

GPU_MEMORY = 80e9
"""Bytes per GPU a way of sharding must stay within to fit: an H100's stated 80 GB (the
sentence names it)."""


def memory_fits(memory: dict[str, float], *, billions: float, gpus: int, recipe: str) -> str:
    """Which ways of sharding (:func:`helpers.scaling.memory_per_gpu`: bytes per GPU by name)
    fit in :data:`GPU_MEMORY`, or that none does."""
    fits = [name for name, size in memory.items() if size <= GPU_MEMORY]
    said = {"billions": billions, "gpus": gpus, "recipe": word(recipe)}
    if not fits:
        return _(
            "{billions:g} billion parameters on {gpus} GPUs ({recipe}), "
            "activations not included. Fits in 80 GB (an H100's stated memory): "
            "none of these."
        ).format(**said)
    return _(
        "{billions:g} billion parameters on {gpus} GPUs ({recipe}), "
        "activations not included. Fits in 80 GB (an H100's stated memory): "
        "{fits}."
    ).format(fits=_(", ").join(map(word, fits)), **said)


def fsdp_finding(gpus: int | None, local: int = 0, params: int = 0) -> str:
    """FSDP's share of the weights per GPU; ``gpus=None`` where no NVIDIA GPU ran it."""
    if gpus is None:
        return _(
            "**Not run here: this cell runs FSDP on NVIDIA GPUs only.** FSDP "
            "shards with all-gather and reduce-scatter; the course runs it on "
            "NCCL, where it is built to run and its memory per GPU is what this "
            "section is about. On a GPU machine it trains the wide network sharded "
            "and shows each GPU's share of the weights."
        )
    return _(
        "FSDP on {gpus} GPU(s): each holds **{local:,}** of the wide network's "
        "{params:,} weights ({share:.0%}); peak memory per rank:"
    ).format(gpus=gpus, local=local, params=params, share=local / params)
