"""The live demo in a real browser: `make lab`'s JupyterLab on localhost, headless Chromium
driven by Playwright, a lesson presented as slides with jupyterlab-slideshow.

One run of day 1, as an instructor gives it:

1. open the lesson, in a checkout of this commit beside the repository (a ``git worktree``:
   JupyterLab saves the lesson with outputs, and no other test should read it meanwhile): it
   opens unmodified, its kernel started (nothing for autosave to write); the file browser shows
   every lesson's name in full, and the instructor guide names the slide commands as the
   extension does; run every cell: none fails;
2. on a 1280x720 screen, then a 1920x1080 one (projectors' sizes), go forward slide by slide to
   the knob; it is a control (a slider and a *run* button), not text; its title, controls and
   result lie inside the screen; change the slider, press *run*: the output shows the new
   setting, and all of it is still inside the screen (screenshots before and after pressing
   *run* in ``build/browser-test/``); then the keys, with the focus where *run* left it: Space
   goes to the next slide (on the first screen) and Esc leaves the slides;
3. save the lesson (as autosave would): the working copy now holds outputs;
4. reload the page: the slides come back by themselves, and the knob still answers; the
   lesson's "Course map" link opens the README at the course map;
5. stop JupyterLab: ``git status`` lists nothing that it did not before (clean in a fresh clone),
   and the repository's rules (tests/test_project.py) pass with the saved lesson in place.

And the fallback for a failed live demo: day 1's HTML copy as ``make course`` writes it, opened
with the network off, shows the knob's default result and the live view's bars, and asks for
nothing from another host.

The checkout is removed at the end. It needs a Chromium (Debian's ``chromium`` package;
``.ci/run`` installs it) or any Chrome named by COURSE_BROWSER; Playwright's own browser
download is not used. Run it alone with ``python -m pytest -m browser``.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from helpers.course import paths
from helpers.course.notebooks.html import WIDGET_STATE, export, remote_requests
from helpers.course.setup import git
from tests.course.test_notebooks import lesson_env

LESSON = Path("notebooks") / "day01_hardware.ipynb"  # a knob with a live view; quick in fast mode
RULES = "tests/test_project.py"  # the repository's rules
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

NOTEBOOK = "window.jupyterapp.shell.currentWidget"
KERNEL_IDLE = f"""() => {{
  const panel = window.jupyterapp && {NOTEBOOK};
  const session = panel && panel.sessionContext && panel.sessionContext.session;
  return !!(session && session.kernel && session.kernel.status === 'idle');
}}"""
ALL_RAN = f"""() => {{
  const panel = {NOTEBOOK};
  const kernel = panel && panel.sessionContext.session && panel.sessionContext.session.kernel;
  if (!kernel || kernel.status !== 'idle') return false;
  const code = panel.content.widgets.filter(c => c.model.type === 'code');
  return code.length > 0 && code.every(c => c.model.executionCount !== null);
}}"""
ERRORS = f"""() => {{
  const errors = [];
  for (const cell of {NOTEBOOK}.content.widgets) {{
    if (cell.model.type !== 'code') continue;
    for (const out of cell.model.outputs.toJSON()) {{
      if (out.output_type === 'error') errors.push(out.ename + ': ' + out.evalue);
    }}
  }}
  return errors;
}}"""
SLIDES_ON = "() => document.body.dataset.jpDeckMode === 'presenting'"
SLIDES_OFF = "() => document.body.dataset.jpDeckMode !== 'presenting'"
SCREENS = [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]  # 16:9 projectors
ACTIVE_CELL = f"{NOTEBOOK}.content.activeCellIndex"
GUIDE_COMMANDS = ["deck:toggle", "deck:start", "deck:stop"]  # the guide names them, in bold
CUT_NAMES = """() => [...document.querySelectorAll('.jp-DirListing-itemText')]
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth).map(e => e.innerText)"""
NEXT = "window.jupyterapp.commands.execute('deck:go', {direction: 'down', alternate: 'forward'})"
SAVED = f"() => !{NOTEBOOK}.context.model.dirty"
OPENED_UNMODIFIED = f"""async () => {{
  await {NOTEBOOK}.sessionContext.session.kernel.info;  // JupyterLab writes it into the notebook
  await new Promise(done => setTimeout(done, 500));
  return !{NOTEBOOK}.context.model.dirty;
}}"""


def chromium() -> str:
    found = os.environ.get("COURSE_BROWSER") or shutil.which("chromium") or shutil.which(
        "chromium-browser") or shutil.which("google-chrome")  # fmt: skip
    if not found:
        pytest.fail(
            "No Chromium found for the browser test. Install Debian's chromium "
            "(`sudo apt-get install chromium`) or set COURSE_BROWSER=/path/to/chrome; to run the "
            "other tests only: python -m pytest -m 'not browser'"
        )
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_is_free(port: int) -> bool:
    """Nothing listens on it any more (closed connections may linger in TIME_WAIT; that is fine)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def knob_title(lesson: Path) -> str:
    """The title of the lesson's knob panel, read from its ``knob_panel(..., title=...)`` cell
    (the English of ``title=_("...")``, or the text written there)."""
    for cell in nbformat.read(lesson, as_version=4).cells:
        if cell.cell_type == "code" and "knob_panel(" in cell.source:
            found = re.search(r'title=_\("([^"]+)"\)', cell.source)
            if found:
                return found[1]
            found = re.search(r'title="([^"]+)"', cell.source)
            if found:
                return found[1]
    raise AssertionError(f"{lesson.name} has no knob_panel(..., title=...) cell")


