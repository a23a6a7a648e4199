"""The lever ladder: one training step of the character model, made faster one lever at a time
(day 7b, sections 2 and 4).

The levers, their setups and the step they build are in :mod:`helpers.levers`. :class:`Ladder`
climbs: it starts from plain float32 and, lever by lever in ``LEVERS``' order, asks whether the
lever applies on this device (``why_not``: a reason's name, or ``None``), builds the next setup
on the last one kept,
times the two in one interleaved comparison (:func:`helpers.timing.compare`: the same tokens per
call, ``steps_per_call`` steps, fewer for a larger batch), trains both from the same weights on
the same batches to see whether the loss still falls the same way (a :class:`Fall`), and keeps the
lever when the caller's rule (``keep``: the lesson's, in :mod:`helpers.day07b`) says it paid. Every
rung is a :class:`Rung`, plain data; :func:`points` puts the measured rungs on the roofline
(:func:`receipt_points` another machine's, from its receipt).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch

from helpers import activations
from helpers.charlm import Shape, flops_per_token, loss_of, parameters
from helpers.levers import BASE, Setup, Trainer, cut, merged, pull, why_not
from helpers.peaks import DTYPES, precision
from helpers.roofline import Workload
from helpers.timing import Measurement, compare


@dataclass(frozen=True)
class Fall:
    """Two short trainings from the same weights on the same tokens, the setup before a lever and
    the one after, each then scored on the same held-out windows in plain float32: the loss of
    the first weights (``start``), of the weights each training ended with (``before``,
    ``after``), and the largest step-by-step difference of their training losses (``None`` when
    their batches differ, so their steps do too)."""

    start: float
    before: float
    after: float
    steps: float | None

    @property
    def difference(self) -> float:
        """How far the lever moved the trained model's loss, relative (0: not at all)."""
        return abs(self.after - self.before) / self.before

    @property
    def falls(self) -> bool:
        """Whether training with the lever still lowered the loss."""
        return self.after < self.start


def relative(a: list[float], b: list[float]) -> float:
    """The largest relative difference between two curves of the same length."""
    return max(abs(x - y) / abs(y) for x, y in zip(a, b, strict=True))


@dataclass(frozen=True)
class Rung:
    """One lever on this device: whether it applied (``why_not``), and if it did, its setup, the
    speed-up over the last kept rung round by round, its median seconds per call and tokens per
    second, and the kept rung's tokens per second in the same rounds (``before_tokens_per_s``:
    rungs measured in different comparisons meet different moments of a busy machine), the loss
    check, whether it was kept, its first calls' seconds (compiling, if any),
    the bytes autograd keeps for one step (eager, :mod:`helpers.activations`) and, on CUDA, the
    step's peak allocated bytes (``None`` elsewhere)."""

    lever: str
    why_not: str | None = None
    setup: Setup | None = None
    speedup: Measurement | None = None
    seconds: float | None = None
    tokens_per_s: float | None = None
    before_tokens_per_s: float | None = None
    fall: Fall | None = None
    kept: bool = False
    first_step_s: float | None = None
    saved_bytes: int | None = None
    peak_bytes: int | None = None


WEIGHT_TRAFFIC = 40
"""Bytes moved per parameter per step, at least: the float32 weight read in the forward and the
backward pass (8), its gradient written and read (8), and AdamW reading the weight, gradient and
two averages and writing three back (24)."""


def workload(
    name: str, *, shape: Shape, batch: int, saved_bytes: int, seconds: float, tokens_per_call: int
) -> Workload:
    """A measured rung as a point for the roofline: its FLOPs per call (:func:`flops_per_token`),
    the bytes it moves at least (the activations written, then read back, and
    :data:`WEIGHT_TRAFFIC` per parameter, each step) and its seconds per call."""
    steps = tokens_per_call // (batch * shape.context)
    moved = steps * (2 * saved_bytes + WEIGHT_TRAFFIC * parameters(shape))
    return Workload(name, flops_per_token(shape) * tokens_per_call, moved, seconds)


def points(rungs: list[Rung], shape: Shape, tokens_per_call: int) -> list[tuple[Workload, str]]:
    """The measured rungs as roofline points, each with the number type of its products."""
    return [
        (
            workload(
                r.lever,
                shape=shape,
                batch=r.setup.batch,
                saved_bytes=r.saved_bytes,
                seconds=r.seconds,
                tokens_per_call=tokens_per_call,
            ),
            r.setup.number_type,
        )
        for r in rungs
        if r.seconds
    ]


def receipt_points(found: dict) -> list[tuple[Workload, str]]:
    """The same points from a receipt's ``day07b`` section (another machine's ladder)."""
    shape, per_call = Shape(**found["shape"]), found["tokens_per_call"]
    return [
        (
            workload(
                r["lever"],
                shape=shape,
                batch=r["batch"],
                saved_bytes=r["saved_bytes"],
                seconds=per_call / r["tokens_per_s"],
                tokens_per_call=per_call,
            ),
            r["number_type"],
        )
        for r in found["rungs"]
        if r["tokens_per_s"]
    ]


