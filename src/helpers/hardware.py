"""What this machine is: the CPU, what PyTorch sees, and the GPU.

A timing means little without the hardware it was measured on, so every result the course shows or
stores carries :func:`card`, a short description. Day 1 reads the whole :func:`report`.

Everything here is computed on demand (nothing runs on import) and works without a GPU: the GPU
parts return nothing when there is none.
"""

from __future__ import annotations

import contextlib
import math
import os
import platform
import re
import subprocess
from pathlib import Path

import pandas as pd
import psutil
import torch

from helpers import nvml
from helpers.device import get_device

# --- CPU -----------------------------------------------------------------------------------------

# Intel family 6 model numbers -> microarchitecture (Intel's published model numbers).
INTEL_MODELS = {
    **dict.fromkeys([0x3C, 0x3F, 0x45, 0x46], "Haswell"),
    **dict.fromkeys([0x3D, 0x47, 0x4F, 0x56], "Broadwell"),
    **dict.fromkeys([0x4E, 0x5E], "Skylake"),
    0x55: "Skylake-SP / Cascade Lake",
    **dict.fromkeys([0x8E, 0x9E], "Kaby Lake / Coffee Lake"),
    **dict.fromkeys([0xA5, 0xA6], "Comet Lake"),
    **dict.fromkeys([0x7D, 0x7E], "Ice Lake"),
    **dict.fromkeys([0x6A, 0x6C], "Ice Lake-SP"),
    **dict.fromkeys([0x8C, 0x8D], "Tiger Lake"),
    0xA7: "Rocket Lake",
    **dict.fromkeys([0x97, 0x9A], "Alder Lake"),
    **dict.fromkeys([0xB7, 0xBA, 0xBF], "Raptor Lake"),
    0x8F: "Sapphire Rapids",
    0xCF: "Emerald Rapids",
    **dict.fromkeys([0xAD, 0xAE], "Granite Rapids"),
    0xAF: "Sierra Forest",
    **dict.fromkeys([0xAA, 0xAC], "Meteor Lake"),
    0xBD: "Lunar Lake",
    **dict.fromkeys([0xC5, 0xC6], "Arrow Lake"),
}

# Arm "CPU part" numbers of cores designed by Arm (implementer 0x41).
ARM_PARTS = {
    0xD03: "Cortex-A53",
    0xD08: "Cortex-A72",
    0xD0B: "Cortex-A76",
    0xD0C: "Neoverse N1",
    0xD40: "Neoverse V1",
    0xD41: "Cortex-A78",
    0xD49: "Neoverse N2",
    0xD4F: "Neoverse V2",
    0xD84: "Neoverse V3",
}

# Feature flags (as /proc/cpuinfo names them) -> the vector extensions they mean, oldest first,
# so the last one found is the widest.
X86_VECTOR = [
    ("sse4_2", "SSE4.2"),
    ("avx", "AVX"),
    ("fma", "FMA"),
    ("avx2", "AVX2"),
    ("avx_vnni", "AVX-VNNI"),
    ("avx512f", "AVX-512"),
    ("avx512_vnni", "AVX-512 VNNI"),
    ("avx512_bf16", "AVX-512 BF16"),
    ("avx512_fp16", "AVX-512 FP16"),
    ("amx_tile", "AMX"),
    ("amx_bf16", "AMX-BF16"),
    ("amx_int8", "AMX-INT8"),
]
ARM_VECTOR = [
    ("asimd", "NEON"),
    ("asimddp", "NEON dot product"),
    ("bf16", "BF16"),
    ("i8mm", "I8MM"),
    ("sve", "SVE"),
    ("sve2", "SVE2"),
    ("sme", "SME"),
]


