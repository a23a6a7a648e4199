"""Knobs on live experiments: labelled controls, a Run button, and an output that updates.

Every lesson that has a knob builds it with :func:`knob_panel`, which shows the result for the
default settings at once (so an executed copy of the notebook reads well without a kernel), then
re-runs the experiment whenever the button is pressed::

    knob_panel(measure_one, {"rows": widgets.IntSlider(...), "model": widgets.Dropdown(...)},
               title="Time one step")

Used on days 1, 2, 4, 5, 6, 7 and 8.
"""

from __future__ import annotations

import io
import sys
import traceback
from collections.abc import Callable
from contextlib import contextmanager

import ipywidgets as widgets
from IPython import get_ipython
from IPython.core.displaypub import DisplayPublisher
from IPython.display import display

from helpers.i18n import _


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
        description=_("run"),
        button_style="primary",
        tooltip=_("run the experiment with these settings"),
    )
    output = widgets.Output()

    def update(_change=None) -> None:
        button.disabled = True
        try:
            with drawing_into(output):
                run(**{name: control.value for name, control in controls.items()})
        finally:
            button.disabled = False

    button.on_click(update)
    panel = widgets.VBox(
        [widgets.HTML(f"<b>{title}</b>"), widgets.HBox([*controls.values(), button]), output]
    )
    panel.add_class("course-knob")  # its slide shows the panel without the cell's code (make lab)
    panel.button = button  # for tests and for notebooks that want to trigger a run
    display(panel)
    update()


@contextmanager
def drawing_into(output: widgets.Output):
    """What runs inside prints and displays into ``output``, replacing what it showed, and
    shows an error there too. The kernel sets the widget's outputs one by one as they come (not
    ``with output:``, whose capture asks a notebook executor to send the kernel a message per
    output while the cell runs: nbclient then sometimes misses the cell's reply and waits out
    its time limit; see the README's troubleshooting). Outside IPython it does nothing."""
    shell = get_ipython()
    if shell is None:
        yield
        return
    shown: list[dict] = []

    def add(item: dict) -> None:
        last = shown[-1] if shown else {}
        if item["output_type"] == "stream" and last.get("name") == item["name"]:
            shown[-1] = {**last, "text": last["text"] + item["text"]}
        else:
            shown.append(item)
        output.outputs = tuple(shown)

    class Publisher(DisplayPublisher):
        def publish(self, data, metadata=None, *args, **kwargs) -> None:
            add({"output_type": "display_data", "data": data, "metadata": metadata or {}})

        def clear_output(self, wait=False) -> None:
            shown.clear()
            output.outputs = ()

    class Stream(io.TextIOBase):
        def __init__(self, name: str) -> None:
            self.name = name

        def write(self, text: str) -> int:
            add({"output_type": "stream", "name": self.name, "text": text})
            return len(text)

    output.outputs = ()
    saved = shell.display_pub, sys.stdout, sys.stderr
    shell.display_pub, sys.stdout, sys.stderr = Publisher(), Stream("stdout"), Stream("stderr")
    try:
        yield
    except Exception as err:  # shown in the panel, as a cell shows it; the panel stays usable
        lines = traceback.format_exception(err)
        add({"output_type": "error", "ename": type(err).__name__, "evalue": str(err),
             "traceback": lines})  # fmt: skip
    finally:
        shell.display_pub, sys.stdout, sys.stderr = saved
