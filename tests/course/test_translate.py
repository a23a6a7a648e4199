"""The Chinese edition: translations kept beside the English, built into notebooks/zh/, and
checked so that they cannot fall behind (stale, missing, orphaned cells; terms; messages)."""

import re
import shutil

import nbformat
import pytest

from helpers.course import paths
from helpers.course.cli import main
from helpers.course.homework.markers import MANUAL_PLACEHOLDERS, parse
from helpers.course.notebooks import edition, terms, translate
from helpers.course.notebooks.execute import _html, execute, problems, shown
from helpers.course.setup import git, lab
from helpers.i18n import language

ROOT = paths.ROOT
SOURCES = translate.sources()


# ---- 1. one source: the staleness check --------------------------------------------------------


def test_every_translated_cell_matches_its_english():
    found = translate.findings("zh")
    assert found == [], "\n".join(f.line() for f in found) + (
        "\nRevise these blocks in i18n/zh/, then `python -m helpers translate --stamp FILE CELL`"
        " and `python -m helpers edition zh`."
    )


def test_every_lesson_and_homework_has_a_translation_file():
    assert len(SOURCES) == len(paths.lessons()) + len(list(paths.HOMEWORK.glob("day*.ipynb")))
    for source in SOURCES:
        assert translate.translation_file(source, "zh").is_file(), source.name


@pytest.fixture
def small_course(tmp_path, monkeypatch):
    """A course of one lesson (day 0) and its translation, in a folder of its own."""
    (tmp_path / "notebooks" / "homework").mkdir(parents=True)
    (tmp_path / "i18n" / "zh").mkdir(parents=True)
    lesson = paths.lessons()[0]
    shutil.copy(lesson, tmp_path / "notebooks" / lesson.name)
    shutil.copy(
        translate.translation_file(lesson, "zh"), tmp_path / "i18n" / "zh" / f"{lesson.stem}.md"
    )
    shutil.copy(terms.terms_file("zh"), tmp_path / "i18n" / "zh" / translate.TERMS)
    (tmp_path / "README.md").write_text("# Course\n\n## Quick start\n\nRun it.\n", encoding="utf-8")
    monkeypatch.setattr(paths, "NOTEBOOKS", tmp_path / "notebooks")
    monkeypatch.setattr(paths, "HOMEWORK", tmp_path / "notebooks" / "homework")
    monkeypatch.setattr(paths, "README", tmp_path / "README.md")
    monkeypatch.setattr(
        paths, "GUIDE", tmp_path / "instructor" / "GUIDE.md"
    )  # none, until a test copies it
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(translate, "I18N", tmp_path / "i18n")
    return tmp_path / "notebooks" / lesson.name


def test_a_changed_sentence_of_a_learner_facing_guide_section_is_reported(small_course, capsys):
    (small_course.parents[1] / "instructor").mkdir()
    guide = shutil.copy(ROOT / "instructor" / "GUIDE.md", paths.GUIDE)
    shutil.copy(ROOT / "i18n" / "zh" / "GUIDE.md", translate.I18N / "zh")
    assert main(["translate", "--check"]) == 0
    text = guide.read_text(encoding="utf-8")
    presenting = text.replace("run the cells in the room", "run the cells in class")
    assert presenting != text  # an instructor-only section: no translation to revise
    guide.write_text(presenting, encoding="utf-8")
    assert main(["translate", "--check"]) == 0
    handing_in = presenting.replace("Collect those files", "Gather those files")
    assert handing_in != presenting
    guide.write_text(handing_in, encoding="utf-8")
    capsys.readouterr()
    assert main(["translate", "--check"]) == 1
    out = capsys.readouterr().out
    assert "stale: i18n/zh/GUIDE.md: cell homework-release-collect-grade" in out
    assert "1 stale, 0 missing, 0 orphan" in out


def _edit(path, change):
    nb = nbformat.read(path, as_version=4)
    change(nb)
    nbformat.write(nb, path)


