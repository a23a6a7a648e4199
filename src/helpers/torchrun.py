"""Starting ``torchrun`` from a notebook or a test: a subprocess with a timeout
(day 8, sections 1, 6 and 7).

Processes spawned inside a Jupyter kernel break on pickling and process groups, so the lesson
starts PyTorch's own launcher, ``torchrun`` (``python -m torch.distributed.run``), as a
subprocess, and reads what its workers wrote. Every run has a timeout (then ``torchrun`` and all
its workers are killed, as one process group), and every port comes from the operating system:
``--standalone`` lets the OS pick the rendezvous port, and :func:`free_port` asks the OS for one
when two "machines" must agree on it.

* :func:`launch` runs one ``torchrun`` to the end; :func:`start` starts one in the background
  (two at once: the fault demo, two "nodes" on one machine), and ``.wait()`` collects it;
* :func:`torchrun_command` builds the command line, :func:`shown` writes it as a learner types it;
* :func:`two_machine_commands`: the command for two real machines (c10d rendezvous).

The script the workers run is :mod:`helpers.ddp_train`. Used on day 8.

>>> print(shown(torchrun_command(["--parts", "hello"], nproc=2)))
torchrun --standalone --nproc-per-node=2 -m helpers.ddp_train --parts hello
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


class LaunchFailed(RuntimeError):
    """A ``torchrun`` run exited with an error or ran past its timeout; the message ends with
    the tail of its output."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port the operating system says is free right now (it binds port 0 and lets go)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def torchrun_command(
    script_args: Sequence[str],
    *,
    nproc: int,
    nnodes: int = 1,
    rdzv_endpoint: str | None = None,
    rdzv_id: str = "day08",
    max_restarts: int = 0,
    module: str = "helpers.ddp_train",
    python: str | None = None,
) -> list[str]:
    """The ``torchrun`` command line, as a list (``python -m torch.distributed.run`` is
    ``torchrun``).

    One machine: ``--standalone`` (a rendezvous on a port the OS picks). Several machines:
    ``rdzv_endpoint="host:port"`` of the machine that hosts the rendezvous (c10d backend).

    >>> torchrun_command(["--parts", "hello"], nproc=2, python="python")[:5]
    ['python', '-m', 'torch.distributed.run', '--standalone', '--nproc-per-node=2']
    """
    if nproc < 1 or nnodes < 1:
        raise ValueError(f"nproc and nnodes must be at least 1, got {nproc} and {nnodes}")
    command = [python or sys.executable, "-m", "torch.distributed.run"]
    if rdzv_endpoint is None:
        if nnodes != 1:
            raise ValueError("several nodes need an rdzv_endpoint (host:port of the first node)")
        command.append("--standalone")
    else:
        command += [
            f"--nnodes={nnodes}",
            "--rdzv-backend=c10d",
            f"--rdzv-endpoint={rdzv_endpoint}",
            f"--rdzv-id={rdzv_id}",
        ]
    command.append(f"--nproc-per-node={nproc}")
    if max_restarts:
        command.append(f"--max-restarts={max_restarts}")
    return [*command, "-m", module, *script_args]


def shown(command: Sequence[str]) -> str:
    """A command as a learner would type it: ``torchrun`` instead of ``python -m
    torch.distributed.run``.

    >>> shown(["/venv/bin/python", "-m", "torch.distributed.run", "--standalone", "-m", "x"])
    'torchrun --standalone -m x'
    """
    words = list(command)
    if words[1:3] == ["-m", "torch.distributed.run"]:
        words = ["torchrun", *words[3:]]
    return shlex.join(words)


@dataclass
class Launch:
    """A finished ``torchrun`` run."""

    command: list[str]
    returncode: int | None
    output: str
    seconds: float
    out: Path | None = None
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def lines(self, *words: str) -> list[str]:
        """The output lines that contain any of ``words`` (all lines when none are given)."""
        return [ln for ln in self.output.splitlines() if not words or any(w in ln for w in words)]

    def check(self) -> Launch:
        """Raise :class:`LaunchFailed` (with the output's tail) unless the run succeeded."""
        if not self.ok:
            why = "ran past its timeout" if self.timed_out else f"exited with {self.returncode}"
            tail = "\n".join(self.output.splitlines()[-40:])
            raise LaunchFailed(f"`{shown(self.command)}` {why}. Last lines:\n{tail}")
        return self

    def result(self, part: str) -> dict:
        """What rank 0 wrote for one part of the run (``<out>/<part>.json``)."""
        if self.out is None:
            raise ValueError("this run was started without an output folder")
        path = self.out / f"{part}.json"
        if not path.is_file():
            raise FileNotFoundError(f"{path} is missing: did the run include --parts {part}?")
        return json.loads(path.read_text(encoding="utf-8"))


