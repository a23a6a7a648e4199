"""NVML, the NVIDIA driver's own library (behind ``nvidia-smi``), set up once for the course.

Both the hardware report (day 1, section 3: the driver version) and the live view (day 1,
section 5; day 2, section 7: memory and utilisation while something runs) read the GPUs through
:func:`library`. Without an NVIDIA driver
(or without the ``nvidia-ml-py`` package) it returns ``None``, and callers fall back to what
PyTorch or the operating system says.
"""

from __future__ import annotations

import functools
from types import ModuleType


@functools.cache
def library() -> ModuleType | None:
    """The initialised ``pynvml`` module, or ``None`` without an NVIDIA driver (or the package)."""
    try:
        import pynvml
    except ImportError:
        return None
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:
        return None
    return pynvml


def driver_version() -> str | None:
    """The NVIDIA driver version, e.g. ``'570.86.15'``, or ``None`` without a driver."""
    if (lib := library()) is None:
        return None
    version = lib.nvmlSystemGetDriverVersion()
    return version.decode() if isinstance(version, bytes) else version
