"""The course in a cloud notebook: the first cell (README, lessons) and ``python -m helpers
bootstrap``. Colab and Kaggle are imitated (a stub ``google.colab``, their variables); the slow
test runs the README's own cell in a fresh venv that already holds PyTorch, fetching the course
from a local git repository (file://), and checks that PyTorch is the same file afterwards."""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
from pathlib import Path

import nbformat
import pytest
import torch

from helpers.course import cli, paths
from helpers.course.notebooks import outline
from helpers.course.setup import bootstrap, git
from helpers.course.setup.bootstrap import IndexCheck, Place, Torch

FAKE = "https://github.com/example-owner/example-course"  # never fetched: only written into links
BASE_PYTHON = getattr(sys, "_base_executable", sys.executable)  # the interpreter under .venv


def readme_cell() -> str:
    """The Python block the README shows between the first-cell markers."""
    text = paths.README.read_text(encoding="utf-8")
    region = text.split(outline.CELL_START, 1)[1].split(outline.CELL_END, 1)[0]
    return re.fullmatch(r"\n```python\n(.*)\n```\n", region, re.S)[1]


def run_cell(python, cwd, **env):
    """The first cell run as a notebook would: in ``cwd``, by ``python``; returns the process."""
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "COURSE_ROOT")}
    # git's messages in English (the tests look for "fatal:"), the cell's output in UTF-8
    environ.update({"LANGUAGE": "en", "PYTHONIOENCODING": "utf-8"}, **env)
    cell = bootstrap.first_cell(environ.pop("REPOSITORY", ""))
    return subprocess.run(
        [python, "-c", cell],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
        encoding="utf-8",
    )


# -- where it runs --------------------------------------------------------------------------------


@pytest.fixture
def no_gpu(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)


@pytest.fixture
def fake_colab(tmp_path, monkeypatch):
    """A ``google.colab`` module on the path, as Colab's runtime has (removed afterwards)."""
    (tmp_path / "stub" / "google" / "colab").mkdir(parents=True)
    (tmp_path / "stub" / "google" / "colab" / "__init__.py").write_text("", encoding="utf-8")
    before = {name for name in sys.modules if name.split(".")[0] == "google"}
    monkeypatch.syspath_prepend(str(tmp_path / "stub"))
    yield
    for name in [n for n in sys.modules if n.split(".")[0] == "google" and n not in before]:
        del sys.modules[name]


def test_colab_is_recognised_by_its_module(fake_colab, no_gpu):
    place = bootstrap.detect({})
    assert place == Place("Colab", None, place.advice)
    assert "Runtime > Change runtime type" in place.advice


def test_colab_is_recognised_by_its_variables(no_gpu):
    assert bootstrap.detect({"COLAB_RELEASE_TAG": "release-colab_20261201-060000"}).name == "Colab"


@pytest.mark.parametrize("variable", ["KAGGLE_KERNEL_RUN_TYPE", "KAGGLE_URL_BASE"])
def test_kaggle_is_recognised_by_its_variables(variable, no_gpu):
    place = bootstrap.detect({variable: "Interactive"})
    assert place.name == "Kaggle" and "Accelerator" in place.advice


def test_a_cuda_machine_names_its_gpu(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda index=0: "NVIDIA H200")
    assert bootstrap.detect({}) == Place("a machine with CUDA", "NVIDIA H200")
    assert bootstrap.detect({"COLAB_GPU": "1"}) == Place("Colab", "NVIDIA H200")  # no advice


def test_anywhere_else_is_a_machine_without_cuda(no_gpu):
    place = bootstrap.detect({"HOME": "/root"})  # no Colab module here, no Kaggle variables
    assert (place.name, place.gpu) == ("a machine without CUDA", None)


# -- the package index ---------------------------------------------------------------------------


