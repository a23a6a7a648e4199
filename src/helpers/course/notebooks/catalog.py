"""The catalogs of what the code prints: extracted from the code with Babel, checked, compiled.

Every sentence the course's code prints is written in English where it is used (``_("...")``,
see :mod:`helpers.i18n`). This module finds them all, in ``src/helpers/`` and in the lessons' and
homework masters' code cells, keeps each language's ``.po`` catalog in step with them, and
compiles it to the ``.mo`` file gettext reads::

    python -m helpers messages           # update the catalogs from the code, then compile them
    python -m helpers messages --check   # only say what is out of step (make test does too)

When an English sentence changes, the update keeps its old translation as *fuzzy* (for the
translator to review against the new English), adds new sentences untranslated and moves those no
code uses any more to the end as obsolete (``#~``): a translator's tool (Poedit, Weblate) lists all
three. :func:`problems` names every such message until a translator has dealt with it.

Babel extracts, updates and compiles; it does not read notebooks, so :func:`extract_notebook` is
its extractor for their code cells (a message's location in the catalog is the notebook).
"""

from __future__ import annotations

import io
import json
import string
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file, extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from helpers.course import paths
from helpers.course.homework.markers import TEST_RE, assert_messages
from helpers.i18n import DOMAIN, LANGUAGES, LOCALE

KEYWORDS = {
    "_": None,
    "gettext": None,
    "N_": None,
    "label": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
"""The functions of :mod:`helpers.i18n` whose literal arguments are messages, as Babel's
``keywords`` (argument positions; ``"c"``: the context)."""
TEST_NOTE = "a homework test's message: check() shows its translation beside the English"
"""The translators' note on the messages of the homework tests' asserts (see
:func:`helpers.course.homework.markers.assert_messages`): the code writes them as plain strings
and f-strings, not through ``_()``, because the grader evaluates them as they are."""
LOCALES = {"zh": "zh_CN"}
"""The locale each translated language's catalog is written for (its plural rules)."""


def po_path(lang: str, locale: Path = LOCALE) -> Path:
    return locale / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str, locale: Path = LOCALE) -> Path:
    return po_path(lang, locale).with_suffix(".mo")


def sources(root: Path | None = None) -> list[Path]:
    """The files whose code prints: the package, the English lessons, the homework masters (in
    ``root``, a copy of the course, when given)."""
    root = root or paths.ROOT
    folders = {paths.SRC / "helpers": "*.py", paths.NOTEBOOKS: "*.ipynb", paths.MASTERS: "*.ipynb"}
    found = []
    for folder, pattern in folders.items():
        here = root / folder.relative_to(paths.ROOT)
        found += sorted(here.rglob(pattern) if pattern == "*.py" else here.glob(pattern))
    return found


def extract_notebook(fileobj, keywords, comment_tags, options) -> Iterator[tuple]:
    """Babel's extractor for a notebook: the messages of its code cells, each at its cell's
    number (IPython's ``%`` and ``!`` lines are skipped), and in a homework's ``# TEST`` cells
    the messages of the visible asserts."""
    notebook = json.loads(fileobj.read().decode("utf-8"))
    for number, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]).splitlines()
        code = "\n".join("" if s.lstrip().startswith(("%", "!")) else s for s in source)
        for _line, *found in extract_python(
            io.BytesIO(code.encode("utf-8")), keywords, comment_tags, options
        ):
            yield (number, *found)
        if TEST_RE.match(source[0] if source else ""):  # a homework test: its asserts' messages
            for _line, template in assert_messages("\n".join(source)):
                yield (number, "_", template, [TEST_NOTE])


def extract(root: Path | None = None) -> Catalog:
    """Every message the code asks for, as a template catalog (no translations)."""
    root = root or paths.ROOT
    template = Catalog(domain=DOMAIN, charset="utf-8", fuzzy=False)
    for path in sources(root):
        method = extract_notebook if path.suffix == ".ipynb" else "python"
        where = path.relative_to(root).as_posix()
        for line, message, comments, context in extract_from_file(
            method, path, keywords=KEYWORDS, strip_comment_tags=True
        ):
            template.add(message, None, [(where, line)], auto_comments=comments, context=context)
    return template


def load(lang: str, locale: Path = LOCALE) -> Catalog:
    with po_path(lang, locale).open("rb") as po:
        return read_po(po, locale=LOCALES[lang], domain=DOMAIN)