def test_one_changed_english_sentence_is_reported_with_its_cell(small_course, capsys):
    assert main(["translate", "--check"]) == 0
    cell = "day00setup-03"

    def reword(nb):
        target = next(c for c in nb.cells if c.id == cell)
        target.source = target.source.replace("runs\neverywhere", "runs on every machine")
        assert "every machine" in target.source

    _edit(small_course, reword)
    capsys.readouterr()
    assert main(["translate", "--check"]) == 1
    out = capsys.readouterr().out
    assert f"stale: i18n/zh/day00_setup.md: cell {cell}" in out
    assert "1 stale, 0 missing, 0 orphan" in out


def test_new_and_deleted_cells_are_missing_and_orphaned(small_course):
    def add_and_delete(nb):
        nb.cells.append(nbformat.v4.new_markdown_cell("A new paragraph.", id="day00-new"))
        nb.cells = [c for c in nb.cells if c.id != "day00setup-05"]

    _edit(small_course, add_and_delete)
    found = {(f.state, f.key) for f in translate.findings("zh")}
    assert found == {("missing", "day00-new"), ("orphan", "day00setup-05")}


def test_a_translation_file_without_its_notebook_is_an_orphan(small_course):
    (translate.I18N / "zh" / "day99_gone.md").write_text("", encoding="utf-8")
    assert [(f.state, f.file.name) for f in translate.findings("zh")] == [
        ("orphan", "day99_gone.md")
    ]


def test_update_adds_todo_blocks_and_stamp_marks_them_translated(small_course):
    _edit(small_course, lambda nb: nb.cells.append(nbformat.v4.new_markdown_cell("New.", id="n1")))
    file = translate.translation_file(small_course, "zh")
    assert translate.update("zh") == [file]
    block = translate.load(small_course, "zh")["n1"]
    assert (block.hash, block.text) == ("todo", "New.")  # the English, to translate
    assert [f.state for f in translate.findings("zh")] == ["missing"]
    assert translate.stamp(file) == []  # a todo block is only stamped when named
    text = file.read_text(encoding="utf-8").replace("\nNew.\n", "\n新的一段。\n")
    file.write_text(text, encoding="utf-8")
    assert translate.stamp(file, ["n1"]) == ["n1"]
    assert translate.findings("zh") == []
    assert translate.load(small_course, "zh")["n1"].text == "新的一段。"


def test_stamp_refuses_an_unknown_cell(small_course):
    with pytest.raises(ValueError, match="no block for cell"):
        translate.stamp(translate.translation_file(small_course, "zh"), ["nope"])


def test_parse_and_render_round_trip_and_a_repeated_cell_is_an_error():
    blocks = [
        translate.Block("a", "0123456789ab", "# 标题\n\n正文"),
        translate.Block("b", "todo", ""),
    ]
    text = translate.render(blocks, "zh", "notebooks/x.ipynb")
    assert list(translate.parse(text).values()) == blocks
    with pytest.raises(ValueError, match="translated twice"):
        translate.parse(text + "\n<!-- cell a en=todo -->\nagain\n")


def test_the_hash_ignores_trailing_spaces_only():
    assert translate.english_hash("a  \nb\n") == translate.english_hash("a\nb")
    assert translate.english_hash("a\nb") != translate.english_hash("a\nB")


def test_the_readme_course_map_can_change_without_making_its_translation_stale():
    text = "## The course\n\n<!-- course-map:start -->\n| 1 |\n<!-- course-map:end -->\n\nEnd."
    other = text.replace("| 1 |", "| 2 |")
    assert translate.readme_sections(text) == translate.readme_sections(other)
    assert "<!-- course-map -->" in translate.readme_sections(text)["the-course"]


# ---- 2. built, not copied ----------------------------------------------------------------------


def test_the_committed_edition_is_what_the_translations_build():
    """What git holds (a learner's working copy may hold outputs of a run)."""
    wanted, english = edition.files("zh")
    changed = [
        path.relative_to(ROOT).as_posix()
        for path, text in wanted.items()
        if (git.committed(path) or path.read_text(encoding="utf-8")) != text
    ]
    assert changed == [], f"run `python -m helpers edition zh`, then `git add`: {changed}"
    assert english == 0


