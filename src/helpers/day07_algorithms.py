"""Day 7 · Why is my GPU utilisation low? Sections 4 to 6: algorithm design, many models per
launch, the article's claims

What a habit costs against its fix (section 4), how far batching many small models into one
launch goes (section 5), and what tuning the learning rate changes (section 6), in the course's
language. The numbers come from :mod:`helpers.utilisation` and :mod:`helpers.many_models`, which
only compute; the thresholds are the constants below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from helpers import narration
from helpers.i18n import N_, _, word
from helpers.many_models import Sharing
from helpers.utilisation import HabitCost

if TYPE_CHECKING:
    from helpers.stats import Difference, Gain


# --- Section 4: algorithm design -----------------------------------------------------------------


def cost_verdict(habit: str, cost: HabitCost) -> str:
    """What a habit costs against its fix (:func:`helpers.utilisation.habit_cost`): the median
    of the rounds' ratios, and whether the paired difference tells the habit's extra time from
    zero (a habit faster than its fix is an ordering or cache effect, not a saving).

    >>> from helpers.utilisation import habit_cost
    >>> fix = [0.51e-3, 0.50e-3, 0.52e-3, 0.50e-3]
    >>> text = cost_verdict("a Python loop", habit_cost([30.2e-3, 29.5e-3, 31.0e-3, 30.4e-3], fix))
    >>> text.split("; ")[0], text.split(": ")[-1]
    ("a Python loop takes 59× its fix's time (median of 4 rounds' ratios)", 'the interval \
excludes zero, so a real cost.')
    """
    ratio, difference = cost.ratio, cost.difference
    times = f"{ratio:,.0f}×" if ratio >= 10 else f"{ratio:.2f}×"  # whole times from 10× up
    said = _(
        "{habit} takes {times} its fix's time (median of {n} rounds' ratios); "
        "habit minus fix: {difference}: {zero}"
    ).format(
        habit=habit,
        times=times,
        n=cost.rounds,
        difference=narration.interval(difference, 1e3, " ms", 3),
        zero=narration.zero(difference),
    )
    if not difference.distinguishable:
        return _("{said}; no cost shows above these rounds' noise.").format(said=said)
    if difference.value > 0:
        return _("{said}, so a real cost.").format(said=said)
    return _(
        "{said}, but the habit was the faster one: no habit saves time by "
        "costing more, so look for an ordering or cache effect in the rounds."
    ).format(said=said)


# --- Section 5: many models per launch -----------------------------------------------------------

SHARED_FIXED_PART = 4
"""A batched step whose time grew less than a quarter as much as its arithmetic (from few copies
to many) was mostly its fixed part, and the copies shared it."""
GREW_WITH_WORK = 0.8
"""One whose time grew more than this share as much as its arithmetic grew with it: stacking
shared little. In between, part was shared and part grew."""


def batching_verdict(k: int, gain: Gain) -> str:
    """What one batched step for ``k`` copies bought against the lesson loop training them one
    after another (:func:`helpers.many_models.batching_gain`): the ratio, and whether its 95 %
    interval excludes 1.

    >>> from helpers.many_models import batching_gain
    >>> print(batching_verdict(64, batching_gain([1.31, 1.25, 1.40], [0.105, 0.098, 0.110])))
    64 models: one batched step trained them 12.7× as fast as the lesson loop one after \
