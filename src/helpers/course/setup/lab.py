"""``make lab`` (``python -m helpers lab``): JupyterLab on the course, opening on day 0.

What it sets, and why:

* it opens ``notebooks/day00_setup.ipynb``, the course's first page (later days are linked from
  there and from the course map), or the Chinese edition's with ``COURSE_LANG=zh``;
* with ``COURSE_LANG=zh``, JupyterLab's own menus and dialogs are in Chinese too where its
  language pack (``jupyterlab-language-pack-zh-CN``, a 0.2 MB wheel) is installed: ``make lab
  LANG=zh`` installs it once, the English set-up never does, and a learner's own choice in
  *Settings > Language* still wins;
* no "get Jupyter news?" pop-up over the first output, and no update check (the room's machine
  may have no internet, and a lesson needs neither);
* slides come from jupyterlab-slideshow, which keeps knobs live; jupyterlab-rise, which earlier
  versions of the course installed, is switched off where it is still installed (its preview
  shows widgets as text and saves the lesson first);
* the file browser is wide enough for the lessons' names and shows names only (no date column):
  a first layout is written into the course's own workspace folder (``build/``), and JupyterLab
  remembers any change made to it from then on, except the documents that were open: it opens
  the one lesson it starts on, not every lesson of the last session, each with its kernel;
* a lesson opens unmodified (:mod:`helpers.course.setup.contents`), so autosave leaves it alone;
* on the slides (jupyterlab-slideshow), a knob's slide shows its controls and result without the
  cell's code, and Space, the arrows and Esc work after pressing a button too;
* after every save, :func:`helpers.course.setup.git.after_save` keeps a lesson saved with
  outputs from being listed by ``git status`` (the git filter keeps outputs out of commits).

The file browser's default comes from a ``default_setting_overrides.json``, and the switched-off
extension from a ``page_config.json``, that JupyterLab reads from a folder on
``JUPYTER_CONFIG_PATH``: the course adds its own folder (under ``build/``) in front, so a
learner's own settings still win and nothing outside the course is changed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path

from helpers.course import paths
from helpers.i18n import _

PRESENTING = "body[data-jp-deck-mode='presenting']"
"""The page while jupyterlab-slideshow presents a notebook as slides."""
NOTHING_FOCUSED = f"{PRESENTING}:not(:focus-within)"
"""...with the focus on no element: where it lands when a pressed button disables itself (a knob's
*run* while it runs), outside the elements the extension's own keys listen on."""

FORWARD, BACK = (
    {"direction": "down", "alternate": "forward"},
    {"direction": "up", "alternate": "back"},
)
SLIDE_KEYS = [
    {"command": "deck:stop", "keys": ["Escape"]},
    {"command": "deck:go", "keys": ["Space"], "args": FORWARD},
    {"command": "deck:go", "keys": ["Shift Space"], "args": BACK},
    {"command": "deck:forward", "keys": ["ArrowRight"]},
    {"command": "deck:back", "keys": ["ArrowLeft"]},
    {"command": "deck:up", "keys": ["ArrowUp"]},
    {"command": "deck:down", "keys": ["ArrowDown"]},
]
"""The slides' keys (as jupyterlab-slideshow binds them), also where the focus is on no element,
so that Space, the arrows and Esc still work after pressing a button on a slide."""

KNOB_SLIDES = {
    # a knob's code stays in the notebook; its slide shows the controls and the result
    f"{PRESENTING} .jp-Cell:has(.course-knob) .jp-Cell-inputWrapper": {"display": "none"},
}
"""Styles for the slides (global styles of jupyterlab-fonts, which jupyterlab-slideshow brings)."""

DEFAULT_SETTINGS = {
    # names only: with the "last modified" column, lesson names are cut off at the default width
    "@jupyterlab/filebrowser-extension:browser": {"showLastModifiedColumn": False},
    # never ask whether to fetch news (the server below does not fetch any either)
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
    "@jupyterlab/shortcuts-extension:shortcuts": {
        "shortcuts": [{**key, "selector": NOTHING_FOCUSED} for key in SLIDE_KEYS]
    },
    "@deathbeds/jupyterlab-fonts:fonts": {"styles": KNOB_SLIDES},
}


# switched off in the course's JupyterLab, where an older setup still has it installed
PAGE_CONFIG = {"disabledExtensions": {"jupyterlab-rise": True}}

# JupyterLab's first layout: the left panel (file browser) wide enough for every lesson's name
FIRST_LAYOUT = {
    "data": {
        "layout-restorer:data": {
            "left": {"collapsed": False, "visible": True, "current": "filebrowser"},
            "relativeSizes": [0.24, 0.76, 0],
        },
        "file-browser-filebrowser:cwd": {"path": "notebooks"},
    },
    "metadata": {"id": "default"},
}


LANGUAGE_PACKS = {
    "zh": ("zh_CN", "jupyterlab_language_pack_zh_CN", "jupyterlab-language-pack-zh-CN"),
}
"""Each edition's JupyterLab language pack: (JupyterLab's locale, its module, its PyPI name)."""


def edition() -> str:
    """The edition ``COURSE_LANG`` asks for (``en`` without it)."""
    lang = os.environ.get("COURSE_LANG", "").strip().lower().replace("-", "_").split("_")[0]
    return lang or "en"


def interface_locale(lang: str) -> str | None:
    """The locale JupyterLab's interface can show for the edition ``lang``: its language pack's,
    when that pack is installed; None for English or without the pack."""
    if lang not in LANGUAGE_PACKS:
        return None
    locale, module, _name = LANGUAGE_PACKS[lang]
    return locale if importlib.util.find_spec(module) is not None else None


