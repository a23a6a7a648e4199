"""Notebook outputs stay out of git: nbstripout as the filter, checked in a scratch clone."""

import json
import os
import shutil
import subprocess
import sys
from types import SimpleNamespace

import nbformat
import pytest

from helpers.course import paths
from helpers.course.cli import main
from helpers.course.setup import git

LESSON = paths.lessons()[0]


def run(folder, *args):
    result = subprocess.run(
        ["git", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def clone(tmp_path):
    """A git repository holding one lesson, committed as the course commits it."""
    (tmp_path / "notebooks").mkdir()
    shutil.copy(paths.ROOT / ".gitattributes", tmp_path / ".gitattributes")
    committed = git.committed(LESSON)  # the working copy may hold outputs
    (tmp_path / "notebooks" / LESSON.name).write_text(
        committed if committed is not None else LESSON.read_text(encoding="utf-8"), encoding="utf-8"
    )
    run(tmp_path, "init", "-q")
    run(tmp_path, "add", ".")
    run(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "lesson")
    return tmp_path


def saved_by_jupyterlab(path):
    """The lesson as JupyterLab saves it after a run: outputs, counts, a full language_info."""
    nb = nbformat.read(path, as_version=4)
    count = 0
    for cell in nb.cells:
        if cell.cell_type == "code":
            count += 1
            cell.execution_count = count
            cell.outputs = [nbformat.v4.new_output("stream", text=f"output {count}\n" * 50)]
    nb.metadata.language_info.update(
        codemirror_mode={"name": "ipython", "version": 3}, file_extension=".py",
        mimetype="text/x-python", nbconvert_exporter="python", version="3.12.1",
    )  # fmt: skip
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False), encoding="utf-8")


def test_install_filter_writes_the_filter_into_the_clone(clone):
    assert not git.filter_installed(clone)
    written = git.install_filter(clone)
    assert written == git.settings(sys.executable)
    assert "--keep-id" in written["filter.nbstripout.clean"]  # cell ids are the course's own
    assert (
        run(clone, "config", "--get", "filter.nbstripout.clean").strip()
        == (written["filter.nbstripout.clean"])
    )
    assert git.filter_installed(clone)
    assert (
        run(clone, "check-attr", "filter", "--", "notebooks/x.ipynb").strip().endswith("nbstripout")
    )


def test_the_first_status_after_a_clone_runs_no_filter(tmp_path):
    """Right after a clone every notebook is as new as the index, so git would run the filter on
    each (seconds apiece: minutes for the course) unless the index is settled; a real change is
    still seen."""
    source = tmp_path / "source"
    (source / "notebooks").mkdir(parents=True)
    shutil.copy(paths.ROOT / ".gitattributes", source / ".gitattributes")
    for i in range(3):
        (source / "notebooks" / f"n{i}.ipynb").write_text("{}", encoding="utf-8")
    run(source, "init", "-q")
    run(source, "add", ".")
    run(source, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "three")
    log = tmp_path / "filter runs.log"
    counting = f"sh -c 'echo run >> \"{log}\"; cat'"  # a clean filter that counts its runs
    for settled in (False, True):
        clone = tmp_path / f"clone-{settled}"
        run(tmp_path, "clone", "-q", str(source), str(clone))
        run(clone, "config", "filter.nbstripout.clean", counting)
        log.write_text("", encoding="utf-8")
        if settled:
            git.settle_index(clone)
        run(clone, "status", "--porcelain")
        runs = len(log.read_text(encoding="utf-8").split())
        assert runs == (0 if settled else 3), (settled, runs)
    (clone / "notebooks" / "n1.ipynb").write_text('{"changed": 1}', encoding="utf-8")
    assert run(clone, "status", "--porcelain").strip() == "M notebooks/n1.ipynb"


def test_a_filter_whose_python_is_gone_is_not_installed(clone, tmp_path):
    """An environment deleted or moved leaves a filter git cannot run (git then commits notebooks
    with their outputs): it counts as not set up, so doctor says so and git-filter repairs it."""
    gone = tmp_path / "deleted env" / "bin" / "python"
    for key, value in git.settings(gone).items():
        run(clone, "config", key, value)
    assert not git.filter_installed(clone)
    git.install_filter(clone)
    assert git.filter_installed(clone)


