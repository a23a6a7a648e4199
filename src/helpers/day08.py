"""Day 8 · When one device is not enough

What the measurements of
``notebooks/day08_distributed.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

import pandas as pd

from helpers import receipts
from helpers.i18n import N_, _
from helpers.narration import Beside, gigabytes, heading, receipt_label
from helpers.receipts import Shelf

NAMES = (
    N_("local rank"),
    N_("world size"),
    N_("process id"),
    N_("processes"),
    N_("tensor (bytes)"),
    N_("sent by each rank (counted)"),
    N_("2(N-1)/N × tensor"),
    N_("largest difference from dist.all_reduce"),
    N_("the ring and all_reduce in every group"),
    N_("sums"),
    N_("the ring and all_reduce"),
    N_("latency, fitted (µs)"),
    N_("95% interval (µs)"),
    N_("bandwidth, fitted (GB/s)"),
    N_("typical miss (share of the time)"),
    N_("default buckets"),
    N_("1 MB buckets"),
    N_("a step with .item()"),
    N_("a step without"),
    N_("wide network, ms per step"),
    N_("wide, strong"),
    N_("wide, weak"),
    N_("small, strong"),
    N_("ms per step, 1 process"),
    N_("speed-up"),
    N_("efficiency"),
    N_("the run that lost a worker and the undisturbed one"),
    N_("GB per GPU"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""


def beside_receipt(fitted: dict[str, float | None], found: Shelf | None = None) -> Beside:
    """Day 8: a receipt's all-reduce bandwidth over its GPUs, size by size, beside the bandwidth
    fitted here (``fitted``: bytes/s by name, e.g. ``{"all_reduce (gloo)": 2.1e9}``)."""
    found = receipts.load_all() if found is None else found
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
            notes.append(
                _(
                    "**{method}** here: {here} fitted; the receipt's GPUs reached {there}, "
                    "{ratio:,.0f}× as much."
                ).format(
                    method=name, here=gigabytes(rate), there=gigabytes(best), ratio=best / rate
                )
            )
    return Beside("\n\n".join(notes), table)