def test_the_index_is_pip_index_url_else_pip_config_else_pypi(tmp_path):
    assert bootstrap.index_url(environ={"PIP_INDEX_URL": " http://mirror/simple "}) == (
        "http://mirror/simple"
    )
    config = tmp_path / "pip.conf"
    config.write_text("[global]\nindex-url = http://configured.invalid/simple\n", encoding="utf-8")
    env = {**os.environ, "PIP_CONFIG_FILE": str(config)}
    env.pop("PIP_INDEX_URL", None)
    assert bootstrap.index_url(environ=env) == "http://configured.invalid/simple"
    env["PIP_CONFIG_FILE"] = os.devnull  # pip reads no configuration file at all
    assert bootstrap.index_url(environ=env) == bootstrap.DEFAULT_INDEX


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_unreachable_index_stops_with_the_mirror_advice(monkeypatch, capsys, no_gpu):
    index = f"http://127.0.0.1:{closed_port()}/simple"
    monkeypatch.setenv("PIP_INDEX_URL", index)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # no other index or local wheel folder
    monkeypatch.setenv("PIP_FIND_LINKS", "")
    check = bootstrap.check_index()
    assert not check.ok and check.detail
    commands = []
    monkeypatch.setattr(bootstrap, "_run", lambda command, **k: commands.append(command))
    assert bootstrap.bootstrap() == 1
    out = capsys.readouterr().out
    assert f"ERROR: the package index ({index}) did not answer" in out
    assert f"({index}) is slow or unreachable" in out and f"PIP_INDEX_URL={bootstrap.MIRROR}" in out
    assert commands == []  # nothing installed


# -- the command, its steps faked ----------------------------------------------------------------


@pytest.fixture
def steps(monkeypatch, no_gpu):
    """bootstrap() with the index answering at once and the commands it runs recorded (pip's
    output, for a failed install, is ``codes["output"]``)."""
    ran = []
    codes = {"install": 0, "doctor": 0, "output": ""}

    def fake_run(command, cwd=None, env=None):
        ran.append(command)
        return codes["doctor" if "doctor" in command else "install"]

    def fake_pip(command):
        return fake_run(command), codes["output"]

    monkeypatch.setenv("COURSE_LANG", "en")  # whatever folder the tests run from
    monkeypatch.setattr(bootstrap, "_run", fake_run)
    monkeypatch.setattr(bootstrap, "_pip", fake_pip)
    monkeypatch.setattr(bootstrap, "check_index", lambda *a, **k: IndexCheck(True, 0.4, "ok"))
    monkeypatch.setattr(bootstrap, "index_url", lambda *a, **k: "https://pypi.example/simple")
    return ran, codes


def test_it_installs_the_course_with_pytorch_pinned_then_runs_the_doctor(steps, capsys):
    ran, codes = steps
    codes["doctor"] = 3  # whatever the doctor says is the command's answer
    assert bootstrap.bootstrap() == 3
    install, doctor = ran
    assert install[1:5] == ["-m", "pip", "install", "-e"] and install[5] == str(paths.ROOT)
    pins = Path(install[install.index("-c") + 1]).read_text(encoding="utf-8")
    assert pins == f"torch=={torch.__version__}\n"
    assert doctor[1:] == ["-m", "helpers", "doctor"]
    out = capsys.readouterr().out
    assert "Course set-up on a machine without CUDA" in out
    assert f"PyTorch {torch.__version__} stays as it is" in out
    assert "slow or unreachable" not in out and "Restart the kernel" not in out


def test_a_slow_index_gets_the_mirror_advice_and_the_install_goes_on(steps, monkeypatch, capsys):
    monkeypatch.setattr(bootstrap, "check_index", lambda *a, **k: IndexCheck(True, 41.0, "ok"))
    assert bootstrap.bootstrap() == 0
    out = capsys.readouterr().out
    assert "the package index took 41 s" in out and bootstrap.MIRROR in out
    assert len(steps[0]) == 2


def test_a_failed_install_whose_cause_is_unclear_names_both_causes(steps, capsys):
    ran, codes = steps
    codes["install"], codes["output"] = 1, "ERROR: something pip did not like\n"
    assert bootstrap.bootstrap() == 1
    out = capsys.readouterr().out
    assert "ERROR: pip could not install the course" in out and bootstrap.MIRROR in out
    assert "If they speak of versions, an image with a newer PyTorch" in out
    assert len(ran) == 1  # no doctor


