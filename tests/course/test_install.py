"""make install: the course's packages through uv where it is on the PATH, else through pip; and
pip's package index (a mirror, as in mainland China) told to uv, which reads none of pip's
settings. pip's path is run for real by every fresh `make test`; uv's was measured by hand."""

import os
import subprocess
import sys

from helpers.course import paths
from helpers.course.setup import install
from tests.course.test_lab import dry_run

STAMP = ".venv/.installed"
MIRROR = "https://pypi.tuna.tsinghua.edu.cn/simple"


def install_lines(tmp_path, *settings: str) -> tuple[str, str]:
    """What `make install` would run for PyTorch and for the course's packages."""
    lines = dry_run(tmp_path, "-B", STAMP, *settings).splitlines()
    torch = next(line for line in lines if '"torch==' in line)
    course = next(line for line in lines if '-e ".[dev]"' in line)
    return torch, course


def test_with_uv_on_the_path_the_course_s_packages_come_through_it_with_pip_s_index(tmp_path):
    torch, course = install_lines(tmp_path, "UV=/opt/uv/bin/uv")
    assert torch.startswith(".venv/bin/python -m pip install")  # PyTorch: pip, as configured
    assert course.startswith("/opt/uv/bin/uv pip install --python .venv/bin/python ")
    assert "-m helpers.course.setup.install uv-options)" in course
    assert course.endswith('-e ".[dev]" -c requirements-lock.txt')  # the tested set, as pip


def test_without_uv_or_when_told_pip_installs_them(tmp_path):
    for settings in (["UV="], ["UV=/opt/uv/bin/uv", "INSTALLER=pip"]):
        _torch, course = install_lines(tmp_path, *settings)
        assert course == '.venv/bin/python -m pip install -e ".[dev]" -c requirements-lock.txt'


def options(tmp_path, config: str, **environ: str) -> list[str]:
    """What make gives uv, with ``config`` as pip's configuration file and ``environ`` set."""
    (tmp_path / "pip.conf").write_text(config, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env |= {"PIP_CONFIG_FILE": str(tmp_path / "pip.conf"), "PYTHONPATH": str(paths.SRC), **environ}
    done = subprocess.run(
        [sys.executable, "-m", "helpers.course.setup.install", "uv-options"],
        capture_output=True, text=True, encoding="utf-8", env=env, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_uv_gets_the_mirror_set_for_pip_in_its_configuration_or_its_environment(tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    config = f"[global]\nindex-url = {MIRROR}\nfind-links = {wheels} {tmp_path / 'gone'}\n"
    assert options(tmp_path, config) == ["--index-url", MIRROR, "--find-links", str(wheels)]
    other = "https://mirrors.aliyun.com/pypi/simple/"
    assert options(tmp_path, config, PIP_INDEX_URL=other)[:2] == ["--index-url", other]
    extra = options(tmp_path, "", PIP_EXTRA_INDEX_URL=f"{MIRROR} {other}")
    assert extra == ["--extra-index-url", MIRROR, "--extra-index-url", other,
                     "--index-strategy", "unsafe-best-match"]  # fmt: skip
    assert options(tmp_path, "") == []  # nothing set: uv's default, PyPI, as pip's


def test_a_later_configuration_file_wins_as_in_pip():
    listed = "global.index-url='https://global/simple'\nsite.index-url='https://site/simple'\n"
    settings = install.pip_settings(listed, environ={"PIP_FIND_LINKS": "/w"})
    assert settings == {"index-url": ["https://site/simple"], "find-links": ["/w"]}
