"""Telemetry: every key under /SmartDashboard/swerve/ with the spec's units."""

from __future__ import annotations

import ntcore
import pytest
from wpilib.simulation import pauseTiming, resumeTiming
from wpimath.geometry import Pose2d, Rotation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModuleState

from swervelib.drive.telemetry import DriveTelemetry, TelemetryVerbosity
from tests.drive.harness import simulated

ROOT = "/SmartDashboard/swerve"
MODULE_KEYS = (
    "Raw Absolute Encoder",
    "Raw Angle Encoder",
    "Raw Drive Encoder",
    "Raw Drive Velocity",
    "Adjusted Absolute Encoder",
    "Speed Setpoint",
    "Angle Setpoint",
)


def number(name: str) -> float:
    nt = ntcore.NetworkTableInstance.getDefault()
    topic = nt.getTopic(name)
    assert topic.exists(), name
    value: float = nt.getDoubleTopic(name).subscribe(float("nan")).get()
    return value


def test_every_key_is_published_with_the_spec_units() -> None:
    with simulated(initial_yaw_deg=30.0) as h:
        h.sim.turn_module_by_hand("frontleft", 0.0)
        h.run(1.0, lambda d: d.drive(ChassisSpeeds(0.5, 0.0, 0.0)))
        drive, sim = h.drive, h.sim
        nt = ntcore.NetworkTableInstance.getDefault()
        for module, config in zip(drive.modules, drive.config.modules, strict=True):
            base = f"{ROOT}/modules/{module.name}"
            for key in MODULE_KEYS:
                number(f"{base}/{key}")
            raw_abs = number(f"{base}/Raw Absolute Encoder")
            assert 0.0 <= raw_abs < 360.0
            expected = (raw_abs - config.absolute_encoder_offset_deg) % 360.0
            assert number(f"{base}/Adjusted Absolute Encoder") == pytest.approx(expected, abs=1e-6)
            true_angle = sim.true_module_angles[module.name].degrees()
            assert (number(f"{base}/Adjusted Absolute Encoder") - true_angle + 180) % 360 - 180 == (
                pytest.approx(0.0, abs=1.0)
            )
            # One group (a module, or the IMU yaws) is set per loop, in turn: five groups, so a
            # module's values are at most four loops old (0.5 m/s).
            assert number(f"{base}/Raw Drive Encoder") == pytest.approx(
                module.raw_drive_m, abs=0.5 * 4 * 0.02 + 1e-6
            )
            assert 0.3 < number(f"{base}/Raw Drive Velocity") < 0.7  # m/s, not rpm
            assert number(f"{base}/Speed Setpoint") == pytest.approx(0.5, abs=0.05)
            issue = nt.getBooleanTopic(f"{base}/Absolute Encoder Read Issue").subscribe(True).get()
            assert issue is False
        # Before zeroing. The yaw is continuous: the navX this drive shares with the tests before
        # this one may have counted whole turns already.
        raw_yaw = number(f"{ROOT}/Raw IMU Yaw")
        assert (raw_yaw - 30.0 + 180.0) % 360.0 - 180.0 == pytest.approx(0.0, abs=0.5)
        assert number(f"{ROOT}/Adjusted IMU Yaw") == pytest.approx(0.0, abs=0.5)  # pose heading
        # Settings are published once, by the newest drive; other tests' drives share this process.
        DriveTelemetry(drive.modules, drive.max_speed)
        assert number(f"{ROOT}/moduleCount") == 4
        assert number(f"{ROOT}/maxSpeed") == pytest.approx(drive.max_speed)
        names = nt.getStringArrayTopic(f"{ROOT}/moduleNames").subscribe([]).get()
        assert list(names) == ["frontleft", "frontright", "backleft", "backright"]
        locations = nt.getDoubleArrayTopic(f"{ROOT}/wheelLocation").subscribe([]).get()
        assert locations[:2] == pytest.approx([0.3175, 0.3175])  # metres (12.5 in)
        scope = f"{ROOT}/advantagescope"
        states = nt.getStructArrayTopic(f"{scope}/currentStates", SwerveModuleState).subscribe([])
        assert len(states.get()) == 4
        for published, module in zip(states.get(), drive.modules, strict=True):
            assert published.speed == pytest.approx(module.drive_velocity_mps)
            turn = (published.angle.degrees() - module.angle_deg + 180.0) % 360.0 - 180.0
            assert turn == pytest.approx(0.0, abs=1e-9)  # the same angle (either side of 0/360)
        desired = nt.getStructArrayTopic(f"{scope}/desiredStates", SwerveModuleState).subscribe([])
        assert all(s.speed == pytest.approx(0.5, abs=0.05) for s in desired.get())
        pose = nt.getStructTopic(f"{scope}/pose", Pose2d).subscribe(Pose2d()).get()
        assert pose.X() == pytest.approx(drive.get_pose().X())
        speeds = nt.getStructTopic(f"{scope}/measuredChassisSpeeds", ChassisSpeeds)
        measured = speeds.subscribe(ChassisSpeeds()).get()
        assert measured.vx == pytest.approx(0.5, abs=0.15)
        assert (measured.vx, measured.vy, measured.omega) == pytest.approx(
            drive.get_state().measured
        )
        wanted = nt.getStructTopic(f"{scope}/desiredChassisSpeeds", ChassisSpeeds)
        assert wanted.subscribe(ChassisSpeeds()).get().vx == pytest.approx(0.5, abs=0.01)
        rotation = nt.getStructTopic(f"{scope}/robotRotation", Rotation2d).subscribe(Rotation2d(1))
        assert rotation.get().degrees() == pytest.approx(0.0, abs=0.5)
        field = nt.getDoubleArrayTopic("/SmartDashboard/Field/Robot").subscribe([]).get()
        assert field[0] == pytest.approx(drive.get_pose().X(), abs=1e-6)  # set every loop


