"""Watching memory and utilisation while something runs: a small live view, like
``nvidia-smi -l 1`` inside the notebook (day 1, section 5; day 2, section 7).

On a machine with an NVIDIA driver it reads every GPU's memory and utilisation through NVML
(the library behind ``nvidia-smi``, via the ``nvidia-ml-py`` package). Without one it says so and
shows this process's CPU use and memory instead (and, on a Mac, the memory MPS has allocated)::

    with LiveView() as view:
        train(...)               # the bars update while this runs
    view.history                 # every reading, as a DataFrame
    view.summary()               # their length and peaks (helpers.day01.live_summary says them)

Used on day 1 (watching a workload) and day 2 (watching training). NVML itself is set up in
:mod:`helpers.nvml`, which the hardware report shares.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import pandas as pd
import psutil
import torch

from helpers import nvml
from helpers.i18n import N_, _, word


class Sampler:
    """Takes one reading of the GPUs (or, without NVML, of this process) each time it is called."""

    def __init__(self) -> None:
        self.process = psutil.Process()
        self.process.cpu_percent(None)  # the first call only starts the measurement
        self.lib = nvml.library()
        self.mps = self.lib is None and torch.backends.mps.is_available()

    @property
    def source(self) -> str:
        if self.lib is not None:
            return _("NVIDIA GPU(s), read through NVML")
        if self.mps:
            return _("no NVIDIA driver: the Apple GPU's memory (MPS) and this process's CPU use")
        return _("no GPU or driver found: this process's CPU use and memory instead")

    def __call__(self) -> dict[str, float]:
        row = {
            "seconds": time.monotonic(),
            "process_cpu_percent": self.process.cpu_percent(None),
            "process_memory_gb": self.process.memory_info().rss / 1e9,
        }
        if self.lib is not None:
            for i in range(self.lib.nvmlDeviceGetCount()):
                handle = self.lib.nvmlDeviceGetHandleByIndex(i)
                memory = self.lib.nvmlDeviceGetMemoryInfo(handle)
                row[f"gpu{i}_memory_used_gb"] = memory.used / 1e9
                row[f"gpu{i}_memory_total_gb"] = memory.total / 1e9
                row[f"gpu{i}_utilization_percent"] = self.lib.nvmlDeviceGetUtilizationRates(
                    handle
                ).gpu
        elif self.mps:
            row["mps_allocated_gb"] = torch.mps.driver_allocated_memory() / 1e9
        return row


@dataclass(frozen=True)
class Summary:
    """What a live view saw (:meth:`LiveView.summary`)."""

    readings: int
    seconds: float
    """From the first reading to the last."""
    figures: dict[str, float]
    """By column of :attr:`LiveView.history`, in its order: a GPU's mean utilisation (%) for
    ``gpu<n>_utilization_percent``, the peak (GB) for a memory reading."""
    cpu_percent: float
    """This process's mean CPU use (100 % = one CPU kept busy)."""


class LiveView:
    """Bars for memory and utilisation that update every ``interval`` seconds while a block runs.

    Use it as a context manager around the code to watch. The readings are kept in
    :attr:`history`; :meth:`summary` sums them up.
    """

    def __init__(self, interval: float = 0.5, sampler=None) -> None:
        if interval <= 0:
            raise ValueError(f"interval must be a positive number of seconds, got {interval}")
        self.interval = interval
        self.sampler = sampler or Sampler()
        self.rows: list[dict[str, float]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._bars: dict = {}
        self.widget = None

    # The widgets: one labelled bar per quantity, made from the first reading.
    def _build(self, first: dict[str, float]) -> None:
        import ipywidgets as widgets

        cpus = psutil.cpu_count() or 1
        total = psutil.virtual_memory().total / 1e9
        specs = {"process_cpu_percent": (_("CPU %"), 100.0 * cpus, "%")}
        specs["process_memory_gb"] = (_("memory (GB)"), total, "GB")
        for key in first:
            if key.endswith("_utilization_percent"):
                specs[key] = (_("{gpu} busy %").format(gpu=key.split("_")[0].upper()), 100.0, "%")
            elif key.endswith("_memory_used_gb"):
                gpu = key.split("_")[0]
                label = _("{gpu} memory (GB)").format(gpu=gpu.upper())
                specs[key] = (label, first[f"{gpu}_memory_total_gb"], "GB")
            elif key == "mps_allocated_gb":
                specs[key] = (_("{gpu} memory (GB)").format(gpu="MPS"), total, "GB")
        rows = []
        for key, (label, top, unit) in specs.items():
            bar = widgets.FloatProgress(
                value=0, min=0, max=top, description=label, style={"description_width": "9em"}
            )
            reading = widgets.Label()
            self._bars[key] = (bar, reading, unit)
            rows.append(widgets.HBox([bar, reading]))
        source = getattr(self.sampler, "source", "")
        head = widgets.HTML(_("<b>Live view</b>: {source}").format(source=source))
        self.widget = widgets.VBox([head, *rows])

    def _show(self, row: dict[str, float]) -> None:
        for key, (bar, label, unit) in self._bars.items():
            value = row.get(key, 0.0)
            bar.value = min(value, bar.max)
            if unit == "GB":
                label.value = _("{value:.1f} {unit} of {top:.1f}").format(
                    value=value, unit=unit, top=bar.max
                )
            else:
                label.value = f"{value:.1f} {unit}"

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self._record()

    def _record(self) -> None:
        row = self.sampler()
        self.rows.append(row)
        self._show(row)

    def __enter__(self) -> LiveView:
        from IPython.display import display

        first = self.sampler()
        self.rows.append(first)
        self._build(first)
        self._show(first)
        display(self.widget)
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, daemon=True, name="live-view")
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._record()  # the state at the end, so an executed copy shows it

    @property
    def history(self) -> pd.DataFrame:
        """Every reading, with ``seconds`` counted from the first one."""
        table = pd.DataFrame(self.rows)
        if not table.empty:
            table["seconds"] -= table["seconds"].iloc[0]
        return table

    def summary(self) -> Summary:
        """The readings in brief: how many, over how long, the GPUs' mean utilisation, the peak
        of each memory reading, and this process's mean CPU use."""
        table = self.history
        figures = {}
        for key in table.columns:
            if key.endswith("_utilization_percent"):
                figures[key] = float(table[key].mean())
            elif key.endswith(("_memory_used_gb", "_memory_gb", "_allocated_gb")):
                figures[key] = float(table[key].max())
        return Summary(
            readings=len(table),
            seconds=float(table["seconds"].iloc[-1]),
            figures=figures,
            cpu_percent=float(table["process_cpu_percent"].mean()),
        )


def reading_name(column: str, lang: str | None = None) -> str:
    """A memory reading's name in ``lang``, from its column of :attr:`LiveView.history`.

    >>> reading_name("process_memory_gb", "en"), reading_name("gpu0_memory_used_gb", "zh")
    ('process memory', 'GPU 0 已用显存')
    """
    return word(column.removesuffix("_gb").replace("_", " "), lang)


NAMES = (N_("process memory"), N_("mps allocated"))
"""The names :func:`reading_name` gives the readings (GPUs' are ``gpu<n> memory used``)."""
