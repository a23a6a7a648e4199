"""A receipt's figures beside this machine's (days 1, 2, 6, 7 and 8; day 5's are in
:mod:`helpers.receipt_claims`, day 6's curves come from :func:`helpers.takeoff.load_reference`).

Each ``dayNN`` function takes what the lesson measured here and a :class:`helpers.receipts.Shelf`
(by default the learner's receipts, or the course's reference) and returns a :class:`Beside`: a
sentence and a table, every column labelled with the machine and the date it was measured on. With
no receipt at all the sentence says how to make one, and the table is ``None``: the lesson carries
on. A notebook cell is one line::

    beside.show(beside.day01(hardware.card()))
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from helpers import receipts
from helpers.i18n import N_, _, word
from helpers.receipts import Receipt, Shelf


@dataclass(frozen=True)
class Beside:
    """What a lesson shows: Markdown sentences, and a table (``None`` without a receipt)."""

    text: str
    table: pd.DataFrame | None = None


def show(found: Beside) -> None:
    """Show ``found`` in a notebook: its sentences, then its table."""
    from IPython.display import display

    from helpers.show import say

    say(found.text)
    if found.table is not None:
        display(found.table)


def receipt_label(receipt: Receipt) -> str:
    """The column's name: the device, the date, and whose receipt it is."""
    whose = (
        _("{machine}, {day} (the course's reference, not yours)")
        if receipt.reference
        else _("{machine}, {day} (your receipt)")
    )
    return whose.format(machine=receipt.name, day=receipt.day)


def here(device_type: str) -> str:
    """This machine's column."""
    return _("this machine ({device}), now").format(device=device_type)


def heading(found: Shelf, receipt: Receipt | None, missing: str | None = None) -> str:
    """The broken files skipped, then where the figures come from (or how to make a receipt)."""
    lines = [_("Skipped a broken receipt: {problem}").format(problem=p) for p in found.broken]
    if receipt is None:
        lines.append(
            (
                missing
                or _(
                    "No receipt of a GPU here yet, so only this machine's figures are "
                    "shown. On a rented GPU (Colab, Kaggle, a GPU platform) run `python -m "
                    "helpers receipt --out my-gpu.json`, copy the file into `{folder}`, "
                    "and run this cell again."
                )
            ).format(folder=receipts.folder())
        )
    else:
        whose = (
            _(
                "Beside this machine: **{label}**, from `{file}`: measured by the "
                "course, not by you. Your own receipts go in the `receipts/` folder "
                "and replace it."
            )
            if receipt.reference
            else _("Beside this machine: **{label}**, from `{file}`.")
        )
        lines.append(whose.format(label=receipt_label(receipt), file=receipt.path.name))
    return "\n\n".join(lines)


def shelf() -> Shelf:
    """The learner's receipts, else the course's reference (:func:`helpers.receipts.load_all`)."""
    return receipts.load_all()


def or_load(found: Shelf | None) -> Shelf:
    """``found``, or the receipts :func:`shelf` reads when it is ``None``."""
    return shelf() if found is None else found


def day06(found: Shelf | None = None) -> Beside:
    """Day 6: where the GPU's curve comes from (a receipt of a GPU; a CPU's does not count), or
    how to make one."""
    found = or_load(found)
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


def gigabytes(rate: float | None) -> str:
    return _("not measured") if rate is None else f"{rate / 1e9:,.1f} GB/s"


def microseconds(seconds: float | None) -> str:
    return _("not measured") if seconds is None else f"{seconds * 1e6:,.1f} µs"


def day01(card: dict, found: Shelf | None = None) -> Beside:
    """Day 1: the card of every receipt's device beside this machine's (``hardware.card()``)."""
    found = or_load(found)
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
    heads = [heading(found, first)] + [
        _("Also: **{label}**, from `{file}`.").format(label=receipt_label(r), file=r.path.name)
        for r in ordered[1:]
    ]
    return Beside("\n\n".join(heads), pd.DataFrame(columns, index=rows))


COPY_NAMES = {
    "h2d_pageable": N_("host to device, pageable memory"),
    "h2d_pinned": N_("host to device, pinned memory"),
    "d2h_pageable": N_("device to host, pageable memory"),
    "d2h_pinned": N_("device to host, pinned memory"),
    "on_device": N_("within the device (on a CPU: memory to memory)"),
}
"""A receipt's copy paths, by their key, as the table names them."""
COPY_ROWS = {  # a receipt's key: this machine's copy_ variant that measures the same path
    "h2d_pageable": (N_("pageable -> GPU, copy_"), N_("host -> MPS, copy_")),
    "h2d_pinned": (N_("pinned -> GPU, copy_"),),
    "d2h_pageable": (),
    "d2h_pinned": (),
    "on_device": (N_("CPU memory, copy_ into a buffer"),),
}
"""Day 2's copy variants (``helpers.copies``) by the receipt's copy they stand beside."""


