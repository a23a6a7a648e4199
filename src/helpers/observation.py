"""The original lesson's observation, the facts day 5 reproduces and explains (day 5a, section 1;
day 6, section 4 bounds the crossover with it).

A learner ran the lesson's homework on a consumer GPU: 20000 full-batch epochs of the Iris
network, recording the loss every N epochs, and reported a *remaining time*: the total minus
"about 3 s of necessary compute".

>>> student_table()["recordings"].tolist()
[200, 100, 20, 10]
>>> student_fit().b.distinguishable  # four single runs cannot price one recording
False
"""

from __future__ import annotations

import pandas as pd

from helpers.i18n import N_
from helpers.stats import AffineFit, fit_affine

STUDENT_EPOCHS = 20_000
"""Epochs per run in the original observation."""
STUDENT_COMPUTE_S = 3.0
"""The original "about 3 s of necessary compute", subtracted from every run's total."""
STUDENT_RUNS = ((100, 200, 10.43), (200, 100, 10.02), (1000, 20, 10.12), (2000, 10, 9.74))
"""The original observation: (record every N epochs, recordings, remaining time in seconds)."""


def student_table() -> pd.DataFrame:
    """The original observation as a table: ``every``, ``recordings``, ``remaining_s``."""
    return pd.DataFrame(STUDENT_RUNS, columns=["every", N_("recordings"), "remaining_s"])


def student_fit() -> AffineFit:
    """``remaining time = a + b * recordings`` fitted to the student's four runs."""
    table = student_table()
    return fit_affine(table["recordings"], table["remaining_s"])
