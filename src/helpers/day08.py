"""Day 8 · When one device is not enough

What the measurements of
``notebooks/day08_distributed.ipynb``
mean, in the course's language.

The numbers come from modules that only compute: the plan and the sampler's rows from
:mod:`helpers.distributed`, latency and bandwidth from :mod:`helpers.links`, communication,
scaling and memory from :mod:`helpers.scaling`, and what the workers of :mod:`helpers.ddp_train`
wrote. The rules that turn them into words are here, with their thresholds as the constants
below; a sentence with no decision in it is written in the lesson's cell that prints it.

>>> print(memory_fits({"DDP (nothing sharded)": 1.2e12}, billions=70, gpus=8, recipe="x"))
70 billion parameters on 8 GPUs (x), activations not included. Fits in 80 GB (an H100's \
stated memory): none of these.
"""

from __future__ import annotations

import pandas as pd

from helpers import narration, receipts
from helpers.distributed import Plan
from helpers.i18n import N_, _, word
from helpers.links import LinkFit
from helpers.narration import Beside, gigabytes, heading, receipt_label
from helpers.receipts import Shelf
from helpers.scaling import Contention, Scaling
from helpers.stats import Difference

NAMES = (
    N_("local rank"),
    N_("world size"),
    N_("process id"),
    N_("processes"),
    N_("tensor (bytes)"),
    N_("sent by each rank (counted)"),
    N_("2(N-1)/N × tensor"),
    N_("largest difference from dist.all_reduce"),
    N_("the ring and all_reduce in every group"),
    N_("sums"),
    N_("the ring and all_reduce"),
    N_("latency, fitted (µs)"),
    N_("95% interval (µs)"),
    N_("bandwidth, fitted (GB/s)"),
    N_("typical miss (share of the time)"),
    N_("default buckets"),
    N_("1 MB buckets"),
    N_("a step with .item()"),
    N_("a step without"),
    N_("wide network, ms per step"),
    N_("wide, strong"),
    N_("wide, weak"),
    N_("small, strong"),
    N_("ms per step, 1 process"),
    N_("speed-up"),
    N_("efficiency"),
    N_("the run that lost a worker and the undisturbed one"),
    N_("GB per GPU"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""


# --- Section 1: the processes, and the rows each one sees --------------------------------------


def plan_reason(plan: Plan) -> str:
    """Why the lesson runs its processes on this backend (:func:`helpers.distributed.plan`)."""
    if plan.backend == "nccl":
        return _("{count} NVIDIA GPUs: NCCL, one GPU per process.").format(count=plan.gpus)
    if plan.found == "cuda":
        return _(
            "One NVIDIA GPU: NCCL needs one GPU per process, so the processes run "
            "on the CPU with gloo (the FSDP cell uses the GPU)."
        )
    if plan.found == "mps":
        return _("Apple GPU: MPS has no distributed backend, so gloo on the CPU.")
    return _("No GPU: gloo, PyTorch's CPU backend, over loopback TCP.")


def sampler_finding(
    *, rows: int, ranks: int, per_rank: int, twice: int, distinct: int, changes: bool
) -> str:
    """How ``DistributedSampler`` dealt ``rows`` over ``ranks``, and whether its shuffled order
    changed with the epoch (``set_epoch``)."""
    said = {"rows": rows, "n": ranks, "per_rank": per_rank, "twice": twice, "distinct": distinct}
    return (
        _(
            "{rows} rows over {n} ranks: each rank gets {per_rank}; {twice} row(s) "
            "are dealt twice per epoch (the padding) and {distinct} of the {rows} "
            "rows at least once. The shuffled order changes with the epoch."
        )
        if changes
        else _(
            "{rows} rows over {n} ranks: each rank gets {per_rank}; {twice} row(s) "
            "are dealt twice per epoch (the padding) and {distinct} of the {rows} "
            "rows at least once. The shuffled order does **not** change with the "
            "epoch."
        )
    ).format(**said)


# --- Section 3: latency and bandwidth -----------------------------------------------------------

ROUGH = 0.25
"""A fit whose points typically miss the curve by more than this share of their time describes
the link only roughly (a busy machine, or a link that is not one straight line)."""


def _sig(x: float) -> str:
    """Three significant digits, without exponents between 0.01 and 10**6: 0.0412, 3.21, 2,457.

    >>> _sig(0.041234), _sig(3.2109), _sig(2456.7), _sig(2.8e-5)
    ('0.0412', '3.21', '2,457', '2.8e-05')
    """
    if 100 <= abs(x) < 1e6:
        return f"{x:,.0f}"
    if 0.01 <= abs(x) < 100:
        return f"{x:.3g}"
    return f"{x:.2g}"


def link_fit_text(fit: LinkFit, unit_bytes: str = N_("bytes each rank sends")) -> str:
    """Latency and bandwidth (:func:`helpers.links.fit_alpha_beta`) in words, with their
    intervals, the smallest message's time, and how closely the curve fits (:data:`ROUGH`).

    >>> from helpers.links import fit_alpha_beta
    >>> sizes = [32, 1e3, 1e4, 1e5, 1e6, 1e7]
    >>> text = link_fit_text(fit_alpha_beta(sizes, [50e-6 + s / 1e9 for s in sizes]))
    >>> text[:19], "bandwidth **1.00 GB/s**" in text
    ('latency **50.0 µs**', True)
    """
    lat = fit.latency.scaled(1e6)
    size, took = fit.smallest
    unit_bytes = word(unit_bytes)
    head = _(
        "latency **{value:,.1f} µs** (95% interval {low} to {high} µs; the "
        "smallest message, {size:,.0f} {unit}, took {took_us:,.1f} µs)"
    ).format(
        value=lat.value,
        low=_sig(lat.low),
        high=_sig(lat.high),
        size=size,
        unit=unit_bytes,
        took_us=took * 1e6,
    )
    if fit.relative_error > ROUGH:
        miss = _(
            "but the points lie far from the curve (typically {error:.0%} of their "
            "time): read both as orders of magnitude"
        ).format(error=fit.relative_error)
    else:
        miss = _("the curve passes within {error:.0%} of the points' times, typically").format(
            error=fit.relative_error
        )
    if fit.bandwidth is None:
        return _(
            "{head}; the time does not grow with the size here: no bandwidth can "
            "be read from it; {miss}"
        ).format(head=head, miss=miss)
    bw = fit.bandwidth.scaled(1e-9)
    return _(
        "{head}, bandwidth **{value:.2f} GB/s** (95% interval {low} to {high} "
        "GB/s) of {unit}; {miss}"
    ).format(
        head=head, value=bw.value, low=_sig(bw.low), high=_sig(bw.high), unit=unit_bytes, miss=miss
    )


# --- Section 4: communication against compute, buckets ------------------------------------------

COMMUNICATION_BOUND = 0.5
"""The share of a DDP step spent waiting for communication from which the step is
communication-bound: when the wait is half the step or more, the work split over more
processes saves less than the extra communication costs."""
LARGE_PART = 0.2
"""The share from which communication is a large part of the step (a fifth or more: fewer,
larger all-reduces pay off); below it the step is compute-bound."""


def communication_verdict(name: str, split: dict[str, float]) -> str:
    """Which dominates the step of model ``name`` (:func:`helpers.scaling.communication_split`):
    computing or waiting for communication (:data:`COMMUNICATION_BOUND`, :data:`LARGE_PART`),
    and what overlapping the all-reduce with the backward pass hid.

    >>> from helpers.scaling import communication_split
    >>> communication_verdict("wide", communication_split(0.010, 0.011, 0.004))[:44]
    'The wide model: communication is 9% of each '
    """
    share, exposed, allreduce = split["share"], split["exposed"], split["allreduce"]
    if share >= COMMUNICATION_BOUND:
        kind = _("**communication-bound**: more processes make each step slower, not faster")
    elif share >= LARGE_PART:
        kind = _(
            "communication is a large part: fewer, larger all-reduces (bigger batches) pay off"
        )
    else:
        kind = _("**compute-bound**: the all-reduce costs little next to the arithmetic")
    if exposed > allreduce:
        overlap = _(
            "The step waited longer than one all-reduce of all the gradients takes "
            "alone ({allreduce_ms:.2f} ms): overlapping hid nothing, and the other "
            "{other_ms:.2f} ms are not the all-reduce itself: DDP's own work "
            "around it, or processes slowing each other's compute."
        ).format(allreduce_ms=allreduce * 1e3, other_ms=(exposed - allreduce) * 1e3)
    else:
        hidden = split["hidden"] / allreduce if allreduce > 0 else 0.0
        overlap = _(
            "Overlapping the all-reduce with the backward pass hid {hidden:.0%} of it."
        ).format(hidden=hidden)
    return _(
        "The {name} model: communication is {share:.0%} of each step "
        "({exposed_ms:.2f} of {step_ms:.2f} ms); {kind}. {overlap}"
    ).format(
        name=word(name),
        share=share,
        exposed_ms=exposed * 1e3,
        step_ms=split["ddp"] * 1e3,
        kind=kind,
        overlap=overlap,
    )


def difference_verdict(difference: Difference, a: str, b: str) -> str:
    """A paired difference of seconds per step (:func:`helpers.stats.paired_difference`), in ms:
    which of ``a`` and ``b`` is slower, when the interval excludes zero.

    >>> from helpers.stats import paired_difference
    >>> d = paired_difference([0.012, 0.013, 0.012], [0.010, 0.011, 0.010])
    >>> for part in difference_verdict(d, "x", "y").split(": "):
    ...     print(part)
    x minus y, per step
    +2.00 ms (95% interval +2.00 ms to +2.00 ms)
    the interval excludes zero, so x is slower.
    """
    a, b = word(a), word(b)
    said = _("{a} minus {b}, per step: {value}: {zero}").format(
        a=a,
        b=b,
        value=narration.interval(difference, 1e3, " ms", 2),
        zero=narration.zero(difference),
    )
    if not difference.distinguishable:
        return _("{said}; no difference shows.").format(said=said)
    return _("{said}, so {slower} is slower.").format(
        said=said, slower=a if difference.value > 0 else b
    )


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


# --- Section 3, over a real link: a receipt beside this machine ---------------------------------


def beside_receipt(fitted: dict[str, float | None], found: Shelf | None = None) -> Beside:
    """Day 8: a receipt's all-reduce bandwidth over its GPUs, size by size, beside the bandwidth
    fitted here (``fitted``: bytes/s by name, e.g. ``{"all_reduce (gloo)": 2.1e9}``)."""
    found = receipts.load_all() if found is None else found
    receipt = found.pick(gpus=2)
    if receipt is None or receipt["allreduce"] is None:
        return Beside(
            heading(
                found,
                None,
                _(
                    "No receipt of two or more GPUs here, so no all-reduce over a real "
                    "link to show. On a machine with several GPUs run `python -m helpers "
                    "receipt --out my-gpus.json` and copy the file into `{folder}`."
                ),
            )
        )
    ring = receipt["allreduce"]
    column = _("all-reduce bus bandwidth, {gpus} GPUs: {label}").format(
        label=receipt_label(receipt), gpus=ring["gpus"]
    )
    table = pd.DataFrame(
        {column: [gigabytes(p["bus_bytes_per_s"]) for p in ring["points"]]},
        index=[_("{n:,} bytes").format(n=p["bytes"]) for p in ring["points"]],
    )
    best = max(p["bus_bytes_per_s"] for p in ring["points"])
    notes = [heading(found, receipt)]
    for name, rate in fitted.items():
        if rate:
            notes.append(
                _(
                    "**{method}** here: {here} fitted; the receipt's GPUs reached {there}, "
                    "{ratio:,.0f}× as much."
                ).format(
                    method=name, here=gigabytes(rate), there=gigabytes(best), ratio=best / rate
                )
            )
    return Beside("\n\n".join(notes), table)
