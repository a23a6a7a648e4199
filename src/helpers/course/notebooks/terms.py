"""The terminology file of a translation (``i18n/<lang>/terms.md``) and the checks that use it.

The file has two tables. *Terms*: each row names one English term, the one translated term every
translation uses for it, and the *prose forms* of the English to look for (none: the term is
listed for the glossaries only). *Renderings not used*: translations the edition has given up
(内核 for a GPU kernel, 收据 for a receipt), what to write instead, and the longer words in which
they may still appear (Jupyter 内核).

* :func:`missing_terms` finds translated texts (lesson and homework cells, the README's and the
  guide's sections, the catalog's messages) whose English uses a term in one of its prose forms
  while the translation lacks the translated term, so that 剩余时长, 显存, 学习率 or 继承 cannot
  be rendered three ways in three lessons;
* :func:`unused_renderings` finds the renderings the file gives up, wherever they are;
* :func:`number_style` finds numbers written the English way (``100,000``) in translated prose;
* :func:`glossary_disagreements` compares the lessons' own English-Chinese glossaries with the file.

Each finding names its place: the translation file and cell, or the catalog and the message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from helpers.course import paths
from helpers.course.notebooks import catalog, translate

RENDERINGS = "## Renderings not used"
"""The heading of the terms file's second table."""


@dataclass(frozen=True)
class Term:
    english: str
    translated: str
    forms: tuple[str, ...]

    def used_in(self, english_prose: str) -> str | None:
        """The first prose form ``english_prose`` uses (whole words, any case, plural ``s``)."""
        for form in self.forms:
            if re.search(rf"(?<![\w-]){re.escape(form)}(e?s)?(?![\w-])", english_prose, re.I):
                return form
        return None


@dataclass(frozen=True)
class Rendering:
    """A translation the edition does not use, what it uses instead, and the longer words in
    which the unused one may still appear (``内核`` inside ``Jupyter 内核``)."""

    unused: str
    instead: str
    within: tuple[str, ...]

    def spans(self, text: str) -> Iterator[int]:
        """Where ``text`` uses the rendering outside the words it may appear in."""
        for match in re.finditer(re.escape(self.unused), text):
            start = match.start()
            if not any(
                text.startswith(word, start - offset)
                for word in self.within
                for offset in _offsets(word, self.unused)
            ):
                yield start


def _offsets(word: str, part: str) -> list[int]:
    return [m.start() for m in re.finditer(f"(?={re.escape(part)})", word)]


def terms_file(lang: str) -> Path:
    return translate.I18N / lang / translate.TERMS


def _tables(lang: str) -> tuple[list[list[str]], list[list[str]]]:
    """The rows of the file's two tables (header and rule rows left out): terms, renderings."""
    terms: list[list[str]] = []
    renderings: list[list[str]] = []
    rows = terms
    for line in terms_file(lang).read_text(encoding="utf-8").splitlines():
        if line.startswith(RENDERINGS):
            rows = renderings
        if not line.lstrip().startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] not in ("English", "---", "不用"):
            rows.append(cells)
    return terms, renderings


def _split(cell: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in cell.split(";") if part.strip())


def load(lang: str = "zh") -> list[Term]:
    """The rows of the terminology file's table of terms."""
    return [Term(c[0], c[1], _split(c[2])) for c in _tables(lang)[0] if len(c) == 3]


def renderings(lang: str = "zh") -> list[Rendering]:
    """The rows of the terminology file's table of renderings not used."""
    return [Rendering(c[0], c[1], _split(c[2])) for c in _tables(lang)[1] if len(c) == 4]


def prose(markdown: str) -> str:
    """The words of a Markdown text: code, link targets, HTML tags and comments left out."""
    text = re.sub(r"```.*?```", " ", markdown, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"<!--.*?-->|<[^>]+>", " ", text, flags=re.S)
    return re.sub(r"\]\([^)]*\)", "] ", text)


def message_prose(message: str) -> str:
    """The words of a catalog message: its placeholders (``{device}``), calls (``parameters()``)
    and quoted names (``'day00.device'``) left out too."""
    return re.sub(r"\{[^{}]*\}|\b\w+\(\)|'\w+(?:\.\w+)+'", " ", prose(message))


# ---- the translated texts, each with its place -------------------------------------------------

PENDING: dict[str, str] = {}
"""Translation files (below ``i18n/<lang>/``) whose terms are brought in line with the file when
the texts being rewritten from them arrive. The checks leave them out; a test fails as soon as one
of them has nothing left to fix (then it comes off this list) or no longer exists."""


def _pending(file: Path, lang: str) -> bool:
    inside = file.resolve().relative_to((translate.I18N / lang).resolve()).as_posix()
    return inside in PENDING


@dataclass(frozen=True)
class Text:
    """One translated text beside its English, and where a translator finds it."""

    place: str
    english: str
    translated: str
    message: bool = False  # a catalog message (placeholders, no Markdown cells)
    abridged: bool = False  # a README or guide section: its translation keeps what learners need

    def english_words(self) -> str:
        return message_prose(self.english) if self.message else prose(self.english)

    def translated_words(self) -> str:
        return message_prose(self.translated) if self.message else prose(self.translated)


