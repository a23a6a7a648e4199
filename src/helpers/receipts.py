"""Receipts: what one device measured, kept as a JSON file and read back at home (day 1, section 6;
day 2, section 5; day 5a, section 7; day 6, section 1; day 7, section 1; day 8, section 3).

A learner rents an hour on a GPU, runs ``python -m helpers receipt --out FILE`` there, and copies
the file into the course's ``receipts/`` folder (:func:`folder`; the ``COURSE_RECEIPTS`` setting
names another). Back on a laptop, the lessons put the GPU's figures beside the ones measured now.
Without a receipt of the learner's own, they read the course's reference,
``data/gpu_reference.json`` (same format), and label it as the reference.

The format (``course-receipt/1``, its keys and types in :data:`SECTIONS`): SI numbers only
(seconds, bytes, bytes/s, FLOP/s), ``null`` for what is unknown or does not apply. Receipts
written since day 7b also hold its lever ladder and each number type's peak (``day07b``,
:data:`LADDER`); older receipts lack it and stay valid. :func:`validate`
lists what is wrong with a payload: missing keys, wrong types, and numbers no device produces (a
CUDA launch outside 1 to 100 µs, a copy faster than the bus, FLOP/s above the datasheet).

>>> validate({"schema": "course-receipt/0"})
["schema: 'course-receipt/0' is not course-receipt/1"]
"""

from __future__ import annotations

import datetime
import json
import os
from dataclasses import dataclass
from pathlib import Path

from helpers.paths import GPU_REFERENCE, RECEIPTS

SCHEMA = "course-receipt/1"
"""The format's name and version, the payload's ``schema`` value."""
DEVICES = ("cuda", "mps", "cpu")
MODES = ("full", "fast")
FIX = "re-run `python -m helpers receipt --out FILE` on that machine and copy the new file here"
"""What to do about a broken receipt (every problem's remedy)."""

NUMBER, TEXT, WHOLE, TABLE, ROWS = "number", "text", "whole number", "table", "list"
OPTIONAL = "or null"
SECTIONS = {  # every key a receipt holds, by section, with its type ("or null": may be unknown)
    "": {"schema": TEXT, "date": TEXT, "mode": TEXT, "machine": TABLE, "sync": TABLE,
         "copies": TABLE, "roofs": TABLE, "day05": TABLE, "day06": TABLE, "day07": TABLE,
         "allreduce": f"{TABLE} {OPTIONAL}"},
    "machine": {"device": TEXT, "name": TEXT, "count": WHOLE, "memory_bytes": f"{WHOLE} {OPTIONAL}",
                "driver": f"{TEXT} {OPTIONAL}", "cuda": f"{TEXT} {OPTIONAL}", "torch": TEXT,
                "python": TEXT, "cpu": TEXT, "threads": WHOLE},
    "sync": {"launch_s": NUMBER, "item_s": NUMBER, "graph_node_s": f"{NUMBER} {OPTIONAL}"},
    "copies": {"bytes": WHOLE, "h2d_pageable": f"{NUMBER} {OPTIONAL}",
               "h2d_pinned": f"{NUMBER} {OPTIONAL}", "d2h_pageable": f"{NUMBER} {OPTIONAL}",
               "d2h_pinned": f"{NUMBER} {OPTIONAL}", "on_device": NUMBER},
    "roofs": {"matmul_n": WHOLE, "peak_flops": NUMBER, "bandwidth_bytes_per_s": NUMBER,
              "datasheet_flops": f"{NUMBER} {OPTIONAL}", "bus_bytes_per_s": f"{NUMBER} {OPTIONAL}"},
    "day05": {"epochs": WHOLE, "kernels_per_epoch": NUMBER, "lesson": TEXT, "fastest": TEXT,
              "variants": TABLE},
    "day06": {"points": ROWS},
}  # fmt: skip
"""The required keys and their types, section by section (``""``: the top level)."""

