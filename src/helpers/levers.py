"""The levers that make a training step faster, and the step they build (day 7b, section 2).

Each lever changes one thing about a training step of the character model
(:mod:`helpers.charlm`): :data:`LEVERS` names them in the order :mod:`helpers.ladder` pulls them,
:class:`Setup` says which are on, :func:`pull` switches one on, :func:`why_not` says why one does
not apply on a device (a reason's name, or ``None``). :class:`Trainer` builds the model, AdamW
and the step of a setup: the forward pass under autocast when a 16-bit type is on (with a
``GradScaler`` for float16), compiled when a compile mode is set, the float32 products' precision
set around every step (TF32 or not), the optimiser fused or not. :func:`cut` draws batches of
windows once, on the device, so that timed steps copy nothing; :func:`merged` joins them into
larger batches holding the same windows.

>>> Setup(batch=16).number_type, Setup(batch=16, tf32=True, half="bf16").number_type
('fp32', 'bf16')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import torch

from helpers.charlm import CharTransformer, Shape, loss_of, windows
from helpers.i18n import N_
from helpers.peaks import precision, sixteen_bit, tf32_changes_bits

LR = 3e-3
"""AdamW's learning rate for every rung (and the sample's training)."""
BASE = N_("fp32")
LEVERS = (
    N_("TF32"),
    N_("16-bit autocast"),
    N_("fused AdamW"),
    N_("larger batch"),
    N_("torch.compile"),
    N_("CUDA graphs"),
    N_("max-autotune"),
)
"""The levers in the order the ladder pulls them: the cheapest to try first."""
COMPILE_MODES = {
    "torch.compile": "default",
    "CUDA graphs": "reduce-overhead",
    "max-autotune": "max-autotune",
}
"""``torch.compile``'s mode for each compiling lever (max-autotune keeps CUDA graphs too)."""
GRAPHED = ("reduce-overhead", "max-autotune")
"""The compile modes that replay CUDA graphs on a GPU."""


@dataclass(frozen=True)
class Setup:
    """How a training step runs: which levers are on."""

    batch: int
    tf32: bool = False
    half: str | None = None
    """autocast's 16-bit type, ``"bf16"`` or ``"fp16"`` (with a ``GradScaler``); ``None``: off."""
    fused: bool = False
    compile: str | None = None
    """``torch.compile``'s mode, or ``None`` for eager."""

    @property
    def number_type(self) -> str:
        """The type the matrix products run in: ``fp32``, ``tf32``, ``bf16`` or ``fp16``."""
        return self.half or ("tf32" if self.tf32 else "fp32")


def pull(lever: str, setup: Setup, *, device: torch.device, factor: int) -> Setup:
    """``setup`` with ``lever`` on (``factor``: how much larger the larger batch is)."""
    changes = {
        "TF32": {"tf32": True},
        "16-bit autocast": {"half": sixteen_bit(device)},
        "fused AdamW": {"fused": True},
        "larger batch": {"batch": setup.batch * factor},
    }
    if lever in COMPILE_MODES:
        return dataclasses.replace(setup, compile=COMPILE_MODES[lever])
    return dataclasses.replace(setup, **changes[lever])


def fused_adamw(device: torch.device) -> bool:
    """Whether this PyTorch has a fused AdamW for ``device``'s type (CUDA, CPU and MPS in recent
    releases), asked without allocating on the device."""
    try:
        from torch.utils._foreach_utils import _get_fused_kernels_supported_devices
    except ImportError:  # a private helper: an older or newer PyTorch may lack it
        return device.type in ("cuda", "cpu")
    return device.type in _get_fused_kernels_supported_devices()


def why_not(lever: str, device: torch.device, *, compile: bool, autotune: bool) -> str | None:
    """Why ``lever`` does not apply on ``device`` (a reason's name), or ``None`` when it does.
    ``compile``/``autotune``: whether compiling, and autotuning, may be tried in this run."""
    from helpers.compiled import build_problem

    if lever == "TF32" and not tf32_changes_bits(device):
        return N_("TF32 changes nothing here")
    if lever == "fused AdamW" and not fused_adamw(device):
        return N_("no fused AdamW for this device")
    if lever in ("CUDA graphs", "max-autotune") and device.type != "cuda":
        return N_("needs an NVIDIA GPU")
    if lever in COMPILE_MODES and not compile:
        return N_("not compiled in fast mode")
    if lever == "max-autotune" and not autotune:
        return N_("not tried in this run")
    if lever in COMPILE_MODES and build_problem():
        return N_("torch.compile cannot build here")
    return None


class Trainer:
    """The model (seeded, so every trainer starts from the same weights), AdamW and the training
    step of one :class:`Setup`. :meth:`reset` starts again from the first weights, with fresh
    optimiser state; a compiled step stays compiled."""

    def __init__(self, shape: Shape, setup: Setup, device: torch.device, seed: int = 0) -> None:
        self.setup, self.device = setup, device
        torch.manual_seed(seed)
        self.model = CharTransformer(shape).to(device)
        self.first = {k: v.clone() for k, v in self.model.state_dict().items()}
        kind, half = device.type, {"bf16": torch.bfloat16, "fp16": torch.float16}.get(setup.half)

        def forward(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
            with torch.autocast(kind, dtype=half, enabled=half is not None):
                return loss_of(self.model, x, y)

        self.forward = torch.compile(forward, mode=setup.compile) if setup.compile else forward
        self.reset()

    def reset(self) -> None:
        self.model.load_state_dict(self.first)
        fused = True if self.setup.fused else None  # None: PyTorch's default (foreach)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=LR, fused=fused)
        self.scaler = torch.amp.GradScaler(self.device.type, enabled=self.setup.half == "fp16")

    def step(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """One training step; the loss, still on the device (a copy: a CUDA graph's replay
        overwrites its outputs)."""
        if self.setup.compile in GRAPHED:
            torch.compiler.cudagraph_mark_step_begin()  # a new iteration: earlier outputs are done
        with precision("high" if self.setup.tf32 else "highest"):
            loss = self.forward(x, y)
            self.optimizer.zero_grad(set_to_none=True)
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
        return loss.detach().clone()

    def train(self, batches: list[tuple[torch.Tensor, torch.Tensor]]) -> list[float]:
        """One step per batch; the losses, read once at the end."""
        return torch.stack([self.step(x, y) for x, y in batches]).float().cpu().tolist()


def cut(tokens: torch.Tensor, count: int, batch: int, context: int, seed: int, device):
    """``count`` batches of windows (:func:`helpers.charlm.windows`), drawn reproducibly, on
    ``device`` (so that copying them is no part of a timed step)."""
    generator = torch.Generator().manual_seed(seed)
    found = [windows(tokens, batch, context, generator) for _batch in range(count)]
    return [(x.to(device), y.to(device)) for x, y in found]


def merged(batches: list, factor: int) -> list:
    """The same windows in batches ``factor`` times larger: a larger batch, the same tokens."""
    groups = [batches[i : i + factor] for i in range(0, len(batches) - factor + 1, factor)]
    return [tuple(torch.cat(part) for part in zip(*group, strict=True)) for group in groups]
