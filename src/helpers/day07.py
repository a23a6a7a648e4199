"""Day 7 · Why is my GPU utilisation low? Sections 1 to 3: busy, data loading, memory

What the measurements of ``notebooks/day07_gpu_utilization.ipynb`` mean, in the course's
language, for three ways to say "busy" (section 1), data loading (section 2) and memory (section
3), and a receipt's figures beside this machine's; sections 4 to 6 speak in
:mod:`helpers.day07_algorithms`.

The numbers come from modules that only compute: the utilisation meter, a step's busy share and
MFU from :mod:`helpers.utilisation`, peak memory, out-of-memory attempts and the 16-bit type from
:mod:`helpers.memory`. The rules that turn them into words are here, with their thresholds as the
constants below; a sentence with no decision in it is written in the lesson's cell that prints it.

>>> busy_verdict("the lesson's loop", busy=0.9, mfu=0.002, kind="kernel").split(": ")[-1]
'busy, yet the arithmetic units mostly idle (each small operation pays its overhead).'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from helpers import receipts
from helpers.copies import POOL_BYTES
from helpers.i18n import N_, _, word
from helpers.memory import BFLOAT16_TENSOR_CORES, FLOAT16_TENSOR_CORES, Attempt, Autocast
from helpers.narration import (
    Beside,
    copy_rate,
    gigabytes,
    heading,
    here,
    receipt_label,
    size_text,
)
from helpers.receipts import Shelf

if TYPE_CHECKING:
    import torch

    from helpers.stats import Gain


NAMES = (
    N_("loader"),
    N_("loader settings"),
    N_("times faster"),
    N_("peak extra memory (MB)"),
    N_("rows per second"),
    N_("precision"),
    N_("times less"),
    N_("steps, no sync"),
    N_("steps, .item() every step"),
    N_("steps, if loss < ... every step"),
    N_("sum of 512 rows in a Python loop"),
    N_("sum of 512 rows, vectorised"),
    N_("model on each row in a loop"),
    N_("model on all rows at once"),
    N_("habits"),
    N_("fix"),
    N_("habit"),
    N_("habit costs (× the fix's time)"),
    N_("times slower"),
    N_("the 8 stacked copies and the 8 trained alone"),
    N_("models per launch"),
    N_("copies K"),
    N_("lesson loop (model-epochs/s)"),
    N_("one batched step (model-epochs/s)"),
    N_("batched ÷ lesson loop (median ratio)"),
    N_("times"),
    N_("full width"),
    N_("widths"),
    N_("half width"),
    N_("weights in float32 (MB)"),
    N_("weights in bfloat16 (MB)"),
    N_("learning rates"),
    N_("setting"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""


def _figure(key: str, value: float | None) -> str:
    """A day-7 figure: the busy share in whole percent, MFU with two significant digits."""
    if value is None:
        return _("not measured")
    return f"{value:.0%}" if key == "device busy share" else f"{value * 100:.2g}%"


def beside_receipt(
    figures: dict[str, dict],
    peak: float,
    device_type: str,
    bandwidth: float | None = None,
    found: Shelf | None = None,
    *,
    copied: int = POOL_BYTES,
    threads: int | None = None,
) -> Beside:
    """Day 7: the busy share and MFU of each workload, the peak FLOP/s and the copy bandwidths,
    here (``figures`` from ``step_utilisation``, ``peak``, ``bandwidth`` when measured: a copy of
    ``copied`` bytes within the device with ``threads`` threads) and on the receipt's device (its
    copy within the device, day 2's largest). Bandwidths count read + write within one memory and
    each byte once across the bus (:mod:`helpers.copies`). A receipt whose step figures were
    timed one step at a time (before :func:`helpers.profiling.step_profile`) is named so."""
    found = receipts.load_all() if found is None else found
    receipt = found.pick()
    if receipt is None:
        return Beside(heading(found, None))
    rows, ours, theirs = [], [], []
    for name in dict.fromkeys([*figures, *receipt["day07"]]):
        for key in (N_("device busy share"), N_("MFU")):
            rows.append(_("{label}: {value}").format(label=word(name), value=word(key)))
            ours.append(_figure(key, figures.get(name, {}).get(key)))
            theirs.append(_figure(key, receipt["day07"].get(name, {}).get(key)))
    roofs, copies = receipt["roofs"], receipt["copies"]
    rows += [
        _("peak FLOP/s (a large matrix product)"),
        _("memory bandwidth (a copy within the device, read + write)"),
        _("host to device copy, pinned memory (each byte once)"),
    ]
    ours += [
        f"{peak / 1e12:,.3f} TFLOP/s",
        copy_rate(bandwidth, copied, threads),
        _("not measured"),
    ]
    theirs += [
        f"{roofs['peak_flops'] / 1e12:,.3f} TFLOP/s",
        copy_rate(copies["on_device"], copies["bytes"]),
        gigabytes(copies["h2d_pinned"]),
    ]
    table = pd.DataFrame({here(device_type): ours, receipt_label(receipt): theirs}, index=rows)
    notes = [heading(found, receipt)]
    alone = [n for n, f in receipt["day07"].items() if "steps per timed block" not in f]
    if alone:
        notes.append(
            _(
                "That receipt timed each step alone and synchronised, so each of its steps paid "
                "a round trip to the device: a step in a loop takes less, and its MFU reads "
                "low. `python -m helpers receipt` now times steps back to back, as day 5 times "
                "its loop (`helpers.profiling.step_profile`)."
            )
        )
    return Beside("\n\n".join(notes), table)


def bandwidths_note(rate: float, *, threads: int, copied: int = POOL_BYTES) -> str:
    """How this machine's bandwidth here (``rate``: a copy of ``copied`` bytes within its memory,
    ``threads`` threads) stands to the other days' figures: one convention (read + write,
    :mod:`helpers.copies`), and what differs between them (the size, the threads)."""
    return _(
        "This machine's copy within its memory here: {rate}, {size} with {threads} thread(s), "
        "counted read + write like every bandwidth in the course (day 2 says why). Day 2's "
        "largest `copy_` is the same copy; day 5's roofs copy each workload's own size with "
        "the loop's one thread: a copy that fits in the cache, or one on fewer threads, gives "
        "another figure for the same memory, and its label says which."
    ).format(rate=gigabytes(rate), size=size_text(copied), threads=threads)


# --- Section 1: three ways to say "busy" --------------------------------------------------------

MOSTLY_OVERHEAD = 0.5
"""A device busy less than this share of a step's time spends most of it between operations
(Python, dispatch, launches): the step is overhead, whatever its arithmetic."""
IDLE_ARITHMETIC = 0.05
"""A busy device whose model FLOP utilisation stays below this share of the peak keeps its
arithmetic units mostly idle: each small operation pays its overhead (busy is not efficient)."""


def busy_verdict(name: str, *, busy: float, mfu: float, kind: str) -> str:
    """Two utilisation figures of ``name`` side by side (from
    :func:`helpers.utilisation.step_utilisation`), and what they say together
    (:data:`MOSTLY_OVERHEAD`, :data:`IDLE_ARITHMETIC`).

    ``busy`` is the share of the time ``kind`` events filled (``"kernel"``: GPU kernels running,
    what ``nvidia-smi`` counts; ``"operator"``: a CPU computing inside operators), ``mfu`` the
    model FLOP utilisation (achieved FLOP/s over the peak measured on this device; practitioners
    usually divide by the spec sheet's peak, which is higher, so theirs reads lower). An MFU
    above 1 is above the peak, which a step cannot be.
    """
    if kind == "kernel":
        head = _(
            "{name}: kernels were running {busy:.0%} of the time, arithmetic at "
            "{mfu:.2%} of the measured peak"
        )
    else:
        head = _(
            "{name}: operators were computing {busy:.0%} of the time, arithmetic "
            "at {mfu:.2%} of the measured peak"
        )
    head = head.format(name=word(name), busy=busy, mfu=mfu)
    if mfu > 1:
        return _(
            "{head}: above the peak, which a step cannot be: the peak's "
            "measurement was slowed (a busy machine). Re-run both."
        ).format(head=head)
    if busy < MOSTLY_OVERHEAD:
        return _(
            "{head}: mostly overhead between the operations (Python, dispatch, launches)."
        ).format(head=head)
    if mfu < IDLE_ARITHMETIC:
        return _(
            "{head}: busy, yet the arithmetic units mostly idle (each small "
            "operation pays its overhead)."
        ).format(head=head)
    return _("{head}: busy, and much of that time is real arithmetic.").format(head=head)


# --- Section 2: data loading --------------------------------------------------------------------

BUSY_ROSE = 0.2
"""A step share that rose by this much or more (20 points) changed how the loop spends its time;
whether the loop got faster is a separate question, answered by the epoch's time."""


def gain_text(gain: Gain) -> str:
    """A speed-up with its interval, ``'1.15× (95% interval 0.91× to 1.45×, 3 rounds)'``.

    >>> from helpers.stats import paired_ratio
    >>> gain_text(paired_ratio([1.31, 1.25, 1.40], [0.105, 0.098, 0.110]))
    '12.65× (95% interval 12.28× to 13.04×, 3 rounds)'
    """
    return _("{ratio:.2f}× (95% interval {low:.2f}× to {high:.2f}×, {n} rounds)").format(
        ratio=gain.ratio, low=gain.low, high=gain.high, n=gain.rounds
    )


def _was(gain: Gain) -> str:
    """Whether ``gain`` says faster, slower, or cannot tell, as a few words."""
    if not gain.distinguishable:
        return _("not measurably faster or slower")
    return _("faster") if gain.ratio > 1 else _("slower")


def workers_finding(
    *, gains: dict[str, Gain], cpus: int, most: int, at_cpus: int, beyond: Gain, kept: Gain
) -> list[str]:
    """What day 7's loader settings did, from interleaved rounds (:meth:`helpers.timing.Comparison.
    gain`): ``gains``, each plain worker count's speed-up over ``num_workers=0`` by the setting's
    name; ``beyond``: ``most`` workers against ``at_cpus`` (as many as the ``cpus`` this process may
    use); ``kept``: workers kept alive between epochs against restarted. A setting is *best* only
    when its interval excludes 1; otherwise the rounds cannot rank it."""
    faster = {name: g for name, g in gains.items() if g.distinguishable and g.ratio > 1}
    if faster:
        best = max(faster, key=lambda name: faster[name].ratio)
        first = _(
            "Best plain worker count: **{best}**: {gain} the speed of `num_workers=0`."
        ).format(best=best, gain=gain_text(faster[best]))
    else:
        top = max(gains, key=lambda name: gains[name].ratio)
        first = _(
            "No worker count was measurably faster than loading in the main process "
            "(`num_workers=0`): the quickest, **{top}**, reached {gain} its speed, and that "
            "interval holds 1×."
        ).format(top=top, gain=gain_text(gains[top]))
    if most == at_cpus:
        why = _("no worker count above that was tried")
    else:
        why = _(
            "{most} workers, more than the CPUs, were {was} than {at_cpus}: {gain} their speed"
        ).format(most=most, was=_was(beyond), at_cpus=at_cpus, gain=gain_text(beyond))
    return [
        first,
        _(
            "This process may use **{cpus} CPUs**, shared by the workers and the training "
            "step; {why}. Workers kept alive between epochs (`persistent_workers`) were {was} "
            "than restarted ones: {gain} their speed."
        ).format(cpus=cpus, why=why, was=_was(kept), gain=gain_text(kept)),
    ]


def busy_not_throughput(name: str, *, before: float, after: float, gain: Gain) -> str | None:
    """The step share of the loader setting ``name`` against ``num_workers=0`` (``before``,
    ``after``: shares of the epoch spent in steps) beside its speed-up ``gain``: when the share
    rose by :data:`BUSY_ROSE` or more, whether the epoch got faster with it. ``None`` when the
    share did not rise that much.

    >>> from helpers.stats import paired_ratio
    >>> same = paired_ratio([1.0, 1.2, 0.9], [1.1, 0.9, 1.0])
    >>> busy_not_throughput("num_workers=4", before=0.14, after=0.86, gain=same)[:60]
    'With **num_workers=4** the step share rose from 14% to 86%, '
    """
    if after - before < BUSY_ROSE:
        return None
    said = {"name": name, "before": before, "after": after, "gain": gain_text(gain)}
    if gain.distinguishable and gain.ratio > 1:
        return _(
            "With **{name}** the step share rose from {before:.0%} to {after:.0%}, and the "
            "epoch ran at {gain} the speed of `num_workers=0`: here the loop was waiting for "
            "data, and the workers took the waiting away."
        ).format(**said)
    return _(
        "With **{name}** the step share rose from {before:.0%} to {after:.0%}, yet the epoch "
        "was {was}: {gain} the speed of `num_workers=0`. **A busier loop is not a faster "
        "one**: the waits shrank and the time in steps grew, since the workers decode on the "
        "cores the step computes on. A utilisation figure says where the time goes, not how "
        "much work gets done."
    ).format(was=_was(gain), **said)


# --- Section 3: memory ---------------------------------------------------------------------------


def autocast_reason(found: Autocast) -> str:
    """Why :func:`helpers.memory.autocast_dtype` chose its type, and a ``GradScaler`` or not:
    on an NVIDIA GPU, which tensor cores its compute capability has."""
    if found.device_type == "cuda":
        major, minor = found.capability
        cc = f"{major}.{minor}"
        if major >= BFLOAT16_TENSOR_CORES:
            return _("compute capability {cc}: tensor cores run bfloat16 (from 8.0 on)").format(
                cc=cc
            )
        if major >= FLOAT16_TENSOR_CORES:
            return _(
                "compute capability {cc}: tensor cores run float16 but not bfloat16 "
                "(that needs 8.0), and float16's narrow range needs a GradScaler"
            ).format(cc=cc)
        return _("compute capability {cc}: no tensor cores; float16 only halves memory").format(
            cc=cc
        )
    if found.device_type == "mps":
        return _("Apple GPU: float16, with a GradScaler for its narrow range")
    return _("CPU: bfloat16 (fast only with AVX-512 BF16 or AMX)")


def autocast_choice(device: torch.device | str, found: Autocast) -> str:
    """The 16-bit type the lesson trains in on ``device``, the ``GradScaler`` on or off, and why."""
    if found.needs_scaler:
        said = _("On **{device}**: autocast in **{dtype}**, GradScaler on ({why}).")
    else:
        said = _("On **{device}**: autocast in **{dtype}**, GradScaler off ({why}).")
    dtype = str(found.dtype).removeprefix("torch.")
    return said.format(device=device, dtype=dtype, why=autocast_reason(found))


def accumulation_verdict(whole: float, micro: float, *, parts: int, device_type: str) -> str:
    """Peak memory (bytes, :func:`helpers.memory.peak_memory`) of a backward pass on the whole
    batch against ``parts`` micro-batches, and what the figures can say on this kind of device
    (on a CPU the figure is the process's resident memory, not its live tensors).

    >>> accumulation_verdict(410e6, 120e6, parts=4, device_type="cuda")
    '4 micro-batches needed 3.4× less peak memory than the whole batch (410 MB against 120 MB).'
    """
    sizes = _("{whole_mb:,.0f} MB against {micro_mb:,.0f} MB").format(
        whole_mb=whole / 1e6, micro_mb=micro / 1e6
    )
    if micro < whole:
        return _(
            "{parts} micro-batches needed {ratio:.1f}× less peak memory than the "
            "whole batch ({sizes})."
        ).format(parts=parts, ratio=whole / max(micro, 1), sizes=sizes)
    if device_type == "cuda":
        return _(
            "The micro-batches' peak was no lower ({sizes}): the weights, their "
            "gradients and the optimizer's state, not the activations, set the "
            "peak at this batch size."
        ).format(sizes=sizes)
    return _(
        "The micro-batches' peak read no lower ({sizes}). On a CPU the figure "
        "is the process's resident memory, not its live tensors: the C "
        "allocator keeps some freed blocks for reuse and hands others back, so "
        "the figure follows the allocator's habits as much as the activations. "
        "CUDA counts live tensors, and there the smaller activations show."
    ).format(sizes=sizes)


def attempt_line(tried: Attempt) -> str:
    """One try of :func:`helpers.memory.largest_batch_that_fits`: it fitted, or ran out of memory.

    >>> attempt_line(Attempt(128, "OutOfMemoryError")), attempt_line(Attempt(64))
    ('batch 128: out of memory (OutOfMemoryError)', 'batch 64: fits')
    """
    if tried.error is None:
        return _("batch {batch}: fits").format(batch=tried.batch)
    return _("batch {batch}: out of memory ({error})").format(batch=tried.batch, error=tried.error)
