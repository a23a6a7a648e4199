"""The standard-code fixes compute the same losses and train the same weights as the lesson's loop
(day 5b, section 4): a fix that changed the training would not be a fix."""

import pytest
import torch

from helpers import paths, standard_fixes
from helpers.data import load_iris_split
from helpers.models import IrisMLP
from helpers.training import train

EPOCHS = 200
LOSSES = {"rel": 1e-5, "abs": 1e-6}
WEIGHTS = {"rtol": 1e-4, "atol": 1e-4}


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


@pytest.mark.parametrize("loop", [standard_fixes.kept_loop, standard_fixes.fused_loop])
def test_eager_fixes_train_as_the_lesson_does(loop, data, reference):
    model = fresh()
    assert loop(model, *data, EPOCHS) == pytest.approx(reference[0], **LOSSES)
    for name, tensor in model.state_dict().items():
        torch.testing.assert_close(tensor, reference[1][name], **WEIGHTS)


@pytest.mark.slow
def test_the_compiled_model_and_step_train_as_the_lesson_does_and_restart(
    data, reference, monkeypatch
):
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(paths.COMPILE_CACHE))
    model = fresh()
    start = {k: v.clone() for k, v in model.state_dict().items()}
    compiled = standard_fixes.Compiled(model)
    assert compiled.loop(*data, EPOCHS) == pytest.approx(reference[0], rel=1e-4, abs=1e-5)
    again = compiled.restart(start).loop(*data, EPOCHS)  # the same network again, compiled once
    assert again == pytest.approx(reference[0], rel=1e-4, abs=1e-5)
    for name, tensor in model.state_dict().items():
        torch.testing.assert_close(tensor, reference[1][name], **WEIGHTS)


def test_cuda_graphs_say_they_need_an_nvidia_gpu(data):
    with pytest.raises(ValueError, match="CUDA graphs need an NVIDIA GPU; the data are on cpu"):
        standard_fixes.graphed_loop(fresh(), *data, 10)


def test_the_variants_that_need_a_gpu_say_so():
    needs = {name: kind for name, kind in standard_fixes.STANDARD.items() if kind}
    assert set(needs.values()) == {"cuda"} and len(needs) == 2
