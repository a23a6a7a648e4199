"""The process that runs answer code (the *runner*), and the grader's handle on it.

Grading starts ``python -m helpers.course.grading.runner`` for each submission, inside the OS
sandbox of :mod:`.sandbox` (or, with ``--no-sandbox`` and for ``submit``, as a plain child
process). The grader (:mod:`.examiner`) drives the runner one command at a time over its stdin
and stdout through :class:`Runner`: run a cell, run a statement, evaluate expressions and send
back their values as plain data (:mod:`.plain`). Time limits are the grader's: it stops waiting
and kills the sandbox, whatever the answer code does. The runner's own stdout is the reply
channel; everything answer code prints is discarded. Its error output reaches the grader, which
keeps only the last :data:`LOG_BYTES` (what Python or bubblewrap said before the runner died).
"""

from __future__ import annotations

import contextlib
import faulthandler
import json
import os
import queue
import random
import resource
import signal
import subprocess
import sys
import threading
import time

from helpers.course import paths
from helpers.course.grading.escape import steady
from helpers.course.grading.sandbox import SCRATCH_BYTES, command, python

MAX_REPLY = 64 * 2**20
"""Largest reply the grader reads (bytes); a longer one is a protocol violation."""
MAX_ITEMS = 500_000
"""Most JSON elements in one reply (counted before it is parsed): 20 million empty lists in 60 MB
would take the grader gigabytes to parse."""
LOG_BYTES = 2000
"""How much of the runner's own error output (its last lines) the grader keeps."""
LAST_WORDS_SECONDS = 5.0
"""How long the grader waits for a dead runner's error output to end before it ends whatever
still holds it open."""


class SandboxDied(Exception):
    """The runner ended (crashed, was killed, or broke the protocol) before it replied.

    ``log`` holds the last lines the runner wrote to its error output (bubblewrap's and Python's
    own messages: what answer code prints is discarded inside)."""

    def __init__(self, status: str, reason: str, log: str = "") -> None:
        super().__init__(reason)
        self.status, self.reason, self.log = status, reason, log


def checked(reply) -> dict:
    """A runner's reply, if it has the shape the grader expects (else ``ValueError``)."""
    if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
        raise ValueError("not a reply")
    if not reply["ok"]:
        error = reply.get("error", {})
        if not isinstance(error, dict):
            raise ValueError("a malformed error")
        kind, message = error.get("type", "Error"), error.get("message", "")
        if not isinstance(kind, str) or not isinstance(message, str):
            raise ValueError("a malformed error")
        reply["error"] = {"type": kind[:100], "message": message[:500]}
    if "values" in reply and not isinstance(reply["values"], list):
        raise ValueError("malformed values")
    return reply


class Runner:
    """One runner process, in the sandbox or (``sandboxed=False``) as a plain child process."""

    def __init__(
        self, *, sandboxed: bool, memory_mb: int, bound=None, interpreter: str | None = None
    ) -> None:
        program = [interpreter or python(), "-m", "helpers.course.grading.runner"]
        env = None
        self.bound = bound
        if sandboxed:
            program = [*command(), "--", *program]
        else:
            env = {
                **os.environ,
                "COURSE_ROOT": str(paths.ROOT),
                "COURSE_FAST": "1",
                "OMP_NUM_THREADS": "1",
                "MPLBACKEND": "Agg",
            }

        def limits() -> None:  # in the child, before bwrap or Python starts
            size = memory_mb * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_FSIZE, (SCRATCH_BYTES, SCRATCH_BYTES))
            os.setsid()  # its own process group, so that kill() reaches every process
            if bound is not None:
                bound.enter()  # its own process and memory bounds, before bwrap starts

        self.killed = False
        self.process = subprocess.Popen(
            program,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            preexec_fn=limits,
        )
        if bound is not None:
            bound.start(self.process.pid)
        self.replies: queue.Queue = queue.Queue()
        self.errors = bytearray()
        threading.Thread(target=self._read, daemon=True).start()
        self.error_reader = threading.Thread(target=self._read_errors, daemon=True)
        self.error_reader.start()

    def _read_errors(self) -> None:
        """Keep the last :data:`LOG_BYTES` of the runner's error output; drop the rest."""
        stream = self.process.stderr
        while chunk := stream.read1(65536):
            self.errors += chunk
            del self.errors[: max(0, len(self.errors) - LOG_BYTES)]

    def log(self) -> str:
        """The last lines the runner wrote to its error output, with the course's folder shown
        as a relative path and memory addresses as ``0x…`` (:func:`.escape.steady`: grading the
        same submission twice writes the same words)."""
        text = bytes(self.errors).decode("utf-8", "replace")
        return steady(text.replace(f"{paths.ROOT}/", "")).strip()

    def _last_words(self) -> None:
        """Wait until the runner's error output is read to its end (it has ended, or is ending):
        its last lines are then the same however busy the machine is. A process it left behind
        that holds the output open (possible only without the sandbox) is killed after a while."""
        self.error_reader.join(LAST_WORDS_SECONDS)
        if self.error_reader.is_alive():
            self.kill()
            self.error_reader.join(LAST_WORDS_SECONDS)

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            line = stream.readline(MAX_REPLY)
            if not line:
                self.replies.put(None)
                return
            self.replies.put(line)

    def send(self, command: dict) -> None:
        try:
            self.process.stdin.write((json.dumps(command) + "\n").encode())
            self.process.stdin.flush()
        except OSError:
            pass  # it died: the reply queue says how

    def ask(self, command: dict, seconds: float) -> dict:
        """Send one command, wait at most ``seconds`` for its reply (then kill and raise)."""
        self.send(command)
        return self.wait(seconds)

    def wait(self, seconds: float) -> dict:
        """The next reply, within ``seconds`` (else the runner is killed and this raises)."""
        try:
            line = self.replies.get(timeout=max(seconds, 0.01))
        except queue.Empty:
            self.kill()
            raise SandboxDied("timeout", f"ran longer than {seconds:g} s") from None
        if line is None:
            raise self._death()
        if not line.endswith(b"\n"):
            self.kill()
            raise SandboxDied(
                "violation", "sent a reply longer than the grader accepts", self.log()
            )
        if line.count(b",") + line.count(b"[") + line.count(b"{") > MAX_ITEMS:
            self.kill()
            raise SandboxDied(
                "violation", "sent a reply with more elements than the grader reads", self.log()
            )
        try:
            return checked(json.loads(line))
        except (ValueError, RecursionError):  # RecursionError: nested too deeply
            self.kill()
            raise SandboxDied(
                "violation", "wrote something that is not a reply", self.log()
            ) from None

    def _death(self) -> SandboxDied:
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.process.wait()
        self._last_words()
        log = self.log()
        if self.bound is not None and (why := self.bound.exceeded()):
            return SandboxDied(why[0], why[1], log)
        if code in (-signal.SIGKILL, 128 + signal.SIGKILL):
            why = "the process was killed (most likely out of memory)"
            return SandboxDied("memory", why, log)
        number = -code if code < 0 else code - 128  # bubblewrap passes a signal on as 128 + it
        if number in set(signal.Signals):
            why = f"the process died of signal {signal.Signals(number).name}"
            return SandboxDied("crashed", why, log)
        return SandboxDied("crashed", f"the process exited (status {code}) before finishing", log)

    def kill(self) -> None:
        """End the runner and every process it started (its process group and PID namespace)."""
        self.killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        if self.bound is not None:
            self.bound.close()


