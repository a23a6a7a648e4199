"""The course's models."""

from __future__ import annotations

import torch
from torch import nn


class IrisMLP(nn.Module):
    """The lesson's network: 4 inputs, one hidden ReLU layer, 3 class scores (logits).

    ``self.fc1`` and ``self.fc2`` are ``nn.Linear`` modules; ``forward`` calls them like functions,
    ``self.fc1(x)``, which day 3 explains.
    """

    def __init__(self, hidden: int = 10, n_features: int = 4, n_classes: int = 3) -> None:
        super().__init__()
        if hidden < 1:
            raise ValueError(f"hidden must be a positive number of units, got {hidden}")
        self.fc1 = nn.Linear(n_features, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.relu(self.fc1(x)))
