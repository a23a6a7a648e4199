import pytest
import torch

from helpers import device_notes


@pytest.mark.parametrize(
    ("kind", "says", "other"),
    [
        ("cuda", "CUDA's wording", device_notes.MPS_MISMATCH),
        ("mps", "how MPS words it", device_notes.CUDA_MISMATCH),
        ("meta", "`meta` device's version", device_notes.MPS_MISMATCH),
    ],
)
def test_mismatch_note_names_the_other_devices_wording(kind, says, other):
    note = device_notes.mismatch_note(kind)
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
    assert wait in device_notes.readback_note(kind)


def test_parameter_move_note_for_a_moved_and_a_replaced_parameter():
    model = torch.nn.Linear(2, 2)
    weight = model.weight
    model.to("meta")
    replaced = device_notes.parameter_move_note(model.weight is weight, "meta")
    assert "a new Parameter object" in replaced and "orphaned" in replaced
    kept = device_notes.parameter_move_note(True, "cuda")
    assert "the same Parameter object" in kept and "still holds it" in kept
