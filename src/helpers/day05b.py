"""Day 5b · Why, and how to make it fast: what sections 1 to 3 found

The three quantities of an epoch (section 1), one epoch's timeline (2) and the roofline (3), in
the course's language; the fixes (4) and the compile time they cost (5) speak in
:mod:`helpers.day05b_fixes`. The numbers come from :mod:`helpers.roofline` and
:mod:`helpers.profiling`, which only compute. The "3 s of necessary compute" is judged by
:func:`helpers.day05a_rules.judge_compute_claim`, with day 5a's other rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from helpers import roofline
from helpers.i18n import N_, _, ngettext, word

REGIMES = (N_("compute-bound"), N_("bandwidth-bound"), N_("overhead-bound"))
"""The limits a workload can meet, as :func:`regime` names them."""
ROOF_SHARE = 0.25
"""The share of a workload's time the roofs must account for (arithmetic at the peak, or memory
traffic at full bandwidth) for it to count as compute- or bandwidth-bound: the roofs are best
cases (a large matrix product, a plain copy) that real operators reach a fraction of, so below a
quarter the time is mostly neither, and the workload is overhead-bound."""


def regime(work: roofline.Workload, roof: roofline.Roof, share: float = ROOF_SHARE) -> str:
    """Which limit ``work`` meets on ``roof``: ``'compute-bound'``, ``'bandwidth-bound'`` or
    ``'overhead-bound'``.

    The roofs allow the work to take ``max(arithmetic time, memory time)``. When that is less than
    ``share`` of the measured time, most of the time is neither arithmetic nor memory traffic: the
    work is overhead-bound. Otherwise the larger of the two times names the limit.
    """
    if not 0 < share <= 1:
        raise ValueError(f"share must be in (0, 1], got {share}")
    if work.seconds <= 0 or work.bytes <= 0 or work.flops < 0:
        raise ValueError(f"{work.name}: needs positive seconds and bytes, got {work}")
    arithmetic, memory = roof.arithmetic_seconds(work), roof.memory_seconds(work)
    if max(arithmetic, memory) < share * work.seconds:
        return "overhead-bound"
    return "compute-bound" if arithmetic >= memory else "bandwidth-bound"


def peak_note(*, flops: float, peak: float, device_type: str) -> str:
    """Section 1: an epoch's FLOPs and this device's peak, the figures a guess needs."""
    where = _("one thread") if device_type == "cpu" else device_type
    return _(
        "One epoch of the lesson's loop is **{flops:,} FLOPs**. This device's peak, measured "
        "on a large matrix product, is **{peak:,.1f} GFLOP/s** ({where})."
    ).format(flops=flops, peak=peak / 1e9, where=where)


def arithmetic_finding(
    *, flops: float, peak: float, device_type: str, arithmetic: float, epoch: float, inside: float
) -> str:
    """Section 1: an epoch's arithmetic (``flops`` at the ``peak`` FLOP/s) against its time and
    its time inside operators (seconds)."""
    where = _("one thread") if device_type == "cpu" else device_type
    return _(
        "One epoch is **{flops:,} FLOPs**; this device's peak is **{peak:,.1f} "
        "GFLOP/s** ({where}), so the arithmetic needs **{arithmetic_us:.2f} "
        "µs** of an epoch that takes **{epoch_us:,.0f} µs**. Time inside "
        "operators is **{inside_us:,.0f} µs** ({inside_share:.0%} of the "
        "epoch), {ratio:,.0f}× the arithmetic: an operator on tiny tensors "
        "costs far more than the sums it does."
    ).format(
        flops=flops,
        peak=peak / 1e9,
        where=where,
        arithmetic_us=arithmetic * 1e6,
        epoch_us=epoch * 1e6,
        inside_us=inside * 1e6,
        inside_share=inside / epoch,
        ratio=inside / arithmetic,
    )


def timeline_finding(
    *,
    shown: int,
    traced_us: float,
    epoch_us: float,
    slowdown: float,
    operators: float,
    kernels: float | None,
    trace: str,
) -> str:
    """Section 2: what the traced timeline shows: its epochs' length, the share operators (and,
    on a GPU, kernels: ``None`` elsewhere) fill, and where the trace file is."""
    said = {
        "shown": shown,
        "traced_us": traced_us,
        "ratio": traced_us / epoch_us,
        "slowdown": slowdown,
        "operators": operators,
        "trace": trace,
    }
    if kernels is None:
        return _(
            "These {shown} traced epochs took **{traced_us:,.0f} µs** each from "
            "first event to last, {ratio:.1f}× an epoch without the profiler (the "
            "phase table above: {slowdown:.1f}×, counting only the phases' own "
            "time). Operators that compute fill **{operators:.0%}** of this "
            "timeline; the white between them is overhead. The whole trace is in "
            "`{trace}`: open it in [Perfetto](https://ui.perfetto.dev) (*Open "
            "trace file*) to zoom into every operator, with its call stack and its "
            "thread."
        ).format(**said)
    return _(
        "These {shown} traced epochs took **{traced_us:,.0f} µs** each from "
        "first event to last, {ratio:.1f}× an epoch without the profiler (the "
        "phase table above: {slowdown:.1f}×, counting only the phases' own "
        "time). Operators that compute fill **{operators:.0%}** of this "
        "timeline; the white between them is overhead. The GPU's kernels fill "
        "**{kernels:.0%}** of it. The whole trace is in `{trace}`: open it in "
        "[Perfetto](https://ui.perfetto.dev) (*Open trace file*) to zoom into "
        "every operator, with its call stack and its thread."
    ).format(kernels=kernels, **said)


def _time(seconds: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def roofline_point(work: roofline.Workload, roof: roofline.Roof, share: float = ROOF_SHARE) -> str:
    """Section 3: one sentence on where ``work`` sits under ``roof`` and what limits it
    (:func:`regime`); a point above its roof is said to be so, with the roof that
    was too low (:func:`helpers.roofline.above_roof`), instead of a share above 100 %."""
    found = regime(work, roof, share)
    above = roofline.above_roof(work, roof)
    if above == "bandwidth":
        where = _(
            "above the bandwidth roof ({roof}), so that roof was too low for it: "
            "this workload moved its bytes faster than the copy that measured the "
            "roof (data reused from a cache nearer the core, or a "
            "better-vectorised loop than the copy's). Read the point as at the "
            "roof, not beyond it"
        ).format(roof=roofline.roof_label(roof))
    elif above == "flat":
        where = _(
            "above the flat roof ({roof}), so the measured peak was too low for "
            "it: its arithmetic ran faster than the matrix product that measured "
            "the peak (another shape, or more threads). Read the point as at the "
            "roof, not beyond it"
        ).format(roof=roofline.roof_label(roof))
    else:
        where = _("{reach:.1%} of what the roof ({roof}) allows at that intensity").format(
            reach=roofline.reach(work, roof), roof=roofline.roof_label(roof)
        )
    head = _(
        "**{name}**: {intensity:.3g} FLOPs per byte, {gflops:.3g} GFLOP/s, "
        "{where}. Of its {seconds}, arithmetic at the peak would take "
        "{arithmetic} and the memory traffic {memory}"
    ).format(
        name=word(work.name),
        intensity=work.intensity,
        gflops=work.achieved / 1e9,
        where=where,
        seconds=_time(work.seconds),
        arithmetic=_time(roof.arithmetic_seconds(work)),
        memory=_time(roof.memory_seconds(work)),
    )
    if found == "overhead-bound":
        return _(
            "{head}: **{found}**, {rest:.1%} of the time is neither: overhead "
            "(Python, dispatch, launches, allocation, waits)."
        ).format(head=head, found=word(found), rest=roofline.overhead_share(work, roof))
    explained = max(roof.arithmetic_seconds(work), roof.memory_seconds(work)) / work.seconds
    said = {"head": head, "found": word(found), "share": min(explained, 1.0)}
    if found == "compute-bound":
        return _(
            "{head}: **{found}**: the arithmetic at the peak would fill {share:.0%} of its time, "
            "more than the memory traffic would, and at least {least:.0%} (the rule)."
        ).format(least=share, **said)
    return _(
        "{head}: **{found}**: moving its bytes at full bandwidth would fill {share:.0%} of its "
        "time, more than the arithmetic would, and at least {least:.0%} (the rule); the rest is "
        "overhead."
    ).format(least=share, **said)


def roofline_finding(
    *,
    peak: float,
    threads: int | None,
    roofs: Sequence[roofline.Roof],
    placed: Sequence[tuple[roofline.Workload, roofline.Roof]],
    speedup: float | None,
    reused: float,
    fewer: int,
    why: str = "",
) -> str:
    """Section 3: the peak and bandwidths measured, each workload placed under its roof
    (:func:`roofline_point`), and what fusing gained (``speedup``), split into what reusing one
    buffer gained with the same bytes (``reused``) and the rest (or, with ``speedup`` None,
    ``why`` the compiled chain was not measured); ``threads``: the CPU threads the peak was
    measured with (``None`` on a GPU)."""
    if threads is None:
        threads = _("the whole device")
    else:
        threads = ngettext("{n} thread", "{n} threads", threads).format(n=threads)
    bandwidths = _("; ").join(
        _("**{gbs:,.1f} GB/s** ({label})").format(
            gbs=r.bandwidth / 1e9, label=roofline.roof_label(r)
        )
        for r in roofs
    )
    if speedup is None:
        fused = _("The compiled chain is not measured here: {why}.").format(why=why)
    else:
        fused = _(
            "Fusing the chain made it **{speedup:.1f}×** as fast as eager. Part of that is not "
            "the bytes: eager, every operator allocates a fresh result, and the same eight "
            "operators writing into one reused buffer (the same bytes moved) ran "
            "**{reused:.1f}×** as fast as eager. The rest, **{rest:.1f}×**, is fusion's own: "
            "{fewer}× fewer bytes moved, one loop instead of eight."
        ).format(speedup=speedup, reused=reused, rest=speedup / reused, fewer=fewer)
    return _(
        "Peak **{peak:,.1f} GFLOP/s** (a large matrix product, {threads}); "
        "bandwidth {bandwidths}.\n\n{workloads}\n\n{fused}"
    ).format(
        peak=peak / 1e9,
        threads=threads,
        bandwidths=bandwidths,
        workloads="\n".join(f"- {roofline_point(w, r)}" for w, r in placed),
        fused=fused,
    )
