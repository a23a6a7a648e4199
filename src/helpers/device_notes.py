"""What differs between devices, in words (day 2): the same mistake or the same step reads
differently on an NVIDIA GPU (CUDA), an Apple GPU (MPS) and the CPU, so the lesson says what this
machine shows and what the others would.
"""

from __future__ import annotations

from helpers.i18n import _

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
    cuda = _(
        "on an NVIDIA GPU it starts `{error}` and names both devices (`cuda:0`, `cpu`)"
    ).format(error=CUDA_MISMATCH)
    mps = _("on a Mac's GPU (MPS, PyTorch 2.4 and later) it reads `{error}`").format(
        error=MPS_MISMATCH
    )
    if device_type == "cuda":
        return _("That is CUDA's wording; {mps}.").format(mps=mps)
    if device_type == "mps":
        return _("That is how MPS words it; {cuda}.").format(cuda=cuda)
    return _(
        "That is the `{device}` device's version of the error. The same "
        "mistake raises a `RuntimeError` on a GPU too: {cuda}; {mps}."
    ).format(device=device_type, cuda=cuda, mps=mps)


def readback_note(device_type: str) -> str:
    """How to wait for a ``non_blocking`` copy back to the CPU on ``device_type``.

    >>> "torch.mps.synchronize()" in readback_note("mps")
    True
    """
    if device_type == "cuda":
        return _(
            "On CUDA, `non_blocking=True` to the CPU returns before the numbers "
            "have arrived: wait with `torch.cuda.synchronize()` or an event's "
            "`synchronize()` before reading them."
        )
    if device_type == "mps":
        return _(
            "On MPS too, a `non_blocking=True` copy to the CPU may return before "
            "the numbers are there (pytorch/pytorch#140296): call "
            "`torch.mps.synchronize()` before reading them."
        )
    return _(
        "Here the tensors live on the {device} already, so `.to('cpu')` "
        "returns the tensor itself and there is nothing to wait for. With a "
        "GPU, wait before reading a `non_blocking=True` copy: "
        "`torch.cuda.synchronize()` on an NVIDIA GPU, "
        "`torch.mps.synchronize()` on a Mac."
    ).format(device=device_type.upper())


def parameter_move_note(same: bool, target_type: str) -> str:
    """What ``module.to(target)`` did to a Parameter object, and what it means for an optimiser
    made before the move.

    >>> parameter_move_note(False, "meta").startswith("After `.to(meta)` the weight is a new")
    True
    """
    if same:
        return _(
            "After `.to({target})` the weight is the same Parameter object, its "
            "numbers moved into it (PyTorch does that when the old and new tensors "
            "are of compatible kinds, as CPU and CUDA tensors are), so an "
            "optimiser made before the move still holds it. Moving to `meta` makes "
            "new Parameters instead, so the safe habit is to move the model first "
            "and make the optimiser after."
        ).format(target=target_type)
    return _(
        "After `.to({target})` the weight is a new Parameter object: PyTorch "
        "could not move the numbers into the old one (a CPU tensor and a "
        "`{target}` tensor are not of compatible kinds), so an optimiser made "
        "before the move would keep updating the old, orphaned tensors. Move "
        "the model first, then make the optimiser."
    ).format(target=target_type)
