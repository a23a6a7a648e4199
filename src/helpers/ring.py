"""An all-reduce written by hand as a ring, and the bytes it really sends (day 8, section 3).

* :func:`ring_all_reduce`: the sum over all ranks, from point-to-point ``isend``/``irecv`` only:
  a reduce-scatter round the ring, then an all-gather;
* :func:`ring_bytes_per_rank`: what each rank sends, ``2(p - 1)/p`` of the tensor;
* :func:`count_sends`: counts the bytes that really went through ``isend`` (and can forbid the
  collectives, so that a hand-written all-reduce cannot call PyTorch's).

Used by day 8's script (:mod:`helpers.ddp_train`), its homework, and :mod:`helpers.links`.

>>> ring_bytes_per_rank(12_000_000, 4) / 1e6  # each of 4 ranks sends 2(p-1)/p of the tensor
18.0
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

import torch
import torch.distributed as dist


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