# What pip 26 printed here (pip install -e <course> -c <torch pin>), shortened.
PIP_CONFLICT = """\
Obtaining file:///root/course
ERROR: Cannot install helpers==0.1.0 because these package versions have conflicting dependencies.

The conflict is caused by:
    helpers 0.1.0 depends on torch>=2.4
    The user requested (constraint) torch==2.1.0

To fix this you could try to:
1. loosen the range of package versions you've specified
2. remove package versions to allow pip to attempt to solve the dependency conflict

ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts
"""
PIP_OTHER_CONFLICT = PIP_CONFLICT.replace("torch>=2.4", "jupyterlab>=4.1").replace(
    "The user requested (constraint) torch==2.1.0", "notebook 6.5.4 depends on jupyterlab<4"
)
PIP_UNREACHABLE = (
    "Looking in indexes: http://127.0.0.1:9/simple\n"
    "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) "
    "after connection broken by 'NewConnectionError(\"HTTPConnection(host='127.0.0.1', port=9): "
    "Failed to establish a new connection: [Errno 111] Connection refused\")': "
    "/simple/jupyterlab/\n"
    "ERROR: Could not find a version that satisfies the requirement jupyterlab>=4.1 (from "
    "helpers) (from versions: none)\n"
    "ERROR: No matching distribution found for jupyterlab>=4.1\n"
)
PIP_TIMEOUT = (
    "Collecting jupyterlab>=4.1\n  Downloading jupyterlab-4.6.6-py3-none-any.whl (12.3 MB)\n"
    "pip._vendor.urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool("
    "host='files.pythonhosted.org', port=443): Read timed out.\n"
)
PIP_MISSING = (
    "Looking in indexes: https://mirror.example/simple\n"
    "ERROR: Could not find a version that satisfies the requirement jupyterlab-slideshow>=0.3.4 "
    "(from helpers) (from versions: none)\n"
    "ERROR: No matching distribution found for jupyterlab-slideshow>=0.3.4\n"
)
PIP_OLD_PYTHON = "ERROR: Package 'helpers' requires a different Python: 3.9.18 not in '>=3.10'\n"


@pytest.mark.parametrize(
    "output, kind",
    [
        (PIP_CONFLICT, "conflict"),
        (PIP_OTHER_CONFLICT, "conflict"),
        (PIP_UNREACHABLE, "network"),
        (PIP_TIMEOUT, "network"),
        (PIP_MISSING, "missing"),
        (PIP_OLD_PYTHON, "python"),
        ("ERROR: Could not build wheels for helpers\n", "unknown"),
    ],
)
def test_pips_messages_tell_a_conflict_from_the_index(output, kind):
    assert bootstrap.diagnose(output).kind == kind


def test_a_conflict_names_its_cause_in_pips_own_lines():
    found = bootstrap.diagnose(PIP_CONFLICT)
    assert found.lines == (
        "helpers 0.1.0 depends on torch>=2.4",
        "The user requested (constraint) torch==2.1.0",
    )
    assert found.mentions_torch and not bootstrap.diagnose(PIP_OTHER_CONFLICT).mentions_torch


def test_a_version_conflict_is_not_blamed_on_the_index(steps, capsys):
    ran, codes = steps
    codes["install"], codes["output"] = 1, PIP_CONFLICT
    assert bootstrap.bootstrap() == 1
    out = capsys.readouterr().out
    assert "a version conflict, not the package index" in out
    assert "helpers 0.1.0 depends on torch>=2.4; The user requested (constraint)" in out
    assert "Choose an image with a newer PyTorch" in out
    assert "slow or unreachable" not in out and bootstrap.MIRROR not in out
    assert len(ran) == 1


def test_a_conflict_with_another_package_names_that_package(steps, capsys):
    steps[1].update(install=1, output=PIP_OTHER_CONFLICT)
    assert bootstrap.bootstrap() == 1
    out = capsys.readouterr().out
    assert "notebook 6.5.4 depends on jupyterlab<4" in out and "pip install -U <name>" in out
    assert bootstrap.MIRROR not in out


@pytest.mark.parametrize("output", [PIP_UNREACHABLE, PIP_TIMEOUT])
def test_an_index_that_fails_during_the_install_gets_the_mirror_advice(steps, capsys, output):
    steps[1].update(install=1, output=output)
    assert bootstrap.bootstrap() == 1
    out = capsys.readouterr().out
    assert "ERROR: pip could not download from the package index" in out
    assert f"PIP_INDEX_URL={bootstrap.MIRROR}" in out and "version conflict" not in out


