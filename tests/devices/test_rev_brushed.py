"""A brushed motor on a Spark MAX (``sparkmax_brushed``, a CIM), read as YAGSL reads it: the
motor's ``canbus`` names its encoder, on the encoder port or (``*_dataport``) the data port; an
angle motor with none steers on the absolute encoder on its data port.

Through robotpy-rev's simulator: each encoder's direction, units and configuration, then two whole
robots driving in the simulation. An isolated group of its own (REV allows one Spark per CAN id and
process): the device checks take ids from 1, the robots use 40-47 and 50-57.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import rev
from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModuleState

from swervelib import SwerveDrive
from swervelib.config import SteerFeedback, load_directory
from swervelib.config.catalog import BRUSHED_ENCODERS
from swervelib.devices.rev.motor import SparkMotor
from swervelib.devices.settings import Role
from tests.conftest import DEPLOY
from tests.devices.test_rev import DRIVE_M_PER_ROTATION, DT, check_motor_type, make_motor
from tests.devices.test_rev import enabled_driver_station as enabled_driver_station  # autouse
from tests.drive.harness import simulated
from tests.json_files import edit_json

BRUSHED = "sparkmax_brushed"
TOLERANCE_M = 0.10
TOLERANCE_DEG = 3.0


def _sensor(motor: SparkMotor) -> Any:
    return motor.spark.configAccessor.closedLoop.getFeedbackSensor()


@pytest.mark.parametrize("encoder", sorted(BRUSHED_ENCODERS))
def test_a_brushed_motor_reads_the_encoder_named_in_canbus(encoder: str) -> None:
    """A brushed Spark MAX with a CIM; the encoder's counts per revolution and port as YAGSL has
    them; degrees of module rotation, direction by the flag, output sign by the flag."""
    check_motor_type(BRUSHED, rev.SparkMax, "CIM", brushed_encoder=encoder)
    expected = BRUSHED_ENCODERS[encoder]
    for inverted in (False, True):
        motor = make_motor(BRUSHED, inverted=inverted, brushed_encoder=encoder)
        assert motor.spark.getMotorType() == rev.SparkLowLevel.MotorType.kBrushed
        accessor = motor.spark.configAccessor
        if expected.data_port:
            alternate = accessor.alternateEncoder
            assert alternate.getCountsPerRevolution() == expected.counts_per_revolution
            assert alternate.getInverted() is inverted  # in phase with the motor
            assert _sensor(motor) == rev.FeedbackSensor.kAlternateOrExternalEncoder
        else:
            assert accessor.encoder.getCountsPerRevolution() == expected.counts_per_revolution
            assert accessor.encoder.getInverted() is inverted
            assert _sensor(motor) == rev.FeedbackSensor.kPrimaryEncoder


@pytest.mark.parametrize("encoder", ["throughbore", "srx_mag_encoder_dataport"])
def test_a_brushed_drive_motor_reads_metres_and_seeds(encoder: str) -> None:
    """Metres and m/s through the drive conversion, sign by the flag; a seed survives the
    simulator's steps on either port."""
    for inverted in (False, True):
        motor = make_motor(BRUSHED, role=Role.DRIVE, inverted=inverted, brushed_encoder=encoder)
        sign = -1.0 if inverted else 1.0
        motor.sim.set_rotor(0.0, 0.0, DT)
        motor.set_position(2.0)
        motor.sim.set_rotor(0.0, 0.0, DT)
        assert motor.get_position() == pytest.approx(2.0, abs=1e-6)
        motor.sim.set_rotor(6.75, 0.0, DT)  # one wheel revolution
        assert motor.get_position() == pytest.approx(2.0 + sign * math.pi * 0.1016, rel=1e-5)
        rotor, rps = 6.75, 20.0
        for _ in range(150):
            rotor += rps * DT
            motor.sim.set_rotor(rotor, rps, DT)
        assert motor.get_velocity() == pytest.approx(sign * rps * DRIVE_M_PER_ROTATION, rel=0.05)


def test_a_brushed_angle_motor_without_an_encoder_needs_the_absolute_one() -> None:
    """A hand-made configuration that gives a brushed angle motor nothing to steer on is refused
    when the adapter is built (the loader never makes one)."""
    with pytest.raises(ValueError, match="no encoder named"):
        make_motor(BRUSHED)


# -- whole robots ----------------------------------------------------------------------------------

OFFSETS = {"frontleft": 0.0, "frontright": 287.1, "backleft": 184.6, "backright": 33.3}
DRIVE_ENCODERS = {
    "frontleft": "throughbore",
    "frontright": "srx_mag_encoder_dataport",
    "backleft": "greyhill_63r256",
    "backright": "throughbore_dataport",
}


