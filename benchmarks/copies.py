"""Benchmark: day 2's copy figures, the old way and the new way, on this machine (one thread).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/copies.py [--repeats 11]

Old: ``clone()`` of one piece per size, timed alone (it allocates, and it copies the same block
again and again). New: :func:`helpers.copies.measure_copies`, ``copy_`` into existing buffers over
distinct pieces of a 64 MiB pool, with ``clone()`` timed beside it. Then a check of the lesson's
prediction: 64 MiB moved as 64 distinct 1 MiB copies back to back, against 64 times the table's
1 MiB time. A benchmark, not a test: machines differ, and the tests never assert a time.
"""

from __future__ import annotations

import argparse

import torch

from helpers.copies import measure_copies
from helpers.timing import measure

SIZES = [2**k for k in range(10, 27, 2)]  # 1 KiB to 64 MiB, the lesson's full-mode sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=11)
    args = parser.parse_args()
    torch.set_num_threads(1)
    cpu = torch.device("cpu")

    print("old: clone() of one piece, timed alone")
    for n in SIZES:
        host = torch.ones(n // 4)
        median = measure(host.clone, device=cpu, repeats=args.repeats, warmup=2).median
        print(f"  {n:>11,} B {median * 1e6:>12.1f} µs {n / median / 1e9:>7.2f} GB/s")

    table = measure_copies(cpu, SIZES, repeats=args.repeats)
    print("new: per copy, each timed run a 64 MiB pool's worth of distinct pieces")
    for row in table.itertuples(index=False):
        print(
            f"  {row.variant:33} {row.bytes:>11,} B {row.median_s * 1e6:>12.1f} µs "
            f"{row.bytes / row.median_s / 1e9:>7.2f} GB/s"
        )

    src, dst, piece = torch.ones(2**24), torch.zeros(2**24), 2**18  # 64 MiB, 1 MiB of floats

    def in_pieces() -> None:
        for i in range(64):
            dst[i * piece : (i + 1) * piece].copy_(src[i * piece : (i + 1) * piece])

    measured = measure(in_pieces, device=cpu, repeats=args.repeats).median
    one_mib = table[(table["bytes"] == 2**20) & table["variant"].str.contains("copy_")]
    predicted = 64 * one_mib["median_s"].iloc[0]
    print(
        f"check: 64 MiB as 64 distinct 1 MiB copies {measured * 1e3:.1f} ms; "
        f"the table predicts {predicted * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    main()
