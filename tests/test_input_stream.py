"""swervelib.input_stream.SwerveInput: the builder and each mode's arithmetic, against a recording
drive (the simulated effects are in tests/sim/test_teleop_options.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds, SwerveDrive4Kinematics

from swervelib.drive.options import DriveOptions
from swervelib.input_stream import Curve, SwerveInput


@dataclass
class Recorder:
    """What SwerveInput needs of a drive; records the last command."""

    pose: Pose2d = field(default_factory=Pose2d)
    max_speed: float = 4.0
    max_angular_velocity: float = 10.0
    loop_period: float = 0.02
    pose_resets: int = 0
    command_count: int = 0
    yaw_rate: float = 0.0  # rad/s: standing still unless a test spins it
    last: tuple[Any, ...] = ()
    turn_rate: float = 0.0
    feedforwards: Any = None  # (drive to pose: each module's acceleration)
    options: DriveOptions = field(default_factory=DriveOptions)
    kinematics: Any = field(
        default_factory=lambda: SwerveDrive4Kinematics(
            *(Translation2d(x, y) for x, y in ((0.3, 0.3), (0.3, -0.3), (-0.3, 0.3), (-0.3, -0.3)))
        )
    )

    def get_heading(self) -> Rotation2d:
        return self.pose.rotation()

    def get_pose(self) -> Pose2d:
        return self.pose

    def get_field_relative_speeds(self) -> ChassisSpeeds:
        return ChassisSpeeds()

    def get_state(self) -> Any:
        """This loop's snapshot, as far as drive_to reads it (the modules' targets and angles,
        from which it measures the steering's lag): no modules."""
        return SimpleNamespace(timestamp=0.0, targets=(), angles_deg=())

    def get_robot_relative_speeds(self) -> ChassisSpeeds:
        return ChassisSpeeds()

    def drive(
        self, speeds: ChassisSpeeds, *, field_relative: bool = False, feedforwards: Any = None
    ) -> None:
        self.last = ("drive", speeds.vx, speeds.vy, speeds.omega, field_relative)
        self.feedforwards = feedforwards
        self.command_count += 1

    def drive_facing(
        self,
        vx: float,
        vy: float,
        heading: Rotation2d,
        *,
        field_relative: bool = True,
        turn_rate: float = 0.0,
    ) -> None:
        self.last = ("facing", vx, vy, heading.radians(), field_relative)
        self.turn_rate = turn_rate
        self.command_count += 1


class Sticks:
    """Settable raw axes: left X/Y, right X/Y."""

    def __init__(self) -> None:
        self.lx = self.ly = self.rx = self.ry = 0.0

    def input(self) -> SwerveInput:
        return SwerveInput.of(
            lambda: self.lx, lambda: self.ly, lambda: self.rx, lambda: self.rx, lambda: self.ry
        )


def test_full_forward_stick_drives_forward_at_top_speed_field_relative() -> None:
    sticks, drive = Sticks(), Recorder()
    sticks.ly = -1.0  # pushed away from the driver
    sticks.input().apply(drive)  # type: ignore[arg-type]
    assert drive.last == pytest.approx(("drive", 4.0, 0.0, 0.0, True))
    sticks.ly, sticks.lx, sticks.rx = 0.0, 1.0, 1.0  # right, and turn right
    sticks.input().apply(drive)  # type: ignore[arg-type]
    assert drive.last == pytest.approx(("drive", 0.0, -4.0, -10.0, True))


@given(st.floats(-1.0, 1.0), st.floats(-1.0, 1.0))
def test_the_radial_deadband_keeps_direction_and_starts_from_zero(x: float, y: float) -> None:
    stream = SwerveInput.of(lambda: x, lambda: y).with_deadband(0.2)
    forward, left = stream.translation()
    deflection = math.hypot(x, y)
    if deflection <= 0.2:
        assert (forward, left) == (0.0, 0.0)
        return
    expected = (min(1.0, deflection) - 0.2) / 0.8
    assert math.hypot(forward, left) == pytest.approx(expected, abs=1e-9)
    turn = math.remainder(math.atan2(left, forward) - math.atan2(-x, -y), math.tau)
    assert abs(turn) < 1e-9  # same direction (±π alike)


