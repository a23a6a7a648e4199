"""Translations of the course's prose, kept beside the English: ``python -m helpers translate``.

The English notebooks are the source. Each lesson's and each homework's translated Markdown lives
in one plain-text file per notebook, ``i18n/<lang>/<name>.md`` (homework under ``homework/``),
one block per Markdown cell::

    <!-- cell day00setup-01 en=3f1c0a9b27d4 -->
    ## 1. 环境报告
    ...

The header names the cell (by its id) and holds a short hash of the English text the block
translates. When someone edits that English cell the hash no longer matches and the block is
*stale*; a Markdown cell with no block is *missing*; a block whose cell is gone is an *orphan*.
:func:`check` lists all three, and a test fails on any of them, so a translation cannot silently
fall behind.

``MANUAL`` answer cells of the homework are not translated: the grader and the learner's answer
need them exactly as they are. ``README.md``'s sections are translated the same way
(``i18n/<lang>/README.md``, one block per ``##`` section, keyed by the section's anchor), but
only the learner-facing ones: a section without a block is simply left out. The instructor
guide's learner-facing sections (``LEARNER_GUIDE``: how homework is handed in, graded and read)
are translated the same way (``i18n/<lang>/GUIDE.md``) and go into the translated README; each of
them must have a block, so a changed English sentence there is reported as stale too.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from helpers.course import paths

I18N = paths.I18N
HEADER_RE = re.compile(r"^<!-- cell (?P<key>[\w.-]+) en=(?P<hash>[0-9a-f]{12}|todo) -->$")
PREAMBLE = (
    "<!-- {lang} translation of {source}: one block per Markdown cell. Edit the text under a\n"
    "     header, keep the header line; `python -m helpers translate --check` lists stale ones. -->"
)
TERMS = "terms.md"
NOT_TRANSLATED = re.compile(r"^MANUAL\b")  # the grader's answer cells stay as they are


def english_hash(text: str) -> str:
    """The short hash of an English text that a block records (trailing spaces ignored)."""
    normal = "\n".join(line.rstrip() for line in text.strip().splitlines())
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:12]


@dataclass
class Block:
    """One translated cell: its key (the cell id), the English hash it translates, its text."""

    key: str
    hash: str
    text: str


def parse(text: str) -> dict[str, Block]:
    """The blocks of a translation file, by key (a repeated key is an error)."""
    blocks: dict[str, Block] = {}
    current: Block | None = None
    lines: list[str] = []

    def close() -> None:
        if current is not None:
            current.text = "\n".join(lines).strip("\n")
            blocks[current.key] = current

    for line in text.splitlines():
        if match := HEADER_RE.match(line):
            close()
            if match["key"] in blocks:
                raise ValueError(f"cell {match['key']} is translated twice")
            current, lines = Block(match["key"], match["hash"], ""), []
        elif current is not None:
            lines.append(line)
    close()
    return blocks


def render(blocks: list[Block], lang: str, source: str) -> str:
    """A translation file's text: the preamble, then each block under its header."""
    parts = [PREAMBLE.format(lang=lang, source=source)]
    for block in blocks:
        parts.append(f"<!-- cell {block.key} en={block.hash} -->\n{block.text.strip()}")
    return "\n\n".join(parts) + "\n"


# ---- what gets translated --------------------------------------------------------------------


def sources() -> list[Path]:
    """The English notebooks that have translations: the lessons and the homework students see."""
    return paths.lessons() + sorted(paths.HOMEWORK.glob("day*_homework.ipynb"))


def relative(source: Path) -> Path:
    """Where a source sits below ``notebooks/`` (``day00_setup.ipynb``, ``homework/...``)."""
    return source.resolve().relative_to(paths.NOTEBOOKS)


LEARNER_GUIDE = ("homework-release-collect-grade",)
"""The instructor guide's sections a learner needs, by anchor: the translated README holds them."""


def texts() -> list[Path]:
    """README.md and the instructor guide (when the course has one): translated by section."""
    return [paths.README] + ([paths.GUIDE] if paths.GUIDE.is_file() else [])


def translation_file(source: Path, lang: str) -> Path:
    """The translation file of an English notebook (or of README.md, or of the guide)."""
    if source.resolve() in {t.resolve() for t in texts()}:
        return I18N / lang / source.name
    return (I18N / lang / relative(source)).with_suffix(".md")


def units(source: Path) -> dict[str, str]:
    """The English texts to translate in ``source``, by key, in order."""
    if source.resolve() == paths.README.resolve():
        return readme_sections(source.read_text(encoding="utf-8"))
    if source.resolve() == paths.GUIDE.resolve():
        sections = readme_sections(source.read_text(encoding="utf-8"))
        return {key: sections[key] for key in LEARNER_GUIDE if key in sections}
    nb = nbformat.read(source, as_version=4)
    return {
        cell.id: cell.source
        for cell in nb.cells
        if cell.cell_type == "markdown" and not NOT_TRANSLATED.match(cell.source)
    }


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: ``Without make (Windows)`` -> ``without-make-windows``."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


