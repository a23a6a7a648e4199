import shutil

import pandas as pd
import pytest
import torch

from helpers.data import HEART_FEATURES, DataFileError, load_heart, load_iris_split
from helpers.paths import HEART_CSV


def test_iris_split_shapes_types_and_stratification():
    X_train, X_test, y_train, y_test = load_iris_split()
    assert X_train.shape == (120, 4) and X_test.shape == (30, 4)
    assert X_train.dtype == torch.float32 and y_train.dtype == torch.int64
    assert torch.bincount(y_test).tolist() == [10, 10, 10]
    assert torch.bincount(y_train).tolist() == [40, 40, 40]


def test_iris_scaler_is_fitted_on_training_rows_only():
    X_train, X_test, _, _ = load_iris_split()
    assert torch.allclose(X_train.mean(0), torch.zeros(4), atol=1e-5)
    assert torch.allclose(X_train.std(0, unbiased=False), torch.ones(4), atol=1e-4)
    assert X_test.mean(0).abs().max() > 1e-3  # test rows were not used to fit the scaler


def test_iris_seed_changes_the_split_and_is_reproducible():
    a, b = load_iris_split(seed=1)[0], load_iris_split(seed=1)[0]
    assert torch.equal(a, b)
    assert not torch.equal(a, load_iris_split(seed=2)[0])


def test_iris_on_a_device():
    assert all(t.device.type == "cpu" for t in load_iris_split(device="cpu"))


def test_heart_loads_with_its_real_missing_values():
    df = load_heart()
    assert list(df.columns) == [*HEART_FEATURES, "num", "target"]
    assert len(df) == 303
    assert df.isna().sum()[lambda s: s > 0].to_dict() == {"ca": 4, "thal": 2}
    assert set(df["num"]) == {0, 1, 2, 3, 4}
    assert df["target"].tolist() == (df["num"] > 0).astype(int).tolist()
    assert df["target"].sum() == 139  # patients with heart disease in the Cleveland data


@pytest.fixture
def copy(tmp_path):
    target = tmp_path / "heart.csv"
    shutil.copy(HEART_CSV, target)
    return target


def test_missing_file_says_where_it_belongs(tmp_path):
    with pytest.raises(DataFileError, match=r"not found at .*nowhere\.csv.*belongs at .*data"):
        load_heart(tmp_path / "nowhere.csv")


def test_wrong_columns(copy):
    df = pd.read_csv(copy).rename(columns={"chol": "cholesterol"})
    df.to_csv(copy, index=False)
    with pytest.raises(DataFileError, match=r"wrong columns \(missing: \['chol'\]; unexpected: "):
        load_heart(copy)


def test_wrong_row_count(copy):
    lines = copy.read_text(encoding="utf-8").splitlines()
    copy.write_text("\n".join(lines[:-3]) + "\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="has 300 rows of data; the Cleveland data has 303"):
        load_heart(copy)


def test_edited_value_fails_the_checksum(copy):
    text = copy.read_text(encoding="utf-8")
    copy.write_text(text.replace("63.0,1.0,1.0,145.0", "63.0,1.0,1.0,146.0", 1), encoding="utf-8")
    with pytest.raises(DataFileError, match="right shape but different content"):
        load_heart(copy)
    assert load_heart(copy, verify=False).loc[0, "trestbps"] == 146.0


def test_not_a_csv(copy):
    copy.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    with pytest.raises(DataFileError, match="heart.csv"):
        load_heart(copy)


def test_text_in_a_numeric_column(copy):
    text = copy.read_text(encoding="utf-8").replace("?", "NA?", 1)
    copy.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError, match=r"non-numeric values in \['thal'\]"):
        load_heart(copy)
