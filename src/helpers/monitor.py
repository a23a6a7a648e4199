"""Watching memory and utilisation while something runs: a small live view, like
``nvidia-smi -l 1`` inside the notebook.

On a machine with an NVIDIA driver it reads every GPU's memory and utilisation through NVML
(the library behind ``nvidia-smi``, via the ``nvidia-ml-py`` package). Without one it says so and
shows this process's CPU use and memory instead (and, on a Mac, the memory MPS has allocated)::

    with LiveView() as view:
        train(...)               # the bars update while this runs
    view.history                 # every reading, as a DataFrame

Day 7 adds :class:`UtilisationMeter` (waiting for data against computing), :func:`peak_memory`
and :func:`largest_batch_that_fits` (recovering from out-of-memory errors).
"""

from __future__ import annotations

import functools
import threading
import time
from contextlib import contextmanager
from types import ModuleType

import pandas as pd
import psutil
import torch

from helpers.timing import timed


@functools.cache
def nvml() -> ModuleType | None:
    """The initialised ``pynvml`` module, or ``None`` without an NVIDIA driver (or the package)."""
    try:
        import pynvml
    except ImportError:
        return None
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:
        return None
    return pynvml


class Sampler:
    """Takes one reading of the GPUs (or, without NVML, of this process) each time it is called."""

    def __init__(self) -> None:
        self.process = psutil.Process()
        self.process.cpu_percent(None)  # the first call only starts the measurement
        self.lib = nvml()
        self.mps = self.lib is None and torch.backends.mps.is_available()

    @property
    def source(self) -> str:
        if self.lib is not None:
            return "NVIDIA GPU(s), read through NVML"
        if self.mps:
            return "no NVIDIA driver: the Apple GPU's memory (MPS) and this process's CPU use"
        return "no GPU or driver found: this process's CPU use and memory instead"

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