LADDER = {  # day 7b's section: optional (older receipts lack it), checked when present
    "day07b": {"shape": TABLE, "tokens_per_call": WHOLE, "flops_per_token": WHOLE,
               "peaks": TABLE, "datasheet": f"{TABLE} {OPTIONAL}", "rungs": ROWS},
    "rung": {"lever": TEXT, "why_not": f"{TEXT} {OPTIONAL}", "number_type": f"{TEXT} {OPTIONAL}",
             "batch": f"{WHOLE} {OPTIONAL}", "tokens_per_s": f"{NUMBER} {OPTIONAL}",
             "speedup": f"{NUMBER} {OPTIONAL}", "kept": "flag",
             "saved_bytes": f"{WHOLE} {OPTIONAL}", "peak_bytes": f"{WHOLE} {OPTIONAL}"},
}  # fmt: skip
"""Day 7b's keys and types: the section, and each of its rungs."""
PEAK_TYPES = ("fp32", "tf32", "bf16", "fp16")
"""The number types whose matrix-product peaks day 7b records (``helpers.datasheets``)."""

LAUNCH_S = (1e-6, 100e-6)
"""A CUDA kernel launch takes between 1 and 100 µs (a few µs on a healthy machine)."""
MAX_BANDWIDTH = 10e12
"""No copy reaches 10 TB/s (HBM3e: about 5 to 8 TB/s)."""
MAX_FLOPS = 1e16
"""No single device's fp32/tf32 matrix product reaches 10 PFLOP/s."""
WAITING = ("cuda", "mps")
"""Devices whose ``.item()`` waits for the device and copies a number back (on a CPU it reads a
number in memory, and costs less than launching an operator)."""
ITEM_S = (1e-6, 1e-3)
"""On those devices one ``.item()`` is a round trip to the device: between 1 µs and 1 ms. (It is
not bounded by a launch: the copy back can take a cheaper path than an operator's launch, and the
two come out within noise of each other on a fast GPU.)"""
BUS_COPIES = ("h2d_pageable", "h2d_pinned", "d2h_pageable", "d2h_pinned")
"""The copies that cross the bus between host and device (bounded by ``bus_bytes_per_s``)."""


class ReceiptError(ValueError):
    """A receipt that cannot be read: the message names the file, the key and the fix."""


def _is(value, kind: str) -> bool:
    if value is None:
        return kind.endswith(OPTIONAL)
    kind = kind.removesuffix(f" {OPTIONAL}")
    if kind == NUMBER:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == WHOLE:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "flag":
        return isinstance(value, bool)
    return isinstance(value, {TEXT: str, TABLE: dict, ROWS: list}[kind])


def _structure(payload: dict) -> list[str]:
    """Missing keys and wrong types, as ``key: problem`` lines."""
    problems = []
    for section, keys in SECTIONS.items():
        part = payload if not section else payload.get(section)
        if not isinstance(part, dict):
            continue  # reported at the top level
        for key, kind in keys.items():
            where = f"{section}.{key}" if section else key
            if key not in part:
                problems.append(f"{where}: missing (a {kind})")
            elif not _is(part[key], kind):
                problems.append(f"{where}: {part[key]!r} is not a {kind}")
    return problems


def _date(text: str) -> str | None:
    try:
        when = datetime.datetime.fromisoformat(text)
    except ValueError:
        return f"date: {text!r} is not an ISO 8601 date and time"
    return None if when.tzinfo else f"date: {text!r} has no time zone (e.g. +00:00)"


def _sync(machine: dict, sync: dict) -> list[str]:
    problems, launch, item = [], sync["launch_s"], sync["item_s"]
    low, high = LAUNCH_S
    if machine["device"] == "cuda" and not low <= launch <= high:
        problems.append(
            f"sync.launch_s: {launch * 1e6:.3g} µs is outside {low * 1e6:g} to {high * 1e6:g} µs, "
            "where every CUDA launch lies"
        )
    elif launch <= 0:
        problems.append(f"sync.launch_s: {launch!r} is not a positive time")
    if machine["device"] in WAITING and not ITEM_S[0] <= item <= ITEM_S[1]:
        problems.append(
            f"sync.item_s: one .item() ({item * 1e6:.3g} µs) is outside {ITEM_S[0] * 1e6:g} µs "
            f"to {ITEM_S[1] * 1e3:g} ms, where a round trip to a {machine['device']} device lies"
        )
    elif item <= 0:
        problems.append(f"sync.item_s: {item!r} is not a positive time")
    node = sync["graph_node_s"]
    if node is not None and not 0 < node <= high:
        problems.append(f"sync.graph_node_s: {node * 1e6:.3g} µs per node is not plausible")
    return problems


