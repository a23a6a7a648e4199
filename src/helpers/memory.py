"""Memory on any device: a step's peak, running out of it, 16-bit training (day 7).

* :func:`peak_memory`: the memory a step needs at its peak (CUDA's allocator counters; on a CPU
  the process's resident memory, sampled), and :func:`accumulation_verdict`, what that figure
  can say about gradient accumulation;
* :func:`is_out_of_memory` and :func:`largest_batch_that_fits`: recovering from out-of-memory
  errors by halving the batch;
* :func:`autocast_dtype`: which 16-bit type to train in, and whether it needs a ``GradScaler``.

Everything here is importable from :mod:`helpers.utilisation` too.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading

import psutil
import torch

from helpers.i18n import _


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
            log.append(
                _("batch {batch}: out of memory ({error})").format(
                    batch=batch, error=type(err).__name__
                )
            )
            if torch.cuda.is_available():
                torch.cuda.empty_cache()  # give the failed attempt's blocks back
            batch //= 2
            continue
        log.append(_("batch {batch}: fits").format(batch=batch))
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
        cc = f"{major}.{minor}"
        if major >= 8:
            return (
                torch.bfloat16,
                False,
                _("compute capability {cc}: tensor cores run bfloat16 (from 8.0 on)").format(cc=cc),
            )
        if major == 7:
            return (
                torch.float16,
                True,
                _(
                    "compute capability {cc}: tensor cores run float16 but not bfloat16 "
                    "(that needs 8.0), and float16's narrow range needs a GradScaler"
                ).format(cc=cc),
            )
        return (
            torch.float16,
            True,
            _("compute capability {cc}: no tensor cores; float16 only halves memory").format(cc=cc),
        )
    if device.type == "mps":
        return torch.float16, True, _("Apple GPU: float16, with a GradScaler for its narrow range")
    return torch.bfloat16, False, _("CPU: bfloat16 (fast only with AVX-512 BF16 or AMX)")


def accumulation_verdict(whole: float, micro: float, parts: int, device_type: str) -> str:
    """Peak memory (bytes) of a backward pass on the whole batch against ``parts``
    micro-batches, and what the figures can say on this kind of device.

    >>> accumulation_verdict(410e6, 120e6, 4, "cuda")
    '4 micro-batches needed 3.4× less peak memory than the whole batch (410 MB against 120 MB).'
    """
    sizes = _("{whole_mb:,.0f} MB against {micro_mb:,.0f} MB").format(
        whole_mb=whole / 1e6, micro_mb=micro / 1e6
    )
    if micro < whole:
        return _(
            "{parts} micro-batches needed {ratio:.1f}× less peak memory than the "
            "whole batch ({sizes})."
        ).format(parts=parts, ratio=whole / max(micro, 1), sizes=sizes)
    if device_type == "cuda":
        return _(
            "The micro-batches' peak was no lower ({sizes}): the weights, their "
            "gradients and the optimizer's state, not the activations, set the "
            "peak at this batch size."
        ).format(sizes=sizes)
    return _(
        "The micro-batches' peak read no lower ({sizes}). On a CPU the figure "
        "is the process's resident memory, not its live tensors: the C "
        "allocator keeps some freed blocks for reuse and hands others back, so "
        "the figure follows the allocator's habits as much as the activations. "
        "CUDA counts live tensors, and there the smaller activations show."
    ).format(sizes=sizes)
