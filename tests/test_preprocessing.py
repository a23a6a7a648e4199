import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline

from helpers.data import HEART_FEATURES, load_heart
from helpers.day04 import code_note
from helpers.preprocessing import CATEGORICAL, HeartPreprocessor, rate_trend


@pytest.fixture(scope="module")
def split():
    df = load_heart()
    return train_test_split(
        df[HEART_FEATURES], df["target"], test_size=0.25, stratify=df["target"], random_state=0
    )


def test_called_like_a_function_fits_on_train_only(split):
    X_train, X_test, _, _ = split
    prep = HeartPreprocessor(strategy="median", scale=True)
    train = prep(X_train, is_train=True)
    test = prep(X_test, is_train=False)
    assert isinstance(train, pd.DataFrame) and list(train.columns) == HEART_FEATURES
    assert train.index.equals(X_train.index) and test.index.equals(X_test.index)
    assert not train.isna().any().any() and not test.isna().any().any()
    assert np.allclose(train.mean(), 0, atol=1e-9) and np.allclose(train.std(ddof=0), 1)
    # test rows use the training statistics: scaled by hand with them, they agree
    filled = X_test.fillna(X_train.median())
    by_hand = (filled - X_train.fillna(X_train.median()).mean()) / X_train.fillna(
        X_train.median()
    ).std(ddof=0)
    assert np.allclose(test, by_hand)


def test_is_train_false_never_refits(split):
    X_train, X_test, _, _ = split
    prep = HeartPreprocessor()
    prep(X_train, is_train=True)
    before = prep(X_test, is_train=False)
    prep(X_test * 100, is_train=False)  # would move every statistic if it refitted
    assert prep(X_test, is_train=False).equals(before)


@pytest.mark.parametrize("strategy", ["median", "mean", "most_frequent"])
def test_strategy_fills_with_that_training_statistic(split, strategy):
    X_train, _, _, _ = split
    out = HeartPreprocessor(strategy=strategy, scale=False).fit_transform(X_train)
    expected = {
        "median": X_train["ca"].median(),
        "mean": X_train["ca"].mean(),
        "most_frequent": X_train["ca"].mode()[0],
    }[strategy]
    assert (out.loc[X_train["ca"].isna(), "ca"] == expected).all()
    assert out.loc[X_train["ca"].notna(), "ca"].equals(X_train["ca"].dropna())


def test_fit_transform_and_call_agree_with_fit_then_transform(split):
    X_train, X_test, _, _ = split
    a = HeartPreprocessor().fit(X_train)
    b = HeartPreprocessor()
    assert a.fit_transform(X_train).equals(b(X_train, is_train=True))
    assert a.transform(X_test).equals(b(X_test, is_train=False))


def test_one_hot_version(split):
    X_train, X_test, _, _ = split
    prep = HeartPreprocessor(categorical=CATEGORICAL)
    out = prep.fit_transform(X_train)
    names = list(prep.get_feature_names_out())
    assert names == list(out.columns)
    assert {"cp_1.0", "cp_4.0", "thal_7.0", "restecg_2.0", "slope_3.0", "ca"} <= set(names)
    assert "cp" not in names
    one_hot = out[[n for n in names if n.startswith("cp_")]]
    assert (one_hot.sum(axis=1) == 1).all() and set(np.unique(one_hot)) == {0.0, 1.0}
    assert not prep.transform(X_test).isna().any().any()  # thal's missing values filled first


def test_unseen_category_in_test_rows_is_all_zeros(split):
    X_train, X_test, _, _ = split
    prep = HeartPreprocessor(categorical=CATEGORICAL).fit(X_train)
    odd = X_test.copy()
    odd.iloc[0, odd.columns.get_loc("cp")] = 9.0
    row = prep.transform(odd).iloc[0]
    assert row[[c for c in row.index if c.startswith("cp_")]].sum() == 0


def test_sklearn_contract(split):
    X_train, X_test, y_train, y_test = split
    prep = HeartPreprocessor(categorical=CATEGORICAL)
    with pytest.raises(NotFittedError):
        prep.transform(X_test)
    with pytest.raises(NotFittedError):
        prep.get_feature_names_out()
    assert clone(prep).get_params() == {"categorical": CATEGORICAL, "scale": True,
                                        "strategy": "median"}  # fmt: skip
    model = make_pipeline(prep, LogisticRegression(max_iter=1000)).fit(X_train, y_train)
    assert 0.7 < model.score(X_test, y_test) <= 1.0
    restored = pickle.loads(pickle.dumps(model))
    assert (restored.predict_proba(X_test) == model.predict_proba(X_test)).all()


