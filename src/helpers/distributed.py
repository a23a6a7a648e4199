"""Data-parallel training with ``torch.distributed``: the pieces day 8 builds (and tests).

PyTorch's own engine does the work (process groups, ``DistributedDataParallel``, ``torchrun``);
this module holds what the lesson builds around it:

* :func:`plan`: which backend and how many processes (gloo on a CPU, nccl with one GPU per
  process), chosen from the device helper;
* :func:`rank_rows` and :func:`reference_weights`: which rows each rank trains on at each step,
  and the one-process run with the combined batch that DDP must equal;
* :func:`ring_all_reduce`: an all-reduce written from point-to-point ``isend``/``irecv``, and
  :func:`count_sends`, which counts the bytes that really went through ``isend``;
* :func:`save_checkpoint` / :func:`load_checkpoint`: written by rank 0, atomically (write, then
  rename), so a worker killed at any moment never leaves half a checkpoint;
* :func:`run_ranks`: run a function on several local processes over loopback (forked, or
  spawned with the function pickled by value, so it works on functions defined in a notebook),
  for the homework's tests;

Launching is in :mod:`helpers.torchrun`, the numbers (timing, scaling, memory) in
:mod:`helpers.scaling`, the script ``torchrun`` runs in :mod:`helpers.ddp_train`. Used on day 8.

>>> ring_bytes_per_rank(12_000_000, 4) / 1e6  # each of 4 ranks sends 2(p-1)/p of the tensor
18.0
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import multiprocessing.connection
import os
import shutil
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import cloudpickle
import numpy as np
import torch
import torch.distributed as dist

from helpers.config import START_METHOD
from helpers.device import get_device
from helpers.models import mlp
from helpers.training import sgd_step

# --- Which backend, how many processes ---------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """How the lesson runs its processes on this machine."""

    backend: str
    """``"nccl"`` (NVIDIA GPUs) or ``"gloo"`` (CPU)."""
    device: str
    """``"cuda"`` or ``"cpu"``: where each process computes."""
    nproc: int
    """Processes per machine."""
    why: str
    """One sentence: why this choice."""


def plan(device: torch.device | str | None = None, want: int = 2) -> Plan:
    """The backend and process count for ``device`` (default: the device helper's choice).

    NCCL needs one GPU per process, so NCCL is used only with at least two GPUs; with one GPU, on
    an Apple GPU (MPS has no distributed backend) or on a CPU, the processes use gloo on the CPU.
    """
    device = torch.device(device) if device is not None else get_device()
    if want < 1:
        raise ValueError(f"want at least one process, got {want}")
    if device.type == "cuda":
        count = torch.cuda.device_count()
        if count >= 2:
            n = min(want, count)
            return Plan("nccl", "cuda", n, f"{count} NVIDIA GPUs: NCCL, one GPU per process.")
        return Plan(
            "gloo",
            "cpu",
            want,
            "One NVIDIA GPU: NCCL needs one GPU per process, so the processes run on the CPU "
            "with gloo (the FSDP cell uses the GPU).",
        )
    if device.type == "mps":
        return Plan(
            "gloo", "cpu", want, "Apple GPU: MPS has no distributed backend, so gloo on the CPU."
        )
    return Plan("gloo", "cpu", want, "No GPU: gloo, PyTorch's CPU backend, over loopback TCP.")


def backend_for(device: torch.device | str) -> str:
    """``"nccl"`` for CUDA devices, ``"gloo"`` otherwise.

    >>> backend_for("cpu")
    'gloo'
    """
    return "nccl" if torch.device(device).type == "cuda" else "gloo"


# --- Data, and which rows each rank sees ----------------------------------------------------


def make_data(
    rows: int, features: int, classes: int, seed: int = 0
) -> tuple[torch.Tensor, torch.Tensor]:
    """A synthetic classification set: Gaussian features, labels from a random linear teacher.

    >>> X, y = make_data(6, 4, 3)
    >>> tuple(X.shape), y.dtype, int(y.max()) < 3
    ((6, 4), torch.int64, True)
    """
    generator = torch.Generator().manual_seed(seed)
    X = torch.randn(rows, features, generator=generator)
    teacher = torch.randn(features, classes, generator=generator)
    return X, (X @ teacher).argmax(dim=1)


def sampler_rows(
    n_rows: int, world_size: int, rank: int, *, shuffle: bool = False, seed: int = 0, epoch: int = 0
) -> list[int]:
    """The rows ``DistributedSampler`` gives ``rank`` (no process group needed).

    >>> sampler_rows(9, 2, 1)  # 9 rows, 2 ranks: padded to 10 by repeating row 0
    [1, 3, 5, 7, 0]
    """
    from torch.utils.data import DistributedSampler

    sampler = DistributedSampler(
        range(n_rows), num_replicas=world_size, rank=rank, shuffle=shuffle, seed=seed
    )
    sampler.set_epoch(epoch)
    return list(sampler)


@contextlib.contextmanager
def hide_distributed_sampler() -> Iterator[None]:
    """While the block runs, constructing a ``DistributedSampler`` raises: for exercises that
    ask which rows a rank sees, to be worked out rather than looked up.

    >>> with hide_distributed_sampler():
    ...     sampler_rows(4, 2, 0)
    Traceback (most recent call last):
    RuntimeError: DistributedSampler is hidden here: work the rows out from its rule
    """
    import torch.utils.data
    import torch.utils.data.distributed

    class Hidden:
        def __init__(self, *args, **kwargs):
            raise RuntimeError("DistributedSampler is hidden here: work the rows out from its rule")

    modules = (torch.utils.data, torch.utils.data.distributed)
    saved = [m.DistributedSampler for m in modules]
    try:
        for module in modules:
            module.DistributedSampler = Hidden
        yield
    finally:
        for module, original in zip(modules, saved, strict=True):
            module.DistributedSampler = original


def rank_rows(n_rows: int, world_size: int, rank: int, step: int, batch: int, seed: int = 0):
    """The rows ``rank`` trains on at global ``step``: its shuffled ``DistributedSampler`` share
    for the epoch the step falls in, cut into batches of ``batch`` (the last, short one dropped).

    Depends on the step alone, so a run resumed from a checkpoint sees exactly the rows an
    undisturbed run would.

    >>> rank_rows(8, 2, 0, step=0, batch=2) != rank_rows(8, 2, 1, step=0, batch=2)
    True
    """
    per_rank = math.ceil(n_rows / world_size)
    steps_per_epoch = per_rank // batch
    if steps_per_epoch < 1:
        raise ValueError(f"batch {batch} is larger than a rank's {per_rank} rows")
    epoch, index = divmod(step, steps_per_epoch)
    rows = sampler_rows(n_rows, world_size, rank, shuffle=True, seed=seed, epoch=epoch)
    return rows[index * batch : (index + 1) * batch]


def make_model(widths: Sequence[int], seed: int = 0) -> torch.nn.Module:
    """The network every rank (and the reference run) starts from."""
    torch.manual_seed(seed)
    return mlp(widths)


def make_optimizer(model: torch.nn.Module, lr: float) -> torch.optim.Optimizer:
    """SGD with momentum 0.9: its momentum buffers are state a checkpoint must keep."""
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)


def reference_weights(
    widths: Sequence[int],
    X: torch.Tensor,
    y: torch.Tensor,
    *,
    world_size: int,
    batch: int,
    steps: int,
    lr: float,
    seed: int = 0,
) -> dict[str, torch.Tensor]:
    """One process, no DDP: each step trains on the rows all ``world_size`` ranks would see
    together (``world_size * batch`` rows). DDP with ``batch`` rows per rank must end here."""
    model = make_model(widths, seed)
    optimizer = make_optimizer(model, lr)
    for step in range(steps):
        rows = [
            r
            for rank in range(world_size)
            for r in rank_rows(len(X), world_size, rank, step, batch)
        ]
        sgd_step(model, optimizer, X[rows], y[rows])
    return model.state_dict()


def max_difference(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> float:
    """The largest absolute difference between two state dicts with the same keys.

    >>> max_difference({"w": torch.zeros(2)}, {"w": torch.tensor([0.0, -0.5])})
    0.5
    """
    if a.keys() != b.keys():
        raise ValueError(f"different parameters: {sorted(a)} and {sorted(b)}")
    return max(float((a[k].float() - b[k].float()).abs().max()) for k in a)


def same_weights_verdict(
    difference: float, tolerance: float, what: str, things: str = "weights"
) -> str:
    """Whether two runs ended with the same weights (or other ``things``), in words.

    >>> same_weights_verdict(0.0, 1e-5, "the resumed run and the undisturbed one")
    'The resumed run and the undisturbed one end with **identical** weights (bit for bit).'
    >>> same_weights_verdict(2e-7, 1e-4, "the ring and all_reduce", "sums").split(":")[0]
    'The ring and all_reduce end with the **same** sums'
    """
    head = what[0].upper() + what[1:]
    if difference == 0:
        return f"{head} end with **identical** {things} (bit for bit)."
    if difference <= tolerance:
        return (
            f"{head} end with the **same** {things}: the largest difference, {difference:.1e}, is "
            f"within the tolerance {tolerance:.0e} (float32 sums in another order)."
        )
    return (
        f"{head} end with **different** {things}: the largest difference, {difference:.1e}, is "
        f"above the tolerance {tolerance:.0e}. Something differs: the rows, the seed, the "
        "learning rate or the averaging."
    )


# --- All-reduce by hand ------------------------------------------------------------------------


def _peer(group, rank: int) -> int:
    """The global rank of ``rank`` in ``group`` (send and recv take global ranks)."""
    return rank if group is None else dist.get_global_rank(group, rank)


def _exchange(send: torch.Tensor, receive: torch.Tensor, right: int, left: int, group) -> None:
    """Send ``send`` to the right neighbour while receiving ``receive`` from the left one."""
    requests = []  # an empty chunk is neither sent nor received (its peer skips it too)
    if send.numel():
        requests.append(dist.isend(send, right, group))
    if receive.numel():
        requests.append(dist.irecv(receive, left, group))
    for request in requests:
        request.wait()


def ring_all_reduce(tensor: torch.Tensor, group=None) -> torch.Tensor:
    """Sum ``tensor`` over all ranks of ``group``, in place, as a ring; returns ``tensor``.

    The tensor is cut into p chunks. **Reduce-scatter**: in p - 1 steps, each rank sends one chunk
    to its right neighbour and adds the chunk arriving from its left one; afterwards each rank
    holds the full sum of one chunk. **All-gather**: in p - 1 more steps the finished chunks
    travel round the ring. Each rank sends 2(p - 1) chunks of N / p elements: 2(p - 1)/p x N in
    all, whatever p is, which is why rings scale.
    """
    if not tensor.is_contiguous():
        raise ValueError("ring_all_reduce works in place and needs a contiguous tensor")
    rank, world = dist.get_rank(group), dist.get_world_size(group)
    if world == 1:
        return tensor
    right, left = _peer(group, (rank + 1) % world), _peer(group, (rank - 1) % world)
    chunks = tensor.view(-1).tensor_split(world)
    incoming = torch.empty_like(chunks[0])  # the first chunk is the largest
    for step in range(world - 1):  # reduce-scatter
        send, receive = chunks[(rank - step) % world], chunks[(rank - step - 1) % world]
        buffer = incoming[: receive.numel()]
        _exchange(send, buffer, right, left, group)
        receive.add_(buffer)
    for step in range(world - 1):  # all-gather
        send, receive = chunks[(rank + 1 - step) % world], chunks[(rank - step) % world]
        _exchange(send, receive, right, left, group)
    return tensor


def ring_bytes_per_rank(n_bytes: float, world_size: int) -> float:
    """What each rank sends in a ring all-reduce of ``n_bytes``: 2(p - 1)/p x N.

    >>> ring_bytes_per_rank(100, 2), ring_bytes_per_rank(100, 1)
    (100.0, 0.0)
    """
    if world_size < 1:
        raise ValueError(f"world_size must be at least 1, got {world_size}")
    return 2 * (world_size - 1) / world_size * n_bytes


@dataclass
class SendCounter:
    """Bytes and messages that went through ``torch.distributed.isend`` (and ``send``)."""

    bytes: int = 0
    messages: int = 0


_COLLECTIVES = (
    "all_reduce",
    "reduce",
    "all_gather",
    "all_gather_into_tensor",
    "reduce_scatter",
    "reduce_scatter_tensor",
    "broadcast",
    "gather",
    "scatter",
    "all_to_all",
    "all_to_all_single",
)


@contextlib.contextmanager
def count_sends(forbid_collectives: bool = False) -> Iterator[SendCounter]:
    """Count what is sent with ``dist.send``/``dist.isend`` (also inside ``batch_isend_irecv``)
    while the block runs; with ``forbid_collectives``, ``dist.all_reduce`` and the other
    collectives raise instead of running (a ring must be built from sends and receives)."""
    from torch.distributed import distributed_c10d as c10d

    counter = SendCounter()
    original = c10d.isend

    def counted_isend(tensor, *args, **kwargs):
        counter.bytes += tensor.numel() * tensor.element_size()
        counter.messages += 1
        return original(tensor, *args, **kwargs)

    def forbidden(name):
        def refuse(*args, **kwargs):
            raise RuntimeError(f"dist.{name} is a collective: build the ring from send and recv")

        return refuse

    saved = {name: getattr(c10d, name) for name in ("isend", *_COLLECTIVES)}
    replaced = {"isend": counted_isend}
    if forbid_collectives:
        replaced |= {name: forbidden(name) for name in _COLLECTIVES}
    try:
        for name, fn in replaced.items():  # `send` calls c10d.isend, so it is counted too
            setattr(c10d, name, fn)
            setattr(dist, name, fn)
        yield counter
    finally:
        for name, fn in saved.items():
            setattr(c10d, name, fn)
            setattr(dist, name, fn)


# --- Checkpoints ---------------------------------------------------------------------------


def save_checkpoint(path: Path, state: dict) -> Path:
    """Write ``state`` to ``path`` atomically: into a temporary file beside it, flushed to disk,
    then renamed over ``path``. A process killed at any moment leaves the old checkpoint or the
    new one, never half of one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.partial-{os.getpid()}")
    try:
        with open(partial, "wb") as file:
            torch.save(state, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)  # atomic on POSIX and Windows
    finally:
        partial.unlink(missing_ok=True)
    return path


def load_checkpoint(path: Path) -> dict | None:
    """The checkpoint at ``path`` (on the CPU), or ``None`` when there is none yet."""
    path = Path(path)
    if not path.is_file():
        return None
    return torch.load(path, map_location="cpu", weights_only=True)


# --- Running a function on several local processes (homework tests) --------------------------


class RankFailed(RuntimeError):
    """A function run by :func:`run_ranks` raised on some rank, or a rank died."""


def _rank_main(fn, rank, world, store_file, tensor, connection, timeout, forbid) -> None:
    """One process: join the group, run ``fn`` (pickled by value when the process was not
    forked), send back plain data."""
    try:
        if isinstance(fn, bytes):
            fn = cloudpickle.loads(fn)
        torch.set_num_threads(1)
        store = dist.FileStore(store_file, world)
        store.set_timeout(timedelta(seconds=timeout))
        dist.init_process_group("gloo", store=store, rank=rank, world_size=world)
        original = tensor.clone()
        with count_sends(forbid_collectives=forbid) as counter:
            result = fn(tensor)
        if not isinstance(result, torch.Tensor):
            raise TypeError(f"the function returned {type(result).__name__}, not a tensor")
        connection.send(
            {
                "result": result.detach().cpu().numpy().copy(),
                "bytes": counter.bytes,
                "input_changed": not torch.equal(tensor, original),
            }
        )
        dist.destroy_process_group()
    except BaseException as err:  # noqa: BLE001 - reported to the parent as text
        torch_folder = os.path.dirname(torch.__file__)
        frames = [
            f
            for f in traceback.extract_tb(err.__traceback__)
            if not f.filename.startswith(torch_folder) and f.filename != __file__
        ]
        where = f" (line {frames[-1].lineno} of your code)" if frames else ""
        connection.send(
            {"error": f"{type(err).__name__}: {err}{where}", "kind": type(err).__name__}
        )
    finally:
        connection.close()


def run_ranks(
    fn: Callable[[torch.Tensor], torch.Tensor],
    inputs: Sequence[torch.Tensor],
    *,
    timeout: float = 60.0,
    forbid_collectives: bool = True,
) -> dict:
    """Run ``fn(inputs[rank])`` on ``len(inputs)`` processes joined in a gloo group over
    127.0.0.1, and collect plain data back.

    The processes are forked from this one where the system can fork, so ``fn`` may be defined in
    a notebook (nothing is pickled on the way in). Where processes start with spawn (Windows, or
    ``COURSE_START_METHOD=spawn``, as on macOS), a fresh interpreter cannot import a function
    defined in a notebook, so ``fn`` travels pickled by value (cloudpickle).
    They meet through a file store in a fresh temporary folder, not a TCP store: a TCP store's
    server is a thread of this process, and a thread that holds a C library lock (looking up an
    address) while this process forks leaves the child stuck on that lock.

    Returns ``{"results": tensor (one row per rank), "bytes_sent": [bytes
    each rank sent with send/isend], "input_changed": [whether fn changed its input]}``.
    Raises :class:`RankFailed` (or ``NotImplementedError``, for an unanswered exercise) when a
    rank raises, and ``TimeoutError`` when the ranks do not finish within ``timeout`` seconds
    (the usual sign of a send without its matching receive).
    """
    world = len(inputs)
    if world < 1:
        raise ValueError("give one input tensor per rank")
    method = START_METHOD or (
        "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    )
    context = multiprocessing.get_context(method)
    sent = fn if method == "fork" else cloudpickle.dumps(fn)
    folder = tempfile.mkdtemp(prefix="run-ranks-")
    store_file = os.path.join(folder, "store")
    processes, connections = [], []
    for rank, tensor in enumerate(inputs):
        receiver, sender = context.Pipe(duplex=False)
        args = (sent, rank, world, store_file, tensor.clone(), sender, timeout, forbid_collectives)
        process = context.Process(target=_rank_main, args=args, daemon=True)
        process.start()
        sender.close()
        processes.append(process)
        connections.append(receiver)
    answers: dict[int, dict] = {}
    deadline = time.monotonic() + timeout
    finished = False
    try:
        while len(answers) < world:
            waiting = [c for r, c in enumerate(connections) if r not in answers]
            ready = multiprocessing.connection.wait(waiting, deadline - time.monotonic())
            if not ready:
                late = ", ".join(str(r) for r in range(world) if r not in answers)
                raise TimeoutError(
                    f"rank(s) {late} did not finish within {timeout:.0f} s: a send without a "
                    "matching receive (or a receive with no send) waits forever"
                )
            for rank in sorted(connections.index(c) for c in ready):  # lowest rank first
                connection = connections[rank]
                try:
                    answers[rank] = connection.recv()
                except EOFError:
                    code = processes[rank].exitcode
                    answers[rank] = {"error": f"the process died (exit code {code})", "kind": ""}
                if "error" in answers[rank]:
                    kind = answers[rank]["kind"]
                    error = NotImplementedError if kind == "NotImplementedError" else RankFailed
                    raise error(f"rank {rank} of {world}: {answers[rank]['error']}")
        finished = True
    finally:
        for process in processes:  # after a failure the others may wait forever: kill them
            process.join(timeout=5 if finished else 0)
            if process.is_alive():
                process.kill()
                process.join()
        for connection in connections:
            connection.close()
        shutil.rmtree(folder, ignore_errors=True)
    shapes = {tuple(answers[r]["result"].shape) for r in range(world)}
    if len(shapes) > 1:
        raise RankFailed(f"the ranks returned tensors of different shapes: {sorted(shapes)}")
    return {
        "results": torch.from_numpy(np.stack([answers[r]["result"] for r in range(world)])),
        "bytes_sent": [answers[r]["bytes"] for r in range(world)],
        "input_changed": [answers[r]["input_changed"] for r in range(world)],
    }
