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


def test_without_a_cjk_font_it_says_how_to_get_one(rc, capsys):
    before = list(mpl.rcParams["font.sans-serif"])
    assert fonts.use_cjk_font(["DejaVu Sans"]) is None
    out = capsys.readouterr().out
    assert "fonts-noto-cjk" in out and "restart the kernel" in out
    assert mpl.rcParams["font.sans-serif"] == before


def test_chinese_labels_draw_without_missing_glyphs_where_a_font_is_installed(rc):
    family = fonts.cjk_font()
    if family is None:
        if os.environ.get("COURSE_REQUIRE_CHINESE") == "1":  # CI installs fonts-noto-cjk
            pytest.fail(f"COURSE_REQUIRE_CHINESE=1 but {fonts.FONT_ADVICE}")
        pytest.skip(f"no CJK font on this machine: {fonts.FONT_ADVICE}")
    fonts.use_cjk_font()
    figure, ax = plt.subplots()
    ax.set_xlabel("remaining time 剩余时长 (s)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns "Glyph ... missing from font(s)"
        figure.canvas.draw()
    plt.close(figure)