MAP_RE = re.compile(r"<!-- course-map:start -->.*?<!-- course-map:end -->", re.S)


def readme_sections(text: str) -> dict[str, str]:
    """README.md by ``##`` section: ``top`` (before the first), then each section's anchor.

    The generated course map (between its markers) reads as ``<!-- course-map -->``: the run
    times in it change with every ``make course``, which is no reason to re-translate.
    """
    text = MAP_RE.sub("<!-- course-map -->", text)
    found: dict[str, str] = {}
    key, lines = "top", []
    for line in text.splitlines():
        if line.startswith("## "):
            found[key] = "\n".join(lines).strip("\n")
            key, lines = anchor(line[3:]), []
        lines.append(line)
    found[key] = "\n".join(lines).strip("\n")
    return found


def load(source: Path, lang: str) -> dict[str, Block]:
    """The translation blocks of ``source`` (none when it has no file yet)."""
    file = translation_file(source, lang)
    return parse(file.read_text(encoding="utf-8")) if file.is_file() else {}


# ---- the staleness check ---------------------------------------------------------------------


@dataclass
class Finding:
    """A block that needs a translator: ``stale``, ``missing`` or ``orphan``."""

    state: str
    file: Path
    key: str
    english: str = ""

    def line(self) -> str:
        where = f"{_shown(self.file)}: cell {self.key}"
        advice = {
            "stale": "the English changed since it was translated: update the text, then its hash",
            "missing": "no translation yet",
            "orphan": "no such cell in the English any more: delete the block",
        }[self.state]
        return f"{self.state}: {where}: {advice}"


def _shown(path: Path) -> str:
    try:
        return path.resolve().relative_to(paths.ROOT).as_posix()
    except ValueError:
        return str(path)


def findings_in(source: Path, lang: str) -> list[Finding]:
    """What is stale, missing or orphaned in the translation of one English file."""
    file = translation_file(source, lang)
    english, blocks = units(source), load(source, lang)
    readme = source.resolve() == paths.README.resolve()
    found = []
    for key, text in english.items():
        block = blocks.get(key)
        if block is None or block.hash == "todo":
            if not readme or block is not None:
                found.append(Finding("missing", file, key, text))
        elif block.hash != english_hash(text):
            found.append(Finding("stale", file, key, text))
    found += [Finding("orphan", file, key) for key in blocks if key not in english]
    return found


def findings(lang: str = "zh") -> list[Finding]:
    """Every stale, missing or orphaned block of ``lang``, across the notebooks, README.md and
    the instructor guide's learner-facing sections."""
    found = []
    for source in [*sources(), *texts()]:
        found += findings_in(source, lang)
    known = {translation_file(s, lang).resolve() for s in [*sources(), *texts()]}
    for file in sorted((I18N / lang).rglob("*.md")):
        if file.resolve() not in known and file.name != TERMS:
            found.append(Finding("orphan", file, "(whole file: no such English notebook)"))
    return found


def update(lang: str = "zh") -> list[Path]:
    """Add a ``todo`` block (the English text, to translate) for every missing cell; keeps the
    order of the notebook. Stale blocks keep their text and hash, for a translator to revise."""
    written = []
    for source in sources():
        blocks, english = load(source, lang), units(source)
        todo = [k for k in english if k not in blocks]
        if not todo and list(blocks) == [k for k in english if k in blocks]:
            continue
        ordered = [blocks.get(k) or Block(k, "todo", english[k]) for k in english]
        ordered += [b for k, b in blocks.items() if k not in english]  # orphans, to delete
        file = translation_file(source, lang)
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(render(ordered, lang, _shown(source)), encoding="utf-8")
        written.append(file)
    return written


def stamp(file: Path, keys: list[str] | None = None) -> list[str]:
    """Record the current English hash in blocks of ``file``: what a translator runs after
    revising them. Without ``keys``, every stale block; with ``keys``, those cells, ``todo`` ones
    included (the translator says they are done). Returns the keys it changed."""
    lang = file.resolve().relative_to(I18N.resolve()).parts[0]
    source = _source_of(file, lang)
    english, blocks = units(source), parse(file.read_text(encoding="utf-8"))
    unknown = sorted(set(keys or []) - set(blocks))
    if unknown:
        raise ValueError(f"no block for cell(s) {', '.join(unknown)} in {_shown(file)}")
    changed = []
    for key, block in blocks.items():
        wanted = key in keys if keys is not None else block.hash != "todo"
        if key in english and wanted and block.hash != english_hash(english[key]):
            block.hash = english_hash(english[key])
            changed.append(key)
    if changed:
        file.write_text(render(list(blocks.values()), lang, _shown(source)), encoding="utf-8")
    return changed


def _source_of(file: Path, lang: str) -> Path:
    """The English file a translation file translates."""
    inside = file.resolve().relative_to((I18N / lang).resolve())
    for text in texts():
        if inside == Path(text.name):
            return text
    return paths.NOTEBOOKS / inside.with_suffix(".ipynb")