def _bandwidths(copies: dict, roofs: dict) -> list[str]:
    problems, bus = [], roofs["bus_bytes_per_s"]
    for key in (*BUS_COPIES, "on_device"):
        rate = copies[key]
        if rate is None:
            continue
        if not 0 < rate < MAX_BANDWIDTH:
            problems.append(f"copies.{key}: {rate / 1e9:,.4g} GB/s is outside 0 to 10,000 GB/s")
        elif bus and key in BUS_COPIES and rate > bus:
            problems.append(
                f"copies.{key}: {rate / 1e9:,.4g} GB/s is faster than the bus "
                f"({bus / 1e9:,.4g} GB/s)"
            )
    rate = roofs["bandwidth_bytes_per_s"]
    if not 0 < rate < MAX_BANDWIDTH:
        problems.append(
            f"roofs.bandwidth_bytes_per_s: {rate / 1e9:,.4g} GB/s is outside 0 to 10,000 GB/s"
        )
    return problems


def _flops(roofs: dict) -> list[str]:
    peak, sheet = roofs["peak_flops"], roofs["datasheet_flops"]
    if not 0 < peak < MAX_FLOPS:
        return [f"roofs.peak_flops: {peak / 1e12:,.4g} TFLOP/s is outside 0 to 10,000 TFLOP/s"]
    if sheet and peak > sheet:
        return [
            f"roofs.peak_flops: {peak / 1e12:,.4g} TFLOP/s is above the datasheet's "
            f"{sheet / 1e12:,.4g} TFLOP/s"
        ]
    return []


def _lessons(payload: dict) -> list[str]:
    problems, day05 = [], payload["day05"]
    for name, variant in day05["variants"].items():
        for key in ("s_per_epoch", "speedup", "speedup_q1"):  # speedup_q1 may be left out
            value = variant.get(key) if isinstance(variant, dict) else None
            if (value is not None or key != "speedup_q1") and not (
                _is(value, NUMBER) and value > 0
            ):
                problems.append(f"day05.variants[{name!r}].{key}: {value!r} is not positive")
    busy = day05.get("busy_share")  # may be left out
    if busy is not None and not (_is(busy, NUMBER) and 0 <= busy <= 1):
        problems.append(f"day05.busy_share: {busy!r} is not a share between 0 and 1")
    for key in ("lesson", "fastest"):
        if day05[key] not in day05["variants"]:
            problems.append(f"day05.{key}: {day05[key]!r} is not one of day05.variants")
    for i, point in enumerate(payload["day06"]["points"]):
        ok = isinstance(point, dict) and isinstance(point.get("model"), str)
        ok = ok and all(_is(point.get(k), NUMBER) and point[k] > 0 for k in ("rows", "seconds"))
        if not ok:
            problems.append(f"day06.points[{i}]: needs a model, rows > 0 and seconds > 0")
    for name, figures in payload["day07"].items():
        shares = [figures.get(k) for k in ("device busy share", "MFU")]
        if not all(_is(s, NUMBER) and 0 <= s <= 1 for s in shares):
            problems.append(f"day07[{name!r}]: its busy share and MFU must lie between 0 and 1")
    return problems


def _allreduce(payload: dict) -> list[str]:
    ring = payload["allreduce"]
    if ring is None:
        return []
    gpus, points = ring.get("gpus"), ring.get("points")
    if not (_is(gpus, WHOLE) and 2 <= gpus <= payload["machine"]["count"]):
        return [f"allreduce.gpus: {gpus!r} is not between 2 and machine.count"]
    for i, point in enumerate(points if isinstance(points, list) else [None]):
        rate = point.get("bus_bytes_per_s") if isinstance(point, dict) else None
        if not (_is(rate, NUMBER) and 0 < rate < MAX_BANDWIDTH):
            return [f"allreduce.points[{i}].bus_bytes_per_s: {rate!r} is not a plausible rate"]
    return []


