"""Many small models in one step: K copies of a network trained together (day 7).

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
* :func:`batching_verdict`: what one batched step bought against the lesson loop, in words;
* :func:`sharing_verdict`: how the batched step's time grew with the copies: a shared fixed cost,
  or work that grows with them.

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
import math
from collections.abc import Callable, Sequence

import torch
from torch import nn
from torch.func import functional_call, stack_module_state, vmap

from helpers.i18n import _
from helpers.models import IrisMLP


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


def batching_verdict(k: int, lesson_seconds, batched_seconds) -> str:
    """K models trained one after another by the lesson loop against one batched step for all
    of them, from their times in the same interleaved rounds (seconds per sample, the same
    epochs). The rounds' ratios are compared in logs (a paired difference of log times, so a
    ratio's noise counts alike whatever the times are): their geometric mean, and a 95 %
    interval that says whether the ratio can be told from 1.

    >>> print(batching_verdict(64, [1.31, 1.25, 1.40], [0.105, 0.098, 0.110]))
    64 models: one batched step trained them 12.7× as fast as the lesson loop one after \
another (geometric mean of 3 rounds' ratios, 95% interval 12.3× to 13.0×): batching pays.
    """
    from helpers.stats import paired_difference

    logs = paired_difference(
        [math.log(t) for t in lesson_seconds], [math.log(t) for t in batched_seconds]
    )
    head = (
        _(
            "{k} models: one batched step trained them {ratio:.1f}× as fast as the "
            "lesson loop one after another (geometric mean of {n} rounds' ratios, "
            "95% interval {low:.1f}× to {high:.1f}×)"
        )
        if k > 1
        else _(
            "{k} model: one batched step trained it {ratio:.1f}× as fast as the "
            "lesson loop (geometric mean of {n} rounds' ratios, 95% interval "
            "{low:.1f}× to {high:.1f}×)"
        )
    ).format(
        k=k, ratio=math.exp(logs.value), n=logs.n, low=math.exp(logs.low), high=math.exp(logs.high)
    )
    if not logs.distinguishable:
        return _(
            "{head}: the interval holds 1×, so no difference these rounds can tell from noise."
        ).format(head=head)
    if logs.value > 0:
        return _("{head}: batching pays.").format(head=head)
    return _(
        "{head}: the batched step is slower here (its own overhead, vmap's "
        "bookkeeping, outweighs what it shares)."
    ).format(head=head)


def sharing_verdict(few: int, many: int, seconds_few: float, seconds_many: float) -> str:
    """How one batched step's time grew from ``few`` copies to ``many``: far slower than the
    copies (the fixed part dominates, and the copies share it), about as fast (the arithmetic
    dominates: stacking shares little), or in between.

    >>> sharing_verdict(1, 64, 0.010, 0.022).split(": ")[-1]
    'the step was mostly its fixed part, and the copies shared it.'
    """
    if not 0 < few < many or seconds_few <= 0 or seconds_many <= 0:
        raise ValueError("need 0 < few < many copies and positive times")
    grew, work = seconds_many / seconds_few, many / few
    head = _(
        "One batched step for {many} copies took {grew:.1f}× the time of one "
        "for {few} (medians), for {work:g}× the arithmetic"
    ).format(many=many, grew=grew, few=few, work=work)
    if grew < work / 4:
        return _("{head}: the step was mostly its fixed part, and the copies shared it.").format(
            head=head
        )
    if grew > 0.8 * work:
        return _(
            "{head}: the time grew with the arithmetic, so stacking shared little here."
        ).format(head=head)
    return _("{head}: part of the step was shared, part grew with the copies.").format(head=head)
