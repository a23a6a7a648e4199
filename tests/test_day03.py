"""Day 3's words about moving a module (helpers.day03): what ``.to()`` did to a parameter, and
what it means for an optimiser made before the move."""

import torch

from helpers import day03


def test_parameter_move_note_for_a_moved_and_a_replaced_parameter():
    model = torch.nn.Linear(2, 2)
    weight = model.weight
    model.to("meta")
    replaced = day03.parameter_move_note(model.weight is weight, "meta")
    assert "a new Parameter object" in replaced and "orphaned" in replaced
    kept = day03.parameter_move_note(True, "cuda")
    assert "the same Parameter object" in kept and "still holds it" in kept
