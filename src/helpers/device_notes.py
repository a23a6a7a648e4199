"""What differs between devices, in words (day 2): the same mistake or the same step reads
differently on an NVIDIA GPU (CUDA), an Apple GPU (MPS) and the CPU, so the lesson says what this
machine shows and what the others would.
"""

from __future__ import annotations

from helpers.messages import text

CUDA_MISMATCH = "Expected all tensors to be on the same device"
"""How CUDA's device-mismatch error starts (it then names both devices, e.g. ``cuda:0`` and
``cpu``)."""

MPS_MISMATCH = "Tensor for argument input is on cpu but expected on mps"
"""MPS's wording of the same error since PyTorch 2.4 (pytorch/pytorch#130790)."""


def mismatch_note(device_type: str) -> str:
    """What the device-mismatch error says on the other devices than ``device_type``.

    >>> mismatch_note("mps").startswith("That is how MPS words it")
    True
    """
    cuda = text("device_notes.mismatch.cuda_words", error=CUDA_MISMATCH)
    mps = text("device_notes.mismatch.mps_words", error=MPS_MISMATCH)
    if device_type == "cuda":
        return text("device_notes.mismatch.on_cuda", mps=mps)
    if device_type == "mps":
        return text("device_notes.mismatch.on_mps", cuda=cuda)
    return text("device_notes.mismatch.other", device=device_type, cuda=cuda, mps=mps)


def readback_note(device_type: str) -> str:
    """How to wait for a ``non_blocking`` copy back to the CPU on ``device_type``.

    >>> "torch.mps.synchronize()" in readback_note("mps")
    True
    """
    if device_type in ("cuda", "mps"):
        return text(f"device_notes.readback.{device_type}")
    return text("device_notes.readback.other", device=device_type.upper())


def parameter_move_note(same: bool, target_type: str) -> str:
    """What ``module.to(target)`` did to a Parameter object, and what it means for an optimiser
    made before the move.

    >>> parameter_move_note(False, "meta").startswith("After `.to(meta)` the weight is a new")
    True
    """
    if same:
        return text("device_notes.moved.same", target=target_type)
    return text("device_notes.moved.new", target=target_type)