def translated_texts(lang: str = "zh", pending: bool = False) -> list[Text]:
    """Every translated cell, README and guide section and catalog message, with its English
    (the files of :data:`PENDING` only when ``pending``)."""
    found = []
    texts = {t.resolve() for t in translate.texts()}
    for source in [*translate.sources(), *translate.texts()]:
        file = translate.translation_file(source, lang)
        if not file.is_file() or _pending(file, lang) != pending:
            continue
        blocks = translate.load(source, lang)
        for key, english in translate.units(source).items():
            block = blocks.get(key)
            if block is not None and block.hash != "todo":
                where = f"{translate._shown(file)}, cell {key}"
                found.append(Text(where, english, block.text, abridged=source.resolve() in texts))
    if pending:
        return found
    po = catalog.po_path(lang)
    where = po.relative_to(paths.ROOT).as_posix() if po.is_relative_to(paths.ROOT) else str(po)
    for message in catalog.load(lang):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        english = ids[0] if len(ids[0]) <= 60 else ids[0][:57] + "..."
        found.append(Text(f"{where}, {english!r}", ids[-1], "\n".join(strings), message=True))
    return found


# ---- the checks ---------------------------------------------------------------------------------


def missing_terms(lang: str = "zh", texts: list[Text] | None = None) -> list[str]:
    """Translated texts whose English uses a term that their translation does not (README and
    guide sections are left out: their translations keep only what a learner needs)."""
    terms, found = load(lang), []
    for text in translated_texts(lang) if texts is None else texts:
        if text.abridged:
            continue
        words = text.english_words()
        for term in terms:
            form = term.used_in(words)
            if form and term.translated not in text.translated:
                found.append(
                    f"{text.place}: the English says {form!r}, the translation "
                    f"lacks {term.translated!r}"
                )
    return found


def unused_renderings(lang: str = "zh", texts: list[Text] | None = None) -> list[str]:
    """Every place a translation uses a rendering the terms file gives up."""
    rules, found = renderings(lang), []
    for text in translated_texts(lang) if texts is None else texts:
        words = text.translated_words()
        for rule in rules:
            for start in rule.spans(words):
                context = words[max(0, start - 12) : start + len(rule.unused) + 12]
                context = " ".join(context.split())
                found.append(f"{text.place}: {rule.unused!r} in {context!r}: write {rule.instead}")
    return found


GROUPED = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\d,]*\d)")
"""A number grouped the English way: ``100,000``, ``1,281,167``."""


def number_style(lang: str = "zh", texts: list[Text] | None = None) -> list[str]:
    """Numbers grouped by thousands in translated prose, where Chinese writes 10 万 or 100000.

    (The catalog's messages are left out: their numbers come from the run, formatted by code.)
    """
    found = []
    for text in translated_texts(lang) if texts is None else texts:
        if text.message:
            continue
        for match in GROUPED.finditer(text.translated_words()):
            found.append(f"{text.place}: {match[0]!r}: write it with 万 or 亿, or without commas")
    return found


def pending_findings(lang: str = "zh") -> dict[str, list[str]]:
    """What the checks find in each file of :data:`PENDING` (each should still have some)."""
    texts = translated_texts(lang, pending=True)
    found: dict[str, list[str]] = {name: [] for name in PENDING}
    lines = missing_terms(lang, texts) + unused_renderings(lang, texts) + number_style(lang, texts)
    for line in lines:
        name = line.split(",", 1)[0].removeprefix(f"i18n/{lang}/")
        found.setdefault(name, []).append(line)
    return found


GLOSSARY_ROW = re.compile(r"^\|\s*(?P<en>[^|]+?)\s*\|\s*(?P<zh>[^|]+?)\s*\|$")


def glossary(markdown: str) -> list[tuple[str, str]]:
    """The rows of a cell's glossary table (the table after a ``Glossary`` heading)."""
    _, found, rest = markdown.partition("Glossary")
    rows = []
    for line in rest.splitlines() if found else []:
        match = GLOSSARY_ROW.match(line.strip())
        if match and match["en"] not in ("English", "---"):
            rows.append((match["en"], match["zh"]))
    return rows


def _contains(text: str, english: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(english)}(?![\w-])", text, re.I) is not None


def glossary_disagreements(lang: str = "zh") -> list[str]:
    """Lesson glossary rows that name no term of the file, give another translation, or use a
    rendering the file gives up."""
    terms, rules, found = load(lang), renderings(lang), []
    for source in translate.sources():
        if _pending(translate.translation_file(source, lang), lang):
            continue
        for english in translate.units(source).values():
            for en, zh in glossary(english):
                named = [t for t in terms if _contains(en, t.english)]
                if not named:
                    found.append(f"{source.name}: glossary row {en!r} is not in the terms file")
                for term in named:
                    if term.translated not in zh:
                        found.append(
                            f"{source.name}: glossary row {en!r} says {zh!r}, the terms file "
                            f"{term.translated!r} (for {term.english!r})"
                        )
                for rule in rules:
                    if list(rule.spans(zh)):
                        found.append(
                            f"{source.name}: glossary row {en!r} says {zh!r}: write {rule.instead}"
                        )
    return found


def shared_translations(lang: str = "zh") -> dict[str, list[str]]:
    """Translated terms that more than one English term uses (each must have one meaning)."""
    by_translation: dict[str, list[str]] = {}
    for term in load(lang):
        by_translation.setdefault(term.translated, []).append(term.english)
    return {zh: en for zh, en in by_translation.items() if len(en) > 1}
