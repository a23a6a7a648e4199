"""Many small models in one step: K copies of a network trained together (day 7, section 5).

A tiny network cannot fill a device: its step is a few dozen small operations, each paying a
fixed dispatch cost however little arithmetic it does (days 5 and 6). Training **many** tiny
models (other seeds, other learning rates, an ensemble) one after another pays that cost K times.
Stacked, the K copies' weights become one tensor per layer with a leading dimension of K, and one
step runs every copy: each operation now carries K times the arithmetic for about the same
dispatch cost.

``torch.func`` does the stacking for any module: ``stack_module_state`` stacks the copies'
parameters, ``functional_call`` runs the module with weights handed in, and ``vmap`` maps that
call over the leading dimension. Autograd then differentiates the sum of the copies' losses;
copy k's weights touch only copy k's loss, so each copy gets exactly its own gradient.

* :func:`copies`: K networks, copy k initialised from seed ``seed + k``;
* :class:`ModelStack`: the K copies stacked, with :meth:`ModelStack.step` (one SGD step for all,
  each copy with its own learning rate) and :meth:`ModelStack.copy_weights` (one copy's weights);
* :func:`batching_gain`: what one batched step bought against the lesson loop, as a ratio with
  its interval (a :class:`helpers.stats.Gain`);
* :func:`sharing`: how the batched step's time grew with the copies, against the arithmetic (a
  :class:`Sharing`): a shared fixed cost, or work that grows with them.

This module computes; what the figures say, the lesson says (:mod:`helpers.day07`).

>>> from helpers.data import load_iris_split
>>> X, _, y, _ = load_iris_split()
>>> stack = ModelStack(copies(4), lr=[0.01, 0.05, 0.1, 0.5])
>>> stack(X).shape  # 4 copies, 120 rows, 3 scores
torch.Size([4, 120, 3])
>>> first, later = stack.step(X, y), [stack.step(X, y) for _ in range(50)][-1]
>>> bool((later < first).all())  # every copy learned
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch
from torch import nn
from torch.func import functional_call, stack_module_state, vmap

from helpers.models import IrisMLP

if TYPE_CHECKING:  # helpers.stats imports scipy: only when a gain is computed
    from helpers.stats import Gain


def copies(k: int, *, seed: int = 0, make: Callable[[], nn.Module] = IrisMLP) -> list[nn.Module]:
    """``k`` networks from ``make()``, copy ``i`` initialised after ``torch.manual_seed(seed +
    i)``: the same networks one would train one at a time with those seeds."""
    if k < 1:
        raise ValueError(f"need at least one copy, got {k}")
    models = []
    for i in range(k):
        torch.manual_seed(seed + i)
        models.append(make())
    return models


class ModelStack:
    """``len(models)`` copies of one architecture, stacked: one step trains them all.

    ``lr``: one learning rate for every copy, or one per copy. The update is plain SGD,
    ``weight -= lr * gradient`` (what ``torch.optim.SGD`` without momentum does), written out
    so that each copy can have a learning rate of its own.
    """

    def __init__(self, models: Sequence[nn.Module], lr: float | Sequence[float]) -> None:
        if not models:
            raise ValueError("need at least one model to stack")
        params, self.buffers = stack_module_state(list(models))
        self.params = {name: p.detach().requires_grad_() for name, p in params.items()}
        device = next(iter(self.params.values())).device
        rates = torch.as_tensor(lr, dtype=torch.float32, device=device).flatten()
        if len(rates) not in (1, len(models)):
            raise ValueError(f"give one learning rate or {len(models)}, got {len(rates)}")
        self.lr = rates.expand(len(models)).clone()
        skeleton = copy.deepcopy(models[0]).to("meta")  # the architecture, without weights

        def one(params, buffers, X):
            return functional_call(skeleton, (params, buffers), (X,))

        self._forward = vmap(one, in_dims=(0, 0, None))  # every copy, the same rows

    def __len__(self) -> int:
        return len(self.lr)

    def __call__(self, X: torch.Tensor) -> torch.Tensor:
        """Every copy's output on the rows ``X``: shape ``(copies, rows, outputs)``."""
        return self._forward(self.params, self.buffers, X)

    def step(self, X: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """One full-batch SGD step of every copy (cross-entropy, as the lesson's loop); returns
        each copy's loss before the step, shape ``(copies,)``, without reading it (no sync)."""
        k, rows = len(self), len(X)
        for p in self.params.values():
            p.grad = None
        scores = self(X)
        losses = nn.functional.cross_entropy(
            scores.reshape(k * rows, -1), y.repeat(k), reduction="none"
        ).view(k, rows)
        per_copy = losses.mean(dim=1)  # each copy's loss, as if trained alone
        per_copy.sum().backward()  # copy i's weights reach only copy i's loss
        with torch.no_grad():
            for p in self.params.values():
                p.sub_(self.lr.view(-1, *[1] * (p.dim() - 1)) * p.grad)
        return per_copy.detach()

    def train(self, X: torch.Tensor, y: torch.Tensor, epochs: int) -> torch.Tensor:
        """``epochs`` steps; returns the last step's losses (still on the device)."""
        if epochs < 1:
            raise ValueError(f"epochs must be at least 1, got {epochs}")
        for _epoch in range(epochs):
            losses = self.step(X, y)
        return losses

    def copy_weights(self, i: int) -> dict[str, torch.Tensor]:
        """Copy ``i``'s weights, named as in one network's ``state_dict``."""
        return {name: p[i].detach().clone() for name, p in self.params.items()}


def batching_gain(lesson_seconds: Sequence[float], batched_seconds: Sequence[float]) -> Gain:
    """K models trained one after another by the lesson loop against one batched step for all
    of them, from their times in the same interleaved rounds (seconds per sample, the same
    epochs). The rounds' ratios are compared in logs (a paired difference of log times, so a
    ratio's noise counts alike whatever the times are): their geometric mean, and a 95 %
    interval that says whether the ratio can be told from 1.

    >>> gain = batching_gain([1.31, 1.25, 1.40], [0.105, 0.098, 0.110])
    >>> round(gain.ratio, 1), round(gain.low, 1), round(gain.high, 1), gain.distinguishable
    (12.7, 12.3, 13.0, True)
    """
    from helpers.stats import paired_ratio

    return paired_ratio(lesson_seconds, batched_seconds)


@dataclass(frozen=True)
class Sharing:
    """How one batched step's time grew from ``few`` copies to ``many``."""

    few: int
    many: int
    grew: float
    """The time for ``many`` copies over the time for ``few`` (medians)."""

    @property
    def work(self) -> float:
        """How many times the arithmetic ``many`` copies do, against ``few``."""
        return self.many / self.few


def sharing(few: int, many: int, seconds_few: float, seconds_many: float) -> Sharing:
    """How one batched step's time grew from ``few`` copies to ``many`` (their median times).

    >>> found = sharing(1, 64, 0.010, 0.022)
    >>> round(found.grew, 1), found.work
    (2.2, 64.0)
    """
    if not 0 < few < many or seconds_few <= 0 or seconds_many <= 0:
        raise ValueError("need 0 < few < many copies and positive times")
    return Sharing(few, many, seconds_many / seconds_few)
