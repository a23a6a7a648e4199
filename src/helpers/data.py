"""The course's data sets (day 0, section 3; day 4, section 1; day 7b, section 1).

* Iris (150 flowers, 4 features, 3 species) ships with scikit-learn and works offline.
  :func:`load_iris_split` gives the lesson's split as tensors.
* Heart Disease (UCI, Cleveland: 303 patients, 13 features, a few real missing values) ships in the
  repository's ``data/`` folder with its provenance in ``data/README.md``. :func:`load_heart` reads
  it and checks it is the file the course expects.
* :class:`JpegDataset`: small JPEG photos decoded on every read, data that is slow to load
  (day 7; day 6 uses its measured rate).
* Three Hundred Tang Poems (唐诗三百首, public domain), one poem a line, ships in ``data/`` too:
  :func:`load_poems` reads it and checks it (day 7b's text).

Iris is used on days 0, 2, 3 and 5; Heart Disease on day 4; the poems on day 7b.

>>> X_train, X_test, y_train, y_test = load_iris_split()
>>> tuple(X_train.shape), tuple(X_test.shape), y_train.dtype
((120, 4), (30, 4), torch.int64)
>>> load_heart().shape
(303, 15)
>>> load_poems().splitlines()[1]
'白日依山尽，黄河入海流。欲穷千里目，更上一层楼。'
"""

from __future__ import annotations

import hashlib
import io
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import torch

from helpers.i18n import _
from helpers.paths import HEART_CSV, POEMS

if TYPE_CHECKING:
    import pandas as pd

# pandas and scikit-learn are imported where they are used: a DataLoader worker started with
# spawn (macOS, Windows) imports this module afresh for JpegDataset, and they would add seconds
# to every worker's start.

HEART_SHA256 = "a5195b7562ca4f48bda400649bfee2a7d7ed70ff72fb5cc0c486c68fd68f7f62"
HEART_ROWS = 303
POEMS_SHA256 = "58fb68b8208643768f072b813f27548f6a458a079f113cfd1e69856fd8a3e1d7"
HEART_FEATURES = [
    "age",
    "sex",
    "cp",
    "trestbps",
    "chol",
    "fbs",
    "restecg",
    "thalach",
    "exang",
    "oldpeak",
    "slope",
    "ca",
    "thal",
]


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
    from sklearn.datasets import load_iris
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler

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


def _check_shape(df: pd.DataFrame, path: Path, restore: str) -> None:
    """Raise :class:`DataFileError` unless ``df`` has the Cleveland data's columns (in order),
    rows and numeric values."""
    import pandas as pd

    expected = [*HEART_FEATURES, "num"]
    if list(df.columns) != expected:
        missing = [c for c in expected if c not in df.columns]
        extra = [c for c in df.columns if c not in expected]
        none = _("none")
        raise DataFileError(
            _(
                "{path} has the wrong columns (missing: {missing}; unexpected: "
                "{extra}; expected, in order: {expected}). {restore}"
            ).format(
                path=path,
                missing=missing or none,
                extra=extra or none,
                expected=expected,
                restore=restore,
            )
        )
    if len(df) != HEART_ROWS:
        raise DataFileError(
            _(
                "{path} has {rows} rows of data; the Cleveland data has {expected}. {restore}"
            ).format(path=path, rows=len(df), expected=HEART_ROWS, restore=restore)
        )
    non_numeric = [c for c in expected if not pd.api.types.is_numeric_dtype(df[c])]
    if non_numeric:
        raise DataFileError(
            _(
                "{path} has non-numeric values in {columns} (missing values must be "
                "written '?'). {restore}"
            ).format(path=path, columns=non_numeric, restore=restore)
        )


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
    import pandas as pd

    path = Path(path) if path is not None else HEART_CSV
    restore = _(
        "The course's copy belongs at {path}; restore it with `git checkout -- "
        "data/heart_cleveland.csv` (see data/README.md for its source)."
    ).format(path=HEART_CSV)
    if not path.is_file():
        raise DataFileError(
            _("Heart Disease data not found at {path}. {restore}").format(
                path=path, restore=restore
            )
        )
    try:
        df = pd.read_csv(path, na_values="?")
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as err:
        raise DataFileError(
            _("{path} is not a readable CSV file ({err}). {restore}").format(
                path=path, err=err, restore=restore
            )
        ) from None

    _check_shape(df, path, restore)
    if verify and (digest := _sha256(path)) != HEART_SHA256:
        raise DataFileError(
            _(
                "{path} has the right shape but different content (SHA-256 "
                "{digest}..., expected {expected}...): it was edited or damaged. "
                "{restore} To load a file of your own, pass verify=False."
            ).format(path=path, digest=digest[:12], expected=HEART_SHA256[:12], restore=restore)
        )
    df["num"] = df["num"].astype("int64")
    df["target"] = (df["num"] > 0).astype("int64")
    return df