@pytest.mark.parametrize(
    ("curve", "expected"), [(Curve.LINEAR, 0.5), (Curve.SQUARED, 0.25), (Curve.CUBED, 0.125)]
)
def test_curves_and_scale(curve: Curve, expected: float) -> None:
    stream = (
        SwerveInput.of(lambda: 0.0, lambda: -0.5, lambda: 0.5).with_deadband(0.0).with_curve(curve)
    )
    assert stream.translation() == pytest.approx((expected, 0.0))
    assert stream.rotation_fraction() == pytest.approx(-expected)
    half = stream.scaled(0.5, 0.8)
    assert half.translation() == pytest.approx((expected * 0.5, 0.0))
    assert half.rotation_fraction() == pytest.approx(-expected * 0.8)


def test_per_axis_deadbands() -> None:
    stream = SwerveInput.of(lambda: 0.15, lambda: -0.15).with_axis_deadbands(0.2, 0.1)
    forward, left = stream.translation()
    assert left == 0.0 and forward == pytest.approx((0.15 - 0.1) / 0.9)


def test_the_builder_is_immutable_and_copies_share_the_running_state() -> None:
    base = SwerveInput.of(lambda: 0.0, lambda: 0.0, lambda: 0.0, lambda: 0.0, lambda: 0.0)
    heading = base.heading_mode()
    assert base.mode.value == "rate" and heading.mode.value == "heading"
    with pytest.raises(AttributeError):
        base.deadband = 0.3  # type: ignore[misc]
    heading.reset_heading(1.0)
    drive = Recorder()
    base.heading_mode().apply(drive)  # type: ignore[arg-type]
    # a mode entered anew starts from the robot's heading (0 here), whichever copy entered it
    assert drive.last[3] == pytest.approx(0.0)


def test_switching_from_rate_to_heading_mode_holds_the_heading_the_robot_has() -> None:
    sticks, drive = Sticks(), Recorder()
    rate = sticks.input()
    heading = rate.heading_mode()
    sticks.rx = 0.8
    rate.apply(drive)  # type: ignore[arg-type]
    assert drive.last[0] == "drive" and drive.last[3] < 0.0
    drive.pose = Pose2d(1.0, 1.0, Rotation2d(0.7))  # the robot turned
    sticks.rx = 0.0
    heading.apply(drive)  # type: ignore[arg-type]
    assert drive.last[0] == "facing" and drive.last[3] == pytest.approx(0.7)
    sticks.rx, sticks.ry = -1.0, 0.0  # heading stick left: face +90°
    heading.apply(drive)  # type: ignore[arg-type]
    assert drive.last[3] == pytest.approx(math.pi / 2)
    sticks.rx = 0.0  # released: keep facing there
    heading.apply(drive)  # type: ignore[arg-type]
    assert drive.last[3] == pytest.approx(math.pi / 2)


def test_a_pose_reset_holds_the_new_heading_unless_a_target_is_set_after_it() -> None:
    sticks, drive = Sticks(), Recorder()
    heading = sticks.input().heading_mode()
    sticks.rx = -1.0  # heading stick left: face +90°
    heading.apply(drive)  # type: ignore[arg-type]
    sticks.rx = 0.0
    drive.pose = Pose2d(0.0, 0.0, Rotation2d.fromDegrees(90.0))
    heading.apply(drive)  # type: ignore[arg-type]
    assert drive.last[3] == pytest.approx(math.pi / 2)
    drive.pose, drive.pose_resets = Pose2d(), 1  # zero_heading(): the robot faces 0 now
    heading.apply(drive)  # type: ignore[arg-type]
    assert drive.last[3] == pytest.approx(0.0)  # not +90° in the new frame
    drive.pose_resets = 2
    heading.reset_heading(1.0)  # a target given after the reset stands
    heading.apply(drive)  # type: ignore[arg-type]
    assert drive.last[3] == pytest.approx(1.0)


