"""What this machine is: the CPU, what PyTorch sees, and the GPU, as one report and one card
(day 1, sections 2 and 6).

A timing means little without the hardware it was measured on, so every result the course shows or
stores carries :func:`card`, a short description. Day 1 reads the whole :func:`report`; what it
says about the figures is :mod:`helpers.day01`'s.

The parts live in their own modules, one idea each: :mod:`helpers.cpu` (what CPU this is),
:mod:`helpers.topology` (cores, threads, caches, usable CPUs) and :mod:`helpers.gpu` (CUDA and MPS
GPUs). Their names are imported here too, so ``hardware.gpu_info()`` and the like keep working.

Everything here is computed on demand (nothing runs on import) and works without a GPU: the GPU
parts return nothing when there is none.
"""

from __future__ import annotations

import contextlib
import os
import platform
import re
from pathlib import Path

import pandas as pd
import psutil
import torch

from helpers import nvml
from helpers.cpu import (
    ARM_PARTS,
    ARM_VECTOR,
    INTEL_MODELS,
    X86_VECTOR,
    amd_generation,
    cpu_name,
    microarchitecture,
    parse_cpuinfo,
    vector_extensions,
)
from helpers.device import get_device
from helpers.gpu import (
    CONSUMER,
    DATA_CENTRE,
    DATA_CENTRE_GB,
    GENERATIONS,
    WORKSTATION,
    Tier,
    architecture,
    gpu_info,
    gpu_tier,
    mps_info,
)
from helpers.i18n import N_, catalog, language, word
from helpers.topology import (
    binary_size,
    cache_sizes,
    cpu_list,
    threads_from_sysfs,
    threads_per_core,
    usable_cpus,
)

__all__ = [
    "ARM_PARTS", "ARM_VECTOR", "CONSUMER", "DATA_CENTRE", "DATA_CENTRE_GB", "GENERATIONS",
    "INTEL_MODELS", "WORKSTATION", "X86_VECTOR", "Tier", "amd_generation", "architecture",
    "binary_size", "blas_library", "cache_sizes", "card", "card_line", "cpu_info", "cpu_list",
    "cpu_name", "gpu_info", "gpu_tier", "microarchitecture", "mps_info", "parse_cpuinfo",
    "report", "threads_from_sysfs", "threads_per_core", "torch_build", "torch_info",
    "usable_cpus", "vector_extensions",
]  # fmt: skip

# --- CPU -----------------------------------------------------------------------------------------


def cpu_info() -> dict:
    """The CPU: name, vendor, architecture and generation, cores, threads, vector extensions,
    caches and memory.

    ``threads_per_core`` is a number when every core runs the same number of hardware threads and
    ``None`` otherwise; ``cores_by_threads`` says how many cores run how many (``{2: 6, 1: 8}`` on
    a hybrid CPU), or is ``None`` when it cannot be told.
    """
    parsed: dict = {"flags": []}
    if platform.system() == "Linux":
        with contextlib.suppress(OSError):
            parsed = parse_cpuinfo(Path("/proc/cpuinfo").read_text(encoding="utf-8"))
    parsed["name"] = parsed.get("name") or cpu_name()
    memory = psutil.virtual_memory()
    physical = psutil.cpu_count(logical=False)
    logical = os.cpu_count()
    layout = threads_per_core(physical, logical, threads_from_sysfs())
    return {
        "name": parsed["name"],
        "vendor": parsed.get("vendor") or platform.system(),
        "architecture": platform.machine(),
        "microarchitecture": microarchitecture(parsed),
        "physical_cores": physical,
        "logical_cpus": logical,
        "threads_per_core": next(iter(layout)) if layout and len(layout) == 1 else None,
        "cores_by_threads": layout,
        "usable_cpus": usable_cpus(),
        "vector_extensions": vector_extensions(parsed["flags"]),
        "caches": cache_sizes(),
        "memory_total_gb": round(memory.total / 1e9, 1),
        "memory_available_gb": round(memory.available / 1e9, 1),
    }


# --- PyTorch -------------------------------------------------------------------------------------


def torch_build() -> str:
    """Which accelerators this PyTorch was built for, e.g. ``'CUDA 12.8'``, ``'CPU only'``."""
    parts = []
    if torch.version.cuda:
        parts.append(f"CUDA {torch.version.cuda}")
    if getattr(torch.version, "hip", None):
        parts.append(f"ROCm {torch.version.hip}")
    if torch.backends.mps.is_built():
        parts.append("MPS")
    return " + ".join(parts) or N_("CPU only")


def blas_library(config: str | None = None) -> str:
    """The BLAS library this PyTorch was built with (it runs the CPU's float32 matrix products),
    from its build settings, e.g. ``'mkl'`` or ``'open'`` (OpenBLAS); ``'n/a'`` if not stated.

    >>> blas_library("Build settings: BLAS_INFO=mkl, BUILD_TYPE=Release")
    'mkl'
    """
    match = re.search(r"BLAS_INFO=([^,\s]+)", torch.__config__.show() if config is None else config)
    return match.group(1) if match else N_("n/a")


