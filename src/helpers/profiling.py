"""Where the time of a step goes, operator by operator: the PyTorch profiler, summarised (day 5).

:func:`profile_ops` runs a function once under ``torch.profiler`` and returns one row per operator:
how often it ran, how many of those calls did arithmetic themselves (each would be a kernel launch
on a GPU), and the time spent inside it. Day 7's busy fraction reads the GPU kernels from here too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pandas as pd
import torch

from helpers.device import synchronize

# Operators that only describe memory differently (a view, a transpose) or allocate it: no
# arithmetic, no kernel launch on a GPU.
METADATA_OPS = frozenset(
    f"aten::{name}"
    for name in """
        t transpose as_strided view expand detach resolve_conj resolve_neg alias reshape
        _reshape_alias squeeze unsqueeze select slice permute empty empty_strided empty_like
        lift_fresh _unsafe_view
    """.split()  # noqa: SIM905 - a word list reads better than 21 quoted strings
)


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence what C/C++ code writes to file descriptor 2 (Python's own errors are unaffected)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _real(event) -> bool:
    return event.name.startswith("aten::") and event.name not in METADATA_OPS


def _computes(event) -> bool:
    """Whether a profiler event is an operator that calls no other real operator: the one that
    does the arithmetic (see METADATA_OPS for what does not count)."""
    return _real(event) and not any(_real(child) for child in event.cpu_children)


def profile_ops(fn: Callable[[], object], *, device: torch.device | str) -> pd.DataFrame:
    """Run ``fn`` once under the PyTorch profiler; one row per operator, slowest first.

    Columns: ``calls``; ``computing_calls``, the calls that do arithmetic themselves rather than
    calling other operators or only relabelling memory (on a GPU, each is a kernel launch);
    ``self_cpu_us``, time inside the operator itself on the CPU; ``cpu_total_us``, with the
    operators it called; and on a CUDA device ``device_us``, time its kernels ran on the GPU.
    ``table.attrs["kernels"]`` is the number of GPU kernels that ran (0 without CUDA).
    """
    activities = [torch.profiler.ProfilerActivity.CPU]
    if torch.device(device).type == "cuda":
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    prof = torch.profiler.profile(activities=activities)
    with _quiet_stderr():  # the profiler's C++ side logs "profiler_start" to the raw stderr
        prof.start()
    try:
        fn()
        synchronize(device)
    finally:
        with _quiet_stderr():
            prof.stop()
    computing: dict[str, int] = {}
    for event in prof.events():
        if _computes(event):
            computing[event.name] = computing.get(event.name, 0) + 1
    rows = []
    for event in prof.key_averages():
        rows.append(
            {
                "op": event.key,
                "calls": event.count,
                "computing_calls": computing.get(event.key, 0),
                "self_cpu_us": event.self_cpu_time_total,
                "cpu_total_us": event.cpu_time_total,
                "device_us": getattr(event, "self_device_time_total", 0.0),
            }
        )
    table = pd.DataFrame(rows).set_index("op").sort_values("self_cpu_us", ascending=False)
    cuda = torch.autograd.DeviceType.CUDA
    table.attrs["kernels"] = sum(1 for e in prof.events() if e.device_type == cuda)
    return table
