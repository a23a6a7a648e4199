"""Findings and tables: say() and the one table setting every lesson uses."""

from types import SimpleNamespace

import pandas as pd
import pytest
from IPython.core.formatters import DisplayFormatter

from helpers import show
from helpers.show import compare_guess, say

LONG = "the name contains 'GeForce', a consumer (gaming) line sold for games, not servers"


@pytest.fixture
def shell(monkeypatch):
    """A notebook's display machinery, without starting an IPython shell in the test process."""
    fake = SimpleNamespace(display_formatter=DisplayFormatter())
    monkeypatch.setattr("IPython.get_ipython", lambda: fake)
    with pd.option_context("display.max_colwidth", 50):  # restored after the test
        yield fake


def test_pandas_alone_cuts_long_text():
    with pd.option_context("display.max_colwidth", 50):
        assert LONG not in pd.DataFrame({"why": [LONG]})._repr_html_()


def test_readable_tables_shows_text_in_full_left_aligned_and_wrapping(shell):
    show.readable_tables()
    frame = pd.DataFrame({"tier": ["consumer"], "why": [LONG], "memory (GB)": [24]})
    html = shell.display_formatter.format(frame)[0]["text/html"]
    assert LONG in html
    name = html.split('class="dataframe ', 1)[1].split('"', 1)[0]
    # text columns 0 and 1 of 3, counted from the end of a row: 3rd and 2nd last; numbers alone
    assert f".{name} tbody td:nth-last-child(3), .{name} tbody td:nth-last-child(2) {{" in html
    assert "nth-last-child(1)" not in html
    assert "text-align: left; white-space: normal" in html


def test_an_index_spanning_rows_does_not_shift_the_columns():
    frame = pd.DataFrame(
        [("CPU", "name", "Xeon"), ("CPU", "cores", "2"), ("GPU", "none", LONG)],
        columns=["section", "item", "value"],
    ).set_index(["section", "item"])
    html = show.table_html(frame)
    assert 'rowspan="2"' in html  # the sparse index: fewer cells in some rows
    assert "tbody td:nth-last-child(1)" in html  # so columns are counted from the end


def test_tables_without_text_or_too_wide_are_left_as_pandas_shows_them():
    numbers = pd.DataFrame({"a": [1.5], "b": [2]})
    assert show.table_html(numbers) == numbers._repr_html_()
    wide = pd.DataFrame([["x"] * 30])
    with pd.option_context("display.max_columns", 20):
        assert show.table_html(wide) == wide._repr_html_()


def test_each_table_gets_its_own_style():
    frame = pd.DataFrame({"why": [LONG]})
    assert show.table_html(frame) != show.table_html(frame)


def test_outside_a_notebook_it_only_lifts_the_cut(monkeypatch):
    monkeypatch.setattr("IPython.get_ipython", lambda: None)
    with pd.option_context("display.max_colwidth", 50):
        show.readable_tables()
        assert pd.get_option("display.max_colwidth") is None


@pytest.mark.parametrize(
    ("guess", "measured", "ending"),
    [
        (83, 83, "close."),
        (60, 83, "close."),  # within a factor 1.5
        (40, 83, "2x too low."),
        (1000, 83, "12x too high."),
        (0, 83, "too low."),
        (0.5, 0.25, "2x too high."),
        ("cpu", "cpu", "right."),
        ("cuda", "cpu", "not this time."),
        (True, 1, "right."),  # a boolean is an answer, not a number
    ],
)
def test_compare_guess_wording_follows_the_numbers(guess, measured, ending):
    assert compare_guess(guess, measured).endswith(ending)


def test_no_guess_says_how_to_make_one():
    assert compare_guess(None, 3).startswith("No guess written")


def test_say_prints_outside_a_notebook(capsys):
    say("**bold** text")
    assert capsys.readouterr().out == "**bold** text\n"


def _html(markdown):
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    return markdown2html_mistune(markdown)  # what the HTML copies use; CommonMark's emphasis rules


def test_say_shows_strong_that_renders_next_to_chinese_punctuation(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.get_ipython", lambda: object())
    monkeypatch.setattr("IPython.display.display", shown.append)
    text = "**注意：**没有找到字体；原课程说这是**“底噪”**，共 **4** 个轮次"
    as_written = _html(text)  # pairs the wrong delimiters: 注意 bold up to 这是, then nested
    assert "<strong>注意：</strong>" not in as_written
    assert "<strong>“底噪”</strong>" not in as_written
    assert "**" in _html("**注意：**没有找到字体")  # alone, literal asterisks
    say(text)
    html = _html(shown[0].data)
    assert "**" not in html
    assert "<strong>注意：</strong>没有" in html and "<strong>“底噪”</strong>，" in html
    assert "<strong>4</strong>" in html


@pytest.mark.parametrize(
    "text",
    [
        "**4** epochs",
        "**Note:** on `a**b`, x",
        "**预测。** 下一个单元",
        "在 **{device}** 上训练了 **3 个轮次**。",
        "2**30 个 float32 数",
    ],
)
def test_markdown_that_renders_as_written_is_left_alone(text):
    assert show.renderable(text) == text


def test_code_in_a_table_cell_shows_as_code_not_as_backticks():
    """A table cell is not Markdown: its `code` is turned into <code> where the table is drawn."""
    frame = pd.DataFrame({"habit": ["`loss.item()` every step"], "cost": [1.5]})
    html = show.table_html(frame)
    assert "<code>loss.item()</code> every step" in html and "`" not in html
    styled = show.localised(frame, lang="en").to_html()
    assert "<code>loss.item()</code> every step" in styled and "`" not in styled
    assert frame["habit"][0] == "`loss.item()` every step"  # the data keep their text
    odd = show.localised(pd.DataFrame({"why": ["a < b & `c`"]}), lang="en").to_html()
    assert "a &lt; b &amp; <code>c</code>" in odd  # text is escaped, not read as HTML