def seed_everything(seed: int) -> None:
    """The same random numbers on both sides of grading: Python's, NumPy's and PyTorch's."""
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def rng_state():
    """Python's, NumPy's and PyTorch's random-number states, as plain data."""
    import numpy as np
    import torch

    from helpers.course.grading.plain import encode

    return encode([random.getstate(), np.random.get_state(), torch.random.get_rng_state()])


def set_rng_state(data) -> None:
    """Set the states :func:`rng_state` sent (from the grader: trusted)."""
    import numpy as np
    import torch

    from helpers.course.grading.plain import decode

    python, numpy, pytorch = decode(data)
    random.setstate(python)
    np.random.set_state(numpy)
    torch.random.set_rng_state(pytorch)


# --- Inside the sandbox --------------------------------------------------------------------------


class _Null:
    """Where answer code's prints go: every write costs the same, whatever was printed before."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def _error(err: BaseException) -> dict:
    return {"type": type(err).__name__, "message": str(err)[:500]}


class _Session:
    """The runner's state: an IPython shell whose namespace the cells share."""

    def __init__(self) -> None:
        from IPython.core.interactiveshell import InteractiveShell
        from traitlets.config import Config

        config = Config()
        config.HistoryManager.enabled = False
        self.shell = InteractiveShell.instance(config=config)
        self.namespace = self.shell.user_ns
        self.namespace["__name__"] = "__main__"

    @contextlib.contextmanager
    def isolated(self, isolate: bool):
        """Answer code's random draws do not shift the numbers the course's own code draws."""
        if not isolate:
            yield
            return
        import numpy as np
        import torch

        states = random.getstate(), np.random.get_state(), torch.random.get_rng_state()
        try:
            yield
        finally:
            random.setstate(states[0])
            np.random.set_state(states[1])
            torch.random.set_rng_state(states[2])

    def run(self, command: dict) -> dict:
        op = command["op"]
        if op == "seed":
            seed_everything(command["seed"])
            return {"ok": True}
        if op in ("cell", "exec"):
            source = command["source"]
            if op == "cell":
                source = self.shell.transform_cell(source)  # %time, !cmd: as in the notebook
            code = compile(source, command.get("name", "<cell>"), "exec")
            if "rng" in command:
                set_rng_state(command["rng"])
            with self.isolated(command.get("isolate", False)):
                exec(code, self.namespace)  # noqa: S102 - this process exists to run it
            return {"ok": True}
        if op == "capture":
            from helpers.course.grading.plain import encode

            values = []
            for expression in command["expressions"]:
                with self.isolated(True):
                    value = eval(expression, self.namespace)  # noqa: S307
                values.append(encode(value))
            return {"ok": True, "values": values}
        raise ValueError(f"unknown command {op!r}")


def main() -> int:
    reply = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)  # what answer code prints, even from C code or a child process, is lost
    sys.stdout = sys.stderr = _Null()  # the error output (fd 2) keeps only the grader's tail
    faulthandler.enable(file=sys.__stderr__)
    import helpers.course.grading.plain  # noqa: F401 - NumPy, PyTorch, pandas: loaded before the first cell

    session = _Session()
    for line in sys.stdin:
        command = json.loads(line)
        start = time.perf_counter()
        try:
            answer = session.run(command)
        except BaseException as err:  # noqa: BLE001 - the answer's error, reported
            answer = {"ok": False, "error": _error(err)}
        answer["seconds"] = time.perf_counter() - start
        try:
            text = json.dumps(answer)
        except (TypeError, ValueError) as err:
            text = json.dumps({"ok": False, "error": _error(err)})
        reply.write(text + "\n")
        reply.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
