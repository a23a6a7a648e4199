"""Showing findings in a notebook: prose with live numbers, rendered as Markdown, and tables
whose text is readable (every day).

A lesson writes what it found as a sentence whose numbers come from the run::

    say(_("One recording costs **{us:.1f} µs**.").format(us=fit.b.value * 1e6))

so the executed notebook reads as prose, and no number in it was typed in advance. Outside a
notebook (a script, a test) the text is printed as it is.

Every lesson calls :func:`readable_tables` once, in its first cell: the one display setting for
tables, kept here so that all lessons show them alike.
"""

from __future__ import annotations

import html
import itertools
import re
import unicodedata
import uuid

from helpers.i18n import _, language, plot_language, word

_tables = itertools.count()
_PAGE = uuid.uuid4().hex[:8]  # keeps two runs' tables apart in one page (an HTML copy, a reload)


def say(markdown: str) -> None:
    """Show ``markdown`` as formatted text in a notebook (printed as is elsewhere).

    >>> say("**4** epochs")
    **4** epochs
    """
    try:
        from IPython import get_ipython
        from IPython.display import Markdown, display
    except ImportError:  # a machine without IPython (a rented GPU box running a script)
        print(markdown)
        return
    if get_ipython() is None:
        print(markdown)
    else:
        display(Markdown(renderable(markdown)))


def _opens_closes(before: str, after: str) -> tuple[bool, bool]:
    """Whether a ``**`` between the characters ``before`` and ``after`` ("" at the edge of a
    line) can open and can close emphasis, by CommonMark's flanking rules (which JupyterLab's
    and nbconvert's Markdown follow): punctuation is Unicode's (categories P and S)."""

    def space(c: str) -> bool:
        return c == "" or c.isspace()

    def punctuation(c: str) -> bool:
        return c != "" and unicodedata.category(c)[0] in "PS"

    opens = not space(after) and (not punctuation(after) or space(before) or punctuation(before))
    closes = not space(before) and (not punctuation(before) or space(after) or punctuation(after))
    return opens, closes


_CODE = re.compile(r"`[^`]*`")


def renderable(markdown: str) -> str:
    """``markdown`` with each ``**strong**`` that CommonMark would show as literal asterisks
    written as ``<strong>...</strong>`` instead; the rest is left as it is.

    CommonMark does not open or close emphasis between a letter and punctuation on the inside
    (``**注意：**没有``: the closing ``**`` follows ``：`` and precedes ``没``), which Chinese
    writes all the time, and the numbers and words a sentence is formatted with can put any
    character there. A sentence that renders as written is not touched.

    >>> renderable("**注意：**没有找到字体")
    '<strong>注意：</strong>没有找到字体'
    >>> renderable("是**“底噪”**的问题；**4** 个轮次")
    '是<strong>“底噪”</strong>的问题；**4** 个轮次'
    >>> renderable("**Note:** `a**b` stays")
    '**Note:** `a**b` stays'
    """
    lines = []
    for line in markdown.split("\n"):
        code = [m.span() for m in _CODE.finditer(line)]
        marks = [
            m.start()
            for m in re.finditer(r"(?<!\*)\*\*(?!\*)", line)
            if not any(start <= m.start() < end for start, end in code)
        ]
        for i, j in reversed(list(zip(marks[::2], marks[1::2], strict=False))):
            opens, _closes = _opens_closes(line[i - 1 : i], line[i + 2 : i + 3])
            _opens, closes = _opens_closes(line[j - 1 : j], line[j + 2 : j + 3])
            if not (opens and closes):
                line = f"{line[:i]}<strong>{line[i + 2 : j]}</strong>{line[j + 2 :]}"
        lines.append(line)
    return "\n".join(lines)


