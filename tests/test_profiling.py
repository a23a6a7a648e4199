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