def test_a_package_the_mirror_lacks_is_named_with_the_other_fix(steps, capsys):
    steps[1].update(install=1, output=PIP_MISSING)
    assert bootstrap.bootstrap() == 1
    out = capsys.readouterr().out
    assert "has no version that fits: ERROR: No matching distribution found for" in out
    assert "try another mirror, or PyPI itself" in out


def test_an_old_python_is_named(steps, capsys):
    steps[1].update(install=1, output=PIP_OLD_PYTHON)
    assert bootstrap.bootstrap() == 1
    assert "older than the course needs (3.10 or newer)" in capsys.readouterr().out


def test_an_image_with_an_old_pytorch_stops_before_pip_and_says_so(steps, monkeypatch, capsys):
    old = Torch("2.1.0+cu121", "/opt/conda/lib/python3.10/site-packages/torch/__init__.py", 1)
    monkeypatch.setattr(bootstrap, "installed_torch", lambda: old)
    assert bootstrap.bootstrap() == 1
    out = capsys.readouterr().out
    assert "PyTorch 2.1.0+cu121 is older than the course needs (torch>=2.4)" in out
    assert "This is not the package index" in out and bootstrap.MIRROR not in out
    assert steps[0] == []  # pip never ran


def test_the_needed_pytorch_is_the_courses_own_requirement():
    assert bootstrap.needed_torch() == "2.4"  # pyproject.toml: "torch>=2.4"
    assert bootstrap.release("2.4.0") >= bootstrap.release("2.4") > bootstrap.release("2.3.1")


def test_a_real_pip_conflict_is_read_as_one(tmp_path, monkeypatch, capsys):
    """pip itself, offline: the course's requirement against a pin it cannot meet."""
    project = tmp_path / "course"
    (project / "helpers").mkdir(parents=True)
    (project / "helpers" / "__init__.py").write_text("", encoding="utf-8")
    (project / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=69"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "helpers"\nversion = "0.1.0"\ndependencies = ["torch>=2.4"]\n',
        encoding="utf-8",
    )
    pins = tmp_path / "constraints.txt"
    pins.write_text("torch==2.1.0\n", encoding="utf-8")
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # no index, no wheel folder: offline
    monkeypatch.setenv("PIP_FIND_LINKS", "")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    command = bootstrap.install_command(sys.executable, project, pins, isolated=False)
    code, output = bootstrap._pip([*command, "--dry-run"])
    assert code == 1 and "ResolutionImpossible" in capsys.readouterr().out  # shown as it came
    assert bootstrap.diagnose(output) == bootstrap.Diagnosis(
        "conflict",
        ("helpers 0.1.0 depends on torch>=2.4", "The user requested (constraint) torch==2.1.0"),
    )


def test_the_set_up_writes_utf_8_into_the_first_cells_pipe_whatever_the_locale():
    """The first cell reads the set-up's output as UTF-8; a Chinese Windows (imitated here by
    PYTHONIOENCODING=gbk) would write GBK, and the cell would stop on its first Chinese line."""
    code = (
        "from helpers.course.setup import bootstrap; child = bootstrap.speak_utf8(); "
        "print('课程安装位置'); import os, subprocess, sys; "
        "subprocess.run([sys.executable, '-c', 'print(\"一切就绪\")'], env={**os.environ, **child})"
    )
    env = {**os.environ, "PYTHONIOENCODING": "gbk"}
    done = subprocess.run([sys.executable, "-c", code], cwd=paths.SRC, env=env, capture_output=True)
    assert done.stdout.decode("utf-8").split() == ["课程安装位置", "一切就绪"], done.stderr


# -- the edition's language ----------------------------------------------------------------------


