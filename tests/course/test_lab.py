"""`make lab` starts JupyterLab serving the course, opening on day 0: checked headless through its
REST API (the browser test sees the rest)."""

import json
import os
import shutil
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
from helpers.course.setup import contents, git, lab

# Every test here writes the course's JupyterLab settings (build/lab-config) or starts a server
# that reads them: one worker runs them all, one after another (make test's --dist loadgroup).
pytestmark = pytest.mark.xdist_group("lab-settings")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


LAST_SESSION = {
    "data": {
        "layout-restorer:data": {
            "main": {"dock": {"type": "tab-area", "currentIndex": 0, "widgets": [
                "notebook:notebooks/day01_hardware.ipynb", "notebook:notebooks/day02_devices.ipynb",
            ]}, "current": "notebook:notebooks/day02_devices.ipynb"},
            "left": {"collapsed": False, "visible": True, "current": "filebrowser"},
            "relativeSizes": [0.3, 0.7, 0],
        },
        "notebook:notebooks/day01_hardware.ipynb": {
            "data": {"path": "notebooks/day01_hardware.ipynb", "factory": "Notebook"}
        },
        "notebook:notebooks/day02_devices.ipynb": {
            "data": {"path": "notebooks/day02_devices.ipynb", "factory": "Notebook"}
        },
        "file-browser-filebrowser:cwd": {"path": "notebooks"},
    },
    "metadata": {"id": "default"},
}  # fmt: skip
"""A workspace as JupyterLab leaves it after a session with two lessons open."""


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_lab_serves_the_course(tmp_path):
    """JupyterLab on the course: day 0 first, the course's settings, a lesson as its kernel will
    see it (so it opens unmodified), and the panels of the last session without its lessons."""
    workspace = lab.workspace_file(tmp_path / "workspaces")
    workspace.parent.mkdir()
    workspace.write_text(json.dumps(LAST_SESSION), encoding="utf-8")
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
        saved = get("/lab/api/workspaces/default")["data"]
        assert saved["layout-restorer:data"]["relativeSizes"] == [0.3, 0.7, 0]  # the panels kept
        assert "main" not in saved["layout-restorer:data"]  # no lesson of the last session
        assert [key for key in saved if key.startswith("notebook:")] == []
        shortcuts = get("/lab/api/settings/@jupyterlab/shortcuts-extension:shortcuts")
        slide_keys = shortcuts["schema"]["properties"]["shortcuts"]["default"]
        assert {"command": "deck:stop", "keys": ["Escape"], "selector": lab.NOTHING_FOCUSED} in (
            slide_keys
        )
        styles = get("/lab/api/settings/@deathbeds/jupyterlab-fonts:fonts")
        assert styles["schema"]["properties"]["styles"]["default"] == lab.KNOB_SLIDES
        lesson = get("/api/contents/notebooks/day01_hardware.ipynb")["content"]
        assert lesson["metadata"]["language_info"] == contents.kernel_language_info()
        on_disk = json.loads((ROOT / "notebooks" / "day01_hardware.ipynb").read_text("utf-8"))
        assert lesson["cells"][0]["source"] == "".join(on_disk["cells"][0]["source"])
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
    manager = next(a for a in argv if a.startswith("--ServerApp.contents_manager_class="))
    assert import_item(manager.split("=", 1)[1]) is contents.CourseContents
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


def test_the_lessons_open_last_time_are_forgotten_and_the_panels_kept(tmp_path):
    assert lab.forget_open_documents(tmp_path) == []  # no workspace yet: nothing to do
    target = lab.workspace_file(tmp_path)
    target.write_text(json.dumps(LAST_SESSION), encoding="utf-8")
    dropped = lab.forget_open_documents(tmp_path)
    assert sorted(dropped) == [
        "layout-restorer:data/main",
        "notebook:notebooks/day01_hardware.ipynb",
        "notebook:notebooks/day02_devices.ipynb",
    ]
    kept = json.loads(target.read_text(encoding="utf-8"))
    layout = LAST_SESSION["data"]["layout-restorer:data"]
    assert kept["data"]["layout-restorer:data"] == {k: layout[k] for k in ("left", "relativeSizes")}
    assert kept["data"]["file-browser-filebrowser:cwd"] == {"path": "notebooks"}
    assert lab.forget_open_documents(tmp_path) == []  # nothing more to forget
    target.write_text("{not json", encoding="utf-8")
    assert lab.forget_open_documents(tmp_path) == []  # JupyterLab replaces a broken one
    assert target.read_text(encoding="utf-8") == "{not json"