def compare_guess(
    guess, measured, what: str = "", *, close: float = 1.5, fmt: str | None = None
) -> str:
    """A line comparing a learner's prediction with what the run measured (predict-then-run).

    Numbers are close when they are within a factor ``close`` of each other; anything else
    (a word, a choice) must be equal. ``None`` means no guess was written. ``fmt`` formats both
    numbers (e.g. ``"{:.2f} s"``); by default whole numbers get thousands separators. The
    sentence is in the course's language (:mod:`helpers.i18n`); the examples are English.

    >>> compare_guess(80, 83, "parameters")
    'You guessed 80 parameters; the run measured 83: close.'
    >>> compare_guess(1000, 83, "parameters")
    'You guessed 1,000 parameters; the run measured 83: 12x too high.'
    >>> compare_guess("cpu", "mps")
    "You guessed 'cpu'; the run gave 'mps': not this time."
    >>> compare_guess(5000, "not reached in the sizes measured", "rows")
    'You guessed 5000 rows; the run: not reached in the sizes measured.'
    >>> compare_guess(None, 83)
    'No guess written: write one in the cell above and run it again, then this cell.'
    """
    if guess is None:
        return _("No guess written: write one in the cell above and run it again, then this cell.")
    unit = f" {word(what)}" if what else ""
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (guess, measured))
    if not numbers:
        if isinstance(guess, str) != isinstance(measured, str):  # a number against words
            return _("You guessed {guess}; the run: {measured}.").format(
                guess=f"{guess}{unit}", measured=measured
            )
        verdict = _("right") if guess == measured else _("not this time")
        said = {"guess": f"{guess!r}{unit}", "measured": repr(measured)}
        return _("You guessed {guess}; the run gave {measured}: {verdict}.").format(
            verdict=verdict, **said
        )
    shown = fmt.format if fmt else _number
    said = {"guess": f"{shown(guess)}{unit}", "measured": shown(measured)}
    if guess == measured or (
        guess > 0 and measured > 0 and max(guess, measured) / min(guess, measured) <= close
    ):
        return _("You guessed {guess}; the run measured {measured}: close.").format(**said)
    if guess <= 0 or measured <= 0:
        return (
            _("You guessed {guess}; the run measured {measured}: too high.")
            if guess > measured
            else _("You guessed {guess}; the run measured {measured}: too low.")
        ).format(**said)
    ratio = max(guess, measured) / min(guess, measured)
    return (
        _("You guessed {guess}; the run measured {measured}: {ratio:.0f}x too high.")
        if guess > measured
        else _("You guessed {guess}; the run measured {measured}: {ratio:.0f}x too low.")
    ).format(ratio=ratio, **said)


def _number(value: float) -> str:
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:.3g}"


def text_columns(frame) -> list[int]:
    """The positions of a DataFrame's columns that hold text (not numbers, dates or flags).

    >>> import pandas as pd
    >>> text_columns(pd.DataFrame({"card": ["T4"], "memory (GB)": [16], "why": ["sold for..."]}))
    [0, 2]
    """
    import pandas as pd

    return [
        i
        for i, (_name, column) in enumerate(frame.items())
        if pd.api.types.is_object_dtype(column) or pd.api.types.is_string_dtype(column)
    ]


TEXT_CELL = {
    "text-align": "left",
    "white-space": "normal",
    "overflow-wrap": "anywhere",
    "min-width": "8em",
    "max-width": "36em",
}
"""How a table's text cells are shown: left-aligned, wrapping within a readable width."""


_CODE = re.compile(r"`([^`<>]+)`")


def code_marks(page: str) -> str:
    """HTML with each `` `inline code` `` in its text shown as code, as Markdown shows it (a table
    cell is not Markdown: without this its backticks show as they are).

    >>> code_marks("<td>call `model.to(device)`, not `forward`</td>")
    '<td>call <code>model.to(device)</code>, not <code>forward</code></td>'
    """
    return _CODE.sub(r"<code>\1</code>", page)


def table_html(frame) -> str | None:
    """A DataFrame as pandas shows it in a notebook, with its text columns left-aligned and
    wrapping (within a readable width) instead of right-aligned on one line, and the
    `` `code` `` in its text shown as code."""
    import pandas as pd

    page = frame._repr_html_()
    page = page and code_marks(page)
    limit = pd.get_option("display.max_columns")
    columns = text_columns(frame)
    if page is None or not columns or (limit and frame.shape[1] > limit):  # "..." shifts columns
        return page
    name = f"course-table-{_PAGE}-{next(_tables)}"
    last = frame.shape[1]  # counted from the end of each row: an index may span several rows
    cells = ", ".join(f".{name} tbody td:nth-last-child({last - i})" for i in columns)
    rules = "; ".join(f"{key}: {value}" for key, value in TEXT_CELL.items())
    style = f"{cells} {{{rules};}}"
    if frame.columns.nlevels == 1:  # their headings too (nested headings span columns)
        heads = ", ".join(
            f".{name} thead tr:first-child th:nth-last-child({last - i})" for i in columns
        )
        style += f" {heads} {{text-align: left;}}"
    style = f"<style>{style}</style>"
    return style + page.replace('class="dataframe"', f'class="dataframe {name}"', 1)