def _robot(target: Path, first_id: int, module: Callable[[str, dict[str, Any]], None]) -> Path:
    """``deploy/swerve`` with brushed Spark MAXes from ``first_id``, a navX, CIM-friendly gains,
    and ``module`` applied to each module file."""
    shutil.copytree(DEPLOY / "swerve", target)

    def edit(name: str, change: Callable[[dict[str, Any]], None]) -> None:
        edit_json(target / name, change)

    edit("swervedrive.json", lambda data: data.__setitem__("imu", {"type": "navx_spi", "id": 0}))
    for index, name in enumerate(OFFSETS):

        def change(data: dict[str, Any], index: int = index, name: str = name) -> None:
            data["drive"] = {"type": BRUSHED, "id": first_id + 2 * index}
            data["drive"]["canbus"] = DRIVE_ENCODERS[name]
            data["angle"] = {"type": BRUSHED, "id": first_id + 2 * index + 1, "canbus": None}
            data["absoluteEncoderOffset"] = OFFSETS[name]
            module(name, data)

        edit(f"modules/{name}.json", change)
    edit("modules/pidfproperties.json", lambda data: data["angle"].__setitem__("p", 0.02))
    return target


@pytest.fixture(scope="module")
def on_absolute(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Angle motors with no encoder of their own, steering on the encoders on their data ports
    (two of them mounted reversed)."""

    def module(name: str, data: dict[str, Any]) -> None:
        data["encoder"] = {"type": "attached", "id": 0}
        data["absoluteEncoderInverted"] = name in ("frontright", "backleft")

    return _robot(tmp_path_factory.mktemp("absolute") / "swerve", 40, module)


@pytest.fixture(scope="module")
def on_motor_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Angle motors reading an SRX Mag Encoder on their encoder port, absolute encoders on DIO."""

    def module(name: str, data: dict[str, Any]) -> None:
        data["angle"]["canbus"] = "srx_mag_encoder"
        data["encoder"] = {"type": "throughbore", "id": list(OFFSETS).index(name)}

    return _robot(tmp_path_factory.mktemp("motor") / "swerve", 50, module)


def _drive_a_line_and_a_turn(directory: Path) -> None:
    """Point the wheels (the angle motors' encoders, or what stands in for them, following the
    modules through the encoders' wraps), drive a field-relative line, turn a quarter: the truth
    goes forward and left and turns counter-clockwise, and odometry stays within 10 cm and 3°."""
    with simulated(directory) as h:
        drive: SwerveDrive = h.drive
        start: dict[str, float] = {}
        for target in (0.0, 80.0, 0.0, -80.0, 0.0):

            def point(d: SwerveDrive, target: float = target) -> None:
                for module in d.modules:
                    state = SwerveModuleState(0.0, Rotation2d.fromDegrees(target))
                    module.set_desired_state(state, force_angle=True)

            h.run(0.8, point)
            for name, angle in h.sim.true_module_angles.items():
                error = (angle.degrees() - target + 180.0) % 360.0 - 180.0
                assert abs(error) < 2.0, (directory.parent.name, name, target, error)
            if target == 0.0 and not start:
                start.update({m.name: m.raw_angle_deg for m in drive.modules})
            for module in drive.modules:
                turned = module.raw_angle_deg - start[module.name]
                assert turned == pytest.approx(target, abs=3.0), (module.name, target, turned)

        speed = 0.5 * drive.max_speed
        h.run(2.0, lambda d: d.drive(ChassisSpeeds(speed, 0.5 * speed, 0.0), field_relative=True))
        h.run(0.5, lambda d: d.stop())
        truth = h.sim.true_pose
        assert truth.X() > 1.0 * speed and truth.Y() > 0.3 * speed, truth
        _assert_odometry(h)

        h.run(0.5 * math.pi / 2.0, lambda d: d.drive(ChassisSpeeds(0.0, 0.0, 2.0)))
        h.run(0.5, lambda d: d.stop())
        turned = (h.sim.true_pose.rotation() - truth.rotation()).degrees()
        assert 60.0 < turned < 110.0, turned
        _assert_odometry(h)


def _assert_odometry(h: Any) -> None:
    pose, truth = h.drive.get_pose(), h.sim.true_pose
    distance = pose.translation().distance(truth.translation())
    heading = abs((pose.rotation() - truth.rotation()).degrees())
    assert distance < TOLERANCE_M and heading < TOLERANCE_DEG, (distance, heading)


def test_a_brushed_robot_steering_on_its_absolute_encoders_drives(on_absolute: Path) -> None:
    config = load_directory(on_absolute)
    for module in config.modules:
        assert module.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER
        assert module.angle.brushed_encoder is None
        assert module.drive.brushed_encoder == DRIVE_ENCODERS[module.name]
    _drive_a_line_and_a_turn(on_absolute)


def test_a_brushed_robot_steering_on_its_motor_encoders_drives(on_motor_encoder: Path) -> None:
    config = load_directory(on_motor_encoder)
    for module in config.modules:
        assert module.steer_feedback is SteerFeedback.MOTOR_ENCODER
        assert module.angle.brushed_encoder == "srx_mag_encoder"
    _drive_a_line_and_a_turn(on_motor_encoder)
