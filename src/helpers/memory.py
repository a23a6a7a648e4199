"""Memory on any device: a step's peak, running out of it, 16-bit training (day 7, section 3).

* :func:`peak_memory`: the memory a step needs at its peak (CUDA's allocator counters; on a CPU
  the process's resident memory, sampled);
* :func:`is_out_of_memory` and :func:`largest_batch_that_fits`: recovering from out-of-memory
  errors by halving the batch, each try kept as an :class:`Attempt`;
* :func:`autocast_dtype`: which 16-bit type to train in, and whether it needs a ``GradScaler``
  (an :class:`Autocast`).

Everything here is importable from :mod:`helpers.utilisation` too. This module computes; what the
figures say (gradient accumulation's peak, why a type was chosen), the lesson says
(:mod:`helpers.day07`).
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
from dataclasses import dataclass

import psutil
import torch


def peak_memory(fn, device: torch.device | str, interval: float = 0.001) -> int:
    """Extra memory, in bytes, used at the peak while ``fn()`` runs on ``device``.

    On CUDA, PyTorch's own count of allocated memory (``max_memory_allocated``); elsewhere the
    process's resident memory (RSS), sampled every ``interval`` seconds from a background thread,
    minus what it was before (so it also counts memory that other code in the process allocates).
    Memory that earlier work freed is handed back to the system first (:func:`release_free_memory`):
    otherwise a repeated step reuses it without the RSS growing, and its peak reads 0.
    """
    device = torch.device(device)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        base = torch.cuda.memory_allocated(device)
        torch.cuda.reset_peak_memory_stats(device)
        fn()
        torch.cuda.synchronize(device)
        return torch.cuda.max_memory_allocated(device) - base
    release_free_memory()
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


def release_free_memory() -> None:
    """Hand memory the C allocator holds free back to the system (glibc's ``malloc_trim``, on
    Linux); on other systems, nothing."""
    with contextlib.suppress(OSError, AttributeError):  # no C library to open, or not glibc
        ctypes.CDLL(None).malloc_trim(0)


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


@dataclass(frozen=True)
class Attempt:
    """One try of :func:`largest_batch_that_fits`."""

    batch: int
    """The batch size tried."""
    error: str | None = None
    """The out-of-memory error's class name (``OutOfMemoryError``...); ``None``: it fitted."""


def largest_batch_that_fits(step, batch: int, smallest: int = 1) -> tuple[int, list[Attempt]]:
    """Run ``step(batch)``, halving ``batch`` after each out-of-memory error, until it fits.

    Returns the batch size that worked and every attempt, in order. Other errors propagate; if
    even ``smallest`` does not fit, the last out-of-memory error is raised.

    >>> def step(batch):  # pretend that more than 100 rows do not fit
    ...     if batch > 100:
    ...         raise torch.OutOfMemoryError("CUDA out of memory")
    >>> batch, log = largest_batch_that_fits(step, 512)
    >>> batch, log[-2:]
    (64, [Attempt(batch=128, error='OutOfMemoryError'), Attempt(batch=64, error=None)])
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
            log.append(Attempt(batch, type(err).__name__))
            if torch.cuda.is_available():
                torch.cuda.empty_cache()  # give the failed attempt's blocks back
            batch //= 2
            continue
        log.append(Attempt(batch))
        return batch, log


BFLOAT16_TENSOR_CORES = 8
"""The compute capability (major) from which NVIDIA's tensor cores run bfloat16 (8.0, Ampere)."""
FLOAT16_TENSOR_CORES = 7
"""The compute capability (major) from which NVIDIA GPUs have tensor cores, for float16 (7.0,
Volta); before that, float16 only halves memory."""


@dataclass(frozen=True)
class Autocast:
    """The 16-bit type to train in with ``torch.autocast`` on a device (:func:`autocast_dtype`)."""

    dtype: torch.dtype
    """``torch.bfloat16`` or ``torch.float16``."""
    needs_scaler: bool
    """Whether the loss must be scaled (a ``GradScaler``): float16's narrow range."""
    device_type: str
    """``cuda``, ``mps`` or ``cpu``."""
    capability: tuple[int, int] | None = None
    """A CUDA device's compute capability (major, minor), which decided; ``None`` elsewhere."""


def autocast_dtype(device: torch.device | str) -> Autocast:
    """The 16-bit type to train in with ``torch.autocast`` on ``device``, and whether it needs a
    ``GradScaler``.

    bfloat16 keeps float32's range, so it needs no scaler, but NVIDIA GPUs run it on tensor cores
    only from compute capability 8.0 (Ampere) on (:data:`BFLOAT16_TENSOR_CORES`); before that
    (7.x: Volta, Turing) their tensor cores run float16, whose narrow range makes small gradients
    underflow unless the loss is scaled. CPUs compute in bfloat16 (fast only with AVX-512 BF16 or
    AMX instructions).

    >>> found = autocast_dtype("cpu")
    >>> found.dtype, found.needs_scaler
    (torch.bfloat16, False)
    """
    device = torch.device(device)
    if device.type == "cuda":
        capability = tuple(torch.cuda.get_device_capability(device))
        if capability[0] >= BFLOAT16_TENSOR_CORES:
            return Autocast(torch.bfloat16, False, "cuda", capability)
        return Autocast(torch.float16, True, "cuda", capability)
    if device.type == "mps":
        return Autocast(torch.float16, True, "mps")
    return Autocast(torch.bfloat16, False, device.type)