def test_a_notebook_reads_as_the_course_kernel_reports_it():
    info = contents.kernel_language_info()
    assert info["name"] == "python" and info["version"] == ".".join(map(str, sys.version_info[:3]))
    lesson = {"metadata": {"kernelspec": {"name": "python3"}, "language_info": {"name": "python"}}}
    assert contents.as_the_kernel_reports(lesson)["metadata"]["language_info"] == info
    other = {"metadata": {"kernelspec": {"name": "ir"}, "language_info": {"name": "R"}}}
    assert contents.as_the_kernel_reports(other)["metadata"]["language_info"] == {"name": "R"}


# -- the Chinese edition: JupyterLab's own interface --------------------------------------------


def fake_language_pack(folder):
    """A JupyterLab language pack for zh_CN as the real one is laid out (its module, its locale
    folder and the entry point JupyterLab finds it by), with one translated string."""
    module = folder / "jupyterlab_language_pack_zh_CN"
    messages = module / "locale" / "zh_CN" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    (module / "__init__.py").write_text("", encoding="utf-8")
    catalog = {"": {"domain": "jupyterlab", "language": "zh_CN", "plural_forms": "nplurals=1;"},
               "File": ["文件"]}  # fmt: skip
    (messages / "jupyterlab.json").write_text(json.dumps(catalog), encoding="utf-8")
    info = folder / "jupyterlab_language_pack_zh_cn-4.5.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: jupyterlab-language-pack-zh-CN\nVersion: 4.5\n",
        encoding="utf-8",
    )
    (info / "entry_points.txt").write_text(
        "[jupyterlab.languagepack]\nzh_CN = jupyterlab_language_pack_zh_CN\n", encoding="utf-8"
    )
    return folder


def test_the_chinese_edition_asks_for_jupyterlabs_chinese_interface_where_the_pack_is(
    monkeypatch, capsys
):
    monkeypatch.setattr(lab.importlib.util, "find_spec", lambda name: object())  # installed
    assert lab.settings("zh")["@jupyterlab/translation-extension:plugin"] == {"locale": "zh_CN"}
    assert lab.settings("en") == lab.DEFAULT_SETTINGS
    monkeypatch.setenv("COURSE_LANG", "zh")
    lab.command()
    assert capsys.readouterr().out == ""
    written = paths.LAB_CONFIG / "labconfig" / "default_setting_overrides.json"
    assert json.loads(written.read_text(encoding="utf-8")) == lab.settings("zh")
    monkeypatch.setenv("COURSE_LANG", "en")
    lab.command()  # back to English: the override goes
    assert json.loads(written.read_text(encoding="utf-8")) == lab.DEFAULT_SETTINGS


