"""What a copy costs (day 2, section 5): copies timed into buffers that already exist, over distinct
pieces; and how the course counts a bandwidth.

**How the course counts a bandwidth** (every day, every receipt; stated here once): bytes per
second of *traffic* through what is measured. A copy within one memory (the CPU's memory to
memory, a GPU's within the device) reads each byte and writes it: its traffic is **twice** its
size, as STREAM, NVIDIA's ``bandwidthTest`` (device to device) and the roofline count it
(:func:`helpers.roofline.measure_bandwidth`). A transfer between the host and a device crosses
the bus once: its traffic is its size, **once**, the unit a bus is rated in. :func:`traffic` says
which; :func:`measure_copies`' ``GB/s`` column follows it, so a CPU's copy and a GPU's copy within
the device stand in one row of a table, counted alike.

Two traps make a copy benchmark measure something else than copying:

- **allocation**: ``x.clone()`` or ``x.to(device)`` first asks for a new buffer. Above the C
  library's threshold for large blocks, a new CPU buffer comes straight from the operating system
  as fresh pages, and the first write to each page faults. So the copies here write with
  ``dst.copy_(src)`` into buffers made once, and the allocating version is timed beside it, so
  that its cost shows on its own;
- **one hot piece**: copying the same small block again and again reads it from the cache, and the
  data written waits in the cache to be written back after the clock stops (a copy that fits in
  the cache, timed alone, looks several times faster than the same copies back to back). So each
  timed run copies a pool larger than the caches (64 MiB) as distinct pieces, back to back, and
  the time per copy is the run's time divided by the number of pieces: what a loop moving many
  batches pays. Small pieces stop at 4096 per run, going round the pool from run to run.

:func:`measure_copies` times them; :func:`copy_curve` and :func:`allocation_pair` pick out of its
table the figures the lesson reads (what they say is :mod:`helpers.day02`'s).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch

from helpers.i18n import N_

WITHIN_ONE_MEMORY = 2
"""Bytes of traffic per byte copied within one memory: read once, written once."""
ACROSS_THE_BUS = 1
"""Bytes of traffic per byte moved between the host and a device: it crosses the bus once."""


def traffic(n_bytes: int, *, within_one_memory: bool) -> int:
    """The bytes a bandwidth counts for a copy of ``n_bytes``: twice within one memory (read and
    write), once between the host and a device (across the bus).

    >>> [traffic(2**26, within_one_memory=w) // 2**20 for w in (True, False)]  # MiB
    [128, 64]
    """
    return n_bytes * (WITHIN_ONE_MEMORY if within_one_memory else ACROSS_THE_BUS)


POOL_BYTES = 64 * 2**20
"""The smallest pool the pieces are cut from (larger than the caches of most CPUs)."""

MAX_PIECES = 4096
"""At most this many pieces per timed run (small pieces: the fixed cost dominates anyway)."""


def pieces_per_run(n_bytes: int, pool_bytes: int = POOL_BYTES, max_pieces: int = MAX_PIECES) -> int:
    """How many distinct pieces of ``n_bytes`` one timed run copies: the whole pool's worth,
    at most ``max_pieces``.

    >>> pieces_per_run(1024), pieces_per_run(2**20), pieces_per_run(2**26)
    (4096, 64, 1)
    """
    if n_bytes < 4 or n_bytes % 4:
        raise ValueError(f"a copy size must be a positive multiple of 4 bytes, got {n_bytes}")
    return max(1, min(max_pieces, pool_bytes // n_bytes))


def _pieces(flat: torch.Tensor, n_bytes: int) -> list[torch.Tensor]:
    """``flat`` cut into as many whole pieces of ``n_bytes`` (float32) as it holds."""
    n = n_bytes // 4
    return [flat[i * n : (i + 1) * n] for i in range(flat.numel() // n)]


def _rotating(count: int, total: int) -> Callable[[], list[int]]:
    """Indices of the next ``count`` pieces of ``total``, going round: each run copies pieces that
    the previous runs have not just touched, so they are not waiting in the cache."""
    start = 0

    def next_indices() -> list[int]:
        nonlocal start
        indices = [(start + i) % total for i in range(count)]
        start = (start + count) % total
        return indices

    return next_indices


class CopyPools:
    """A source pool on the host and a destination pool on ``device``, made once.

    ``pinned`` adds a page-locked copy of the source (CUDA only). ``largest`` is the biggest copy
    size that will be asked for; the pools hold ``max(largest, POOL_BYTES)`` bytes each.
    """

    def __init__(self, device: torch.device, largest: int, pinned: bool = False) -> None:
        floats = max(largest, POOL_BYTES) // 4
        self.device = device
        self.host = torch.ones(floats)
        self.pinned = self.host.pin_memory() if pinned else None
        self.target = torch.zeros(floats, device=device)  # written now: its pages exist

    def variants(self, n_bytes: int) -> dict[str, Callable[[], object]]:
        """The copies compared at one size, each a function that copies one run's pieces, by
        name (English: the names are the table's keys; :func:`helpers.i18n.word` shows them
        in the course's language)."""
        sources, targets = _pieces(self.host, n_bytes), _pieces(self.target, n_bytes)
        pinned = _pieces(self.pinned, n_bytes) if self.pinned is not None else sources
        count = pieces_per_run(n_bytes)

        def into(srcs: Sequence[torch.Tensor], non_blocking: bool = False) -> Callable[[], None]:
            indices = _rotating(count, len(targets))

            def run() -> None:
                for i in indices():
                    targets[i].copy_(srcs[i], non_blocking=non_blocking)

            return run

        def allocating() -> Callable[[], None]:
            indices = _rotating(count, len(sources))

            def run() -> None:
                for i in indices():
                    sources[i].to(self.device, copy=True)  # a new buffer (clone on the CPU)

            return run

        kind = self.device.type
        if kind == "cuda":
            return {
                "pageable -> GPU, copy_": into(sources),
                "pinned -> GPU, copy_": into(pinned),
                N_("pinned -> GPU, copy_ non_blocking"): into(pinned, non_blocking=True),
                N_("pageable -> GPU, .to() allocates"): allocating(),
            }
        if kind == "mps":
            return {
                "host -> MPS, copy_": into(sources),
                N_("host -> MPS, .to() allocates"): allocating(),
            }
        return {
            "CPU memory, copy_ into a buffer": into(sources),
            N_("CPU memory, clone() allocates"): allocating(),
        }


def measure_copies(
    device: torch.device,
    sizes: Sequence[int],
    *,
    repeats: int,
    warmup: int = 2,
    pinned: bool | None = None,
):
    """Time every variant at every size, interleaved in a shuffled order; one row per pair.

    Columns: ``bytes``, ``variant``, ``pieces`` (copies per timed run), and per copy the
    ``median_s`` and quartiles ``q1_s``, ``q3_s``, then ``GB/s``: the traffic (:func:`traffic`:
    read and write on a CPU, once across the bus to a GPU) over the median time, in 1e9 bytes/s,
    and ``traffic``, the bytes counted per byte copied (2 or 1).
    """
    import pandas as pd

    from helpers.timing import compare

    pools = CopyPools(
        device, max(sizes), pinned=device.type == "cuda" if pinned is None else pinned
    )
    runs, labels = {}, {}
    for n_bytes in sizes:
        for variant, fn in pools.variants(n_bytes).items():
            key = f"{variant} | {n_bytes:,} bytes"
            runs[key], labels[key] = fn, (n_bytes, variant)
    table = compare(runs, device=device, repeats=repeats, warmup=warmup, progress=N_("copies"))
    rows = []
    for key, m in table.measurements.items():
        n_bytes, variant = labels[key]
        count = pieces_per_run(n_bytes)
        q1, q3 = m.quartiles
        rows.append(
            {
                N_("bytes"): n_bytes,
                "variant": variant,
                "pieces": count,
                "median_s": m.median / count,
                "q1_s": q1 / count,
                "q3_s": q3 / count,
            }
        )
    copies = pd.DataFrame(rows).sort_values(["variant", "bytes"], ignore_index=True)
    counted = traffic(1, within_one_memory=device.type == "cpu")  # day 2's CPU copies stay home
    copies["traffic"] = counted
    copies["GB/s"] = counted * copies["bytes"] / copies["median_s"] / 1e9
    return copies


@dataclass(frozen=True)
class CopyCurve:
    """One variant's rows of :func:`measure_copies`, summed up: the quickest copy (an upper bound
    on the fixed cost every copy pays), the peak throughput, and the smallest and largest sizes."""

    variant: str
    fixed_s: float
    """The quickest copy's median time: no copy costs less than the fixed part."""
    quickest_bytes: int
    peak_rate: float
    """The highest bandwidth, GB/s (:func:`traffic`), reached at ``peak_bytes`` in ``peak_s``
    per copy."""
    peak_bytes: int
    peak_s: float
    smallest_bytes: int
    smallest_s: float
    largest_bytes: int
    largest_s: float
    largest_rate: float
    """The bandwidth, GB/s (:func:`traffic`), at the largest size."""
    traffic: int = ACROSS_THE_BUS
    """Bytes counted per byte copied: 2 within one memory, 1 across the bus."""

    @property
    def balance_kib(self) -> float:
        """The KiB copied, at the peak's pace, in the fixed cost's time (bytes copied, whatever
        the traffic convention)."""
        return self.fixed_s * self.peak_bytes / self.peak_s / 1024

    @property
    def pieces(self) -> int:
        """How many of the smallest copies hold as much as the largest."""
        return self.largest_bytes // self.smallest_bytes

    @property
    def pieces_ratio(self) -> float:
        """The largest size moved as that many smallest copies, over one copy's time."""
        return self.pieces * self.smallest_s / self.largest_s

    @property
    def peak_at_largest(self) -> bool:
        return self.peak_bytes == self.largest_bytes

    @property
    def best_split_s(self) -> float:
        """The largest size moved in copies of the peak's size."""
        return self.largest_bytes / self.peak_bytes * self.peak_s

    @property
    def largest_share(self) -> float:
        """The largest size's throughput as a share of the peak."""
        return self.largest_rate / self.peak_rate


def copy_curve(part) -> CopyCurve:
    """The figures of one variant's rows (``variant``, ``bytes``, ``median_s``, ``GB/s``).

    >>> import pandas as pd
    >>> rows = pd.DataFrame({"variant": "v", "bytes": [1024, 2**20], "median_s": [5e-6, 2.9e-4]})
    >>> curve = copy_curve(rows.assign(**{"GB/s": rows["bytes"] / rows["median_s"] / 1e9}))
    >>> curve.fixed_s, curve.peak_bytes, curve.pieces, round(curve.pieces_ratio, 1)
    (5e-06, 1048576, 1024, 17.7)
    """
    quickest = part.loc[part["median_s"].idxmin()]
    fastest = part.loc[part["GB/s"].idxmax()]
    small, large = part.loc[part["bytes"].idxmin()], part.loc[part["bytes"].idxmax()]
    return CopyCurve(
        variant=str(part["variant"].iloc[0]),
        fixed_s=float(quickest["median_s"]),
        quickest_bytes=int(quickest["bytes"]),
        peak_rate=float(fastest["GB/s"]),
        peak_bytes=int(fastest["bytes"]),
        peak_s=float(fastest["median_s"]),
        smallest_bytes=int(small["bytes"]),
        smallest_s=float(small["median_s"]),
        largest_bytes=int(large["bytes"]),
        largest_s=float(large["median_s"]),
        largest_rate=float(large["GB/s"]),
        traffic=int(part["traffic"].iloc[0]) if "traffic" in part else ACROSS_THE_BUS,
    )


@dataclass(frozen=True)
class AllocationPair:
    """At the largest size: a copy that allocates its buffer beside one into an existing buffer."""

    bytes: int
    alloc: str
    """The allocating variant's name."""
    alloc_s: float
    plain: str
    """The variant that copies into an existing (pageable) buffer."""
    plain_s: float

    @property
    def ratio(self) -> float:
        return self.alloc_s / self.plain_s


def allocation_pair(copies) -> AllocationPair | None:
    """The allocating copy and the plain ``copy_`` at the table's largest size, or ``None`` when
    the table has no such pair."""
    largest = copies[copies["bytes"] == copies["bytes"].max()]
    alloc = largest[largest["variant"].str.contains("allocates")]
    plain = largest[
        largest["variant"].str.contains("copy_") & ~largest["variant"].str.contains("pinned")
    ]
    if alloc.empty or plain.empty:
        return None
    return AllocationPair(
        bytes=int(largest["bytes"].iloc[0]),
        alloc=str(alloc["variant"].iloc[0]),
        alloc_s=float(alloc["median_s"].iloc[0]),
        plain=str(plain["variant"].iloc[0]),
        plain_s=float(plain["median_s"].iloc[0]),
    )


@dataclass(frozen=True)
class AllocationSizes:
    """At every size of the table: whether the allocating copy took less time than the one into
    an existing buffer, more, or neither beyond their quartiles."""

    alloc: str
    plain: str
    faster: tuple[int, ...]
    """Sizes (bytes) where the allocating copy's third quartile lies below the plain one's first."""
    slower: tuple[int, ...]
    """Sizes where its first quartile lies above the plain one's third."""
    even: tuple[int, ...]
    """Sizes where the two overlap: no difference beyond the noise of the runs."""


def allocation_sizes(copies) -> AllocationSizes | None:
    """The allocating copy against the plain ``copy_`` (pageable) size by size, told apart only
    where their interquartile ranges do not overlap; ``None`` without such a pair.

    >>> import pandas as pd
    >>> rows = [("a allocates", 1024, 2e-6, 3e-6), ("copy_", 1024, 5e-6, 6e-6),
    ...         ("a allocates", 2**26, 0.12, 0.13), ("copy_", 2**26, 0.019, 0.020)]
    >>> table = pd.DataFrame(rows, columns=["variant", "bytes", "q1_s", "q3_s"])
    >>> found = allocation_sizes(table)
    >>> found.faster, found.slower, found.even
    ((1024,), (67108864,), ())
    """
    alloc = copies[copies["variant"].str.contains("allocates")]
    plain = copies[
        copies["variant"].str.contains("copy_") & ~copies["variant"].str.contains("pinned")
    ]
    if alloc.empty or plain.empty:
        return None
    a, p = alloc.set_index("bytes"), plain.set_index("bytes")
    sizes = sorted(set(a.index) & set(p.index))
    faster = tuple(n for n in sizes if a.loc[n, "q3_s"] < p.loc[n, "q1_s"])
    slower = tuple(n for n in sizes if a.loc[n, "q1_s"] > p.loc[n, "q3_s"])
    even = tuple(n for n in sizes if n not in faster + slower)
    return AllocationSizes(
        str(alloc["variant"].iloc[0]), str(plain["variant"].iloc[0]), faster, slower, even
    )
