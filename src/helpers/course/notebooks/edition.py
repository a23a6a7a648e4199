"""A translated edition of the course, built from the English: ``python -m helpers edition zh``.

For every lesson and every homework student version it writes ``notebooks/<lang>/`` (homework
under ``notebooks/<lang>/homework/``): the same cells with the same ids, tags and metadata, the
code cells exactly as in English, and each Markdown cell's text from its translation
(:mod:`.translate`). Links written as the English notebook sees them are pointed at
the translated notebook where there is one (and at the English file otherwise). It also writes
``README.<locale>.md``: the README's translated sections and a course map of the translated lessons.

Nothing here is edited by hand: a test checks that the committed edition is what this writes.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat

from helpers.course import paths
from helpers.course.homework.markers import MANUAL_PLACEHOLDER, MANUAL_PLACEHOLDERS
from helpers.course.notebooks import translate
from helpers.course.notebooks.clean import clean

LOCALES = {"zh": "zh-CN"}
"""The languages with an edition, and the locale their README is named after."""

NOTES = {
    "zh": (
        "> **中文版**：本页由英文版生成，代码单元与英文版逐字相同，数字都来自你自己的运行。"
        "代码打印的结论也是中文；图中文字在装有中文字体时是中文；部分表头和少数演示性输出仍是英文。"
    )
}
"""A line added to each notebook's first cell, saying how the edition is made."""

WORDS = {
    "zh": {
        "map": "| 天 | 课程 | 运行时间（分钟，完整模式） | 作业 |\n| --- | --- | --- | --- |",
        "homework": "作业",
    }
}
"""The course map's words in each edition."""

LINK_RE = re.compile(r"(\]\()([^)\s]+)(\))")


def folder(lang: str) -> Path:
    """Where the edition's notebooks go: ``notebooks/<lang>/``."""
    return paths.NOTEBOOKS / lang


def target(source: Path, lang: str) -> Path:
    """The translated copy of an English notebook."""
    return folder(lang) / translate.relative(source)


def readme(lang: str) -> Path:
    return paths.readme(LOCALES[lang])


def lessons(lang: str = "zh") -> list[Path]:
    """The edition's lessons in teaching order: what ``make course`` runs besides the English."""
    return [target(p, lang) for p in paths.lessons() if target(p, lang).is_file()]


def _counterpart(path: Path, lang: str) -> Path:
    """The translated file standing for an English one (itself when there is none)."""
    if path == paths.README.resolve():
        return readme(lang)
    try:
        inside = path.relative_to(paths.NOTEBOOKS.resolve())
    except ValueError:
        return path
    translated = folder(lang) / inside
    known = {translate.relative(s) for s in translate.sources()}
    return translated if inside in known else path


def relink(text: str, source: Path, lang: str, anchors: dict[str, str]) -> str:
    """Point the relative links of a Markdown text, written as ``source`` sees them, at the files
    the translated copy should open, relative to where that copy is written."""
    here = source.resolve().parent
    written_in = target(source, lang).parent if source.suffix == ".ipynb" else paths.ROOT

    def fix(match: re.Match) -> str:
        link = match[2]
        if re.match(r"^[a-z][a-z+.-]*:|^#", link):  # a web address, or a place on the same page
            return match[0]
        name, _, place = link.partition("#")
        original = (here / name).resolve()
        new = original if original == source.resolve() else _counterpart(original, lang)
        if new != original and original == paths.README.resolve() and place:
            place = anchors.get(place, place)
        shown = Path(os.path.relpath(new, written_in)).as_posix()
        return f"{match[1]}{shown}{'#' + place if place else ''}{match[3]}"

    return LINK_RE.sub(fix, text)


def readme_anchors(lang: str) -> dict[str, str]:
    """English README anchor -> the translated README's anchor, for the translated sections."""
    found = {}
    for key, block in translate.load(paths.README, lang).items():
        first = block.text.splitlines()[0] if block.text else ""
        if first.startswith("## "):
            found[key] = translate.anchor(first[3:])
    return found


def notebook(source: Path, lang: str) -> tuple[nbformat.NotebookNode, int]:
    """The translated notebook of ``source`` and how many Markdown cells are still in English."""
    nb = nbformat.read(source, as_version=4)
    out = clean(nb)  # a working copy may hold a run's outputs
    blocks, anchors = translate.load(source, lang), readme_anchors(lang)
    english = 0
    for cell in out.cells:
        if cell.cell_type == "markdown" and translate.NOT_TRANSLATED.match(cell.source):
            cell.source = manual_cell(cell.source, lang)  # the marker stays, for the grader
            continue
        if cell.cell_type != "markdown":
            continue
        block = blocks.get(cell.id)
        if block is None or block.hash == "todo":
            english += 1
            text = cell.source
        else:
            text = block.text
        cell.source = relink(text, source, lang, anchors)
    first = next((c for c in out.cells if c.cell_type == "markdown"), None)
    if first is not None and lang in NOTES:
        first.source = f"{first.source}\n\n{NOTES[lang]}"
    return out, english


