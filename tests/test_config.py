import pytest

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