def test_raw_readings_follow_the_hands_as_the_spec_describes() -> None:
    """Spec §3.1: turning a module / a wheel / the robot counter-clockwise raises the raw values."""
    with simulated() as h:
        base = f"{ROOT}/modules/backleft"
        before = [number(f"{base}/{k}") for k in MODULE_KEYS[:3]] + [number(f"{ROOT}/Raw IMU Yaw")]
        h.sim.turn_module_by_hand("backleft", 20.0)
        h.sim.roll_wheel_by_hand("backleft", 0.3)
        h.sim.rotate_robot_by_hand(15.0)
        h.run(0.1)  # every group of person-read values is set once in five loops
        after = [number(f"{base}/{k}") for k in MODULE_KEYS[:3]] + [number(f"{ROOT}/Raw IMU Yaw")]
    absolute, angle, wheel, yaw = (b - a for a, b in zip(before, after, strict=True))
    assert (absolute + 180) % 360 - 180 == pytest.approx(20.0, abs=0.5)
    assert angle == pytest.approx(20.0, abs=0.5)
    assert wheel == pytest.approx(0.3, abs=0.01)
    assert yaw == pytest.approx(15.0, abs=0.5)


def _pose_struct(name: str) -> Pose2d:
    nt = ntcore.NetworkTableInstance.getDefault()
    value: Pose2d = nt.getStructTopic(name, Pose2d).subscribe(Pose2d(-9.0, -9.0, 0.0)).get()
    return value


