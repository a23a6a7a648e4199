"""What day 5's runs found, in the course's language: one function per finding of the lesson.

Each function takes the numbers a cell of ``day05_logging_frequency.ipynb`` measured and returns
the sentence the lesson shows (:func:`helpers.show.say`), worded in the message catalog
(:mod:`helpers.messages`, keys ``recording.*``). Where a sentence depends on the numbers (a
device or a language that differs, a measurement above or below another), the function decides,
so the notebook holds no conclusion written in advance. The names the lesson's code keys its
results by (conditions such as ``"every 100"``, variants such as ``"hand-written step"``) stay
English in the code and are shown through :func:`helpers.messages.word`.

>>> print(runs_note(2000, 20000))
2000 epochs per run (not the student's 20000).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from helpers import narration
from helpers.i18n import N_, _, word


def measured_on(card: str) -> str:
    """The machine the lesson measured on, and its one thread."""
    return _("Measured on: **{card}**. PyTorch uses 1 thread here, on purpose.").format(card=card)


def arithmetic_finding(
    flops: float, peak: float, device_type: str, arithmetic: float, epoch: float, inside: float
) -> str:
    """An epoch's arithmetic against its time and its time inside operators (seconds)."""
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


def runs_note(epochs: int, student_epochs: int) -> str:
    """How many epochs each run of section 2 trained, against the student's."""
    if epochs == student_epochs:
        return _("{epochs} epochs per run (the student's).").format(epochs=epochs)
    return _("{epochs} epochs per run (not the student's {student}).").format(
        epochs=epochs, student=student_epochs
    )


def fits_finding(student, yours, single_runs_say) -> str:
    """The student's four runs and the learner's, each fitted (:class:`helpers.stats.AffineFit`),
    with what single runs can say (``single_runs_say``, from :mod:`helpers.claims`)."""
    return _(
        "- **The student's four runs:** {student} Their run-to-run scatter is "
        "{student_sd:.2f} s: {student_says}\n- **Your four runs:** {yours} "
        "Your scatter is {your_sd:.2f} s: {your_says}"
    ).format(
        student=narration.price(student, N_("one recording")),
        student_sd=student.residual_sd,
        student_says=single_runs_say(student),
        yours=narration.price(yours, "one recording"),
        your_sd=yours.residual_sd,
        your_says=single_runs_say(yours),
    )


def rounds_note(epochs: int, order: Sequence[Sequence[str]]) -> str:
    """The first two rounds' shuffled order of a comparison."""
    joint = _(", ")
    rounds = _("; ").join(
        _("round {i}: {names}").format(i=i, names=joint.join(map(word, names)))
        for i, names in enumerate(order[:2], 1)
    )
    return _("{epochs} epochs per run, each round in its own shuffled order ({rounds}).").format(
        epochs=epochs, rounds=rounds
    )


def noise_finding(extremes, lesson, noise: float) -> str:
    """Every epoch against never, every 100 against every 2000 (paired differences), and the
    typical spread of a run."""
    return _(
        "- Recording every epoch against never (seconds per run): {extremes}\n"
        "- The lesson's comparison, every 100 against every 2000: {lesson}\n- "
        "Run-to-run noise: the interquartile range is typically "
        "**{noise:.1%}** of a run's time."
    ).format(
        extremes=narration.difference(extremes, N_("every 1"), N_("never")),
        lesson=narration.difference(lesson, N_("every 100"), N_("every 2000")),
        noise=noise,
    )


def price_finding(fit, line, item, a_run: float, epochs: int, measure_epochs: int, totals) -> str:
    """The price of a recording, the line's shape, one ``.item()`` alone, and the intercept ``a``
    extrapolated to section 2's runs against what those runs measured (``totals``, seconds)."""
    off = a_run / totals.median() - 1
    said = {
        "price": narration.price(fit, "one recording"),
        "shape": narration.line(line, "one recording"),
        "item_us": item.median * 1e6,
        "low_us": item.quartiles[0] * 1e6,
        "high_us": item.quartiles[1] * 1e6,
        "epochs": epochs,
        "a_run": a_run,
        "a_us": fit.a.value / measure_epochs * 1e6,
        "fastest": totals.min(),
        "slowest": totals.max(),
        "fastest_us": totals.min() / epochs * 1e6,
        "slowest_us": totals.max() / epochs * 1e6,
        "off": abs(off),
    }
    return (
        _(
            "**The price:** {price}\n\n**The shape:** {shape}\n\nOne `.item()` "
            "alone, timed by `torch.utils.benchmark`, takes {item_us:.2f} µs "
            "(middle half of the blocks {low_us:.2f} to {high_us:.2f} µs).\n\nAt "
            "{epochs} epochs, `a` would be about **{a_run:.1f} s**, {a_us:.0f} µs "
            "per epoch that no logging frequency can remove. Section 2 timed such "
            "runs at **{fastest:.2f} to {slowest:.2f} s** ({fastest_us:.0f} to "
            "{slowest_us:.0f} µs per epoch), so `a` is {off:.0%} below their "
            "median: a machine's speed drifts between measurements minutes apart, "
            "so compare only what one interleaved run measured (section 9 lists "
            "every epoch time this lesson measured)."
        )
        if off < 0
        else _(
            "**The price:** {price}\n\n**The shape:** {shape}\n\nOne `.item()` "
            "alone, timed by `torch.utils.benchmark`, takes {item_us:.2f} µs "
            "(middle half of the blocks {low_us:.2f} to {high_us:.2f} µs).\n\nAt "
            "{epochs} epochs, `a` would be about **{a_run:.1f} s**, {a_us:.0f} µs "
            "per epoch that no logging frequency can remove. Section 2 timed such "
            "runs at **{fastest:.2f} to {slowest:.2f} s** ({fastest_us:.0f} to "
            "{slowest_us:.0f} µs per epoch), so `a` is {off:.0%} above their "
            "median: a machine's speed drifts between measurements minutes apart, "
            "so compare only what one interleaved run measured (section 9 lists "
            "every epoch time this lesson measured)."
        )
    ).format(**said)


