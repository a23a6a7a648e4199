"""Day 1 · Know your hardware

What the measurements of
``notebooks/day01_hardware.ipynb``
mean, in the course's language: how the cores run their threads (:mod:`helpers.topology`), what
GPU was found, why a card is of its tier and what its memory is in both units
(:mod:`helpers.gpu`), what the live view saw (:mod:`helpers.live`), and this machine's card beside
a receipt's.

>>> found_note("none")[0]
'**No GPU here** (no CUDA, ROCm or MPS device): the course runs on the CPU.'
"""

from __future__ import annotations

import pandas as pd

from helpers import receipts
from helpers.gpu import Tier
from helpers.i18n import N_, _
from helpers.live import Summary, reading_name
from helpers.narration import Beside, also, heading, here, receipt_label
from helpers.receipts import Shelf

NAMES = (
    N_("threads"),
    N_("value"),
    N_("physical cores"),
    N_("card"),
    N_("compute capability"),
    N_("why"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""


# ---- the CPU's cores (helpers.topology; section 1) ----------------------------------------------


def smt_sentence(layout: dict[int, int] | None) -> str:
    """One sentence on how many hardware threads the cores run: ``layout`` is
    ``{threads per core: cores}`` (:func:`helpers.topology.threads_per_core`), ``None`` when it
    could not be told.

    >>> smt_sentence({1: 2})
    'Each core runs one hardware thread here, so logical CPUs and cores are the same.'
    """
    if not layout:
        return _("How many hardware threads each core runs could not be read on this machine.")
    if len(layout) > 1:
        parts = [
            _("{cores} run {threads}").format(cores=cores, threads=threads)
            for threads, cores in sorted(layout.items(), reverse=True)
        ]
        joined = _(" and ").join(parts)
        return _(
            "The cores differ: of {cores} cores, {parts} hardware thread(s) each "
            "(a hybrid CPU, such as Intel's performance and efficiency cores), so "
            "logical CPUs divided by cores is not the threads of any one core."
        ).format(cores=sum(layout.values()), parts=joined)
    ((threads, _cores),) = layout.items()
    if threads == 1:
        return _("Each core runs one hardware thread here, so logical CPUs and cores are the same.")
    return _(
        "Each core runs {threads} hardware threads (simultaneous "
        "multithreading, 'hyper-threading'), so {threads} logical CPUs share "
        "one core's arithmetic units."
    ).format(threads=threads)


# ---- the GPU (helpers.gpu; section 3) -----------------------------------------------------------


def found_note(kind: str) -> list[str]:
    """What day 1 says about the GPU it found: ``kind`` is ``'cuda'`` (the table says it all),
    ``'mps'`` or ``'none'``."""
    if kind == "cuda":
        return []
    if kind == "mps":
        return [_("**Apple GPU (MPS)** found:")]
    return [
        _("**No GPU here** (no CUDA, ROCm or MPS device): the course runs on the CPU."),
        _("The table below shows what the same reading says about some well-known cards."),
    ]


def memory_note(total_bytes: int, name: str) -> str:
    """The same memory in both units: GB (10^9 bytes, the tables' unit) and GiB (2^30 bytes).

    >>> note = memory_note(80 * 2**30, "an '80 GB' card")
    >>> "85.9 GB" in note, "80.0 GiB" in note
    (True, True)
    """
    return _(
        "{name}: {n:,} bytes, {gb:.1f} GB (10^9 bytes, the unit of the tables "
        "here) or {gib:.1f} GiB (2^30 bytes)."
    ).format(name=name, n=total_bytes, gb=total_bytes / 1e9, gib=total_bytes / 2**30)


def tier_reason(found: Tier) -> str:
    """Why a card is of its tier (:func:`helpers.gpu.gpu_tier`): the product line its name
    contains, or, for a name the course does not know, its memory against the threshold.

    >>> from helpers.gpu import gpu_tier
    >>> tier_reason(gpu_tier("NVIDIA GeForce RTX 4090", 24))
    "the name contains 'GeForce', a consumer (gaming) line"
    """
    if found.line is None:
        if found.tier == "data centre":  # memory of at least found.threshold_gb
            sentence = _("unknown name; {memory_gb:.0f} GB of memory is data-centre sized")
        else:
            sentence = _("unknown name; {memory_gb:.0f} GB of memory is consumer sized (a guess)")
        return sentence.format(memory_gb=found.memory_gb)
    lines = {
        "data centre": _("the name contains {line!r}, a data-centre product line"),
        "workstation": _("the name contains {line!r}, a workstation line"),
        "consumer": _("the name contains {line!r}, a consumer (gaming) line"),
    }
    return lines[found.tier].format(line=found.line)


def gpu_rows(gpus: list[dict]) -> list[dict]:
    """The GPUs of :func:`helpers.gpu.gpu_info` as day 1 shows them: each ``tier`` by its name,
    followed by ``tier_reason``, why (:func:`tier_reason`)."""
    rows = []
    for gpu in gpus:
        row = {}
        for key, value in gpu.items():
            row[key] = value.tier if isinstance(value, Tier) else value
            if isinstance(value, Tier):
                row["tier_reason"] = tier_reason(value)
        rows.append(row)
    return rows


# ---- what the live view saw (helpers.live; section 5, and day 2) --------------------------------


def live_summary(found: Summary) -> str:
    """A live view's readings in one line: how long, how many, and the peaks
    (:meth:`helpers.live.LiveView.summary`)."""
    parts = [_("{n} readings over {seconds:.1f} s").format(n=found.readings, seconds=found.seconds)]
    for key, value in found.figures.items():
        if key.endswith("_utilization_percent"):
            gpu = key.split("_")[0].upper()
            parts.append(_("{gpu} busy {percent:.0f}% on average").format(gpu=gpu, percent=value))
        else:
            parts.append(_("peak {what} {gb:.2f} GB").format(what=reading_name(key), gb=value))
    parts.append(
        _("process CPU {percent:.0f}% on average (100% = one CPU kept busy)").format(
            percent=found.cpu_percent
        )
    )
    return _("; ").join(parts)


# ---- this machine beside a receipt's (helpers.receipts; section 6) ------------------------------


def beside_receipt(card: dict, found: Shelf | None = None) -> Beside:
    """Day 1: the card of every receipt's device beside this machine's (``hardware.card()``)."""
    found = receipts.load_all() if found is None else found
    if not found.receipts:
        return Beside(heading(found, None))
    rows = [
        _("device"),
        _("memory"),
        _("driver / CUDA"),
        _("PyTorch version"),
        _("host CPU, threads"),
    ]
    columns = {
        here(card["device"]): [
            card.get("gpu") or card["cpu"],
            f"{card.get('gpu_memory_gb') or card['memory_gb']} GB",
            f"{card.get('driver') or '-'} / CUDA {card.get('cuda') or '-'}",
            card["torch"],
            f"{card['cpu']}, {card['torch_threads']}",
        ]
    }
    first = found.pick()
    ordered = [first] + [r for r in found.receipts if r is not first]  # the GPU's first
    for receipt in ordered:
        m = receipt["machine"]
        memory = "-" if m["memory_bytes"] is None else f"{m['memory_bytes'] / 1e9:.1f} GB"
        columns[receipt_label(receipt)] = [
            f"{receipt.name} ({m['device']})",
            memory,
            f"{m['driver'] or '-'} / CUDA {m['cuda'] or '-'}",
            m["torch"],
            f"{m['cpu']}, {m['threads']}",
        ]
    heads = [heading(found, first), *also(ordered[1:])]
    return Beside("\n\n".join(heads), pd.DataFrame(columns, index=rows))