def test_another_command_in_between_restarts_the_heading_from_the_robot() -> None:
    sticks, drive = Sticks(), Recorder()
    heading = sticks.input().heading_mode()
    heading.apply(drive)  # type: ignore[arg-type]
    assert drive.last[3] == pytest.approx(0.0)
    heading.apply(drive)  # type: ignore[arg-type]  # its own command: nothing restarts
    drive.pose = Pose2d(1.0, 0.0, Rotation2d(1.2))  # a path turned the robot
    drive.drive(ChassisSpeeds(1.0, 0.0, 0.5))
    heading.apply(drive)  # type: ignore[arg-type]
    assert drive.last[3] == pytest.approx(1.2)  # not back to 0
    drive.drive(ChassisSpeeds())  # autonomous, say, then teleopInit sets a target itself
    heading.reset_heading(-0.5)
    heading.apply(drive)  # type: ignore[arg-type]
    assert drive.last[3] == pytest.approx(-0.5)  # it stands


def test_alliance_relative_turns_translation_and_heading_on_red() -> None:
    sticks, drive = Sticks(), Recorder()
    red = [True]
    stream = sticks.input().alliance_relative_mode(is_red=lambda: red[0])
    sticks.ly = -1.0
    stream.apply(drive)  # type: ignore[arg-type]
    assert drive.last == pytest.approx(("drive", -4.0, 0.0, 0.0, True))
    sticks.ry = -1.0  # heading stick away from the driver: face the red driver station's far side
    stream.heading_mode().apply(drive)  # type: ignore[arg-type]
    assert abs(math.remainder(drive.last[3] - math.pi, math.tau)) < 1e-9
    red[0] = False
    stream.apply(drive)  # type: ignore[arg-type]
    assert drive.last == pytest.approx(("drive", 4.0, 0.0, 0.0, True))


def test_robot_relative_translation_on_red_keeps_the_heading_stick_alliance_relative() -> None:
    sticks, drive = Sticks(), Recorder()
    heading = sticks.input().alliance_relative_mode(is_red=lambda: True).heading_mode()
    sticks.ly, sticks.ry = -1.0, -1.0  # both sticks pushed away from the red driver
    heading.robot_relative_mode().apply(drive)  # type: ignore[arg-type]
    assert drive.last[:3] == pytest.approx(("facing", 4.0, 0.0))  # robot-relative forward
    assert drive.last[4] is False
    assert abs(math.remainder(drive.last[3] - math.pi, math.tau)) < 1e-9  # still away from red
    back = heading.robot_relative_mode().robot_relative_mode(False)  # the toggle released
    assert back.alliance_relative and not back.robot_relative
    back.apply(drive)  # type: ignore[arg-type]
    assert drive.last[1] == pytest.approx(-4.0) and drive.last[4] is True


def test_robot_relative_and_aim() -> None:
    sticks, drive = Sticks(), Recorder(pose=Pose2d(1.0, 1.0, Rotation2d()))
    sticks.ly = -0.5
    sticks.input().with_deadband(0.0).robot_relative_mode().apply(drive)  # type: ignore[arg-type]
    assert drive.last == pytest.approx(("drive", 2.0, 0.0, 0.0, False))
    aim = (
        sticks.input()
        .with_deadband(0.0)
        .aim_at(Translation2d(2.0, 2.0), Rotation2d.fromDegrees(180.0))
    )
    aim.apply(drive)  # type: ignore[arg-type]
    assert drive.last[0] == "facing" and drive.last[1] == pytest.approx(2.0)
    assert math.degrees(drive.last[3]) == pytest.approx(45.0 + 180.0)