def amd_generation(family: int, model: int) -> str | None:
    """AMD's core generation from the CPUID family and model, or ``None`` if unknown."""
    if family == 0x17:
        return "Zen / Zen+" if model < 0x30 else "Zen 2"
    if family == 0x19:
        zen4 = 0x10 <= model <= 0x1F or 0x60 <= model <= 0x7F or 0xA0 <= model <= 0xAF
        return "Zen 4" if zen4 else "Zen 3"
    if family == 0x1A:
        return "Zen 5"
    if family in (0x15, 0x16):
        return "pre-Zen (Bulldozer/Jaguar family)"
    return None


def parse_cpuinfo(text: str) -> dict:
    """The useful fields of Linux's ``/proc/cpuinfo`` (first CPU): name, vendor, family, model,
    stepping and flags on x86; implementer, part and features on Arm."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            if fields:
                break  # the first CPU is enough
            continue
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    flags = (fields.get("flags") or fields.get("Features") or "").split()

    def number(key):
        try:
            return int(fields[key], 0)
        except (KeyError, ValueError):
            return None

    return {
        "name": fields.get("model name") or fields.get("Model") or "",
        "vendor": fields.get("vendor_id", ""),
        "family": number("cpu family"),
        "model": number("model"),
        "stepping": number("stepping"),
        "implementer": number("CPU implementer"),
        "part": number("CPU part"),
        "flags": flags,
    }


def microarchitecture(info: dict) -> str:
    """The microarchitecture generation from parsed CPU info, or a line saying it can't be told."""
    vendor, family, model = info.get("vendor"), info.get("family"), info.get("model")
    name = info.get("name", "")
    if vendor == "GenuineIntel" and family == 6 and model in INTEL_MODELS:
        return INTEL_MODELS[model]
    amd = vendor == "AuthenticAMD" and family is not None and model is not None
    if amd and (generation := amd_generation(family, model)):
        return generation
    if info.get("implementer") == 0x41 and info.get("part") in ARM_PARTS:
        return ARM_PARTS[info["part"]]
    if name.startswith("Apple M"):
        return name  # the chip is the generation: Apple M1, M2, ...
    if family is not None and model is not None:
        return f"unknown (family {family:#x}, model {model:#x} is not in the course's table)"
    return "unknown"


def vector_extensions(flags: list[str], machine: str | None = None) -> list[str]:
    """The SIMD extensions named by ``flags`` (x86 or Arm), oldest first."""
    machine = (machine or platform.machine()).lower()
    table = ARM_VECTOR if machine in ("arm64", "aarch64") else X86_VECTOR
    present = set(flags)
    found = [label for flag, label in table if flag in present]
    if machine == "arm64" and platform.system() == "Darwin" and "NEON" not in found:
        found.insert(0, "NEON")  # every Apple silicon core has NEON
    return found


