"""Day 8 · When one device is not enough. Sections 1 to 4: processes, DDP, the ring, communication

What the measurements of ``notebooks/day08_distributed.ipynb`` mean, in the course's language,
for the processes and the rows each one sees (sections 1 and 2), latency and bandwidth (section
3, and a receipt's GPUs beside this machine) and communication against compute (section 4);
sections 5 and 8 speak in :mod:`helpers.day08_scaling`.

The numbers come from modules that only compute: the plan and the sampler's rows from
:mod:`helpers.distributed`, latency and bandwidth from :mod:`helpers.links`, communication from
:mod:`helpers.scaling`, and what the workers of :mod:`helpers.ddp_train` wrote. The rules that
turn them into words are here, with their thresholds as the constants below; a sentence with no
decision in it is written in the lesson's cell that prints it.
"""

from __future__ import annotations

import pandas as pd

from helpers import narration, receipts
from helpers.distributed import Plan
from helpers.i18n import N_, _, word
from helpers.links import LinkFit
from helpers.narration import Beside, gigabytes, heading, receipt_label
from helpers.receipts import Shelf
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
