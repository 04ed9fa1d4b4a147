"""A properties file in the other folder than the one YAGSL reads it from is never read: the
loader says so, naming the file it does read (FRC 2706's 2026 folder has a second
physicalproperties.json beside swervedrive.json, tests/corpus/2706-beetle2026)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from swervelib.config import load_directory
from tests.conftest import DEPLOY

MISPLACED = [
    ("physicalproperties.json", "modules/physicalproperties.json"),
    ("pidfproperties.json", "modules/pidfproperties.json"),
    ("modules/controllerproperties.json", "controllerproperties.json"),
]


@pytest.mark.parametrize(("misplaced", "read"), MISPLACED)
def test_a_copy_where_it_is_not_read_is_warned_and_changes_nothing(
    tmp_path: Path, misplaced: str, read: str
) -> None:
    directory = Path(shutil.copytree(DEPLOY / "swerve", tmp_path / "swerve"))
    clean = load_directory(directory)
    (directory / misplaced).write_text('{"this": "is never read"}')
    config = load_directory(directory)
    (warning,) = [w for w in config.warnings if w.file == misplaced]
    assert f"not read: `{read}` is" in warning.message, warning.message
    assert (config.modules, config.drive, config.physical, config.pidf) == (
        clean.modules,
        clean.drive,
        clean.physical,
        clean.pidf,
    )


def test_no_warning_when_the_files_are_where_they_are_read(tmp_path: Path) -> None:
    directory = Path(shutil.copytree(DEPLOY / "swerve", tmp_path / "swerve"))
    config = load_directory(directory)
    assert not [w for w in config.warnings if "not read:" in w.message]
