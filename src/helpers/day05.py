"""Day 5 · The logging-frequency timing experiment: what sections 1 to 5 found

The three quantities of an epoch (section 1), the student's table beside yours (2), the runs
measured properly (3), effect or noise (4) and the straight line (5), in the course's language.
Sections 6 to 9 and 11 speak in :mod:`helpers.day05_fixes`; section 10, the lesson's explanation
judged, in :mod:`helpers.day05_rules` (the rules and their thresholds) and
:mod:`helpers.day05_evidence` (the verdicts in words). The numbers come from modules that only
compute (:mod:`helpers.stats`, :mod:`helpers.timing`, :mod:`helpers.profiling`); the names the
lesson's code keys its results by (``"every 100"``, ``"hand-written step"``) stay English there
and are shown through :func:`helpers.i18n.word`.

>>> from helpers.observation import student_fit
>>> single_runs_say(student_fit())
'4 single runs cannot price a recording: no line, straight or not, can be seen in them.'
"""

from __future__ import annotations

from collections.abc import Sequence

from helpers import narration
from helpers.i18n import N_, _, word
from helpers.stats import AffineFit, LineCheck

NAMES = (
    N_("record every N"),
    N_("remaining (s)"),
    N_("arithmetic time"),
    N_("time inside operators"),
    N_("overhead (remaining)"),
    N_("wall time"),
    N_("share of the epoch"),
    N_("one run per interval"),
    N_("you: total (s)"),
    N_("you: remaining (s)"),
    N_("student: recordings"),
    N_("student: remaining (s)"),
    N_("you: recordings"),
    N_("shuffled rounds"),
    N_("a: everything else (s per run)"),
    N_("b: one recording inside the loop (µs)"),
    N_("bend across the measured range (ms)"),
    N_("estimate"),
    N_("95% interval: low"),
    N_("95% interval: high"),
    N_("lesson epoch"),
    N_("chain, eager"),
    N_("chain, compiled"),
    N_("fixes"),
    N_("median (s)"),
    N_("epochs per second"),
    N_("speed-up over the lesson loop (median of the rounds)"),
    N_("middle half of the rounds"),
    N_("1. without the profiler, no recordings (3 runs)"),
    N_("5. `a` per epoch, from the straight line"),
    N_("8. 'never', median of section 3's rounds"),
    N_("9. the lesson loop, every 100 epochs, median"),
    N_("every 2"),
    N_("every 5"),
    N_("every 20"),
    N_("every 200"),
    N_("every 500"),
    N_("every 1000"),
    N_("lesson loop, .item() every epoch"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""


def single_runs_say(fit: AffineFit) -> str:
    """What a handful of single runs, one per condition, can say about the price of a recording
    (the student's table and the learner's first one)."""
    if not fit.b.distinguishable:
        return _(
            "{n} single runs cannot price a recording: no line, straight or not, "
            "can be seen in them."
        ).format(n=fit.b.n)
    if fit.b.value < 0:
        return _(
            "these {n} runs drifted: a slope that more recordings cannot cause, so no price either."
        ).format(n=fit.b.n)
    return _("these {n} runs do price a recording, though one run each is a thin basis.").format(
        n=fit.b.n
    )


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


def runs_note(epochs: int, student_epochs: int) -> str:
    """Section 2: how many epochs each run trained, against the student's."""
    if epochs == student_epochs:
        return _("{epochs} epochs per run (the student's).").format(epochs=epochs)
    return _("{epochs} epochs per run (not the student's {student}).").format(
        epochs=epochs, student=student_epochs
    )


def fits_finding(student: AffineFit, yours: AffineFit) -> str:
    """Section 2: the student's four runs and the learner's, each fitted, with what single runs
    can say (:func:`single_runs_say`)."""
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
    """Section 3: the first two rounds' shuffled order of a comparison."""
    joint = _(", ")
    rounds = _("; ").join(
        _("round {i}: {names}").format(i=i, names=joint.join(map(word, names)))
        for i, names in enumerate(order[:2], 1)
    )
    return _("{epochs} epochs per run, each round in its own shuffled order ({rounds}).").format(
        epochs=epochs, rounds=rounds
    )


def noise_finding(extremes, lesson, noise: float) -> str:
    """Section 4: every epoch against never, every 100 against every 2000 (paired differences,
    :func:`helpers.stats.paired_difference`), and the typical spread of a run."""
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


def price_finding(
    *,
    fit: AffineFit,
    line: LineCheck,
    item,
    a_run: float,
    epochs: int,
    measure_epochs: int,
    totals,
) -> str:
    """Section 5: the price of a recording, the line's shape, one ``.item()`` alone (``item``, a
    :class:`helpers.timing.Measurement`), and the intercept ``a`` extrapolated to section 2's runs
    (``a_run``) against what those runs measured (``totals``, seconds)."""
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
