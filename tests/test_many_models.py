"""Day 7: K copies of the lesson's network trained in one batched step (torch.func), and what
the lesson says of the time it saves (helpers.day07)."""

from __future__ import annotations

import pytest
import torch

from helpers import day07_algorithms
from helpers import many_models as M
from helpers.data import load_iris_split
from helpers.training import train

TOLERANCE = 1e-5  # float32, 100 steps: the batched matmuls add in another order


@pytest.fixture(scope="module")
def iris():
    X, _, y, _ = load_iris_split()
    return X, y


def _alone(k: int, lrs, X, y, epochs: int):
    """The same copies trained one at a time by the lesson's loop."""
    models = M.copies(k)
    for model, lr in zip(models, lrs, strict=True):
        train(model, X, y, epochs, lr=float(lr), progress=False)
    return models


def _largest_difference(stack: M.ModelStack, models) -> float:
    return max(
        (stack.copy_weights(i)[name] - weight).abs().max().item()
        for i, model in enumerate(models)
        for name, weight in model.state_dict().items()
    )


def test_each_copy_ends_with_the_weights_it_gets_when_trained_alone(iris):
    X, y = iris
    lrs = [0.01, 0.02, 0.05, 0.1, 0.2, 0.01, 0.05, 0.3]  # different seeds and learning rates
    stack = M.ModelStack(M.copies(8), lr=lrs)
    losses = stack.train(X, y, 100)
    alone = _alone(8, lrs, X, y, 100)
    assert _largest_difference(stack, alone) < TOLERANCE
    # the check can fail: copies trained with the learning rates in another order differ
    assert _largest_difference(stack, _alone(8, lrs[::-1], X, y, 100)) > 1e-3
    # and the losses it returns are each copy's own loss, as the lesson's loop computes it
    for model, lr, loss in zip(M.copies(8), lrs, losses, strict=True):
        train(model, X, y, 99, lr=lr, progress=False)  # the step before the last
        expected = torch.nn.functional.cross_entropy(model(X), y).item()
        assert loss.item() == pytest.approx(expected, rel=1e-4)


def test_one_learning_rate_is_shared_by_every_copy(iris):
    X, y = iris
    stack = M.ModelStack(M.copies(3, seed=5), lr=0.05)
    stack.train(X, y, 20)
    alone = M.copies(3, seed=5)
    for model in alone:
        train(model, X, y, 20, lr=0.05, progress=False)
    assert _largest_difference(stack, alone) < TOLERANCE


def test_copies_follow_their_seeds():
    a, b = M.copies(2, seed=3)
    torch.manual_seed(4)
    again = M.copies(1, seed=4)[0]
    assert torch.equal(b.fc1.weight, again.fc1.weight)
    assert not torch.equal(a.fc1.weight, b.fc1.weight)


def test_bad_stacks_are_refused(iris):
    X, y = iris
    with pytest.raises(ValueError, match="at least one copy"):
        M.copies(0)
    with pytest.raises(ValueError, match="one learning rate or 3"):
        M.ModelStack(M.copies(3), lr=[0.1, 0.2])
    with pytest.raises(ValueError, match="at least one model"):
        M.ModelStack([], lr=0.1)
    with pytest.raises(ValueError, match="epochs"):
        M.ModelStack(M.copies(1), lr=0.1).train(X, y, 0)


# Seconds per sample (50-100 epochs) measured on a 2-core CPU in interleaved rounds: the lesson
# loop on K models one after another, and one batched step for all K.
LESSON_64 = [15.49, 15.98, 15.25, 14.86, 11.26]
BATCHED_64 = [1.658, 1.700, 1.460, 1.472, 1.025]
LESSON_1 = [0.244, 0.342, 0.302, 0.268, 0.205]
BATCHED_1 = [0.493, 0.857, 0.688, 0.600, 0.434]  # vmap's own overhead, nothing to share
LESSON_2 = [0.393, 0.663, 0.428, 0.412, 0.297]
BATCHED_2 = [0.420, 0.610, 0.450, 0.390, 0.310]  # about even: the overhead against one copy


@pytest.mark.parametrize(
    ("k", "lesson", "batched", "ending"),
    [
        (64, LESSON_64, BATCHED_64, "batching pays."),
        (1, LESSON_1, BATCHED_1, "outweighs what it shares)."),
        (2, LESSON_2, BATCHED_2, "no difference these rounds can tell from noise."),
    ],
)
def test_batching_verdict_follows_the_paired_difference(k, lesson, batched, ending):
    gain = M.batching_gain(lesson, batched)
    assert gain.rounds == 5 and (gain.low < 1 < gain.high) == (not gain.distinguishable)
    text = day07_algorithms.batching_verdict(k, gain)
    assert text.endswith(ending), text
    assert text.startswith(f"{k} model")


@pytest.mark.parametrize(
    ("seconds_many", "ending"),
    [
        (0.0221, "mostly its fixed part, and the copies shared it."),  # the Iris network, a CPU
        (0.150, "grew with the arithmetic, so stacking shared little here."),  # a wide network
        (0.300, "part of the step was shared, part grew with the copies."),  # a middle width
    ],
)
def test_sharing_verdict_follows_the_growth(seconds_many, ending):
    # seconds per batched run of 1 copy, then of 64: the Iris network measured 10.0 and 22.1 ms;
    # 64 copies of a wide 4-512-512-3 network, whose step is arithmetic, grow almost 64-fold.
    few = 0.0024 if seconds_many == 0.150 else 0.010
    found = M.sharing(1, 64, few, seconds_many)
    assert found.work == 64 and found.grew == pytest.approx(seconds_many / few)
    assert day07_algorithms.sharing_verdict(found).endswith(ending)


def test_sharing_verdict_needs_more_copies_and_times():
    with pytest.raises(ValueError):
        M.sharing(8, 8, 0.01, 0.02)