def localised(
    frame, formats=None, na_rep: str | None = None, lang: str | None = None, labels: bool = True
):
    """``frame`` styled for a notebook, its words in the course's language: the column headers,
    the row labels, the index's and the columns' names and the text cells go through
    :func:`word`. Only what is shown changes; the frame keeps its English keys, which the
    lesson's code indexes by. Text cells are shown as :func:`table_html` shows them.
    ``formats`` are ``Styler.format``'s (keyed by the English column names), ``na_rep`` too;
    ``labels=False`` shows the row labels as they are (keys such as ``physical_cores``). Text
    shows `` `code` `` as code, as :func:`table_html` does.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"habit": ["rows"], "fix": ["threads"], "cost (s)": [2.0]})
    >>> html = localised(frame.set_index("habit"), {"cost (s)": "{:.1f}"}, lang="zh").to_html()
    >>> [word in html for word in (">行</th>", ">个线程</td>", ">2.0</td>")]
    [True, True, True]
    >>> frame["habit"][0]  # the frame itself is unchanged
    'rows'
    """

    def words(value):  # text as the table shows it: escaped, its `code` as code
        return code_marks(html.escape(word(value, lang))) if isinstance(value, str) else value

    names = [words(name) for name in frame.index.names]
    column_names = [words(name) for name in frame.columns.names]
    styler = frame.rename_axis(index=names, columns=column_names).style
    texts = [frame.columns[i] for i in text_columns(frame)]
    styler = styler.format(words, subset=texts, na_rep=na_rep)
    if formats is not None:  # on their own columns only (a dict of formats resets the others)
        numbers = [c for c in frame.columns if c not in texts]
        subset = list(formats) if isinstance(formats, dict) else numbers
        styler = styler.format(formats, subset=subset, na_rep=na_rep)
    if texts:
        styler = styler.set_properties(subset=texts, **TEXT_CELL)
        heads = {c: [{"selector": "th", "props": "text-align: left;"}] for c in texts}
        styler = styler.set_table_styles(heads, overwrite=False)
    if labels:
        styler = styler.format_index(words, axis=0)
    return styler.format_index(words, axis=1)


def font_advice() -> str:
    """How to install a font that draws Chinese in plots (until then their labels are English)."""
    return _(
        "**Note:** No font with Chinese characters was found, so plots keep their English "
        "labels. Install one, then restart the kernel: Debian/Ubuntu "
        "`apt-get install fonts-noto-cjk` (with `sudo` where you are not root), Fedora "
        "`dnf install google-noto-sans-cjk-fonts`, conda `conda install -c conda-forge "
        "font-ttf-noto-cjk`; macOS (PingFang SC) and Windows (Microsoft YaHei) have one already. "
        "If you just installed one, delete matplotlib's font cache (`matplotlib.get_cachedir()`)."
    )


def readable_tables() -> None:
    """Show every table's text in full, wrapped, never cut, and let figures draw the course's
    language; call it once per lesson.

    pandas cuts a text cell at 50 characters by default ("is 99% of a run that records eve...").
    This lifts that limit, and in a notebook shows every DataFrame through :func:`table_html`,
    so the HTML copies of ``make course`` read the same as JupyterLab.

    >>> import pandas as pd
    >>> readable_tables()
    >>> text = "the sentence that carries the point, longer than fifty characters"
    >>> text in repr(pd.DataFrame({"why": [text]}))
    True
    >>> pd.reset_option("display.max_colwidth")
    """
    import pandas as pd

    pd.set_option("display.max_colwidth", None)
    if plot_language() != language():  # Chinese without a font that can draw it
        say(font_advice())
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["text/html"].for_type(pd.DataFrame, table_html)
