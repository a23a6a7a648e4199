"""Chinese characters in plots: which CJK font is installed, and using it.

matplotlib's default font (DejaVu Sans) has no Chinese characters: a label such as "剩余时长"
comes out as empty boxes, with only a warning in the log. :func:`use_cjk_font` puts an installed
CJK font after the default one, so Latin text looks as before and each Chinese character falls
back to the CJK font (matplotlib 3.6 and later look through the list glyph by glyph). This module
only finds and reports; where there is none, plots keep English labels
(:func:`helpers.i18n.plot_language`) and :func:`helpers.show.readable_tables` says how to
install one, in the course's language.

>>> cjk_font(["DejaVu Sans", "Noto Sans CJK SC"])
'Noto Sans CJK SC'
>>> cjk_font(["DejaVu Sans"]) is None
True
"""

from __future__ import annotations

import re

# Families that hold simplified Chinese, as Linux, macOS and Windows name them, best first.
CJK_FAMILIES = (
    "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "Source Han Sans CN",
    "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "PingFang SC", "Heiti SC", "Hiragino Sans GB",
    "Microsoft YaHei", "SimHei", "Droid Sans Fallback", "AR PL UMing CN",
)  # fmt: skip

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def has_chinese(text: str) -> bool:
    """Whether ``text`` holds Chinese characters.

    >>> has_chinese("remaining time 剩余时长"), has_chinese("remaining time")
    (True, False)
    """
    return bool(_CJK.search(text))


def cjk_font(installed: list[str] | None = None) -> str | None:
    """The first of :data:`CJK_FAMILIES` among the ``installed`` font families (default:
    what matplotlib finds on this machine), or ``None``."""
    if installed is None:
        from matplotlib import font_manager

        installed = [font.name for font in font_manager.fontManager.ttflist]
    names = set(installed)
    return next((family for family in CJK_FAMILIES if family in names), None)


def use_cjk_font(installed: list[str] | None = None) -> str | None:
    """Let plots draw Chinese: add the CJK font found after matplotlib's default sans-serif font
    and return its name; with none installed, change nothing and return ``None``."""
    import matplotlib as mpl

    family = cjk_font(installed)
    if family is None:
        return None
    fonts = [name for name in mpl.rcParams["font.sans-serif"] if name != family]
    mpl.rcParams["font.sans-serif"] = [fonts[0], family, *fonts[1:]]
    # named families (not the generic "sans-serif", which resolves to one font) fall back in turn
    mpl.rcParams["font.family"] = [fonts[0], family]
    return family
