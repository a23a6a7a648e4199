"""Day 5 · The logging-frequency timing experiment: what sections 6 to 9 and 11 found, and the
summary

The floor and one epoch's timeline (sections 6 and 7), the roofline (8), the fixes and the
compile time they cost (9), a live run (11) and the lesson's closing summary, in the course's
language. The numbers come from :mod:`helpers.roofline`, :mod:`helpers.compiled`,
:mod:`helpers.loops` and :mod:`helpers.profiling`, which only compute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from helpers import compiled, narration, roofline
from helpers.day05_evidence import shown_verdict
from helpers.day05_rules import Judgement
from helpers.i18n import _, ngettext, word
from helpers.stats import AffineFit, LineCheck


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
    """Section 7: what the traced timeline shows: its epochs' length, the share operators (and,
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


def roofline_point(
    work: roofline.Workload, roof: roofline.Roof, share: float = roofline.ROOF_SHARE
) -> str:
    """Section 8: one sentence on where ``work`` sits under ``roof`` and what limits it
    (:func:`helpers.roofline.regime`); a point above its roof is said to be so, with the roof that
    was too low (:func:`helpers.roofline.above_roof`), instead of a share above 100 %."""
    found = roofline.regime(work, roof, share)
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
    if found == "compute-bound":
        return _("{head}: **{found}**, the arithmetic takes most of the time.").format(
            head=head, found=word(found)
        )
    return _("{head}: **{found}**, moving the bytes takes most of the time.").format(
        head=head, found=word(found)
    )


def roofline_finding(
    *,
    peak: float,
    threads: int | None,
    roofs: Sequence[roofline.Roof],
    placed: Sequence[tuple[roofline.Workload, roofline.Roof]],
    speedup: float | None,
    fewer: int,
    why: str = "",
) -> str:
    """Section 8: the peak and bandwidths measured, each workload placed under its roof
    (:func:`roofline_point`), and what fusing gained (or, with ``speedup`` None, ``why`` the
    compiled chain was not measured); ``threads``: the CPU threads the peak was measured with
    (``None`` on a GPU)."""
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
            "Fusing the chain made it **{speedup:.1f}×** as fast as eager: the "
            "same arithmetic, {fewer}× fewer bytes moved."
        ).format(speedup=speedup, fewer=fewer)
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


def same_losses_note(notes: Mapping[str, str]) -> str:
    """Section 9: every variant computed the lesson's losses; what compiling each one took or
    why not (``notes``, from :func:`helpers.compiled.compile_all`)."""
    each = _("; ").join(
        _("{label}: {value}").format(label=word(name), value=note) for name, note in notes.items()
    )
    return _("All variants compute the same losses (within 1e-4 relative). {notes}.").format(
        notes=each
    )


def fastest_finding(
    *,
    best: str,
    speedup: float,
    repeats: int,
    epochs: int,
    best_epoch: float,
    arithmetic: float,
) -> str:
    """Section 9: the fastest variant against the lesson loop, and how far it still is from the
    arithmetic (seconds per epoch)."""
    return _(
        "\n\n- The fastest variant per epoch is **{best}**, **{speedup:.1f}×** "
        "as fast as the lesson loop recording every 100 epochs (median over "
        "{repeats} rounds of {epochs} epochs).\n- It still takes "
        "**{best_us:.1f} µs** per epoch, **{ratio:,.0f}×** the arithmetic time "
        "({arithmetic_us:.2f} µs): what is left is the generated code's own "
        "work on tiny tensors, and what remains of the overhead."
    ).format(
        best=word(best),
        speedup=speedup,
        repeats=repeats,
        epochs=epochs,
        best_us=best_epoch * 1e6,
        ratio=best_epoch / arithmetic,
        arithmetic_us=arithmetic * 1e6,
    )