class LiveView:
    """Bars for memory and utilisation that update every ``interval`` seconds while a block runs.

    Use it as a context manager around the code to watch. The readings are kept in
    :attr:`history`; :meth:`summary` describes them in one line.
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
        specs = {"process_cpu_percent": ("CPU %", 100.0 * cpus, "%")}
        specs["process_memory_gb"] = ("memory (GB)", total, "GB")
        for key in first:
            if key.endswith("_utilization_percent"):
                specs[key] = (f"{key.split('_')[0].upper()} busy %", 100.0, "%")
            elif key.endswith("_memory_used_gb"):
                gpu = key.split("_")[0]
                specs[key] = (f"{gpu.upper()} memory (GB)", first[f"{gpu}_memory_total_gb"], "GB")
            elif key == "mps_allocated_gb":
                specs[key] = ("MPS memory (GB)", total, "GB")
        rows = []
        for key, (label, top, unit) in specs.items():
            bar = widgets.FloatProgress(value=0, min=0, max=top, description=label,
                                        style={"description_width": "9em"})  # fmt: skip
            text = widgets.Label()
            self._bars[key] = (bar, text, unit)
            rows.append(widgets.HBox([bar, text]))
        head = widgets.HTML(f"<b>Live view</b>: {getattr(self.sampler, 'source', '')}")
        self.widget = widgets.VBox([head, *rows])

    def _show(self, row: dict[str, float]) -> None:
        for key, (bar, text, unit) in self._bars.items():
            value = row.get(key, 0.0)
            bar.value = min(value, bar.max)
            text.value = f"{value:.1f} {unit}" + (f" of {bar.max:.1f}" if unit == "GB" else "")

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

    def summary(self) -> str:
        """The readings in one line: how long, how many, and the peaks."""
        table = self.history
        parts = [f"{len(table)} readings over {table['seconds'].iloc[-1]:.1f} s"]
        for key in table.columns:
            if key.endswith("_utilization_percent"):
                gpu = key.split("_")[0].upper()
                parts.append(f"{gpu} busy {table[key].mean():.0f}% on average")
            elif key.endswith(("_memory_used_gb", "_memory_gb", "_allocated_gb")):
                name = key.removesuffix("_gb").replace("_", " ")
                parts.append(f"peak {name} {table[key].max():.2f} GB")
        parts.append(f"process CPU {table['process_cpu_percent'].mean():.0f}% on average")
        return "; ".join(parts)


class UtilisationMeter:
    """The share of a training loop spent computing, against waiting for data.

    Wrap the data loader and the step::

        meter = UtilisationMeter(device)
        for xb, yb in meter.wrap(loader):
            with meter.computing():
                step(xb, yb)
        meter.busy  # fraction of the loop's time spent in the steps

    Waiting is the time ``next(loader)`` takes; computing is the step, with the device
    synchronised, so queued GPU work is counted where it runs.
    """

    def __init__(self, device: torch.device | str) -> None:
        self.device = torch.device(device)
        self.waits: list[float] = []
        self.computes: list[float] = []

    def wrap(self, loader):
        """Yield the batches of ``loader``, timing how long each one took to arrive."""
        batches = iter(loader)
        while True:
            start = time.perf_counter()
            try:
                batch = next(batches)
            except StopIteration:
                return
            self.waits.append(time.perf_counter() - start)
            yield batch

    @contextmanager
    def computing(self):
        """Time one step (synchronised with the device)."""
        with timed(self.device) as watch:
            yield
        self.computes.append(watch.seconds)

    @property
    def busy(self) -> float:
        """Computing time over computing plus waiting time (0 to 1)."""
        total = sum(self.waits) + sum(self.computes)
        return sum(self.computes) / total if total else 0.0

    def summary(self) -> dict[str, float]:
        return {
            "steps": len(self.computes),
            "waiting (s)": sum(self.waits),
            "computing (s)": sum(self.computes),
            "busy": self.busy,
        }


def peak_memory(fn, device: torch.device | str, interval: float = 0.001) -> int:
    """Extra memory, in bytes, used at the peak while ``fn()`` runs on ``device``.

    On CUDA, PyTorch's own count of allocated memory (``max_memory_allocated``); elsewhere the
    process's resident memory (RSS), sampled every ``interval`` seconds from a background thread,
    minus what it was before (so it also counts memory that other code in the process allocates).
    """
    device = torch.device(device)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        base = torch.cuda.memory_allocated(device)
        torch.cuda.reset_peak_memory_stats(device)
        fn()
        torch.cuda.synchronize(device)
        return torch.cuda.max_memory_allocated(device) - base
    process = psutil.Process()
    base = process.memory_info().rss
    peak = base
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, process.memory_info().rss)
            done.wait(interval)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    try:
        fn()
    finally:
        done.set()
        watcher.join()
    return max(0, max(peak, process.memory_info().rss) - base)


def is_out_of_memory(error: BaseException) -> bool:
    """Whether an exception is an out-of-memory error: CUDA's ``torch.OutOfMemoryError``, or the
    CPU allocator's ``RuntimeError: ... can't allocate memory``."""
    if isinstance(error, torch.OutOfMemoryError):
        return True
    return isinstance(error, RuntimeError) and "can't allocate memory" in str(error)


def largest_batch_that_fits(step, batch: int, smallest: int = 1) -> tuple[int, list[str]]:
    """Run ``step(batch)``, halving ``batch`` after each out-of-memory error, until it fits.

    Returns the batch size that worked and a log of the attempts. Other errors propagate; if even
    ``smallest`` does not fit, the last out-of-memory error is raised.
    """
    if batch < smallest or smallest < 1:
        raise ValueError(f"need batch >= smallest >= 1, got batch={batch}, smallest={smallest}")
    log = []
    while True:
        try:
            step(batch)
        except Exception as err:
            if not is_out_of_memory(err) or batch // 2 < smallest:
                raise
            log.append(f"batch {batch}: out of memory ({type(err).__name__})")
            if torch.cuda.is_available():
                torch.cuda.empty_cache()  # give the failed attempt's blocks back
            batch //= 2
            continue
        log.append(f"batch {batch}: fits")
        return batch, log
