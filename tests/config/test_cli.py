"""``python -m swervelib check`` and ``--help``."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from swervelib.text import is_printable
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
    assert out.count("steering: on the angle motor's encoder") == 4


def test_check_says_when_a_module_steers_on_its_absolute_encoder() -> None:
    result = run("check", str(FIXTURES / "valid" / "yagsl_absolute_steering"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("steering: on the absolute encoder") == 4
    assert "360 deg/turn of the absolute encoder" in result.stdout


def test_check_refuses_what_the_drive_refuses_with_the_same_message() -> None:
    from swervelib.config.loader import MODULE_COUNT_MESSAGE

    result = run("check", str(FIXTURES / "broken" / "five_modules"))
    assert result.returncode == 1
    assert f"modules: {MODULE_COUNT_MESSAGE} (found 5 modules)" in result.stdout


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


def run_with(env: dict[str, str], *args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    """``python -m swervelib ARGS`` with extra environment; the output as bytes."""
    return subprocess.run(
        [sys.executable, "-m", "swervelib", *args],
        capture_output=True,
        cwd=REPO,
        env={**os.environ, **env},
        check=False,
    )


HOSTILE = [
    ("valid", "non_ascii_names", 0),
    ("broken", "surrogate_in_type", 1),
    ("broken", "ansi_escape_in_type", 1),
    ("broken", "surrogate_in_canbus", 1),
    ("broken", "bidi_override_in_module_name", 1),
    ("broken", "integer_400_digits", 1),
    ("broken", "integer_5000_digits_id", 1),
]


@pytest.mark.parametrize("encoding", ["ascii", "cp1252", "utf-8"])
@pytest.mark.parametrize(("kind", "name", "code"), HOSTILE, ids=[h[1] for h in HOSTILE])
def test_check_prints_hostile_text_on_any_console(
    kind: str, name: str, code: int, encoding: str
) -> None:
    """No UnicodeEncodeError and no raw control, bidi or surrogate character reaches the console,
    whatever its encoding: what it cannot show comes out as backslash escapes."""
    result = run_with({"PYTHONIOENCODING": encoding}, "check", str(FIXTURES / kind / name))
    assert result.returncode == code, result.stderr.decode(encoding, "replace")[-3000:]
    assert b"Traceback" not in result.stderr
    for stream in (result.stdout, result.stderr):
        text = stream.decode(encoding)  # what the console got is valid in its encoding
        assert is_printable(text.replace("\n", "")), text[-2000:]


def test_check_escapes_what_an_ascii_console_cannot_show() -> None:
    result = run_with(
        {"PYTHONIOENCODING": "ascii"}, "check", str(FIXTURES / "valid" / "non_ascii_names")
    )
    out = result.stdout.decode("ascii") + result.stderr.decode("ascii")
    assert "frontleft_vorne_links_\\u2713: front 10.75 in" in out
    assert "unknown key `schl\\xfcssel`" in out
    assert "unknown key `\\x1b[31mrot`" in out


def test_check_a_400_digit_integer_is_a_problem_not_a_traceback() -> None:
    result = run("check", str(FIXTURES / "broken" / "integer_400_digits"))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stdout.startswith(
        "modules/physicalproperties.json:4:7: conversionFactors.angle.gearRatio: number too large"
    ), result.stdout


def test_check_a_directory_name_that_is_not_utf8(tmp_path: Path) -> None:
    """A path from the command line can hold any bytes (Python makes them lone surrogates)."""
    directory = os.fsencode(tmp_path) + b"/swerve-\xff\x1b[2J"
    shutil.copytree(FIXTURES / "broken" / "many_problems", os.fsdecode(directory))
    result = run_with({"PYTHONIOENCODING": "utf-8"}, "check", directory)
    assert result.returncode == 1
    assert b"Traceback" not in result.stderr
    last = result.stderr.decode().splitlines()[-1]
    assert last.startswith("5 problems in ") and last.endswith("/swerve-\\udcff\\x1b[2J"), last


def test_check_suggests_migrate_only_where_it_would_change_something() -> None:
    older = run("check", str(FIXTURES / "valid" / "stale_legacy_conversion_factor"))
    assert older.returncode == 0, older.stderr
    assert "hint: " in older.stdout and "`conversionFactor`" in older.stdout
    assert "python -m swervelib migrate " in older.stdout
    broken = run("check", str(FIXTURES / "broken" / "legacy_conversion_factor_only"))
    assert broken.returncode == 1
    assert "python -m swervelib migrate " in broken.stderr
    current = run("check", str(DEPLOY / "swerve"))
    assert "hint:" not in current.stdout + current.stderr


def test_check_fails_like_the_drive_when_a_vendor_package_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import argparse
    import io

    from swervelib.cli import check
    from swervelib.config.catalog import Vendor
    from swervelib.devices import registry

    real = registry._installed
    monkeypatch.setattr(
        registry, "_installed", lambda vendor: vendor is not Vendor.REV and real(vendor)
    )
    out, err = io.StringIO(), io.StringIO()
    code = check.run(argparse.Namespace(directory=str(DEPLOY / "swerve")), out, err)
    assert code == 1
    assert "valid, 4 modules" in out.getvalue()
    # the same words the drive raises (MissingVendorError), naming the first sparkmax device
    expected = str(registry.MissingVendorError("sparkmax", Vendor.REV))
    assert f"error: {expected}" in err.getvalue()
    assert "[tool.robotpy] requires" in err.getvalue()
    assert "phoenix6" not in err.getvalue()  # the CANcoder and Pigeon2 package is installed
