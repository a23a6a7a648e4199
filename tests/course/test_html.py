"""The HTML copies ``make course`` writes load nothing from another host (helpers.course.notebooks
.html). Every lesson's copy is checked where the lessons run (tests/course/test_notebooks.py);
tests/course/test_browser.py opens one with the network off."""

import re

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from helpers.course import paths
from helpers.course.notebooks import html


@pytest.mark.parametrize(
    "page, found",
    [
        ('<script src="https://cdn.example/require.js"></script>', "cdn.example"),
        ('<script src="//cdn.example/x.js"></script>', "cdn.example"),
        ('<link rel="stylesheet" href="http://fonts.example/a.css">', "fonts.example"),
        ('<img srcset="a.png 1x, https://img.example/b.png 2x">', "img.example"),
        ("<style>@import 'https://fonts.example/css';</style>", "fonts.example"),
        ('<style>p { background: url("https://img.example/p.png") }</style>', "img.example"),
        ('<div style="background: url(https://img.example/p.png)"></div>', "img.example"),
        ("<script>s.src = 'https://unpkg.example/embed.js';</script>", "unpkg.example"),
        ('<script type="module">import("https://cdn.example/m.mjs")</script>', "cdn.example"),
        ('<script type="text/plain" data-jupyter-widgets-cdn="https://cdn.example/">', "cdn."),
    ],
)
def test_a_request_to_another_host_is_found(page, found):
    assert any(found in request for request in html.remote_requests(page))


def test_links_comments_data_and_local_files_are_not_requests():
    page = """<a href="https://pytorch.org">PyTorch</a>
    <style>/* @import url('https://fonts.example/css'); */ .x { background: url(data:,AA) }</style>
    <script type="text/plain">var cdn = "https://cdn.example/";</script>
    <script type="application/vnd.jupyter.widget-state+json">{"url": "https://x.example"}</script>
    <img src="data:image/png;base64,AA"><script src="renderer.js"></script>
    <svg xmlns="http://www.w3.org/2000/svg"><use href="#icon"/></svg>"""
    assert html.remote_requests(page) == []


def knob_notebook() -> nbformat.NotebookNode:
    """A notebook as an executed lesson leaves it: a hidden set-up cell, and a widget whose
    output holds Markdown (as a knob's result does), its state saved in the metadata."""
    output_model = {
        "model_module": "@jupyter-widgets/output", "model_module_version": "1.0.0",
        "model_name": "OutputModel",
        "state": {"outputs": [{"output_type": "display_data", "metadata": {},
                               "data": {"text/markdown": "**11.8 GFLOP/s**", "text/plain": "x"}}]},
    }  # fmt: skip
    setup = new_code_cell("# Starts the course in a cloud notebook.\nimport sys\nprint(1)")
    setup.metadata["jupyter"] = {"source_hidden": True}
    view = {"model_id": "m1", "version_major": 2, "version_minor": 0}
    knob = new_code_cell(
        "knob_panel(...)",
        outputs=[new_output("display_data", {"application/vnd.jupyter.widget-view+json": view})],
    )
    nb = new_notebook(cells=[new_markdown_cell("# Day 9"), setup, knob])
    nb.metadata["widgets"] = {
        html.WIDGET_STATE: {"state": {"m1": output_model}, "version_major": 2, "version_minor": 0}
    }
    return nb


def test_a_copy_inlines_the_widget_renderer_and_loads_nothing_remote():
    page = html.export(knob_notebook())
    assert html.remote_requests(page) == []
    renderer = html.RENDERER.read_text(encoding="utf-8")
    assert renderer in page  # the whole renderer, in the page itself
    rest = page.replace(renderer, "")
    assert "require" not in rest and "mathjax" not in rest.lower() and "mermaid" not in rest
    # the widget's Markdown is drawn as HTML for the renderer, which has no Markdown parser
    assert "<strong>11.8 GFLOP" in page
    # the hidden set-up cell is folded, its first line shown
    folded = re.search(r'<details class="course-hidden-input">\s*<summary>([^<]*)</summary>', page)
    assert folded and folded[1] == "# Starts the course in a cloud notebook."


def test_the_saved_notebook_itself_is_not_changed():
    nb = knob_notebook()
    html.export(nb)
    outputs = nb.metadata["widgets"][html.WIDGET_STATE]["state"]["m1"]["state"]["outputs"]
    assert "text/html" not in outputs[0]["data"]


def test_the_vendored_renderer_is_the_pinned_release():
    text = html.RENDERER.read_text(encoding="utf-8")
    assert len(text) > 1_000_000 and "jupyter-widgets" in text
    assert "</script" not in text.lower()  # it is inlined in a <script> element
    assert html.RENDERER.with_suffix(".LICENSE.txt").is_file()
    assert "1.0.15" in html.RENDERER_PACKAGE and html.RENDERER_INTEGRITY.startswith("sha512-")


NOTEBOOKS = paths.lessons() + paths.masters()
TEX = re.compile(r"(?<![\\$])\$[^$\s][^$\n]*?\$(?!\d)|\\\(|\\\[|\$\$")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_lessons_hold_no_tex_or_mermaid_the_copies_would_need_a_cdn_for(path):
    for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
        if cell.cell_type == "markdown":
            assert not TEX.search(cell.source), f"cell {index}: TeX needs MathJax, not shipped"
            assert "```mermaid" not in cell.source, f"cell {index}: Mermaid is not shipped"
