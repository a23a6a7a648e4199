"""The course's words in the learner's language: gettext, with the English sentence as the key.

Code writes every sentence in English where it is used, with named placeholders, and asks for it
in the course's language::

    say(_("Measured on: **{card}**.").format(card=card_line()))

``_`` looks the English up in the language's catalog and returns its translation (the English
itself where there is none), so the notebook shows the sentence a learner reads. The Chinese
catalog is ``locale/zh/LC_MESSAGES/course.po`` beside this module, a standard gettext catalog
that translators' tools (Poedit, Weblate) open; ``python -m helpers messages`` updates it from
the code and compiles it (i18n/README.md says how).

* :func:`_` a sentence; :func:`ngettext` one whose words follow a number ("1 worker",
  "2 workers"); :func:`pgettext` one English word that needs two renderings, told apart by a
  context; :func:`label` a sentence for a plot (see :func:`plot_language`).
* :func:`N_` marks a *name*: a table's column, a curve, a variant. Names stay English in the data
  (code indexes tables by them, receipts measured elsewhere are joined by them) and are shown
  translated by :func:`word` (and :func:`helpers.show.localised` for a whole table).

Which language: the ``COURSE_LANG`` setting (``en`` or ``zh``; ``zh_CN`` and ``zh-CN`` count as
``zh``); without it, Chinese for a notebook running in the Chinese edition's folder
(``notebooks/zh/``), else English.

>>> catalog("zh").gettext("Fix the errors reported above, then run this cell again.")
'先修复上面报告的错误，然后再运行这个单元。'
>>> catalog("en").gettext("Fix the errors reported above, then run this cell again.")
'Fix the errors reported above, then run this cell again.'
"""

from __future__ import annotations

import functools
import gettext
import importlib.resources
import os
import re
from pathlib import Path

LANGUAGES = ("en", "zh")
"""The course's languages; English is the source, the others have a catalog."""
DOMAIN = "course"
"""The catalogs' gettext domain: ``locale/<language>/LC_MESSAGES/course.mo``."""
LOCALE = Path(str(importlib.resources.files("helpers") / "locale"))
"""The folder of the compiled catalogs (and their ``.po`` sources), inside the package."""


def language() -> str:
    """The language the course prints in (see the module's docstring)."""
    chosen = os.environ.get("COURSE_LANG", "").strip().lower().replace("-", "_")
    if chosen:
        base = chosen.split("_")[0].split(".")[0]
        if base not in LANGUAGES:
            raise ValueError(
                f"COURSE_LANG={chosen!r} is not a language of the course; "
                f"use one of: {', '.join(LANGUAGES)}"
            )
        return base
    here = Path.cwd().resolve()
    for folder in [here, *here.parents]:
        if folder.parent.name == "notebooks" and folder.name in LANGUAGES:
            return folder.name
    return "en"


@functools.cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: none, every message is its own English)."""
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE, languages=[lang])


def _(message: str) -> str:
    """``message`` (English, a literal) in the course's language."""
    return catalog(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` that goes with the number ``n``, translated."""
    return catalog(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` as rendered in ``context``, for an English text that needs two renderings."""
    return catalog(language()).pgettext(context, message)


def N_(name: str) -> str:
    """Mark ``name`` for the catalog and return it as it is: it is translated where it is shown,
    by :func:`word`."""
    return name


def word(name: str, lang: str | None = None) -> str:
    """A name the code passes in (marked with :func:`N_` where it is written), in ``lang``
    (default: the course's language); itself where the catalog has no other form (a GPU's
    name, a number).

    >>> word("parameters", "zh"), word("parameters", "en"), word("bananas", "zh")
    ('个参数', 'parameters', 'bananas')
    """
    lang = lang or language()
    found = catalog(lang).gettext(name)
    if found != name or lang == "en":
        return found
    for pattern, template in _patterns(lang):  # the most specific first
        matched = pattern.fullmatch(name)
        if matched:
            return catalog(lang).gettext(template).format(**matched.groupdict())
    return name


PATTERNED = (
    N_("ms per {epochs} epochs"),
    N_("epochs to loss < {loss}"),
    N_("learning rate {lr}"),
    N_("learning rate {lr}, weight decay {decay}"),
    N_("lesson loop 4-10-3, {rows} rows"),
    N_("wide 4-512-512-3, {rows} rows"),
    N_("{size} (CPU {cpu} only)"),
    N_("{size} (shared by CPUs {cpus})"),
    N_("gpu{n} memory used"),
    N_("sweep on {device}"),
    N_("full width, batch {batch}"),
    N_("half width, batch {batch}"),
    N_("shuffled, epoch {n}"),
    N_("ms per step, {n} processes"),
    N_("wide network ({mb} MB float32), N = {n}"),
    N_("1B parameters (2 GB bf16), N = {n}"),
    N_("1B parameters (2 GB bf16), N = {n}, {m} machines"),
    N_("1B parameters (2 GB bf16), N = {n}, {m} machines, {nics} network cards each"),
    N_("{link} ({bandwidth} GB/s, stated)"),
    N_("MLP ({epochs} epochs on {device})"),
    N_("target: {target}"),
    N_("wide network, {rows} rows"),
    N_("lesson loop, .item() every {n} epochs"),
    N_("amortised: {n} epochs per compiled call"),
    N_("{n} epochs, cold cache (s)"),
    N_("{n} epochs, warm cache (s)"),
    N_("2. one {n}-epoch run per interval, fastest"),
    N_("2. one {n}-epoch run per interval, slowest"),
    N_("hand-written step, amortised, {n} epochs per call"),
)
"""Names with numbers in them, kept English in data, shown translated by :func:`word`."""


@functools.cache
def _patterns(lang: str) -> list[tuple[re.Pattern, str]]:
    templates = sorted(PATTERNED, key=lambda t: -len(re.sub(r"\{\w+\}", "", t)))
    return [
        (re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+)", re.escape(t))), t) for t in templates
    ]


@functools.cache
def plots_draw_chinese() -> bool:
    """Whether plots can draw Chinese here: a CJK font is installed (and now in use)."""
    from helpers import fonts

    return fonts.use_cjk_font() is not None


def plot_language(lang: str | None = None) -> str:
    """The language of plots' labels: the course's (:func:`language`), except that Chinese
    labels need a font with Chinese characters; without one they stay English instead of
    drawing boxes (:func:`helpers.show.readable_tables` then says how to install one)."""
    lang = lang or language()
    if lang == "zh" and not plots_draw_chinese():
        return "en"
    return lang


def label(message: str) -> str:
    """``message`` (English, a literal) for a plot: an axis, a title, a legend entry, in
    :func:`plot_language`."""
    return catalog(plot_language()).gettext(message)
