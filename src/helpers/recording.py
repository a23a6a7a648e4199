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

from helpers.messages import text, word


def measured_on(card: str) -> str:
    """The machine the lesson measured on, and its one thread."""
    return text("recording.measured_on", card=card)


def arithmetic_finding(
    flops: float, peak: float, device_type: str, arithmetic: float, epoch: float, inside: float
) -> str:
    """An epoch's arithmetic against its time and its time inside operators (seconds)."""
    where = text("recording.one_thread") if device_type == "cpu" else device_type
    return text(
        "recording.arithmetic",
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
        return text("recording.runs.same", epochs=epochs)
    return text("recording.runs.other", epochs=epochs, student=student_epochs)


def fits_finding(student, yours, single_runs_say) -> str:
    """The student's four runs and the learner's, each fitted (:class:`helpers.stats.AffineFit`),
    with what single runs can say (``single_runs_say``, from :mod:`helpers.claims`)."""
    return text(
        "recording.fits",
        student=student.verdict("one recording"),
        student_sd=student.residual_sd,
        student_says=single_runs_say(student),
        yours=yours.verdict("one recording"),
        your_sd=yours.residual_sd,
        your_says=single_runs_say(yours),
    )


def rounds_note(epochs: int, order: Sequence[Sequence[str]]) -> str:
    """The first two rounds' shuffled order of a comparison."""
    joint = text("joint.items")
    rounds = text("joint.clauses").join(
        text("recording.round", i=i, names=joint.join(map(word, names)))
        for i, names in enumerate(order[:2], 1)
    )
    return text("recording.rounds", epochs=epochs, rounds=rounds)


def noise_finding(extremes, lesson, noise: float) -> str:
    """Every epoch against never, every 100 against every 2000 (paired differences), and the
    typical spread of a run."""
    return text(
        "recording.noise",
        extremes=extremes.verdict("every 1", "never"),
        lesson=lesson.verdict("every 100", "every 2000"),
        noise=noise,
    )


def price_finding(fit, line, item, a_run: float, epochs: int, measure_epochs: int, totals) -> str:
    """The price of a recording, the line's shape, one ``.item()`` alone, and the intercept ``a``
    extrapolated to section 2's runs against what those runs measured (``totals``, seconds)."""
    off = a_run / totals.median() - 1
    said = {
        "price": fit.verdict("one recording"),
        "shape": line.verdict("one recording"),
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
    return text("recording.price.below" if off < 0 else "recording.price.above", **said)


def floor_finding(bare: float, floor: float, operators: float, computing: float) -> str:
    """The bare loop's time per epoch against the floor (seconds), and the operators an epoch
    dispatches."""
    return text(
        "recording.floor",
        bare_ns=bare * 1e9,
        floor_us=floor * 1e6,
        operators=operators,
        computing=computing,
    )


def profiler_note(phases_us: float, slowdown: float, epoch_us: float) -> str:
    """The phases' own time under the profiler, against an epoch without it."""
    return text("recording.profiler", phases_us=phases_us, slowdown=slowdown, epoch_us=epoch_us)


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
        return text("recording.timeline", **said)
    return text("recording.timeline.kernels", kernels=kernels, **said)


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
    bandwidths = text("joint.clauses").join(
        text("recording.bandwidth", gbs=r.bandwidth / 1e9, label=r.label) for r in roofs
    )
    if speedup is None:
        fused = text("recording.roofline.unfused", why=why)
    else:
        fused = text("recording.roofline.fused", speedup=speedup, fewer=fewer)
    return text(
        "recording.roofline",
        peak=peak / 1e9,
        threads=threads,
        bandwidths=bandwidths,
        workloads="\n".join(f"- {line}" for line in explained),
        fused=fused,
    )


def same_losses_note(notes: Mapping[str, str]) -> str:
    """Every variant computed the lesson's losses; what compiling each one took or why not."""
    each = text("joint.clauses").join(
        text("joint.labelled", label=word(name), value=note) for name, note in notes.items()
    )
    return text("recording.same_losses", notes=each)


def fastest_finding(
    best: str, speedup: float, repeats: int, epochs: int, best_epoch: float, arithmetic: float
) -> str:
    """The fastest variant against the lesson loop, and how far it still is from arithmetic."""
    return text(
        "recording.fastest",
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
    return text("recording.compile.fast", advice=advice)


def epoch_times_finding(low_us: float, high_us: float) -> str:
    """How far apart the sections' measurements of one epoch lie."""
    return text("recording.epoch_times", low=low_us, high=high_us, ratio=high_us / low_us)


def live_run(label: str, epochs: int, on: str, seconds: float) -> str:
    """One live run of the knob panel."""
    return text(
        "recording.live", label=word(label), epochs=epochs, on=on, seconds=seconds,
        epoch_us=seconds / epochs * 1e6,
    )  # fmt: skip


def summary(found: Mapping, judgements: Sequence, advice: str) -> str:
    """The lesson's closing summary. ``found``: ``device``, ``student_priced`` and ``priced``
    (bools), ``price`` (the slope's text), ``straight`` (bool), ``regime``, ``arithmetic``,
    ``inside`` and ``loop`` (shares), ``best`` and ``speedup``."""
    can, cannot = text("recording.can"), text("recording.cannot")
    verdicts = text("joint.clauses").join(
        text("recording.summary.part", part=j.part, verdict=j.shown_verdict()) for j in judgements
    )
    return text(
        "recording.summary",
        device=found["device"],
        student=can if found["student_priced"] else cannot,
        yours=can if found["priced"] else cannot,
        price=found["price"],
        line=text("recording.stands" if found["straight"] else "recording.bends"),
        regime=word(found["regime"]),
        arithmetic=found["arithmetic"],
        inside=found["inside"],
        loop=found["loop"],
        best=word(found["best"]),
        speedup=found["speedup"],
        advice=advice,
        verdicts=verdicts,
    )
