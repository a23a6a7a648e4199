"""Day 1 · Know your hardware

What the measurements of
``notebooks/day01_hardware.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

import pandas as pd

from helpers import receipts
from helpers.i18n import N_, _
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
