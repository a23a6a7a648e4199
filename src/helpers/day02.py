"""Day 2 · Moving models and data to a device

What the measurements of
``notebooks/day02_devices.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

import pandas as pd

from helpers import receipts
from helpers.i18n import N_, _, word
from helpers.narration import Beside, gigabytes, heading, here, receipt_label
from helpers.receipts import Shelf

NAMES = (
    N_("size"),
    N_("model.to(target) returns the same module object"),
    N_("the model's parameters are now on the target"),
    N_("x.to(target) returns a new tensor"),
    N_("the new tensor is on the target"),
    N_("the old tensor has not moved"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""


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


def beside_receipt(copies: pd.DataFrame, device_type: str, found: Shelf | None = None) -> Beside:
    """Day 2: the receipt's copy bandwidths (pageable and pinned, each way, and within the device)
    beside the fastest rate each of this machine's ``copy_`` variants reached (day 2's table)."""
    found = receipts.load_all() if found is None else found
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
