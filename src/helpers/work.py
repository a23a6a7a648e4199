"""The work of one training step: counted (FLOPs, bytes) and timed (day 5b, sections 1 and 3).

A full-batch SGD step of an ``mlp(widths)`` on ``rows`` rows does a known amount of arithmetic
and moves a known number of bytes; dividing them by the step's time gives FLOP/s and bytes/s,
which days 5 and 7 place under the roofs and day 6 plots against rows (day 6, section 1). Every
day counts with the same functions:

* :func:`flops_per_step`: the matrix products' floating-point operations;
* :func:`bytes_per_step`: a rough count of the bytes moved;
* :func:`step_time`: the seconds one step takes on a device, timed properly.

>>> flops_per_step((4, 10, 3), 120), bytes_per_step((4, 10, 3), 1)
(40800, 1464)
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from helpers.i18n import N_
from helpers.models import mlp
from helpers.timing import benchmark
from helpers.training import sgd_step


def flops_per_step(widths: Sequence[int], rows: int) -> int:
    """Floating-point operations of one training step on ``rows`` rows, counting the matrix
    products (2 per multiply-add, every row, every weight): the forward pass, the gradients of
    the weights, and the gradients of the layers' inputs, except the first layer's: nothing
    needs the gradient of the data, and autograd does not compute it. The course's one FLOP
    count (days 5, 6 and 7, and the day-6 homework); biases, activations, the loss and the
    update are left out (a few operations per number, not per multiply-add).

    >>> flops_per_step((4, 10, 3), 120)  # forward 2*120*70, weights 2*120*70, fc2's input 2*120*30
    40800
    """
    pairs = list(zip(widths[:-1], widths[1:], strict=True))
    weights = sum(a * b for a, b in pairs)
    first = pairs[0][0] * pairs[0][1]
    return rows * (6 * weights - 2 * first)


def bytes_per_step(widths: Sequence[int], rows: int) -> int:
    """A rough count of the bytes a step moves (float32): every weight read forward, read
    backward and updated (read and written), and every activation written forward and read back."""
    weights = sum(a * b + b for a, b in zip(widths[:-1], widths[1:], strict=True))
    activations = rows * sum(widths)
    return 4 * (4 * weights + 2 * activations)


def step_time(
    widths: Sequence[int],
    rows: int,
    *,
    device: torch.device | str,
    min_run_time: float = 0.2,
    batch: int | None = None,
    min_blocks: int = 1,
) -> dict:
    """Seconds of one SGD step on ``rows`` random rows (a batch of ``batch`` of them).

    Timed with :func:`helpers.timing.benchmark` on all the threads PyTorch uses: steps run in
    blocks until ``min_run_time`` seconds have passed, and the result is the median block. A step
    of a fraction of a millisecond is then timed hundreds of times, so one pause of the machine
    (another program, a thread woken late) moves one block, not the answer; a long step runs
    twice (once to size the blocks, once timed).

    On a GPU, where reading the clock waits for the device, one block can outlast
    ``min_run_time``: ``min_blocks`` times at least that many blocks, so that every point has a
    spread.

    Returns a row for :func:`helpers.takeoff.sweep`'s table: rows, batch, device, median,
    quartiles and the number of blocks timed.
    """
    device = torch.device(device)
    batch = rows if batch is None else batch
    generator = torch.Generator().manual_seed(0)
    X = torch.randn(batch, widths[0], generator=generator).to(device)
    y = torch.randint(0, widths[-1], (batch,), generator=generator).to(device)
    torch.manual_seed(0)
    model = mlp(widths).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    result = benchmark(
        lambda: sgd_step(model, optimizer, X, y),
        device=device,
        threads=torch.get_num_threads(),
        min_run_time=min_run_time,
        min_blocks=min_blocks,
    )
    q1, q3 = result.quartiles
    return {
        "rows": rows,
        N_("batch"): batch,
        "device": str(device),
        "seconds": result.median,
        "q1": q1,
        "q3": q3,
        N_("blocks"): len(result.samples),
    }
