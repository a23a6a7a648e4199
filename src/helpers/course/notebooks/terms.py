"""The terminology file of a translation (``i18n/<lang>/terms.md``) and the checks that use it.

Each row names one English term, the one translated term every translation uses for it, and the
*prose forms* of the English to look for (none: the term is listed for the glossaries only).
:func:`missing_terms` finds translated cells whose English uses a term in one of its prose forms
while the translation lacks the translated term, so that 剩余时长, 显存, 学习率 or 继承 cannot be
rendered three ways in three lessons. :func:`glossary_disagreements` compares the lessons' own
English-Chinese glossaries with the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from helpers.course.notebooks import translate


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


def terms_file(lang: str) -> Path:
    return translate.I18N / lang / translate.TERMS


def load(lang: str = "zh") -> list[Term]:
    """The rows of the terminology file's table (after its header row)."""
    rows = []
    for line in terms_file(lang).read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("English", "---"):
            continue
        forms = tuple(f.strip() for f in cells[2].split(";") if f.strip())
        rows.append(Term(cells[0], cells[1], forms))
    return rows


def prose(markdown: str) -> str:
    """The words of a Markdown text: code, link targets, HTML tags and comments left out."""
    text = re.sub(r"```.*?```", " ", markdown, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"<!--.*?-->|<[^>]+>", " ", text, flags=re.S)
    return re.sub(r"\]\([^)]*\)", "] ", text)


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
    """Lesson glossary rows that name no term of the file, or give another translation."""
    terms, found = load(lang), []
    for source in translate.sources():
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
    return found


def missing_terms(lang: str = "zh") -> list[str]:
    """Translated cells whose English uses a term that their translation does not."""
    terms, found = load(lang), []
    for source in translate.sources():
        blocks = translate.load(source, lang)
        for key, english in translate.units(source).items():
            block = blocks.get(key)
            if block is None or block.hash == "todo":
                continue
            words = prose(english)
            for term in terms:
                form = term.used_in(words)
                if form and term.translated not in block.text:
                    found.append(
                        f"{source.name}, cell {key}: the English says {form!r}, the translation "
                        f"lacks {term.translated!r}"
                    )
    return found


def shared_translations(lang: str = "zh") -> dict[str, list[str]]:
    """Translated terms that more than one English term uses (each must have one meaning)."""
    by_translation: dict[str, list[str]] = {}
    for term in load(lang):
        by_translation.setdefault(term.translated, []).append(term.english)
    return {zh: en for zh, en in by_translation.items() if len(en) > 1}
