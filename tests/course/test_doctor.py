import importlib.metadata as metadata
import os
import re
import subprocess
import sys

import pytest
import torch
import yaml
from packaging.requirements import Requirement

from helpers.course import paths
from helpers.course.setup import doctor

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def run_helpers(*args, **env):
    return subprocess.run(
        [sys.executable, "-m", "helpers", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **env},
        encoding="utf-8",
    )


def test_doctor_reports_the_setup(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(doctor, "_nvidia_gpu_present", lambda: False)
    assert doctor.doctor() == 0
    out = capsys.readouterr().out
    assert re.search(r"\n  course device +cpu\n", out)
    assert re.search(rf"\n  PyTorch +{re.escape(torch.__version__)} ", out)
    assert re.search(r"\n  Heart data +ok\n", out)
    assert "notebook filter" in out
    assert "All good" in out
    assert len(set(_value_columns(out))) == 1  # every value starts in the same column


def _value_columns(out):
    """Where each row's value starts, in terminal columns (a Chinese character takes two)."""
    from wcwidth import wcswidth

    return [
        wcswidth(match[1])
        for line in out.splitlines()
        if (match := re.match(r"(  \S.*?  +)\S", line))
    ]


def test_doctor_speaks_chinese_in_the_chinese_edition(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(doctor, "_nvidia_gpu_present", lambda: True)
    monkeypatch.setattr(torch.version, "cuda", None)
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert doctor.doctor() == 0
    out = capsys.readouterr().out
    assert out.startswith("课程环境检查\n")
    columns = _value_columns(out)
    assert len(set(columns)) == 1, columns  # a Chinese character takes two columns
    pad = " " * (columns[0] - len("  课程使用的设备") - 7)  # 7 Chinese characters, 14 columns
    assert f"\n  课程使用的设备{pad}cpu\n" in out
    assert re.search(r"\n  心脏病数据 +正常\n", out)
    assert "警告：这台机器有 NVIDIA GPU，但 PyTorch 是仅 CPU 的构建版本" in out
    assert "一切就绪（有警告）：课程将在 cpu 上运行。" in out


@pytest.mark.slow
def test_doctor_with_a_missing_device_gives_the_clear_error_not_a_traceback():
    result = run_helpers("doctor", COURSE_DEVICE="cuda" if not torch.cuda.is_available() else "xpu")
    assert result.returncode == 1
    assert "ERROR: COURSE_DEVICE asked for" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_doctor_warns_about_a_cpu_only_build_on_an_nvidia_machine(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(doctor, "_nvidia_gpu_present", lambda: True)
    monkeypatch.setattr(torch.version, "cuda", None)
    assert doctor.doctor() == 0  # it still works, on the CPU
    out = capsys.readouterr().out
    assert "WARNING: This machine has an NVIDIA GPU but PyTorch is a CPU-only build" in out
    assert "TORCH_INDEX=https://download.pytorch.org/whl/cu" in out


def test_doctor_warns_about_a_driver_too_old_for_the_cuda_build(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(doctor, "_nvidia_gpu_present", lambda: True)
    monkeypatch.setattr(torch.version, "cuda", "12.8")
    doctor.doctor()
    assert "built for CUDA 12.8 but sees no GPU" in capsys.readouterr().out


def test_doctor_warns_about_an_apple_mac_without_mps(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(doctor.platform, "system", lambda: "Darwin")
    monkeypatch.setattr(doctor.platform, "machine", lambda: "arm64")
    monkeypatch.setattr(doctor, "_nvidia_gpu_present", lambda: False)
    doctor.doctor()
    assert "Apple silicon Mac but MPS is not available" in capsys.readouterr().out


def test_doctor_warns_about_a_space_where_torch_compile_builds(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(torch, "__file__", "/home/li/GPU 课程/.venv/lib/torch/__init__.py")
    assert doctor.doctor() == 0  # a warning: everything but compiling runs
    shown = capsys.readouterr().out
    assert "WARNING: `torch.compile` cannot build C++" in shown and "GPU 课程/.venv" in shown


@pytest.mark.parametrize("page", [936, 54936, 950])
def test_doctor_warns_on_a_chinese_windows_that_torch_compile_needs_the_english_compiler(
    no_gpu, capsys, monkeypatch, page
):
    monkeypatch.setattr(doctor, "windows_code_page", lambda: page)
    monkeypatch.setattr(doctor, "_nvidia_gpu_present", lambda: False)
    assert doctor.doctor() == 0  # a warning: everything but compiling runs
    out = capsys.readouterr().out
    assert f"WARNING: This Windows uses a Chinese code page ({page}, " in out
    assert "UnicodeDecodeError" in out and "pytorch/pytorch#157673" in out
    assert "Visual Studio Installer, choose Modify > Language packs, tick English" in out


def test_the_compiler_warning_reads_chinese_in_the_chinese_edition(monkeypatch):
    monkeypatch.setattr(doctor, "windows_code_page", lambda: 936)
    monkeypatch.setenv("COURSE_LANG", "zh")
    said = doctor.chinese_windows_compiler()
    assert said.startswith("这台 Windows 使用中文代码页（936，GBK）")
    assert "勾选“英语”并安装" in said and "pytorch/pytorch#157673" in said


@pytest.mark.parametrize("page", [None, 1252, 65001])
def test_no_compiler_warning_elsewhere(monkeypatch, page):
    monkeypatch.setattr(doctor, "windows_code_page", lambda: page)
    assert doctor.chinese_windows_compiler() is None


def test_the_code_page_is_read_only_on_windows(monkeypatch):
    assert doctor.windows_code_page() is None  # this machine is not Windows
    monkeypatch.setattr(doctor.platform, "system", lambda: "Windows")
    monkeypatch.setattr(doctor.locale, "getpreferredencoding", lambda do_setlocale=True: "cp936")
    assert doctor.windows_code_page() == 936  # without kernel32 (not Windows): Python's guess


def test_doctor_reports_a_missing_package(no_gpu, capsys, monkeypatch):
    monkeypatch.setattr(doctor, "_course_packages", lambda: [("tqdm", None)])
    assert doctor.doctor() == 1
    assert "ERROR: tqdm is not installed: run `make install`" in capsys.readouterr().out


def test_doctor_reports_a_bad_fast_mode_value(no_gpu, capsys, monkeypatch):
    monkeypatch.setenv("COURSE_FAST", "sometimes")
    assert doctor.doctor() == 1
    assert "COURSE_FAST='sometimes' is not understood" in capsys.readouterr().out


def test_course_packages_are_read_from_the_package_metadata():
    names = [name for name, _ in doctor._course_packages()]
    assert {"torch", "jupyterlab", "ipywidgets", "tqdm"} <= set(names)
    assert "pytest" not in names  # dev tools are not course packages


def test_doctor_names_versions_outside_the_tested_set(tmp_path, monkeypatch, capsys, no_gpu):
    lock = tmp_path / "requirements-lock.txt"
    lock.write_text(
        "# a comment\ntqdm==0.0.1\n    # via helpers\nnot-installed-here==1.0\n", encoding="utf-8"
    )
    assert doctor.tested_versions(lock) == {"tqdm": "0.0.1", "not-installed-here": "1.0"}
    assert doctor.untested_versions(lock) == [f"tqdm {metadata.version('tqdm')} (tested: 0.0.1)"]
    monkeypatch.setattr(doctor, "LOCK", lock)
    monkeypatch.setattr(doctor, "_nvidia_gpu_present", lambda: False)
    doctor.doctor()
    out = capsys.readouterr().out
    assert "1 installed package(s) differ" in out
    assert "WARNING: Versions outside the tested set: tqdm" in out and "make install" in out
    assert doctor.untested_versions(tmp_path / "none.txt") == []


def test_the_lock_file_satisfies_pyproject_and_environment_yml():
    """The tested set lies within the ranges learners install from (pyproject, conda)."""
    pins = doctor.tested_versions()
    assert "torch" not in pins, "torch comes from TORCH_SPEC, so that another build can be chosen"
    project = tomllib.loads((paths.ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [
        *project["project"]["dependencies"],
        *project["project"]["optional-dependencies"]["dev"],
    ]
    env = yaml.safe_load((paths.ROOT / "environment.yml").read_text(encoding="utf-8"))
    conda = [d.replace("pytorch", "torch", 1) for d in env["dependencies"] if isinstance(d, str)]
    for line in wanted + [c.split("#")[0] for c in conda if not c.startswith(("python", "pip"))]:
        requirement = Requirement(line.replace(" ", ""))
        if requirement.name == "torch" or not (
            requirement.marker is None or requirement.marker.evaluate()
        ):
            continue
        version = pins.get(requirement.name.lower())
        assert version, f"{requirement.name} is missing from requirements-lock.txt: run make lock"
        assert requirement.specifier.contains(version), f"{requirement.name}=={version} vs {line}"


def test_the_report_lines_up_by_display_width_and_wraps_within_the_terminal():
    rows = [
        (None, "课程环境检查"),
        ("Python", "3.11.7 (/home/learner/a folder with a long name/.venv/bin/python)"),
        ("PyTorch", "2.13.0+cu128（构建版本：CUDA 12.8）"),
        ("jupyterlab-language-pack-zh-CN", "4.6.post4"),
        ("心脏病数据", "正常"),
    ]
    lines = doctor.report_lines(rows, 56)
    from wcwidth import wcswidth

    assert max(wcswidth(line) for line in lines) <= 56  # no value runs past the line
    assert not any(line.rstrip().endswith("（") for line in lines)  # nor a bracket ends one
    starts = {wcswidth(line) - wcswidth(line.lstrip()) for line in lines[1:] if line[2] == " "}
    value_column = 2 + len("jupyterlab-language-pack-zh-CN") + 2
    assert starts == {value_column}  # continuation lines start under the values
    assert "  jupyterlab-language-pack-zh-CN  4.6.post4" in lines
    assert "  心脏病数据" + " " * (value_column - 2 - 10) + "正常" in lines
    python = lines[1 : lines.index(next(line for line in lines if "PyTorch" in line))]
    assert " ".join(line.strip() for line in python).endswith("long name/.venv/bin/python)")
