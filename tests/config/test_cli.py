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
from tests.config.corpus import runnable
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


def test_check_does_not_say_a_module_without_an_absolute_encoder_is_seeded_from_one(
    tmp_path: Path,
) -> None:
    """Team 2035's 2024 folder, migrated: its two front modules' encoder is ``none``."""
    directory = runnable("2035-climax2024", tmp_path)
    result = run("check", str(directory))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("steering: on the angle motor's encoder") == 4, out
    assert out.count("(seeded from the absolute encoder)") == 2, out
    assert out.count("no absolute encoder: 0° is wherever the module faced when") == 2, out


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
    assert result.returncode == 1 and result.stderr == ""
    *lines, count = result.stdout.splitlines()
    assert len(lines) == len(expected) and count == (
        f"{len(expected)} problems in tests/fixtures/broken/many_problems"
    )
    pattern = re.compile(r"^[\w./]+\.json(:\d+:\d+)?: [\w.\[\]]+: .+$")
    for line in lines:
        assert pattern.match(line), line
    here = "tests/fixtures/broken/many_problems/"  # from the current directory: a clickable path
    assert any(
        line.startswith(f"{here}modules/frontleft.json:19:5: inverted.angle: ") for line in lines
    )


def test_check_missing_directory_exits_1() -> None:
    result = run("check", str(REPO / "no-such-dir"))
    assert result.returncode == 1
    assert "does not exist" in result.stdout


def test_check_syntax_error_has_position() -> None:
    result = run("check", str(FIXTURES / "broken" / "syntax_error"))
    assert result.returncode == 1
    assert result.stdout.startswith(
        "tests/fixtures/broken/syntax_error/modules/frontright.json:3:3: (file): JSON syntax error"
    )
    assert "trailing comma" not in result.stdout  # a missing comma, not a trailing one


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
        "tests/fixtures/broken/integer_400_digits/modules/physicalproperties.json:4:7: "
        "conversionFactors.angle.gearRatio: number too large"
    ), result.stdout


def test_check_a_directory_name_that_is_not_utf8(tmp_path: Path) -> None:
    """A path from the command line can hold any bytes (Python makes them lone surrogates)."""
    directory = os.fsencode(tmp_path) + b"/swerve-\xff\x1b[2J"
    shutil.copytree(FIXTURES / "broken" / "many_problems", os.fsdecode(directory))
    result = run_with({"PYTHONIOENCODING": "utf-8"}, "check", directory)
    assert result.returncode == 1
    assert b"Traceback" not in result.stderr
    last = result.stdout.decode().splitlines()[-1]
    assert last.startswith("5 problems in ") and last.endswith("/swerve-\\udcff\\x1b[2J"), last


def test_check_suggests_migrate_only_where_it_would_change_something() -> None:
    older = run("check", str(FIXTURES / "valid" / "stale_legacy_conversion_factor"))
    assert older.returncode == 0, older.stderr
    assert "hint: " in older.stdout and "`conversionFactor`" in older.stdout
    assert "python -m swervelib migrate " in older.stdout
    broken = run("check", str(FIXTURES / "broken" / "legacy_conversion_factor_only"))
    assert broken.returncode == 1
    assert "python -m swervelib migrate " in broken.stdout
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
    assert f"error: {expected}" in out.getvalue() and err.getvalue() == ""
    assert "[tool.robotpy] requires" in out.getvalue()
    assert "phoenix6" not in out.getvalue()  # the CANcoder and Pigeon2 package is installed


def run_in(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "swervelib", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=False,
    )


def broken_copy(tmp_path: Path) -> Path:
    """deploy/swerve with errors and warnings in several files, in no particular order."""
    directory = Path(shutil.copytree(DEPLOY / "swerve", tmp_path / "robot" / "swerve"))
    front = directory / "modules" / "frontleft.json"
    text = front.read_text().replace('"drive": false', '"drive": "yes"')  # error, line 18
    front.write_text(text.replace("{\n", '{\n  "absoluteEncoderOfset": 1,\n', 1))  # warning, 2
    back = directory / "modules" / "backleft.json"
    back.write_text(back.read_text().replace('"id": 5', '"id": "5"'))  # error
    drive = directory / "swervedrive.json"
    drive.write_text(drive.read_text().replace("{\n", '{\n  "invertedIMUU": true,\n', 1))  # warning
    return directory


