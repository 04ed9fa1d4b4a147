"""``python -m swervelib migrate``: one line per change, exit codes, dry run, no tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from swervelib.cli.main import main
from swervelib.config import load_directory
from swervelib.tools.migrate import plan
from tests.tools import REPO, copy_config, everything
from tests.tools.legacy_folders import (
    MODULES,
    PHYSICAL,
    current,
    module,
    season_2023,
    season_2024,
    write,
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_each_change_is_one_line_then_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = write(tmp_path / "old", season_2023())
    expected = [step.format() for step in plan(directory, max_speed_in_feet=True)]
    code, out, err = run(capsys, "migrate", "--max-speed-in-feet", str(directory))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[: len(expected)] == expected
    assert len(lines) == len(expected) + 1
    assert lines[-1].startswith("migrate: ") and "(backup: .swervelib-backups/" in lines[-1]
    assert "swervedrive.json: maxSpeed: 14.5 ft/s converted to 4.4196 m/s" in lines[0]
    for name in MODULES:
        assert f"{module(name)}: location.x: renamed to front (the same inches forward)" in out
    assert load_directory(directory).max_speed_mps == 4.4196


def test_dry_run_prints_the_diff_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = write(tmp_path / "old", season_2024())
    before = everything(directory)
    code, out, err = run(capsys, "migrate", str(directory), "--dry-run")
    assert (code, err) == (0, "")
    assert everything(directory) == before
    lines = out.splitlines()
    assert lines[0].startswith("modules/physicalproperties.json: conversionFactor: moved to ")
    assert "--- a/modules/physicalproperties.json" in lines
    assert lines[-1] == "migrate: would change 2 fields in 1 file (dry run, nothing written)"


def test_an_unknown_member_of_the_old_object_is_kept_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = season_2024()
    files[PHYSICAL]["conversionFactor"]["note"] = "from CAD"
    directory = write(tmp_path / "old", files)
    code, out, err = run(capsys, "migrate", str(directory), "--dry-run")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith(f"{PHYSICAL}: conversionFactor: moved to conversionFactors (")
    assert lines[0].endswith(
        "; conversionFactor.note kept in conversionFactors (unknown to YAGSL, which ignores it "
        "there too)"
    )
    assert '     "note": "from CAD"' in lines  # a context line of the diff: not removed
    assert not any("note" in line for line in lines if line.startswith(("-", "+")))
    code, out, _ = run(capsys, "migrate", str(directory))
    assert code == 0
    assert json.loads((directory / PHYSICAL).read_text())["conversionFactors"]["note"] == "from CAD"


def test_already_current_and_idempotent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = copy_config(tmp_path)
    code, out, err = run(capsys, "migrate", str(directory))
    assert (code, out, err) == (
        0,
        f"migrate: {directory} is already current, nothing to change\n",
        "",
    )
    old = write(tmp_path / "old", season_2024())
    assert run(capsys, "migrate", str(old))[0] == 0
    after = everything(old)
    code, out, _ = run(capsys, "migrate", str(old))
    assert (code, out) == (0, f"migrate: {old} is already current, nothing to change\n")
    assert everything(old) == after


def test_max_speed_flagged_without_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = current()
    files["swervedrive.json"]["maxSpeed"] = 16
    directory = write(tmp_path / "old", files)
    before = everything(directory)
    code, out, _ = run(capsys, "migrate", str(directory))
    assert code == 0 and everything(directory) == before
    first, last = out.splitlines()
    assert first.startswith("swervedrive.json: maxSpeed: left alone: ")
    assert "(4.8768 m/s); rerun with --max-speed-in-feet to convert it" in first
    assert last == f"migrate: nothing changed in {directory}"


def test_remaining_problems_are_listed_after_the_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = season_2024()
    files[module("backleft")]["encoder"]["type"] = "bogus"
    directory = write(tmp_path / "old", files)
    code, out, _ = run(capsys, "migrate", str(directory))
    assert code == 0
    lines = out.splitlines()
    assert lines[-2] == (
        "1 problem remains, none of them from the migration; fix them by hand "
        "(python -m swervelib check lists them):"
    )
    assert lines[-1].startswith("  modules/backleft.json:") and "encoder.type" in lines[-1]


def _check(directory: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "swervelib", "check", str(directory)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_text_after_the_json_is_migrated_and_check_then_stops_asking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """check says "run migrate" for a legacy key in a file with text after its JSON (which the
    loader ignores); migrate must then migrate it, not call the folder current."""
    directory = write(tmp_path / "old", season_2024())
    path = directory / PHYSICAL
    path.write_bytes(path.read_bytes() + b"// old values below\n")
    checked = _check(directory)
    assert checked.returncode == 1, checked.stderr
    assert f"`python -m swervelib migrate {directory}` upgrades it" in checked.stdout
    code, out, err = run(capsys, "migrate", str(directory))
    assert (code, err) == (0, "")
    first, last = out.splitlines()
    assert first.startswith(f"{PHYSICAL}: conversionFactor: moved to conversionFactors (")
    assert last.startswith("migrate: 2 fields in 1 file (backup: .swervelib-backups/")
    assert path.read_bytes().endswith(b"}\n// old values below\n")
    checked = _check(directory)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "migrate" not in checked.stdout + checked.stderr
    assert "text after the JSON object is ignored, as YAGSL does; delete it" in checked.stdout
    code, out, _ = run(capsys, "migrate", str(directory))
    assert (code, out) == (0, f"migrate: {directory} is already current, nothing to change\n")


def test_a_file_that_is_not_json_is_named_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = copy_config(tmp_path)
    (directory / module("backleft")).write_text('{"drive": {"id": 1},\n}')
    before = everything(directory)
    code, out, err = run(capsys, "migrate", str(directory))
    assert code == 1 and everything(directory) == before
    assert err == (
        "error: modules/backleft.json:2:1: JSON syntax error: expected a key in double quotes "
        "(trailing comma before `}`? JSON allows none: remove the comma at line 1, column 20); "
        "fix it by hand first\n"
    )
    assert out.splitlines() == [
        f"migrate: nothing changed in {directory}",
        "migrate: 1 file could not be read and was not migrated (named above); fix it and run "
        "migrate again",
    ]
    assert "already current" not in out


def _clashing_locations(directory: Path) -> Path:
    """2023 locations that, once read as front/left, put two wheels in one place."""
    files = current()
    for name in ("frontleft", "backright"):
        files[module(name)]["location"] = {"x": 5, "y": 5}
    return write(directory, files)


@pytest.mark.parametrize(
    ("folder", "message"),
    [
        ("absent", "error: configuration directory"),
        ("clash", "error: refusing to write: the migrated folder would have 1 new problem:"),
    ],
)
def test_failures_exit_1_with_an_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], folder: str, message: str
) -> None:
    directory = tmp_path / folder
    if folder == "clash":
        _clashing_locations(directory)
    before = everything(directory) if directory.exists() else None
    code, out, err = run(capsys, "migrate", str(directory))
    assert code == 1 and out == ""
    assert err.startswith(message) and "Traceback" not in err
    assert everything(directory) == before if before is not None else not directory.exists()


def test_as_a_real_command_on_an_ascii_console(tmp_path: Path) -> None:
    directory = write(tmp_path / "old", season_2024())
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "ascii"}
    result = subprocess.run(
        [sys.executable, "-m", "swervelib", "migrate", str(directory), "--dry-run"],
        capture_output=True,
        text=True,
        encoding="ascii",
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "\\xb0/motor rotation" in result.stdout  # the degree sign, escaped
    assert result.stdout.rstrip().endswith("(dry run, nothing written)")