def save(catalog: Catalog, lang: str, locale: Path = LOCALE) -> None:
    """Write ``lang``'s ``.po`` file and its compiled ``.mo``: one line per message (no wrapping,
    so a diff shows whole messages), without line numbers (they change at every edit) and
    without a fuzzy entry's old English (``#| msgid``: Babel cannot read it back)."""
    po_path(lang, locale).parent.mkdir(parents=True, exist_ok=True)
    for message in catalog:  # every placeholder is str.format's: a "%" is a percent sign
        message.flags.discard("python-format")
    with po_path(lang, locale).open("wb") as po:
        write_po(po, catalog, width=0, sort_by_file=True, include_lineno=False)
    mo_path(lang, locale).write_bytes(compiled(catalog))


def compiled(catalog: Catalog) -> bytes:
    """The ``.mo`` file of ``catalog`` (fuzzy translations left out, as gettext expects)."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def update(
    lang: str, root: Path | None = None, locale: Path = LOCALE, drop_obsolete: bool = False
) -> Catalog:
    """Bring ``lang``'s catalog in step with the code (see the module's docstring) and save it;
    ``drop_obsolete`` also deletes the translations no code asks for any more."""
    template = extract(root)
    catalog = load(lang, locale)
    known = {  # every translation the catalog holds, obsolete ones too
        (m.context, m.id): m.string
        for m in [*catalog, *catalog.obsolete.values()]
        if m.id and m.string and not m.fuzzy
    }
    template.creation_date = catalog.creation_date  # the file changes only with its messages
    catalog.update(template, update_header_comment=False)
    for message in catalog:  # a sentence that moved away and back keeps its translation
        key = (message.context, message.id)
        if message.id and (message.fuzzy or not message.string) and key in known:
            message.string = known[key]
            message.flags.discard("fuzzy")
            message.previous_id = []
    if drop_obsolete:
        catalog.obsolete.clear()
    save(catalog, lang, locale)
    return catalog


def fields(message: str) -> list[tuple[str, str, str]]:
    """The placeholders of a ``str.format`` template: (name, format, conversion), sorted.

    >>> fields("{n:,} rows on {device!r}")
    [('device', '', 'r'), ('n', ',', '')]
    """
    return sorted(
        (name, spec or "", conversion or "")
        for _text, name, spec, conversion in string.Formatter().parse(message)
        if name is not None
    )


def _shown(message) -> str:
    english = message.id[0] if isinstance(message.id, tuple) else message.id
    where = ", ".join(sorted({f for f, _line in message.locations}))
    context = f" (context {message.context!r})" if message.context else ""
    return f"{english!r}{context}" + (f" in {where}" if where else "")


def problems(lang: str, root: Path | None = None, locale: Path = LOCALE) -> list[str]:
    """What keeps ``lang``'s catalog from matching the code, one line per message: new or
    changed English without a translation, fuzzy or obsolete entries, placeholders that differ
    from the English, and a compiled file that is not the catalog's."""
    template = extract(root)
    catalog = load(lang, locale)
    found = []
    for message in template:
        if not message.id:
            continue
        translated = catalog.get(message.id, message.context)
        if (
            translated is None
            or not translated.string
            or (isinstance(translated.string, tuple) and not all(translated.string))
        ):
            found.append(f"not translated (new or changed English): {_shown(message)}")
        elif translated.fuzzy:
            found.append(f"fuzzy (its English changed): {_shown(message)}")
    asked = {(m.id, m.context) for m in template}
    for message in catalog:
        if message.id and (message.id, message.context) not in asked:
            found.append(f"in the catalog, but no code asks for it: {_shown(message)}")
    found += [f"obsolete (#~): {_shown(m)}" for m in catalog.obsolete.values()]
    for message in catalog:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for translation in strings:
            if fields(translation) != fields(ids[-1]) and fields(translation) != fields(ids[0]):
                found.append(f"placeholders differ from the English: {_shown(message)}")
    mo = mo_path(lang, locale)
    if not mo.is_file() or mo.read_bytes() != compiled(catalog):
        found.append(f"{mo.name} is not the compiled {po_path(lang, locale).name}: run the update")
    return found


def translated_languages() -> list[str]:
    return [lang for lang in LANGUAGES if lang != "en"]
