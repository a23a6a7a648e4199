import pytest
import torch

import helpers.timing
from helpers.data import load_iris_split
from helpers.models import MLP, IrisMLP, mlp
from helpers.training import train


@pytest.fixture
def iris():
    return load_iris_split()


def test_iris_mlp_shape_and_parameters():
    model = IrisMLP()
    assert model(torch.zeros(5, 4)).shape == (5, 3)
    assert sum(p.numel() for p in model.parameters()) == 4 * 10 + 10 + 10 * 3 + 3
    assert IrisMLP(hidden=32).fc1.out_features == 32


def test_sizes_come_in_the_order_data_flows():
    model = MLP(13, 16, 2)
    assert (model.fc1.in_features, model.fc1.out_features, model.fc2.out_features) == (13, 16, 2)


def test_mlp_has_the_widths_asked_for():
    model = mlp((4, 512, 512, 3))
    assert [m.out_features for m in model if isinstance(m, torch.nn.Linear)] == [512, 512, 3]
    assert model(torch.zeros(2, 4)).shape == (2, 3)
    with pytest.raises(ValueError, match="at least two positive whole numbers"):
        mlp((4,))


def test_iris_mlp_rejects_a_bad_width():
    with pytest.raises(ValueError, match=r"positive whole numbers, got \(4, 0, 3\)"):
        IrisMLP(hidden=0)


@pytest.mark.parametrize(
    ("record_every", "recorded"), [(None, []), (1, list(range(10))), (4, [0, 4, 8]), (100, [0])]
)
def test_record_every_records_the_lesson_s_epochs(iris, record_every, recorded):
    X, _, y, _ = iris
    result = train(IrisMLP(), X, y, 10, record_every=record_every, progress=False)
    assert result.recorded_epochs == recorded
    assert result.recordings == len(recorded)


def test_training_lowers_the_loss_and_matches_a_plain_loop(iris):
    X, _, y, _ = iris
    torch.manual_seed(0)
    model = IrisMLP()
    reference = IrisMLP()
    reference.load_state_dict(model.state_dict())
    result = train(model, X, y, 300, record_every=100, progress=False)
    assert result.final_loss < result.losses[0]
    assert result.seconds > 0

    optimizer = torch.optim.SGD(reference.parameters(), lr=0.01)
    for _ in range(300):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(reference(X), y)
        loss.backward()
        optimizer.step()
    assert result.final_loss == pytest.approx(loss.item(), rel=1e-6)


def test_training_synchronises_the_device_around_the_loop(iris, monkeypatch):
    seen = []
    monkeypatch.setattr(helpers.timing, "synchronize", lambda device: seen.append(str(device)))
    X, _, y, _ = iris
    train(IrisMLP(), X, y, 3, progress=False)
    assert seen == ["cpu", "cpu"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"epochs": 0}, "epochs must be a positive integer, got 0"),
        ({"epochs": 2.5}, "epochs must be a positive integer, got 2.5"),
        ({"epochs": 5, "record_every": 0}, "record_every must be a positive integer or None"),
    ],
)
def test_bad_arguments(iris, kwargs, message):
    X, _, y, _ = iris
    with pytest.raises(ValueError, match=message):
        train(IrisMLP(), X, y, progress=False, **kwargs)


def test_model_and_data_on_different_devices(iris):
    X, _, y, _ = iris
    model = IrisMLP().to("meta")  # PyTorch's placeholder device stands in for a GPU here
    with pytest.raises(ValueError, match=r"different devices \(cpu, meta\).*model.to\(device\)"):
        train(model, X, y, 1, progress=False)


@pytest.mark.parametrize("record_every", [None, 1, 7])
def test_the_loop_shown_on_day_0_is_the_helper_s_loop(iris, record_every):
    """Day 0 shows the lesson's loop in full; train() must stay the same loop."""
    import nbformat

    from helpers import paths

    lesson = nbformat.read(paths.NOTEBOOKS / "day00_setup.ipynb", 4)
    (cell,) = [
        c
        for c in lesson.cells
        if c.source.lstrip().startswith("import torch") and "def lesson_loop" in c.source
    ]
    namespace = {}
    exec(cell.source, namespace)
    X, _, y, _ = iris
    torch.manual_seed(0)
    shown = namespace["lesson_loop"](IrisMLP(), X, y, 30, record_every=record_every)
    torch.manual_seed(0)
    helper = train(IrisMLP(), X, y, 30, record_every=record_every, progress=False)
    assert shown == helper.losses


def test_a_loop_by_hand_is_said_to_record_the_same_losses_or_different_ones(monkeypatch):
    from helpers.day00 import same_losses

    monkeypatch.setenv("COURSE_LANG", "en")
    losses = [1.0986, 1.0412, 0.9873]
    assert "the same losses" in same_losses([v + 1e-7 for v in losses], losses)
    assert "DIFFERENT" in same_losses([1.0986, 1.0412, 0.9901], losses)  # one step went astray
    assert "DIFFERENT" in same_losses(losses[:2], losses)  # recorded at other epochs
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert same_losses(losses, losses) == "上面的循环与 `train` 记录的损失相同。"


def test_the_training_notes_carry_the_run_s_numbers(monkeypatch):
    from helpers.day00 import loss_note, trained_note
    from helpers.training import TrainResult

    monkeypatch.setenv("COURSE_LANG", "en")
    result = TrainResult([1.0986, 0.0521], [0, 1960], 0.91, 0.0498, "cpu")
    assert trained_note(result, 2000) == (
        "Trained **2000 epochs** on **cpu** in **0.91 s** (455 µs per epoch)."
    )
    assert "from **1.099** to **0.050**; accuracy on the 30 test flowers is **97%**" in loss_note(
        result, 0.9667, 30
    )
