"""The sentences the course's code prints, in each language: one catalog per language, one home.

Code asks for a sentence by its name and fills in named placeholders::

    >>> text("guess.close", guess="80 parameters", measured="83", lang="en")
    'You guessed 80 parameters; the run measured 83: close.'
    >>> text("guess.close", guess="80 个参数", measured="83", lang="zh")
    '你猜的是 80 个参数，运行测得 83：很接近。'

The catalogs are :mod:`helpers.messages.en` and :mod:`helpers.messages.zh` (plain dictionaries of
``str.format`` templates). A test checks that every English message has a Chinese form with the
same placeholders and the same number formats, so a number reads the same in both.

Which language: the ``COURSE_LANG`` setting (``en`` or ``zh``; ``zh_CN`` and ``zh-CN`` count as
``zh``); without it, Chinese for a notebook running in the Chinese edition's folder
(``notebooks/zh/``), else English.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

from helpers.messages import en, zh

CATALOGS = {"en": en.MESSAGES, "zh": zh.MESSAGES}
"""Each language's messages, by name."""
WORDS = {"en": {}, "zh": zh.WORDS}
"""Each language's names for the words code passes in (units such as ``"parameters"``)."""


def language() -> str:
    """The language the course prints in (see the module's docstring)."""
    chosen = os.environ.get("COURSE_LANG", "").strip().lower().replace("-", "_")
    if chosen:
        base = chosen.split("_")[0]
        if base not in CATALOGS:
            raise ValueError(
                f"COURSE_LANG={chosen!r} is not a language of the course; "
                f"use one of: {', '.join(CATALOGS)}"
            )
        return base
    here = Path.cwd().resolve()
    for folder in [here, *here.parents]:
        if folder.parent.name == "notebooks" and folder.name in CATALOGS:
            return folder.name
    return "en"


def text(name: str, /, lang: str | None = None, **values) -> str:
    """The message ``name`` in ``lang`` (default: :func:`language`), placeholders filled in."""
    catalog = CATALOGS[lang or language()]
    if name not in catalog:
        raise KeyError(f"no message named {name!r}")
    return catalog[name].format(**values)


def word(english: str, lang: str | None = None) -> str:
    """A word the code passes in, in ``lang`` (itself when the catalog has no other form).

    A catalog's word may hold placeholders, for names built with numbers that are data keys (a
    receipt's workloads, say) and so stay English in the code; the number is carried over. Where
    several match, the one with the most fixed text wins (``"N = {n}, {m} machines"`` over
    ``"N = {n}"``):

    >>> word("parameters", "zh"), word("parameters", "en"), word("bananas", "zh")
    ('个参数', 'parameters', 'bananas')
    >>> word("wide 4-512-512-3, 4096 rows", "zh")
    '宽网络 4-512-512-3，4096 行'
    >>> word("NVLink 4 (H100 SXM) (450 GB/s, stated)", "zh")  # a placeholder takes all it can
    'NVLink 4 (H100 SXM)（450 GB/s，标称）'
    """
    lang = lang or language()
    if english in WORDS[lang]:
        return WORDS[lang][english]
    for pattern, form in _word_patterns(lang):  # the most specific first
        found = pattern.fullmatch(english)
        if found:
            return form.format(**found.groupdict())
    return english


@functools.cache
def _word_patterns(lang: str) -> list[tuple[re.Pattern, str]]:
    """The catalog's words with placeholders, each as a pattern that matches the English, those
    with the most fixed text first."""
    templates = [english for english in WORDS[lang] if "{" in english]
    templates.sort(key=lambda english: -len(re.sub(r"\{\w+\}", "", english)))
    return [
        (
            re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+)", re.escape(english))),
            WORDS[lang][english],
        )
        for english in templates
    ]


@functools.cache
def _plots_draw_chinese() -> bool:
    """Whether plots can draw Chinese here: a CJK font is installed (and now in use)."""
    from helpers.fonts import cjk_font, use_cjk_font

    if cjk_font() is None:
        return False
    use_cjk_font()
    return True


def plot_language(lang: str | None = None) -> str:
    """The language of plots' labels: the course's (:func:`language`), except that Chinese
    labels need a font with Chinese characters; without one they stay English, instead of
    drawing boxes (:mod:`helpers.fonts` says how to install one)."""
    lang = lang or language()
    if lang == "zh" and not _plots_draw_chinese():
        return "en"
    return lang


def label(name: str, /, lang: str | None = None, **values) -> str:
    """The message ``name`` for a plot (an axis, a title, a legend entry), in
    :func:`plot_language`."""
    return text(name, lang=plot_language(lang), **values)
