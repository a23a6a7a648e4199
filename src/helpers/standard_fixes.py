"""The lesson's loop made faster the way real training code does it (day 5b, section 4).

Every fix here keeps the lesson's code as it is (a model, an optimiser, autograd, ``backward()``)
and changes one thing that carries over to any training loop; each computes the same losses as the
lesson's loop (``tests/test_standard_fixes.py`` checks):

* :func:`kept_loop`: no ``.item()`` inside the loop, the losses stay on the device and are read
  once at the end (no synchronisation per epoch);
* :func:`fused_loop`: the same, with the optimiser's update done by one fused operator per step
  (``torch.optim.SGD(..., fused=True)``) instead of a few per parameter;
* :func:`compiled_loop`: the same, with the model compiled by ``torch.compile`` (its forward and,
  through AOTAutograd, its backward become a few generated kernels) and the optimiser's step
  compiled too, as PyTorch's tutorial on compiling the optimiser does; ``mode="reduce-overhead"``
  adds CUDA graphs on an NVIDIA GPU;
* :func:`graphed_loop` (NVIDIA GPUs only): the model's forward and backward recorded once as CUDA
  graphs by ``torch.cuda.make_graphed_callables`` and replayed with one launch each.

What real code rarely writes, the hand-written step and several epochs per compiled call, are the
ceilings in :mod:`helpers.loops`. :data:`STANDARD` names the variants in the order a lesson takes
them, with the devices they need.

>>> [name for name, needs in STANDARD.items() if needs is None]
['losses kept on the device', 'fused optimiser', 'model and step compiled']
"""

from __future__ import annotations

import logging

import torch
from torch import nn

from helpers.i18n import N_

STANDARD = {
    N_("losses kept on the device"): None,
    N_("fused optimiser"): None,
    N_("model and step compiled"): None,
    N_("model and step compiled, reduce-overhead"): "cuda",
    N_("model as CUDA graphs (make_graphed_callables)"): "cuda",
}
"""The standard-code variants, in order, with the device type each needs (None: any)."""
STANDARD_CODE, CEILING = N_("standard code"), N_("ceiling")
"""The two kinds of variant: code any training loop can use, and what real code rarely writes."""


def kind(name: str) -> str:
    """:data:`STANDARD_CODE` for the lesson's loop and the variants of :data:`STANDARD`,
    :data:`CEILING` for the rest (the hand-written step and what is built on it).

    >>> kind("fused optimiser"), kind("lesson loop, .item() every 100 epochs"), kind("x")
    ('standard code', 'standard code', 'ceiling')
    """
    return STANDARD_CODE if name in STANDARD or name.startswith("lesson loop") else CEILING


def _fused_sgd(model: nn.Module, lr: float) -> torch.optim.SGD:
    return torch.optim.SGD(model.parameters(), lr=lr, fused=True)


def _loop(model, optimizer, X, y, epochs: int, step_fn=None) -> list[float]:
    losses = []
    step = step_fn or optimizer.step
    for _epoch in range(epochs):
        optimizer.zero_grad(set_to_none=True)
        loss = nn.functional.cross_entropy(model(X), y)
        loss.backward()
        step()
        losses.append(loss.detach())  # a reference to a number on the device: no waiting
    return torch.stack(losses).tolist()  # one copy, one wait


def kept_loop(
    model: nn.Module, X: torch.Tensor, y: torch.Tensor, epochs: int, lr: float = 0.01
) -> list[float]:
    """The lesson's loop without ``.item()``: every loss read once at the end."""
    return _loop(model, torch.optim.SGD(model.parameters(), lr=lr), X, y, epochs)


def fused_loop(
    model: nn.Module, X: torch.Tensor, y: torch.Tensor, epochs: int, lr: float = 0.01
) -> list[float]:
    """:func:`kept_loop` with a fused optimiser: one operator updates every parameter."""
    return _loop(model, _fused_sgd(model, lr), X, y, epochs)


class _ProfilerLabelNote(logging.Filter):
    """Drops Dynamo's note that it ignores the profiler label around ``optimizer.step()`` (every
    optimiser's step carries one): true, and nothing a learner can act on."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Profiler record function" not in record.getMessage()


class Compiled:
    """A model and its fused optimiser compiled once, trained by :meth:`loop` as often as asked
    (compilation happens at the first call; later calls reuse it).

    ``mode``: ``torch.compile``'s mode (``None``, or ``"reduce-overhead"`` for CUDA graphs)."""

    def __init__(self, model: nn.Module, lr: float = 0.01, mode: str | None = None):
        self.model, self.lr = model, lr
        self.compiled = torch.compile(model, mode=mode)  # imports Dynamo and its log handlers
        for name in ("torch", "torch._dynamo"):
            for handler in logging.getLogger(name).handlers:
                if not any(isinstance(f, _ProfilerLabelNote) for f in handler.filters):
                    handler.addFilter(_ProfilerLabelNote())
        self.optimizer = _fused_sgd(model, lr)
        self.step = torch.compile(self.optimizer.step, mode=mode)

    def loop(self, X: torch.Tensor, y: torch.Tensor, epochs: int) -> list[float]:
        return _loop(self.compiled, self.optimizer, X, y, epochs, step_fn=self.step)

    def restart(self, state: dict) -> Compiled:
        """Reset the weights to ``state`` (a ``state_dict``) and the optimiser, keeping what was
        compiled: each timed run starts from the same network, as the other variants do."""
        with torch.no_grad():
            for name, tensor in self.model.state_dict().items():
                tensor.copy_(state[name])
        self.optimizer.state.clear()
        return self


def compiled_loop(
    model: nn.Module,
    X: torch.Tensor,
    y: torch.Tensor,
    epochs: int,
    lr: float = 0.01,
    mode: str | None = None,
) -> list[float]:
    """:func:`fused_loop` with the model and the optimiser's step compiled (compiles on the
    first epoch: use :class:`Compiled` to compile once and time later runs)."""
    return Compiled(model, lr, mode).loop(X, y, epochs)


def graphed_loop(
    model: nn.Module, X: torch.Tensor, y: torch.Tensor, epochs: int, lr: float = 0.01
) -> list[float]:
    """:func:`fused_loop` with the model's forward and backward as CUDA graphs
    (``torch.cuda.make_graphed_callables``): an NVIDIA GPU only."""
    if X.device.type != "cuda":
        raise ValueError(f"CUDA graphs need an NVIDIA GPU; the data are on {X.device}")
    graphed = torch.cuda.make_graphed_callables(model, (X,))
    return _loop(graphed, _fused_sgd(model, lr), X, y, epochs)
