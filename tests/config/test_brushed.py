"""``sparkmax_brushed`` read as YAGSL reads it: the motor's ``canbus`` names its encoder; a drive
motor must have one, an angle motor without one steers on an encoder on its data port."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from swervelib.config import ConfigError, SteerFeedback, SwerveConfig, load_directory
from swervelib.config.catalog import BRUSHED_ENCODERS
from swervelib.config.errors import Problem
from tests.conftest import DEPLOY

FL = "modules/frontleft.json"


def _load(tmp_path: Path, **changes: Any) -> SwerveConfig:
    """``deploy/swerve`` with frontleft's top-level keys replaced by ``changes``."""
    directory = tmp_path / "swerve"
    shutil.copytree(DEPLOY / "swerve", directory)
    path = directory / FL
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data, indent=2))
    return load_directory(directory)


def _problems(tmp_path: Path, **changes: Any) -> list[Problem]:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, **changes)
    return [p for p in caught.value.problems if p.file == FL]


def _brushed(canbus: Any, device_id: int) -> dict[str, Any]:
    return {"type": "sparkmax_brushed", "id": device_id, "canbus": canbus}


ATTACHED = {"type": "attached", "id": 0}


@pytest.mark.parametrize("encoder", sorted(BRUSHED_ENCODERS))
def test_each_encoder_name_loads_without_a_warning(tmp_path: Path, encoder: str) -> None:
    config = _load(tmp_path, drive=_brushed(encoder, 1))
    module = config.module("frontleft")
    assert module.drive.brushed_encoder == encoder
    assert module.drive.canbus is None  # not a CAN bus: no "canbus is ignored" warning either
    assert [w for w in config.warnings if w.file == FL] == []


@pytest.mark.parametrize("canbus", [None, "", "rio", "throughbor", 3])
def test_a_drive_motor_without_an_encoder_is_an_error(tmp_path: Path, canbus: Any) -> None:
    [problem] = _problems(tmp_path, drive=_brushed(canbus, 1))
    assert problem.field == "drive.canbus"
    assert "needs an encoder, named in `canbus`" in problem.message
    assert problem.expected is not None and "`throughbore_dataport`" in problem.expected
    if canbus == "throughbor":
        assert "did you mean `throughbore`?" in problem.message


def test_an_angle_motor_without_an_encoder_steers_on_the_attached_one(tmp_path: Path) -> None:
    config = _load(tmp_path, angle=_brushed(None, 2), encoder=ATTACHED)
    module = config.module("frontleft")
    assert module.angle.brushed_encoder is None
    assert module.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER
    # the module's gearing is kept: 21.43:1 from physicalproperties.json, not a guess
    assert module.conversion.angle_gear_ratio == pytest.approx(150 / 7)
    # its "angle motor encoder" is the absolute encoder (what calibrate cannot judge by hand)
    assert module.angle_encoder_is_absolute
    assert not config.module("frontright").angle_encoder_is_absolute  # a brushless Spark MAX


def test_an_unknown_encoder_name_on_an_angle_motor_is_a_warning(tmp_path: Path) -> None:
    config = _load(tmp_path, angle=_brushed("greyhill", 2), encoder=ATTACHED)
    [warning] = [w for w in config.warnings if w.field == "angle.canbus"]
    assert "no encoder of its own" in warning.message
    assert "did you mean `greyhill_63r256`?" in warning.message
    assert config.module("frontleft").steer_feedback is SteerFeedback.ABSOLUTE_ENCODER


def test_an_angle_motor_with_nothing_to_steer_on_is_an_error(tmp_path: Path) -> None:
    [problem] = _problems(tmp_path, angle=_brushed(None, 2))  # the reference robot's CANcoder
    assert problem.field == "angle"
    assert "steers on an absolute encoder on its data port" in problem.message
    assert problem.found == "encoder `cancoder`, no motor encoder"


@pytest.mark.parametrize("analog", ["sparkmax_analog", "sparkmax_analog5v"])
def test_an_analog_encoder_on_the_data_port_is_not_steered_on(tmp_path: Path, analog: str) -> None:
    """tests/corpus/crypticx58-brushed-analog2025: the module has an absolute encoder on the data
    port, an analog one, which YAGSL reads for the angle but never hands to the motor to steer on;
    the error says so rather than that the module has none."""
    [problem] = _problems(tmp_path, angle=_brushed(None, 2), encoder={"type": analog, "id": 0})
    assert problem.field == "angle"
    assert "steers only on a duty-cycle absolute encoder on its data port" in problem.message
    assert f"reads the analog encoder there (`{analog}`)" in problem.message
    assert "this module has none" not in problem.message
    assert problem.found == f"encoder `{analog}`, no motor encoder"


def test_asking_an_angle_motor_without_an_encoder_to_use_it_is_an_error(tmp_path: Path) -> None:
    [problem] = _problems(
        tmp_path, angle=_brushed(None, 2), encoder=ATTACHED, steerOnAbsoluteEncoder=False
    )
    assert problem.field == "angle"
    assert "`steerOnAbsoluteEncoder: false`" in problem.message


def test_the_data_port_holds_one_encoder(tmp_path: Path) -> None:
    [problem] = _problems(tmp_path, angle=_brushed("throughbore_dataport", 2), encoder=ATTACHED)
    assert problem.field == "angle"
    assert "holds one encoder" in problem.message


def test_an_angle_motor_with_its_own_encoder(tmp_path: Path) -> None:
    """With a CANcoder it steers on its own encoder; with an attached encoder on the data port
    YAGSL steers on that (whatever the angle factor), unless the file says otherwise."""
    own = _load(tmp_path / "a", angle=_brushed("srx_mag_encoder", 2)).module("frontleft")
    assert own.steer_feedback is SteerFeedback.MOTOR_ENCODER
    assert own.angle.brushed_encoder == "srx_mag_encoder"
    assert not own.angle_encoder_is_absolute
    both = _load(tmp_path / "b", angle=_brushed("throughbore", 2), encoder=ATTACHED)
    assert both.module("frontleft").steer_feedback is SteerFeedback.ABSOLUTE_ENCODER
    assert not both.module("frontleft").angle_encoder_is_absolute  # it reads its own encoder
    told = _load(
        tmp_path / "c",
        angle=_brushed("throughbore", 2),
        encoder=ATTACHED,
        steerOnAbsoluteEncoder=False,
    )
    assert told.module("frontleft").steer_feedback is SteerFeedback.MOTOR_ENCODER
    [warning] = [w for w in told.warnings if w.field == "steerOnAbsoluteEncoder"]
    assert "YAGSL would steer a brushed Spark MAX on the absolute encoder" in warning.message