def test_without_the_pack_the_chinese_edition_says_how_to_get_it(monkeypatch, capsys):
    monkeypatch.setattr(lab.importlib.util, "find_spec", lambda name: None)
    monkeypatch.setenv("COURSE_LANG", "zh")
    argv, _env = lab.command()
    assert lab.settings("zh") == lab.DEFAULT_SETTINGS
    out = capsys.readouterr().out
    assert out.startswith("JupyterLab 自己的菜单仍是英文")
    assert "pip install jupyterlab-language-pack-zh-CN" in out
    assert "--LabApp.default_url=/lab/tree/notebooks/zh/day00_setup.ipynb" in argv


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_lab_in_chinese_serves_its_interface_in_chinese(tmp_path):
    """make lab LANG=zh: JupyterLab finds the language pack and defaults to its locale."""
    port, token = free_port(), "course-test-token"
    pack = fake_language_pack(tmp_path / "pack")
    command = [
        sys.executable, "-m", "helpers", "lab", "--no-browser", f"--port={port}",
        "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
    ]  # fmt: skip
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path), "JUPYTER_CONFIG_DIR": str(tmp_path),
           "COURSE_LANG": "zh", "PYTHONPATH": str(pack)}  # fmt: skip
    server = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, encoding="utf-8")  # fmt: skip
    try:

        def get(path):
            url = f"http://127.0.0.1:{port}{path}?token={token}"
            with urllib.request.urlopen(url, timeout=5) as response:
                return json.load(response)

        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, "JupyterLab exited: " + server.stdout.read()
            try:
                packs = get("/lab/api/translations/")
                break
            except OSError:
                assert time.monotonic() < deadline, "JupyterLab did not answer within 120 s"
                time.sleep(0.5)
        assert "zh_CN" in packs["data"]
        plugin = get("/lab/api/settings/@jupyterlab/translation-extension:plugin")
        assert plugin["schema"]["properties"]["locale"]["default"] == "zh_CN"
        assert get("/lab/api/translations/zh_CN")["data"]["jupyterlab"]["File"] == ["文件"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/?token={token}") as page:
            assert page.url.split("?")[0].endswith("/lab/tree/notebooks/zh/day00_setup.ipynb")
    finally:
        server.send_signal(signal.SIGINT if os.name != "nt" else signal.CTRL_C_EVENT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    lab.write_settings()  # the course's English defaults again


# -- the Makefile's installs (dry runs) -----------------------------------------------------------


def dry_run(tmp_path, *args):
    """What `make` would run here, in a copy of the files its recipes read."""
    for name in ("Makefile", "pyproject.toml", "requirements-lock.txt", "src/helpers/config.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    done = subprocess.run(
        ["make", "-n", *args], cwd=tmp_path, capture_output=True, text=True, encoding="utf-8",
        errors="replace",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_wheel_mirror_is_passed_to_pip_as_find_links_and_keeps_the_tested_set(tmp_path):
    mirror = "https://mirrors.aliyun.com/pytorch-wheels/cu128/"
    out = dry_run(tmp_path, "-B", ".venv/.installed", f"TORCH_FIND_LINKS={mirror}",
                  "TORCH_SPEC=torch==2.13.0+cu128")  # fmt: skip
    torch_line = next(line for line in out.splitlines() if '"torch==' in line)
    assert torch_line.endswith(f'install "torch==2.13.0+cu128"  -f {mirror}')
    assert "-c requirements-lock.txt" in out  # a build of the tested release is the tested one
    plain = dry_run(tmp_path, "-B", ".venv/.installed")
    assert " -f " not in plain and "--index-url" not in plain
    other = dry_run(tmp_path, "-B", ".venv/.installed", "TORCH_SPEC=torch==2.9.1")
    assert "-c requirements-lock.txt" not in other  # another release: pyproject's ranges


def test_only_the_chinese_lab_installs_jupyterlabs_language_pack(tmp_path):
    assert "jupyterlab-language-pack-zh-CN" in dry_run(tmp_path, "lab", "LANG=zh")
    assert "jupyterlab-language-pack-zh-CN" in dry_run(tmp_path, "lab", "COURSE_LANG=zh_CN")
    assert "jupyterlab-language-pack-zh-CN" not in dry_run(tmp_path, "lab")


def test_jupyterlab_runs_as_a_module_of_this_python_not_through_a_script():
    """`jupyter lab` would run the `jupyter-lab` script, whose first line pip writes in UTF-8:
    in a course folder named in Chinese under a GBK locale it names a folder that is not there.
    The module needs no script."""
    argv, _env = lab.command()
    assert argv[:3] == [sys.executable, "-m", "jupyterlab"]
    done = subprocess.run(
        [*argv[:3], "--version"], capture_output=True, text=True, encoding="utf-8", timeout=120
    )
    assert done.returncode == 0 and done.stdout.strip()[0].isdigit(), done.stdout + done.stderr