another (geometric mean of 3 rounds' ratios, 95% interval 12.3× to 13.0×): batching pays.
    """
    head = (
        _(
            "{k} models: one batched step trained them {ratio:.1f}× as fast as the "
            "lesson loop one after another (geometric mean of {n} rounds' ratios, "
            "95% interval {low:.1f}× to {high:.1f}×)"
        )
        if k > 1
        else _(
            "{k} model: one batched step trained it {ratio:.1f}× as fast as the "
            "lesson loop (geometric mean of {n} rounds' ratios, 95% interval "
            "{low:.1f}× to {high:.1f}×)"
        )
    ).format(k=k, ratio=gain.ratio, n=gain.rounds, low=gain.low, high=gain.high)
    if not gain.distinguishable:
        return _(
            "{head}: the interval holds 1×, so no difference these rounds can tell from noise."
        ).format(head=head)
    if gain.ratio > 1:
        return _("{head}: batching pays.").format(head=head)
    return _(
        "{head}: the batched step is slower here (its own overhead, vmap's "
        "bookkeeping, outweighs what it shares)."
    ).format(head=head)


def sharing_verdict(found: Sharing) -> str:
    """How one batched step's time grew with the copies (:func:`helpers.many_models.sharing`):
    far slower than the arithmetic (the fixed part dominates, and the copies share it,
    :data:`SHARED_FIXED_PART`), about as fast (the arithmetic dominates: stacking shares little,
    :data:`GREW_WITH_WORK`), or in between.

    >>> from helpers.many_models import sharing
    >>> sharing_verdict(sharing(1, 64, 0.010, 0.022)).split(": ")[-1]
    'the step was mostly its fixed part, and the copies shared it.'
    """
    grew, work = found.grew, found.work
    head = _(
        "One batched step for {many} copies took {grew:.1f}× the time of one "
        "for {few} (medians), for {work:g}× the arithmetic"
    ).format(many=found.many, grew=grew, few=found.few, work=work)
    if grew < work / SHARED_FIXED_PART:
        return _("{head}: the step was mostly its fixed part, and the copies shared it.").format(
            head=head
        )
    if grew > GREW_WITH_WORK * work:
        return _(
            "{head}: the time grew with the arithmetic, so stacking shared little here."
        ).format(head=head)
    return _("{head}: part of the step was shared, part grew with the copies.").format(head=head)


# --- Section 6: the article's claims, against the measurements -----------------------------------


SAME_TIME = 0.1
"""Two settings take *the same time* when the 95 % interval of their difference lies within this
share (10 %) of the time either way: a difference that small changes no conclusion about how busy
a step keeps the device. An interval that includes zero but is wider cannot tell."""


def tuning_verdict(
    epochs: dict[str, int | None], per_run: Difference, *, baseline_s: float, timed_epochs: int
) -> str:
    """What tuning a hyperparameter changed: the epochs two settings needed to reach a loss
    (``None`` when not reached) and, from ``per_run`` (a :class:`helpers.stats.Difference` of the
    seconds per run of ``timed_epochs`` epochs, the first setting minus the second, whose median
    run took ``baseline_s``), whether the time per epoch changed: measurably, the same within
    :data:`SAME_TIME`, or not told by these runs. Times in milliseconds, as the lesson's table.

    >>> from helpers.stats import paired_difference
    >>> same = paired_difference([1.0, 1.1, 0.9], [1.05, 1.0, 1.0])
    >>> text = tuning_verdict({"lr 0.1": 200, "lr 0.01": 2000}, same, baseline_s=1.0,
    ...                       timed_epochs=300)
    >>> text[:62]
    'lr 0.1 needed 200 epochs and lr 0.01 2000: 10.0x fewer epochs;'
    >>> text.split("; ")[1][:38]
    'these 3 runs cannot tell whether the t'
    """
    (a, ea), (b, eb) = epochs.items()
    a, b = word(a), word(b)
    if ea is None or eb is None:
        reached = [name for name, e in epochs.items() if e is not None]
        if reached:
            steps = _("only {name} reached the target").format(name=word(reached[0]))
        else:
            steps = _("neither reached the target")
    elif ea == eb:
        steps = _("{a} and {b} needed the same {epochs} epochs").format(a=a, b=b, epochs=ea)
    else:
        factor = max(ea, eb) / max(min(ea, eb), 1)
        if ea < eb:
            steps = _("{a} needed {ea} epochs and {b} {eb}: {factor:.1f}x fewer epochs")
        else:
            steps = _("{a} needed {ea} epochs and {b} {eb}: {factor:.1f}x more epochs")
        steps = steps.format(a=a, ea=ea, b=b, eb=eb, factor=factor)
    said = {
        "steps": steps,
        "a": a,
        "b": b,
        "n": per_run.n,
        "epochs": timed_epochs,
        "difference": narration.interval(per_run, 1e3, " ms", 2),
        "base_ms": baseline_s * 1e3,
        "margin": SAME_TIME,
    }
    if per_run.distinguishable:
        return _(
            "{steps}; the time per {epochs} epochs differed too, measurably: {a} minus {b} is "
            "{difference} over {n} runs, next to {base_ms:.1f} ms."
        ).format(**said)
    widest = max(abs(per_run.low), abs(per_run.high)) / baseline_s
    if widest <= SAME_TIME:
        return _(
            "{steps}; the time per {epochs} epochs was the same within ±{margin:.0%}: {a} "
            "minus {b} is {difference} over {n} runs, next to {base_ms:.1f} ms, so each step "
            "kept the device as busy."
        ).format(**said)
    return _(
        "{steps}; these {n} runs cannot tell whether the time per {epochs} epochs changed: "
        "{a} minus {b} is {difference}, as much as {widest:.0%} of {base_ms:.1f} ms either "
        "way, wider than the ±{margin:.0%} that would call them the same. More runs narrow it."
    ).format(widest=widest, **said)


def tuning_table(
    times_s: dict[str, float], epochs: dict[str, int | None], *, timed_epochs: int, target: float
):
    """The settings' median time per ``timed_epochs`` epochs (milliseconds) and the epochs each
    needed to reach a loss below ``target`` (a whole number, or "not reached"), as the lesson
    shows them (:func:`helpers.show.localised`)."""
    import pandas as pd

    from helpers.show import localised

    ms_per = f"ms per {timed_epochs} epochs"  # names kept English in the data (word() shows them)
    reached = f"epochs to loss < {target}"
    frame = pd.DataFrame(
        {ms_per: {k: v * 1e3 for k, v in times_s.items()}, reached: pd.Series(epochs, dtype=float)}
    ).rename_axis(N_("setting"))

    def whole(value) -> str:
        return _("not reached") if value is None or value != value else f"{int(value):,}"

    return localised(frame, {ms_per: "{:.1f}", reached: whole})