class Running:
    """A ``torchrun`` started in the background by :func:`start`; :meth:`wait` finishes it."""

    def __init__(self, command: list[str], env: dict, timeout: float, out: Path | None) -> None:
        self.command, self.timeout, self.out = command, timeout, out
        self._log = io.BytesIO()
        self._file = open(os.devnull, "rb")  # noqa: SIM115 - closed in wait()
        self._temp = tempfile.mkdtemp(prefix="torchrun-")  # its log folders; removed in wait()
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            stdin=self._file,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**env, "TMPDIR": self._temp},
            start_new_session=os.name == "posix",  # its own process group: killed as a whole
        )

    def wait(self) -> Launch:
        """Wait until the run ends or its time is up (then kill it and all its workers)."""
        left = max(1.0, self.timeout - (time.perf_counter() - self.started))
        timed_out = False
        try:
            output, _ = self.process.communicate(timeout=left)
        except subprocess.TimeoutExpired:
            timed_out = True
            self.kill()
            output, _ = self.process.communicate()
        finally:
            self._file.close()
            shutil.rmtree(self._temp, ignore_errors=True)
        return Launch(
            self.command,
            self.process.returncode,
            output.decode("utf-8", errors="replace"),
            time.perf_counter() - self.started,
            self.out,
            timed_out,
        )

    def kill(self) -> None:
        """Kill ``torchrun`` and every worker it started."""
        if os.name == "posix":
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        else:
            self.process.kill()


def worker_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for ``torchrun`` and its workers: this one, one thread per worker (two
    processes on two cores must not each start two threads), unbuffered output in UTF-8 (what
    :meth:`Running.wait` reads; a Chinese Windows would write GBK, which has no "µ")."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
    env["PYTHONIOENCODING"] = "utf-8"
    return {**env, **(extra or {})}


def start(
    script_args: Sequence[str],
    *,
    nproc: int,
    out: Path | None = None,
    timeout: float = 300,
    env: dict[str, str] | None = None,
    **options,
) -> Running:
    """Start ``torchrun`` in the background (see :func:`torchrun_command` for ``options``).

    ``out`` is passed to the script as ``--out`` (where rank 0 writes its results).
    """
    args = list(script_args)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        args += ["--out", str(out)]
    command = torchrun_command(args, nproc=nproc, **options)
    return Running(command, worker_env(env), timeout, out)


def launch(script_args: Sequence[str], *, nproc: int, check: bool = True, **options) -> Launch:
    """Run ``torchrun`` to the end (or its timeout); raise :class:`LaunchFailed` if it fails and
    ``check``. Takes the same options as :func:`start`."""
    run = start(script_args, nproc=nproc, **options).wait()
    return run.check() if check else run


def fresh_folder(folder: Path) -> Path:
    """``folder``, emptied (a run must not resume from a checkpoint left by an earlier one)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def two_machine_commands(
    host: str = "HOST_A",
    port: int = 29400,
    nproc_per_node: int = 2,
    job: str = "day08",
    device: str = "cpu",
    out: str = "/shared/day08",
) -> str:
    """The command to type on each of two machines (the same on both), c10d rendezvous on
    ``host:port``; ``device="cuda"`` runs one process per GPU (and so NCCL). ``out``: a folder
    every machine can read and write (shared storage), for rank 0's results and checkpoints.

    >>> text = two_machine_commands(nproc_per_node=8, device="cuda")
    >>> print(text)  # doctest: +NORMALIZE_WHITESPACE
    torchrun --nnodes=2 --rdzv-backend=c10d --rdzv-endpoint=HOST_A:29400 --rdzv-id=day08
      --nproc-per-node=8 -m helpers.ddp_train --parts train --out /shared/day08 --device cuda
    """
    script = ["--parts", "train", "--out", out]
    command = torchrun_command(
        [*script, *(["--device", device] if device != "cpu" else [])],
        nproc=nproc_per_node,
        nnodes=2,
        rdzv_endpoint=f"{host}:{port}",
        rdzv_id=job,
        python="python",
    )
    text = shown(command)
    return text.replace(" --nproc-per-node", "\n  --nproc-per-node")


def script_arguments(command: str) -> list[str]:
    """The words of a shown ``torchrun`` command that go to the script (after ``-m module``).

    >>> script_arguments("torchrun --standalone -m helpers.ddp_train --parts hello")
    ['--parts', 'hello']
    """
    words = shlex.split(command)
    for i, word in enumerate(words[:-1]):
        if word == "-m" and words[i + 1] != "torch.distributed.run":
            return words[i + 2 :]
    raise ValueError(f"no '-m module' in {command!r}")