def test_aim_feeds_forward_the_bearing_rate_of_the_translation() -> None:
    sticks, drive = Sticks(), Recorder(pose=Pose2d(0.0, 0.0, Rotation2d()))
    sticks.lx = -0.5  # left at 2 m/s, beside a point 2 m ahead: the bearing turns clockwise
    aim = sticks.input().with_deadband(0.0).aim_at(Translation2d(2.0, 0.0))
    aim.apply(drive)  # type: ignore[arg-type]
    assert drive.last[3] == pytest.approx(0.0)
    assert drive.turn_rate == pytest.approx(-2.0 / 2.0)  # -v / distance, rad/s
    aim.robot_relative_mode().apply(drive)  # type: ignore[arg-type]  # the same, facing 0
    assert drive.turn_rate == pytest.approx(-1.0)


def test_bad_options_are_refused() -> None:
    stream = SwerveInput.of(lambda: 0.0, lambda: 0.0)
    with pytest.raises(ValueError, match="deadband"):
        stream.with_deadband(1.0)
    with pytest.raises(ValueError, match="translation_scale"):
        stream.scaled(0.0)
    # the heading deadband is a radius, not rescaled: 1 is allowed (angleJoystickRadiusDeadband)
    assert stream.with_heading_deadband(1.0).heading_deadband == 1.0
    with pytest.raises(ValueError, match="heading_deadband"):
        stream.with_heading_deadband(1.01)
    with pytest.raises(ValueError, match="robot_relative"):
        SwerveInput(lambda: 0.0, lambda: 0.0, robot_relative=True, alliance_relative=True)
    with pytest.raises(ValueError, match="heading stick"):
        stream.heading_mode().apply(Recorder())  # type: ignore[arg-type]
    assert not stream.robot_relative_mode().alliance_relative_mode().robot_relative


def test_drive_to_pose_entered_again_does_not_keep_an_old_turn_rate() -> None:
    sticks, drive = Sticks(), Recorder()
    rate = sticks.input()
    to_pose = rate.drive_to(Pose2d(0.0, 0.0, Rotation2d.fromDegrees(170.0)))
    for _ in range(40):
        to_pose.apply(drive)  # type: ignore[arg-type]
    assert drive.last[3] == pytest.approx(math.pi)  # at its top turn rate
    rate.apply(drive)  # type: ignore[arg-type]  # the robot at rest (Recorder measures 0)
    to_pose.apply(drive)  # type: ignore[arg-type]
    floor = 0.02 * drive.max_angular_velocity  # MIN_POSE_FRACTION
    assert abs(drive.last[3]) <= max(to_pose.pose_max_turn_acceleration * 0.02, floor) + 1e-9


def test_heading_mode_entered_mid_spin_waits_for_the_spin_to_die_out() -> None:
    """Released heading stick: while the robot still turns faster than SETTLED_YAW_RATE no turn
    is asked (plain drive, omega 0); the heading held is the one it has once it has settled."""
    sticks = {"lx": 0.0, "ly": -0.5, "rx": 0.0, "ry": 0.0}
    stream = SwerveInput(
        lambda: sticks["lx"],
        lambda: sticks["ly"],
        heading_x=lambda: sticks["rx"],
        heading_y=lambda: sticks["ry"],
    ).heading_mode()
    drive = Recorder(pose=Pose2d(0.0, 0.0, Rotation2d(1.0)), yaw_rate=4.0)
    stream.apply(drive)
    assert drive.last[0] == "drive" and drive.last[3] == 0.0  # no turn asked: a spin dying out
    drive.pose = Pose2d(0.0, 0.0, Rotation2d(1.4))
    drive.yaw_rate = 0.05  # settled
    stream.apply(drive)
    assert drive.last[0] == "facing" and drive.last[3] == pytest.approx(1.4)
    drive.pose = Pose2d(0.0, 0.0, Rotation2d(1.5))
    drive.yaw_rate = 3.0  # pushed by another robot now: the held heading stands
    stream.apply(drive)
    assert drive.last[0] == "facing" and drive.last[3] == pytest.approx(1.4)