def test_column_order_does_not_matter_and_extra_columns_are_ignored(split):
    X_train, X_test, _, _ = split
    prep = HeartPreprocessor()
    expected = prep(X_train, is_train=True)
    shuffled = X_train[HEART_FEATURES[::-1]].assign(num=1, comment="x")
    again = HeartPreprocessor()
    assert again(shuffled, is_train=True).equals(expected)
    assert again.ignored_columns_ == ["num", "comment"]
    assert prep(X_test[HEART_FEATURES[::-1]], is_train=False).equals(prep.transform(X_test))


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        (lambda X: X.drop(columns=["chol"]), ValueError, r"Missing required column\(s\): chol\."),
        (lambda X: X.drop(columns=["age", "thal"]), ValueError, r"column\(s\): age, thal\."),
        (lambda X: X.assign(chol=X["chol"].astype(object).where(X.index != X.index[0], "high")),
         ValueError, r"Column 'chol' must hold numbers but has text such as 'high'"),
        (lambda X: X.assign(ca=np.nan), ValueError,
         r"Column\(s\) ca have no values at all in the training rows"),
        (lambda X: X.iloc[:0], ValueError, "The DataFrame is empty"),
        (lambda X: X.to_numpy(), TypeError, "needs a pandas DataFrame with named columns, got nd"),
    ],
)  # fmt: skip
def test_bad_input_gets_a_clear_error(split, change, error, message):
    X_train, _, _, _ = split
    with pytest.raises(error, match=message):
        HeartPreprocessor()(change(X_train), is_train=True)


def test_is_train_false_before_any_fit(split):
    with pytest.raises(NotFittedError, match=r"call it on the training rows first, prep\(X_train"):
        HeartPreprocessor()(split[1], is_train=False)


def test_a_column_missing_entirely_in_test_rows_is_filled_from_train(split):
    X_train, X_test, _, _ = split
    prep = HeartPreprocessor(scale=False).fit(X_train)
    out = prep.transform(X_test.assign(ca=np.nan))
    assert (out["ca"] == X_train["ca"].median()).all()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"strategy": "average"}, r"strategy='average' is not one of 'median', 'mean'"),
        ({"categorical": ("chest_pain",)}, r"categorical names columns that are not features"),
    ],
)
def test_bad_parameters(split, kwargs, message):
    with pytest.raises(ValueError, match=message):
        HeartPreprocessor(**kwargs).fit(split[0])


@pytest.mark.parametrize(
    ("rates", "trend", "says"),
    [
        ({3: 0.22, 6: 0.67, 7: 0.76}, "rises", "They are labels"),  # thal in the data
        ({1: 0.6, 2: 0.4, 3: 0.1}, "falls", "one weight could follow its direction"),
        ({1: 0.30, 2: 0.18, 3: 0.21, 4: 0.73}, "goes up and down", "no single weight"),  # cp
    ],
)
def test_rate_trend_and_why_codes_are_one_hot(rates, trend, says):
    found = rate_trend(pd.Series(rates))
    assert found == trend
    assert says in code_note("thal", found) and "3 normal" in code_note("thal", found)


def test_the_base_rate_names_the_majority_to_guess(monkeypatch):
    from helpers.day04 import base_rate_note

    monkeypatch.setenv("COURSE_LANG", "en")
    assert "guessing 'no disease' is right 54%" in base_rate_note(139 / 303)  # the Cleveland data
    assert "guessing 'disease' is right 61%" in base_rate_note(0.61)
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert "总是猜“没病”的正确率是 54%" in base_rate_note(139 / 303)


def test_errors_speak_the_course_language(split, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    with pytest.raises(ValueError, match="缺少必需的列：chol。"):
        HeartPreprocessor()(split[0].drop(columns=["chol"]), is_train=True)
    with pytest.raises(NotFittedError, match="还没有拟合"):
        HeartPreprocessor()(split[1], is_train=False)
