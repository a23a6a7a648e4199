"""The course's two data sets.

* Iris (150 flowers, 4 features, 3 species) ships with scikit-learn and works offline.
  :func:`load_iris_split` gives the lesson's split as tensors.
* Heart Disease (UCI, Cleveland: 303 patients, 13 features, a few real missing values) ships in the
  repository's ``data/`` folder with its provenance in ``data/README.md``. :func:`load_heart` reads
  it and checks it is the file the course expects.
* :class:`SlowDataset` stands for data that is slow to load (day 7).

Iris is used on days 0, 2, 3 and 5; Heart Disease on day 4.

>>> X_train, X_test, y_train, y_test = load_iris_split()
>>> tuple(X_train.shape), tuple(X_test.shape), y_train.dtype
((120, 4), (30, 4), torch.int64)
>>> load_heart().shape
(303, 15)
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pandas as pd
import torch
from sklearn.datasets import load_iris
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from helpers.paths import HEART_CSV

HEART_SHA256 = "a5195b7562ca4f48bda400649bfee2a7d7ed70ff72fb5cc0c486c68fd68f7f62"
HEART_ROWS = 303
HEART_FEATURES = [
    "age", "sex", "cp", "trestbps", "chol", "fbs", "restecg",
    "thalach", "exang", "oldpeak", "slope", "ca", "thal",
]  # fmt: skip


class DataFileError(ValueError):
    """A course data file is missing, damaged or not the file the course expects."""


def load_iris_split(
    device: torch.device | str | None = None, seed: int = 42
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """The lesson's Iris split: ``X_train, X_test, y_train, y_test``.

    120 training and 30 test rows, stratified by species. Features are float32, standardised with
    a scaler fitted on the training rows only (so nothing about the test rows leaks into training);
    labels are int64 class indices 0-2. Tensors are on ``device`` (the CPU when ``None``).
    """
    iris = load_iris()
    X_train, X_test, y_train, y_test = train_test_split(
        iris.data, iris.target, test_size=30, stratify=iris.target, random_state=seed
    )
    scaler = StandardScaler().fit(X_train)
    tensors = (
        torch.tensor(scaler.transform(X_train), dtype=torch.float32),
        torch.tensor(scaler.transform(X_test), dtype=torch.float32),
        torch.tensor(y_train, dtype=torch.int64),
        torch.tensor(y_test, dtype=torch.int64),
    )
    device = torch.device(device) if device is not None else torch.device("cpu")
    return tuple(t.to(device) for t in tensors)  # type: ignore[return-value]


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_heart(path: str | Path | None = None, verify: bool = True) -> pd.DataFrame:
    """The UCI Heart Disease (Cleveland) data as a DataFrame.

    Columns: the 13 features (``age`` ... ``thal``, floats, with ``NaN`` where the source has
    ``?``), ``num`` (the diagnosis, 0-4) and ``target`` (``num > 0`` as 0/1). See
    ``data/README.md`` for what each column means.

    Args:
        path: the CSV file; defaults to ``data/heart_cleveland.csv`` in the repository.
        verify: check the file's SHA-256 against the course's copy (turn off for your own file).

    Raises:
        DataFileError: the file is missing, is not a CSV, has other columns or another number of
            rows, or (with ``verify``) its content differs from the course's copy. The message says
            what is wrong and where the file should be.
    """
    path = Path(path) if path is not None else HEART_CSV
    restore = (
        f"The course's copy belongs at {HEART_CSV}; restore it with "
        "`git checkout -- data/heart_cleveland.csv` (see data/README.md for its source)."
    )
    if not path.is_file():
        raise DataFileError(f"Heart Disease data not found at {path}. {restore}")
    try:
        df = pd.read_csv(path, na_values="?")
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as err:
        raise DataFileError(f"{path} is not a readable CSV file ({err}). {restore}") from None

    expected = [*HEART_FEATURES, "num"]
    if list(df.columns) != expected:
        missing = [c for c in expected if c not in df.columns]
        extra = [c for c in df.columns if c not in expected]
        raise DataFileError(
            f"{path} has the wrong columns (missing: {missing or 'none'}; unexpected: "
            f"{extra or 'none'}; expected, in order: {expected}). {restore}"
        )
    if len(df) != HEART_ROWS:
        raise DataFileError(
            f"{path} has {len(df)} rows of data; the Cleveland data has {HEART_ROWS}. {restore}"
        )
    non_numeric = [c for c in expected if not pd.api.types.is_numeric_dtype(df[c])]
    if non_numeric:
        raise DataFileError(
            f"{path} has non-numeric values in {non_numeric} (missing values must be written '?'). "
            f"{restore}"
        )
    if verify and (digest := _sha256(path)) != HEART_SHA256:
        raise DataFileError(
            f"{path} has the right shape but different content (SHA-256 {digest[:12]}..., expected "
            f"{HEART_SHA256[:12]}...): it was edited or damaged. {restore} "
            "To load a file of your own, pass verify=False."
        )
    df["num"] = df["num"].astype("int64")
    df["target"] = (df["num"] > 0).astype("int64")
    return df


class SlowDataset(torch.utils.data.Dataset):
    """A data set whose items are slow to produce, like images that must be decoded.

    Each item costs ``decode_ms`` milliseconds of CPU work (a busy loop, as JPEG decoding would
    be), then returns ``features`` random numbers and a class label, the same for the same index.
    It lives here, not in a notebook, so that ``DataLoader`` workers can import it on platforms
    that start them with *spawn* (Windows, macOS): those cannot pickle a notebook's classes.
    """

    def __init__(
        self, n: int = 2048, features: int = 64, decode_ms: float = 0.5, classes: int = 10
    ):
        if n < 1 or features < 1 or classes < 1 or decode_ms < 0:
            raise ValueError(
                f"need n, features, classes >= 1 and decode_ms >= 0; got n={n}, "
                f"features={features}, classes={classes}, decode_ms={decode_ms}"
            )
        self.n, self.features, self.decode_ms, self.classes = n, features, decode_ms, classes

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index: int) -> tuple[torch.Tensor, torch.Tensor]:
        if not 0 <= index < self.n:
            raise IndexError(f"index {index} out of range for {self.n} items")
        deadline = time.perf_counter() + self.decode_ms / 1000
        while time.perf_counter() < deadline:  # the "decoding": CPU work, not sleeping
            pass
        generator = torch.Generator().manual_seed(index)
        x = torch.randn(self.features, generator=generator)
        return x, torch.tensor(index % self.classes)