def git_env() -> dict[str, str]:
    """The environment for git and JupyterLab: the course's notebook filter, passed through
    git's environment when this clone has not set it up (``make install`` does)."""
    env = dict(os.environ)
    if not git.filter_installed():
        settings = git.settings()
        env["GIT_CONFIG_COUNT"] = str(len(settings))
        for i, (key, value) in enumerate(settings.items()):
            env[f"GIT_CONFIG_KEY_{i}"], env[f"GIT_CONFIG_VALUE_{i}"] = key, value
    return env


def git_status(env, root: Path) -> str:
    result = subprocess.run(
        ["git", "status", "--porcelain"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def start_lab(folder: Path, port: int, token: str, env) -> subprocess.Popen:
    """`python -m helpers lab` (what `make lab` runs), with settings and layout kept in folder."""
    env = {
        **env, "COURSE_FAST": "1", "OMP_NUM_THREADS": "1",
        "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
        "JUPYTER_CONFIG_DIR": str(folder / "config"),
    }  # fmt: skip
    server = subprocess.Popen(
        [sys.executable, "-m", "helpers", "lab", "--no-browser", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
         "--LabApp.expose_app_in_browser=True", f"--LabApp.workspaces_dir={folder / 'workspaces'}",
         f"--LabApp.user_settings_dir={folder / 'settings'}"],
        cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while True:
        assert server.poll() is None, "JupyterLab exited"
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api?token={token}", timeout=5)
            return server
        except OSError:
            assert time.monotonic() < deadline, "JupyterLab did not start within 120 s"
            time.sleep(0.5)


def stop_lab(server: subprocess.Popen) -> None:
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def assert_on_screen(page, panel, when: str) -> None:
    """The knob's title, controls, run button and result all lie inside the screen."""
    screen = page.viewport_size
    parts = {
        "title": panel.locator(".widget-html").first,
        "first control": panel.get_by_role("slider").first,
        "run button": panel.get_by_role("button", name="run"),
        "result": panel.locator(".widget-output"),
    }
    for name, part in parts.items():
        box = part.bounding_box()
        assert box and box["width"] > 0 and box["height"] > 0, f"{when}: no {name} drawn"
        inside = (
            box["x"] >= 0
            and box["y"] >= 0
            and box["x"] + box["width"] <= screen["width"]
            and box["y"] + box["height"] <= screen["height"]
        )
        assert inside, f"{when}, on a {screen['width']}x{screen['height']} screen: the knob's " + (
            f"{name} lies at x={box['x']:.0f}..{box['x'] + box['width']:.0f}, "
            f"y={box['y']:.0f}..{box['y'] + box['height']:.0f}, not inside the screen"
        )


def use_knob_on_a_slide(page, title: str, shots: Path | None, name: str, start: int = 0) -> int:
    """Go forward slide by slide to the knob (from the cell ``start``), change its first slider
    and press run: its output must show the new value, and the whole knob stays on the screen
    before and after. Saves screenshots ``<name>_before.png`` / ``<name>_after.png``; returns the
    cell the knob's slide was reached at."""
    panel = page.locator(".jp-deck-mod-onscreen .widget-vbox", has_text=title)
    page.evaluate(f"{ACTIVE_CELL} = {start}")
    for _ in range(60):  # a presenter pressing Space: next fragment, sub-slide or slide
        if panel.count() and panel.first.is_visible():
            break
        page.evaluate(NEXT)
        page.wait_for_timeout(150)
    panel = panel.first
    panel.wait_for(state="visible", timeout=10_000)
    reached = page.evaluate(ACTIVE_CELL)
    slider = panel.get_by_role("slider").first  # a control, not the text of a widget's repr
    output = panel.locator(".widget-output")
    output.wait_for(state="visible", timeout=60_000)
    before = output.inner_text()
    assert_on_screen(page, panel, "before pressing run")
    slider.focus()
    page.keyboard.press("ArrowRight")
    value = panel.locator(".widget-readout").first.inner_text().strip()
    page.screenshot(path=str(shots / f"{name}_before.png"))
    panel.get_by_role("button", name="run").click()
    page.wait_for_function(
        "([el, old, value]) => el.innerText !== old && el.innerText.includes(value)",
        arg=[output.element_handle(), before, value],
        timeout=60_000,
    )
    page.wait_for_function("el => !el.disabled", arg=panel.get_by_role("button").element_handle())
    assert_on_screen(page, panel, "after pressing run")
    page.screenshot(path=str(shots / f"{name}_after.png"))
    return reached


def keys_after_run(page, space: bool) -> None:
    """With the focus where *run* left it: Space goes on to the next slide, Esc leaves them."""
    if space:
        slide = page.evaluate(ACTIVE_CELL)
        page.keyboard.press("Space")
        page.wait_for_function(f"i => {ACTIVE_CELL} > i", arg=slide, timeout=5_000)
        page.wait_for_function(SLIDES_ON)
    page.keyboard.press("Escape")
    page.wait_for_function(SLIDES_OFF, timeout=5_000)


def course_map_opens_at_the_map(page) -> None:
    """The lesson's "Course map" link opens the README with the course map on the screen."""
    page.evaluate("window.jupyterapp.commands.execute('deck:stop')")
    link = page.locator(".jp-RenderedMarkdown a", has_text="Course map").last
    link.scroll_into_view_if_needed()
    link.click()
    row = page.locator(".jp-RenderedMarkdown tr", has_text="Know your hardware").first
    row.wait_for(state="visible", timeout=30_000)
    page.wait_for_function(
        "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && "
        "r.bottom <= window.innerHeight; }",
        arg=row.element_handle(),
        timeout=10_000,
    )  # the README scrolled to its map, not left at its top


def present_in_browser(browser_path: str, folder: Path, shots: Path, env, root: Path) -> None:
    from playwright.sync_api import sync_playwright

    title = knob_title(root / LESSON)
    port, token = free_port(), "browser-test"
    server = start_lab(folder, port, token, env)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path, args=ARGS)
            try:
                page = browser.new_page(viewport=SCREENS[0])
                page.on("dialog", lambda dialog: dialog.accept())  # "leave the page?" on reload
                lesson = LESSON.as_posix()
                page.goto(f"http://127.0.0.1:{port}/lab/tree/{lesson}?token={token}")
                page.wait_for_function(KERNEL_IDLE, timeout=120_000)
                assert page.evaluate(OPENED_UNMODIFIED), "the lesson opened already modified"
                assert page.evaluate(CUT_NAMES) == [], "file names cut off in the file browser"
                labels = page.evaluate(
                    "ids => ids.map(id => window.jupyterapp.commands.label(id))", GUIDE_COMMANDS
                )
                guide = (root / paths.GUIDE.relative_to(paths.ROOT)).read_text(encoding="utf-8")
                assert all(label and f"**{label}**" in guide for label in labels), labels

                page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
                page.wait_for_function(ALL_RAN, timeout=300_000, polling=500)
                assert page.evaluate(ERRORS) == []
                knob = 0  # the first screen walks from the start, the others from the slide before
                for screen in SCREENS:
                    page.set_viewport_size(screen)
                    page.evaluate("window.jupyterapp.commands.execute('deck:start')")
                    page.wait_for_function(SLIDES_ON, timeout=30_000)
                    name = f"knob_on_slide_{screen['width']}x{screen['height']}"
                    knob = use_knob_on_a_slide(page, title, shots, name, start=max(0, knob - 1))
                    keys_after_run(page, space=screen is SCREENS[0])
                page.evaluate("window.jupyterapp.commands.execute('deck:start')")
                page.wait_for_function(SLIDES_ON, timeout=30_000)

                page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
                page.wait_for_function(SAVED, timeout=30_000)

                page.reload()  # the slides come back by themselves, and the knob still answers
                page.wait_for_function(KERNEL_IDLE, timeout=120_000)
                page.wait_for_function(SLIDES_ON, timeout=30_000)
                use_knob_on_a_slide(page, title, shots, "knob_on_slide_after_reload", knob - 1)
                course_map_opens_at_the_map(page)
            finally:
                browser.close()
    finally:
        stop_lab(server)
    assert port_is_free(port), f"port {port} is still in use after the server stopped"


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_a_knob_answers_on_a_slide_and_the_repository_stays_clean(tmp_path):
    browser_path, env = chromium(), git_env()
    shots = paths.BROWSER_TEST
    shots.mkdir(parents=True, exist_ok=True)
    root = tmp_path / "course"
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(root), "HEAD"],
        cwd=paths.ROOT, env=env, check=True, capture_output=True,
    )  # fmt: skip
    git.settle_index(root)  # else git runs the filter on every notebook once: two minutes
    env = {**env, "COURSE_ROOT": str(root)}
    status = git_status(env, root)
    start = time.perf_counter()
    try:
        present_in_browser(browser_path, tmp_path, shots, env, root)
        saved = nbformat.read(root / LESSON, as_version=4)
        assert any(c.get("outputs") for c in saved.cells), "the saved lesson should hold outputs"
        listed = set(git_status(env, root).splitlines()) - set(status.splitlines())
        diff = subprocess.run(["git", "diff"], cwd=root, env=env, capture_output=True,
                              text=True, encoding="utf-8").stdout  # fmt: skip
        assert listed == set(), f"git status lists what the run changed: {listed}\n{diff[:3000]}"
        rules = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", RULES],
            cwd=root, env=env, capture_output=True, text=True, timeout=300, encoding="utf-8",
        )  # fmt: skip
        assert rules.returncode == 0, rules.stdout[-3000:] + rules.stderr[-2000:]
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(root)],
            cwd=paths.ROOT, env=env, check=False, capture_output=True,
        )  # fmt: skip
    print(f"browser run: {time.perf_counter() - start:.1f} s")
    sizes = [f"{screen['width']}x{screen['height']}" for screen in SCREENS]
    names = [f"knob_on_slide_{size}_{when}" for size in sizes for when in ("before", "after")]
    for name in [*names, "knob_on_slide_after_reload_after"]:
        assert (shots / f"{name}.png").stat().st_size > 10_000


