"""Day 5a · The logging-frequency experiment: what sections 1 to 6 and 8 found

The student's table beside yours (section 1), the runs measured properly (2), what an interval
is, by simulation (3), effect or noise (4), the straight line or a threshold (5), the floor (6) and
a live run (8), in the course's language. Section 7, the lesson's explanation judged, speaks in
:mod:`helpers.day05a_rules` (the rules and their thresholds) and :mod:`helpers.day05a_evidence`
(the verdicts in words). The numbers come from modules that only compute (:mod:`helpers.stats`,
:mod:`helpers.timing`, :mod:`helpers.profiling`); the names the lesson's code keys its results by
(``"every 100"``, ``"hand-written step"``) stay English there and are shown through
:func:`helpers.i18n.word`.

>>> from helpers.observation import student_fit
>>> single_runs_say(student_fit()).split(": ")[0]
'4 single runs cannot price a recording'
"""

from __future__ import annotations

from collections.abc import Sequence

from helpers import narration
from helpers.day05a_evidence import shown_verdict
from helpers.day05a_rules import MATTERS_SHARE, Judgement, shape
from helpers.i18n import N_, _, word
from helpers.narration import capital
from helpers.stats import AffineFit, LineCheck, Simulated

NAMES = (
    N_("record every N"),
    N_("remaining (s)"),
    N_("one run per interval"),
    N_("you: total (s)"),
    N_("student: recordings"),
    N_("student: remaining (s)"),
    N_("you: recordings"),
    N_("shuffled rounds"),
    N_("a: everything else (s per run)"),
    N_("b: one recording inside the loop (µs)"),
    N_("one recording"),
    N_("slope before the knee (µs per recording)"),
    N_("slope after the knee (µs per recording)"),
    N_("bend: the largest gap to the straight line (ms)"),
    N_("lesson loop"),
    N_("estimate"),
    N_("95% interval: low"),
    N_("95% interval: high"),
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
            "{n} single runs cannot price a recording: a line can be drawn through them, but "
            "its slope cannot be told from noise."
        ).format(n=fit.b.n)
    if fit.b.value < 0:
        return _(
            "these {n} runs drifted: a slope that more recordings cannot cause, so no price either."
        ).format(n=fit.b.n)
    return _("these {n} runs do price a recording, though one run each is a thin basis.").format(
        n=fit.b.n
    )


def runs_note(epochs: int, student_epochs: int) -> str:
    """Section 2: how many epochs each run trained, against the student's."""
    if epochs == student_epochs:
        return _("{epochs} epochs per run (the student's).").format(epochs=epochs)
    return _("{epochs} epochs per run (not the student's {student}).").format(
        epochs=epochs, student=student_epochs
    )


