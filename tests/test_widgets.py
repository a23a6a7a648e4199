import ipywidgets as widgets
import pytest

import helpers.widgets
from helpers.widgets import knob_panel


@pytest.fixture
def shown(monkeypatch):
    """What knob_panel displays."""
    panels = []
    monkeypatch.setattr(helpers.widgets, "display", panels.append)
    return panels


def test_panel_runs_the_defaults_at_once_and_again_on_each_click(shown):
    calls = []
    rows = widgets.IntSlider(value=100, min=10, max=1000)
    model = widgets.Dropdown(options=["small", "wide"], value="small", description="model")
    assert (
        knob_panel(lambda **v: calls.append(v), {"rows": rows, "model": model}, title="Try") is None
    )
    (panel,) = shown
    assert calls == [{"rows": 100, "model": "small"}]
    assert rows.description == "rows"  # unlabelled controls get their name
    rows.value, model.value = 500, "wide"
    panel.button.click()
    assert calls[-1] == {"rows": 500, "model": "wide"}
    assert not panel.button.disabled


def test_a_failing_experiment_raises_its_error(shown):
    def broken(**values):
        raise RuntimeError("experiment failed")

    with pytest.raises(RuntimeError):
        knob_panel(broken, {"n": widgets.IntSlider()}, title="Broken")


def test_panel_needs_a_control(shown):
    with pytest.raises(ValueError, match="at least one control"):
        knob_panel(lambda: None, {}, title="Nothing")
