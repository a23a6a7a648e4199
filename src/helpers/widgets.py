"""Knobs on live experiments: labelled controls, a Run button, and an output that updates.

Every lesson that has a knob builds it with :func:`knob_panel`, which shows the result for the
default settings at once (so an executed copy of the notebook reads well without a kernel), then
re-runs the experiment whenever the button is pressed::

    knob_panel(measure_one, {"rows": widgets.IntSlider(...), "model": widgets.Dropdown(...)},
               title="Time one step")

Used on days 1, 2, 4, 5, 6 and 7.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets
from IPython.display import display

from helpers.messages import text


def knob_panel(run: Callable[..., object], controls: dict[str, widgets.Widget], title: str) -> None:
    """Show ``controls`` with a Run button; ``run(**values)`` draws into the panel's output.

    ``run`` is called once right away with the default values, then on every click. While it runs
    the button is disabled, so a slow experiment is not started twice. Returns nothing, so that a
    notebook cell ending with it shows the panel once.
    """
    if not controls:
        raise ValueError("knob_panel needs at least one control")
    for name, control in controls.items():
        if not getattr(control, "description", ""):
            control.description = name  # every control is labelled
    button = widgets.Button(
        description=text("widgets.run"),
        button_style="primary",
        tooltip=text("widgets.run.tooltip"),
    )
    output = widgets.Output()

    def update(_=None) -> None:
        button.disabled = True
        try:
            with output:
                output.clear_output(wait=True)
                run(**{name: control.value for name, control in controls.items()})
        finally:
            button.disabled = False

    button.on_click(update)
    panel = widgets.VBox(
        [widgets.HTML(f"<b>{title}</b>"), widgets.HBox([*controls.values(), button]), output]
    )
    panel.button = button  # for tests and for notebooks that want to trigger a run
    display(panel)
    update()
