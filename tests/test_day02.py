"""Day 2's words about devices (helpers.day02): the device-mismatch error as the other kinds of
device word it, and how to wait for a copy back to the CPU on each."""

import pytest

from helpers import day02


@pytest.mark.parametrize(
    ("kind", "says", "other"),
    [
        ("cuda", "CUDA's wording", day02.MPS_MISMATCH),
        ("mps", "how MPS words it", day02.CUDA_MISMATCH),
        ("meta", "`meta` device's version", day02.MPS_MISMATCH),
    ],
)
def test_mismatch_note_names_the_other_devices_wording(kind, says, other):
    note = day02.mismatch_note(kind)
    assert says in note and other in note


@pytest.mark.parametrize(
    ("kind", "wait"),
    [
        ("cuda", "torch.cuda.synchronize()"),
        ("mps", "torch.mps.synchronize()"),
        ("cpu", "nothing to wait for"),
    ],
)
def test_readback_note_names_the_wait_for_each_device(kind, wait):
    assert wait in day02.readback_note(kind)
