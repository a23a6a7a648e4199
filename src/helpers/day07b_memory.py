"""Day 7b · One device, fast. Sections 5 and 6: the memory lab, and the sample

What the memory lab's measurements mean (activation memory predicted and measured, 16-bit
activations, checkpointing's trade, the largest batch that fits a budget, a GPU's allocator) and
what the last training did, in the course's language; sections 1 to 4 speak in
:mod:`helpers.day07b`. The numbers come from :mod:`helpers.activations`; the rules are here, with
their thresholds as constants.

>>> prediction_line(predicted=23_355_908, measured=23_355_908).split(":")[0]
'The shapes predict **23.4 MB**; autograd kept **23.4 MB**'
"""

from __future__ import annotations

import pandas as pd

from helpers.i18n import _, word
from helpers.timing import Measurement

AGREE = 0.01
"""A prediction within this share (1 %) of the measurement accounts for what autograd keeps."""


def prediction_line(*, predicted: int, measured: int) -> str:
    """The shapes' prediction against the hooks' measurement (:data:`AGREE`)."""
    said = {
        "predicted": predicted / 1e6,
        "measured": measured / 1e6,
        "off": abs(predicted - measured) / measured,
    }
    head = _("The shapes predict **{predicted:,.1f} MB**; autograd kept **{measured:,.1f} MB**")
    if predicted == measured:
        return (head + _(": to the byte, so the list of what each operation keeps is the whole "
                         "story.")).format(**said)  # fmt: skip
    if said["off"] <= AGREE:
        return (
            head
            + _(
                ": they agree (within {off:.2%}), so the list of what each "
                "operation keeps is the whole story."
            )
        ).format(**said)
    return (
        head
        + _(
            ": {off:.1%} apart, so something is kept that the list does not count "
            "(or counted that is not kept)."
        )
    ).format(**said)


def largest_part_line(kinds: pd.DataFrame) -> str:
    """Which kind of tensor (a row of :func:`helpers.activations.kinds`) takes the most bytes."""
    row = kinds.loc[kinds["bytes"].idxmax()]
    return _("The largest part is **{tensor}** ({type}): {share:.0%} of the bytes kept.").format(
        tensor=row["tensor"], type=row["type"], share=row["bytes"] / kinds["bytes"].sum()
    )


def half_line(*, full: int, half: int, kind: str, float32_part: int) -> str:
    """What 16-bit autocast did to the bytes kept: ``full`` (float32) against ``half``, and how
    much of ``half`` is still float32 (``float32_part``)."""
    said = {
        "full": full / 1e6,
        "half": half / 1e6,
        "kind": kind,
        "ratio": full / half,
        "float32": float32_part / 1e6,
    }
    return _(
        "With {kind} autocast one step kept **{half:,.1f} MB** instead of {full:,.1f} MB: "
        "{ratio:.2f}× less, not 2×, because {float32:,.1f} MB of it is still float32 "
        "(norms, their inputs, the log-softmax) and the 16-bit copies of the weights are "
        "kept too."
    ).format(**said)


def checkpoint_line(*, plain: int, recompute: int, slowdown: Measurement) -> str:
    """Activation checkpointing's trade: the bytes kept with and without, and the time cost
    (``slowdown``: round-by-round ratios of the checkpointed step's time to the plain one's)."""
    q1, q3 = slowdown.quartiles
    return _(
        "Checkpointing each block kept **{less:.1f}× less** for the backward pass "
        "({plain:,.1f} MB → {recompute:,.1f} MB) and made a training step **{slow:.2f}×** "
        "as long (middle half of the rounds {q1:.2f}× to {q3:.2f}×): the blocks' forward "
        "pass runs twice."
    ).format(
        less=plain / recompute,
        plain=plain / 1e6,
        recompute=recompute / 1e6,
        slow=slowdown.median,
        q1=q1,
        q3=q3,
    )


def budget_line(*, budget: int, batch: int, measured: int, steady: int, recompute: bool) -> str:
    """The largest batch the formula allows in ``budget`` bytes, checked by measuring it:
    ``measured`` bytes kept at that batch, plus ``steady`` (weights, gradients, AdamW)."""
    how = _("with checkpointing") if recompute else _("without checkpointing")
    said = {
        "how": how,
        "budget": budget / 2**20,
        "batch": batch,
        "used": (measured + steady) / 2**20,
    }
    if batch == 0:
        return _("{how}: not even one window fits in {budget:,.0f} MiB.").format(**said)
    if measured + steady <= budget:
        return _(
            "{how}: the largest batch for {budget:,.0f} MiB is **{batch}**; measured at "
            "that batch, the step keeps {used:,.1f} MiB with the weights and AdamW's "
            "state: it fits."
        ).format(**said)
    return _(
        "{how}: the formula allows batch **{batch}** in {budget:,.0f} MiB, but measured "
        "there the step keeps {used:,.1f} MiB: the formula misses something."
    ).format(**said)


def allocator_line(*, peak: int | None, kept: int, snapshot) -> str:
    """On CUDA, the allocator's peak during a step beside the bytes autograd kept, and where the
    memory timeline was written; elsewhere, why neither is measured."""
    if peak is None:
        return _(
            "Not measured here: PyTorch counts a step's peak allocation, and records a "
            "memory timeline, on CUDA only. On a GPU this cell measures both."
        )
    line = _(
        "The allocator's peak during one step: **{peak:,.1f} MB**, of which "
        "{kept:,.1f} MB are the activations kept for backward; the rest are weights, "
        "gradients, AdamW's state and what the backward pass creates as it goes."
    ).format(peak=peak / 1e6, kept=kept / 1e6)
    if snapshot is not None:
        line += " " + _(
            "The memory timeline is in `{path}`: drop it on "
            "https://pytorch.org/memory_viz to see every allocation."
        ).format(path=snapshot)
    return line


# --- Section 6: training, and a sample ----------------------------------------------------------

MARGIN = 0.1
"""A loss this far (nats per character) below the characters' frequency loss
(:func:`helpers.charlm.frequency_loss`) shows the model uses the context; within it, the model
has learned no more than how common each character is."""


def training_line(
    *, start: float, end: float, frequencies: float, steps: int, tokens: int, seconds: float,
    lever: str,
) -> str:  # fmt: skip
    """What the last training did, against ``frequencies``, the loss of a model that knows only
    how common each character is (:data:`MARGIN`)."""
    said = {"start": start, "end": end, "steps": steps, "tokens": tokens, "seconds": seconds,
            "lever": word(lever), "frequencies": frequencies}  # fmt: skip
    head = _(
        "Trained {steps} steps ({tokens:,} characters) in {seconds:.1f} s with the ladder's "
        "last kept rung (**{lever}**): the loss fell from {start:.2f} to **{end:.2f}**"
    )
    if end < frequencies - MARGIN:
        tail = _(
            ", below {frequencies:.2f}, the loss of knowing only how common each character is: "
            "it uses the characters before, and the sample below should show it."
        )
    elif end < start - MARGIN:
        tail = _(
            ", not below {frequencies:.2f}, the loss of knowing only how common each character "
            "is: it has learned which characters are common, not yet what follows what (full "
            "mode trains longer)."
        )
    else:
        tail = _(": it has barely started (full mode trains longer).")
    return (head + tail).format(**said)