def manual_cell(source: str, lang: str) -> str:
    r"""A free-text answer cell of the edition: the English marker line (the grader reads it) and
    the edition's own placeholder (in Chinese: an answer in Chinese is welcome).

    >>> manual_cell("MANUAL day00.why (1 point)\n\n" + MANUAL_PLACEHOLDER, "zh").splitlines()[-1]
    '*在这里作答，替换这一行（可用中文作答）。*'
    """
    return source.replace(MANUAL_PLACEHOLDER, MANUAL_PLACEHOLDERS.get(lang, MANUAL_PLACEHOLDER))


def course_map(lang: str) -> str:
    """The translated lessons as a table (day, lesson, run time, homework), from the lessons."""
    rows = [WORDS[lang]["map"]]
    for source in paths.lessons():
        meta = nbformat.read(source, as_version=4).metadata.get("course", {})
        title = _title(source, lang) or meta.get("title", source.stem)
        day = meta.get("day", "")
        homework = paths.homework(f"day{paths.day_key(day)}_homework") if day != "" else None
        lesson = target(source, lang).relative_to(paths.ROOT).as_posix()
        cell = f"[{title}]({lesson})"
        work = ""
        if homework is not None and homework.is_file():
            where = target(homework, lang).relative_to(paths.ROOT).as_posix()
            work = f"[{WORDS[lang]['homework']}]({where})"
        rows.append(f"| {day} | {cell} | {meta.get('minutes', '')} | {work} |")
    return "\n".join(rows)


def _title(source: Path, lang: str) -> str | None:
    """A lesson's translated title: its header cell's first heading, after the day (``· ``)."""
    nb = nbformat.read(source, as_version=4)
    first = next((c for c in nb.cells if c.cell_type == "markdown"), None)
    block = translate.load(source, lang).get(first.id) if first is not None else None
    if block is None or block.hash == "todo" or not block.text.startswith("# "):
        return None
    return block.text.splitlines()[0][2:].split(" · ", 1)[-1].strip()


def readme_text(lang: str) -> str:
    """The translated README: its translated sections, in the English order, with the map."""
    blocks, anchors = translate.load(paths.README, lang), readme_anchors(lang)
    parts = []
    for key in translate.readme_sections(paths.README.read_text(encoding="utf-8")):
        if key in blocks and blocks[key].hash != "todo":
            text = blocks[key].text.replace("<!-- course-map -->", course_map(lang))
            parts.append(relink(text, paths.README, lang, anchors))
    if paths.GUIDE.is_file():  # the instructor guide's learner-facing sections, at the end
        guide = translate.load(paths.GUIDE, lang)
        for key in translate.units(paths.GUIDE):
            if key in guide and guide[key].hash != "todo":
                parts.append(relink(guide[key].text, paths.GUIDE, lang, anchors))
    return "\n\n".join(parts) + "\n"


def files(lang: str = "zh") -> tuple[dict[Path, str], int]:
    """Every file of the edition with the text it should hold, and how many Markdown cells are
    still in English."""
    if lang not in LOCALES:
        raise ValueError(f"no {lang!r} edition; the editions are: {', '.join(LOCALES)}")
    english = 0
    wanted: dict[Path, str] = {}
    for source in translate.sources():
        nb, left = notebook(source, lang)
        english += left
        wanted[target(source, lang)] = nbformat.writes(nb) + "\n"
    wanted[readme(lang)] = readme_text(lang)
    return wanted, english


def build(lang: str = "zh", *, check: bool = False) -> tuple[list[Path], int]:
    """Write (or with ``check``, only compare) the edition; returns the files that were out of
    date and how many Markdown cells are still in English."""
    wanted, english = files(lang)
    changed = []
    for path, text in wanted.items():
        now = path.read_text(encoding="utf-8") if path.is_file() else None
        if now != text:
            changed.append(path)
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    return changed, english


# ---- how the edition renders ---------------------------------------------------------------------


def rendered(markdown: str) -> str:
    """``markdown`` as the HTML copies render it: nbconvert's Markdown (mistune), which applies
    CommonMark's rules for emphasis, as JupyterLab's renderer does."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    return markdown2html_mistune(markdown)


def literal_asterisks(html: str) -> list[str]:
    """Each ``**`` a Markdown renderer left as text in ``html`` (code, scripts and styles left
    out), with the characters around it: emphasis that did not render.

    >>> literal_asterisks(rendered("**注意：**没有字体"))
    ['<p>**注意：**没有字体</p>']
    >>> literal_asterisks(rendered("**注意**：没有字体，`a**b` 是代码"))
    []
    """
    text = re.sub(r"<(code|pre|script|style)\b.*?</\1>", " ", html, flags=re.S | re.I)
    return [m.group(0) for m in re.finditer(r".{0,16}\*\*.{0,16}", text)]
