"""Plain data: what may cross from answer code to the grader, and what may not."""

import json

import numpy as np
import pandas as pd
import pytest
import torch

from helpers.course.grading.plain import NotData, decode, encode


def trip(value):
    return decode(json.loads(json.dumps(encode(value))))


@pytest.mark.parametrize(
    "value",
    [None, True, 3, -2.5, "text", [1, [2, "x"]], (1, 2), {3, 4}, {"a": 1, (1, 2): [0.5]}, b"\x00"],
)
def test_python_values_come_back_equal_and_of_the_same_type(value):
    back = trip(value)
    assert back == value and type(back) is type(value)


def test_special_floats():
    assert trip(float("inf")) == float("inf") and np.isnan(trip(float("nan")))


def test_tensors_keep_dtype_shape_device_and_gradient_flag():
    for tensor in (
        torch.randn(2, 3),
        torch.arange(6).reshape(3, 2),
        torch.ones(2, dtype=torch.bfloat16),
    ):
        back = trip(tensor)
        assert (
            back.dtype == tensor.dtype and back.shape == tensor.shape and torch.equal(back, tensor)
        )
    meta = trip(torch.empty(4, 5, device="meta"))
    assert meta.device.type == "meta" and meta.shape == (4, 5)
    assert trip(torch.ones(2, requires_grad=True)).requires_grad
    assert isinstance(trip(torch.nn.Parameter(torch.ones(2))), torch.nn.Parameter)
    assert trip(torch.device("cpu")) == torch.device("cpu") and trip(torch.float16) is torch.float16


def test_arrays_and_frames():
    array = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert np.array_equal(trip(array), array) and trip(array).dtype == np.float32
    assert trip(np.float64(1.5)) == 1.5 and isinstance(trip(np.int64(3)), np.int64)
    frame = pd.DataFrame({"age": [63.0, 41.0], "sex": ["m", "f"]}, index=["p1", "p2"])
    pd.testing.assert_frame_equal(trip(frame), frame, check_dtype=False)
    assert list(trip(frame.columns)) == ["age", "sex"]
    pd.testing.assert_series_equal(trip(frame["age"]), frame["age"])


class Sneaky(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


@pytest.mark.parametrize(
    "value",
    [object(), lambda: 1, torch.nn.Linear(2, 2), np.array([object()]), iter([1]), Exception("x")],
)
def test_anything_else_is_refused(value):
    with pytest.raises(NotData):
        encode(value)


def test_subclasses_arrive_as_their_plain_base_type():
    back = trip(Sneaky(3))
    assert type(back) is int and back != 4  # the trick of __eq__ did not travel


@pytest.mark.parametrize(
    "data",
    [
        {"pickle": "gASV"},
        {"array": {"dtype": "object", "shape": [1], "data": ""}},
        {"a": 1, "b": 2},
        3j,
    ],
)
def test_the_decoder_builds_nothing_it_does_not_know(data):
    with pytest.raises((ValueError, KeyError, TypeError)):
        decode(data)


def test_dict_views_arrive_as_lists():
    d = {"a": 1, "b": 2.5}
    assert trip(d.items()) == [("a", 1), ("b", 2.5)] and trip(d.keys()) == ["a", "b"]


def test_forged_data_is_refused_before_it_is_built():
    deep = [[]]
    for _ in range(200):
        deep = [deep]
    with pytest.raises(ValueError, match="nested"):
        decode(deep)
    with pytest.raises(ValueError, match="elements"):
        decode([[] for _ in range(300_000)])
    with pytest.raises(ValueError, match="bytes"):
        decode(["x" * 2**20] * 60)
    big = {"array": {"dtype": "uint8", "shape": [2**26], "data": "AAAA" * (2**24 + 4)}}
    with pytest.raises(ValueError, match="bytes"):
        decode(big)
    for forged in (
        {"dict": [[1]]},
        {"tuple": "ab"},
        {"array": {"dtype": "float32", "shape": ["x"], "data": ""}},
        {"tensor": {"dtype": "float32", "shape": [1], "device": "cpu", "data": 5}},
    ):
        with pytest.raises(ValueError):
            decode(forged)
