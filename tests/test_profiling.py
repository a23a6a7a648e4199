import pytest
import torch

from helpers.profiling import profile_ops


def test_profile_ops_counts_the_operators():
    x = torch.ones(8, 8)
    table = profile_ops(lambda: [x @ x for _ in range(3)], device="cpu")
    assert table.loc["aten::mm", "calls"] == 3 and table.loc["aten::mm", "computing_calls"] == 3
    assert table.loc["aten::matmul", "computing_calls"] == 0  # it only calls aten::mm
    y = torch.ones(4, 6)
    views = profile_ops(lambda: torch.relu(y.t()), device="cpu")
    assert views.loc["aten::t", "computing_calls"] == 0  # a view: no arithmetic
    assert views.loc["aten::relu", "computing_calls"] == 0  # calls aten::clamp_min...
    assert views.loc["aten::clamp_min", "computing_calls"] == 1  # ...which does the work
    assert views.attrs["kernels"] == 0  # no GPU here
    assert (table["self_cpu_us"] >= 0).all()


def test_timeline_keeps_phases_and_operators_in_time_order(tmp_path):
    import json

    from torch.profiler import record_function

    from helpers.profiling import covered, timeline

    x = torch.ones(16, 16)

    def work():
        for _ in range(2):
            with record_function("multiply"):
                x @ x
            with record_function("activate"):
                torch.relu(x)

    trace = tmp_path / "traces" / "work.json"
    events = timeline(work, device="cpu", trace=trace)
    assert list(events.columns) == ["name", "kind", "start_us", "end_us"]
    phases = events[events["kind"] == "phase"]["name"].tolist()
    assert phases == ["multiply", "activate", "multiply", "activate"]
    operators = events[events["kind"] == "operator"]["name"].tolist()
    assert operators == ["aten::mm", "aten::clamp_min", "aten::mm", "aten::clamp_min"]
    assert events["start_us"].min() == 0 and (events["end_us"] >= events["start_us"]).all()
    assert events["start_us"].is_monotonic_increasing
    assert 0 < covered(events, "operator") < 1  # operators fill part of the time: gaps between
    assert covered(events, "kernel") == 0.0  # no GPU here
    names = {e.get("name") for e in json.loads(trace.read_text(encoding="utf-8"))["traceEvents"]}
    assert {"multiply", "aten::mm"} <= names  # the Chrome trace holds the same events
    only = timeline(work, device="cpu", phases={"activate"})
    assert only[only["kind"] == "phase"]["name"].tolist() == ["activate", "activate"]
    assert (only["kind"] == "operator").sum() == 4  # operators are kept whatever their phase


def test_covered_counts_overlaps_once_and_rejects_unknown_kinds():
    import pandas as pd
    import pytest

    from helpers.profiling import covered

    events = pd.DataFrame(
        {
            "kind": ["phase", "kernel", "kernel", "kernel"],
            "start_us": [0.0, 10.0, 15.0, 50.0],
            "end_us": [100.0, 20.0, 30.0, 60.0],
        }
    )
    assert covered(events, "kernel") == pytest.approx(0.3)  # 10-30 and 50-60
    assert covered(events.iloc[:0], "kernel") == 0.0
    with pytest.raises(ValueError, match="kind must be one of"):
        covered(events, "kernels")


def test_draw_timeline_has_a_row_per_kind():
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    from helpers.profiling import draw_timeline

    events = pd.DataFrame(
        {
            "name": ["forward", "aten::mm", "gemm_kernel"],
            "kind": ["phase", "operator", "kernel"],
            "start_us": [0.0, 1.0, 5.0],
            "end_us": [10.0, 4.0, 8.0],
        }
    )
    ax = draw_timeline(events, title="one epoch")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["kernels", "operators", "phases"]
    assert ax.get_legend_handles_labels()[1] == ["forward"]
    assert ax.get_title() == "one epoch"


def test_time_inside_operators_has_one_definition_from_one_profiled_run():
    """The share of a profiled run that computing operators fill; seconds come from a run timed
    without the profiler (day 5a, section 6 and day 5b, section 1 use this one measure)."""
    from helpers.data import load_iris_split
    from helpers.models import IrisMLP
    from helpers.profiling import inside_operators
    from helpers.training import train

    X, _X_test, y, _y_test = load_iris_split()
    epochs = 20
    found = inside_operators(
        lambda: train(IrisMLP(), X, y, epochs, progress=False), device="cpu", calls=epochs
    )
    assert 0 < found.share < 1
    assert found.operators > found.computing >= 15  # the lesson's epoch: about 19 compute
    assert found.seconds_of(500e-6) == pytest.approx(found.share * 500e-6)
