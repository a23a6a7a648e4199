"""Day 6 · When does the GPU take off?

What the measurements of
``notebooks/day06_gpu_takeoff.ipynb``
mean, in the course's language.

The numbers come from modules that only compute: time per step, the take-off point and the
ImageNet estimate from :mod:`helpers.takeoff`, where two curves cross and what one GPU point
bounds from :mod:`helpers.crossover`. The rules that turn them into words are here, with their
thresholds as the constants below; a sentence with no decision in it is written in the lesson's
cell that prints it.

>>> judge_lesson_range(2300, largest=1e6, against="the reference GPU").split(": ")[1]
"far below the lesson's 100,000-1,000,000."
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from helpers import receipts
from helpers.crossover import Crossing, Support
from helpers.i18n import N_, _, ngettext, word
from helpers.narration import Beside, heading, receipt_label
from helpers.receipts import Shelf
from helpers.takeoff import TAKEOFF_FACTOR, CurvePair, curve

NAMES = (
    N_("rows"),
    N_("not measured"),
    N_("time at the smallest size (ms)"),
    N_("take-off (rows)"),
    N_("best GFLOP/s"),
    N_("FLOPs per step"),
    N_("bytes per step"),
    N_("FLOPs per byte"),
    N_("GFLOP/s reached"),
    N_("times longer"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""


# --- Section 1: time per step against rows, beside a GPU's receipt ------------------------------


def beside_receipt(found: Shelf | None = None) -> Beside:
    """Day 6: where the GPU's curve comes from (a receipt of a GPU; a CPU's does not count), or
    how to make one."""
    found = receipts.load_all() if found is None else found
    receipt = found.pick()
    receipt = None if receipt is None or receipt.device == "cpu" else receipt
    return Beside(
        heading(
            found,
            receipt,
            _(
                "No GPU curve to draw beside this machine's: no receipt of a GPU here. "
                "On a rented GPU run `python -m helpers receipt --out my-gpu.json`, "
                "copy the file into `{folder}`, and run this notebook again; until "
                "then the crossover below is bounded from the lesson's one run."
            ),
        )
    )


# --- Section 2: where the curve takes off -------------------------------------------------------

FELL = 1.5
"""A point that takes less than the previous one's time divided by this, for more rows, fell (a
third less time or more): more work cannot take less time, so something slowed the smaller point.
Smaller dips are read as the noise of a short timing."""


def curve_shape(name: str, rows: Sequence[float], seconds: Sequence[float]) -> str:
    """How one measured curve of time per step looks, in words: flat at first and then rising (a
    fixed overhead, then work), rising from the smallest size, or falling somewhere (:data:`FELL`),
    which more work cannot do: a pause of the machine inflated the smaller point. Flat means
    below :data:`helpers.takeoff.TAKEOFF_FACTOR` times the time at the smallest size.

    >>> curve_shape("tiny", [100, 1000, 10000], [1e-3, 1.1e-3, 5e-3])
    '**tiny**: flat at first, then rising: a fixed overhead of 1.00 ms per step, then work.'
    >>> curve_shape("tiny", [100, 1000], [20e-3, 1e-3]).split(":")[1]
    ' the time per step fell from 20.00 ms at 100 rows to 1.00 ms at 1,000 rows'
    """
    x, y = curve(rows, seconds, "curve_shape")
    falls = np.flatnonzero(y[1:] < y[:-1] / FELL)
    if len(falls):
        i = int(falls[0])
        return _(
            "**{name}**: the time per step fell from {before_ms:.2f} ms at "
            "{before_rows:,.0f} rows to {after_ms:.2f} ms at {after_rows:,.0f} "
            "rows: more work cannot take less time, so something else (another "
            "program, a pause of the machine) slowed the smaller point. Run the "
            "sweep again before reading this curve."
        ).format(
            name=name,
            before_ms=y[i] * 1e3,
            before_rows=x[i],
            after_ms=y[i + 1] * 1e3,
            after_rows=x[i + 1],
        )
    overhead_ms = y[0] * 1e3
    if y[-1] < TAKEOFF_FACTOR * y[0]:
        return _(
            "**{name}**: flat over every size measured: a fixed overhead of "
            "{overhead_ms:.2f} ms per step, up to {rows:,.0f} rows."
        ).format(name=name, overhead_ms=overhead_ms, rows=x[-1])
    if y[1] < TAKEOFF_FACTOR * y[0]:
        return _(
            "**{name}**: flat at first, then rising: a fixed overhead of "
            "{overhead_ms:.2f} ms per step, then work."
        ).format(name=name, overhead_ms=overhead_ms)
    return _(
        "**{name}**: rising from the smallest size measured ({rows:,.0f} "
        "rows): the work already outweighs the fixed overhead there."
    ).format(name=name, rows=x[0])


# --- Section 4: the lesson's estimate, answered with data ---------------------------------------

LESSON_RANGE = (1e5, 1e6)
"""The lesson's estimate: a GPU starts to pay off for a small MLP at 100,000 to 1,000,000 rows."""
FAR_BELOW = 10
"""A crossover more than this factor below the lesson's range is *far* below it (an order of
magnitude: no rounding of the estimate reaches it)."""