def test_the_language_comes_from_the_notebook_that_started_the_set_up():
    zh = "/root/autodl-tmp/course/notebooks/zh/day00_setup.ipynb"
    assert bootstrap.edition_language({"JPY_SESSION_NAME": zh}, "/anywhere") == "zh"
    assert bootstrap.edition_language({"JPY_SESSION_NAME": "course/notebooks/zh/x.ipynb"}) == "zh"
    english = {"JPY_SESSION_NAME": "/root/course/notebooks/day00_setup.ipynb"}
    assert bootstrap.edition_language(english, "/root/course/notebooks/zh") is None
    assert bootstrap.edition_language({}, "C:\\Users\\李\\course\\notebooks\\zh") == "zh"
    assert bootstrap.edition_language({}, "/content") is None
    assert bootstrap.edition_language({"COURSE_LANG": "zh"}, "/content") == "zh"
    assert bootstrap.edition_language({"COURSE_LANG": "en"}, "/c/notebooks/zh") is None


def test_the_kernels_folder_is_the_parent_process_working_folder(tmp_path):
    """The first cell runs the set-up as a child of the kernel, from src/: the child reads the
    folder its parent (the kernel) works in, which is the notebook's."""
    folder = tmp_path / "课程 course" / "notebooks" / "zh"
    folder.mkdir(parents=True)
    child = "from helpers.course.setup.bootstrap import edition_language as e; print(e())"
    kernel = (
        "import subprocess, sys; "
        f"subprocess.run([sys.executable, '-c', {child!r}], cwd={str(paths.SRC)!r})"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_LANG", "JPY_SESSION_NAME")}
    done = subprocess.run(
        [sys.executable, "-c", kernel], cwd=folder, env=env, capture_output=True, text=True,
        encoding="utf-8", timeout=60,
    )  # fmt: skip
    assert done.stdout.strip() == "zh", done.stderr


def test_the_chinese_edition_sets_up_in_chinese(steps, monkeypatch, capsys):
    monkeypatch.setenv("COURSE_LANG", "")
    monkeypatch.setenv("JPY_SESSION_NAME", "/root/course/notebooks/zh/day00_setup.ipynb")
    assert bootstrap.bootstrap() == 0
    out = capsys.readouterr().out
    assert "课程安装位置：一台没有 CUDA 的机器" in out and "保持不动" in out
    assert os.environ["COURSE_LANG"] == "zh"  # the doctor, run after it, speaks Chinese too


def test_the_mirror_advice_reads_chinese_in_the_chinese_edition(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    said = bootstrap.mirror_advice("https://pypi.org/simple")
    assert said.startswith("从这里访问软件包索引（https://pypi.org/simple）很慢或根本连不上")
    assert f"pip config set global.index-url {bootstrap.MIRROR}" in said


def test_no_pytorch_is_an_error_that_points_to_make(steps, monkeypatch, capsys):
    monkeypatch.setattr(bootstrap, "installed_torch", lambda: None)
    assert bootstrap.bootstrap() == 1
    assert "has no PyTorch" in capsys.readouterr().out and steps[0] == []


def test_an_install_that_replaced_pytorch_is_an_error(steps, monkeypatch, capsys):
    found = iter([Torch("2.8.0+cu126", "/x/torch/__init__.py", 1), Torch("2.13.0", "/y", 2)])
    monkeypatch.setattr(bootstrap, "installed_torch", lambda: next(found))
    assert bootstrap.bootstrap() == 1
    out = capsys.readouterr().out
    changed = "ERROR: the install changed PyTorch: 2.8.0+cu126 at /x/torch/__init__.py is now"
    assert f"{changed} 2.13.0 at /y." in out
    assert len(steps[0]) == 1


def test_packages_the_kernel_may_have_loaded_ask_for_a_restart(steps, monkeypatch, capsys):
    found = iter([{"ipykernel": "7.1.0", "six": "1.17"}, {"ipykernel": "6.31.0", "six": "1.17"}])
    monkeypatch.setattr(bootstrap, "installed_versions", lambda: next(found))
    assert bootstrap.bootstrap() == 0
    out = capsys.readouterr().out
    assert "Changed: ipykernel 7.1.0 -> 6.31.0." in out and "Restart the kernel" in out


def test_the_command_line_has_bootstrap(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "bootstrap" in capsys.readouterr().out


# -- the first cell ------------------------------------------------------------------------------


def test_the_first_cell_is_a_short_cell_that_names_the_repository():
    cell = bootstrap.first_cell(FAKE)
    compile(cell, "first cell", "exec")
    assert len(cell.splitlines()) <= 30  # the repository's rule for lesson cells
    assert f'def start_course(url="{FAKE}"):' in cell and cell.endswith("\nstart_course()")
    assert 'def start_course(url=""):' in bootstrap.first_cell("")


@pytest.mark.parametrize("check", [["check"], ["format", "--check"]])
def test_the_first_cell_passes_ruff_as_it_is_written(check):
    """Generated as `ruff check` and `ruff format` want it, so formatting a lesson keeps it
    current for `python -m helpers outline --check`."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *check, "--stdin-filename", "first_cell.py", "-"],
        input=bootstrap.first_cell(FAKE) + "\n", cwd=paths.ROOT, capture_output=True, text=True,
        encoding="utf-8",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_readme_shows_the_cell_the_lessons_start_with():
    repository, _ = bootstrap.settings()
    assert readme_cell() == bootstrap.first_cell(repository)


def test_where_the_course_is_installed_the_cell_does_nothing(tmp_path):
    done = run_cell(sys.executable, tmp_path, REPOSITORY=FAKE)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.fixture
def without_course():
    """A Python that cannot import helpers (the interpreter this .venv was made from)."""
    probe = [BASE_PYTHON, "-c", "import importlib.util as u; print(u.find_spec('helpers'))"]
    found = subprocess.run(probe, capture_output=True, text=True, encoding="utf-8").stdout
    if found.strip() != "None":
        pytest.skip(f"{BASE_PYTHON} can import helpers")
    return BASE_PYTHON


def test_without_git_the_cell_says_to_install_it(without_course, tmp_path):
    done = run_cell(without_course, tmp_path, REPOSITORY=FAKE, PATH=str(tmp_path / "no-git"))
    assert done.returncode == 1
    assert "Fetching the course needs git: install it, then rerun this cell." in done.stderr


def test_without_a_repository_the_cell_says_how_to_name_one(without_course, tmp_path):
    done = run_cell(without_course, tmp_path)
    assert done.returncode == 1 and "fatal:" in done.stdout  # git's own message, shown
    assert "Could not clone '': set COURSE_REPO_URL." in done.stderr


def test_a_failed_clone_is_named(without_course, tmp_path):
    missing = (tmp_path / "remote" / "course").as_uri()
    (tmp_path / "notebook").mkdir()
    done = run_cell(without_course, tmp_path / "notebook", COURSE_REPO_URL=missing)
    assert done.returncode == 1 and "fatal:" in done.stdout
    assert f"Could not clone '{missing}': set COURSE_REPO_URL." in done.stderr
    assert os.listdir(tmp_path / "notebook") == []


# -- the course map and the lessons' first cell (python -m helpers outline) ----------------------


@pytest.fixture
def course_copy(tmp_path, monkeypatch):
    """The lessons, the README and pyproject.toml copied, and the outline pointed at the copy."""
    root = tmp_path / "course"
    shutil.copytree(paths.NOTEBOOKS, root / "notebooks", ignore=shutil.ignore_patterns(".*"))
    for name in ("README.md", "pyproject.toml"):
        shutil.copy(paths.ROOT / name, root / name)
    copies = [
        ("ROOT", root),
        ("README", root / "README.md"),
        ("PYPROJECT", root / "pyproject.toml"),
    ]
    for name, value in copies:
        monkeypatch.setattr(paths, name, value)
    monkeypatch.setattr(paths, "NOTEBOOKS", root / "notebooks")
    monkeypatch.setattr(paths, "HOMEWORK", root / "notebooks" / "homework")
    return root


def set_repository(root: Path, url: str) -> None:
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    text = re.sub(r'(?m)^repository = ".*"$', f'repository = "{url}"', text)
    pyproject.write_text(text, encoding="utf-8")
    assert bootstrap.settings(pyproject) == (url, "main")


def test_a_github_repository_gives_colab_links_a_kaggle_line_and_the_cell(course_copy):
    set_repository(course_copy, FAKE + ".git")
    outline.outline()
    readme = (course_copy / "README.md").read_text(encoding="utf-8")
    lessons = sorted((course_copy / "notebooks").glob("day*.ipynb"))
    colab = "https://colab.research.google.com/github/example-owner/example-course/blob/main"
    for lesson in lessons:
        assert f"[Open in Colab]({colab}/notebooks/{lesson.name})" in readme
        nb = nbformat.read(lesson, as_version=4)
        first = nb.cells[1]
        assert first.source == bootstrap.first_cell(FAKE + ".git")
        assert first.metadata == {
            "tags": ["bootstrap"],
            "jupyter": {"source_hidden": True},
            "slideshow": {"slide_type": "skip"},
        }
        assert nb.cells[0].metadata["slideshow"] == {"slide_type": "slide"}  # the title
        assert sum(bootstrap.TAG in c.metadata.get("tags", []) for c in nb.cells) == 1
    page = f"https://github.com/example-owner/example-course/blob/main/notebooks/{lessons[0].name}"
    assert f"**Kaggle:** [open day 0](https://kaggle.com/kernels/welcome?src={page})" in readme
    assert readme.count(f'def start_course(url="{FAKE}.git"):') == 1
    assert outline.outline(check=True) == []  # written once, current afterwards


def test_without_a_repository_the_links_are_left_out_and_the_readme_says_how_to_set_it(
    course_copy,
):
    set_repository(course_copy, FAKE)
    outline.outline()
    set_repository(course_copy, "")
    changed = outline.outline()
    assert "README.md" in changed and len(changed) > 1  # the lessons' cells changed too
    readme = (course_copy / "README.md").read_text(encoding="utf-8")
    table = readme.split(outline.MAP_START)[1].split(outline.MAP_END)[0]
    assert "colab.research" not in readme and "Open in Colab](" not in readme
    assert FAKE not in readme
    assert '"Open in Colab" links and a line for Kaggle appear here once' in table
    assert 'def start_course(url=""):' in readme


def test_a_repository_elsewhere_gets_no_colab_links():
    lessons = [(paths.lessons()[0], {"day": 0, "title": "Check your setup"})]
    table = outline.course_map(lessons, "https://gitee.com/example/course.git", "main")
    assert "Open in Colab" not in table and "colab.research" not in table
    assert "this course lives at https://gitee.com/example/course.git" in table


# -- the README's cell, end to end ---------------------------------------------------------------


def course_repository(folder: Path) -> str:
    """This course's files (as git would commit them) in a new git repository; its file:// URL."""
    if git.is_checkout():
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=paths.ROOT, capture_output=True, text=True, check=True, encoding="utf-8",
        ).stdout.splitlines()  # fmt: skip
    else:
        listed = [str(p.relative_to(paths.ROOT)) for p in paths.ROOT.rglob("*") if p.is_file()]
        listed = [n for n in listed if not n.startswith((".venv", "build", ".git"))]
    for name in listed:
        if (paths.ROOT / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(paths.ROOT / name, folder / name)
    author = ["-c", "user.name=Course", "-c", "user.email=course@example.invalid"]
    for command in (["init", "-q"], ["add", "-A"], [*author, "commit", "-q", "-m", "course"]):
        subprocess.run(["git", *command], cwd=folder, check=True, capture_output=True)
    return folder.as_uri()


def cloud_python(venv: Path) -> Path:
    """A new venv whose Python sees this environment's packages (PyTorch among them) as
    installed, like a cloud image's, but not the course: a .pth line adds their folder to its
    path without running their .pth files (the course's editable install is one)."""
    subprocess.run([BASE_PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True, encoding="utf-8",
    ).stdout.strip()  # fmt: skip
    Path(site, "preinstalled.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    return python


STATE = """import importlib.util as u, importlib.metadata as m, json, os
torch = u.find_spec("torch").origin
helpers = u.find_spec("helpers")
print(json.dumps({"torch": [m.version("torch"), torch, os.stat(torch).st_mtime_ns],
    "helpers": helpers and helpers.origin,
    "installed": helpers and m.distribution("helpers").read_text("direct_url.json")}))"""


def state(python: Path, cwd: Path) -> dict:
    done = subprocess.run(
        [python, "-c", STATE], cwd=cwd, capture_output=True, text=True, encoding="utf-8"
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
def test_the_readme_cell_starts_the_course_next_to_the_pytorch_there(tmp_path):
    url = course_repository(tmp_path / "course-repo")
    python = cloud_python(tmp_path / "cloud-env")
    notebook_folder = tmp_path / "kaggle working 课程"  # where a lone notebook was opened
    notebook_folder.mkdir()
    before = state(python, notebook_folder)
    assert before["helpers"] is None  # PyTorch is there, the course is not

    cell = readme_cell()
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "COURSE_ROOT")}
    environ.update(COURSE_REPO_URL=url, KAGGLE_KERNEL_RUN_TYPE="Interactive")
    done = subprocess.run(
        [python, "-c", cell], cwd=notebook_folder, env=environ,
        capture_output=True, text=True, timeout=300, encoding="utf-8",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "Course set-up on Kaggle" in out and "All good" in out

    course = notebook_folder / "course-repo"  # the lessons and the data came with the course
    assert (course / "notebooks" / "day00_setup.ipynb").is_file()
    assert paths.HEART_CSV.name in os.listdir(course / "data")
    remote = ["git", "remote", "get-url", "origin"]
    origin = subprocess.run(remote, cwd=course, capture_output=True, text=True, encoding="utf-8")
    origin = origin.stdout.strip()
    assert origin == url
    after = state(python, tmp_path)
    assert after["torch"] == before["torch"]  # same version, same file, not rewritten
    assert Path(after["helpers"]) == course / "src" / "helpers" / "__init__.py"
    installed = json.loads(after["installed"])
    assert installed == {"dir_info": {"editable": True}, "url": course.as_uri()}

    again = subprocess.run([python, "-c", cell], cwd=notebook_folder, env=environ,
                           capture_output=True, text=True, encoding="utf-8")  # fmt: skip
    assert (again.returncode, again.stdout) == (0, "")  # now installed: the cell does nothing


@pytest.mark.slow
def test_an_uploaded_zip_starts_from_the_chinese_day_0_in_chinese(tmp_path):
    """A rental platform's notebook: PyTorch preinstalled, no git remote, the course uploaded as
    a zip and unpacked; day 0 of the Chinese edition opened and run from the top (its first
    cell, run from the notebook's folder as a kernel runs it)."""
    course_repository(tmp_path / "upload")  # the files a zip of the course holds
    shutil.rmtree(tmp_path / "upload" / ".git")
    shutil.make_archive(str(tmp_path / "course"), "zip", tmp_path / "upload")
    shutil.unpack_archive(tmp_path / "course.zip", tmp_path / "autodl-tmp" / "课程")
    course = tmp_path / "autodl-tmp" / "课程"
    python = cloud_python(tmp_path / "image-env")
    notebook_folder = course / "notebooks" / "zh"
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "COURSE_ROOT", "COURSE_LANG", "JPY_SESSION_NAME")
    }
    environ["PYTHONIOENCODING"] = "gbk"  # as a Chinese Windows writes into a pipe
    done = subprocess.run(
        [python, "-c", readme_cell()], cwd=notebook_folder, env=environ,
        capture_output=True, text=True, timeout=300, encoding="gbk", errors="replace",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "课程安装位置：一台没有 CUDA 的机器" in out and "保持不动" in out
    assert "课程环境检查" in out and "一切就绪" in out  # the doctor, in Chinese too
    installed = json.loads(state(python, tmp_path)["installed"])
    assert installed == {"dir_info": {"editable": True}, "url": course.as_uri()}


def test_minutes_come_from_the_english_lessons_runs_not_the_chinese_ones(course_copy, tmp_path):
    """make course runs both editions; the course map's minutes are the English lessons' own."""
    timings = tmp_path / "timings.json"
    runs = {
        "notebooks/day00_setup.ipynb": {"seconds": 170.0},  # 3 minutes
        "notebooks/zh/day00_setup.ipynb": {"seconds": 700.0},  # 12 minutes: not the map's
    }
    timings.write_text(json.dumps({"mode": "full", "notebooks": runs}), encoding="utf-8")
    outline.outline(timings)
    day0 = nbformat.read(course_copy / "notebooks" / "day00_setup.ipynb", as_version=4)
    assert day0.metadata["course"]["minutes"] == 3