# -- the translation heading offset (YAGSL's translationHeadingOffset) ------------------------------


@given(
    st.floats(-1.0, 1.0),
    st.floats(-1.0, 1.0),
    st.floats(-10.0, 10.0),
)
def test_the_translation_offset_turns_the_translation_and_keeps_its_length(
    x: float, y: float, offset: float
) -> None:
    sticks, plain, turned = Sticks(), Recorder(), Recorder()
    sticks.lx, sticks.ly, sticks.rx = x, y, 0.3
    stream = sticks.input().with_deadband(0.0)
    stream.apply(plain)  # type: ignore[arg-type]
    stream.with_translation_heading_offset(Rotation2d(offset)).apply(turned)  # type: ignore[arg-type]
    _, vx, vy, omega, field_relative = plain.last
    cos, sin = math.cos(offset), math.sin(offset)
    expected = ("drive", vx * cos - vy * sin, vx * sin + vy * cos, omega, field_relative)
    assert turned.last == pytest.approx(expected, abs=1e-9)


def test_a_driver_at_the_side_of_the_field_pushes_the_robot_away_from_them() -> None:
    """Beside the wall at y = 0, facing +y: 90° makes 'away from me' +y; the rotation stays."""
    sticks, drive = Sticks(), Recorder()
    quarter = Rotation2d.fromDegrees(90.0)
    side = sticks.input().with_deadband(0.0).with_translation_heading_offset(quarter)
    sticks.ly, sticks.rx = -1.0, 0.5  # pushed away from the driver, turning right
    side.apply(drive)  # type: ignore[arg-type]
    assert drive.last == pytest.approx(("drive", 0.0, 4.0, -5.0, True), abs=1e-9)
    assert side.translation_offset == pytest.approx(math.pi / 2)
    # kept through the other builders, and removed by None
    assert side.heading_mode().robot_relative_mode().translation_offset == side.translation_offset
    assert side.with_translation_heading_offset(None).translation_offset == 0.0


def test_the_translation_offset_composes_with_alliance_and_robot_relative() -> None:
    sticks, drive = Sticks(), Recorder(pose=Pose2d(0.0, 0.0, Rotation2d(0.4)))
    sticks.ly = -1.0
    quarter = Rotation2d.fromDegrees(90.0)
    red = sticks.input().alliance_relative_mode(is_red=lambda: True)
    red.with_translation_heading_offset(quarter).apply(drive)  # type: ignore[arg-type]
    # turned half a turn for red (-x), then a quarter counter-clockwise: -y
    assert drive.last == pytest.approx(("drive", 0.0, -4.0, 0.0, True), abs=1e-9)
    back = sticks.input().robot_relative_mode().with_translation_heading_offset(Rotation2d(math.pi))
    back.apply(drive)  # type: ignore[arg-type]
    # in the robot's frame: forward on the stick drives the robot backwards (from its back)
    assert drive.last == pytest.approx(("drive", -4.0, 0.0, 0.0, False), abs=1e-9)
    # robot-relative on an alliance-relative copy: the offset stays in the robot's frame
    red.with_translation_heading_offset(quarter).robot_relative_mode().apply(drive)  # type: ignore[arg-type]
    assert drive.last == pytest.approx(("drive", 0.0, 4.0, 0.0, False), abs=1e-9)


def test_the_translation_offset_leaves_the_heading_stick_alone() -> None:
    sticks, drive = Sticks(), Recorder()
    heading = (
        sticks.input().heading_mode().with_translation_heading_offset(Rotation2d.fromDegrees(90.0))
    )
    sticks.ly, sticks.rx, sticks.ry = -1.0, -1.0, 0.0  # translate away, heading stick left
    heading.apply(drive)  # type: ignore[arg-type]
    assert drive.last[:3] == pytest.approx(("facing", 0.0, 4.0), abs=1e-9)
    assert drive.last[3] == pytest.approx(math.pi / 2)  # the stick's own direction: +90°
    assert drive.last[4] is True


