import subprocess
import sys

import pytest

from helpers.course import cli


def test_course_refuses_a_missing_notebook(capsys):
    assert cli.main(["course", "notebooks/day99_nothing.ipynb"]) == 1
    assert "no notebook at notebooks/day99_nothing.ipynb" in capsys.readouterr().err


def test_unknown_command(capsys):
    with pytest.raises(SystemExit):
        cli.main(["fly"])
    assert "invalid choice: 'fly'" in capsys.readouterr().err


def test_help_lists_every_command_without_markup(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    commands = ["doctor", "lab", "course", "release", "gpu-check", "grade", "submit", "outline"]
    for command in commands:
        assert command in out
    assert "``" not in out


def test_help_does_not_import_torch():
    code = "import sys; from helpers.course import cli; print('torch' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8"
    )
    assert result.stdout.strip() == "False", result.stderr
