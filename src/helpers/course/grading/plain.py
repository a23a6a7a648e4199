"""Plain data: the only thing that crosses from a process that ran answer code to the grader.

:func:`encode` (run where the answers run) turns a value into JSON-able data: numbers, strings,
lists, dicts, and tagged records for tuples, sets, NumPy arrays, PyTorch tensors, devices and
dtypes, and pandas DataFrames and Series, whose contents travel as raw buffers with their dtype and
shape. :func:`decode` (run by the grader) builds fresh objects of built-in, NumPy, PyTorch or pandas
types from that data and nothing else: no pickle, no code, no object of the answer's own classes.
A value of any other type is refused with :class:`NotData`.

What :func:`decode` reads came from a process that ran answer code, which may have forged it: it
refuses (with ``ValueError``) data nested deeper than :data:`MAX_DEPTH`, with more than
:data:`MAX_ELEMENTS` elements or more than :data:`MAX_BYTES` of buffers, before building it.

>>> decode(encode({"loss": 0.5, "shape": (2, 3), "ok": True}))
{'loss': 0.5, 'shape': (2, 3), 'ok': True}
>>> import torch
>>> decode(encode(torch.arange(4.0))).tolist()
[0.0, 1.0, 2.0, 3.0]
"""

from __future__ import annotations

import base64
import math

import numpy as np
import torch

MAX_DEPTH = 32
MAX_ELEMENTS = 200_000
"""Most elements (numbers, strings, containers, buffers) one decoded value may hold."""
MAX_BYTES = 48 * 2**20
"""Most bytes of array, tensor and ``bytes`` buffers one decoded value may hold."""
ARRAY_DTYPES = {
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
}
"""NumPy dtypes that may cross (never ``object``: its buffer would hold pointers)."""
TENSOR_DTYPES = {
    str(t).removeprefix("torch."): t
    for t in (
        torch.bool,
        torch.uint8,
        torch.int8,
        torch.int16,
        torch.int32,
        torch.int64,
        torch.float16,
        torch.bfloat16,
        torch.float32,
        torch.float64,
    )
}


DICT_VIEWS = (type({}.keys()), type({}.values()), type({}.items()))


class NotData(TypeError):
    """A value that is not plain data (an object of the answer's own class, a function...)."""


