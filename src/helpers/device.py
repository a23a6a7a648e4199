"""Choosing the device to compute on, and waiting for it (day 0, section 2; day 2, section 1).

``get_device()`` picks the best device this machine has: an NVIDIA (or AMD ROCm) GPU through
CUDA, then an Apple GPU through MPS, then the CPU. Set ``COURSE_DEVICE`` (``cpu``, ``cuda``,
``cuda:1``, ``mps``) to force one; asking for a device that is not there raises
:class:`DeviceUnavailableError`, which says what is available.

GPUs run asynchronously: a call such as ``model(x)`` on CUDA returns before the GPU has finished.
``synchronize(device)`` waits until it has, and every timing in the course calls it before reading
the clock. Every day uses it.

>>> get_device("cpu")
device(type='cpu')
>>> "cpu" in available_devices()
True
"""

from __future__ import annotations

import os

import torch

from helpers.i18n import _


class DeviceUnavailableError(RuntimeError):
    """A device was asked for that this machine (or this build of PyTorch) does not have."""


def available_devices() -> list[str]:
    """The devices PyTorch can use here, best first, e.g. ``['cuda:0', 'cuda:1', 'cpu']``."""
    found = []
    if torch.cuda.is_available():
        found += [f"cuda:{i}" for i in range(torch.cuda.device_count())]
    if torch.backends.mps.is_available():
        found.append("mps")
    found.append("cpu")
    return found


def _why_missing(kind: str) -> str:
    if kind == "cuda":
        if torch.version.cuda is None and torch.version.hip is None:
            return _(
                "this PyTorch is a CPU-only build (torch {torch}); install a CUDA "
                "build (see the README, 'Getting the right PyTorch')"
            ).format(torch=torch.__version__)
        return _("PyTorch has CUDA support but finds no GPU (no GPU, or no working driver)")
    if kind == "mps":
        if not torch.backends.mps.is_built():
            return _("this PyTorch was built without MPS (MPS exists only on Apple silicon Macs)")
        return _("MPS is built in but not available (it needs macOS 12.3+ on Apple silicon)")
    return _("PyTorch does not support this device type in this course")


def get_device(name: str | None = None) -> torch.device:
    """The device to compute on.

    Args:
        name: ``"cpu"``, ``"cuda"``, ``"cuda:N"`` or ``"mps"``. When ``None``, the ``COURSE_DEVICE``
            environment variable is used if set, else the best available device (CUDA, MPS, CPU).

    Raises:
        DeviceUnavailableError: the device asked for does not exist here; the message lists the
            devices that do and why the one asked for is missing.
    """
    if name is None:
        name = os.environ.get("COURSE_DEVICE", "").strip() or None
        source = "COURSE_DEVICE"
    else:
        source = "get_device()"
    available = available_devices()
    if name is None:
        best = available[0]
        return torch.device("cuda" if best.startswith("cuda") else best)

    try:
        device = torch.device(name)
    except RuntimeError:
        raise DeviceUnavailableError(
            _(
                "{source} asked for {name!r}, which is not a device name. Use one of: {available}."
            ).format(source=source, name=name, available=", ".join(available))
        ) from None
    kind = device.type
    if kind == "cpu":
        return device
    present = [d for d in available if d.split(":")[0] == kind]
    if not present:
        raise DeviceUnavailableError(
            _("{source} asked for {name!r}, but {why}. Available here: {available}.").format(
                source=source, name=name, why=_why_missing(kind), available=", ".join(available)
            )
        )
    if device.index is not None and kind == "cuda" and f"cuda:{device.index}" not in present:
        raise DeviceUnavailableError(
            _(
                "{source} asked for {name!r}, but this machine has {n} CUDA device(s) "
                "({present}). Available here: {available}."
            ).format(
                source=source,
                name=name,
                n=len(present),
                present=", ".join(present),
                available=", ".join(available),
            )
        )
    return device


def synchronize(device: torch.device | str | None = None) -> None:
    """Wait until all work queued on ``device`` has finished (no-op on the CPU).

    Call it before reading a clock: without it, a GPU timing measures only how long it took Python
    to *queue* the work.
    """
    device = torch.device(device) if device is not None else get_device()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    elif device.type == "mps":
        torch.mps.synchronize()
