"""What day 8's runs found, in the course's language: one function per finding of the lesson.

Each function takes the numbers a cell of ``day08_distributed.ipynb`` read from its runs and
returns the sentence the lesson shows (:func:`helpers.show.say`), worded in the message catalog
(:mod:`helpers.messages`, keys ``cluster.*``). Where a sentence depends on the numbers (an order
that changed or not, a model that fits or not), the function decides, so the notebook holds no
conclusion written in advance. The verdicts on measurements themselves live beside what they
judge (:mod:`helpers.scaling`, :mod:`helpers.links`, :mod:`helpers.distributed`).

>>> print(memory_fits(70, 8, "mixed precision, Adam", []))
70 billion parameters on 8 GPUs (mixed precision, Adam), activations not included. Fits in \
80 GB (an H100's stated memory): none of these.
"""

from __future__ import annotations

from collections.abc import Sequence

from helpers.i18n import _, word


def measured_on(card: str, why: str, processes: int, backend: str) -> str:
    """The machine, why this many processes on this backend."""
    return _(
        "Measured on: **{card}**. {why} This lesson runs **{n} processes** "
        "with backend **{backend}**."
    ).format(card=card, why=why, n=processes, backend=backend)


def collective(total: float) -> str:
    """What every rank got from ``dist.all_reduce`` of ``rank + 1``."""
    return _(
        "Each process printed its own line. Every rank added `rank + 1` with "
        "`dist.all_reduce` and got **{total:g}**, the same number everywhere: "
        "that is a collective."
    ).format(total=total)


def sampler_finding(
    rows: int, ranks: int, per_rank: int, twice: int, distinct: int, changes: bool
) -> str:
    """How ``DistributedSampler`` dealt ``rows`` over ``ranks``, and whether its shuffled order
    changed with the epoch (``set_epoch``)."""
    said = {"rows": rows, "n": ranks, "per_rank": per_rank, "twice": twice, "distinct": distinct}
    return (
        _(
            "{rows} rows over {n} ranks: each rank gets {per_rank}; {twice} row(s) "
            "are dealt twice per epoch (the padding) and {distinct} of the {rows} "
            "rows at least once. The shuffled order changes with the epoch."
        )
        if changes
        else _(
            "{rows} rows over {n} ranks: each rank gets {per_rank}; {twice} row(s) "
            "are dealt twice per epoch (the padding) and {distinct} of the {rows} "
            "rows at least once. The shuffled order does **not** change with the "
            "epoch."
        )
    ).format(**said)


def ring_bytes(share: float) -> str:
    """How many times the tensor each of 4 ranks sent, counted."""
    return _(
        "Each of 4 ranks sent {share:.2f}× the tensor: the bytes went through "
        "`dist.isend`, counted by `helpers.distributed.count_sends`, not "
        "computed from the formula."
    ).format(share=share)


def buckets_finding(gradient_mb: float, buckets: str, item: str) -> str:
    """The bucket sizes compared on the wide network, ``.item()`` on the small one (verdicts
    from :func:`helpers.scaling.difference_verdict`)."""
    return _(
        "- Wide network ({mb:.1f} MB of gradients): {buckets}\n- Small network: {item}"
    ).format(mb=gradient_mb, buckets=buckets, item=item)


def command_accepted(parts: Sequence[str], out: str) -> str:
    """The two-machine command, parsed by the script's own parser."""
    return _("The script accepts it: part `{parts}`, results in `{out}`.").format(
        parts=", ".join(parts), out=out
    )


def failure_plan(start: int, end: int, fail_at: int, every: int) -> str:
    """The two runs of section 7, and where rank 1 dies."""
    return _(
        "Both runs go from step {start} to step {end}. Rank 1 is killed at "
        "step **{fail_at}**; rank 0 writes a checkpoint every **{every}** "
        "steps."
    ).format(start=start, end=end, fail_at=fail_at, every=every)


def restarts(attempts: int, resumed_from: int, verdict: str) -> str:
    """How often ``torchrun`` started the workers, where the last attempt resumed, and the
    weights' verdict (:func:`helpers.narration.same_weights`)."""
    return _(
        "`torchrun` started the workers {attempts} times; the last attempt "
        "resumed from step {resumed}. {verdict}"
    ).format(attempts=attempts, resumed=resumed_from, verdict=verdict)


def failure_price(twice: int, killed_s: float, calm_s: float) -> str:
    """Steps computed twice, and the two runs' times."""
    return _(
        "The price of the failure: {twice} steps computed twice, and a restart "
        "(the killed run took {killed_s:.0f} s, the undisturbed one "
        "{calm_s:.0f} s, side by side)."
    ).format(twice=twice, killed_s=killed_s, calm_s=calm_s)


def memory_fits(billions: float, gpus: int, recipe: str, fits: Sequence[str]) -> str:
    """Which ways of sharding fit in 80 GB per GPU, or that none does."""
    said = {"billions": billions, "gpus": gpus, "recipe": word(recipe)}
    if not fits:
        return _(
            "{billions:g} billion parameters on {gpus} GPUs ({recipe}), "
            "activations not included. Fits in 80 GB (an H100's stated memory): "
            "none of these."
        ).format(**said)
    return _(
        "{billions:g} billion parameters on {gpus} GPUs ({recipe}), "
        "activations not included. Fits in 80 GB (an H100's stated memory): "
        "{fits}."
    ).format(fits=_(", ").join(map(word, fits)), **said)


def fsdp_finding(gpus: int | None, local: int = 0, params: int = 0) -> str:
    """FSDP's share of the weights per GPU; ``gpus=None`` where no NVIDIA GPU ran it."""
    if gpus is None:
        return _(
            "**Not run here: this cell runs FSDP on NVIDIA GPUs only.** FSDP "
            "shards with all-gather and reduce-scatter; the course runs it on "
            "NCCL, where it is built to run and its memory per GPU is what this "
            "section is about. On a GPU machine it trains the wide network sharded "
            "and shows each GPU's share of the weights."
        )
    return _(
        "FSDP on {gpus} GPU(s): each holds **{local:,}** of the wide network's "
        "{params:,} weights ({share:.0%}); peak memory per rank:"
    ).format(gpus=gpus, local=local, params=params, share=local / params)