@pytest.mark.parametrize("source", SOURCES, ids=[s.name for s in SOURCES])
def test_code_ids_tags_and_metadata_are_the_english_ones(source):
    english = nbformat.read(source, as_version=4)
    chinese = nbformat.read(edition.target(source, "zh"), as_version=4)
    assert chinese.metadata == english.metadata
    assert [c.id for c in chinese.cells] == [c.id for c in english.cells]
    for en, zh in zip(english.cells, chinese.cells, strict=True):
        assert (zh.cell_type, zh.metadata) == (en.cell_type, en.metadata), en.id
        if en.cell_type == "code":
            assert zh.source == en.source, en.id
        elif translate.NOT_TRANSLATED.match(en.source):  # a MANUAL cell: its marker as it is
            assert zh.source.splitlines()[0] == en.source.splitlines()[0], en.id
            assert zh.source == edition.manual_cell(en.source, "zh"), en.id
        else:
            assert zh.source != en.source, f"{en.id} is still in English"


@pytest.mark.parametrize("source", SOURCES[len(paths.lessons()) :], ids=lambda s: s.name)
def test_chinese_homework_asks_for_free_text_answers_in_chinese(source):
    chinese = parse(edition.target(source, "zh"))
    for part in chinese.manual.values():
        text = chinese.source(part)
        assert MANUAL_PLACEHOLDERS["zh"] in text and "可用中文作答" in text
        assert MANUAL_PLACEHOLDERS["en"] not in text


@pytest.mark.parametrize("source", SOURCES[len(paths.lessons()) :], ids=lambda s: s.name)
def test_chinese_homework_has_the_graders_markers(source):
    english, chinese = parse(source), parse(edition.target(source, "zh"))
    assert chinese.exercises.keys() == english.exercises.keys()
    assert chinese.tests.keys() == english.tests.keys()
    assert chinese.manual.keys() == english.manual.keys()
    assert english.exercises or english.manual


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("source", SOURCES, ids=[s.name for s in SOURCES])
def test_links_open_the_chinese_pages_where_there_are_some(source):
    target = edition.target(source, "zh")
    for cell in nbformat.read(target, as_version=4).cells:
        for link in LINK.findall(cell.source if cell.cell_type == "markdown" else ""):
            if re.match(r"^[a-z][a-z+.-]*:|^#", link):
                continue
            opened = (target.parent / link.split("#")[0]).resolve()
            assert opened.exists(), f"{cell.id}: {link}"
            if opened.suffix == ".ipynb":
                assert opened.is_relative_to(edition.folder("zh").resolve()), f"{cell.id}: {link}"
            assert opened.name != "README.md", f"{cell.id}: {link} (README.zh-CN.md exists)"


def test_relink_points_english_links_at_translations_or_back_at_the_english_files():
    source = paths.lessons()[0]
    anchors = {"the-course": "课程地图"}
    text = "[a](day01_hardware.ipynb) [b](../README.md#the-course) [c](../src/x.py) [d](#x)"
    assert edition.relink(text, source, "zh", anchors) == (
        "[a](day01_hardware.ipynb) [b](../../README.zh-CN.md#课程地图) [c](../../src/x.py) [d](#x)"
    )


def test_the_chinese_readme_has_the_map_the_quick_start_and_says_how_to_open_it():
    text = edition.readme("zh").read_text(encoding="utf-8")
    for lesson in edition.lessons("zh"):
        assert f"]({lesson.relative_to(ROOT).as_posix()})" in text
    assert "make lab LANG=zh" in text and "## 快速开始" in text
    assert "README.zh-CN.md" in paths.README.read_text(encoding="utf-8")


def test_the_chinese_readme_holds_the_guides_learner_facing_sections():
    text = edition.readme("zh").read_text(encoding="utf-8")
    assert translate.LEARNER_GUIDE and set(translate.units(paths.GUIDE)) == set(
        translate.LEARNER_GUIDE
    )
    for key, block in translate.load(paths.GUIDE, "zh").items():
        assert block.text.splitlines()[0] in text, key
    assert "## 作业：提交、评分与反馈" in text and "python -m helpers submit" in text
    assert "](instructor/GUIDE.md#homework-release-collect-grade)" in text
    assert "## Presenting" not in text and "Toggle Deck" not in text


