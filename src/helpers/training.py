"""The lesson's training loop, and the one SGD step every training loop of the course takes
(day 0, section 4).

:func:`sgd_step` is one step: zero the gradients, forward, cross-entropy loss, backward, update.
:func:`train` is the lesson's loop around it: full batch (every epoch sees all training rows at
once), plain SGD with learning rate 0.01, and an optional ``losses.append(loss.item())`` every
``record_every`` epochs, the line whose cost day 5 measures. Used on days 0, 2, 4, 5, 6 and 7 (what
day 0 says about a run is :mod:`helpers.day00`'s).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
from torch import nn
from tqdm.auto import tqdm

from helpers.i18n import _
from helpers.timing import timed


@dataclass
class TrainResult:
    """What :func:`train` returns."""

    losses: list[float] = field(default_factory=list)
    """The recorded losses, one per recording."""
    recorded_epochs: list[int] = field(default_factory=list)
    """The epoch (0-based) of each recorded loss."""
    seconds: float = 0.0
    """Wall time of the loop, with the device synchronised before and after."""
    final_loss: float = float("nan")
    """The loss of the last epoch, read once after the timed loop."""
    device: str = "cpu"

    @property
    def recordings(self) -> int:
        return len(self.losses)


def sgd_step(
    model: nn.Module, optimizer: torch.optim.Optimizer, X: torch.Tensor, y: torch.Tensor
) -> torch.Tensor:
    """One training step on the batch ``(X, y)``; returns the loss (a tensor: reading it with
    ``.item()`` is left to the caller, since on a GPU that waits for the device).

    >>> torch.manual_seed(0) and None
    >>> model = torch.nn.Linear(2, 2)
    >>> optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    >>> X, y = torch.tensor([[1.0, 0.0], [0.0, 1.0]]), torch.tensor([0, 1])
    >>> first = sgd_step(model, optimizer, X, y).item()
    >>> second = sgd_step(model, optimizer, X, y).item()
    >>> second < first
    True
    """
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(X), y)
    loss.backward()
    optimizer.step()
    return loss


def _check_arguments(model, X, y, epochs, record_every) -> None:
    """:func:`train`'s arguments, checked before anything runs (``ValueError`` says the fix)."""
    if not isinstance(epochs, int) or epochs < 1:
        raise ValueError(f"epochs must be a positive integer, got {epochs!r}")
    if record_every is not None and (not isinstance(record_every, int) or record_every < 1):
        raise ValueError(
            f"record_every must be a positive integer or None (never record), got {record_every!r}"
        )
    devices = {str(X.device), str(y.device)} | {str(p.device) for p in model.parameters()}
    if len(devices) > 1:
        raise ValueError(
            f"model and data are on different devices ({', '.join(sorted(devices))}); "
            "move them to one with model.to(device), X = X.to(device), y = y.to(device)"
        )


def train(
    model: nn.Module,
    X: torch.Tensor,
    y: torch.Tensor,
    epochs: int,
    *,
    lr: float = 0.01,
    record_every: int | None = None,
    progress: bool = True,
) -> TrainResult:
    """Train ``model`` on ``(X, y)`` full batch for ``epochs`` epochs, as in the lesson.

    Args:
        model: the network, already on the same device as ``X`` and ``y``.
        X: features, shape ``(rows, features)``.
        y: class indices (int64), shape ``(rows,)``.
        epochs: number of full-batch steps.
        lr: SGD learning rate.
        record_every: record ``loss.item()`` when ``epoch % record_every == 0``; ``None`` records
            nothing. Each recording makes the CPU wait for the device (a synchronisation).
        progress: show a progress bar.

    Returns:
        The recorded losses, the epochs they were recorded at, and the loop's wall time.
    """
    _check_arguments(model, X, y, epochs, record_every)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    result = TrainResult(device=str(X.device))
    chunk = max(1, epochs // 100)  # update the bar about 100 times, not every epoch
    model.train()
    bar = tqdm(total=epochs, desc=_("training"), unit="epoch", disable=not progress)
    with bar, timed(X.device) as watch:
        for epoch in range(epochs):
            loss = sgd_step(model, optimizer, X, y)
            if record_every is not None and epoch % record_every == 0:
                result.losses.append(loss.item())
                result.recorded_epochs.append(epoch)
            if (epoch + 1) % chunk == 0 or epoch + 1 == epochs:
                bar.update((epoch + 1) - bar.n)
    result.seconds = watch.seconds
    result.final_loss = loss.item()
    return result
