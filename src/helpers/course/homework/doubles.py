"""Stand-ins the homework tests hand to answers, so that a test sees a behaviour on any machine.

* :class:`PretendGPU`: a GPU as timing code meets it: work handed to it runs later, after the
  call that queued it has returned, and work queued earlier is still running when a timed
  function starts. Only a function that waits for it at the right moments measures its work
  (day 5a, ``day05a.sync``).
* :func:`showing_autograd`: a model whose prediction says whether autograd recorded its forward
  pass (day 2, ``day02.predict``).

What a test learns from them comes back through the answer's own result or the time it took,
never through a record kept beside the answer: an answer can write into any object the test keeps
in its process, so such a record would prove nothing (see the threat model in
:mod:`helpers.course.grading.grader`). The time is the grader's: ``wall_seconds`` in a test cell
is the wall-clock time of the cell's last statement, measured by the process that decides the
checks (:data:`helpers.course.homework.markers.WALL_SECONDS`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import torch
from torch import nn


class PretendGPU:
    """A device whose work runs after it is queued, in real time, as a GPU's does.

    ``backlog`` seconds of earlier work are queued when it is made; :meth:`launch` queues more
    and returns at once; :meth:`synchronize` returns when everything queued so far has finished.
    :meth:`installed` makes it the CUDA device that ``torch.cuda.synchronize`` (and so
    :func:`helpers.device.synchronize`) waits for.

    >>> gpu = PretendGPU(backlog=0.0)
    >>> start = time.perf_counter()
    >>> gpu.launch(0.05)  # returns at once
    >>> gpu.synchronize()  # returns when the work is done
    >>> time.perf_counter() - start >= 0.05
    True
    """

    def __init__(self, backlog: float = 0.0) -> None:
        if backlog < 0:
            raise ValueError(f"backlog must be at least 0 seconds, got {backlog}")
        self.free_at = time.perf_counter() + backlog

    def launch(self, seconds: float) -> None:
        """Queue ``seconds`` of work behind what is queued already; return at once."""
        self.free_at = max(self.free_at, time.perf_counter()) + seconds

    def synchronize(self, device=None) -> None:
        """Wait until every piece of work queued so far has finished."""
        time.sleep(max(0.0, self.free_at - time.perf_counter()))

    @contextlib.contextmanager
    def installed(self) -> Iterator[PretendGPU]:
        """While the block runs, ``torch.cuda.synchronize`` waits for this device."""
        real = torch.cuda.synchronize
        torch.cuda.synchronize = self.synchronize
        try:
            yield self
        finally:
            torch.cuda.synchronize = real


TRACKED = torch._C.TensorBase.requires_grad
"""Whether autograd tracks a tensor, read from PyTorch's C type: answer code can replace
``torch.Tensor.requires_grad``, not this."""


def showing_autograd(model: nn.Module) -> nn.Module:
    """``model`` itself, with a forward hook that makes its prediction say whether autograd
    recorded the forward pass: class 1 for every row when it did not (``torch.no_grad()``,
    ``torch.inference_mode()``), class 0 when it did.

    The model keeps its own class, so an answer cannot tell it from the others a test hands it;
    the hook asks autograd itself whether the output is tracked, through PyTorch's C type (whose
    attributes no Python code can replace), so neither a patched ``torch.is_grad_enabled`` nor a
    patched ``torch.Tensor.requires_grad`` changes what it says.

    >>> from helpers.models import IrisMLP
    >>> spy, X = showing_autograd(IrisMLP()), torch.zeros(3, 4)
    >>> type(spy).__name__, spy(X).argmax(dim=1).tolist()
    ('IrisMLP', [0, 0, 0])
    >>> with torch.no_grad():
    ...     spy(X).argmax(dim=1).tolist()
    [1, 1, 1]
    """

    def tell(module, args, output):
        scores = torch.zeros_like(output, requires_grad=False)
        scores[:, 0 if TRACKED.__get__(output) else 1] = 1.0
        return scores

    model.register_forward_hook(tell)
    return model
