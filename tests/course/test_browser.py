"""A lesson in a real browser: JupyterLab on localhost, headless Chromium driven by Playwright.

Runs every cell, checks that none failed and that the lesson's knob updates its output, opens the
lesson as slides (the RISE presenter view), and saves screenshots of both in build/browser-test/.

Run it on its own with `python -m pytest -m browser`. It needs a Chromium (Debian's `chromium`
package; `.ci/run` installs it) or any Chrome named by COURSE_BROWSER; Playwright's own browser
download is not used.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from helpers.paths import ROOT

LESSON = "day06_gpu_takeoff.ipynb"  # fast in fast mode, and it has a knob
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

ALL_RAN = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel && panel.sessionContext.session && panel.sessionContext.session.kernel;
  if (!kernel || kernel.status !== 'idle') return false;
  const code = panel.content.widgets.filter(c => c.model.type === 'code');
  return code.length > 0 && code.every(c => c.model.executionCount !== null);
}"""
ERRORS = """() => {
  const errors = [];
  for (const cell of window.jupyterapp.shell.currentWidget.content.widgets) {
    if (cell.model.type !== 'code') continue;
    for (const out of cell.model.outputs.toJSON()) {
      if (out.output_type === 'error') errors.push(out.ename + ': ' + out.evalue);
    }
  }
  return errors;
}"""
KERNEL_READY = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const session = panel && panel.sessionContext && panel.sessionContext.session;
  return !!(session && session.kernel && session.kernel.status === 'idle');
}"""


SLIDES = """() => {
  for (const frame of document.querySelectorAll('iframe')) {
    const doc = frame.contentDocument;
    const slides = doc && doc.querySelectorAll('.reveal .slides > section');
    const heading = slides && slides.length && slides[0].querySelector('h1');
    if (heading) return {count: slides.length, title: heading.innerText.trim()};  // rendered
  }
  return null;
}"""


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


def slides_expected() -> tuple[int, str]:
    """How many slides the lesson's markers make, and its title (the first slide's heading)."""
    import nbformat

    lesson = nbformat.read(ROOT / "notebooks" / LESSON, as_version=4)
    count = sum(c.metadata.get("slideshow", {}).get("slide_type") == "slide" for c in lesson.cells)
    return count, lesson.cells[0].source.splitlines()[0].lstrip("# ")


def run_lesson_in_browser(browser_path: str, folder, screenshot, slides: tuple[int, str]) -> float:
    from playwright.sync_api import sync_playwright

    expected_slides, title = slides

    start = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    port, token = free_port(), "browser-test"
    # no "get Jupyter news?" pop-up over the screenshot: the server has no internet anyway
    news = folder / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True, exist_ok=True)
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env = {
        **os.environ, "COURSE_FAST": "1", "OMP_NUM_THREADS": "1",
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
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, "JupyterLab exited"
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api?token={token}", timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline, "JupyterLab did not start within 120 s"
                time.sleep(0.5)
        lesson = f"build/browser-test/{LESSON}"  # a copy: running it must not touch the lesson
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_path, args=ARGS)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(f"http://127.0.0.1:{port}/lab/tree/{lesson}?token={token}")
                page.wait_for_function(KERNEL_READY, timeout=120_000)
                page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
                page.wait_for_function(ALL_RAN, timeout=300_000, polling=500)
                assert page.evaluate(ERRORS) == []

                panel = page.locator(".widget-vbox", has_text="Time one step of your choosing")
                panel.scroll_into_view_if_needed(timeout=30_000)
                shows = "([el, text]) => el.innerText.includes(text)"
                # the default result is there; a changed setting gives a new one
                page.wait_for_function(shows, arg=[panel.element_handle(), "IrisMLP 4-10-3, "],
                                       timeout=60_000)  # fmt: skip
                panel.locator("select").first.select_option(label="wide 4-512-512-3")
                panel.get_by_role("button", name="run").click()
                page.wait_for_function(shows, arg=[panel.element_handle(), "wide 4-512-512-3, "],
                                       timeout=60_000)  # fmt: skip
                panel.scroll_into_view_if_needed()
                page.screenshot(path=str(screenshot))

                # presenter view: RISE renders the lesson as slides, one per title or section
                page.evaluate("window.jupyterapp.commands.execute('RISE:preview')")
                page.wait_for_function(SLIDES, timeout=60_000, polling=500)
                shown = page.evaluate(SLIDES)
                assert shown["count"] == expected_slides, shown
                assert shown["title"].startswith(title), shown
                page.screenshot(path=str(screenshot.with_name(f"{screenshot.stem}_slides.png")))
            finally:
                browser.close()
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert port_is_free(port), f"port {port} is still in use after the server stopped"
    return time.perf_counter() - start


@pytest.mark.browser
@pytest.mark.timeout(900)
def test_lesson_runs_in_a_real_browser_twice(tmp_path):
    browser_path, slides = chromium(), slides_expected()
    target = ROOT / "build" / "browser-test"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "notebooks" / LESSON, target / LESSON)
    for attempt in (1, 2):  # twice in a row: no leftover server, port or kernel in the way
        screenshot = target / f"{LESSON.removesuffix('.ipynb')}.png"
        folder = tmp_path / f"run{attempt}"
        seconds = run_lesson_in_browser(browser_path, folder, screenshot, slides)
        assert screenshot.stat().st_size > 10_000
        print(f"browser run {attempt}: {seconds:.1f} s")