def floor_finding(bare: float, floor: float, operators: float, computing: float) -> str:
    """The bare loop's time per epoch against the floor (seconds), and the operators an epoch
    dispatches."""
    return _(
        "The bare loop takes **{bare_ns:.0f} ns** per epoch; the floor, `a` "
        "per epoch, is **{floor_us:.0f} µs**. Each epoch dispatches "
        "**{operators:.0f} operators** ({computing:.0f} of them do arithmetic; "
        "on a GPU each of these is a kernel launch)."
    ).format(bare_ns=bare * 1e9, floor_us=floor * 1e6, operators=operators, computing=computing)


def profiler_note(phases_us: float, slowdown: float, epoch_us: float) -> str:
    """The phases' own time under the profiler, against an epoch without it."""
    return _(
        "Under the profiler these phases take **{phases_us:,.0f} µs** per "
        "epoch (their own time, not the gaps between them), {slowdown:.1f}× "
        "the {epoch_us:,.0f} µs a whole epoch takes without it: the shares are "
        "the guide here, not the absolute times."
    ).format(phases_us=phases_us, slowdown=slowdown, epoch_us=epoch_us)


def timeline_finding(
    shown: int,
    traced_us: float,
    epoch_us: float,
    slowdown: float,
    operators: float,
    kernels: float | None,
    trace: str,
) -> str:
    """What the traced timeline shows: its epochs' length, the share operators (and, on a GPU,
    kernels: ``None`` elsewhere) fill, and where the trace file is."""
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


def roofline_finding(
    peak: float,
    threads: str,
    roofs: Sequence,
    explained: Sequence[str],
    speedup: float | None,
    fewer: int,
    why: str = "",
) -> str:
    """The peak and bandwidths measured, each workload explained, and what fusing gained (or,
    with ``speedup`` None, ``why`` the compiled chain was not measured)."""
    bandwidths = _("; ").join(
        _("**{gbs:,.1f} GB/s** ({label})").format(gbs=r.bandwidth / 1e9, label=r.label)
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
        workloads="\n".join(f"- {line}" for line in explained),
        fused=fused,
    )


def same_losses_note(notes: Mapping[str, str]) -> str:
    """Every variant computed the lesson's losses; what compiling each one took or why not."""
    each = _("; ").join(
        _("{label}: {value}").format(label=word(name), value=note) for name, note in notes.items()
    )
    return _("All variants compute the same losses (within 1e-4 relative). {notes}.").format(
        notes=each
    )


def fastest_finding(
    best: str, speedup: float, repeats: int, epochs: int, best_epoch: float, arithmetic: float
) -> str:
    """The fastest variant against the lesson loop, and how far it still is from arithmetic."""
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


def compile_note(advice: str, cold_measured: bool) -> str:
    """The end-to-end advice, with a word on fast mode when no cold compile was measured."""
    if cold_measured:
        return advice
    return _(
        "{advice} (Fast mode measures no cold compile, and takes the warm one "
        "from this process's first calls: fresh processes take tens of "
        "seconds.)"
    ).format(advice=advice)


def epoch_times_finding(low_us: float, high_us: float) -> str:
    """How far apart the sections' measurements of one epoch lie."""
    return _(
        "One epoch of the lesson's loop, as each section measured it: from "
        "{low:,.0f} to {high:,.0f} µs, {ratio:.2f}× apart. The sections ran "
        "minutes apart, with other run lengths and recordings: compare numbers "
        "within one interleaved comparison, never across sections."
    ).format(low=low_us, high=high_us, ratio=high_us / low_us)


def live_run(label: str, epochs: int, on: str, seconds: float) -> str:
    """One live run of the knob panel."""
    return _("{label}, {epochs} epochs on {on}: {seconds:.3f} s ({epoch_us:.0f} µs/epoch)").format(
        label=word(label), epochs=epochs, on=on, seconds=seconds, epoch_us=seconds / epochs * 1e6
    )


def summary(found: Mapping, judgements: Sequence, advice: str) -> str:
    """The lesson's closing summary. ``found``: ``device``, ``student_priced`` and ``priced``
    (bools), ``price`` (the slope's text), ``straight`` (bool), ``regime``, ``arithmetic``,
    ``inside`` and ``loop`` (shares), ``best`` and ``speedup``."""
    can, cannot = _("can"), _("cannot")
    verdicts = _("; ").join(
        _("{part} *{verdict}*").format(part=j.part, verdict=j.shown_verdict()) for j in judgements
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
        device=found["device"],
        student=can if found["student_priced"] else cannot,
        yours=can if found["priced"] else cannot,
        price=found["price"],
        line=(_("stands") if found["straight"] else _("bends")),
        regime=word(found["regime"]),
        arithmetic=found["arithmetic"],
        inside=found["inside"],
        loop=found["loop"],
        best=word(found["best"]),
        speedup=found["speedup"],
        advice=advice,
        verdicts=verdicts,
    )