def _keys(part: dict, keys: dict, where: str) -> list[str]:
    return [
        f"{where}.{key}: missing (a {kind})" if key not in part
        else f"{where}.{key}: {part[key]!r} is not a {kind}"
        for key, kind in keys.items() if key not in part or not _is(part[key], kind)
    ]  # fmt: skip


def _ladder(payload: dict) -> list[str]:
    """Day 7b's section, when there is one: its keys and types, every peak a plausible rate and
    none above the datasheet's for its type, every rung's speed positive."""
    ladder = payload.get("day07b")
    if ladder is None:
        return []
    if not isinstance(ladder, dict):
        return [f"day07b: {ladder!r} is not a table"]
    problems = _keys(ladder, LADDER["day07b"], "day07b")
    if problems:
        return problems
    peaks, sheet = ladder["peaks"], ladder["datasheet"] or {}
    for kind in PEAK_TYPES:
        peak, ceiling = peaks.get(kind), sheet.get(kind)
        if peak is None and kind != "fp32":
            continue
        if not (_is(peak, NUMBER) and 0 < peak < MAX_FLOPS):
            problems.append(f"day07b.peaks.{kind}: {peak!r} is not a plausible FLOP/s")
        elif _is(ceiling, NUMBER) and peak > ceiling:
            problems.append(
                f"day07b.peaks.{kind}: {peak / 1e12:,.4g} TFLOP/s is above the datasheet's "
                f"{ceiling / 1e12:,.4g} TFLOP/s"
            )
    for i, rung in enumerate(ladder["rungs"]):
        if not isinstance(rung, dict):
            problems.append(f"day07b.rungs[{i}]: {rung!r} is not a table")
            continue
        problems += _keys(rung, LADDER["rung"], f"day07b.rungs[{i}]")
        speed = rung.get("tokens_per_s")
        if _is(speed, NUMBER) and speed <= 0:
            problems.append(f"day07b.rungs[{i}].tokens_per_s: {speed!r} is not positive")
    return problems


OPTIONAL_SECTIONS = {  # sections newer receipts hold; an older receipt without them is valid
    "host": {"cpu": TEXT, "usable_cpus": WHOLE, "virtual_machine": f"bool {OPTIONAL}",
             "jpeg_per_core_per_s": NUMBER},
    "imagenet": {"autocast_dtype": TEXT, "autocast_matmul_flops": NUMBER, "matmul_n": WHOLE},
}  # fmt: skip
"""Sections a receipt may hold beyond :data:`SECTIONS`, checked when present: the host that
holds the device (day 6's loading rate, whether it is a virtual machine) and day 6's ImageNet
figures (a 16-bit matrix product's FLOP/s)."""


def _optional(payload: dict) -> list[str]:
    """Problems of the optional sections that are present (:data:`OPTIONAL_SECTIONS`)."""
    problems = []
    for section, keys in OPTIONAL_SECTIONS.items():
        part = payload.get(section)
        if part is None:
            continue
        if not isinstance(part, dict):
            problems.append(f"{section}: {part!r} is not a table")
            continue
        for key, kind in keys.items():
            value = part.get(key)
            if kind.startswith("bool"):
                ok = value is None or isinstance(value, bool)
            else:
                ok = _is(value, kind) and (kind == TEXT or value > 0)
                kind = kind if kind == TEXT else f"positive {kind}"
            if not ok:
                problems.append(f"{section}.{key}: {value!r} is not a {kind}")
    flops = (payload.get("imagenet") or {}).get("autocast_matmul_flops")
    if _is(flops, NUMBER) and flops >= MAX_FLOPS:
        problems.append(f"imagenet.autocast_matmul_flops: {flops:.3g} FLOP/s is not plausible")
    return problems


