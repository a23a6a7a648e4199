"""The course's models: small fully connected ReLU networks.

* :class:`MLP` has one hidden layer whose ``nn.Linear`` modules are named ``fc1`` and ``fc2``, so
  that ``self.fc1(x)`` in ``forward`` reads as in the lesson (day 3, section 3 explains why it
  works).
* :class:`IrisMLP` is the lesson's network, 4-10-3 (day 0, section 4; day 2, sections 2 to 7;
  day 5a, section 5; day 5b, section 4; and the homework).
* :func:`mlp` builds a network of any widths, e.g. day 6's wide ``(4, 512, 512, 3)`` (day 6,
  section 1; day 7).

Every constructor takes the sizes in the order data flows: inputs, hidden, outputs.

>>> sum(p.numel() for p in IrisMLP().parameters())
83
>>> mlp((4, 8, 3))
Sequential(
  (0): Linear(in_features=4, out_features=8, bias=True)
  (1): ReLU()
  (2): Linear(in_features=8, out_features=3, bias=True)
)
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn


def _check_widths(widths: Sequence[int]) -> None:
    if len(widths) < 2 or any(not isinstance(w, int) or w < 1 for w in widths):
        raise ValueError(f"widths need at least two positive whole numbers, got {tuple(widths)}")


class MLP(nn.Module):
    """``n_features`` inputs, one hidden ReLU layer of ``hidden`` units, ``n_classes`` scores."""

    def __init__(self, n_features: int, hidden: int, n_classes: int) -> None:
        super().__init__()
        _check_widths((n_features, hidden, n_classes))
        self.fc1 = nn.Linear(n_features, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.relu(self.fc1(x)))


class IrisMLP(MLP):
    """The lesson's network: 4 inputs (Iris measurements), ``hidden`` ReLU units, 3 species."""

    def __init__(self, hidden: int = 10) -> None:
        super().__init__(4, hidden, 3)


def mlp(widths: Sequence[int]) -> nn.Sequential:
    """A ReLU network with the given layer widths, inputs first, e.g. ``(4, 512, 512, 3)``."""
    _check_widths(widths)
    layers: list[nn.Module] = []
    for n_in, n_out in zip(widths[:-1], widths[1:], strict=True):
        layers += [nn.Linear(n_in, n_out), nn.ReLU()]
    return nn.Sequential(*layers[:-1])
