"""Every faster loop must compute the same losses, and train the same weights, as the lesson's."""

import pytest
import torch

from helpers import loops, paths
from helpers.data import load_iris_split
from helpers.models import IrisMLP
from helpers.training import train

EPOCHS = 300
# float32 sums in another order differ in the last bits; over 300 epochs the losses stay within
# LOSSES and the weights within WEIGHTS of the lesson's loop.
LOSSES = {"rtol": 1e-5, "atol": 1e-6}
WEIGHTS = {"rtol": 1e-4, "atol": 1e-4}


@pytest.fixture
def compile_cache(monkeypatch):
    """torch.compile's cache in build/, shared with the notebooks' runs. (Set here, not read from
    os.environ: creating an optimiser writes torch's own default there.)"""
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(paths.COMPILE_CACHE))


@pytest.fixture(scope="module")
def data():
    X, _, y, _ = load_iris_split()
    return X, y


def fresh():
    torch.manual_seed(0)
    return IrisMLP()


@pytest.fixture(scope="module")
def reference(data):
    model = fresh()
    losses = train(model, *data, EPOCHS, record_every=1, progress=False).losses
    return losses, model.state_dict()


def same(losses, model, reference):
    expected_losses, expected_state = reference
    torch.testing.assert_close(torch.tensor(losses), torch.tensor(expected_losses), **LOSSES)
    for name, value in model.state_dict().items():
        torch.testing.assert_close(value, expected_state[name], **WEIGHTS)


def test_device_losses_loop_matches_the_lesson(data, reference):
    model = fresh()
    same(loops.device_losses_loop(model, *data, EPOCHS), model, reference)


def test_handwritten_loop_matches_the_lesson(data, reference):
    model = fresh()
    same(loops.handwritten_loop(model, *data, EPOCHS), model, reference)


def test_handwritten_loop_works_for_other_widths(data):
    torch.manual_seed(1)
    a, b = IrisMLP(hidden=32), IrisMLP(hidden=32)
    b.load_state_dict(a.state_dict())
    expected = train(a, *data, 50, record_every=1, progress=False).losses
    torch.testing.assert_close(
        torch.tensor(loops.handwritten_loop(b, *data, 50)), torch.tensor(expected), **LOSSES
    )


def test_broadcast_step_matches_the_lesson(data, reference):
    model = fresh()
    same(loops.handwritten_loop(model, *data, EPOCHS, step=loops.broadcast_step), model, reference)


def test_several_epochs_per_call_match_the_lesson(data, reference):
    model = fresh()
    step = loops.several_epochs(loops.broadcast_step, 10)
    assert step.__name__ == "broadcast_step_x10"
    same(
        loops.handwritten_loop(model, *data, EPOCHS, step=step, epochs_per_call=10),
        model,
        reference,
    )


@pytest.mark.parametrize(
    ("epochs", "per_call", "message"),
    [(305, 10, r"epochs \(305\) must be a multiple of epochs_per_call \(10\)"),
     (300, 0, "epochs_per_call must be a positive integer")],
)  # fmt: skip
def test_epochs_per_call_must_divide_the_epochs(data, epochs, per_call, message):
    with pytest.raises(ValueError, match=message):
        step = loops.several_epochs(loops.broadcast_step, per_call)
        loops.handwritten_loop(fresh(), *data, epochs, step=step, epochs_per_call=per_call)


def test_the_bare_loop_counts_the_recordings_it_would_make():
    assert loops.bare_loop(20_000, every=100) == 200
    assert loops.bare_loop(20_000, every=2000) == 10
    assert loops.bare_loop(5, every=None) == 0
    assert loops.bare_loop(5, every=1) == 5


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_compiled_step_matches_the_lesson(data, reference, compile_cache):
    model = fresh()
    same(loops.handwritten_loop(model, *data, EPOCHS, step=loops.compiled_step()), model, reference)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_amortised_step_matches_the_lesson(data, reference, compile_cache):
    model = fresh()
    step = loops.amortised_step(10)
    same(
        loops.handwritten_loop(model, *data, EPOCHS, step=step, epochs_per_call=10),
        model,
        reference,
    )


def test_static_weights_are_marked_for_cuda_graphs():
    marks = []

    def spy(W1, b1, W2, b2, X, y, onehot, lr):
        marks.append([getattr(w, "_dynamo_static_input_type", None) for w in (W1, b1, W2, b2)])
        return loops.handwritten_step(W1, b1, W2, b2, X, y, onehot, lr)

    X, y = torch.randn(12, 4), torch.randint(0, 3, (12,))
    loops.handwritten_loop(IrisMLP(), X, y, 2, step=spy, static_weights=True)
    loops.handwritten_loop(IrisMLP(), X, y, 1, step=spy)
    assert marks == [["unguarded"] * 4] * 2 + [[None] * 4]


def test_cuda_graphs_step_keeps_each_loss_though_a_replay_reuses_its_output(monkeypatch, data):
    """A CUDA graph returns the same memory at every replay (the next replay overwrites the loss
    the last one returned): here a fake compile does that on the CPU. The lesson's losses must
    still be every epoch's own, as with the eager step."""

    def fake_compile(fn, **options):
        out = torch.empty(())

        def replay(*args):
            return out.copy_(fn(*args))  # the graph's output buffer, written again each time

        return replay

    monkeypatch.setattr(torch, "compile", fake_compile)
    eager = loops.handwritten_loop(fresh(), *data, 5)
    assert len(set(eager)) == 5
    graphs = loops.handwritten_loop(fresh(), *data, 5, step=loops.compiled_step("reduce-overhead"))
    assert graphs == eager
    plain = loops.handwritten_loop(fresh(), *data, 5, step=loops.compiled_step())
    assert plain == [eager[-1]] * 5  # without the copy: the last loss, five times