def validate(payload) -> list[str]:
    """What is wrong with a receipt's payload, one ``key: problem`` line each; empty when fine.

    First the structure (:data:`SECTIONS`); when that holds, the plausibility bounds.
    """
    if not isinstance(payload, dict):
        return [f"the file holds a {type(payload).__name__}, not a receipt (a JSON object)"]
    if payload.get("schema") != SCHEMA:
        return [f"schema: {payload.get('schema')!r} is not {SCHEMA}"]
    problems = _structure(payload)
    if problems:
        return problems
    machine = payload["machine"]
    if payload["mode"] not in MODES:
        problems.append(f"mode: {payload['mode']!r} is not one of {', '.join(MODES)}")
    if machine["device"] not in DEVICES:
        return [*problems, f"machine.device: {machine['device']!r} is not one of cuda, mps, cpu"]
    if machine["count"] < 1:
        problems.append(f"machine.count: {machine['count']} devices")
    problems += [p for p in [_date(payload["date"])] if p]
    problems += _sync(machine, payload["sync"])
    problems += _bandwidths(payload["copies"], payload["roofs"]) + _flops(payload["roofs"])
    return (
        problems + _lessons(payload) + _allreduce(payload) + _ladder(payload) + _optional(payload)
    )


@dataclass(frozen=True)
class Receipt:
    """One receipt read back: its file, its payload, and whether it is the course's reference."""

    path: Path
    payload: dict
    reference: bool = False

    @property
    def device(self) -> str:
        return self.payload["machine"]["device"]

    @property
    def name(self) -> str:
        """The device, with the count when there are several (``2 × NVIDIA H100 80GB HBM3``)."""
        machine = self.payload["machine"]
        return (
            f"{machine['count']} × {machine['name']}" if machine["count"] > 1 else machine["name"]
        )

    @property
    def day(self) -> str:
        """The date of the measurement, ``YYYY-MM-DD``."""
        return self.payload["date"][:10]

    def __getitem__(self, key: str):
        return self.payload[key]


def load(path: Path | str, reference: bool = False) -> Receipt:
    """The receipt in ``path``; a :class:`ReceiptError` names the file, the key and the fix."""
    path = Path(path)
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise ReceiptError(f"{path}: not a readable JSON file ({err}); {FIX}.") from None
    problems = validate(payload)
    if problems:
        raise ReceiptError(f"{path}: {'; '.join(problems[:3])}; {FIX}.")
    return Receipt(path, payload, reference)


def folder() -> Path:
    """The learner's receipts folder: ``COURSE_RECEIPTS`` when set, else ``receipts/``."""
    explicit = os.environ.get("COURSE_RECEIPTS", "").strip()
    return Path(explicit).expanduser() if explicit else RECEIPTS


def find(where: Path | None = None) -> list[Path]:
    """The learner's receipt files (``*.json`` in :func:`folder`), by name."""
    where = folder() if where is None else where
    return sorted(where.glob("*.json")) if where.is_dir() else []


@dataclass(frozen=True)
class Shelf:
    """What :func:`load_all` found: the receipts, newest first, and the files it had to skip."""

    receipts: list[Receipt]
    broken: list[str]

    def pick(self, *, gpus: int = 1) -> Receipt | None:
        """The newest receipt of a GPU (``gpus`` or more of them), else of any device when
        ``gpus`` is 1; ``None`` when there is none."""
        many = [r for r in self.receipts if r.device != "cpu" and r["machine"]["count"] >= gpus]
        if many:
            return many[0]
        return self.receipts[0] if self.receipts and gpus == 1 else None


def load_all(where: Path | None = None, reference: Path | None = GPU_REFERENCE) -> Shelf:
    """Every valid receipt in the learner's folder, newest first; when none is valid, the course's
    reference (labelled ``reference=True``) if it exists. Broken files are skipped and listed."""
    receipts, broken = [], []
    for path in find(where):
        try:
            receipts.append(load(path))
        except ReceiptError as err:
            broken.append(str(err))
    if not receipts and reference is not None and reference.is_file():
        try:
            receipts.append(load(reference, reference=True))
        except ReceiptError as err:
            broken.append(str(err))
    receipts.sort(key=lambda r: r["date"], reverse=True)
    return Shelf(receipts, broken)