def torch_info() -> dict:
    """What PyTorch sees: version, build, threads, CPU capability, BLAS, oneDNN and OpenMP."""
    parallel = torch.__config__.parallel_info()

    def find(pattern: str) -> str:
        match = re.search(pattern, parallel)
        return match.group(1).strip() if match else "n/a"

    return {
        "version": torch.__version__,
        "build": torch_build(),
        "intra_op_threads": torch.get_num_threads(),
        "inter_op_threads": torch.get_num_interop_threads(),
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "onednn": find(r"(?:MKL-DNN|oneDNN) (v[\d.]+)")
        if torch.backends.mkldnn.is_available()
        else N_("not built in"),
        "openmp": find(r"(OpenMP \d+[^\n]*)") if torch.backends.openmp.is_available() else "no",
        "mkl": torch.backends.mkl.is_available(),
        "blas": blas_library(),
        "parallel_backend": find(r"ATen parallel backend: (.+)"),
        "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else "n/a",
    }


# --- Reports -------------------------------------------------------------------------------------


def report(gpus: list[dict] | None = None) -> pd.DataFrame:
    """Everything above as one table, indexed by (section, item), for day 1. The items are the
    keys of the dictionaries above; show it with :func:`helpers.show.localised` for the values'
    words in the course's language. ``gpus``: the GPUs' rows to show (default :func:`gpu_info`;
    day 1 passes them through :func:`helpers.day01.gpu_rows`, which adds why each has its tier).
    """
    rows = []
    cpu = cpu_info()
    caches = cpu.pop("caches")
    cpu["vector_extensions"] = ", ".join(cpu["vector_extensions"]) or N_("none found")
    rows += [("CPU", key, value) for key, value in cpu.items()]
    rows += [("CPU", f"cache {label}", size) for label, size in caches.items()]
    rows += [("PyTorch", key, value) for key, value in torch_info().items()]
    gpus = gpu_info() if gpus is None else gpus
    for gpu in gpus:
        section = f"GPU {gpu['index']}"
        rows += [(section, key, value) for key, value in gpu.items() if key != "index"]
    if (mps := mps_info()) is not None:
        rows += [("Apple GPU (MPS)", key, value) for key, value in mps.items()]
    if not gpus and mps is None:
        rows.append(("GPU", "none", N_("no CUDA, ROCm or MPS device: the course runs on the CPU")))
    rows = [
        (section, item, "n/a" if value is None else str(value)) for section, item, value in rows
    ]
    return pd.DataFrame(rows, columns=[N_("section"), N_("item"), "value"]).set_index(
        ["section", "item"]
    )


def card() -> dict:
    """A small description of this machine, computed now, to label timing results.

    Keys: ``python``, ``os``, ``cpu``, ``cpu_arch``, ``cpu_vector``, ``cpu_logical``,
    ``cpu_physical``, ``cpu_usable``, ``memory_gb``, ``torch``, ``torch_build``, ``torch_threads``,
    ``device``; with a CUDA GPU also ``gpu``, ``gpu_arch``, ``gpu_memory_gb``, ``gpu_capability``,
    ``gpu_count``, ``cuda`` and ``driver``; with MPS ``gpu``.
    """
    device = get_device()
    cpu = cpu_info()
    info = {
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
        "cpu": cpu["name"],
        "cpu_arch": cpu["microarchitecture"],
        "cpu_vector": cpu["vector_extensions"][-1] if cpu["vector_extensions"] else "none",
        "cpu_logical": cpu["logical_cpus"],
        "cpu_physical": cpu["physical_cores"],
        "cpu_usable": cpu["usable_cpus"],
        "memory_gb": cpu["memory_total_gb"],
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
            "gpu_arch": architecture(props.major, props.minor),
            "gpu_memory_gb": round(props.total_memory / 1e9, 1),
            "gpu_capability": f"{props.major}.{props.minor}",
            "gpu_count": torch.cuda.device_count(),
            "cuda": torch.version.cuda,
            "driver": nvml.driver_version(),
        }
    elif device.type == "mps":
        info["gpu"] = N_("Apple GPU (MPS), memory shared with the CPU")
    return info


def card_line(info: dict | None = None, lang: str | None = None) -> str:
    """The card in one line, for a plot title or a table caption (in ``lang``, default the
    course's language; the timings file asks for English)."""
    info = card() if info is None else info
    words = catalog(lang or language())
    where = info.get("gpu") or words.gettext("{cpu} ({n} CPUs usable)").format(
        cpu=info["cpu"], n=info["cpu_usable"]
    )
    threads = info["torch_threads"]
    line = words.ngettext(
        "{where} | device {device} | torch {torch} ({build}), {threads} thread | Python {python}",
        "{where} | device {device} | torch {torch} ({build}), {threads} threads | Python {python}",
        threads,
    )
    return line.format(
        where=where, device=info["device"], torch=info["torch"],
        build=word(info["torch_build"], lang), threads=threads, python=info["python"],
    )  # fmt: skip
