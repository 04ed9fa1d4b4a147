"""The type strings: every one the catalog accepts has an adapter, every one it refuses says why,
and the docs' tables (docs/device-types.md) list them all."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from wpimath.system.plant import DCMotor

from swervelib.config import ConfigError, load_directory
from swervelib.config.catalog import (
    ENCODER_TYPES,
    IMU_TYPES,
    MOTOR_FREE_SPEED_RPS,
    MOTOR_TYPES,
    NO_PACKAGE,
    UNSUPPORTED,
    Motor,
)
from swervelib.devices import registry
from tests.conftest import DEPLOY, REPO


def test_every_accepted_type_has_an_adapter() -> None:
    for entry in MOTOR_TYPES.values():
        assert entry.controller in registry.MOTOR_ADAPTERS
    for encoder in ENCODER_TYPES.values():
        assert encoder.kind in registry.ENCODER_ADAPTERS
    for imu in IMU_TYPES.values():
        assert imu.kind in registry.IMU_ADAPTERS


def test_refused_types_are_not_also_accepted() -> None:
    accepted = set(MOTOR_TYPES) | set(ENCODER_TYPES) | set(IMU_TYPES)
    assert not accepted & set(UNSUPPORTED)


@pytest.mark.parametrize("motor", list(Motor))
def test_free_speeds_are_wpilibs(motor: Motor) -> None:
    model = getattr(DCMotor, motor.value)(1)
    assert MOTOR_FREE_SPEED_RPS[motor] * 60 == pytest.approx(
        model.freeSpeed * 60 / (2 * 3.141592653589793), rel=2e-3
    )


def _with_type(tmp_path: Path, file: str, key: str, type_name: str) -> Path:
    directory = tmp_path / "swerve"
    shutil.copytree(DEPLOY / "swerve", directory)
    path = directory / file
    data = json.loads(path.read_text())
    data[key]["type"] = type_name
    path.write_text(json.dumps(data, indent=2))
    return directory


@pytest.mark.parametrize(
    ("file", "key", "type_name"),
    [
        ("modules/frontleft.json", "encoder", "canandmag_can"),
        ("modules/frontleft.json", "encoder", "canandcoder_can"),
        ("swervedrive.json", "imu", "canandgyro"),
    ],
)
def test_redux_can_devices_are_refused_for_want_of_a_package(
    tmp_path: Path, file: str, key: str, type_name: str
) -> None:
    assert UNSUPPORTED[type_name] == NO_PACKAGE == "no RobotPy package"
    with pytest.raises(ConfigError) as caught:
        load_directory(_with_type(tmp_path, file, key, type_name))
    [problem] = [p for p in caught.value.problems if p.field == f"{key}.type"]
    assert problem.file == file
    assert problem.message == f"`{type_name}` is not supported: no RobotPy package"


@pytest.mark.parametrize(
    ("key", "type_name"),
    [("encoder", "canandmag"), ("encoder", "canandcoder"), ("angle", "sparkmax_minion")],
)
def test_yagsl_2026_types_load(tmp_path: Path, key: str, type_name: str) -> None:
    config = load_directory(_with_type(tmp_path, "modules/frontleft.json", key, type_name))
    assert getattr(config.module("frontleft"), key).type == type_name


def test_the_readme_tables_list_every_type() -> None:
    section = (REPO / "docs" / "device-types.md").read_text()
    for name in [*MOTOR_TYPES, *ENCODER_TYPES, *IMU_TYPES, *UNSUPPORTED]:
        assert f"`{name}`" in section, name