def test_make_course_has_the_chinese_lessons_to_run():
    assert [p.name for p in edition.lessons("zh")] == [p.name for p in paths.lessons()]


@pytest.mark.parametrize(
    ("given", "opens"),
    [("zh", "notebooks/zh/"), ("zh_CN.UTF-8", "notebooks/zh/"), ("", "notebooks/")],
)
def test_make_lab_opens_the_chinese_day_0_when_asked(monkeypatch, given, opens):
    monkeypatch.setenv("COURSE_LANG", given)
    assert lab.start() == f"{opens}day00_setup.ipynb"


def test_make_lab_passes_lang_zh_on_as_the_course_setting():
    import subprocess

    dry = subprocess.run(["make", "--no-print-directory", "-n", "lab", "LANG=zh"], cwd=ROOT,
                         capture_output=True, text=True, check=True, encoding="utf-8",
                         errors="replace").stdout  # fmt: skip
    assert "COURSE_LANG=zh LANG=C.UTF-8 " in dry.splitlines()[-1]


# ---- 3. what the code prints -------------------------------------------------------------------


def test_the_language_comes_from_course_lang_then_from_the_notebooks_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("COURSE_LANG", raising=False)
    (tmp_path / "notebooks" / "zh" / "homework").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "notebooks" / "zh" / "homework")
    assert language() == "zh"
    monkeypatch.chdir(tmp_path / "notebooks")
    assert language() == "en"
    monkeypatch.setenv("COURSE_LANG", "zh-CN")
    assert language() == "zh"
    monkeypatch.setenv("COURSE_LANG", "fr")
    with pytest.raises(ValueError, match="not a language of the course"):
        language()


def test_predictions_and_checks_speak_the_course_language(monkeypatch):
    from helpers.course.grading.outcome import Check
    from helpers.course.homework.checks import CheckResult
    from helpers.show import compare_guess

    monkeypatch.setenv("COURSE_LANG", "zh")
    assert compare_guess(1000, 83, "parameters") == (
        "你猜的是 1,000 个参数，运行测得 83：偏高，约为实测值的 12 倍。"
    )
    assert compare_guess(80, 83, "parameters") == "你猜的是 80 个参数，运行测得 83：很接近。"
    assert compare_guess("cpu", "mps").endswith("这次没猜中。")
    report = CheckResult("day00.device", [Check("assert x", "passed")]).report()
    assert report.splitlines()[0] == "day00.device：1 项检查通过了 1 项，做得好！"
    monkeypatch.setenv("COURSE_LANG", "en")
    assert compare_guess(1000, 83, "parameters").endswith("12x too high.")


# ---- 4. terms ----------------------------------------------------------------------------------


def test_each_english_term_once_and_no_chinese_term_shared():
    rows = terms.load("zh")
    english = [t.english.lower() for t in rows]
    assert len(rows) > 100 and len(set(english)) == len(english)
    assert terms.shared_translations("zh") == {}


def test_the_lessons_glossaries_agree_with_the_terms_file():
    assert terms.glossary_disagreements("zh") == []


def test_every_term_an_english_cell_uses_is_in_its_translation():
    assert terms.missing_terms("zh") == []


def test_the_term_check_catches_a_translation_that_drifts(small_course):
    file = translate.translation_file(small_course, "zh")
    text = file.read_text(encoding="utf-8")
    file.write_text(text.replace("学习率为 0.01 的 SGD 每步", "步长为 0.01 的 SGD 每步"), "utf-8")
    assert terms.missing_terms("zh") == [
        "i18n/zh/day00_setup.md, cell day00setup-11: the English says 'learning rate', the "
        "translation lacks '学习率'"
    ]


def test_prose_forms_match_whole_words_outside_code():
    term = terms.Term("device", "设备", ("device",))
    assert term.used_in(terms.prose("the devices here")) == "device"
    assert term.used_in(terms.prose("call `get_device()` or [x](device.md)")) is None
    assert term.used_in(terms.prose("devicetype")) is None
    words = terms.message_prose("ids look like 'day00.device', in parameters() on {device}")
    assert term.used_in(words) is None


