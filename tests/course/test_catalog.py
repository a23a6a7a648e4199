"""What the code prints, in every language: English sentences where they are used, a gettext
catalog per translated language, kept in step with the code (helpers.i18n, catalog)."""

import ast
import json
import re
import shutil

import pytest

from helpers import i18n
from helpers.course import paths
from helpers.course.cli import main
from helpers.course.notebooks import catalog

ROOT = paths.ROOT
ASKING = {"_", "label", "ngettext", "pgettext", "N_", "gettext"}


def _code(path):
    """Each piece of Python in ``path``: the module, or each code cell of a notebook."""
    if path.suffix != ".ipynb":
        yield path.read_text(encoding="utf-8")
        return
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            lines = "".join(cell["source"]).splitlines()
            yield "\n".join("" if s.lstrip().startswith(("%", "!")) else s for s in lines)


def _calls(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in ASKING:
                yield name, node


def test_every_message_is_translated_and_the_compiled_catalog_is_current():
    """Fails naming each message whose English is new or changed, fuzzy, obsolete, or whose
    placeholders differ: run `python -m helpers messages`, translate, run it again."""
    for lang in catalog.translated_languages():
        assert catalog.problems(lang) == []


def test_extraction_finds_every_message_the_code_asks_for():
    """Each literal handed to _(), label(), ngettext(), pgettext() or N_() anywhere in the code
    is in the extracted template, so none can be missed by the translator."""
    template = catalog.extract()
    found = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    asked = set()
    for path in catalog.sources():
        for code in _code(path):
            for name, call in _calls(ast.parse(code)):
                args = [a.value for a in call.args if isinstance(a, ast.Constant)]
                if name == "pgettext" and len(args) == 2:
                    asked.add((args[0], args[1]))
                elif args and isinstance(args[0], str) and name != "gettext":
                    asked.add((None, args[0]))
    assert asked and asked <= found, sorted(asked - found)[:5]


def test_messages_are_literals_and_nothing_rebinds_the_underscore():
    """gettext needs the English itself (a variable hides it from extraction), and a module or
    lesson that binds `_` (`for _ in ...`, `x, _ = ...`) would hide the function."""
    found = []
    for path in catalog.sources():
        if path.name == "i18n.py":
            continue
        for code in _code(path):
            tree = ast.parse(code)
            for name, call in _calls(tree):
                texts = {"_": 1, "label": 1, "N_": 1, "ngettext": 2, "pgettext": 2}.get(name, 0)
                if not all(isinstance(a, ast.Constant) for a in call.args[:texts]):
                    found.append(f"{path.name}: {ast.unparse(call)}")
            if "from helpers.i18n import" not in code and path.suffix != ".ipynb":
                continue
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Name)
                    and node.id == "_"
                    and not isinstance(node.ctx, ast.Load)
                ):
                    found.append(f"{path.name} line {node.lineno} binds `_`")
    assert found == []


def test_every_placeholder_of_a_message_is_given_where_it_is_formatted():
    """`_("... {n} ...").format(...)` must name every placeholder of the English (a branch that
    runs only on a GPU would otherwise raise KeyError on a learner's machine)."""
    import string

    found = []
    for path in catalog.sources():
        for code in _code(path):
            for node in ast.walk(ast.parse(code)):
                call = getattr(node, "func", None)
                if not (isinstance(call, ast.Attribute) and call.attr == "format"):
                    continue
                inner = call.value
                if not (isinstance(inner, ast.Call) and getattr(inner.func, "id", None) in ASKING):
                    continue
                if any(k.arg is None for k in node.keywords) or node.args:
                    continue  # **values or positional: not checkable here
                given = {k.arg for k in node.keywords}
                for text in [a.value for a in inner.args if isinstance(a, ast.Constant)]:
                    if not isinstance(text, str):
                        continue
                    wanted = {f.split(".")[0].split("[")[0]
                              for _t, f, _s, _c in string.Formatter().parse(text) if f}  # fmt: skip
                    if wanted - given:
                        found.append(f"{path.name}: {text[:50]!r} lacks {sorted(wanted - given)}")
    assert found == []


def test_lessons_print_no_english_that_gettext_cannot_see():
    """`say(f"...")` or `print(f"...")` with words in it would stay English in the Chinese
    edition: a lesson's sentences go through `_()` (numbers alone may be f-strings)."""
    found = []
    kept = {  # English on purpose (i18n/README.md)
        "ddp_train.py", "ddp_io.py",  # the workers' logs: a command-line program's output
        "__main__.py",  # too old a Python: said in both languages, before anything imports
    }  # fmt: skip
    original = 'print(f"preprocessing in'  # day 4's copy of the original lesson's class
    lessons = [p for p in catalog.sources() if p.suffix == ".ipynb" or "course" not in p.parts]
    for path in lessons:
        if path.name in kept:
            continue
        for code in _code(path):
            for node in ast.walk(ast.parse(code)):
                if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") in
                        ("say", "print")):  # fmt: skip
                    continue
                if ast.unparse(node).startswith(original):
                    continue
                for arg in node.args:
                    parts = [
                        v.value for v in getattr(arg, "values", []) if isinstance(v, ast.Constant)
                    ]
                    if isinstance(arg, ast.JoinedStr) and re.search(
                        r"[A-Za-z]{3,} [a-z]{2,}", "".join(parts)
                    ):
                        found.append(f"{path.name}: {ast.unparse(node)[:80]}")
    assert found == []


