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


def test_in_a_kernel_the_panel_s_outputs_are_set_in_order_and_an_error_is_shown(shown, monkeypatch):
    """In IPython the kernel sets the Output widget's outputs itself, as they come, in order;
    a failing run shows its error there and leaves the panel usable."""
    shell = type("Shell", (), {"display_pub": "the kernel's"})()
    monkeypatch.setattr(helpers.widgets, "get_ipython", lambda: shell)

    def experiment(n):
        print("first", n)
        shell.display_pub.publish({"text/plain": "a figure"})
        print("second")
        if n > 1:
            raise RuntimeError("experiment failed")

    slider = widgets.IntSlider(value=1)
    knob_panel(experiment, {"n": slider}, title="Try")
    (panel,) = shown
    output = panel.children[-1]
    assert [o["output_type"] for o in output.outputs] == ["stream", "display_data", "stream"]
    assert output.outputs[0]["text"] == "first 1\n" and shell.display_pub == "the kernel's"
    slider.value = 2
    panel.button.click()  # replaces what the panel showed
    assert output.outputs[0]["text"] == "first 2\n"
    assert output.outputs[-1]["output_type"] == "error" and not panel.button.disabled
    assert output.outputs[-1]["evalue"] == "experiment failed"
