"""Preprocessing the Heart Disease data: the lesson's ``HeartPreprocessor`` (day 4, sections 3, 4
and 7).

Used as in the lesson, an instance is called like a function::

    prep = HeartPreprocessor(strategy="median", scale=True)
    X_train_p = prep(X_train, is_train=True)    # learns medians, means, std devs from train
    X_test_p = prep(X_test, is_train=False)     # applies what it learned; never refits

It is also a scikit-learn transformer (``fit``, ``transform``, ``fit_transform``,
``get_feature_names_out``; usable in a ``Pipeline``; picklable), built on scikit-learn's own
``SimpleImputer``, ``StandardScaler`` and ``OneHotEncoder``. Day 4 builds it and its homework
compares a learner's class with it. Its error messages are in the course's language. How the
disease rate moves with a column's codes is :func:`rate_trend`; why that calls for one-hot
encoding is :func:`helpers.day04.code_note`.

>>> from helpers.data import HEART_FEATURES, load_heart
>>> X = load_heart()[HEART_FEATURES]
>>> prep = HeartPreprocessor(strategy="median", scale=True)
>>> train = prep(X.iloc[:200], is_train=True)
>>> test = prep(X.iloc[200:], is_train=False)
>>> train.shape, test.shape, int(test.isna().sum().sum())
((200, 13), (103, 13), 0)
>>> round(float(train["age"].mean()), 6) == 0.0
True
"""

from __future__ import annotations

import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.compose import ColumnTransformer
from sklearn.exceptions import NotFittedError
from sklearn.impute import SimpleImputer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.utils.validation import check_is_fitted

from helpers.data import HEART_FEATURES
from helpers.i18n import N_, _

CATEGORICAL = ("cp", "restecg", "slope", "thal")
"""Columns whose numbers are codes for categories (chest pain type 1-4, ...), not quantities."""

STRATEGIES = ("median", "mean", "most_frequent")

CODES = {
    "cp": N_("1 typical angina, 2 atypical angina, 3 non-anginal pain, 4 no symptoms"),
    "restecg": N_("0 normal, 1 ST-T wave abnormality, 2 left ventricular hypertrophy"),
    "slope": N_("1 up, 2 flat, 3 down"),
    "thal": N_("3 normal, 6 fixed defect, 7 reversible defect"),
}
"""What each code of the categorical columns means (data/README.md)."""


def rate_trend(rates: pd.Series) -> str:
    """How a rate indexed by code moves as the code grows: ``'rises'``, ``'falls'`` or
    ``'goes up and down'``.

    >>> rate_trend(pd.Series([0.2, 0.7, 0.8], index=[3, 6, 7]))
    'rises'
    """
    rates = rates.sort_index()
    if rates.is_monotonic_increasing:
        return N_("rises")
    if rates.is_monotonic_decreasing:
        return N_("falls")
    return N_("goes up and down")