def gpu_side(device: str, reference_gpu: str | None) -> str:
    """What the CPU curve is compared with: this machine's GPU (``device`` not a CPU), else the
    reference GPU (``reference_gpu``, its label), else the lesson's one GPU run."""
    if not device.startswith("cpu"):
        return _("this machine's GPU ({device})").format(device=device)
    if reference_gpu is not None:
        return _("{gpu}").format(gpu=reference_gpu)
    return _("the lesson's one GPU run")


def pair_label(pair: CurvePair, device: str) -> str:
    """The GPU side of a crossover and the CPU beside it, to follow "Against": this machine's GPU
    (``device``) beside its CPU, a receipt's GPU beside its own host CPU (named), or a receipt's
    GPU beside this machine's CPU, labelled as two machines."""
    if pair.receipt is None:
        return _("this machine's GPU ({device}), beside its CPU").format(device=device)
    gpu = receipt_label(pair.receipt)
    if pair.same_host:
        machine = pair.receipt["machine"]
        return _("{gpu}, beside its own host CPU ({cpu}, {threads} threads)").format(
            gpu=gpu, cpu=machine["cpu"], threads=machine["threads"]
        )
    return _("{gpu}, beside this machine's CPU: two machines, a mixed figure").format(gpu=gpu)


def curve_name(pair: CurvePair, side: str, model: str) -> str:
    """One curve of a pair (``side``: ``"cpu"`` or ``"gpu"``), named by its machine: this one,
    a receipt's GPU, or that receipt's host CPU."""
    said = {"model": word(model)}
    if pair.here(side):
        return _("{model} on this machine's {side}").format(side=side.upper(), **said)
    if side == "cpu":
        return _("{model} on the host CPU of {gpu}").format(gpu=receipt_label(pair.receipt), **said)
    return _("{model} on {gpu}").format(gpu=receipt_label(pair.receipt), **said)


def crossing_text(found: Crossing | None, *, smallest: float) -> str:
    """Where a crossover lies, as the points measured it: between the sizes either side, or at
    the smallest size, or nowhere in the rows both curves cover.

    >>> crossing_text(Crossing(6437.0, 3162.0, 10000.0), smallest=100)
    'between 3,162 and 10,000 rows'
    """
    if found is None:
        return _("never, in the rows both curves cover")
    if found.above <= smallest:
        return _("already at the smallest size ({rows:,.0f} rows)").format(rows=smallest)
    return _("between {below:,.0f} and {above:,.0f} rows").format(
        below=found.below, above=found.above
    )