def test_a_changed_sentence_is_named_until_it_is_translated(tmp_path, capsys):
    """Change one English sentence: the check names it; the update keeps the old translation as
    fuzzy beside the new English; once a translator confirms it, the check passes."""
    root, locale = tmp_path / "course", tmp_path / "locale"
    (root / "src" / "helpers").mkdir(parents=True)
    module = root / "src" / "helpers" / "lesson.py"
    module.write_text('say(_("Hello, {name}!").format(name=n))\nN_("rows")\n', encoding="utf-8")
    first = catalog.extract(root)
    first.locale = catalog.load("zh").locale
    for message in first:
        message.string = {"Hello, {name}!": "你好，{name}！", "rows": "行"}.get(message.id, "")
    catalog.save(first, "zh", locale)
    assert catalog.problems("zh", root, locale) == []

    module.write_text('say(_("Hello again, {name}!").format(name=n))\nN_("rows")\n', "utf-8")
    found = catalog.problems("zh", root, locale)
    assert any("not translated" in p and "'Hello again, {name}!'" in p for p in found), found
    assert any("no code asks for it" in p and "'Hello, {name}!'" in p for p in found), found

    updated = catalog.update("zh", root, locale)
    message = updated.get("Hello again, {name}!")
    assert message.fuzzy and message.string == "你好，{name}！"  # the old one, to review
    assert message.previous_id == ["Hello, {name}!"]
    reread = catalog.load("zh", locale).get(
        "Hello again, {name}!"
    )  # as a translator's tool reads it
    assert reread.fuzzy and reread.string == "你好，{name}！" and not reread.user_comments
    assert any(p.startswith("fuzzy") for p in catalog.problems("zh", root, locale))

    message.flags.discard("fuzzy")
    message.string = "{name}，又见面了！"
    catalog.save(updated, "zh", locale)
    assert catalog.problems("zh", root, locale) == []


def test_a_translation_that_loses_a_placeholder_is_named(tmp_path):
    root, locale = tmp_path / "course", tmp_path / "locale"
    (root / "src" / "helpers").mkdir(parents=True)
    (root / "src" / "helpers" / "m.py").write_text('_("{n:,} rows")\n', encoding="utf-8")
    template = catalog.extract(root)
    template.locale = catalog.load("zh").locale
    template.get("{n:,} rows").string = "{n} 行"  # the thousands separator is gone
    catalog.save(template, "zh", locale)
    (found,) = catalog.problems("zh", root, locale)
    assert found.startswith("placeholders differ") and "'{n:,} rows'" in found


def test_a_stale_compiled_catalog_is_named(tmp_path):
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE, locale)
    catalog.mo_path("zh", locale).write_bytes(b"")
    assert catalog.problems("zh", locale=locale)[-1].startswith("course.mo is not the compiled")


def test_the_messages_command_says_what_is_out_of_step(capsys):
    assert main(["messages", "--check"]) == 0
    assert "Every message the code prints is translated." in capsys.readouterr().out


def test_the_course_speaks_each_language(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert i18n._("epoch") == "轮次" and i18n.word("epoch") == "轮次"
    assert i18n.word("NVIDIA H200") == "NVIDIA H200"  # not a word of the course: as it is
    assert i18n.ngettext("{n} rows", "{n} rows", 2) == "{n} rows"  # not in the catalog
    monkeypatch.setenv("COURSE_LANG", "en")
    assert i18n._("epoch") == "epoch"


def test_words_with_placeholders_carry_the_numbers_over():
    assert i18n.word("lesson loop 4-10-3, 120 rows", "zh") == "原课程循环 4-10-3，120 行"
    assert i18n.word("lesson loop 4-10-3, 120 rows, twice", "zh").endswith("twice")  # whole


def test_a_lessons_underscore_survives_ipython_showing_a_result():
    """IPython keeps the last result in `_`, except where the user has bound `_` (gettext's
    convention): a cell ending in an expression must not replace the lesson's `_`."""
    interactive = pytest.importorskip("IPython.core.interactiveshell")
    shell = interactive.InteractiveShell()
    shell.run_cell("from helpers.i18n import _")
    shell.run_cell("1 + 1")
    assert shell.user_ns["_"] is i18n._
    assert shell.run_cell("_('epoch')").result == "epoch"


def test_every_strong_in_the_catalog_renders_whatever_fills_it():
    """Emphasis next to full-width punctuation (**注意：**没有) stays literal asterisks in
    JupyterLab and the HTML copies: each translation is written so that it renders, and what
    say() shows renders whatever the placeholders hold."""
    from helpers.course.notebooks.edition import literal_asterisks, rendered
    from helpers.show import renderable

    found = []
    for message in catalog.load("zh"):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            if not text or text.count("**") % 2 or "**" not in text:  # 2**30 is no emphasis
                continue
            plain = re.sub(r"\{[^{}]*\}", "值", text)
            if renderable(plain) != plain:
                found.append(f"written so that it does not render: {text[:60]!r}")
            for value in ("值", "值。", "“值”", "3.5 s"):
                filled = renderable(re.sub(r"\{[^{}]*\}", value, text))
                if literal_asterisks(rendered(filled)):
                    found.append(f"does not render with {value!r}: {text[:60]!r}")
    assert found == []