class Ladder:
    """Climbs the ladder on ``device``: :meth:`start`, then :meth:`climb` each lever."""

    def __init__(
        self,
        shape: Shape,
        tokens: torch.Tensor,
        device: torch.device,
        *,
        batch: int,
        factor: int,
        steps_per_call: int,
        check_steps: int,
        repeats: int,
        keep: Callable[[Measurement, Fall], bool],
    ) -> None:
        if steps_per_call % factor or check_steps % factor:
            raise ValueError(f"steps_per_call and check_steps must be multiples of {factor}")
        self.shape, self.device, self.factor, self.keep = shape, device, factor, keep
        self.steps, self.repeats = steps_per_call, repeats
        self.timed = cut(tokens, steps_per_call, batch, shape.context, 1, device)
        self.checked = cut(tokens, check_steps, batch, shape.context, 2, device)
        self.held_out = cut(tokens, 4, batch, shape.context, 3, device)
        self.tokens_per_call = steps_per_call * batch * shape.context
        self.flops_per_call = flops_per_token(shape) * self.tokens_per_call
        self.rungs: list[Rung] = []

    def batches(self, setup: Setup, which: list) -> list:
        return which if setup.batch == self.timed[0][0].shape[0] else merged(which, self.factor)

    def call(self, trainer: Trainer) -> Callable[[], object]:
        """One timed call: ``steps_per_call`` steps' tokens (fewer, larger steps for a larger
        batch), with no read-back of the losses."""
        batches = self.batches(trainer.setup, self.timed)
        return lambda: [trainer.step(x, y) for x, y in batches]

    @torch.no_grad()
    def score(self, model: torch.nn.Module) -> float:
        """The mean loss on the held-out windows, in plain float32."""
        with precision("highest"):
            return torch.stack([loss_of(model, x, y) for x, y in self.held_out]).mean().item()

    def curve(self, trainer: Trainer) -> tuple[list[float], float]:
        """Train from the first weights on the check windows: the training losses, and the
        held-out loss of the weights it ended with."""
        trainer.reset()
        losses = trainer.train(self.batches(trainer.setup, self.checked))
        return losses, self.score(trainer.model)

    def memory(self, trainer: Trainer) -> dict[str, int | None]:
        """What one step keeps for its backward pass (eager), and on CUDA its peak."""
        half = DTYPES[trainer.setup.half] if trainer.setup.half else None
        found = activations.measure(
            self.shape, trainer.setup.batch, device=self.device, autocast=half
        )
        peak = activations.peak_allocated(self.call(trainer), self.device)
        return {"saved_bytes": activations.total(found), "peak_bytes": peak}

    def start(self) -> Rung:
        """The first rung, plain float32: its loss curve and memory (its speed comes from the
        first comparison)."""
        setup = Setup(batch=self.timed[0][0].shape[0])
        self.trainer = Trainer(self.shape, setup, self.device)
        self.first_score = self.score(self.trainer.model)
        start = time.perf_counter()
        self.losses, self.scored = self.curve(self.trainer)
        first = time.perf_counter() - start
        rung = Rung(BASE, setup=setup, kept=True, first_step_s=first, **self.memory(self.trainer))
        self.rungs.append(rung)
        return rung

    def climb(self, lever: str, *, compile: bool, autotune: bool) -> Rung:
        reason = why_not(lever, self.device, compile=compile, autotune=autotune)
        if reason is not None:
            self.rungs.append(Rung(lever, why_not=reason))
            return self.rungs[-1]
        setup = pull(lever, self.trainer.setup, device=self.device, factor=self.factor)
        trainer = Trainer(self.shape, setup, self.device)
        start = time.perf_counter()
        losses, scored = self.curve(trainer)  # its first call compiles, when it compiles
        first = time.perf_counter() - start
        steps = relative(losses, self.losses) if len(losses) == len(self.losses) else None
        fall = Fall(self.first_score, self.scored, scored, steps)
        found = compare(
            {"before": self.call(self.trainer), lever: self.call(trainer)},
            device=self.device,
            repeats=self.repeats,
            warmup=1,
            progress=lever,
        )
        if self.rungs[0].seconds is None:  # the first rung's speed, from its first comparison
            before = found.measurements["before"].median
            self.rungs[0] = dataclasses.replace(
                self.rungs[0], seconds=before, tokens_per_s=self.tokens_per_call / before
            )
        speedup = found.ratios("before", lever)
        seconds = found.measurements[lever].median
        before = self.tokens_per_call / found.measurements["before"].median
        kept = self.keep(speedup, fall)
        rung = Rung(
            lever,
            setup=setup,
            speedup=speedup,
            seconds=seconds,
            tokens_per_s=self.tokens_per_call / seconds,
            before_tokens_per_s=before,
            fall=fall,
            kept=kept,
            first_step_s=first,
            **self.memory(trainer),
        )
        if kept:
            self.trainer, self.losses, self.scored = trainer, losses, scored
        self.rungs.append(rung)
        return rung