def judge_lesson_range(
    pays_off: float | Crossing | None,
    *,
    largest: float,
    against: str,
    smallest: float | None = None,
) -> str:
    """The lesson's "100k-1M rows" (:data:`LESSON_RANGE`), read against ``pays_off``, the
    crossover found from two curves that cover up to ``largest`` rows from ``smallest``, the
    CPU's against ``against`` (:data:`FAR_BELOW`): a :class:`helpers.crossover.Crossing` (the
    measured sizes either side of it, judged by the larger: the most it can be), or an
    interpolated row count (:func:`helpers.crossover.curve_crossover`)."""
    low, high = LESSON_RANGE
    span = _("the lesson's {low:,.0f}-{high:,.0f}").format(low=low, high=high)
    if pays_off is None:
        return _(
            "Against {against}, the GPU is not faster anywhere up to "
            "{largest:,.0f} rows measured: these curves cannot confirm {span}."
        ).format(against=against, largest=largest, span=span)
    if isinstance(pays_off, Crossing):
        found, pays_off = pays_off, pays_off.above
        where = _("Against {against}, the GPU pays off between {below:,.0f} and {above:,.0f} rows")
        where = where.format(against=against, below=found.below, above=found.above)
    else:
        where = _("Against {against}, the GPU pays off from about {rows:,.0f} rows").format(
            against=against, rows=pays_off
        )
    if smallest is not None and pays_off <= smallest:
        where = _(
            "Against {against}, the GPU is faster already at the smallest size "
            "measured ({rows:,.0f} rows)"
        ).format(against=against, rows=smallest)
    if pays_off < low / FAR_BELOW:
        return _("{where}: far below {span}.").format(where=where, span=span)
    if pays_off < low:
        return _("{where}: below {span}, within a factor of ten.").format(where=where, span=span)
    if pays_off <= high:
        return _("{where}: within {span}.").format(where=where, span=span)
    return _("{where}: above {span}.").format(where=where, span=span)


def judge_lesson_bound(
    bound: float | None, *, largest: float, step_seconds: float, rows: int = 120
) -> str:
    """The lesson's "100k-1M rows" (:data:`LESSON_RANGE`), read against the bound that one GPU
    point gives (:func:`helpers.crossover.lesson_bound`: ``step_seconds`` per step at ``rows``
    rows, a CPU curve up to ``largest`` rows): conditional words, since a single point is not a
    curve.

    >>> print(judge_lesson_bound(2300, largest=1e6, step_seconds=6.7e-4).split(". ")[1])
    A GPU step does not get faster with more rows, so the GPU cannot pay off below about 2,300 \
rows, where your CPU's step reaches that time
    """
    low, high = LESSON_RANGE
    span = _("the lesson's {low:,.0f}-{high:,.0f} rows").format(low=low, high=high)
    said = {"rows": rows, "step_ms": step_seconds * 1e3}
    if bound is None:
        head = _(
            "The lesson's GPU was measured at one size only: {rows} rows, "
            "{step_ms:.2f} ms per epoch (a whole loop, divided by its epochs). A "
            "GPU step does not get faster with more rows, so the GPU cannot pay "
            "off below {largest:,.0f} rows: your CPU's step stays faster than that "
            "at every size measured."
        ).format(largest=largest, **said)
        if largest >= high:
            return _(
                "{head} That alone rules out {span}: the lesson's estimate is too low here."
            ).format(head=head, span=span)
        return _("{head} That bound is below {span}: it neither confirms nor rules it out.").format(
            head=head, span=span
        )
    head = _(
        "The lesson's GPU was measured at one size only: {rows} rows, "
        "{step_ms:.2f} ms per epoch (a whole loop, divided by its epochs). A "
        "GPU step does not get faster with more rows, so the GPU cannot pay "
        "off below about {bound:,.0f} rows, where your CPU's step reaches that "
        "time."
    ).format(bound=bound, **said)
    if bound > high:
        return _(
            "{head} That alone rules out {span}: the lesson's estimate is too low here."
        ).format(head=head, span=span)
    if bound >= low:
        found = _(
            "{head} That bound is within {span}, so it does not rule the range "
            "out. Only if the GPU's step stayed at its {rows}-row time up to "
            "{bound:,.0f} rows (likely for so small a network, but not measured) "
            "would it pay off right there; a GPU curve (this machine's, or a "
            "reference measured on a GPU) turns the bound into a measurement."
        )
    else:
        found = _(
            "{head} That bound is below {span}, so it does not rule the range out. "
            "Only if the GPU's step stayed at its {rows}-row time up to "
            "{bound:,.0f} rows (likely for so small a network, but not measured) "
            "would it pay off right there; a GPU curve (this machine's, or a "
            "reference measured on a GPU) turns the bound into a measurement."
        )
    return found.format(head=head, span=span, rows=rows, bound=bound)