class HeartPreprocessor(TransformerMixin, BaseEstimator):
    """Impute missing values, then scale (and optionally one-hot encode), fitted on training rows.

    Args:
        strategy: how to fill missing values in numeric columns: ``"median"``, ``"mean"`` or
            ``"most_frequent"``, computed on the training rows.
        scale: standardise numeric columns (mean 0, standard deviation 1 on the training rows).
        categorical: columns to one-hot encode instead of scaling (missing values there are filled
            with the most frequent category first). ``()``, the default, treats every column as a
            number, as the lesson's first version does; pass :data:`CATEGORICAL` for the grown-up
            version. ``ca`` (a count of vessels, 0-3) is ordered, so it stays numeric.

    Input: a DataFrame with the 13 feature columns of :func:`helpers.data.load_heart`, in any
    order. Other columns (``num``, ``target``, your own) are ignored and listed in
    ``ignored_columns_`` after fitting.

    Output: calling the instance, ``transform`` and ``fit_transform`` return a **DataFrame** with
    the feature names of :meth:`get_feature_names_out` (e.g. ``age``, ``cp_4.0``) and the input's
    index.
    """

    def __init__(self, strategy: str = "median", scale: bool = True, categorical=()):
        self.strategy = strategy
        self.scale = scale
        self.categorical = categorical

    # The lesson's interface -----------------------------------------------------------------------

    def __call__(self, X: pd.DataFrame, is_train: bool) -> pd.DataFrame:
        """Fit on ``X`` and transform it when ``is_train``; otherwise only transform it."""
        if is_train:
            return self.fit_transform(X)
        if not hasattr(self, "transformer_"):
            raise NotFittedError(
                _(
                    "This HeartPreprocessor has not been fitted yet: call it on the "
                    "training rows first, prep(X_train, is_train=True), then prep(X_test, "
                    "is_train=False)."
                )
            )
        return self.transform(X)

    # scikit-learn's interface ---------------------------------------------------------------------

    def fit(self, X: pd.DataFrame, y=None) -> HeartPreprocessor:
        """Learn the fill values, scaling and categories from the training rows ``X``."""
        if self.strategy not in STRATEGIES:
            choices = ", ".join(map(repr, STRATEGIES))
            raise ValueError(
                _("strategy={strategy!r} is not one of {choices}.").format(
                    strategy=self.strategy, choices=choices
                )
            )
        unknown = [c for c in self.categorical if c not in HEART_FEATURES]
        if unknown:
            raise ValueError(
                _("categorical names columns that are not features: {unknown}.").format(
                    unknown=unknown
                )
            )
        features = self._check(X)
        numeric = [c for c in HEART_FEATURES if c not in self.categorical]
        numeric_steps = [SimpleImputer(strategy=self.strategy)]
        if self.scale:
            numeric_steps.append(StandardScaler())
        parts = [("numeric", make_pipeline(*numeric_steps), numeric)]
        if self.categorical:
            categories = make_pipeline(
                SimpleImputer(strategy="most_frequent"),
                OneHotEncoder(handle_unknown="ignore", sparse_output=False),
            )
            parts.append(("categorical", categories, list(self.categorical)))
        self.transformer_ = ColumnTransformer(parts, verbose_feature_names_out=False)
        self.transformer_.set_output(transform="pandas")
        self.transformer_.fit(features)
        self.ignored_columns_ = [c for c in X.columns if c not in HEART_FEATURES]
        self.feature_names_in_ = pd.Index(HEART_FEATURES).to_numpy(dtype=object)
        self.n_features_in_ = len(HEART_FEATURES)
        return self

    def transform(self, X: pd.DataFrame) -> pd.DataFrame:
        """Apply what :meth:`fit` learned to ``X``; never learns anything from it."""
        check_is_fitted(self, "transformer_")
        return self.transformer_.transform(self._check(X, fitting=False))

    def get_feature_names_out(self, input_features=None):
        """The output columns: the numeric features, then one column per category seen."""
        check_is_fitted(self, "transformer_")
        return self.transformer_.get_feature_names_out()

    # Checking the input ---------------------------------------------------------------------------

    @staticmethod
    def _check(X, fitting: bool = True) -> pd.DataFrame:
        """The 13 feature columns of ``X`` in the course's order, or a clear error."""
        if not isinstance(X, pd.DataFrame):
            raise TypeError(
                _(
                    "HeartPreprocessor needs a pandas DataFrame with named columns, got "
                    "{kind}. Use the frame from helpers.data.load_heart()."
                ).format(kind=type(X).__name__)
            )
        if len(X) == 0:
            raise ValueError(_("The DataFrame is empty: there are no rows to preprocess."))
        missing = [c for c in HEART_FEATURES if c not in X.columns]
        if missing:
            said = {"missing": ", ".join(missing), "features": ", ".join(HEART_FEATURES)}
            raise ValueError(
                _(
                    "Missing required column(s): {missing}. HeartPreprocessor needs all 13 "
                    "features: {features}."
                ).format(**said)
            )
        features = X[HEART_FEATURES]
        for column in HEART_FEATURES:
            if not pd.api.types.is_numeric_dtype(features[column]):
                values = pd.to_numeric(features[column], errors="coerce")
                bad = features[column][values.isna() & features[column].notna()].unique()[:3]
                said = {N_("column"): column, "examples": ", ".join(map(repr, bad))}
                raise ValueError(
                    _(
                        "Column {column!r} must hold numbers but has text such as {examples}. "
                        "Write missing values as NaN (read the CSV with na_values='?')."
                    ).format(**said)
                )
        empty = [c for c in HEART_FEATURES if features[c].isna().all()]
        if empty and fitting:
            raise ValueError(
                _(
                    "Column(s) {columns} have no values at all in the training rows: there "
                    "is nothing to learn a fill value from."
                ).format(columns=", ".join(empty))
            )
        return features
