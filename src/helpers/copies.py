"""What a copy costs (day 2): copies timed into buffers that already exist, over distinct pieces.

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
"""

from __future__ import annotations

import mmap
import platform
from collections.abc import Callable, Sequence

import torch

from helpers.i18n import N_, _, word

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
        name (English: the names are the table's keys; :func:`helpers.messages.word` shows them
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


def allocation_note(device_type: str, system: str | None = None) -> str:
    """Why the allocating variant differs from ``copy_`` on this kind of device (and, for the
    CPU, this operating system: ``platform.system()`` unless ``system`` is given).

    >>> allocation_note("cuda").startswith("PyTorch keeps freed GPU memory")
    True
    """
    if device_type in ("cuda", "mps"):
        return _(
            "PyTorch keeps freed GPU memory in its caching allocator and hands it "
            "out again, so after the first runs a new buffer on the GPU costs "
            "little; what differs is mostly the copy itself."
        )
    system = system or platform.system()
    library = (
        _(
            "glibc, Linux's C library, hands blocks above its threshold (128 KiB, "
            "rising to at most 32 MiB as large blocks are freed) straight to the "
            "kernel"
        )
        if system == "Linux"
        else _("the C library hands large blocks straight to the operating system")
    )
    return _(
        "On the CPU a large new buffer is fresh memory: {library}, and the "
        "first write to each {page_kib} KiB page stops the copy for a page "
        "fault."
    ).format(library=library, page_kib=mmap.PAGESIZE // 1024)


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
    ``median_s`` and quartiles ``q1_s``, ``q3_s``, then ``GB/s`` (bytes / median time / 1e9).
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
    copies["GB/s"] = copies["bytes"] / copies["median_s"] / 1e9
    return copies


def _bytes(n: int) -> str:
    return _("{n:,} bytes").format(n=n)


def variant_findings(part) -> list[str]:
    """Sentences about one variant's rows (``bytes``, ``median_s``, ``GB/s``): the fixed cost,
    the peak rate, many small copies against one large one, and what happens above the peak."""
    name = word(part["variant"].iloc[0])  # the variant, in the course's language
    quickest = part.loc[part["median_s"].idxmin()]  # no copy costs less than the fixed part
    fastest = part.loc[part["GB/s"].idxmax()]
    fixed, rate = quickest["median_s"], fastest["GB/s"]
    balance_kib = fixed * rate * 1e9 / 1024  # the bytes moved at the peak rate in the fixed time
    found = [
        _(
            "**{name}**: no copy took less than {fixed_us:.1f} µs (the "
            "{quickest:,}-byte one), an upper bound on the fixed cost; throughput "
            "peaks at {rate:.1f} GB/s (at {at}). At that rate {balance_kib:,.0f} "
            "KiB move in the fixed cost's time: copies well below that size are "
            "mostly fixed cost."
        ).format(
            name=name,
            fixed_us=fixed * 1e6,
            quickest=int(quickest["bytes"]),
            rate=rate,
            at=_bytes(fastest["bytes"]),
            balance_kib=balance_kib,
        )
    ]
    small, large = part.loc[part["bytes"].idxmin()], part.loc[part["bytes"].idxmax()]
    pieces = large["bytes"] // small["bytes"]
    said = {
        "large": _bytes(large["bytes"]),
        "pieces": int(pieces),
        N_("small"): int(small["bytes"]),
        "ratio": pieces * small["median_s"] / large["median_s"],
        "one_ms": large["median_s"] * 1e3,
    }
    if fastest["bytes"] == large["bytes"]:
        found.append(
            _(
                "Moving {large} as {pieces:,} copies of {small:,} would take "
                "**{ratio:.1f}×** as long as one copy ({one_ms:,.1f} ms), the best "
                "size here."
            ).format(**said)
        )
        return found
    best = large["bytes"] / fastest["bytes"] * fastest["median_s"]
    found.append(
        _(
            "Moving {large} as {pieces:,} copies of {small:,} would take "
            "**{ratio:.1f}×** as long as one copy ({one_ms:,.1f} ms); in copies of "
            "{best:,}, the best size here, {best_ms:,.1f} ms."
        ).format(best=int(fastest["bytes"]), best_ms=best * 1e3, **said)
    )
    share = large["GB/s"] / rate
    if share < 0.8:
        found.append(
            _(
                "Above {at} throughput falls to {rate:.1f} GB/s at the largest size "
                "({share:.0%} of the peak)."
            ).format(at=_bytes(fastest["bytes"]), rate=large["GB/s"], share=share)
        )
    else:
        found.append(
            _(
                "Above {at} throughput stays within 20 % of the peak up to the largest "
                "size ({rate:.1f} GB/s)."
            ).format(at=_bytes(fastest["bytes"]), rate=large["GB/s"])
        )
    return found


def allocation_finding(copies, device_type: str) -> str | None:
    """At the largest size: a copy that allocates its buffer against one into an existing buffer,
    with why they differ on this device; ``None`` when the table has no such pair."""
    largest = copies[copies["bytes"] == copies["bytes"].max()]
    alloc = largest[largest["variant"].str.contains("allocates")]
    plain = largest[
        largest["variant"].str.contains("copy_") & ~largest["variant"].str.contains("pinned")
    ]
    if alloc.empty or plain.empty:
        return None
    a, p = alloc["median_s"].iloc[0], plain["median_s"].iloc[0]
    return _(
        "At {size}, a copy that allocates its buffer (*{alloc}*) took "
        "**{alloc_ms:,.2f} ms**, one into an existing buffer (*{plain}*) "
        "**{plain_ms:,.2f} ms** ({ratio:.1f}×). {note}"
    ).format(
        size=_bytes(int(largest["bytes"].iloc[0])),
        alloc=word(alloc["variant"].iloc[0]),
        alloc_ms=a * 1e3,
        plain=word(plain["variant"].iloc[0]),
        plain_ms=p * 1e3,
        ratio=a / p,
        note=allocation_note(device_type),
    )


def streams_finding(one_stream: float | None, two_streams: float | None, device: str) -> str:
    """A product then a copy on one CUDA stream against the copy on a second stream (median
    seconds), or, without them (``None``: no CUDA GPU on ``device``), why nothing was shown."""
    if one_stream is None or two_streams is None:
        return _(
            "No CUDA GPU here ({device}): there are no streams to overlap, so this "
            "cannot be shown on this machine; on an NVIDIA GPU this cell compares "
            "one stream with two."
        ).format(device=device)
    said = {"one_ms": one_stream * 1e3, "two_ms": two_streams * 1e3}
    if two_streams < 0.9 * one_stream:
        found = _(
            "Product then copy, one stream: **{one_ms:.2f} ms**; copy on a second "
            "stream: **{two_ms:.2f} ms** ({ratio:.2f}x): here the copy overlapped."
        )
    else:
        found = _(
            "Product then copy, one stream: **{one_ms:.2f} ms**; copy on a second "
            "stream: **{two_ms:.2f} ms** ({ratio:.2f}x): here the copy did not "
            "overlap measurably."
        )
    return found.format(ratio=one_stream / two_streams, **said)