def knob_default_result(nb: nbformat.NotebookNode) -> list[str]:
    """The lines a knob panel showed for its default settings, as the executed notebook saved
    them in its widget state (Markdown marks taken off, as a page shows them)."""
    state = nb.metadata["widgets"][WIDGET_STATE]["state"]
    panel = next(m for m in state.values() if "course-knob" in m["state"].get("_dom_classes", []))
    output = state[panel["state"]["children"][-1].removeprefix("IPY_MODEL_")]
    lines = []
    for out in output["state"]["outputs"]:
        text = out.get("data", {}).get("text/markdown", "") or out.get("text", "")
        lines += [re.sub(r"\*\*|`", "", line) for line in text.splitlines() if line.strip()]
    assert lines, "the knob's default run showed nothing"
    return lines


LOCAL = ("file:", "blob:", "data:")


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_an_html_copy_shows_the_knob_and_the_bars_with_the_network_off(tmp_path, fast_run):
    browser_path = chromium()
    lesson = paths.ROOT / LESSON
    run = fast_run(lesson, lesson_env(lesson))  # the run tests/course/test_notebooks.py checks
    assert run.error is None, run.error
    copy = tmp_path / LESSON.with_suffix(".html")
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_text(export(run.notebook), encoding="utf-8")  # make course's exporter
    assert remote_requests(copy.read_text(encoding="utf-8")) == []
    expected, title = knob_default_result(run.notebook), knob_title(paths.ROOT / LESSON)
    from playwright.sync_api import sync_playwright

    asked = []

    def offline(route):
        asked.append(route.request.url)
        route.continue_() if route.request.url.startswith(LOCAL) else route.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_path, args=ARGS)
        try:
            context = browser.new_context(viewport=SCREENS[0], offline=True)
            context.route("**/*", offline)
            page = context.new_page()
            page.goto(copy.as_uri())
            panel = page.locator(".widget-vbox", has_text=title).first
            output = panel.locator(".widget-output")
            output.wait_for(state="visible", timeout=30_000)
            shown = output.inner_text()
            assert all(line in shown for line in expected), f"{expected} not in {shown!r}"
            bars = panel.locator(".progress-bar")  # the live view's bars, drawn
            assert bars.count() >= 2 and bars.first.bounding_box()["width"] > 0
            output.scroll_into_view_if_needed()
            paths.BROWSER_TEST.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(paths.BROWSER_TEST / "html_copy_offline.png"))
        finally:
            browser.close()
    assert [url for url in asked if not url.startswith(LOCAL)] == []