def support_note(name: str, found: Support, *, points: int, here: bool = False) -> str | None:
    """What a measured curve (``name``, of ``points`` points, :func:`helpers.crossover.support`)
    cannot support: points timed in a single block (no spread measured) and falls with more rows
    (more work cannot take less time), and how to get better points (``here``: measured on this
    machine, else from a receipt). ``None`` when it supports a reading."""
    parts = []
    if found.single:
        parts.append(
            ngettext(
                "{n} of its {points} points was timed in a single block, so its spread is "
                "not measured",
                "{n} of its {points} points were timed in a single block, so their spread is "
                "not measured",
                len(found.single),
            ).format(n=len(found.single), points=points)
        )
    if found.falls:
        shown = [found.falls[0]] + ([found.falls[-1]] if len(found.falls) > 1 else [])
        falls = _("; ").join(
            _("{before_ms:.2f} ms at {before:,.0f} rows, {after_ms:.2f} ms at {after:,.0f}").format(
                before_ms=t1 * 1e3, before=n1, after_ms=t2 * 1e3, after=n2
            )
            for n1, t1, n2, t2 in shown
        )
        parts.append(
            _("it is not monotonic ({falls}): more work cannot take less time").format(falls=falls)
        )
    if not parts:
        return None
    if here:
        remedy = _(
            "Where exactly it crosses another curve, these points cannot say: run the sweep "
            "again on a quieter machine, or with more blocks per point (`day06_min_blocks`)."
        )
    else:
        remedy = _(
            "Where exactly it crosses another curve, these points cannot say; a receipt made "
            "now (`python -m helpers receipt`) times every point in several blocks."
        )
    return _("**{name}**: {parts}. {remedy}").format(
        name=name, parts=_("; ").join(parts), remedy=remedy
    )


# --- Section 4: the ImageNet estimate -------------------------------------------------------------

WEEK_HOURS = 7 * 24
"""Hours in a week."""
WEEKS = (1, 8)
"""What "weeks" can mean: from one week up to eight (about two months); a training shorter than
that takes days, a longer one months or years."""
YEAR_WEEKS = 52
"""Weeks in a year, where "months" turns into "a year or more"."""


def estimate_label(where: str, *, dtype: str | None = None, gpu: str | None = None) -> str:
    """A row of day 6's ImageNet estimate: which machine, at which arithmetic rate, loading on
    whose cores. ``where``: ``"cpu"`` (this machine's CPU, float32 at the sweep's best step),
    ``"gpu"`` (this machine's GPU) or ``"receipt"`` (``gpu``, a receipt's label), both at a
    matrix product's peak in ``dtype``, autocast's 16-bit type there (``None``: not measured)."""
    if where == "cpu":
        return _("this machine's CPU: float32 at the sweep's best step, loading on its cores")
    rate = (
        _("{dtype} matrix product's peak (so the hours are a lower bound)").format(dtype=dtype)
        if dtype
        else _("its 16-bit rate not measured")
    )
    if where == "gpu":
        return _("this machine's GPU: {rate}, loading on this machine's cores").format(rate=rate)
    return _("{gpu}: {rate}, loading on its host's cores").format(gpu=gpu, rate=rate)


def weeks_verdict(hours: float) -> str:
    """The original lesson's "training on ImageNet takes weeks on a CPU", read against the
    lesson's own estimate for this machine's CPU (``hours``; :data:`WEEKS`).

    >>> weeks_verdict(9626).split(": ")[1]
    'not weeks but more than a year, 7.2 times the 8 weeks that "weeks" can stretch to.'
    """
    weeks = hours / WEEK_HOURS
    low, high = WEEKS
    head = _(
        'The original lesson said training on ImageNet takes "weeks" on a CPU. Its own estimate '
        "for this machine's CPU is {hours:,.0f} hours, {weeks:,.1f} weeks"
    ).format(hours=hours, weeks=weeks)
    if weeks < low:
        return _("{head}: days, not weeks: the claim overstates it here.").format(head=head)
    if weeks <= high:
        return _('{head}: "weeks" holds here.').format(head=head)
    if weeks < YEAR_WEEKS:
        found = _('not weeks but months, {times:.1f} times the {high} weeks that "weeks" can '
                  "stretch to.")  # fmt: skip
    else:
        found = _('not weeks but more than a year, {times:.1f} times the {high} weeks that "weeks" '
                  "can stretch to.")  # fmt: skip
    return _("{head}: {found}").format(head=head, found=found.format(times=weeks / high, high=high))
