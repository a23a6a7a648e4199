"""Day 7: why is my GPU utilisation low? Tools to measure the three causes.

* :class:`UtilisationMeter`: the share of a training loop spent computing, against waiting for data.
* :func:`peak_memory`: the memory a step needs at its peak, on any device.
* :func:`is_out_of_memory` and :func:`largest_batch_that_fits`: recovering from out-of-memory
  errors by halving the batch.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import psutil
import torch

from helpers.timing import timed


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
    CPU allocator's ``RuntimeError: ... can't allocate memory``.

    >>> is_out_of_memory(RuntimeError("DefaultCPUAllocator: can't allocate memory: you tried..."))
    True
    >>> is_out_of_memory(RuntimeError("shape mismatch"))
    False
    """
    if isinstance(error, torch.OutOfMemoryError):
        return True
    return isinstance(error, RuntimeError) and "can't allocate memory" in str(error)


def largest_batch_that_fits(step, batch: int, smallest: int = 1) -> tuple[int, list[str]]:
    """Run ``step(batch)``, halving ``batch`` after each out-of-memory error, until it fits.

    Returns the batch size that worked and a log of the attempts. Other errors propagate; if even
    ``smallest`` does not fit, the last out-of-memory error is raised.

    >>> def step(batch):  # pretend that more than 100 rows do not fit
    ...     if batch > 100:
    ...         raise torch.OutOfMemoryError("CUDA out of memory")
    >>> batch, log = largest_batch_that_fits(step, 512)
    >>> batch, log[-2:]
    (64, ['batch 128: out of memory (OutOfMemoryError)', 'batch 64: fits'])
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


def autocast_dtype(device: torch.device | str) -> tuple[torch.dtype, bool, str]:
    """The 16-bit type to train in with ``torch.autocast`` on ``device``, whether it needs a
    ``GradScaler``, and why.

    bfloat16 keeps float32's range, so it needs no scaler, but NVIDIA GPUs run it on tensor cores
    only from compute capability 8.0 (Ampere) on; before that (7.x: Volta, Turing) their tensor
    cores run float16, whose narrow range makes small gradients underflow unless the loss is
    scaled. CPUs compute in bfloat16 (fast only with AVX-512 BF16 or AMX instructions).

    >>> autocast_dtype("cpu")[:2]
    (torch.bfloat16, False)
    """
    device = torch.device(device)
    if device.type == "cuda":
        major, minor = torch.cuda.get_device_capability(device)
        cc = f"compute capability {major}.{minor}"
        if major >= 8:
            return torch.bfloat16, False, f"{cc}: tensor cores run bfloat16 (from 8.0 on)"
        if major == 7:
            return (
                torch.float16,
                True,
                (
                    f"{cc}: tensor cores run float16 but not bfloat16 (that needs 8.0), and "
                    "float16's narrow range needs a GradScaler"
                ),
            )
        return torch.float16, True, f"{cc}: no tensor cores; float16 only halves memory"
    if device.type == "mps":
        return torch.float16, True, "Apple GPU: float16, with a GradScaler for its narrow range"
    return torch.bfloat16, False, "CPU: bfloat16 (fast only with AVX-512 BF16 or AMX)"
