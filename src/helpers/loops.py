"""Day 5's training loops: the lesson's loop, and faster ones that compute the same losses (day 5a,
sections 5, 6 and 7; day 5b, section 4).

All of them train an ``IrisMLP``-shaped network (``fc1``, ReLU, ``fc2``) full batch with plain SGD
and cross-entropy, so their losses can be compared epoch by epoch (``tests/test_loops.py`` does).

* The lesson's own loop is :func:`helpers.training.train`: autograd, an optimiser, and
  ``loss.item()`` every N epochs.
* :func:`device_losses_loop` is that loop, but it keeps every loss on the device and reads them
  all once at the end: no synchronisation inside the loop.
* :func:`handwritten_loop` computes the gradients by hand with a few matrix products: far fewer
  operations (and no autograd bookkeeping) per epoch. :func:`handwritten_step` is one epoch of it,
  the function that ``torch.compile`` and CUDA graphs can speed up further.
* :func:`amortised_step` pays the remaining per-call overhead once for several epochs: it compiles
  ``epochs_per_call`` epochs of :func:`broadcast_step` (the same step with each matrix product
  written as multiply-and-sum, so the compiler fuses a whole epoch into one generated loop) into
  one function, called from C++ rather than Python.
* :func:`device_bound_run` is the lesson's loop on a network and a batch large enough that a GPU,
  not Python, sets the pace, and :func:`recording_sweep` times a loop at many recording
  intervals (day 5a, section 5).
* :func:`bare_loop` is the lesson's loop with the training taken out: the ``for`` and the
  ``epoch % N`` test alone, to time what the Python loop itself costs.

>>> bare_loop(20_000, every=100)  # the lesson's loop, recording every 100 epochs: 200 recordings
200
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn

from helpers.training import sgd_step

Step = Callable[..., torch.Tensor]


def device_losses_loop(
    model: nn.Module, X: torch.Tensor, y: torch.Tensor, epochs: int, lr: float = 0.01
) -> list[float]:
    """The lesson's loop without ``.item()``: every loss stays on the device until one read at
    the end."""
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(epochs):
        loss = sgd_step(model, optimizer, X, y)
        losses.append(loss.detach())  # a reference to a number on the device: no waiting
    return torch.stack(losses).tolist()  # one copy, one wait


def handwritten_step(
    W1: torch.Tensor,
    b1: torch.Tensor,
    W2: torch.Tensor,
    b2: torch.Tensor,
    X: torch.Tensor,
    y: torch.Tensor,
    onehot: torch.Tensor,
    lr: float,
) -> torch.Tensor:
    """One SGD epoch of the 2-layer ReLU network, gradients by hand; updates the weights in place.

    Sixteen operators where autograd's loop dispatches about eighty. Returns the loss (before the
    update, as autograd's loop reports it), as a tensor on the device.
    """
    a = torch.addmm(b1, X, W1.t()).relu()  # fc1, ReLU
    logp = torch.addmm(b2, a, W2.t()).log_softmax(1)  # fc2, log-probabilities
    loss = nn.functional.nll_loss(logp, y)  # cross-entropy
    g_z = logp.exp_().sub_(onehot).div_(X.shape[0])  # d loss / d logits: softmax - one-hot
    g_h = (g_z @ W2).mul_(a > 0)  # back through fc2 and the ReLU
    W2.addmm_(g_z.t(), a, alpha=-lr)  # W2 -= lr * gradient, in one operator
    b2.sub_(g_z.sum(0), alpha=lr)
    W1.addmm_(g_h.t(), X, alpha=-lr)
    b1.sub_(g_h.sum(0), alpha=lr)
    return loss


def broadcast_step(
    W1: torch.Tensor,
    b1: torch.Tensor,
    W2: torch.Tensor,
    b2: torch.Tensor,
    X: torch.Tensor,
    y: torch.Tensor,
    onehot: torch.Tensor,
    lr: float,
) -> torch.Tensor:
    """:func:`handwritten_step` with every matrix product written as a broadcast multiply and a
    sum. Eagerly that is slower (larger intermediate tensors), but ``torch.compile`` can fuse
    all of it, the products included, into one generated loop nest: no call into a matrix
    library, no intermediate tensors in memory. Returns the loss before the update."""
    n = X.shape[0]
    a = ((X[:, None, :] * W1).sum(2) + b1).relu()  # fc1, ReLU: a[i, j] = sum_k X[i, k] W1[j, k]
    logp = ((a[:, None, :] * W2).sum(2) + b2).log_softmax(1)  # fc2, log-probabilities
    loss = -(logp * onehot).sum() / n  # cross-entropy (y is in the one-hot labels)
    g_z = (logp.exp() - onehot) / n  # d loss / d logits
    g_h = (g_z[:, :, None] * W2).sum(1) * (a > 0)  # back through fc2 and the ReLU
    W2.sub_((g_z[:, :, None] * a[:, None, :]).sum(0), alpha=lr)
    b2.sub_(g_z.sum(0), alpha=lr)
    W1.sub_((g_h[:, :, None] * X[:, None, :]).sum(0), alpha=lr)
    b1.sub_(g_h.sum(0), alpha=lr)
    return loss


def several_epochs(step: Step, epochs_per_call: int) -> Step:
    """A function that runs ``step`` ``epochs_per_call`` times and returns their losses, stacked:
    compiled, the overhead of one call is shared by that many epochs."""
    if not isinstance(epochs_per_call, int) or epochs_per_call < 1:
        raise ValueError(f"epochs_per_call must be a positive integer, got {epochs_per_call!r}")

    def epochs(W1, b1, W2, b2, X, y, onehot, lr):
        return torch.stack([step(W1, b1, W2, b2, X, y, onehot, lr) for _ in range(epochs_per_call)])

    epochs.__name__ = f"{getattr(step, '__name__', 'step')}_x{epochs_per_call}"
    return epochs


def handwritten_loop(
    model: nn.Module,
    X: torch.Tensor,
    y: torch.Tensor,
    epochs: int,
    lr: float = 0.01,
    step: Step = handwritten_step,
    epochs_per_call: int = 1,
    static_weights: bool = False,
) -> list[float]:
    """Train ``model`` with :func:`handwritten_step` (or a compiled version of it, ``step``).

    The weights are updated in place through detached views, so the model ends up trained as the
    lesson's loop would train it (equal up to float32 rounding). The loop runs in
    ``torch.inference_mode()``, which skips autograd's bookkeeping on every operator. Losses stay
    on the device until the end. A ``step`` that runs several epochs per call (see
    :func:`amortised_step`) returns that many losses: say how many with ``epochs_per_call``, which
    must divide ``epochs``.

    ``static_weights`` marks the weights' memory as fixed for the compiler
    (``torch._dynamo.mark_static_address``): CUDA graphs replay recorded addresses, and Inductor
    declines them for a step that updates inputs in place unless those inputs are marked so.
    """
    if epochs % epochs_per_call:
        raise ValueError(
            f"epochs ({epochs}) must be a multiple of epochs_per_call ({epochs_per_call})"
        )
    weights = [model.fc1.weight, model.fc1.bias, model.fc2.weight, model.fc2.bias]
    W1, b1, W2, b2 = tensors = [w.detach() for w in weights]  # same memory, no autograd
    if static_weights:
        for tensor in tensors:
            torch._dynamo.mark_static_address(tensor)
    onehot = nn.functional.one_hot(y, model.fc2.out_features).to(X.dtype)
    with torch.inference_mode():
        calls = epochs // epochs_per_call
        losses = [step(W1, b1, W2, b2, X, y, onehot, lr) for _ in range(calls)]
        return torch.stack(losses).reshape(-1).tolist()


def compiled_step(mode: str | None = None) -> Step:
    """:func:`handwritten_step` compiled by ``torch.compile`` (``mode="reduce-overhead"`` uses CUDA
    graphs on an NVIDIA GPU, when the weights are marked static: see :func:`handwritten_loop`, and
    :func:`helpers.compiled.graphs_skipped` to check). Compilation happens at the first call.

    A CUDA graph writes its outputs to the same memory at every replay, so the loss a replay
    returns is overwritten by the next one (PyTorch then raises "accessing tensor output of
    CUDAGraphs that has been overwritten"): with graphs, the step returns a copy of it, one small
    copy per epoch, made outside the graph."""
    step = torch.compile(handwritten_step, fullgraph=True, mode=mode)
    if mode != "reduce-overhead":
        return step

    def replayed(*args) -> torch.Tensor:
        return step(*args).clone()

    return replayed


def amortised_step(epochs_per_call: int = 10, cpp_wrapper: bool = True) -> Step:
    """``epochs_per_call`` epochs of :func:`broadcast_step` compiled into one function, for
    :func:`handwritten_loop` with the same ``epochs_per_call``.

    With ``cpp_wrapper`` the compiled code calls its generated kernels from C++ instead of
    Python, so almost nothing of the per-call overhead is left. Compilation happens at the first
    call: tens of seconds with an empty cache, a few with a warm one.
    """
    options = {"cpp_wrapper": True} if cpp_wrapper else None
    return torch.compile(
        several_epochs(broadcast_step, epochs_per_call), fullgraph=True, options=options
    )


def bare_loop(epochs: int, every: int | None = 100) -> int:
    """The lesson's loop with the training taken out: ``for epoch in range(epochs)`` and the
    ``epoch % every == 0`` test. Returns how many epochs would have recorded."""
    recorded = 0
    for epoch in range(epochs):
        if every is not None and epoch % every == 0:
            recorded += 1
    return recorded


def device_bound_run(every: int | None, epochs: int, *, width: int, rows: int, device):
    """One run of the lesson's loop (:func:`helpers.training.train`) on a 4-``width``-``width``-3
    ReLU network and ``rows`` random rows: enough arithmetic per epoch that a GPU falls behind
    Python and its queue fills."""
    from helpers.training import train

    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Linear(4, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 3)
    ).to(device)
    X = torch.randn(rows, 4, device=device)
    y = torch.randint(0, 3, (rows,), device=device)
    return train(model, X, y, epochs, record_every=every, progress=False)


def recording_sweep(
    run: Callable[[int | None, int], object],
    every: tuple[int | None, ...],
    epochs: int,
    *,
    device,
    repeats: int,
    progress: str | None = None,
) -> tuple[list[int], list[float]]:
    """Time ``run(every, epochs)`` at each recording interval (``None``: never), ``repeats``
    rounds in shuffled order (:func:`helpers.timing.compare`): every run's number of recordings
    and seconds, ready for :func:`helpers.stats.check_line`."""
    import math

    from helpers.timing import compare

    counts = {e: 0 if e is None else math.ceil(epochs / e) for e in every}
    result = compare(
        {str(e): (lambda e=e: run(e, epochs)) for e in every},
        device=device,
        repeats=repeats,
        warmup=1,
        progress=progress,
    )
    xs, ys = [], []
    for e in every:
        samples = result.measurements[str(e)].samples
        xs += [counts[e]] * len(samples)
        ys += list(samples)
    return xs, ys