def fits_finding(student: AffineFit, yours: AffineFit) -> str:
    """Section 1: the slope of the student's four runs and of the learner's (seconds per
    recording), with what single runs can say (:func:`single_runs_say`); intervals come after
    section 3 has shown what they are."""
    return _(
        "- **The student's four runs:** a line through them rises {student_ms:+.2f} ms per "
        "recording. {student_says}\n- **Your four runs:** {your_ms:+.2f} ms per recording. "
        "{your_says}\n\nSections 2 to 5 measure it properly, and say how far to trust it."
    ).format(
        student_ms=student.b.value * 1e3,
        student_says=capital(single_runs_say(student)),
        your_ms=yours.b.value * 1e3,
        your_says=capital(single_runs_say(yours)),
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


def price_finding(*, fit: AffineFit, line: LineCheck, item, never: float | None = None) -> str:
    """Section 5: the price of a recording, the knee test's numbers, one ``.item()`` alone
    (``item``, a :class:`helpers.timing.Measurement`) and, when the fitted ``a`` lies above the
    median run that never records (``never``, seconds), a word on why."""
    above = ""
    if never is not None and fit.a.value > never:
        above = _(
            "\n\n`a` is {share:.1%} above the median run that never records: a few slow rounds "
            "lift the straight line. Read `a` as the floor within its interval, not to the "
            "microsecond."
        ).format(share=fit.a.value / never - 1)
    return (
        _(
            "**The price:** {price}\n\n**The shape:** {shape}\n\nOne `.item()` alone, timed "
            "by `torch.utils.benchmark`, takes {item_us:.2f} µs (middle half of the blocks "
            "{low_us:.2f} to {high_us:.2f} µs)."
        ).format(
            price=narration.price(fit, "one recording"),
            shape=narration.line(line, "one recording"),
            item_us=item.median * 1e6,
            low_us=item.quartiles[0] * 1e6,
            high_us=item.quartiles[1] * 1e6,
        )
        + above
    )


def simulation_finding(none: Simulated, real: Simulated) -> str:
    """Section 3: what the intervals of made-up experiments did, with no true difference
    (``none``) and with one (``real``, :func:`helpers.stats.simulate`)."""
    return _(
        "- **No true difference:** {none_cover:.1%} of the intervals hold it, and "
        "{none_tell:.1%} exclude zero anyway: false alarms.\n- **A true difference of "
        "{truth_ms:.2f} ms:** {real_cover:.1%} of the intervals hold it, and {real_tell:.1%} "
        "exclude zero: the chance that {rounds} rounds see a difference that large."
    ).format(
        none_cover=none.covering,
        none_tell=none.telling,
        truth_ms=real.truth * 1e3,
        real_cover=real.covering,
        real_tell=real.telling,
        rounds=real.rounds,
    )


def shape_finding(line: LineCheck) -> str:
    """Section 5: the shape :func:`helpers.day05a_rules.shape` gives, with its rule."""
    found = shape(line)
    return _(
        "**Verdict on the shape: {shape}.** The rule: a *threshold* when the bend is told from "
        "zero, the slope rises at the knee and before the knee it cannot be told from zero; "
        "*straight* when no bend is told from zero and none larger than {matters:.0%} of a run "
        "({matters_ms:.1f} ms here) could have hidden; otherwise *curved* or *cannot tell*."
    ).format(
        shape=word(found),
        matters=MATTERS_SHARE,
        matters_ms=MATTERS_SHARE * abs(line.fit.a.value) * 1e3,
    )


def regimes_note(device_type: str) -> str:
    """Section 5: why a device that queues nothing shows one regime only."""
    return _(
        "On a {device} nothing is queued: the processor runs each operator itself, so a "
        "recording never waits for a queue to drain, in a small loop or a large one. The second "
        "regime needs a GPU; the receipts in section 7 show it when one measured it."
    ).format(device=device_type.upper())


def device_bound_finding(name: str, line: LineCheck) -> str:
    """Section 5: the device-bound loop's sweep, measured here on a GPU."""
    return _("**{name}:** {shape}. {numbers}").format(
        name=word(name), shape=word(shape(line)), numbers=narration.line(line, "one recording")
    )


def fewer_operators_finding(ratio, operators: float, fewer: float) -> str:
    """Section 7: the same training issued with less work on the CPU around each operator (the
    hand-written step), against the lesson's loop: ``ratio``,
    :meth:`helpers.timing.Comparison.ratios`; ``operators`` and ``fewer``: operators per epoch
    of each."""
    return _(
        "The same arithmetic issued with far less Python around it (the hand-written step: no "
        "autograd graph, no optimiser object, no module calls; {fewer:.0f} operators per epoch "
        "against the lesson loop's {operators:.0f}) ran **{median:.2f}×** as fast as the "
        "lesson's loop, and in three rounds out of four at least {low:.2f}×: what it removed is "
        "time spent issuing the work, not the work."
    ).format(fewer=fewer, operators=operators, median=ratio.median, low=ratio.quartiles[0])


def waits_note(*, price: float, recordings: int, run: float) -> str:
    """Section 7: the share of a run with rare recordings that the recordings' waits take, with
    its inputs (a negative price counted as zero)."""
    return _(
        "The waits of the rarest recording: b × recordings ÷ run = {price_us:.2f} µs × "
        "{recordings} ÷ {run:.3f} s = {share:.2%} of the run."
    ).format(price_us=max(price, 0) * 1e6, recordings=recordings, run=run,
             share=max(price, 0) * recordings / run)  # fmt: skip


def pace_note(*, yours: float, theirs: float, device: str) -> str:
    """Section 1: the learner's run beside the student's, with a word when a CPU was faster."""
    if yours < theirs:
        return _(
            "Your run recording every 100 epochs took {yours:.2f} s on {device}, the student's "
            "about {theirs:.1f} s on a GPU: on tensors this small a GPU is no faster, and day "
            "5b shows where an epoch's time goes."
        ).format(yours=yours, theirs=theirs, device=device)
    return _(
        "Your run recording every 100 epochs took {yours:.2f} s on {device}, the student's about "
        "{theirs:.1f} s on a GPU."
    ).format(yours=yours, theirs=theirs, device=device)


def live_run(label: str, epochs: int, on: str, seconds: float) -> str:
    """Section 8: one live run of the knob panel."""
    return _("{label}, {epochs} epochs on {on}: {seconds:.3f} s ({epoch_us:.0f} µs/epoch)").format(
        label=word(label), epochs=epochs, on=on, seconds=seconds, epoch_us=seconds / epochs * 1e6
    )


def summary(
    *, device: str, student_fit: AffineFit, line: LineCheck, judgements: Sequence[Judgement]
) -> str:
    """The lesson's closing summary: whether the student's table and the learner's sweep price a
    recording, the shape of the time, and every verdict."""
    can, cannot = _("can"), _("cannot")
    verdicts = _("; ").join(
        _("{part} *{verdict}*").format(part=j.part, verdict=shown_verdict(j)) for j in judgements
    )
    return _(
        "**What this run found on {device}.** The student's table {student} price a recording; "
        "your sweep {yours} ({price}), and the time against the recordings is **{shape}**. "
        "Verdicts, part by part: {verdicts}."
    ).format(
        device=device,
        student=can if student_fit.b.distinguishable else cannot,
        yours=can if line.fit.b.distinguishable else cannot,
        price=narration.interval(line.fit.b, 1e6, " µs", 1),
        shape=word(shape(line)),
        verdicts=verdicts,
    )
