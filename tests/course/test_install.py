"""make install: the course's packages through uv where it is on the PATH, else through pip; and
pip's settings (a mirror, as in mainland China) given to uv, which reads none of them. pip's path
is run for real by every fresh `make test`; uv's was measured by hand."""

import json
import os
import subprocess
import sys

from helpers.course import paths
from helpers.course.setup import install
from tests.course.test_lab import dry_run

STAMP = ".venv/.installed"
MIRROR = "https://pypi.tuna.tsinghua.edu.cn/simple"
OTHER = "https://mirrors.aliyun.com/pypi/simple/"


def install_lines(tmp_path, *settings: str) -> tuple[str, str]:
    """What `make install` would run for PyTorch and for the course's packages."""
    lines = dry_run(tmp_path, "-B", STAMP, *settings).splitlines()
    torch = next(line for line in lines if '"torch==' in line)
    course = next(line for line in lines if '-e ".[dev]"' in line)
    return torch, course


def test_with_uv_on_the_path_the_course_s_packages_come_through_it_with_pip_s_settings(tmp_path):
    torch, course = install_lines(tmp_path, "UV=/opt/uv/bin/uv")
    assert torch.startswith(".venv/bin/python -m pip install")  # PyTorch: pip, as configured
    assert course == (
        "PYTHONPATH=src .venv/bin/python -m helpers.course.setup.install /opt/uv/bin/uv "
        '-e ".[dev]" -c requirements-lock.txt'
    )  # the tested set, as with pip


def test_without_uv_or_when_told_pip_installs_them(tmp_path):
    for settings in (["UV="], ["UV=/opt/uv/bin/uv", "INSTALLER=pip"]):
        _torch, course = install_lines(tmp_path, *settings)
        assert course == '.venv/bin/python -m pip install -e ".[dev]" -c requirements-lock.txt'


def test_asking_for_uv_where_there_is_none_stops_and_says_so(tmp_path):
    dry_run(tmp_path, "-B", STAMP)  # copies the Makefile's files
    done = subprocess.run(  # make's own words come in the locale's encoding
        ["make", "-n", STAMP, "INSTALLER=uv", "UV="], cwd=tmp_path, capture_output=True,
        text=True, encoding="utf-8", errors="replace",
    )  # fmt: skip
    assert done.returncode != 0 and "no uv is on the PATH" in done.stderr


def test_pip_install_s_settings_are_read_as_pip_reads_them():
    listed = (
        f"global.index-url='{OTHER}'\n"
        f"install.index-url='{MIRROR}'\n"  # pip install reads [install] over [global]
        "list.index-url='https://list/simple'\n"  # ...and never pip list's
        "global.trusted-host='mirror.local'\n"
        "global.no-index='false'\n"
    )
    settings = install.pip_settings(listed, environ={"PIP_CERT": "/etc/ca.pem"})
    assert settings == {
        "index-url": [MIRROR], "trusted-host": ["mirror.local"], "no-index": ["false"],
        "cert": ["/etc/ca.pem"],
    }  # fmt: skip
    options, env = install.uv_arguments(settings)
    assert options == ["--index-url", MIRROR, "--allow-insecure-host", "mirror.local"]
    assert env == {"SSL_CERT_FILE": "/etc/ca.pem"}
    offline, _env = install.uv_arguments({"no-index": ["true"], "constraint": ["/c.txt"]})
    assert offline == ["--constraint", "/c.txt", "--no-index"]


def test_uv_runs_with_the_mirror_pip_is_set_to_and_its_status_is_make_s(tmp_path):
    """A stand-in for uv that writes down how it was started, and fails: the mirror in pip's
    configuration file reaches it, and its failure stops the install."""
    fake = tmp_path / "uv"
    fake.write_text(
        f"#!{sys.executable}\nimport json, os, sys\n"
        "print(json.dumps({'argv': sys.argv[1:], 'cert': os.environ.get('SSL_CERT_FILE')}))\n"
        "sys.exit(3)\n",
        encoding="utf-8",
    )
    fake.chmod(0o755)
    (tmp_path / "pip.conf").write_text(f"[install]\nindex-url = {MIRROR}\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env |= {"PIP_CONFIG_FILE": str(tmp_path / "pip.conf"), "PIP_CERT": "/etc/ca.pem"}
    env |= {"PYTHONPATH": str(paths.SRC)}
    done = subprocess.run(
        [sys.executable, "-m", "helpers.course.setup.install", str(fake), "-e", ".[dev]"],
        capture_output=True, text=True, encoding="utf-8", env=env, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr
    ran = json.loads(done.stdout.splitlines()[-1])
    assert ran["argv"][:4] == ["pip", "install", "--python", sys.executable]
    assert ran["argv"][-2:] == ["-e", ".[dev]"]
    at = ran["argv"].index("--index-url")
    assert ran["argv"][at + 1] == MIRROR and ran["cert"] == "/etc/ca.pem"
