"""Where the time of a step goes, operator by operator: the PyTorch profiler, summarised (day 5a,
section 6; day 5b, sections 1 and 2).

:func:`profile_ops` runs a function once under ``torch.profiler`` and returns one row per operator:
how often it ran, how many of those calls did arithmetic themselves (each would be a kernel launch
on a GPU), and the time spent inside it. Day 7's busy fraction reads the GPU kernels from here too.

:func:`inside_operators` is the course's one measure of *time inside operators*: the share of a
profiled run that computing operators (on a GPU, kernels) fill. :func:`timeline` keeps every event
with its start and end instead, so that a few epochs can be
drawn as a timeline (:func:`draw_timeline`) with the gaps between operators visible, and writes the
trace for Perfetto (https://ui.perfetto.dev) or ``chrome://tracing``. :func:`covered` measures the
share of a timeline the operators (or the GPU's kernels) fill.

**Time inside operators**, the course's one definition (days 5 and 7): the share of a profiled run
of steps that the operators doing arithmetic fill (on a CUDA GPU, its kernels), numerator and
denominator from that one run, times the step's time measured without the profiler
(:func:`helpers.timing.per_step`). The profiler slows what it watches, the operators and the gaps
between them alike; dividing a profiled sum by an unprofiled wall time would mix a slowed
numerator with an unslowed denominator and inflate the share. :func:`step_profile` measures both
parts; its :class:`StepProfile` gives the step's time, the share and the seconds inside operators.

>>> events = pd.DataFrame({"kind": ["phase", "operator", "operator"],
...                        "start_us": [0.0, 10.0, 15.0], "end_us": [100.0, 20.0, 30.0]})
>>> covered(events, "operator")  # 10-30 µs of a 100 µs epoch
0.2
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import torch

from helpers.device import synchronize
from helpers.i18n import N_, label
from helpers.timing import Measurement, per_step

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
    with open(os.devnull, "w", encoding="utf-8") as devnull:
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


def _run_profiled(fn: Callable[[], object], device: torch.device | str):
    """Run ``fn`` once under the profiler (CPU events, and GPU kernels on CUDA)."""
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
    return prof


def profile_ops(fn: Callable[[], object], *, device: torch.device | str) -> pd.DataFrame:
    """Run ``fn`` once under the PyTorch profiler; one row per operator, slowest first.

    Columns: ``calls``; ``computing_calls``, the calls that do arithmetic themselves rather than
    calling other operators or only relabelling memory (on a GPU, each is a kernel launch);
    ``self_cpu_us``, time inside the operator itself on the CPU; ``cpu_total_us``, with the
    operators it called; and on a CUDA device ``device_us``, time its kernels ran on the GPU.
    ``table.attrs["kernels"]`` is the number of GPU kernels that ran (0 without CUDA).
    """
    prof = _run_profiled(fn, device)
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


@dataclass(frozen=True)
class InsideOperators:
    """How much of a run the device spends inside the operators that compute: the course's one
    definition of *time inside operators* (days 5a and 5b), from one profiled run."""

    share: float
    """The share of the profiled run's span that computing operators fill (on a GPU: its
    kernels), overlaps counted once. Numerator and denominator come from the same run, so the
    profiler's own slowing weighs on both: multiply by a run timed without the profiler to get
    seconds (:meth:`seconds_of`)."""
    operators: float
    """Operators dispatched per call (``aten::`` operators, not counting views)."""
    computing: float
    """Of those, the ones that compute themselves, per call (each a kernel launch on a GPU)."""

    def seconds_of(self, unprofiled: float) -> float:
        """Time inside operators in a call that took ``unprofiled`` seconds without the
        profiler."""
        return self.share * unprofiled


def inside_operators(
    fn: Callable[[], object], *, device: torch.device | str, calls: int = 1
) -> InsideOperators:
    """Run ``fn`` (``calls`` epochs, say) once under the profiler: the share of its time inside
    computing operators (GPU kernels on CUDA) and the operators it dispatched per call."""
    prof = _run_profiled(fn, device)
    events = list(prof.events())
    cuda = torch.device(device).type == "cuda"
    rows = [
        {"kind": "kernel" if e.device_type == torch.autograd.DeviceType.CUDA else "operator",
         "start_us": e.time_range.start, "end_us": e.time_range.end}
        for e in events
        if e.device_type == torch.autograd.DeviceType.CUDA or _computes(e)
    ]  # fmt: skip
    table = pd.DataFrame(rows, columns=["kind", "start_us", "end_us"])
    return InsideOperators(
        share=covered(table, "kernel" if cuda else "operator"),
        operators=sum(1 for e in events if _real(e)) / calls,
        computing=sum(1 for e in events if _computes(e)) / calls,
    )


KINDS = (N_("phase"), "operator", "kernel")
"""The rows of a timeline: labelled phases (``record_function``), operators that compute, and
GPU kernels."""


def timeline(
    fn: Callable[[], object],
    *,
    device: torch.device | str,
    trace: Path | None = None,
    phases: Collection[str] | None = None,
) -> pd.DataFrame:
    """Run ``fn`` once under the profiler and return its events, one row each, in time order.

    Columns: ``name``; ``kind``, one of :data:`KINDS` (a ``record_function`` label, an operator
    that does arithmetic itself, a GPU kernel; other events are left out); ``start_us`` and
    ``end_us``, microseconds from the first event. ``phases`` keeps only the labels named there
    (PyTorch's optimisers add labels of their own). With ``trace``, the whole profile is also
    written there as a Chrome trace (open it in https://ui.perfetto.dev); its folder is created.
    """
    prof = _run_profiled(fn, device)
    if trace is not None:
        trace.parent.mkdir(parents=True, exist_ok=True)
        prof.export_chrome_trace(str(trace))
    rows = []
    for event in prof.events():
        annotation = getattr(event, "is_user_annotation", False)
        if event.device_type == torch.autograd.DeviceType.CUDA:
            kind = None if annotation else "kernel"
        elif annotation:
            kind = "phase" if phases is None or event.name in phases else None
        else:
            kind = "operator" if _computes(event) else None
        if kind is not None:
            rows.append(
                {
                    "name": event.name,
                    "kind": kind,
                    "start_us": event.time_range.start,
                    "end_us": event.time_range.end,
                }
            )
    events = pd.DataFrame(rows, columns=["name", "kind", "start_us", "end_us"])
    if len(events):
        first = events["start_us"].min()
        events[["start_us", "end_us"]] -= first
    return events.sort_values("start_us", kind="stable").reset_index(drop=True)


def covered(events: pd.DataFrame, kind: str = "operator") -> float:
    """The share of the timeline's span that events of ``kind`` fill (overlaps counted once).

    The span runs from the first to the last event of any kind; 0.0 for an empty timeline.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if events.empty:
        return 0.0
    span = events["end_us"].max() - events["start_us"].min()
    if span <= 0:
        return 0.0
    busy, reach = 0.0, float("-inf")
    chosen = events[events["kind"] == kind].sort_values("start_us")
    for start, end in zip(chosen["start_us"], chosen["end_us"], strict=True):
        start = max(start, reach)
        if end > start:
            busy += end - start
        reach = max(reach, end)
    return float(busy / span)


def inside_kind(device: torch.device | str) -> str:
    """What fills a device's time inside operators: ``"kernel"`` on a CUDA GPU (the profiler sees
    its kernels), ``"operator"`` elsewhere (the operators that compute, on the CPU's side)."""
    return "kernel" if torch.device(device).type == "cuda" else "operator"


@dataclass(frozen=True)
class StepProfile:
    """A step's time and its time inside operators, each measured the course's one way."""

    seconds: Measurement
    """Seconds per step, back to back and without the profiler (:func:`helpers.timing.per_step`)."""
    inside_share: float
    """The share of a profiled run of the same steps that ``kind`` events fill (:func:`covered`)."""
    kind: str
    """``"kernel"`` (a CUDA GPU's kernels) or ``"operator"`` (operators that compute)."""
    steps: int
    """Steps per timed block and in the profiled run."""

    @property
    def step_s(self) -> float:
        """The median seconds per step."""
        return self.seconds.median

    @property
    def inside_s(self) -> float:
        """Seconds per step inside operators: the profiled share of the unprofiled time."""
        return self.inside_share * self.step_s

    @property
    def overhead_s(self) -> float:
        """Seconds per step outside them: Python, dispatch, autograd, launches, waits."""
        return self.step_s - self.inside_s


def step_profile(
    step: Callable[[], object],
    *,
    device: torch.device | str,
    steps: int = 20,
    repeats: int = 3,
    warmup: int = 1,
) -> StepProfile:
    """A step's time and the share of it inside operators, measured one way for every lesson:
    ``warmup`` untimed steps (a fresh model's first step pays one-off costs), one profiled run of
    ``steps`` steps (:func:`timeline`, :func:`covered`), then ``repeats`` timed blocks of
    ``steps`` steps back to back (:func:`helpers.timing.per_step`).

    >>> import torch
    >>> x = torch.ones(256, 256)
    >>> found = step_profile(lambda: x @ x, device="cpu", steps=5, repeats=2)
    >>> found.kind, 0 < found.inside_share <= 1, found.inside_s <= found.step_s
    ('operator', True, True)
    """
    kind = inside_kind(device)

    def block() -> None:
        for _step in range(steps):
            step()

    for _step in range(warmup):
        step()
    share = covered(timeline(block, device=device), kind)
    seconds = per_step(step, device=device, steps=steps, repeats=repeats, warmup=0)
    return StepProfile(seconds, share, kind, steps)


def draw_timeline(events: pd.DataFrame, ax=None, title: str = "timeline"):
    """Draw a :func:`timeline` as horizontal bars, one row per kind: the gaps are the white."""
    import matplotlib.pyplot as plt

    if ax is None:
        _figure, ax = plt.subplots(figsize=(10, 2.8))
    kinds = [k for k in KINDS if (events["kind"] == k).any()]
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    phases = list(dict.fromkeys(events.loc[events["kind"] == "phase", "name"]))
    for row, kind in enumerate(reversed(kinds)):
        chosen = events[events["kind"] == kind]
        for name, start, end in zip(
            chosen["name"], chosen["start_us"], chosen["end_us"], strict=True
        ):
            colour = colours[phases.index(name) % len(colours)] if kind == "phase" else "0.25"
            ax.broken_barh([(start, end - start)], (row - 0.4, 0.8), color=colour)
    for index, name in enumerate(phases):
        ax.bar(0, 0, color=colours[index % len(colours)], label=name)  # legend entries only
    rows = {"phase": label("phases"), "operator": label("operators"), "kernel": label("kernels")}
    ax.set_yticks(range(len(kinds)), [rows[k] for k in reversed(kinds)])
    ax.set(xlabel=label("time (µs from the first event)"), title=title)
    ax.grid(alpha=0.3, axis="x")
    if phases:
        ax.legend(fontsize=8, ncol=len(phases), loc="upper center", bbox_to_anchor=(0.5, -0.3))
    return ax