def _sysctl(name: str) -> str | None:
    try:
        out = subprocess.run(
            ["sysctl", "-n", name], capture_output=True, text=True, timeout=5, encoding="utf-8"
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() or None


def cpu_name() -> str:
    """The CPU's marketing name, e.g. ``'AMD EPYC 7B13'``, else the architecture (``'arm64'``)."""
    system = platform.system()
    try:
        if system == "Linux":
            if name := parse_cpuinfo(Path("/proc/cpuinfo").read_text(encoding="utf-8"))["name"]:
                return name
        elif system == "Darwin":
            if name := _sysctl("machdep.cpu.brand_string"):
                return name
        elif platform.processor():
            return platform.processor()
    except OSError:
        pass
    return platform.machine() or "unknown CPU"


def _size(text: str) -> str:
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
                size = _size((index / "size").read_text(encoding="utf-8").strip())
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
            if (value := _sysctl(key)) and value.isdigit() and int(value) > 0:
                caches[label] = _size(value)
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


def cpu_info() -> dict:
    """The CPU: name, vendor, architecture and generation, cores, threads, vector extensions,
    caches and memory."""
    parsed: dict = {"flags": []}
    if platform.system() == "Linux":
        with contextlib.suppress(OSError):
            parsed = parse_cpuinfo(Path("/proc/cpuinfo").read_text(encoding="utf-8"))
    parsed["name"] = parsed.get("name") or cpu_name()
    memory = psutil.virtual_memory()
    physical = psutil.cpu_count(logical=False)
    logical = os.cpu_count()
    return {
        "name": parsed["name"],
        "vendor": parsed.get("vendor") or platform.system(),
        "architecture": platform.machine(),
        "microarchitecture": microarchitecture(parsed),
        "physical_cores": physical,
        "logical_cpus": logical,
        "threads_per_core": logical // physical if physical and logical else None,
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
    return " + ".join(parts) or "CPU only"


def torch_info() -> dict:
    """What PyTorch sees: version, build, threads, CPU capability, oneDNN and OpenMP."""
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
        else "not built in",
        "openmp": find(r"(OpenMP \d+[^\n]*)") if torch.backends.openmp.is_available() else "no",
        "mkl": torch.backends.mkl.is_available(),
        "parallel_backend": find(r"ATen parallel backend: (.+)"),
        "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else "n/a",
    }


# --- GPU -----------------------------------------------------------------------------------------

GENERATIONS = {
    3: "Kepler",
    5: "Maxwell",
    6: "Pascal",
    (7, 0): "Volta",
    (7, 2): "Volta",
    (7, 5): "Turing",
    (8, 0): "Ampere",
    (8, 6): "Ampere",
    (8, 7): "Ampere",
    (8, 9): "Ada Lovelace",
    (9, 0): "Hopper",
    10: "Blackwell",
    (11, 0): "Blackwell",
    12: "Blackwell",
}
"""Compute capability (a whole major version, or (major, minor)) -> NVIDIA architecture."""


def architecture(major: int, minor: int) -> str:
    """The NVIDIA architecture generation of a compute capability, e.g. ``(8, 6) -> 'Ampere'``.

    Compute capability names the instruction set, not the speed: a 8.6 card can be slower than a
    7.0 one. Values missing from the table say so rather than guess.

    >>> architecture(8, 6), architecture(9, 0)
    ('Ampere', 'Hopper')
    >>> architecture(4, 0)
    "unknown (compute capability 4.0 is not in the course's table)"
    """
    found = GENERATIONS.get((major, minor)) or GENERATIONS.get(major)
    return found or f"unknown (compute capability {major}.{minor} is not in the course's table)"


DATA_CENTRE = re.compile(
    r"\b(Tesla|[ABHLV]\d{2,3}[A-Z]?|[BG]B?\d{3}|T4|L4|L40S?|A10G?|A16|A2|P4|P40|P100|K80|M60|"
    r"Instinct|MI\d{2,3}X?|Server Edition|GH200|GB200)\b"
)
WORKSTATION = re.compile(r"\b(Quadro|RTX A\d{4}|RTX \d{4} Ada|RTX PRO|Radeon PRO|NVIDIA RTX A)")
CONSUMER = re.compile(r"\b(GeForce|TITAN|RTX \d{4}|GTX|Radeon RX)\b")


def gpu_tier(name: str, memory_gb: float) -> tuple[str, str]:
    """A rough tier, ``'consumer'``, ``'workstation'`` or ``'data centre'``, and the reason.

    Read from the product name first (NVIDIA and AMD name their lines consistently), then from the
    memory size. It is a rule of thumb, not a specification.

    >>> gpu_tier("NVIDIA GeForce RTX 4090", 24)[0], gpu_tier("NVIDIA H100 80GB HBM3", 80)[0]
    ('consumer', 'data centre')
    """
    if match := DATA_CENTRE.search(name):
        return "data centre", f"the name contains {match.group(0)!r}, a data-centre product line"
    if match := WORKSTATION.search(name):
        return "workstation", f"the name contains {match.group(0)!r}, a workstation line"
    if match := CONSUMER.search(name):
        return "consumer", f"the name contains {match.group(0)!r}, a consumer (gaming) line"
    if memory_gb >= 40:
        return "data centre", f"unknown name; {memory_gb:.0f} GB of memory is data-centre sized"
    return "consumer", f"unknown name; {memory_gb:.0f} GB of memory is consumer sized (a guess)"


def gpu_info() -> list[dict]:
    """One dict per CUDA (or ROCm) GPU; an empty list when there is none."""
    if not torch.cuda.is_available():
        return []
    driver = nvml.driver_version()
    gpus = []
    for index in range(torch.cuda.device_count()):
        props = torch.cuda.get_device_properties(index)
        free, total = torch.cuda.mem_get_info(index)
        memory_gb = props.total_memory / 1e9
        tier, reason = gpu_tier(props.name, memory_gb)
        rocm = getattr(props, "gcnArchName", None) if torch.version.hip else None
        gpus.append(
            {
                "index": index,
                "name": props.name,
                "memory_total_gb": round(memory_gb, 1),
                "memory_free_gb": round(free / 1e9, 1),
                "compute_capability": f"{props.major}.{props.minor}",
                "architecture": f"AMD {rocm}" if rocm else architecture(props.major, props.minor),
                "multiprocessors": props.multi_processor_count,
                "l2_cache": _size(str(l2)) if (l2 := getattr(props, "L2_cache_size", 0)) else None,
                "tier": tier,
                "tier_reason": reason,
                "driver": driver,
                "cuda_runtime": torch.version.cuda or torch.version.hip,
            }
        )
    return gpus


def mps_info() -> dict | None:
    """The Apple GPU through MPS, or ``None`` when MPS is not available."""
    if not torch.backends.mps.is_available():
        return None
    info = {
        "chip": cpu_name(),
        "memory": "unified: shared with the CPU",
        "memory_total_gb": round(psutil.virtual_memory().total / 1e9, 1),
    }
    if hasattr(torch.mps, "recommended_max_memory"):
        info["recommended_max_gb"] = round(torch.mps.recommended_max_memory() / 1e9, 1)
    return info


# --- Reports -------------------------------------------------------------------------------------


def report() -> pd.DataFrame:
    """Everything above as one table, indexed by (section, item), for day 1."""
    rows = []
    cpu = cpu_info()
    caches = cpu.pop("caches")
    cpu["vector_extensions"] = ", ".join(cpu["vector_extensions"]) or "none found"
    rows += [("CPU", key, value) for key, value in cpu.items()]
    rows += [("CPU", f"cache {label}", size) for label, size in caches.items()]
    rows += [("PyTorch", key, value) for key, value in torch_info().items()]
    gpus = gpu_info()
    for gpu in gpus:
        section = f"GPU {gpu.pop('index')}"
        rows += [(section, key, value) for key, value in gpu.items()]
    if (mps := mps_info()) is not None:
        rows += [("Apple GPU (MPS)", key, value) for key, value in mps.items()]
    if not gpus and mps is None:
        rows.append(("GPU", "none", "no CUDA, ROCm or MPS device: the course runs on the CPU"))
    rows = [
        (section, item, "n/a" if value is None else str(value)) for section, item, value in rows
    ]
    return pd.DataFrame(rows, columns=["section", "item", "value"]).set_index(["section", "item"])


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
        info["gpu"] = "Apple GPU (MPS), memory shared with the CPU"
    return info


def card_line(info: dict | None = None) -> str:
    """The card in one line, for a plot title or a table caption."""
    info = card() if info is None else info
    where = info.get("gpu") or f"{info['cpu']} ({info['cpu_usable']} CPUs usable)"
    return (
        f"{where} | device {info['device']} | torch {info['torch']} ({info['torch_build']}), "
        f"{info['torch_threads']} thread{'s' if info['torch_threads'] != 1 else ''} | "
        f"Python {info['python']}"
    )