def compile_advice(table: pd.DataFrame, epochs: int, long_epochs: int) -> str:
    """Section 9: which variant to use for a training of ``epochs`` epochs (with a cold and a warm
    cache) and for one of ``long_epochs``, from :func:`helpers.compiled.end_to_end`'s table: the
    fastest end to end (:func:`helpers.compiled.fastest_end_to_end`)."""
    missing = {
        "cold": _("with a cold cache: not measured in this run"),
        "warm": _("with a warm cache: not measured in this run"),
    }
    advice = {
        "cold": _(
            "with a cold cache, **{short}** for {epochs:,} epochs ({short_s:.1f} s "
            "in all) and **{long}** for {long_epochs:,} ({long_s:,.0f} s)"
        ),
        "warm": _(
            "with a warm cache, **{short}** for {epochs:,} epochs ({short_s:.1f} s "
            "in all) and **{long}** for {long_epochs:,} ({long_s:,.0f} s)"
        ),
    }
    lines = []
    for cache in ("cold", "warm"):
        short = compiled.fastest_end_to_end(table, epochs, cache)
        long = compiled.fastest_end_to_end(table, long_epochs, cache)
        if short is None or long is None:
            lines.append(missing[cache])
            continue
        said = {"short": word(short[0]), "epochs": epochs, "short_s": short[1],
                "long": word(long[0]), "long_epochs": long_epochs, "long_s": long[1]}  # fmt: skip
        lines.append(advice[cache].format(**said))
    return _("Fastest end to end, compile included: {lines}.").format(lines=_("; ").join(lines))


def compile_note(advice: str, cold_measured: bool) -> str:
    """Section 9: the end-to-end advice, with a word on fast mode when no cold compile was
    measured."""
    if cold_measured:
        return advice
    return _(
        "{advice} (Fast mode measures no cold compile, and takes the warm one "
        "from this process's first calls: fresh processes take tens of "
        "seconds.)"
    ).format(advice=advice)


def live_run(label: str, epochs: int, on: str, seconds: float) -> str:
    """Section 11: one live run of the knob panel."""
    return _("{label}, {epochs} epochs on {on}: {seconds:.3f} s ({epoch_us:.0f} µs/epoch)").format(
        label=word(label), epochs=epochs, on=on, seconds=seconds, epoch_us=seconds / epochs * 1e6
    )


def summary(
    *,
    device: str,
    student_fit: AffineFit,
    line: LineCheck,
    regime: str,
    arithmetic: float,
    inside: float,
    loop: float,
    best: str,
    speedup: float,
    judgements: Sequence[Judgement],
    advice: str,
) -> str:
    """The lesson's closing summary: whether the student's table and the learner's sweep
    (``line``, :func:`helpers.stats.check_line`) price a recording, whether the line stands, the
    lesson epoch's ``regime`` with the shares of it that are ``arithmetic``, ``inside``
    operators and the bare ``loop`` (percent of the floor), the ``best`` fix and its
    ``speedup``, the compile ``advice`` and every verdict."""
    can, cannot = _("can"), _("cannot")
    verdicts = _("; ").join(
        _("{part} *{verdict}*").format(part=j.part, verdict=shown_verdict(j)) for j in judgements
    )
    return _(
        "**What this run found on {device}.** The student's table {student} "
        "price a recording; your sweep {yours} ({price}), and the straight "
        "line {line}. The lesson's epoch is **{regime}**: arithmetic "
        "{arithmetic:.2%} of it, time inside operators {inside:.0%}, the bare "
        "`for` loop {loop:.2g}% of the floor. The fastest fix per epoch, "
        "{best}, ran **{speedup:.1f}×** as fast as the lesson loop recording "
        "every 100 epochs. {advice} Verdicts, part by part: {verdicts}."
    ).format(
        device=device,
        student=can if student_fit.b.distinguishable else cannot,
        yours=can if line.fit.b.distinguishable else cannot,
        price=narration.interval(line.fit.b, 1e6, " µs", 1),
        line=(_("stands") if line.straight else _("bends")),
        regime=word(regime),
        arithmetic=arithmetic,
        inside=inside,
        loop=loop,
        best=word(best),
        speedup=speedup,
        advice=advice,
        verdicts=verdicts,
    )
