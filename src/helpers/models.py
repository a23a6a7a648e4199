"""The course's models."""

from __future__ import annotations

import torch
from torch import nn


class MLP(nn.Module):
    """A network with one hidden ReLU layer: ``n_features`` inputs, ``n_classes`` scores (logits).

    ``self.fc1`` and ``self.fc2`` are ``nn.Linear`` modules; ``forward`` calls them like functions,
    ``self.fc1(x)``, which day 3 explains.
    """

    def __init__(self, n_features: int, hidden: int, n_classes: int) -> None:
        super().__init__()
        for name, value in (("n_features", n_features), ("hidden", hidden),
                            ("n_classes", n_classes)):  # fmt: skip
            if value < 1:
                raise ValueError(f"{name} must be a positive number of units, got {value}")
        self.fc1 = nn.Linear(n_features, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.relu(self.fc1(x)))


class IrisMLP(MLP):
    """The lesson's network: 4 inputs (Iris measurements), ``hidden`` ReLU units, 3 species."""

    def __init__(self, hidden: int = 10, n_features: int = 4, n_classes: int = 3) -> None:
        super().__init__(n_features, hidden, n_classes)
