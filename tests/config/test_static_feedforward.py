"""pidfproperties.json ``angle.s``: the Spark's static feedforward for the angle motors (volts)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from swervelib.config import ConfigError, load_directory
from tests.conftest import DEPLOY, FIXTURES
from tests.json_files import edit_json


def test_angle_s_is_read_in_volts_and_defaults_to_0() -> None:
    config = load_directory(FIXTURES / "valid" / "steer_ks")
    assert config.pidf is not None
    assert config.pidf.angle.s == pytest.approx(0.2)
    assert config.pidf.drive.s == 0.0
    plain = load_directory(DEPLOY / "swerve").pidf
    assert plain is not None and plain.angle.s == 0.0


def _robot(tmp_path: Path, angle_s: float, **types: str) -> Path:
    directory = tmp_path / "swerve"
    shutil.copytree(DEPLOY / "swerve", directory)

    def gains(data: dict[str, Any]) -> None:
        data["angle"]["s"] = angle_s

    edit_json(directory / "modules" / "pidfproperties.json", gains)
    for name in ("frontleft", "frontright", "backleft", "backright"):

        def motors(data: dict[str, Any]) -> None:
            for role, kind in types.items():
                data[role]["type"] = kind

        edit_json(directory / "modules" / f"{name}.json", motors)
    return directory


def test_angle_s_with_other_drive_motors_is_accepted(tmp_path: Path) -> None:
    """Only the angle motors must be Sparks: a Kraken drive takes no part in angle.s."""
    config = load_directory(_robot(tmp_path, 0.1, drive="talonfx"))
    assert config.pidf is not None and config.pidf.angle.s == pytest.approx(0.1)


@pytest.mark.parametrize("angle", ["talonfx", "talonsrx"])
def test_angle_s_with_a_talon_angle_motor_is_refused_by_field(tmp_path: Path, angle: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_directory(_robot(tmp_path, 0.1, angle=angle))
    (problem,) = caught.value.problems
    assert (problem.file, problem.field) == ("modules/pidfproperties.json", "angle.s")
    assert f"`{angle}`" in problem.message and problem.found == "0.1 V"
    assert problem.line is not None
    # the same robot without s loads
    assert load_directory(_robot(tmp_path / "again", 0.0, angle=angle)).pidf is not None
