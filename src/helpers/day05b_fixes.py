"""Day 5b · Why, and how to make it fast: what sections 4 and 5 found, and the summary

The fixes in the order real code takes them, then the ceilings that real code rarely writes
(section 4), and the compile time they cost (5), in the course's language. The numbers come from
:mod:`helpers.standard_fixes`, :mod:`helpers.loops` and :mod:`helpers.compiled`, which only
compute.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from helpers import compiled
from helpers.i18n import _, word


def same_losses_note(notes: Mapping[str, str]) -> str:
    """Section 4: every variant computed the lesson's losses; what compiling each one took or
    why not (``notes``, from :func:`helpers.compiled.compile_all`)."""
    each = _("; ").join(
        _("{label}: {value}").format(label=word(name), value=note) for name, note in notes.items()
    )
    return _("All variants compute the same losses (within 1e-4 relative). {notes}.").format(
        notes=each
    )


def fastest_finding(
    *,
    standard: str,
    standard_speedup: float,
    standard_low: float,
    ceiling: str,
    ceiling_speedup: float,
    ceiling_epoch: float,
    arithmetic: float,
    slower: list[str],
    repeats: int,
    epochs: int,
) -> str:
    """Section 4: the fastest standard-code fix (``standard_low``: the lower quartile of its
    speed-up over the rounds) and the fastest ceiling against the lesson loop (median
    speed-ups over ``repeats`` rounds of ``epochs`` epochs), how far the ceiling still is from
    the arithmetic (seconds per epoch), and the variants that ran slower than the lesson loop."""
    told = (
        _("faster in three rounds out of four")
        if standard_low > 1
        else _("not told from noise: it was not faster in three rounds out of four")
    )
    best = (
        _(
            "- The fastest **standard-code** fix per epoch is **{standard}**, **{s:.2f}×** as "
            "fast as the lesson loop recording every 100 epochs ({told})."
        )
        if standard_speedup > 1
        else _(
            "- **No standard-code fix beat the lesson loop here**: the best, **{standard}**, ran "
            "**{s:.2f}×** as fast ({told})."
        )
    )
    said = [
        best.format(standard=word(standard), s=standard_speedup, told=told),
        _(
            "- The fastest **ceiling** is **{ceiling}**, **{c:.1f}×**; it still takes "
            "**{c_us:.1f} µs** per epoch, **{ratio:,.0f}×** the arithmetic time "
            "({arithmetic_us:.2f} µs): what is left is the generated code's own work on tiny "
            "tensors, and what remains of the overhead."
        ).format(
            ceiling=word(ceiling),
            c=ceiling_speedup,
            c_us=ceiling_epoch * 1e6,
            ratio=ceiling_epoch / arithmetic,
            arithmetic_us=arithmetic * 1e6,
        ),  # fmt: skip
    ]
    if slower:
        said.append(
            _(
                "- Slower than the lesson loop here: {names}. A compiled or fused variant adds "
                "its own cost per call (the checks that the compiled code still fits its "
                "inputs, a generated function's launch, a fused operator's set-up), which "
                "tensors this small do not repay; on a GPU, where each saved launch is "
                "microseconds, the same change can pay."
            ).format(names=_(", ").join(word(n) for n in slower))
        )
    said.append(
        _("- Medians over {repeats} rounds of {epochs} epochs.").format(
            repeats=repeats, epochs=epochs
        )
    )
    return "\n\n" + "\n".join(said)


def compile_advice(table: pd.DataFrame, epochs: int, long_epochs: int) -> str:
    """Section 4: which variant to use for a training of ``epochs`` epochs (with a cold and a warm
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
    """Section 4: the end-to-end advice, with a word on fast mode when no cold compile was
    measured."""
    if cold_measured:
        return advice
    return _(
        "{advice} (Fast mode measures no cold compile, and takes the warm one "
        "from this process's first calls: fresh processes take tens of "
        "seconds.)"
    ).format(advice=advice)


def summary(
    *,
    device: str,
    regime: str,
    arithmetic: float,
    inside: float,
    standard: str,
    standard_speedup: float,
    ceiling: str,
    ceiling_speedup: float,
    advice: str,
) -> str:
    """The lesson's closing summary: the lesson epoch's ``regime`` with the shares of it that are
    ``arithmetic`` and ``inside`` operators, the best standard fix and the best ceiling with
    their speed-ups, and the compile ``advice``."""
    return _(
        "**What this run found on {device}.** The lesson's epoch is **{regime}**: arithmetic "
        "{arithmetic:.2%} of it, time inside operators {inside:.0%}. The best standard-code fix, "
        "{standard}, ran **{standard_speedup:.2f}×** as fast as the lesson loop; the best "
        "ceiling, {ceiling}, **{ceiling_speedup:.1f}×**. {advice}"
    ).format(
        device=device,
        regime=word(regime),
        arithmetic=arithmetic,
        inside=inside,
        standard=word(standard),
        standard_speedup=standard_speedup,
        ceiling=word(ceiling),
        ceiling_speedup=ceiling_speedup,
        advice=advice,
    )


def beside_receipt(here: Mapping[str, float], device_type: str, found=None):
    """Section 4: each fix's speed-up over the lesson loop here (``here``: name -> median
    speed-up, on ``device_type``) beside the receipt's, with the lower quartile of its rounds
    where the receipt keeps it: what the same fixes gain on a GPU. A fix the receipt did not
    measure says so."""
    from helpers import receipts
    from helpers.narration import Beside, heading, receipt_label
    from helpers.narration import here as here_label
    from helpers.standard_fixes import kind

    found = receipts.load_all() if found is None else found
    receipt = found.pick()
    if receipt is None:
        return Beside(heading(found, None))
    theirs = receipt["day05"]["variants"]
    names = list(dict.fromkeys([*here, *theirs]))
    missing = _("not measured")

    def gpu(name: str) -> str:
        if name not in theirs:
            return missing
        v = theirs[name]
        low = v.get("speedup_q1")
        if low is None:
            return f"{v['speedup']:.2f}×"
        return _("{median:.2f}× (3 rounds in 4 at least {low:.2f}×)").format(
            median=v["speedup"], low=low
        )

    table = pd.DataFrame(
        {
            _("kind"): [word(kind(n)) for n in names],
            here_label(device_type): [f"{here[n]:.2f}×" if n in here else missing for n in names],
            receipt_label(receipt): [gpu(n) for n in names],
        },
        index=[word(n) for n in names],
    )
    return Beside(heading(found, receipt), table)
