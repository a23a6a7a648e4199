import ast
import dataclasses
import os
import subprocess
import sys
import types
import typing

import nbformat
import pytest
import torch
from torch.utils.data import DataLoader, TensorDataset

from helpers import config


@pytest.mark.parametrize("value", ["1", "true", "YES", " on "])
def test_fast_mode_on(value):
    assert config.fast_mode(value) is True


@pytest.mark.parametrize("value", ["", "0", "False", "no", "off"])
def test_fast_mode_off(value):
    assert config.fast_mode(value) is False


def test_fast_mode_reads_the_environment(monkeypatch):
    monkeypatch.setenv("COURSE_FAST", "1")
    assert config.fast_mode() is True
    assert config.sizes() is config.FAST
    monkeypatch.setenv("COURSE_FAST", "0")
    assert config.sizes() is config.FULL
    monkeypatch.delenv("COURSE_FAST")
    assert config.sizes() is config.FULL


def test_bad_value_names_the_variable_and_the_fix():
    with pytest.raises(ValueError, match=r"COURSE_FAST='maybe'.*COURSE_FAST=1"):
        config.fast_mode("maybe")


def test_fast_sizes_are_smaller_and_keep_the_lesson_s_intervals():
    assert config.FULL.day05_epochs == 20_000
    assert config.FULL.day05_record_every == (1, 100, 200, 1000, 2000, None)
    assert config.FAST.day05_record_every == config.FULL.day05_record_every
    names = ["day00_epochs", "day01_watch_seconds", "day02_epochs", "day02_copy_repeats",
             "day04_epochs", "day04_cv_repeats", "day05_epochs", "day05_measure_epochs",
             "day05_repeats",
             "day05_profile_epochs", "day05_timeline_epochs", "day05_fix_epochs",
             "day05_wide_rows", "day06_wide_cpu_max_rows",
             "day06_min_run_time", "day06_dataset_rows", "day07_items", "day07_image_size",
             "day07_steps", "day07_repeats", "day07_habit_repeats"]  # fmt: skip
    for name in names:
        assert 0 < getattr(config.FAST, name) < getattr(config.FULL, name), name


def test_day05_compiles_the_same_shapes_in_both_modes():
    """`make test` (fast) and `make course` (full) share one compile cache: only when both modes
    compile functions of the same shapes does the second find the first's work."""
    for name in ["day05_epochs_per_call", "day05_chain_elements", "day05_sweep_every"]:
        assert getattr(config.FAST, name) == getattr(config.FULL, name), name
    assert config.FULL.day05_fix_epochs % config.FULL.day05_epochs_per_call == 0
    assert config.FAST.day05_fix_epochs % config.FAST.day05_epochs_per_call == 0


def test_every_knob_is_a_typed_field_with_both_modes_side_by_side():
    hints = typing.get_type_hints(config.Sizes)
    knobs = [f.name for f in dataclasses.fields(config.Sizes) if f.name != "fast"]
    assert list(config.KNOBS) == knobs and len(knobs) > 50
    for name in knobs:
        full, fast = config.KNOBS[name]
        assert getattr(config.FULL, name) is full and getattr(config.FAST, name) is fast, name
        assert _conforms(full, hints[name]) and _conforms(fast, hints[name]), (name, hints[name])
    assert hints["fast"] is bool and repr(config.FAST) == "Sizes(fast mode)"
    assert repr(config.FULL) == "Sizes(full mode)"


def _conforms(value, hint) -> bool:
    """Whether ``value`` has the (simple) type ``hint``: int, float, bool, ``tuple[T, ...]``,
    ``dict[K, V]``, ``T | None``."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin is tuple:
        return isinstance(value, tuple) and all(_conforms(v, args[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            _conforms(k, args[0]) and _conforms(v, args[1]) for k, v in value.items()
        )
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, a) for a in args)
    return isinstance(value, hint)


def test_sizes_are_frozen_and_derived_with_replace():
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.FAST.day05_fix_epochs = 20
    changed = dataclasses.replace(config.FAST, day05_fix_epochs=20)
    assert (changed.day05_fix_epochs, changed.day05_epochs, changed.fast) == (20, 2_000, True)
    assert config.Sizes(fast=False, day00_epochs=7).day00_epochs == 7
    assert config.FAST.day05_fix_epochs == 300  # unchanged
    assert config.sizes(fast=True) is config.FAST


def test_importing_config_sets_no_start_method_for_the_process():
    """COURSE_START_METHOD is read, not applied: the process keeps its default."""
    code = (
        "import multiprocessing, helpers.config as c; "
        "print(multiprocessing.get_start_method(allow_none=True), c.START_METHOD)"
    )
    env = {**os.environ, "COURSE_START_METHOD": "spawn"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, encoding="utf-8"
    )
    assert done.stdout.split() == ["None", "spawn"], done.stderr


def test_worker_context_follows_the_start_method_asked_for(monkeypatch):
    monkeypatch.setattr(config, "START_METHOD", None)
    assert config.worker_context(2) is None  # PyTorch's default: the platform's
    monkeypatch.setattr(config, "START_METHOD", "spawn")
    assert config.worker_context(0) is None  # DataLoader refuses a context without workers
    assert config.worker_context(2).get_start_method() == "spawn"
    with pytest.raises(ValueError, match="num_workers must be 0 or more"):
        config.worker_context(-1)


@pytest.mark.timeout(120)
def test_a_data_loader_s_workers_start_with_the_method_asked_for(monkeypatch):
    monkeypatch.setattr(config, "START_METHOD", "spawn")
    data = TensorDataset(torch.arange(6))
    for workers in (0, 1):
        loader = DataLoader(
            data, batch_size=3, num_workers=workers,
            multiprocessing_context=config.worker_context(workers),
        )  # fmt: skip
        assert [b.tolist() for (b,) in loader] == [[0, 1, 2], [3, 4, 5]]
    assert loader.multiprocessing_context.get_start_method() == "spawn"


def _loader_calls(source: str):
    """The ``DataLoader(...)`` calls in ``source`` that may start workers (a ``num_workers``
    or ``**`` argument), and whether each names its ``multiprocessing_context``."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        keywords = {k.arg for k in node.keywords}
        if name == "DataLoader" and ("num_workers" in keywords or None in keywords):
            yield node.lineno, "multiprocessing_context" in keywords


def test_the_scan_finds_a_loader_that_may_start_workers():
    source = (
        "a = DataLoader(d)\nb = DataLoader(d, num_workers=2)\nc = DataLoader(d, **options)\n"
        "e = data.DataLoader(d, num_workers=k, multiprocessing_context=worker_context(k))\n"
    )
    assert list(_loader_calls(source)) == [(2, False), (3, False), (4, True)]


def test_notebook_loaders_with_workers_start_them_as_course_start_method_asks():
    """The lessons that start DataLoader workers run with COURSE_START_METHOD=spawn in
    tests/course/test_notebooks.py, as on macOS and Windows: that tests spawn only where the
    loader is given the method (config sets it for nothing else)."""
    from helpers.course import paths as course_paths

    missing = []
    for path in course_paths.lessons() + course_paths.masters():
        for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type != "code":
                continue
            magic = ("%", "!")  # IPython's lines, blanked (the line numbers stay the cell's)
            code = [" " if ln.lstrip().startswith(magic) else ln for ln in cell.source.splitlines()]
            for line, named in _loader_calls("\n".join(code)):
                if not named:
                    missing.append(f"{path.name} cell {index} line {line}")
    assert missing == [], (
        "DataLoader with workers but no multiprocessing_context=worker_context(...): "
        + ", ".join(missing)
    )
