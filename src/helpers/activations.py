"""Activation memory: what a training step keeps for its backward pass, predicted from the shapes
and measured on any device (day 7b, section 5).

Between the forward pass and the backward pass, autograd keeps what each operation needs to
compute its gradient: its inputs, its outputs, small statistics. For the character model
(:mod:`helpers.charlm`) in float32 that is, with ``B`` windows of ``T`` characters, width ``d``,
``h`` heads and ``V`` characters in the vocabulary:

* per block, 16 tensors' worth of ``B x T x d`` numbers (the block's input, the normalised
  input, queries, keys, values, the mixed values, the residual, its normalised copy, and the MLP's
  two ``B x T x 4d`` tensors), 4 ``B x T`` norm statistics, and the attention's ``B x h x T x T``
  weights: the one term that grows with ``T`` squared;
* after the blocks, the last norm's input, output and statistics, the ``B x T x V`` log-softmax
  of the output layer, and the int64 tokens, targets and positions.

:func:`predict` adds that up; :func:`saved` measures it with
``torch.autograd.graph.saved_tensors_hooks`` (every tensor autograd saves, one per storage, the
model's own weights and buffers left out), and :func:`kinds` groups a measurement by those shapes.
With ``recompute=True`` (activation checkpointing) a block keeps only its input and runs again in
the backward pass. :func:`largest_batch` finds the batch that fits a memory budget from these
numbers, not by running out of memory; on CUDA, :func:`peak_allocated` and :func:`snapshot`
(a memory timeline for https://pytorch.org/memory_viz) measure the whole step too.

>>> from helpers.charlm import Shape
>>> shape = Shape(vocab=50, context=16, width=32, heads=4, layers=2)
>>> predict(shape, batch=4), predict(shape, batch=4, recompute=True)
(327812, 47236)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import torch

from helpers.charlm import CharTransformer, Shape, loss_of, parameters
from helpers.i18n import N_
from helpers.memory import peak_memory

ADAMW_BYTES = 16
"""Bytes per parameter that do not depend on the batch: the float32 weight, its gradient and
AdamW's two running averages."""


def predict(shape: Shape, batch: int, recompute: bool = False) -> int:
    """The bytes autograd keeps for one float32 training step of ``batch`` windows of
    ``shape.context`` characters (the list in the module's docstring)."""
    b, t, d, h, v = batch, shape.context, shape.width, shape.heads, shape.vocab
    block = 4 * b * t * d if recompute else 4 * (16 * b * t * d + 4 * b * t + b * h * t * t)
    after = 4 * (2 * b * t * d + 2 * b * t + b * t * v)
    integers = 8 * (2 * b * t + t)  # tokens, targets, positions (int64)
    return shape.layers * block + after + integers + 4  # + the loss itself


@dataclass(frozen=True)
class Saved:
    """One tensor autograd kept: its shape, type and the bytes of its storage."""

    shape: tuple[int, ...]
    dtype: str
    bytes: int


def saved(fn: Callable[[], torch.Tensor], model: torch.nn.Module) -> list[Saved]:
    """Every tensor autograd keeps while ``fn()`` runs a forward pass of ``model`` (one per
    storage: views of one tensor count once; ``model``'s weights and buffers left out: they exist
    whether or not it trains). ``fn``'s result is released, so nothing stays alive."""
    own = {t.untyped_storage().data_ptr() for t in [*model.parameters(), *model.buffers()]}
    found: dict[int, Saved] = {}

    def pack(tensor: torch.Tensor) -> torch.Tensor:
        storage = tensor.untyped_storage()
        key = storage.data_ptr()
        if key not in own and key not in found:
            dtype = str(tensor.dtype).removeprefix("torch.")
            found[key] = Saved(tuple(tensor.shape), dtype, storage.nbytes())
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        result = fn()
    del result
    return list(found.values())


def measure(
    shape: Shape,
    batch: int,
    *,
    recompute: bool = False,
    device="cpu",
    autocast: torch.dtype | None = None,
) -> list[Saved]:
    """What one forward pass of a fresh model of ``shape`` keeps for ``batch`` random windows
    (:func:`saved`), with activation checkpointing or autocast when asked."""
    torch.manual_seed(0)
    model = CharTransformer(shape).to(device)
    x, y = (torch.randint(shape.vocab, (batch, shape.context), device=device) for _xy in "xy")
    device_type = torch.device(device).type

    def forward() -> torch.Tensor:
        with torch.autocast(device_type, dtype=autocast, enabled=autocast is not None):
            return loss_of(model, x, y, recompute=recompute)

    return saved(forward, model)


def total(found: list[Saved]) -> int:
    return sum(s.bytes for s in found)


def kinds(found: list[Saved], shape: Shape, batch: int) -> pd.DataFrame:
    """A measurement grouped by what its tensors are, in the shapes' letters (``B x T x d``...):
    how many, their type and their bytes; tensors of no listed size are ``other``."""
    b, t, d, h, v = batch, shape.context, shape.width, shape.heads, shape.vocab
    sizes = {
        b * t * d: "B×T×d",
        b * t * 4 * d: "B×T×4d",
        b * h * t * t: "B×h×T×T",
        b * t * v: "B×T×V",
        b * t: "B×T",
        t: "T",
        1: N_("loss"),
    }
    rows = []
    for s in found:
        elements = 1
        for n in s.shape:
            elements *= n
        rows.append(
            {
                N_("tensor"): sizes.get(elements, N_("other")),
                N_("type"): s.dtype,
                N_("bytes"): s.bytes,
            }
        )
    table = pd.DataFrame(rows).groupby(["tensor", "type"], sort=False)["bytes"]
    return table.agg(count="count", bytes="sum").reset_index()


def steady_bytes(shape: Shape) -> int:
    """Bytes a training step needs whatever the batch: weights, gradients, AdamW's state."""
    return ADAMW_BYTES * parameters(shape)


def largest_batch(shape: Shape, budget: int, recompute: bool = False) -> int:
    """The largest batch whose predicted memory (:func:`steady_bytes` plus :func:`predict`) fits
    in ``budget`` bytes; 0 when not even one window does. Found from the formula (linear in the
    batch), not by trying batches until one fails."""
    fixed = steady_bytes(shape) + predict(shape, 0, recompute)
    per_window = predict(shape, 1, recompute) - predict(shape, 0, recompute)
    return max(0, (budget - fixed) // per_window)


def peak_allocated(fn: Callable[[], object], device: torch.device) -> int | None:
    """The most bytes PyTorch's CUDA allocator held while ``fn()`` ran, above what it held
    before; ``None`` off CUDA (a CPU has no such counter: day 7 reads the process's memory)."""
    return peak_memory(fn, device) if device.type == "cuda" else None


def snapshot(fn: Callable[[], object], device: torch.device, path: Path) -> Path | None:
    """Record every CUDA allocation while ``fn()`` runs and write the timeline to ``path`` (a
    pickle to drop on https://pytorch.org/memory_viz); ``None`` off CUDA or where this PyTorch
    has no recorder (``torch.cuda.memory._record_memory_history`` is a private API)."""
    memory = torch.cuda.memory
    recorder = getattr(memory, "_record_memory_history", None)
    if device.type != "cuda" or recorder is None or not hasattr(memory, "_dump_snapshot"):
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    recorder(max_entries=100_000)
    try:
        fn()
        memory._dump_snapshot(str(path))
    finally:
        recorder(enabled=None)
    return path
