"""What CPU this is: its name, its microarchitecture generation and its vector extensions
(day 1, section 1).

Linux's ``/proc/cpuinfo`` names the chip and gives the family and model numbers that identify its
generation, and the feature flags that say which SIMD instructions it has; macOS answers through
``sysctl``. How many cores and caches it has is in :mod:`helpers.topology`.
"""

from __future__ import annotations

import platform
import subprocess
from pathlib import Path

from helpers.i18n import N_

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
        key, _colon, value = line.partition(":")
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
        N_("model"): number("model"),
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


def sysctl(name: str) -> str | None:
    try:
        out = subprocess.run(
            ["sysctl", "-n", name],
            capture_output=True,
            text=True,
            timeout=5,
            encoding="utf-8",
            errors="replace",
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
            if name := sysctl("machdep.cpu.brand_string"):
                return name
        elif platform.processor():
            return platform.processor()
    except OSError:
        pass
    return platform.machine() or "unknown CPU"


def virtual_machine(flags: list[str] | None = None) -> bool | None:
    """Whether this CPU runs under a hypervisor (a virtual machine: most cloud GPUs' hosts), from
    the x86 ``hypervisor`` flag of ``/proc/cpuinfo`` (or ``flags``); ``None`` where that cannot be
    told (another system, an Arm CPU, no flags).

    >>> virtual_machine(["fpu", "avx2", "hypervisor"]), virtual_machine(["fpu", "avx2"])
    (True, False)
    """
    if flags is None:
        if platform.system() != "Linux":
            return None
        try:
            flags = parse_cpuinfo(Path("/proc/cpuinfo").read_text(encoding="utf-8"))["flags"]
        except OSError:
            return None
    if "fpu" not in flags:  # not an x86 flag list: the flag does not exist there
        return None
    return "hypervisor" in flags
