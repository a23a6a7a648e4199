"""`make lab` starts JupyterLab serving the course: checked headless through its REST API."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from helpers.paths import ROOT


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
    ]  # fmt: skip
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path), "JUPYTER_CONFIG_DIR": str(tmp_path)}
    server = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
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
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token={token}") as page:
            assert page.status == 200 and "JupyterLab" in page.read().decode()
    finally:
        server.send_signal(signal.SIGINT if os.name != "nt" else signal.CTRL_C_EVENT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert ROOT.exists()