def test_no_translation_uses_a_rendering_the_terms_file_gives_up():
    found = terms.unused_renderings("zh")
    assert found == [], "\n".join(found)


def test_the_terms_file_gives_up_the_colliding_renderings():
    given_up = {r.unused: r for r in terms.renderings("zh")}
    for unused in ("内核", "收据", "轮", "拷", "回本", "定价", "GPU 内存", "学生"):
        assert unused in given_up, unused
    assert given_up["内核"].within == ("Jupyter 内核", "操作系统内核")
    rows = {t.english.split(" (")[0]: t.translated for t in terms.load("zh")}
    assert rows["kernel launch"] == "核函数启动" and rows["epoch"] == "轮次"
    assert rows["measurement round"] == "测量轮" and rows["receipt"] == "测量单"


def test_a_rendering_may_appear_inside_the_longer_words_that_allow_it():
    rule = terms.Rendering("内核", "核函数", ("Jupyter 内核", "操作系统内核"))
    text = "重启 Jupyter 内核；交给操作系统内核；每个 GPU 内核"
    assert [text[i : i + 2] for i in rule.spans(text)] == ["内核"]
    assert list(rule.spans(text)) == [len(text) - 2]
    assert (
        list(terms.Rendering("轮", "测量轮", ("轮次", "测量轮")).spans("两个轮次，三个测量轮"))
        == []
    )


def test_a_given_up_rendering_fails_with_its_place_named(small_course, monkeypatch):
    file = translate.translation_file(small_course, "zh")
    text = file.read_text(encoding="utf-8")
    text = text.replace("学习率为 0.01 的 SGD 每步", "学习率为 0.01 的 SGD 在 GPU 内存里每步", 1)
    file.write_text(text.replace("整条流程", "整条流程（每个内核）", 1), encoding="utf-8")
    found = [f for f in terms.unused_renderings("zh") if "course.po" not in f]
    assert found == [
        "i18n/zh/day00_setup.md, cell day00setup-11: '内核' in "
        "'要确认的是整条流程（每个内核）（软件包、设备、数据、': "
        "write 核函数（设备上执行一个运算的代码）；Jupyter 内核；操作系统内核",
        "i18n/zh/day00_setup.md, cell day00setup-11: 'GPU 内存' in "
        "'.01 的 SGD 在 GPU 内存里每步只走一小步，后面各': write 显存",
    ]


def test_a_catalog_message_with_a_given_up_rendering_is_named(monkeypatch):
    from babel.messages.catalog import Catalog

    made = Catalog(locale="zh_CN")
    made.add("{k} GPU kernels ran", "{k} 个 GPU 内核在运行")
    made.add("the lesson loop", "课程循环")
    monkeypatch.setattr(terms.catalog, "load", lambda lang: made)
    where = terms.catalog.po_path("zh").relative_to(paths.ROOT).as_posix()
    found = [f for f in terms.unused_renderings("zh") if f.startswith(where)]
    assert found == [
        f"{where}, '{{k}} GPU kernels ran': '内核' in '个 GPU 内核在运行': "
        "write 核函数（设备上执行一个运算的代码）；Jupyter 内核；操作系统内核",
        f"{where}, 'the lesson loop': '课程循环' in '课程循环': write 原课程的循环、原课程循环",
    ]
    assert [f for f in terms.missing_terms("zh") if f.startswith(where)] == [
        f"{where}, 'the lesson loop': the English says 'lesson loop', "
        "the translation lacks '原课程'"
    ]


def test_numbers_in_chinese_prose_are_written_the_chinese_way(small_course):
    assert terms.number_style("zh") == []
    file = translate.translation_file(small_course, "zh")
    text = file.read_text(encoding="utf-8").replace("120 行用于训练", "120,000 行用于训练", 1)
    file.write_text(text, encoding="utf-8")
    assert terms.number_style("zh") == [
        "i18n/zh/day00_setup.md, cell day00setup-05: '120,000': write it with 万 or 亿, or "
        "without commas"
    ]