def load_poems(path: str | Path | None = None, verify: bool = True) -> str:
    """Three Hundred Tang Poems (唐诗三百首) in Simplified Chinese: 320 poems, one a line, every
    line ending with ``\n`` (``data/README.md`` says where the text comes from and how it was
    made). Read as UTF-8 whatever the system's default.

    Args:
        path: the text file; defaults to ``data/tang300.txt`` in the repository.
        verify: check the file's SHA-256 against the course's copy (turn off for your own text).

    Raises:
        DataFileError: the file is missing, is not UTF-8 text, or (with ``verify``) is not the
            course's copy; the message says what is wrong and how to restore it.
    """
    path = Path(path) if path is not None else POEMS
    restore = _(
        "The course's copy belongs at {path}; restore it with `git checkout -- "
        "data/tang300.txt` (see data/README.md for its source)."
    ).format(path=POEMS)
    if not path.is_file():
        raise DataFileError(
            _("The poems were not found at {path}. {restore}").format(path=path, restore=restore)
        )
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise DataFileError(
            _("{path} is not UTF-8 text ({err}). {restore}").format(
                path=path, err=err, restore=restore
            )
        ) from None
    if verify and (digest := _sha256(path)) != POEMS_SHA256:
        raise DataFileError(
            _(
                "{path} is not the course's copy of the poems (SHA-256 {digest}..., expected "
                "{expected}...): it was edited or damaged. {restore} To train on a text of your "
                "own, pass verify=False."
            ).format(path=path, digest=digest[:12], expected=POEMS_SHA256[:12], restore=restore)
        )
    if not text.strip():
        raise DataFileError(_("{path} holds no text. {restore}").format(path=path, restore=restore))
    return text


class JpegDataset(torch.utils.data.Dataset):
    """Small photos stored as JPEG bytes, decoded and shrunk every time an item is read (day 7).

    At creation it makes ``pictures`` different photos of ``image_size`` x ``image_size`` pixels
    (smooth random colour fields with noise, the same for the same ``seed``) and keeps only their
    JPEG bytes, as a data set on disk would; its ``n`` items cycle through them. Reading item ``i``
    decodes its JPEG with Pillow, converts it to grey and resizes it to ``side`` x ``side`` pixels,
    then returns those ``side**2`` values (0 to 1) and a label: real CPU work whose cost grows with
    the image size, as loading ImageNet does.
    :meth:`items_per_second` measures how fast this machine reads them.

    It lives here, not in a notebook, so that ``DataLoader`` workers can import it on platforms
    that start them with *spawn* (Windows, macOS): those cannot pickle a notebook's classes.
    """

    def __init__(
        self,
        n: int = 1024,
        image_size: int = 128,
        side: int = 8,
        classes: int = 10,
        seed: int = 0,
        pictures: int = 64,
    ):
        if n < 1 or classes < 1 or side < 1 or image_size < side:
            raise ValueError(
                f"need n, classes, side >= 1 and image_size >= side; got n={n}, classes={classes},"
                f" side={side}, image_size={image_size}"
            )
        from PIL import Image

        self.n, self.image_size, self.side, self.classes = n, image_size, side, classes
        rng = np.random.default_rng(seed)
        grid = np.linspace(0, 1, image_size)
        self.jpegs = []
        for _picture in range(min(n, pictures)):
            a, b, c = rng.uniform(0, 6, size=3)  # a smooth colour field, different per picture
            base = np.stack(
                [
                    np.sin(a * grid)[:, None] + np.cos(b * grid)[None, :] * k
                    for k in (0.5, 1.0, c / 6)
                ],
                axis=-1,
            )
            noise = rng.normal(0, 0.1, size=base.shape)
            pixels = np.clip((base + 2) / 4 + noise, 0, 1) * 255
            buffer = io.BytesIO()
            Image.fromarray(pixels.astype(np.uint8)).save(buffer, format="JPEG", quality=85)
            self.jpegs.append(buffer.getvalue())

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index: int) -> tuple[torch.Tensor, torch.Tensor]:
        from PIL import Image

        if not 0 <= index < self.n:
            raise IndexError(f"index {index} out of range for {self.n} items")
        jpeg = self.jpegs[index % len(self.jpegs)]
        with Image.open(io.BytesIO(jpeg)) as picture:  # decode
            small = picture.convert("L").resize((self.side, self.side))  # shrink
        x = torch.tensor(np.asarray(small, dtype=np.float32).reshape(-1) / 255)
        return x, torch.tensor(index % self.classes)

    def items_per_second(self, items: int = 64) -> float:
        """How many items this machine reads per second in this process (one core)."""
        start = time.perf_counter()
        for i in range(items):
            self[i % self.n]
        return items / (time.perf_counter() - start)
