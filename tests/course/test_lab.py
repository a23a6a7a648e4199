"""`make lab` starts JupyterLab serving the course, opening on day 0: checked headless through its
REST API (the browser test sees the rest)."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from jupyter_server.utils import import_item

from helpers.course import paths
from helpers.course.paths import ROOT
from helpers.course.setup import git, lab


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_lab_serves_the_course(tmp_path):
    port, token = free_port(), "course-test-token"
    command = [
        sys.executable, "-m", "helpers", "lab", "--no-browser", f"--port={port}",
        "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
    ]  # fmt: skip
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path), "JUPYTER_CONFIG_DIR": str(tmp_path)}
    server = subprocess.Popen(
        command,
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
    )
    try:

        def get(path):
            url = f"http://127.0.0.1:{port}{path}?token={token}"
            with urllib.request.urlopen(url, timeout=5) as response:
                return json.load(response)

        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, "JupyterLab exited: " + server.stdout.read()
            try:
                listing = get("/api/contents/notebooks")
                break
            except OSError:
                assert time.monotonic() < deadline, "JupyterLab did not answer within 120 s"
                time.sleep(0.5)
        names = {item["name"] for item in listing["content"]}
        assert "day00_setup.ipynb" in names
        assert "python3" in get("/api/kernelspecs")["kernelspecs"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/?token={token}") as page:
            assert page.url.split("?")[0].endswith("/lab/tree/notebooks/day00_setup.ipynb")
            html = page.read().decode()
        assert "JupyterLab" in html
        assert '"news": {"disabled": true}' in html  # no "get Jupyter news?" pop-up
        browser = get("/lab/api/settings/@jupyterlab/filebrowser-extension:browser")
        assert browser["schema"]["properties"]["showLastModifiedColumn"]["default"] is False
        layout = get("/lab/api/workspaces/default")["data"]["layout-restorer:data"]
        assert layout["relativeSizes"][0] > 0.2  # the first layout, from the folder given
    finally:
        server.send_signal(signal.SIGINT if os.name != "nt" else signal.CTRL_C_EVENT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert ROOT.exists()


def test_lab_command_names_each_option_once_and_keeps_jupyter_s_own_settings(tmp_path):
    """A repeated option makes JupyterLab drop options silently (seen with workspaces_dir)."""
    argv, env = lab.command(["--port=9999", f"--LabApp.workspaces_dir={tmp_path}"])
    options = [a.split("=", 1)[0] for a in argv if a.startswith("--")]
    assert len(options) == len(set(options)), options
    assert f"--LabApp.workspaces_dir={tmp_path}" in argv  # yours win over the course's
    assert "--LabApp.news_url=None" in lab.command(["--LabApp.default_url=/lab"])[0]
    assert f"--LabApp.default_url=/lab/tree/{lab.start()}" in argv
    assert lab.start() == "notebooks/day00_setup.ipynb"
    assert "--LabApp.news_url=None" in argv
    hook = next(a for a in argv if a.startswith("--FileContentsManager.post_save_hook="))
    assert import_item(hook.split("=", 1)[1]) is git.after_save  # JupyterLab imports it by name
    config = env["JUPYTER_CONFIG_PATH"].split(os.pathsep)[0]
    overrides = json.loads(
        (paths.LAB_CONFIG / "labconfig" / "default_setting_overrides.json").read_text(
            encoding="utf-8"
        )
    )
    assert config == str(paths.LAB_CONFIG) and overrides == lab.DEFAULT_SETTINGS
    assert "JUPYTER_CONFIG_DIR" not in env or env["JUPYTER_CONFIG_DIR"] == os.environ.get(
        "JUPYTER_CONFIG_DIR"
    )  # the learner's own settings are left where they are


def test_the_first_layout_is_written_once(tmp_path):
    written = lab.write_first_layout(tmp_path)
    assert (
        written is not None and json.loads(written.read_text(encoding="utf-8")) == lab.FIRST_LAYOUT
    )
    written.write_text('{"data": {}, "metadata": {"id": "default"}}', encoding="utf-8")
    assert lab.write_first_layout(tmp_path) is None  # the learner's layout from then on
    assert "relativeSizes" not in written.read_text(encoding="utf-8")