def test_a_lesson_saved_with_outputs_is_what_git_holds(clone, monkeypatch):
    git.install_filter(clone)
    monkeypatch.setattr(paths, "ROOT", clone)
    lesson = clone / "notebooks" / LESSON.name
    held = run(clone, "rev-parse", f"HEAD:notebooks/{LESSON.name}").strip()
    saved_by_jupyterlab(lesson)
    filtered = run(clone, "hash-object", f"--path=notebooks/{LESSON.name}", str(lesson)).strip()
    assert filtered == held  # outputs, counts and the Python version never reach a commit
    # git compares sizes before it filters: listed until the index learns the new size
    assert run(clone, "status", "--porcelain").strip() == f"M notebooks/{LESSON.name}"
    assert git.after_save({"type": "file"}, str(lesson)) is None
    git.after_save({"type": "notebook"}, str(lesson)).join()  # what JupyterLab runs on a save
    assert run(clone, "status", "--porcelain") == ""
    assert run(clone, "diff", "--cached", "--name-only") == ""  # nothing staged
    assert git.committed(lesson, clone) == run(clone, "show", f"HEAD:notebooks/{LESSON.name}")
    assert "output 1" in lesson.read_text(encoding="utf-8")  # the working copy keeps them


def test_refresh_never_stages_a_real_change(clone):
    git.install_filter(clone)
    lesson = clone / "notebooks" / LESSON.name
    saved_by_jupyterlab(lesson)
    nb = nbformat.read(lesson, as_version=4)
    nb.cells[0].source += "\n\nA sentence the learner added."
    nbformat.write(nb, lesson)
    assert not git.refresh(lesson, clone)
    assert run(clone, "status", "--porcelain").strip() == f"M notebooks/{LESSON.name}"
    assert run(clone, "diff", "--cached", "--name-only") == ""
    assert not git.refresh(clone / "notebooks" / "new.ipynb", clone)  # not tracked: left alone


def test_a_failing_refresh_after_a_save_is_only_logged(monkeypatch):
    warnings = []
    manager = SimpleNamespace(log=SimpleNamespace(warning=lambda *a: warnings.append(a)))
    monkeypatch.setattr(git, "is_checkout", lambda: 1 / 0)
    git.after_save({"type": "notebook"}, "/nowhere/else.ipynb", contents_manager=manager).join()
    assert warnings and "git refresh after saving" in warnings[0][0]


def test_without_a_clone_there_is_nothing_to_set_up(tmp_path, monkeypatch, capsys):
    with pytest.raises(git.GitFilterError, match="not a git checkout"):
        git.install_filter(tmp_path)
    assert git.committed(tmp_path / "x.ipynb", tmp_path) is None
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    assert main(["git-filter"]) == 0
    assert "Nothing to do" in capsys.readouterr().out


def test_the_command_sets_up_this_clone(clone, monkeypatch, capsys):
    monkeypatch.setattr(paths, "ROOT", clone)
    assert main(["git-filter"]) == 0
    assert "outputs now stay in your working copy" in capsys.readouterr().out
    assert git.filter_installed(clone)


def test_make_install_sets_up_the_filter():
    makefile = (paths.ROOT / "Makefile").read_text(encoding="utf-8")
    install = makefile.split("$(STAMP): pyproject.toml", 1)[1].split("\n\n", 1)[0]
    assert "-m helpers git-filter" in install


def test_a_filter_in_a_chinese_named_folder_is_found_under_a_gbk_locale(tmp_path):
    """A course folder named in Chinese, set up and checked under a GBK locale (LC_ALL=zh_CN.GBK,
    as the set-up path from mainland China is tried): the Python the filter names is found."""
    from tests.test_portability import chinese_windows

    env = chinese_windows()
    if not env:
        pytest.skip("no zh_CN.GBK locale here (localedef -i zh_CN -f GBK zh_CN.GBK)")
    folder = tmp_path / "课程"
    folder.mkdir()
    run(folder, "init", "-q")
    python = folder / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("", encoding="utf-8")
    for key, value in git.settings(python).items():
        run(folder, "config", key, value)
    check = "import sys\nfrom helpers.course.setup import git\n"
    check += "print(git.filter_installed(sys.argv[1]))"
    done = subprocess.run(
        [sys.executable, "-c", check, str(folder)],
        capture_output=True, text=True, encoding="utf-8", errors="replace",
        env={**os.environ, **env},
    )  # fmt: skip
    assert done.stdout.strip() == "True", done.stdout + done.stderr