def _bytes(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _array(value: np.ndarray) -> dict:
    dtype = value.dtype.name
    if dtype not in ARRAY_DTYPES:
        raise NotData(f"a NumPy array of dtype {dtype} (only numbers and booleans can be checked)")
    data = np.ascontiguousarray(value)
    return {"dtype": dtype, "shape": list(value.shape), "data": _bytes(data.tobytes())}


def _tensor(value: torch.Tensor) -> dict:
    dtype = str(value.dtype).removeprefix("torch.")
    if dtype not in TENSOR_DTYPES:
        raise NotData(f"a tensor of dtype {dtype}")
    record = {
        "dtype": dtype,
        "shape": list(value.shape),
        "device": value.device.type,
        "requires_grad": bool(value.requires_grad),
        "parameter": isinstance(value, torch.nn.Parameter),
    }
    if value.device.type != "meta":
        flat = value.detach().to("cpu").contiguous().reshape(-1)
        if flat.dtype == torch.bfloat16:  # NumPy has no bfloat16: send its 16-bit patterns
            flat = flat.view(torch.int16)
        record["data"] = _bytes(flat.numpy().tobytes())
    return record


def _column(values: np.ndarray, depth: int):
    """A pandas column or index: a raw buffer for numbers, element by element otherwise."""
    if values.dtype.name in ARRAY_DTYPES:
        return {"array": _array(values)}
    return [encode(v.item() if isinstance(v, np.generic) else v, depth + 1) for v in values]


def encode(value, depth: int = 0):
    """``value`` as JSON-able plain data, or :class:`NotData` for anything else."""
    if depth > MAX_DEPTH:
        raise NotData("a structure nested too deeply")
    kind = type(value)
    if value is None or kind in (bool, str):
        return value
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int) and not isinstance(value, np.generic):
        return int(value)
    if isinstance(value, float) and not isinstance(value, np.generic):
        number = float(value)
        return number if math.isfinite(number) else {"float": repr(number)}
    if isinstance(value, str):
        return str(value)
    if isinstance(value, np.generic) and value.dtype.name in ARRAY_DTYPES:
        return {"scalar": _array(np.asarray(value))}
    if isinstance(value, torch.Tensor):
        return {"tensor": _tensor(value)}
    if isinstance(value, np.ndarray):
        return {"array": _array(value)}
    if isinstance(value, torch.device):
        return {"device": str(value)}
    if isinstance(value, torch.dtype):
        return {"torch_dtype": str(value).removeprefix("torch.")}
    if isinstance(value, bytes):
        return {"bytes": _bytes(bytes(value))}
    if isinstance(value, DICT_VIEWS):  # d.items(), d.keys(), d.values(): arrive as lists
        return [encode(v, depth + 1) for v in value]
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [encode(v, depth + 1) for v in value]
        if isinstance(value, list):
            return items
        return {"tuple" if isinstance(value, tuple) else "set": items}
    if isinstance(value, dict):
        return {"dict": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if type(value).__module__.startswith("pandas"):
        return _pandas(value, depth)
    raise NotData(f"a {kind.__module__}.{kind.__qualname__}")


def _pandas(value, depth: int):
    import pandas as pd  # only when a value is pandas': the sandbox starts faster without it

    if isinstance(value, pd.Index):
        return {"pandas_index": _column(value.to_numpy(), depth)}
    if isinstance(value, pd.DataFrame):
        columns = [encode(c, depth + 1) for c in value.columns]
        data = [_column(value[c].to_numpy(), depth) for c in value.columns]
        index = _column(value.index.to_numpy(), depth)
        return {"dataframe": {"columns": columns, "index": index, "data": data}}
    if isinstance(value, pd.Series):
        name, index = encode(value.name, depth + 1), _column(value.index.to_numpy(), depth)
        return {"series": {"name": name, "index": index, "data": _column(value.to_numpy(), depth)}}
    kind = type(value)
    raise NotData(f"a {kind.__module__}.{kind.__qualname__}")


class _Budget:
    """What one :func:`decode` call may still build."""

    def __init__(self) -> None:
        self.elements, self.bytes = MAX_ELEMENTS, MAX_BYTES

    def take(self, elements: int = 1, size: int = 0) -> None:
        self.elements -= elements
        self.bytes -= size
        if self.elements < 0:
            raise ValueError(f"more than {MAX_ELEMENTS} elements")
        if self.bytes < 0:
            raise ValueError(f"more than {MAX_BYTES} bytes of buffers")


def _buffer(text, budget: _Budget) -> bytes:
    if not isinstance(text, str):
        raise ValueError("malformed buffer")
    budget.take(1, len(text) * 3 // 4)
    return base64.b64decode(text, validate=True)


def _shape(record: dict) -> list[int]:
    shape = record["shape"]
    if type(shape) is not list or len(shape) > MAX_DEPTH or any(type(n) is not int for n in shape):
        raise ValueError("malformed shape")
    if any(n < 0 for n in shape):
        raise ValueError("malformed shape")
    return shape


def _decode_array(record: dict, budget: _Budget) -> np.ndarray:
    if not isinstance(record, dict) or record.get("dtype") not in ARRAY_DTYPES:
        raise ValueError("malformed array")
    data = _buffer(record["data"], budget)
    shape = _shape(record)
    return np.frombuffer(data, dtype=np.dtype(record["dtype"])).reshape(shape).copy()


def _decode_tensor(record: dict, budget: _Budget) -> torch.Tensor:
    if not isinstance(record, dict) or record.get("dtype") not in TENSOR_DTYPES:
        raise ValueError("malformed tensor")
    dtype = TENSOR_DTYPES[record["dtype"]]
    shape = _shape(record)
    if record["device"] not in ("cpu", "meta", "cuda", "mps"):
        raise ValueError("malformed tensor device")
    if record["device"] == "meta":
        if math.prod(shape) > 2**40:
            raise ValueError("malformed shape")
        tensor = torch.empty(shape, dtype=dtype, device="meta")
    else:
        raw = bytearray(_buffer(record["data"], budget))
        storage = torch.int16 if dtype == torch.bfloat16 else dtype
        tensor = torch.frombuffer(raw, dtype=storage) if raw else torch.empty(0, dtype=storage)
        tensor = tensor.view(dtype).reshape(shape)
        if record["device"] != "cpu":
            tensor = tensor.to(record["device"])
    if record.get("requires_grad") and (tensor.is_floating_point() or tensor.is_complex()):
        tensor.requires_grad_(True)
    return torch.nn.Parameter(tensor) if record.get("parameter") else tensor


def _decode_column(data, budget: _Budget, depth: int) -> np.ndarray:
    if type(data) is list:
        return np.array([_decode(v, budget, depth + 1) for v in data], dtype=object)
    return _decode(data, budget, depth + 1)


def decode(data):
    """Fresh built-in, NumPy, PyTorch or pandas objects from :func:`encode`'s output."""
    return _decode(data, _Budget(), 0)


def _items(body) -> list:
    if type(body) is not list:
        raise ValueError("malformed container")
    return body


def _decode(data, budget: _Budget, depth: int):
    if depth > MAX_DEPTH + 4:
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
    budget.take()
    if data is None or type(data) in (bool, int, float):
        return data
    if type(data) is str:
        budget.take(0, len(data))
        return data
    again = lambda value: _decode(value, budget, depth + 1)  # noqa: E731
    if type(data) is list:
        return [again(v) for v in data]
    if type(data) is not dict or len(data) != 1:
        raise ValueError(f"not plain data: {type(data).__name__}")
    ((tag, body),) = data.items()
    if tag in ("pandas_index", "series", "dataframe"):
        return _decode_pandas(tag, body, budget, depth)
    return _decode_tagged(tag, body, budget, depth)


def _decode_tagged(tag: str, body, budget: _Budget, depth: int):
    """One tagged value (``{"tuple": [...]}``, ``{"tensor": {...}}``...), pandas' aside."""
    again = lambda value: _decode(value, budget, depth + 1)  # noqa: E731
    if tag == "float":
        return float({"nan": "nan", "inf": "inf", "-inf": "-inf"}[body])
    if tag == "tuple":
        return tuple(again(v) for v in _items(body))
    if tag == "set":
        return {again(v) for v in _items(body)}
    if tag == "dict":
        pairs = [_items(pair) for pair in _items(body)]
        if any(len(pair) != 2 for pair in pairs):
            raise ValueError("malformed dict")
        return {again(k): again(v) for k, v in pairs}
    if tag == "bytes":
        return _buffer(body, budget)
    if tag == "scalar":
        return _decode_array(body, budget)[()]
    if tag == "array":
        return _decode_array(body, budget)
    if tag == "tensor":
        return _decode_tensor(body, budget)
    if tag == "device":
        return torch.device(str(body))
    if tag == "torch_dtype":
        return TENSOR_DTYPES[body]
    raise ValueError(f"unknown plain-data tag {tag!r}")


def _decode_pandas(tag: str, body, budget: _Budget, depth: int):
    """A pandas index, series or data frame, rebuilt from its columns."""
    import pandas as pd

    if tag == "pandas_index":
        return pd.Index(_decode_column(body, budget, depth))
    if tag == "series":
        index = _decode_column(body["index"], budget, depth)
        values = _decode_column(body["data"], budget, depth)
        return pd.Series(values, index=index, name=_decode(body["name"], budget, depth + 1))
    columns = [_decode(c, budget, depth + 1) for c in _items(body["columns"])]
    arrays = [_decode_column(d, budget, depth) for d in _items(body["data"])]
    index = _decode_column(body["index"], budget, depth)
    frame = pd.DataFrame(dict(enumerate(arrays)), index=index)
    frame.columns = columns
    return frame
