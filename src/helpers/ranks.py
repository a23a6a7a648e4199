"""Running a function on several local processes over loopback, for the homework's tests
(day 8, section 3: the homework builds the ring taught there).

:func:`run_ranks` starts one process per rank (forked, or spawned with the function pickled by
value, so it works on functions defined in a notebook), joins them into a gloo process group over
a file store, runs the function on each rank's tensor, and says which rank failed and why: an
exception, a deadlock (a timeout), a forbidden collective.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import shutil
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from datetime import timedelta

import cloudpickle
import numpy as np
import torch
import torch.distributed as dist

from helpers.config import START_METHOD
from helpers.ring import count_sends

GLOO_CONNECT = "connectFullMesh failed"
"""What gloo says when its ranks could not connect to each other (seen on a loaded 2-core machine):
no answer's fault, so :func:`run_ranks` tries once more."""


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

    Where processes start with spawn (Windows, or ``COURSE_START_METHOD=spawn``, as on macOS), a
    fresh interpreter cannot import a function defined in a notebook, so ``fn`` travels pickled
    by value (cloudpickle). Elsewhere the processes are forked from this one, so ``fn`` may be
    defined in a notebook with nothing pickled on the way in. They meet through a file store in
    a fresh temporary folder, not a TCP store: a TCP store's server is a thread of this process,
    and a thread that holds a C library lock (looking up an address) while this process forks
    leaves the child stuck on that lock.

    Returns ``{"results": tensor (one row per rank), "bytes_sent": [bytes
    each rank sent with send/isend], "input_changed": [whether fn changed its input]}``.
    Raises :class:`RankFailed` (or ``NotImplementedError``, for an unanswered exercise) when a
    rank raises, and ``TimeoutError`` when the ranks do not finish within ``timeout`` seconds
    (the usual sign of a send without its matching receive).
    """
    world = len(inputs)
    if world < 1:
        raise ValueError("give one input tensor per rank")
    for attempt in range(2):  # once more if gloo's ranks could not even connect (a busy machine)
        folder = tempfile.mkdtemp(prefix="run-ranks-")
        processes, connections = _start(fn, inputs, folder, timeout, forbid_collectives)
        finished = False
        try:
            answers = _collect(processes, connections, timeout)
            finished = True
        except RankFailed as err:
            if attempt == 0 and GLOO_CONNECT in str(err):
                continue  # the finally clause cleans up first
            raise
        finally:
            _stop(processes, connections, finished)
            shutil.rmtree(folder, ignore_errors=True)
        break
    shapes = {tuple(answers[r]["result"].shape) for r in range(world)}
    if len(shapes) > 1:
        raise RankFailed(f"the ranks returned tensors of different shapes: {sorted(shapes)}")
    return {
        "results": torch.from_numpy(np.stack([answers[r]["result"] for r in range(world)])),
        "bytes_sent": [answers[r]["bytes"] for r in range(world)],
        "input_changed": [answers[r]["input_changed"] for r in range(world)],
    }


def _start(fn, inputs, folder: str, timeout: float, forbid: bool) -> tuple[list, list]:
    """One process per input, forked (``fn`` as it is) or spawned (``fn`` pickled by value),
    meeting through a file store in ``folder``; returns the processes and their pipes."""
    method = START_METHOD or (
        "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    )
    context = multiprocessing.get_context(method)
    sent = fn if method == "fork" else cloudpickle.dumps(fn)
    store_file = os.path.join(folder, "store")
    processes, connections = [], []
    for rank, tensor in enumerate(inputs):
        receiver, sender = context.Pipe(duplex=False)
        args = (sent, rank, len(inputs), store_file, tensor.clone(), sender, timeout, forbid)
        process = context.Process(target=_rank_main, args=args, daemon=True)
        process.start()
        sender.close()
        processes.append(process)
        connections.append(receiver)
    return processes, connections


def _answer(process, connection, rank: int, world: int) -> dict:
    """What one rank sent back; raises when it failed or died."""
    try:
        answer = connection.recv()
    except EOFError:
        answer = {"error": f"the process died (exit code {process.exitcode})", "kind": ""}
    if "error" in answer:
        error = NotImplementedError if answer["kind"] == "NotImplementedError" else RankFailed
        raise error(f"rank {rank} of {world}: {answer['error']}")
    return answer


def _collect(processes: list, connections: list, timeout: float) -> dict[int, dict]:
    """Every rank's answer, lowest rank first among those ready; ``TimeoutError`` when some rank
    does not answer within ``timeout`` seconds."""
    world, answers = len(processes), {}
    deadline = time.monotonic() + timeout
    while len(answers) < world:
        waiting = [c for r, c in enumerate(connections) if r not in answers]
        ready = multiprocessing.connection.wait(waiting, deadline - time.monotonic())
        if not ready:
            late = ", ".join(str(r) for r in range(world) if r not in answers)
            raise TimeoutError(
                f"rank(s) {late} did not finish within {timeout:.0f} s: a send without a "
                "matching receive (or a receive with no send) waits forever"
            )
        for rank in sorted(connections.index(c) for c in ready):
            answers[rank] = _answer(processes[rank], connections[rank], rank, world)
    return answers


def _stop(processes: list, connections: list, finished: bool) -> None:
    """Join the processes (after a failure the others may wait forever: kill them)."""
    for process in processes:
        process.join(timeout=5 if finished else 0)
        if process.is_alive():
            process.kill()
            process.join()
    for connection in connections:
        connection.close()