def test_aim_feeds_forward_the_bearing_rate_of_the_turned_translation() -> None:
    sticks, drive = Sticks(), Recorder(pose=Pose2d(0.0, 0.0, Rotation2d()))
    sticks.ly = -0.5  # forward at 2 m/s, towards a point 2 m ahead: the bearing does not turn
    aim = sticks.input().with_deadband(0.0).aim_at(Translation2d(2.0, 0.0))
    aim.apply(drive)  # type: ignore[arg-type]
    assert drive.turn_rate == pytest.approx(0.0)
    # turned a quarter: left at 2 m/s beside the point, which the robot keeps facing
    aim.with_translation_heading_offset(Rotation2d.fromDegrees(90.0)).apply(drive)  # type: ignore[arg-type]
    assert drive.last[:3] == pytest.approx(("facing", 0.0, 2.0), abs=1e-9)
    assert drive.last[3] == pytest.approx(0.0)  # still facing the point
    assert drive.turn_rate == pytest.approx(-1.0)  # -v / distance, rad/s


def test_drive_to_pose_ignores_the_translation_offset() -> None:
    goal = Pose2d(1.0, 0.5, Rotation2d())
    plain, turned = Recorder(), Recorder()
    stream = SwerveInput.of(lambda: 0.0, lambda: 0.0).drive_to(goal)
    stream.apply(plain)  # type: ignore[arg-type]
    stream.with_translation_heading_offset(Rotation2d(1.0)).apply(turned)  # type: ignore[arg-type]
    assert turned.last == pytest.approx(plain.last)


@pytest.mark.parametrize(
    "tolerance",
    [(0.0, 0.01), (0.01, 0.0), (math.nan, 0.01), (0.01, math.nan), (-0.01, 0.01), 0.01, (0.01,)],
)
def test_a_drive_to_tolerance_that_cannot_be_met_is_refused_when_built(tolerance: Any) -> None:
    """Before, each was taken: 0 was never met (in sim the robot hunted round the pose at
    ±0.10 m/s and ±0.24 rad/s for good), NaN never moved the robot, and a bare number raised
    TypeError from inside apply(), in the robot loop."""
    stream = SwerveInput.of(lambda: 0.0, lambda: 0.0)
    with pytest.raises(ValueError, match="tolerance must be"):
        stream.drive_to(Pose2d(1.0, 0.0, Rotation2d()), tolerance=tolerance)
    # infinite: that part is never asked for (here: turn on the spot, wherever the robot is)
    turning = stream.drive_to(Pose2d(1.0, 0.0, Rotation2d(1.0)), tolerance=(math.inf, 0.01))
    drive = Recorder()
    turning.apply(drive)  # type: ignore[arg-type]
    _, vx, vy, omega, _ = drive.last
    assert vx == vy == 0.0 and omega > 0.0


@pytest.mark.parametrize("radians", [math.nan, math.inf, -math.inf, 1e308, 2e6])
def test_an_offset_that_is_not_an_angle_is_refused(radians: float) -> None:
    stream = SwerveInput.of(lambda: 0.0, lambda: 0.0)
    with pytest.raises(ValueError, match="translation_offset must be a finite angle"):
        stream.with_translation_heading_offset(Rotation2d(radians))
    with pytest.raises(ValueError, match="translation_offset"):
        SwerveInput(lambda: 0.0, lambda: 0.0, translation_offset=radians)
    # a whole number of turns more is the same direction
    turns = stream.with_translation_heading_offset(Rotation2d(3 * math.pi + 0.5))
    assert turns.translation_offset == pytest.approx(-math.pi + 0.5)