def test_a_glossary_row_with_a_given_up_rendering_is_named(small_course):
    notebook = nbformat.read(small_course, as_version=4)
    cell = next(c for c in notebook.cells if "| epoch |" in c.source)
    cell.source = cell.source.replace("| epoch | 轮次（完整遍历一次训练数据） |", "| epoch | 轮 |")
    nbformat.write(notebook, small_course)
    assert terms.glossary_disagreements("zh") == [
        "day00_setup.ipynb: glossary row 'epoch' says '轮', the terms file '轮次' (for 'epoch')",
        "day00_setup.ipynb: glossary row 'epoch' says '轮': write 轮次（epoch）；测量轮（每个变体各"
        "计时一次的一轮测量）",
    ]


def test_each_file_left_for_later_exists_and_still_has_something_to_fix():
    found = terms.pending_findings("zh")
    for name in terms.PENDING:
        assert (translate.I18N / "zh" / name).is_file(), name
        assert found[name], f"{name} has nothing left to fix: take it off terms.PENDING"


ORIGINAL = ("浙大疏锦行", "DAY 34 GPU训练及类的call方法")
"""The original lesson's author and title, as both editions name them."""
HEADINGS = ("Python 循环的“底噪”", "同步开销的“阈值效应”", "GPU 任务提交的异步性")
"""The original's three headings, which the Chinese edition quotes as written."""
CREDITED = (
    "day02_devices",
    "day03_call_and_modules",
    "day04_heart_preprocessor",
    "day08_distributed",
)


def test_both_editions_credit_the_original_lesson_and_the_chinese_quotes_its_headings():
    for readme in (paths.README, edition.readme("zh")):
        top = readme.read_text(encoding="utf-8").split("\n## ", 1)[0]  # the course's intro
        assert all(part in top for part in ORIGINAL), readme.name
    chinese = edition.readme("zh").read_text(encoding="utf-8").split("\n## ", 1)[0]
    assert all(heading in chinese for heading in HEADINGS)
    lessons = [lesson for lesson in paths.lessons() if lesson.stem in CREDITED]
    assert len(lessons) == len(CREDITED)
    for lesson in lessons:
        for notebook in (lesson, edition.target(lesson, "zh")):
            cells = nbformat.read(notebook, as_version=4).cells
            intro = next(c.source for c in cells if c.cell_type == "markdown")
            assert all(part in intro for part in ORIGINAL), notebook


# ---- 5. rendering ------------------------------------------------------------------------------


def test_the_chinese_lessons_and_readme_render_without_literal_asterisks():
    found = []
    for lesson in paths.lessons():
        for cell in nbformat.read(edition.target(lesson, "zh"), as_version=4).cells:
            if cell.cell_type == "markdown":
                found += [
                    (lesson.name, s)
                    for s in edition.literal_asterisks(edition.rendered(cell.source))
                ]
    readme = edition.readme("zh").read_text(encoding="utf-8")
    found += [("README.zh-CN.md", s) for s in edition.literal_asterisks(edition.rendered(readme))]
    assert found == []


# ---- 6. the same code runs ---------------------------------------------------------------------


@pytest.mark.notebook
@pytest.mark.timeout(600)
def test_the_chinese_day_0_runs_in_fast_mode_and_prints_in_chinese():
    path = edition.target(paths.lessons()[0], "zh")
    env = {"OMP_NUM_THREADS": "1", "COURSE_LANG": ""}  # the folder alone chooses Chinese
    run = execute(path, fast=True, cell_timeout=180, env=env)
    assert run.error is None, run.error
    assert problems(run.notebook) == []
    printed = shown(run.notebook)
    assert any(s.startswith("还没有写下猜测") for s in printed), printed
    html = _html(run.notebook)  # the HTML copy, as `make course` writes it
    assert "<strong>" in html and edition.literal_asterisks(html) == []


def test_edition_command_checks_and_refuses_an_unknown_language(capsys):
    assert main(["edition", "zh", "--check"]) == 0
    assert "The zh edition is current." in capsys.readouterr().out
    assert main(["edition", "fr"]) == 1
    assert "no 'fr' edition" in capsys.readouterr().err
