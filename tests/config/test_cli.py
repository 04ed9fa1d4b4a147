"""``python -m swervelib check`` and ``--help``."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from tests.conftest import DEPLOY, FIXTURES, REPO


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "swervelib", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )


def test_help_lists_commands() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert "check" in result.stdout


def test_check_valid_prints_summary() -> None:
    result = run("check", str(DEPLOY / "swerve"))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "valid, 4 modules" in out
    assert "frontleft: front 10.75 in (0.273 m), left 10.75 in (0.273 m)" in out
    assert "drive sparkmax 1, angle sparkmax 2, encoder cancoder 9" in out
    assert "inverted.drive=false" in out and "absoluteEncoderOffset=12.3 deg" in out
    assert "IMU: pigeon2 id 13, invertedIMU=false" in out


def test_check_invalid_prints_one_line_per_problem() -> None:
    directory = FIXTURES / "broken" / "many_problems"
    expected = json.loads((directory / "expect.json").read_text())["problems"]
    result = run("check", str(directory))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == len(expected)
    pattern = re.compile(r"^[\w./]+\.json(:\d+:\d+)?: [\w.\[\]]+: .+$")
    for line in lines:
        assert pattern.match(line), line
    assert any(line.startswith("modules/frontleft.json:19:5: inverted.angle: ") for line in lines)


def test_check_missing_directory_exits_1() -> None:
    result = run("check", str(REPO / "no-such-dir"))
    assert result.returncode == 1
    assert "does not exist" in result.stdout


def test_check_syntax_error_has_position() -> None:
    result = run("check", str(FIXTURES / "broken" / "syntax_error"))
    assert result.returncode == 1
    assert result.stdout.startswith("modules/frontright.json:3:3: (file): JSON syntax error")


def test_check_shows_warnings_on_valid_config() -> None:
    result = run("check", str(FIXTURES / "valid" / "unknown_keys"))
    assert result.returncode == 0
    assert "did you mean `absoluteEncoderOffset`" in result.stdout


def test_no_command_prints_help_and_fails() -> None:
    result = run()
    assert result.returncode == 2
    assert "check" in result.stderr
