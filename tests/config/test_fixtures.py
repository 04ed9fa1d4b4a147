"""Every broken fixture raises ConfigError naming exactly the expected files and fields."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from swervelib.config import ConfigError, Severity, load_directory
from tests.conftest import FIXTURES

BROKEN = sorted(p for p in (FIXTURES / "broken").iterdir() if p.is_dir())
VALID = sorted(p for p in (FIXTURES / "valid").iterdir() if p.is_dir())


def test_fixture_sets_are_not_empty() -> None:
    assert len(BROKEN) >= 30
    assert len(VALID) >= 10


@pytest.mark.parametrize("directory", BROKEN, ids=lambda p: p.name)
def test_broken_fixture_reports_every_expected_problem(directory: Path) -> None:
    expected = json.loads((directory / "expect.json").read_text())["problems"]
    with pytest.raises(ConfigError) as caught:
        load_directory(directory)
    problems = caught.value.problems
    assert all(p.severity is Severity.ERROR for p in problems)
    found = [(p.file, p.field, p.format()) for p in problems]
    for want in expected:
        matches = [
            f
            for f in found
            if f[0] == want["file"] and f[1] == want["field"] and want["contains"] in f[2]
        ]
        assert matches, f"missing {want} in {found}"
    assert len(problems) == len(expected), found


@pytest.mark.parametrize("directory", VALID, ids=lambda p: p.name)
def test_valid_fixture_loads(directory: Path) -> None:
    config = load_directory(directory)
    assert len(config.modules) >= 2
    expect = directory / "expect.json"
    expected = json.loads(expect.read_text())["warnings"] if expect.exists() else []
    for want in expected:
        assert any(
            w.file == want["file"] and w.field == want["field"] and want["contains"] in w.message
            for w in config.warnings
        ), f"missing warning {want} in {[w.format() for w in config.warnings]}"
        (match,) = [
            w for w in config.warnings if (w.file, w.field) == (want["file"], want["field"])
        ]
        assert match.line is not None, "a tolerated value's warning names its line and column"


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_directory(tmp_path / "nowhere")
    assert "does not exist" in str(caught.value)
    assert len(caught.value.problems) == 1


def test_a_module_file_extension_in_capitals_is_named_as_the_problem(tmp_path: Path) -> None:
    """`frontleft.JSON` is not read as `modules/frontleft.JSON.json`, a file nobody wrote: the
    problem named is the extension's case."""
    directory = tmp_path / "swerve"
    shutil.copytree(FIXTURES.parent.parent / "deploy" / "swerve", directory)
    drive_file = directory / "swervedrive.json"
    drive = json.loads(drive_file.read_text())
    first = drive["modules"][0]
    (directory / "modules" / first).rename(directory / "modules" / first.replace(".json", ".JSON"))
    drive["modules"][0] = first.replace(".json", ".JSON")
    drive_file.write_text(json.dumps(drive, indent=2))
    with pytest.raises(ConfigError) as caught:
        load_directory(directory)
    (problem,) = caught.value.problems
    assert (problem.file, problem.field) == ("swervedrive.json", "modules[0]")
    assert "in lower case" in problem.message and ".JSON.json" not in problem.format()


@pytest.mark.parametrize(
    ("key", "given", "missing", "default"),
    [("rampRate", "drive", "angle", 0.25), ("currentLimit", "angle", "drive", 40.0)],
)
def test_a_half_left_out_of_a_pair_takes_the_default_with_a_warning(
    tmp_path: Path, key: str, given: str, missing: str, default: float
) -> None:
    """YAGSL reads 0 for a half left out of ``{"drive": x, "angle": y}``; swervelib keeps its
    default (no ramp, or no current limit, would be a surprise) and says so."""
    directory = tmp_path / "swerve"
    shutil.copytree(FIXTURES.parent.parent / "deploy" / "swerve", directory)
    physical_file = directory / "modules" / "physicalproperties.json"
    physical = json.loads(physical_file.read_text())
    physical[key] = {given: 0.1 if key == "rampRate" else 30}
    physical_file.write_text(json.dumps(physical, indent=2))
    config = load_directory(directory)
    pair = config.physical.ramp_rate if key == "rampRate" else config.physical.current_limit
    assert getattr(pair, missing) == default
    (warning,) = [w for w in config.warnings if w.field == f"{key}.{missing}"]
    assert warning.file == "modules/physicalproperties.json"
    assert "YAGSL would read 0" in warning.message and f"{default:g}" in warning.message
    assert not [w for w in config.warnings if w.field == f"{key}.{given}"]


def test_syntax_error_has_line_and_column() -> None:
    with pytest.raises(ConfigError) as caught:
        load_directory(FIXTURES / "broken" / "syntax_error")
    (problem,) = caught.value.problems
    assert (problem.line, problem.column) == (3, 3)
    assert problem.format().startswith("modules/frontright.json:3:3: ")


def test_field_problems_point_at_the_field() -> None:
    with pytest.raises(ConfigError) as caught:
        load_directory(FIXTURES / "broken" / "number_for_bool")
    (problem,) = caught.value.problems
    text = (FIXTURES / "broken" / "number_for_bool" / "modules/frontright.json").read_text()
    line = text.splitlines()[problem.line - 1]  # type: ignore[operator]
    assert line.strip().startswith('"drive": 1')
    assert problem.expected == "true or false"
    assert problem.found == "1 (a number)"


def test_unknown_type_lists_accepted_types() -> None:
    with pytest.raises(ConfigError) as caught:
        load_directory(FIXTURES / "broken" / "unknown_motor_type")
    (problem,) = caught.value.problems
    assert problem.expected is not None
    for accepted in ("sparkmax", "krakenx60", "talonsrx", "sparkflex_vortex"):
        assert accepted in problem.expected


def test_error_message_lists_all_problems() -> None:
    with pytest.raises(ConfigError) as caught:
        load_directory(FIXTURES / "broken" / "many_problems")
    message = str(caught.value)
    assert message.startswith("5 configuration problems in ")
    assert len(message.splitlines()) == 6


def test_config_error_is_exported_from_package_and_pickles() -> None:
    import pickle

    import swervelib
    import swervelib.config

    assert swervelib.ConfigError is swervelib.config.ConfigError
    error = ConfigError([], "x")
    assert pickle.loads(pickle.dumps(error)).directory == "x"