def start() -> str:
    """The page JupyterLab opens on: the first lesson (day 0), relative to the course folder; the
    translated one when ``COURSE_LANG`` asks for a language with an edition (``make lab
    COURSE_LANG=zh`` opens ``notebooks/zh/day00_setup.ipynb``)."""
    first = paths.lessons()[0]
    lang = edition()
    translated = paths.NOTEBOOKS / lang / first.name if lang != "en" else first
    return (translated if translated.is_file() else first).relative_to(paths.ROOT).as_posix()


def workspace_file(folder: Path) -> Path:
    """The file of JupyterLab's default workspace in ``folder``."""
    # the file name jupyterlab_server gives the workspace "default" (its slugify; a test checks
    # that JupyterLab reads this file); importing it here would cost make lab two seconds
    signature = hashlib.sha256(b"default").hexdigest()[:4]
    return folder / f"default-{signature}.jupyterlab-workspace"


def _a_document(state) -> bool:
    """Whether a workspace entry reopens a document: ``{"data": {"path": ..., "factory": ...}}``."""
    data = state.get("data") if isinstance(state, dict) else None
    return isinstance(data, dict) and "path" in data and "factory" in data


def forget_open_documents(folder: Path) -> list[str]:
    """Drop, from the default workspace in ``folder``, the documents open when JupyterLab last
    stopped (the layout of the panels stays); returns their entries. Without it, every lesson
    opened in earlier sessions opens again, each starting its kernel."""
    target = workspace_file(folder)
    try:
        workspace = json.loads(target.read_text(encoding="utf-8"))
        data = workspace["data"]
    except (OSError, ValueError, KeyError, TypeError):
        return []  # none yet, or one JupyterLab will replace
    dropped = [key for key, state in data.items() if _a_document(state)]
    layout = data.get("layout-restorer:data")
    if isinstance(layout, dict) and layout.pop("main", None) is not None:
        dropped.append("layout-restorer:data/main")
    if dropped:
        workspace["data"] = {k: v for k, v in data.items() if k not in dropped}
        target.write_text(json.dumps(workspace, indent=2) + "\n", encoding="utf-8")
    return dropped


def write_first_layout(folder: Path) -> Path | None:
    """Write JupyterLab's default workspace into ``folder`` unless one is there already."""
    target = workspace_file(folder)
    if target.exists():
        return None
    folder.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(FIRST_LAYOUT, indent=2) + "\n", encoding="utf-8")
    return target


def settings(lang: str = "en") -> dict:
    """The course's JupyterLab defaults for the edition ``lang`` (its interface language where
    the language pack is installed)."""
    found = dict(DEFAULT_SETTINGS)
    if locale := interface_locale(lang):
        found["@jupyterlab/translation-extension:plugin"] = {"locale": locale}
    return found


def write_settings(lang: str = "en") -> str:
    """Write the course's JupyterLab defaults; returns the folder to put on JUPYTER_CONFIG_PATH."""
    folder = paths.LAB_CONFIG / "labconfig"
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in (
        ("default_setting_overrides.json", settings(lang)),
        ("page_config.json", PAGE_CONFIG),
    ):
        text = json.dumps(content, indent=2) + "\n"
        target = folder / name
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
    return str(paths.LAB_CONFIG)


def command(extra: list[str] | None = None) -> tuple[list[str], dict[str, str]]:
    """The ``jupyter lab`` command line and environment that ``make lab`` runs.

    An option in ``extra`` replaces the course's own of the same name: JupyterLab given an option
    twice silently drops others (seen with ``--LabApp.workspaces_dir``).
    """
    extra = list(extra or [])
    given = {a.split("=", 1)[0]: a.split("=", 1)[1] for a in extra if "=" in a}
    workspaces = Path(given.get("--LabApp.workspaces_dir", paths.LAB_WORKSPACES))
    write_first_layout(workspaces) or forget_open_documents(workspaces)
    course = {
        "--ServerApp.root_dir": str(paths.ROOT),
        "--LabApp.default_url": f"/lab/tree/{start()}",
        "--LabApp.news_url": "None",
        "--LabApp.check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
        "--LabApp.workspaces_dir": str(workspaces),
        "--FileContentsManager.post_save_hook": "helpers.course.setup.git.after_save",
        "--ServerApp.contents_manager_class": "helpers.course.setup.contents.CourseContents",
    }
    options = [f"{key}={value}" for key, value in course.items() if key not in given]
    env = dict(os.environ)
    lang = edition()
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        p for p in (write_settings(lang), env.get("JUPYTER_CONFIG_PATH", "")) if p
    )
    if lang in LANGUAGE_PACKS and interface_locale(lang) is None:
        print(
            _(
                "JupyterLab's own menus stay in English: its language pack is not installed "
                "(`make lab LANG=zh` installs it, or `pip install {package}`)."
            ).format(package=LANGUAGE_PACKS[lang][2]),
            flush=True,
        )
    # `-m jupyterlab`, not `-m jupyter lab`: the jupyter launcher runs the `jupyter-lab` script,
    # whose first line pip writes in UTF-8, and a course folder named in Chinese under a GBK
    # locale (Linux) then names a folder that is not there
    argv = [sys.executable, "-m", "jupyterlab", *options, *extra]
    if hasattr(os, "geteuid") and os.geteuid() == 0 and "--allow-root" not in extra:
        argv.append("--allow-root")  # containers often run as root
    return argv, env
