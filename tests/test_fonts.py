import os
import warnings

import matplotlib as mpl
import matplotlib.pyplot as plt
import pytest

from helpers import fonts


@pytest.fixture
def rc():
    with mpl.rc_context():
        yield


def test_a_cjk_font_comes_after_the_default_so_latin_text_is_unchanged(rc):
    mpl.rcParams["font.sans-serif"] = ["DejaVu Sans", "Arial"]
    assert fonts.use_cjk_font(["DejaVu Sans", "SimHei", "Noto Sans CJK SC"]) == "Noto Sans CJK SC"
    assert mpl.rcParams["font.sans-serif"] == ["DejaVu Sans", "Noto Sans CJK SC", "Arial"]
    assert mpl.rcParams["font.family"] == ["DejaVu Sans", "Noto Sans CJK SC"]


def test_without_a_cjk_font_nothing_changes(rc, capsys):
    before = list(mpl.rcParams["font.sans-serif"])
    assert fonts.use_cjk_font(["DejaVu Sans"]) is None
    assert mpl.rcParams["font.sans-serif"] == before
    assert capsys.readouterr().out == ""  # fonts only report: helpers.show gives the advice


@pytest.mark.parametrize(("lang", "advice"), [("zh", "fonts-noto-cjk"), ("en", None)])
def test_a_chinese_lesson_without_a_font_says_how_to_get_one_in_chinese(
    lang, advice, monkeypatch, capsys
):
    from helpers import i18n, show

    monkeypatch.setenv("COURSE_LANG", lang)
    monkeypatch.setattr(fonts, "use_cjk_font", lambda installed=None: None)
    i18n.plots_draw_chinese.cache_clear()
    try:
        show.readable_tables()
    finally:
        i18n.plots_draw_chinese.cache_clear()
    out = capsys.readouterr().out
    if advice is None:
        assert out == ""
    else:
        assert advice in out and "重启 Jupyter 内核" in out, out


def test_chinese_labels_draw_without_missing_glyphs_where_a_font_is_installed(rc):
    family = fonts.cjk_font()
    if family is None:
        if os.environ.get("COURSE_REQUIRE_CHINESE") == "1":  # CI installs fonts-noto-cjk
            pytest.fail("COURSE_REQUIRE_CHINESE=1 but no CJK font is installed (fonts-noto-cjk)")
        pytest.skip("no CJK font on this machine (Debian: apt-get install fonts-noto-cjk)")
    fonts.use_cjk_font()
    figure, ax = plt.subplots()
    ax.set_xlabel("remaining time 剩余时长 (s)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns "Glyph ... missing from font(s)"
        figure.canvas.draw()
    plt.close(figure)
