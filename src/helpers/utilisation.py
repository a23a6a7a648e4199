"""Day 7: why is my GPU utilisation low? Tools to measure the three causes.

* :class:`UtilisationMeter`: the share of a training loop spent computing, against waiting for data.
* :func:`peak_memory`: the memory a step needs at its peak, on any device.
* :func:`is_out_of_memory` and :func:`largest_batch_that_fits`: recovering from out-of-memory
  errors by halving the batch.
"""

from __future__ import annotations

import contextlib
import ctypes
import statistics
import threading
import time

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

    @contextlib.contextmanager
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


def cost_verdict(habit: str, habit_seconds, fix_seconds) -> str:
    """What a habit costs against its fix, from their times in the same interleaved rounds
    (seconds per sample, round by round): the median of the rounds' ratios, and whether the
    paired difference (:func:`helpers.stats.paired_difference`, a t-test on the rounds) tells
    the habit's extra time from zero.

    >>> fix = [0.51e-3, 0.50e-3, 0.52e-3, 0.50e-3]
    >>> text = cost_verdict("a Python loop", [30.2e-3, 29.5e-3, 31.0e-3, 30.4e-3], fix)
    >>> text.split("; ")[0], text.split(": ")[-1]
    ("a Python loop takes 59× its fix's time (median of 4 rounds' ratios)", 'the interval \
excludes zero, so a real cost.')
    """
    from helpers.stats import paired_difference

    ratios = [h / f for h, f in zip(habit_seconds, fix_seconds, strict=True)]
    difference = paired_difference(habit_seconds, fix_seconds)
    ratio = statistics.median(ratios)
    times = f"{ratio:,.0f}×" if ratio >= 10 else f"{ratio:.2f}×"
    text = (
        f"{habit} takes {times} its fix's time (median of {len(ratios)} rounds' ratios); habit "
        f"minus fix: {difference.text(1e3, ' ms', 3)}: {difference.zero_verdict()}"
    )
    if not difference.distinguishable:
        return f"{text}; no cost shows above these rounds' noise."
    if difference.value > 0:
        return f"{text}, so a real cost."
    return (
        f"{text}, but the habit was the faster one: no habit saves time by costing more, so "
        "look for an ordering or cache effect in the rounds."
    )


def accumulation_verdict(whole: float, micro: float, parts: int, device_type: str) -> str:
    """Peak memory (bytes) of a backward pass on the whole batch against ``parts``
    micro-batches, and what the figures can say on this kind of device.

    >>> accumulation_verdict(410e6, 120e6, 4, "cuda")
    '4 micro-batches needed 3.4× less peak memory than the whole batch (410 MB against 120 MB).'
    """
    sizes = f"{whole / 1e6:,.0f} MB against {micro / 1e6:,.0f} MB"
    if micro < whole:
        return (
            f"{parts} micro-batches needed {whole / max(micro, 1):.1f}× less peak memory than the "
            f"whole batch ({sizes})."
        )
    if device_type == "cuda":
        return (
            f"The micro-batches' peak was no lower ({sizes}): the weights, their gradients and "
            "the optimizer's state, not the activations, set the peak at this batch size."
        )
    return (
        f"The micro-batches' peak read no lower ({sizes}). On a CPU the figure is the process's "
        "resident memory, not its live tensors: the C allocator keeps some freed blocks for "
        "reuse and hands others back, so the figure follows the allocator's habits as much as "
        "the activations. CUDA counts live tensors, and there the smaller activations show."
    )


def tuning_verdict(epochs: dict[str, int | None], per_epoch) -> str:
    """What tuning a hyperparameter changed: the epochs needed to reach a loss (``None`` when not
    reached) and, from ``per_epoch`` (a :class:`helpers.stats.Difference` of the time per run of
    two settings), whether the time per epoch changed.

    >>> from helpers.stats import paired_difference
    >>> same = paired_difference([1.0, 1.1, 0.9], [1.05, 1.0, 1.0])
    >>> tuning_verdict({"lr 0.1": 200, "lr 0.01": 2000}, same)[:62]
    'lr 0.1 needed 200 epochs and lr 0.01 2000: 10.0x fewer epochs;'
    """
    (a, ea), (b, eb) = epochs.items()
    if ea is None or eb is None:
        reached = [name for name, e in epochs.items() if e is not None]
        steps = f"only {reached[0]} reached the target" if reached else "neither reached the target"
    elif ea == eb:
        steps = f"{a} and {b} needed the same {ea} epochs"
    else:
        factor = max(ea, eb) / max(min(ea, eb), 1)
        fewer = "fewer" if ea < eb else "more"
        steps = f"{a} needed {ea} epochs and {b} {eb}: {factor:.1f}x {fewer} epochs"
    if per_epoch.distinguishable:
        speed = "the time per epoch differed too, measurably"
    else:
        speed = "the time per epoch did not change measurably, so each step kept the device as busy"
    return f"{steps}; {speed}."


def busy_verdict(name: str, busy: float, mfu: float, kind: str) -> str:
    """Two utilisation figures side by side, and what they say together.

    ``busy`` is the share of the time ``kind`` events filled (``"kernel"``: GPU kernels running,
    what ``nvidia-smi`` counts; ``"operator"``: a CPU computing inside operators), ``mfu`` the
    model FLOP utilisation (achieved FLOP/s over the peak measured on this device; practitioners
    usually divide by the spec sheet's peak, which is higher, so theirs reads lower).

    >>> busy_verdict("the lesson's loop", 0.9, 0.002, "kernel").split(": ")[-1]
    'busy, yet the arithmetic units mostly idle (each small operation pays its overhead).'
    """
    what = "kernels were running" if kind == "kernel" else "operators were computing"
    head = f"{name}: {what} {busy:.0%} of the time, arithmetic at {mfu:.2%} of the measured peak"
    if mfu > 1:
        return (
            f"{head}: above the peak, which a step cannot be: the peak's measurement was slowed "
            "(a busy machine). Re-run both."
        )
    if busy < 0.5:
        return f"{head}: mostly overhead between the operations (Python, dispatch, launches)."
    if mfu < 0.05:
        idle = "busy, yet the arithmetic units mostly idle (each small operation pays its overhead)"
        return f"{head}: {idle}."
    return f"{head}: busy, and much of that time is real arithmetic."


def step_utilisation(
    widths: tuple[int, ...], rows: int, *, device: torch.device | str, peak: float, steps: int = 20
) -> dict[str, float]:
    """How busy one full-batch SGD step of an ``mlp(widths)`` on ``rows`` random rows keeps
    ``device``: the device's busy share (GPU kernels running, from the profiler; on a CPU, time
    inside computing operators), the model FLOP utilisation against ``peak`` FLOP/s, and the
    median milliseconds per step. Days 7 and the GPU check use it."""
    from helpers.models import mlp
    from helpers.profiling import covered, timeline
    from helpers.takeoff import flops_per_step
    from helpers.timing import measure
    from helpers.training import sgd_step

    device = torch.device(device)
    torch.manual_seed(0)
    model = mlp(widths).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    X = torch.randn(rows, widths[0], device=device)
    y = torch.randint(0, widths[-1], (rows,), device=device)
    kind = "kernel" if device.type == "cuda" else "operator"
    events = timeline(
        lambda: [sgd_step(model, optimizer, X, y) for _ in range(steps)], device=device
    )
    seconds = measure(lambda: sgd_step(model, optimizer, X, y), device=device, repeats=15).median
    return {
        "device busy share": covered(events, kind),
        "MFU": flops_per_step(widths, rows) / seconds / peak,
        "ms per step": seconds * 1e3,
    }
