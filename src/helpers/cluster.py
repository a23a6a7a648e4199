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

from helpers.messages import text, word


def measured_on(card: str, why: str, processes: int, backend: str) -> str:
    """The machine, why this many processes on this backend."""
    return text("cluster.measured_on", card=card, why=why, n=processes, backend=backend)


def collective(total: float) -> str:
    """What every rank got from ``dist.all_reduce`` of ``rank + 1``."""
    return text("cluster.collective", total=total)


def sampler_finding(
    rows: int, ranks: int, per_rank: int, twice: int, distinct: int, changes: bool
) -> str:
    """How ``DistributedSampler`` dealt ``rows`` over ``ranks``, and whether its shuffled order
    changed with the epoch (``set_epoch``)."""
    said = {"rows": rows, "n": ranks, "per_rank": per_rank, "twice": twice, "distinct": distinct}
    return text("cluster.sampler.changes" if changes else "cluster.sampler.same", **said)


def ring_bytes(share: float) -> str:
    """How many times the tensor each of 4 ranks sent, counted."""
    return text("cluster.ring_bytes", share=share)


def buckets_finding(gradient_mb: float, buckets: str, item: str) -> str:
    """The bucket sizes compared on the wide network, ``.item()`` on the small one (verdicts
    from :func:`helpers.scaling.difference_verdict`)."""
    return text("cluster.buckets", mb=gradient_mb, buckets=buckets, item=item)


def command_accepted(parts: Sequence[str], out: str) -> str:
    """The two-machine command, parsed by the script's own parser."""
    return text("cluster.accepted", parts=", ".join(parts), out=out)


def failure_plan(start: int, end: int, fail_at: int, every: int) -> str:
    """The two runs of section 7, and where rank 1 dies."""
    return text("cluster.failure_plan", start=start, end=end, fail_at=fail_at, every=every)


def restarts(attempts: int, resumed_from: int, verdict: str) -> str:
    """How often ``torchrun`` started the workers, where the last attempt resumed, and the
    weights' verdict (:func:`helpers.distributed.same_weights_verdict`)."""
    return text("cluster.restarts", attempts=attempts, resumed=resumed_from, verdict=verdict)


def failure_price(twice: int, killed_s: float, calm_s: float) -> str:
    """Steps computed twice, and the two runs' times."""
    return text("cluster.failure_price", twice=twice, killed_s=killed_s, calm_s=calm_s)


def memory_fits(billions: float, gpus: int, recipe: str, fits: Sequence[str]) -> str:
    """Which ways of sharding fit in 80 GB per GPU, or that none does."""
    said = {"billions": billions, "gpus": gpus, "recipe": word(recipe)}
    if not fits:
        return text("cluster.memory.none", **said)
    return text("cluster.memory", fits=text("joint.items").join(map(word, fits)), **said)


def fsdp_finding(gpus: int | None, local: int = 0, params: int = 0) -> str:
    """FSDP's share of the weights per GPU; ``gpus=None`` where no NVIDIA GPU ran it."""
    if gpus is None:
        return text("cluster.fsdp.not_run")
    return text("cluster.fsdp", gpus=gpus, local=local, params=params, share=local / params)
