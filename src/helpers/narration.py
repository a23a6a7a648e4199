"""The sentences several lessons share: what an interval, a difference, a fitted line and a
receipt beside this machine say. Each day's own words are in its ``helpers/dayNN.py``.

The numbers come from :mod:`helpers.stats` and :mod:`helpers.receipts`, which only compute; the
rules that turn them into words are here, in plain sight: an interval that excludes zero tells a
value from nothing (at the interval's confidence, 95 % unless the lesson says otherwise), and a
price matters when what it adds across the measured range is larger than the run-to-run noise.

>>> from helpers.stats import paired_difference
>>> found = paired_difference([0.90, 0.91, 0.92], [0.80, 0.82, 0.81])
>>> difference(found, "one-hot", "codes").split(", so ")[1]
'one-hot is larger than codes.'
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from helpers import receipts
from helpers.i18n import _, catalog, language, ngettext, word
from helpers.receipts import Receipt, Shelf
from helpers.stats import AffineFit, Difference, Interval, LineCheck, SameRows

# ---- statistics (helpers.stats) ---------------------------------------------------------------


def interval(found: Interval, scale: float = 1.0, unit: str = "", digits: int = 4) -> str:
    """``'+0.0102 (95% interval +0.0050 to +0.0150)'``, each number times ``scale``."""

    def number(x: float) -> str:
        return f"{x * scale:+.{digits}f}{unit}"

    return _("{value} ({confidence:.0%} interval {low} to {high})").format(
        value=number(found.value),
        confidence=found.confidence,
        low=number(found.low),
        high=number(found.high),
    )


def zero(found: Interval) -> str:
    """Whether the interval excludes zero, in words."""
    if found.distinguishable:
        return _("the interval excludes zero")
    return _(
        "the interval includes zero, so these {n} measurements cannot tell it from zero"
    ).format(n=found.n)


def capital(sentence: str) -> str:
    """``sentence`` with its first letter in upper case (nothing changes in Chinese)."""
    return sentence[0].upper() + sentence[1:]


def difference(found: Difference, a: str = "a", b: str = "b") -> str:
    """One sentence: which of ``a`` and ``b`` (names) is larger, or that the noise hides any
    difference."""
    a, b = word(a), word(b)
    said = {"a": a, "b": b, "value": interval(found), "zero": zero(found)}
    if not found.distinguishable:
        return capital(_("{a} minus {b} is {value}: {zero}.").format(**said))
    larger, smaller = (a, b) if found.value > 0 else (b, a)
    return capital(
        _("{a} minus {b} is {value}: {zero}, so {larger} is larger than {smaller}.").format(
            larger=larger, smaller=smaller, **said
        )
    )


def same_rows(found: SameRows, a: str, b: str) -> str:
    """Two models on the same test rows: whether the rows only one of them got right are too
    lopsided for luck (McNemar's exact test at ``found.confidence``)."""
    a, b = word(a), word(b)
    head = ngettext(
        "{a} alone got {a_only} row right, {b} alone {b_only}, of {n}",
        "{a} alone got {a_only} rows right, {b} alone {b_only}, of {n}",
        found.a_only,
    ).format(a=capital(a), a_only=found.a_only, b=b, b_only=found.b_only, n=found.n)
    if found.a_only + found.b_only == 0:
        return _("{head}: exactly the same rows right, so nothing tells them apart.").format(
            head=head
        )
    if found.lopsided:
        better = a if found.a_only > found.b_only else b
        return _(
            "{head}: too lopsided for luck (exact test, p = {p:.3f}): **{better}** is better."
        ).format(head=head, p=found.p, better=better)
    return _(
        "{head}: that split could be luck (exact test, p = {p:.2f}), so these rows cannot tell "
        "the two apart, and the simpler model is the one to keep."
    ).format(head=head, p=found.p)


def price(fit: AffineFit, what: str = "one recording") -> str:
    """What the fitted slope says about the price of ``what`` (``y`` in seconds): told from
    zero or not, and whether what it adds across the measured range beats the noise."""
    what = word(what)
    head = _("The price of {what} is {value}: {zero}").format(
        what=what, value=interval(fit.b, 1e6, " µs", 2), zero=zero(fit.b)
    )
    if not fit.b.distinguishable:
        most = max(fit.b.high, 0) * fit.x_range * 1e3
        return _(
            "{price}. These runs cannot tell a price from noise: across the measured range it "
            "could still add up to {most_ms:.1f} ms, next to a = {a_s:.3f} s."
        ).format(price=head, most_ms=most, a_s=fit.a.value)
    if fit.b.value < 0:
        return _(
            "{price}, but it is negative: not a real cost but a drift or an ordering effect "
            "in the runs. Re-run, with more repeats."
        ).format(price=head)
    said = {"price": head, "effect_ms": abs(fit.effect) * 1e3, "noise_ms": fit.residual_sd * 1e3}
    if fit.effect_larger_than_noise:
        return _(
            "{price}; it changes the time by {effect_ms:.1f} ms across the measured range, "
            "larger than the run-to-run noise ({noise_ms:.1f} ms)."
        ).format(**said)
    return _(
        "{price}; it changes the time by {effect_ms:.1f} ms across the measured range, "
        "smaller than the run-to-run noise ({noise_ms:.1f} ms)."
    ).format(**said)


def line(found: LineCheck, what: str = "one recording") -> str:
    """The knee test's numbers (:func:`helpers.stats.check_line`, ``y`` in seconds): the best
    knee, the slopes before and after it, the bend, and how sharp the test was."""
    return _(
        "The best line with one knee bends at about {knee:,.0f}: before it {what} costs {below}, "
        "after it {above}. Its bend, the largest gap between it and the straight line (at "
        "{bend_at:,.0f}), is {bend}; {zero}. These runs would have caught a bend of {bend_ms:.1f} "
        "ms or more, and a price of {what} of {slope_us:.2f} µs or more, {power:.0%} of the time "
        "(their *power*)."
    ).format(
        knee=found.knee,
        what=word(what),
        below=interval(found.below, 1e6, " µs", 2),
        above=interval(found.above, 1e6, " µs", 2),
        bend=interval(found.bend, 1e3, " ms", 1),
        bend_at=found.bend_at,
        zero=zero(found.bend),
        power=found.power,
        bend_ms=found.smallest_bend * 1e3,
        slope_us=found.smallest_slope * 1e6,
    )


def same_weights(
    difference: float, *, tolerance: float, what: str, things: str | None = None
) -> str:
    """Whether two runs (``what``, said in the course's language) ended with the same weights
    (or other ``things``): identical, within ``tolerance`` (float32 sums in another order: the
    caller names it), or different (days 7 and 8).

    >>> same_weights(0.0, tolerance=1e-5, what="the resumed run and the undisturbed one")
    'The resumed run and the undisturbed one end with **identical** weights (bit for bit).'
    >>> same_weights(2e-7, tolerance=1e-4, what="the ring and all_reduce", things="sums")[:42]
    'The ring and all_reduce end with the **sam'
    """
    things = things or _("weights")
    head = capital(what)
    if difference == 0:
        return _("{head} end with **identical** {things} (bit for bit).").format(
            head=head, things=things
        )
    if difference <= tolerance:
        found = _(
            "{head} end with the **same** {things}: the largest difference, "
            "{difference:.1e}, is within the tolerance {tolerance:.0e} (float32 "
            "sums in another order)."
        )
    else:
        found = _(
            "{head} end with **different** {things}: the largest difference, "
            "{difference:.1e}, is above the tolerance {tolerance:.0e}. Something "
            "differs: the rows, the seed, the learning rate or the averaging."
        )
    return found.format(head=head, things=things, difference=difference, tolerance=tolerance)


# ---- a receipt's figures beside this machine's (helpers.receipts) -----------------------------


@dataclass(frozen=True)
class Beside:
    """A receipt beside this machine, as a lesson shows it: Markdown sentences, and a table
    (``None`` without a receipt: the sentences say how to make one, and the lesson goes on)."""

    text: str
    table: pd.DataFrame | None = None

    def show(self) -> None:
        """Show it in a notebook: the sentences, then the table."""
        from IPython.display import display

        from helpers.show import say

        say(self.text)
        if self.table is not None:
            display(self.table)


def receipt_label(receipt: Receipt, lang: str | None = None) -> str:
    """A receipt's column (or a plot's legend entry, in :func:`helpers.i18n.plot_language`):
    the device, the date, and whose receipt it is."""
    words = catalog(lang or language())
    if receipt.reference:
        whose = words.gettext("{machine}, {day} (the course's reference, not yours)")
    else:
        whose = words.gettext("{machine}, {day} (your receipt)")
    return whose.format(machine=receipt.name, day=receipt.day)


def here(device_type: str) -> str:
    """This machine's column."""
    return _("this machine ({device}), now").format(device=device_type)


def heading(found: Shelf, receipt: Receipt | None, missing: str | None = None) -> str:
    """The broken files skipped, then where the figures come from, or (``receipt`` is ``None``)
    ``missing``: how to make a receipt (a sentence with ``{folder}``)."""
    lines = [_("Skipped a broken receipt: {problem}").format(problem=p) for p in found.broken]
    if receipt is None:
        missing = missing or _(
            "No receipt of a GPU here yet, so only this machine's figures are shown. On a rented "
            "GPU (Colab, Kaggle, a GPU platform) run `python -m helpers receipt --out "
            "my-gpu.json`, copy the file into `{folder}`, and run this cell again."
        )
        lines.append(missing.format(folder=receipts.folder()))
    else:
        if receipt.reference:
            whose = _(
                "Beside this machine: **{label}**, from `{file}`: measured by the course, not by "
                "you. Your own receipts go in the `receipts/` folder and replace it."
            )
        else:
            whose = _("Beside this machine: **{label}**, from `{file}`.")
        lines.append(whose.format(label=receipt_label(receipt), file=receipt.path.name))
        if receipt.device != "cpu":
            lines.append(host_note(receipt))
    return "\n\n".join(lines)


def host_note(receipt: Receipt, ours: str | None = None) -> str:
    """The machine that holds a receipt's GPU, named beside its figures: its CPU and threads,
    whether it is a virtual machine (when the receipt says), that the figures which time the CPU's
    part (a launch, a synchronisation, a lesson epoch, a curve's flat part) measure that host as
    much as the GPU; and the receipt's PyTorch when it is not the one the course is tested with
    (``ours``: this machine's, by default the running one)."""
    import torch

    from helpers.config import TESTED_TORCH

    machine, host = receipt["machine"], receipt.payload.get("host") or {}
    kind = {
        True: _("a virtual machine"),
        False: _("not a virtual machine"),
        None: _("whether it is a virtual machine, the receipt does not say"),
    }[host.get("virtual_machine")]
    said = _(
        "Its host: **{cpu}**, {threads} threads ({kind}). Launches, synchronisations, a whole "
        "lesson epoch and the flat start of a curve are the CPU's work as much as the GPU's: "
        "where the receipt times them, it measures this host too."
    ).format(cpu=machine["cpu"], threads=machine["threads"], kind=kind)
    theirs, ours = machine["torch"], ours or torch.__version__
    if theirs.split("+")[0] != TESTED_TORCH:
        said += " " + _(
            "It ran PyTorch {theirs}; the course is tested with {tested}, and this machine runs "
            "{ours}."
        ).format(theirs=theirs, tested=TESTED_TORCH, ours=ours)
    return said


def also(others: list[Receipt]) -> list[str]:
    """The other receipts a table shows, after the first."""
    return [
        _("Also: **{label}**, from `{file}`.").format(label=receipt_label(r), file=r.path.name)
        for r in others
    ]


def size_text(n_bytes: int) -> str:
    """A copy's size in KiB or MiB, ``'64 KiB'``, ``'4 MiB'`` (bytes below 1 KiB).

    >>> size_text(2**16), size_text(2**22), size_text(512)
    ('64 KiB', '4 MiB', '512 B')
    """
    for unit, scale in (("MiB", 2**20), ("KiB", 2**10)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:,.4g} {unit}"
    return f"{n_bytes} B"


def copy_rate(rate: float | None, copied: int | None, threads: int | None = None) -> str:
    """A copy's bandwidth with its size (and the thread count, when it is this machine's)."""
    if rate is None:
        return _("not measured")
    if threads is None:
        return _("{rate} ({size})").format(rate=gigabytes(rate), size=size_text(copied))
    return ngettext(
        "{rate} ({size}, {threads} thread)", "{rate} ({size}, {threads} threads)", threads
    ).format(rate=gigabytes(rate), size=size_text(copied), threads=threads)


def gigabytes(rate: float | None) -> str:
    return _("not measured") if rate is None else f"{rate / 1e9:,.1f} GB/s"


def microseconds(seconds: float | None) -> str:
    return _("not measured") if seconds is None else f"{seconds * 1e6:,.1f} µs"