def positions(lines: list[str]) -> list[tuple[str, int, int]]:
    found = []
    for line in lines:
        match = re.match(r"^(.+?\.json)(?::(\d+):(\d+))?: ", line)
        assert match, line
        found.append((match[1], int(match[2] or 0), int(match[3] or 0)))
    return found


def test_check_writes_problems_and_warnings_to_one_stream_in_file_then_line_order(
    tmp_path: Path,
) -> None:
    directory = broken_copy(tmp_path)
    result = run_in(directory.parent, "check", "swerve")
    assert result.returncode == 1 and result.stderr == ""
    *lines, count = result.stdout.splitlines()
    assert count == "2 problems (and 2 warnings) in swerve"
    assert positions(lines) == sorted(positions(lines))
    assert [("warning:" in line) for line in lines] == [False, True, False, True]
    assert lines[1].startswith("swerve/modules/frontleft.json:2:3: absoluteEncoderOfset: warning:")
    assert lines[2].startswith("swerve/modules/frontleft.json:19:5: inverted.drive: wrong type")


def test_check_paths_are_relative_from_inside_and_absolute_from_outside(tmp_path: Path) -> None:
    directory = broken_copy(tmp_path)
    inside = run_in(directory.parent, "check", str(directory))  # an absolute path given
    assert inside.stdout.startswith("swerve/modules/backleft.json:"), inside.stdout
    (tmp_path / "elsewhere").mkdir()
    outside = run_in(tmp_path / "elsewhere", "check", "../robot/swerve")
    assert outside.stdout.startswith(f"{directory}/modules/backleft.json:"), outside.stdout
    assert outside.stdout.splitlines()[-1] == f"2 problems (and 2 warnings) in {directory}"
    valid = run_in(DEPLOY, "check", str(DEPLOY / "swerve"))
    assert valid.stdout.startswith("swerve: valid, 4 modules")


def test_check_of_the_deploy_folder_names_the_swerve_folder_in_it(tmp_path: Path) -> None:
    result = run("check", "deploy")
    assert result.returncode == 1 and result.stderr == ""
    assert result.stdout.splitlines() == [
        "deploy/swervedrive.json: (file): file not found (expected a file at "
        "deploy/swervedrive.json)",
        "1 problem in deploy",
        "hint: deploy holds no swervedrive.json, but deploy/swerve does: did you mean "
        "`python -m swervelib check deploy/swerve`?",
    ]
    modules = run("check", "deploy/swerve/modules")
    assert "did you mean `python -m swervelib check deploy/swerve`?" in modules.stdout
    project = run_in(REPO.parent, "check", REPO.name)  # the robot project holding deploy/swerve
    assert f"did you mean `python -m swervelib check {REPO.name}/deploy/swerve`?" in project.stdout
    (tmp_path / "empty").mkdir()
    assert "did you mean" not in run("check", str(tmp_path / "empty")).stdout


def test_check_hints_at_a_trailing_comma(tmp_path: Path) -> None:
    directory = Path(shutil.copytree(DEPLOY / "swerve", tmp_path / "swerve"))
    front = directory / "modules" / "frontleft.json"
    text = front.read_text().replace('"left": 10.75\n', '"left": 10.75,\n')
    front.write_bytes(text.replace("\n", "\r\n").encode())  # CRLF line ends
    result = run_in(tmp_path, "check", "swerve")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        "swerve/modules/frontleft.json:25:3: (file): JSON syntax error: expected a key in double "
        "quotes (trailing comma before `}`? JSON allows none: remove the comma at line 24, "
        "column 18)"
    )
    drive = Path(shutil.copytree(DEPLOY / "swerve", tmp_path / "other")) / "swervedrive.json"
    drive.write_text(drive.read_text().replace('"backright.json"\n', '"backright.json",\n'))
    result = run_in(tmp_path, "check", "other")
    assert result.stdout.splitlines()[0] == (
        "other/swervedrive.json:13:3: (file): JSON syntax error: expected a value, found `]` "
        "(trailing comma before `]`? JSON allows none: remove the comma at line 12, column 21)"
    )
