"""What this machine is: a small card that labels every timing result in the course.

A timing means little without the hardware it was measured on, so every result the course shows or
stores carries :func:`card`. Day 1 looks at the hardware in much more detail.
"""

from __future__ import annotations

import math
import os
import platform
import subprocess
from pathlib import Path

import psutil
import torch

from helpers.device import get_device


def cpu_name() -> str:
    """The CPU's marketing name, e.g. ``'AMD EPYC 7B13'``, else the architecture (``'arm64'``)."""
    system = platform.system()
    try:
        if system == "Linux":
            for line in Path("/proc/cpuinfo").read_text().splitlines():
                # x86 says "model name"; some Arm kernels say "Model" or nothing at all.
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model") and value.strip():
                    return value.strip()
        elif system == "Darwin":
            out = subprocess.run(
                ["sysctl", "-n", "machdep.cpu.brand_string"],
                capture_output=True, text=True, timeout=5, check=True,
            )  # fmt: skip
            if out.stdout.strip():
                return out.stdout.strip()
        elif platform.processor():
            return platform.processor()
    except (OSError, subprocess.SubprocessError):
        pass
    return platform.machine() or "unknown CPU"


def _cgroup_cpu_limit() -> float | None:
    """The container's CPU quota in CPUs (cgroup v2, then v1), or ``None`` when there is none."""
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    try:
        quota = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").read_text())
        period = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us").read_text())
        return None if quota <= 0 else quota / period
    except (OSError, ValueError):
        return None


def usable_cpus() -> int:
    """The CPUs this process may run on (affinity and container quota), not ``os.cpu_count()``."""
    count = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    count = count or 1
    limit = _cgroup_cpu_limit()
    return max(1, min(count, math.ceil(limit))) if limit else count


def torch_build() -> str:
    """Which accelerators this PyTorch was built for, e.g. ``'CUDA 12.8'``, ``'CPU only'``."""
    parts = []
    if torch.version.cuda:
        parts.append(f"CUDA {torch.version.cuda}")
    if getattr(torch.version, "hip", None):
        parts.append(f"ROCm {torch.version.hip}")
    if torch.backends.mps.is_built():
        parts.append("MPS")
    return " + ".join(parts) or "CPU only"


def card() -> dict:
    """A small description of this machine, computed now.

    Keys: ``python``, ``os``, ``cpu``, ``cpu_logical``, ``cpu_physical``, ``cpu_usable``,
    ``memory_gb``, ``torch``, ``torch_build``, ``torch_threads``, ``device``; with a CUDA GPU also
    ``gpu``, ``gpu_memory_gb``, ``gpu_capability`` and ``gpu_count``.
    """
    device = get_device()
    info = {
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
        "cpu": cpu_name(),
        "cpu_logical": os.cpu_count(),
        "cpu_physical": psutil.cpu_count(logical=False),
        "cpu_usable": usable_cpus(),
        "memory_gb": round(psutil.virtual_memory().total / 1e9, 1),
        "torch": torch.__version__,
        "torch_build": torch_build(),
        "torch_threads": torch.get_num_threads(),
        "device": str(device),
    }
    if device.type == "cuda":
        index = device.index if device.index is not None else torch.cuda.current_device()
        props = torch.cuda.get_device_properties(index)
        info |= {
            "gpu": props.name,
            "gpu_memory_gb": round(props.total_memory / 1e9, 1),
            "gpu_capability": f"{props.major}.{props.minor}",
            "gpu_count": torch.cuda.device_count(),
        }
    elif device.type == "mps":
        info["gpu"] = "Apple GPU (MPS), memory shared with the CPU"
    return info


def card_line(info: dict | None = None) -> str:
    """The card in one line, for a plot title or a table caption."""
    info = card() if info is None else info
    where = info.get("gpu") or f"{info['cpu']} ({info['cpu_usable']} CPUs usable)"
    return (
        f"{where} | device {info['device']} | torch {info['torch']} ({info['torch_build']}), "
        f"{info['torch_threads']} threads | Python {info['python']}"
    )