def test_the_pose_rotation_and_field_read_back_as_the_drive_pose_at_every_level() -> None:
    """A struct subscriber of the pose and of ``robotRotation``, the Field2d's topic and
    ``Field2d.getRobotPose()`` all read back the drive's pose, heading included (not at zero, so
    an angle in the wrong unit or slot shows), at ``HIGH`` (the drive's own) and at ``LOW``."""
    with simulated() as h:
        drive = h.drive
        drive.reset_pose(Pose2d(1.5, -2.25, Rotation2d.fromDegrees(123.0)))
        h.run(0.2)  # the rotation is one of the five groups set in turn
        nt = ntcore.NetworkTableInstance.getDefault()
        scope = f"{ROOT}/advantagescope"
        low = DriveTelemetry(drive.modules, drive.max_speed, TelemetryVerbosity.LOW)
        for publisher, heading_deg in ((drive.telemetry, 123.0), (low, -60.0)):
            publisher.publish(drive.get_state())
            expected = drive.get_pose()
            assert expected.rotation().degrees() == pytest.approx(heading_deg, abs=1.0)
            pose = _pose_struct(f"{scope}/pose")
            assert (pose.X(), pose.Y()) == pytest.approx((expected.X(), expected.Y()), abs=1e-9)
            assert pose.rotation().radians() == pytest.approx(
                expected.rotation().radians(), abs=1e-9
            )
            rotation = nt.getStructTopic(f"{scope}/robotRotation", Rotation2d)
            heading = rotation.subscribe(Rotation2d(-1.0)).get()
            assert heading.radians() == pytest.approx(expected.rotation().radians(), abs=1e-9)
            field = nt.getDoubleArrayTopic("/SmartDashboard/Field/Robot").subscribe([]).get()
            assert list(field) == pytest.approx(
                [expected.X(), expected.Y(), expected.rotation().degrees()], abs=1e-9
            )
            robot = publisher.field.getRobotPose()
            assert (robot.X(), robot.Y()) == pytest.approx((expected.X(), expected.Y()), abs=1e-9)
            drive.reset_pose(Pose2d(-0.5, 3.0, Rotation2d.fromDegrees(-60.0)))
            h.run(0.1)


def _stamp(name: str) -> int:
    """The NetworkTables timestamp (µs) of the value last set on topic ``name``."""
    topic = ntcore.NetworkTableInstance.getDefault().getTopic(name)
    assert topic.exists(), name
    value = topic.genericSubscribe().get()
    assert value.isValid(), name
    stamp: int = value.time()
    return stamp


def test_every_value_of_a_loop_carries_the_loop_time() -> None:
    """With the clock running, each value a loop sets is timestamped with that loop's own time
    (``DriveState.timestamp``, the FPGA time read at the start of ``periodic()``, NetworkTables'
    time base), not the moment of its ``set``: what one loop publishes lines up in a log or in
    AdvantageScope, and the pose's stamp is the time of the readings it comes from. (A value equal
    to the one before keeps its old stamp: NetworkTables drops repeats. The command changes every
    loop, so every value here changes.)"""
    scope = f"{ROOT}/advantagescope"
    every_loop = (
        f"{scope}/pose",
        f"{scope}/currentStates",
        f"{scope}/desiredStates",
        f"{scope}/measuredChassisSpeeds",
        f"{scope}/desiredChassisSpeeds",
    )
    in_turn = (
        f"{scope}/robotRotation",
        f"{ROOT}/Raw IMU Yaw",
        f"{ROOT}/Adjusted IMU Yaw",
        *(
            f"{ROOT}/modules/{name}/{key}"
            for name in ("frontleft", "backright")
            for key in MODULE_KEYS
        ),
    )
    with simulated() as h:
        drive = h.drive
        loop_stamps: list[int] = []
        resumeTiming()  # the real clock: time passes inside periodic(), between its reads and sets
        try:
            for k in range(10):  # each group set in turn is set twice
                drive.periodic()
                stamp = round(drive.get_state().timestamp * 1e6)
                loop_stamps.append(stamp)
                if k >= 2:  # moving by then: no value repeats the one before
                    for name in every_loop:
                        assert _stamp(name) == stamp, name
                drive.drive(ChassisSpeeds(0.5 + 0.05 * k, 0.1 * k, 0.5 + 0.1 * k))
                h.sim.step(0.02)
        finally:
            pauseTiming()
        assert len(set(loop_stamps)) == len(loop_stamps), loop_stamps  # the clock did run
        for name in in_turn:
            assert _stamp(name) in loop_stamps[5:], name