def day02(copies: pd.DataFrame, device_type: str, found: Shelf | None = None) -> Beside:
    """Day 2: the receipt's copy bandwidths (pageable and pinned, each way, and within the device)
    beside the fastest rate each of this machine's ``copy_`` variants reached (day 2's table)."""
    found = or_load(found)
    receipt = found.pick()
    if receipt is None:
        return Beside(heading(found, None))
    best = copies.groupby("variant")["GB/s"].max() * 1e9
    ours = {k: next((best[v] for v in names if v in best), None) for k, names in COPY_ROWS.items()}
    table = pd.DataFrame(
        {
            here(device_type): [gigabytes(ours[k]) for k in COPY_ROWS],
            receipt_label(receipt): [gigabytes(receipt["copies"][k]) for k in COPY_ROWS],
        },
        index=[word(COPY_NAMES[k]) for k in COPY_ROWS],
    )
    rates = [r for r in (receipt["copies"]["h2d_pageable"], receipt["copies"]["h2d_pinned"]) if r]
    notes = [heading(found, receipt)]
    if len(rates) == 2:
        notes.append(
            _(
                "On that device a pinned copy of {size:,} bytes ran {ratio:.1f}× as "
                "fast as a pageable one: a pageable copy goes through a pinned staging "
                "buffer first."
            ).format(ratio=rates[1] / rates[0], size=receipt["copies"]["bytes"])
        )
    return Beside("\n\n".join(notes), table)


def _figure(key: str, value: float | None) -> str:
    """A day-7 figure: the busy share in whole percent, MFU with two significant digits."""
    if value is None:
        return _("not measured")
    return f"{value:.0%}" if key == "device busy share" else f"{value * 100:.2g}%"


def day07(
    figures: dict[str, dict],
    peak: float,
    device_type: str,
    bandwidth: float | None = None,
    found: Shelf | None = None,
) -> Beside:
    """Day 7: the busy share and MFU of each workload, the peak FLOP/s and the copy bandwidths,
    here (``figures`` from ``step_utilisation``, ``peak``, ``bandwidth`` when measured) and on the
    receipt's device."""
    found = or_load(found)
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
        _("memory bandwidth (a large copy within the device)"),
        _("host to device copy, pinned memory"),
    ]
    ours += [f"{peak / 1e12:,.3f} TFLOP/s", gigabytes(bandwidth), _("not measured")]
    theirs += [
        f"{roofs['peak_flops'] / 1e12:,.3f} TFLOP/s",
        gigabytes(roofs["bandwidth_bytes_per_s"]),
        gigabytes(copies["h2d_pinned"]),
    ]
    table = pd.DataFrame({here(device_type): ours, receipt_label(receipt): theirs}, index=rows)
    return Beside(heading(found, receipt), table)


def day08(fitted: dict[str, float | None], found: Shelf | None = None) -> Beside:
    """Day 8: a receipt's all-reduce bandwidth over its GPUs, size by size, beside the bandwidth
    fitted here (``fitted``: bytes/s by name, e.g. ``{"all_reduce (gloo)": 2.1e9}``)."""
    found = or_load(found)
    receipt = found.pick(gpus=2)
    if receipt is None or receipt["allreduce"] is None:
        return Beside(
            heading(
                found,
                None,
                _(
                    "No receipt of two or more GPUs here, so no all-reduce over a real "
                    "link to show. On a machine with several GPUs run `python -m helpers "
                    "receipt --out my-gpus.json` and copy the file into `{folder}`."
                ),
            )
        )
    ring = receipt["allreduce"]
    column = _("all-reduce bus bandwidth, {gpus} GPUs: {label}").format(
        label=receipt_label(receipt), gpus=ring["gpus"]
    )
    table = pd.DataFrame(
        {column: [gigabytes(p["bus_bytes_per_s"]) for p in ring["points"]]},
        index=[_("{n:,} bytes").format(n=p["bytes"]) for p in ring["points"]],
    )
    best = max(p["bus_bytes_per_s"] for p in ring["points"])
    notes = [heading(found, receipt)]
    for name, rate in fitted.items():
        if rate:
            notes.append(_(
"**{method}** here: {here} fitted; the receipt's GPUs reached {there}, "
"{ratio:,.0f}× as much."
).format(method=name, here=gigabytes(rate), there=gigabytes(best), ratio=best / rate))  # fmt: skip
    return Beside("\n\n".join(notes), table)
