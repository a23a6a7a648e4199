"""How a CPU is laid out (day 1, section 1): cores and their hardware threads, caches, and the CPUs
this process may use.

A logical CPU is a hardware thread. Most cores run one or two; on hybrid chips (Intel's performance
and efficiency cores) some cores run two and others one, so logical CPUs divided by cores does not
say how many threads a core runs: Linux's topology files do (:func:`threads_per_core`; what it
means in words is :func:`helpers.day01.smt_sentence`).
"""

from __future__ import annotations

import math
import os
import platform
from collections import Counter
from pathlib import Path

from helpers.cpu import sysctl


def binary_size(text: str) -> str:
    """'32K' or '33554432' -> '32 KiB' / '32 MiB'."""
    value = int(text[:-1]) * 1024 if text.upper().endswith("K") else int(text)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:g} {unit}"
        value /= 1024
    return text  # pragma: no cover


def cache_sizes(root: Path = Path("/sys/devices/system/cpu/cpu0/cache")) -> dict[str, str]:
    """Cache sizes seen by the first CPU, e.g. ``{'L1d': '32 KiB', 'L2': '512 KiB', ...}``.

    On Linux each value says which CPUs share that cache; on macOS it comes from sysctl.
    """
    caches = {}
    if root.is_dir():
        for index in sorted(root.glob("index*")):
            try:
                level = (index / "level").read_text(encoding="utf-8").strip()
                kind = (index / "type").read_text(encoding="utf-8").strip()
                size = binary_size((index / "size").read_text(encoding="utf-8").strip())
                shared = (index / "shared_cpu_list").read_text(encoding="utf-8").strip()
            except (OSError, ValueError):
                continue
            label = f"L{level}" + {"Data": "d", "Instruction": "i"}.get(kind, "")
            # one CPU number: no other CPU uses this cache
            users = f"CPU {shared} only" if shared.isdigit() else f"shared by CPUs {shared}"
            caches[label] = f"{size} ({users})"
    elif platform.system() == "Darwin":
        for label, key in (
            ("L1d", "hw.l1dcachesize"),
            ("L2", "hw.l2cachesize"),
            ("L3", "hw.l3cachesize"),
        ):
            if (value := sysctl(key)) and value.isdigit() and int(value) > 0:
                caches[label] = binary_size(value)
    return caches


def _cgroup_cpu_limit() -> float | None:
    """The container's CPU quota in CPUs (cgroup v2, then v1), or ``None`` when there is none."""
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text(encoding="utf-8").split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    try:
        quota = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").read_text(encoding="utf-8"))
        period = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us").read_text(encoding="utf-8"))
        return None if quota <= 0 else quota / period
    except (OSError, ValueError):
        return None


def usable_cpus() -> int:
    """The CPUs this process may run on (affinity and container quota), not ``os.cpu_count()``."""
    count = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    count = count or 1
    limit = _cgroup_cpu_limit()
    return max(1, min(count, math.ceil(limit))) if limit else count


def cpu_list(text: str) -> list[int]:
    """Linux's CPU list syntax, ``'0-3,8'``, as numbers.

    >>> cpu_list("0-3,8"), cpu_list("5")
    ([0, 1, 2, 3, 8], [5])
    """
    numbers = []
    for part in text.strip().split(","):
        first, _dash, last = part.partition("-")
        numbers += range(int(first), int(last or first) + 1)
    return numbers


def threads_from_sysfs(root: Path = Path("/sys/devices/system/cpu")) -> dict[int, int] | None:
    """``{hardware threads per core: number of cores}`` from Linux's topology files, e.g.
    ``{2: 6, 1: 8}`` on a hybrid CPU; ``None`` where they cannot be read."""
    cores: set[str] = set()
    for folder in root.glob("cpu[0-9]*"):
        try:
            cores.add((folder / "topology" / "thread_siblings_list").read_text(encoding="utf-8"))
        except OSError:
            continue
    counts = Counter(len(cpu_list(siblings)) for siblings in cores)
    return dict(sorted(counts.items(), reverse=True)) or None


def threads_per_core(
    physical: int | None, logical: int | None, from_sysfs: dict[int, int] | None = None
) -> dict[int, int] | None:
    """``{hardware threads per core: cores}``: from Linux's topology files when given, else
    inferred from the counts (cores run one or two threads when logical CPUs are between one and
    two per core). ``None`` when it cannot be told.

    >>> threads_per_core(8, 16), threads_per_core(14, 20), threads_per_core(4, 4)
    ({2: 8}, {2: 6, 1: 8}, {1: 4})
    """
    if from_sysfs:
        return from_sysfs
    if not physical or not logical or logical < physical:
        return None
    if logical % physical == 0:
        return {logical // physical: physical}
    if logical < 2 * physical:
        return {2: logical - physical, 1: 2 * physical - logical}
    return None
