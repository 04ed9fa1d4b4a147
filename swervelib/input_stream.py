"""``SwerveInput``: joystick axes to a drive request, built up one option at a time.

An immutable builder, in the manner of YAGSL's ``SwerveInputStream``: every ``with_*`` method
returns a new ``SwerveInput``; the original is unchanged. Copies made from one another share their
running state (the held heading, the drive-to-pose speed), so a robot can keep one copy per mode
and switch between them while driving without a jump: a heading mode entered from a rate mode
starts by holding the heading the robot has::

    pad = wpilib.XboxController(0)
    sticks = SwerveInput.from_xbox(pad).with_deadband(0.1).with_curve(Curve.CUBED)
    rate = sticks                                    # right stick X turns the robot
    heading = sticks.heading_mode()                  # right stick points the robot

    def teleopPeriodic(self):
        (heading if pad.getRightBumperButton() else rate).apply(self.swerve)

The axes are **raw joystick axes** (WPILib's signs: X right, Y back); the robot's axes (X forward,
Y left) are derived from them. Each loop ``apply(drive)``:

1. translation: a radial deadband on the stick's deflection (or one per axis), rescaled so the
   output starts at 0; the response curve (linear, squared, cubed) and the scale on the
   deflection's magnitude, keeping its direction; times the drive's ``max_speed``;
2. the frame: field-relative (the default), robot-relative, or alliance-relative (field-relative,
   turned half a turn on the red alliance so the stick pushes away from the driver either way;
   the heading stick stays alliance-relative while the translation is made robot-relative); then
   the translation heading offset, if any, turns the translation (not the heading stick) by a
   fixed angle in that frame, counter-clockwise positive (YAGSL's
   ``translationHeadingOffset``: a driver standing at the side of the field);
3. rotation, by mode:

   * ``rate`` (the default): the rotation axis, deadband, curve and scale, times the drive's
     ``max_angular_velocity`` (stick right turns right);
   * ``heading``: the heading stick's direction is the heading to face (pushed away from the
     driver: 0, or π when alliance-relative on red); inside its deadband the last target is kept;
   * ``aim``: face a field point (plus an offset) while translating;
   * ``drive to pose``: ignore the sticks and drive to a field pose, translating and turning on
     trapezoidal profiles that stop at the pose, never braking harder than their acceleration
     limits, then coming to rest and holding still once within the tolerance (:attr:`at_target`);
     the loop's work is :class:`~swervelib.pose_follower.PoseFollower`'s.

Heading and aim turn the robot with ``drive_facing`` (the heading PID of
``controllerproperties.json``).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib.alliance import red_alliance
from swervelib.drive.shaping import SETTLED_YAW_RATE
from swervelib.input import apply_deadband, joystick_to_robot, stick_heading
from swervelib.pose_follower import PoseFollower, PoseSettings, PoseSource

if TYPE_CHECKING:
    from swervelib.drive.swerve_drive import SwerveDrive

Axis = Callable[[], float]
PointSource = Callable[[], Translation2d]

DEFAULT_DEADBAND = 0.1
DEFAULT_HEADING_DEADBAND = 0.5
DEFAULT_POSE_TOLERANCE = (0.01, math.radians(0.5))  # metres, radians
DEFAULT_POSE_SPEED = 2.0  # m/s
DEFAULT_POSE_ACCELERATION = 3.0  # m/s²
DEFAULT_POSE_TURN_RATE = math.pi  # rad/s
DEFAULT_POSE_TURN_ACCELERATION = 2 * math.pi  # rad/s²
# An angle beyond this many radians is rounding noise, not a direction (as the drive's commands).
MAX_OFFSET_RAD = 1e6


class Curve(enum.Enum):
    """The response curve on a stick's deflection (0..1 in, 0..1 out)."""

    LINEAR = 1
    SQUARED = 2
    CUBED = 3


class Mode(enum.Enum):
    RATE = "rate"
    HEADING = "heading"
    AIM = "aim"
    DRIVE_TO_POSE = "drive to pose"


class _Running:
    """What copies of one SwerveInput share while driving."""

    def __init__(self) -> None:
        self.mode: Mode | None = None
        self.target_heading: float | None = None
        # The drive's pose_resets when last seen (None: take it without a change of target).
        self.pose_resets: int | None = None
        # The drive's command_count after this input's last command (None: none yet).
        self.command_count: int | None = None
        # drive_to's running state: its last command, the steering lag measured, at_target.
        self.follower = PoseFollower()


def _shaped(x: float, y: float, curve: Curve, scale: float) -> tuple[float, float]:
    """Magnitude clamped to 1, curved, scaled; direction kept."""
    length = math.hypot(x, y)
    if not math.isfinite(length) or length == 0.0:
        return 0.0, 0.0
    magnitude = min(1.0, length) ** curve.value * scale
    return x / length * magnitude, y / length * magnitude


def _radial_deadband(x: float, y: float, deadband: float) -> tuple[float, float]:
    length = math.hypot(x, y)
    if not math.isfinite(length) or length <= deadband:
        return 0.0, 0.0
    magnitude = (min(1.0, length) - deadband) / (1.0 - deadband)
    return x / length * magnitude, y / length * magnitude


def _fraction(name: str, value: float, *, upper: float = 1.0, closed: bool = False) -> float:
    inside = 0.0 <= value <= upper if closed else 0.0 <= value < upper
    if not (math.isfinite(value) and inside):
        bracket = "]" if closed else ")"
        raise ValueError(f"{name} must be in [0, {upper:g}{bracket}, not {value!r}")
    return float(value)


@dataclass(frozen=True)
class SwerveInput:
    """Joystick axes to a drive request; see the module docstring. Build with :meth:`of` or
    :meth:`from_xbox`, then the ``with_*`` and mode methods; call :meth:`apply` every loop."""

    x: Axis
    y: Axis
    rotation: Axis | None = None
    heading_x: Axis | None = None
    heading_y: Axis | None = None
    _: KW_ONLY
    deadband: float = DEFAULT_DEADBAND
    axis_deadbands: tuple[float, float] | None = None
    rotation_deadband: float = DEFAULT_DEADBAND
    heading_deadband: float = DEFAULT_HEADING_DEADBAND
    translation_curve: Curve = Curve.LINEAR
    rotation_curve: Curve = Curve.LINEAR
    translation_scale: float = 1.0
    rotation_scale: float = 1.0
    robot_relative: bool = False
    alliance_relative: bool = False
    # The driver's perspective for the heading stick, kept while robot_relative_mode makes only
    # the translation robot-relative (set by alliance_relative_mode).
    alliance_heading: bool = False
    is_red: Callable[[], bool] = red_alliance
    mode: Mode = Mode.RATE
    aim_target: PointSource | None = None
    aim_offset: float = 0.0  # radians
    # The translation turned by this (radians, counter-clockwise), in the translation's frame.
    translation_offset: float = 0.0
    pose_target: PoseSource | None = None
    pose_tolerance: tuple[float, float] = DEFAULT_POSE_TOLERANCE
    pose_max_speed: float = DEFAULT_POSE_SPEED
    pose_max_acceleration: float = DEFAULT_POSE_ACCELERATION
    pose_max_turn_rate: float = DEFAULT_POSE_TURN_RATE
    pose_max_turn_acceleration: float = DEFAULT_POSE_TURN_ACCELERATION
    _running: _Running = field(default_factory=_Running, repr=False, compare=False)

    def __post_init__(self) -> None:
        _fraction("deadband", self.deadband)
        _fraction("rotation_deadband", self.rotation_deadband)
        _fraction("heading_deadband", self.heading_deadband, closed=True)  # a radius, as in YAGSL
        if self.axis_deadbands is not None:
            for value in self.axis_deadbands:
                _fraction("axis deadband", value)
        for name in ("translation_scale", "rotation_scale"):
            value = getattr(self, name)
            if not (math.isfinite(value) and 0.0 < value <= 1.0):
                raise ValueError(f"{name} must be in (0, 1], not {value!r}")
        offset = self.translation_offset
        if not (math.isfinite(offset) and abs(offset) <= MAX_OFFSET_RAD):
            raise ValueError(
                f"translation_offset must be a finite angle (within ±1e6 rad), not {offset!r} rad"
            )
        if self.robot_relative and self.alliance_relative:
            raise ValueError("alliance-relative control is field-relative: not with robot_relative")
        for name in (
            "pose_max_speed",
            "pose_max_acceleration",
            "pose_max_turn_rate",
            "pose_max_turn_acceleration",
        ):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0.0):
                raise ValueError(f"{name} must be a positive number, not {value!r}")
        # (0 is never met: the robot hunts round the pose for good; NaN: it never moves)
        try:
            distance, angle = self.pose_tolerance
            usable = distance > 0.0 and angle > 0.0
        except (TypeError, ValueError):  # not a pair of numbers
            usable = False
        if not usable:
            raise ValueError(
                f"tolerance must be (metres, radians), two numbers > 0, not {self.pose_tolerance!r}"
            )

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def of(
        cls,
        x: Axis,
        y: Axis,
        rotation: Axis | None = None,
        heading_x: Axis | None = None,
        heading_y: Axis | None = None,
    ) -> SwerveInput:
        """From raw axes: the translation stick's X and Y, the rotation axis (for rate mode) and
        the heading stick's X and Y (for heading mode)."""
        return cls(x, y, rotation, heading_x, heading_y)

    @classmethod
    def from_xbox(cls, controller: Any) -> SwerveInput:
        """An Xbox controller (``wpilib.XboxController`` or commands2's
        ``CommandXboxController``): the left stick translates, the right stick's X turns (rate
        mode) or the right stick points (heading mode)."""
        return cls(
            controller.getLeftX,
            controller.getLeftY,
            controller.getRightX,
            controller.getRightX,
            controller.getRightY,
        )

    # -- options (each returns a new SwerveInput sharing the running state) -------------------
    def with_deadband(self, translation: float, rotation: float | None = None) -> SwerveInput:
        """A radial deadband on the translation stick (and on the rotation axis: ``rotation``,
        else the same)."""
        return replace(
            self,
            deadband=translation,
            axis_deadbands=None,
            rotation_deadband=translation if rotation is None else rotation,
        )

    def with_axis_deadbands(self, x: float, y: float) -> SwerveInput:
        """A deadband per translation axis instead of the radial one."""
        return replace(self, axis_deadbands=(x, y))

    def with_heading_deadband(self, deadband: float) -> SwerveInput:
        """How far the heading stick must be pushed before its direction counts (radius)."""
        return replace(self, heading_deadband=deadband)

    def with_curve(self, translation: Curve, rotation: Curve | None = None) -> SwerveInput:
        return replace(
            self,
            translation_curve=translation,
            rotation_curve=translation if rotation is None else rotation,
        )

    def scaled(self, translation: float, rotation: float | None = None) -> SwerveInput:
        """Full stick gives ``translation`` (and ``rotation``) of the maximum, in (0, 1]."""
        return replace(
            self,
            translation_scale=translation,
            rotation_scale=self.rotation_scale if rotation is None else rotation,
        )

    def robot_relative_mode(self, enabled: bool = True) -> SwerveInput:
        """Robot-relative translation (``enabled``), or field-relative again. Only the
        translation: on an alliance-relative copy the heading stick stays alliance-relative, and
        ``enabled=False`` makes the translation alliance-relative again."""
        perspective = self.alliance_relative or self.alliance_heading
        return replace(
            self,
            robot_relative=enabled,
            alliance_relative=perspective and not enabled,
            alliance_heading=perspective,
        )

    def alliance_relative_mode(
        self, enabled: bool = True, is_red: Callable[[], bool] | None = None
    ) -> SwerveInput:
        """Field-relative, turned half a turn on the red alliance (``is_red``: the Driver
        Station's alliance unless given)."""
        return replace(
            self,
            alliance_relative=enabled,
            alliance_heading=enabled,
            robot_relative=False,
            is_red=is_red or self.is_red,
        )

    def with_translation_heading_offset(self, offset: Rotation2d | None) -> SwerveInput:
        """Turn the translation by ``offset`` (counter-clockwise positive), after the frame:
        YAGSL's ``translationHeadingOffset``. For a driver standing at the side of the field,
        beside the wall at y = 0 and facing +y, ``Rotation2d.fromDegrees(90)`` makes the stick
        pushed away from them drive towards +y. In the frame the translation is in: the field's
        (turned on red when alliance-relative), or the robot's with :meth:`robot_relative_mode`
        (π there: the stick drives the robot from its back). Only the translation: the rotation,
        the heading stick and the aim are as without it. None (or 0) removes it."""
        radians = 0.0
        if offset is not None:
            radians = offset.radians()
            if math.isfinite(radians) and abs(radians) <= MAX_OFFSET_RAD:  # (else refused)
                radians = math.atan2(offset.sin(), offset.cos())  # normalised to [-π, π]
        return replace(self, translation_offset=radians)

    def rate_mode(self) -> SwerveInput:
        return replace(self, mode=Mode.RATE)

    def heading_mode(self) -> SwerveInput:
        return replace(self, mode=Mode.HEADING)

    def aim_at(
        self, target: Translation2d | PointSource, offset: Rotation2d | None = None
    ) -> SwerveInput:
        """Face ``target`` (a field point, or a function giving one each loop), turned by
        ``offset`` (e.g. a shooter on the robot's back: 180°)."""
        source = target if callable(target) else (lambda: target)
        return replace(
            self,
            mode=Mode.AIM,
            aim_target=source,
            aim_offset=offset.radians() if offset is not None else 0.0,
        )

    def drive_to(
        self,
        target: Pose2d | PoseSource,
        *,
        max_speed: float = DEFAULT_POSE_SPEED,
        max_acceleration: float = DEFAULT_POSE_ACCELERATION,
        max_turn_rate: float = DEFAULT_POSE_TURN_RATE,
        max_turn_acceleration: float = DEFAULT_POSE_TURN_ACCELERATION,
        tolerance: tuple[float, float] = DEFAULT_POSE_TOLERANCE,
    ) -> SwerveInput:
        """Ignore the sticks and drive to ``target`` (a field pose, or a function giving one each
        loop), translating and turning on trapezoidal profiles (m/s, m/s², rad/s, rad/s²) that
        stop at the pose, from the robot's velocity (on entry, after a pose reset, and after more
        than 0.1 s without a drive-to-pose command: disabled and enabled again); ``tolerance``:
        (metres, radians), both > 0, within which it comes to rest and holds still. The command
        never changes faster than ``max_acceleration`` (the velocity as a vector: speeding up,
        braking, turning round) and ``max_turn_acceleration``, nor than the drive's own
        ``DriveOptions`` acceleration limits where lower (under the setpoint generator, translating
        and turning at once share its module acceleration), and each loop's change is fed forward
        through the drive's kA (see :mod:`swervelib.pose_profile`). A loop whose target is not
        usable (NaN, infinite, beyond 1 km) brakes within the limits and is reported on the
        drive's ``Swerve commands`` Alert."""
        source = target if callable(target) else (lambda: target)
        return replace(
            self,
            mode=Mode.DRIVE_TO_POSE,
            pose_target=source,
            pose_max_speed=max_speed,
            pose_max_acceleration=max_acceleration,
            pose_max_turn_rate=max_turn_rate,
            pose_max_turn_acceleration=max_turn_acceleration,
            pose_tolerance=tolerance,
        )

    # -- running -------------------------------------------------------------------------------
    @property
    def at_target(self) -> bool:
        """In drive-to-pose mode: whether the robot was within the tolerance at the last loop."""
        return self._running.follower.at_target

    @property
    def settled(self) -> bool:
        """In drive-to-pose mode: :attr:`at_target`, and the last loop's command at rest. A
        command that ends on ``at_target`` may leave a robot that reached the tolerance moving
        (entered at the pose while driving, or passing through it); one that ends on
        ``settled`` leaves it stopped."""
        return self._running.follower.settled

    def reset_heading(self, heading: float | None = None) -> None:
        """The heading mode's target (radians); None: the robot's heading at the next loop, or
        once it turns slower than ``SETTLED_YAW_RATE`` (0.1 rad/s) if it is still turning.

        Not needed after the drive's ``reset_pose``/``zero_heading``, nor after another command
        drove the robot: the next :meth:`apply` then holds the heading the robot has (as heading
        correction does). A target given here after either stands."""
        running = self._running
        running.target_heading = heading if heading is not None and math.isfinite(heading) else None
        running.pose_resets = running.command_count = None  # (a target given now stands)

    def translation(self) -> tuple[float, float]:
        """The translation stick as robot-axis fractions of the maximum speed."""
        raw_x, raw_y = self.x(), self.y()
        if self.axis_deadbands is None:
            raw_x, raw_y = _radial_deadband(raw_x, raw_y, self.deadband)
        else:
            raw_x = apply_deadband(raw_x, self.axis_deadbands[0])
            raw_y = apply_deadband(raw_y, self.axis_deadbands[1])
        forward, left = joystick_to_robot(raw_x, raw_y)
        return _shaped(forward, left, self.translation_curve, self.translation_scale)

    def rotation_fraction(self) -> float:
        """The rotation axis as a fraction of the maximum turn rate (counter-clockwise +)."""
        if self.rotation is None:
            return 0.0
        value = apply_deadband(self.rotation(), self.rotation_deadband)
        turn, _ = _shaped(value, 0.0, self.rotation_curve, self.rotation_scale)
        return 0.0 - turn  # stick right (positive) turns clockwise

    def apply(self, drive: SwerveDrive) -> None:
        """Read the sticks once and command ``drive``; call it every loop.

        After the drive was commanded by anything else (a path, an alignment command, ``lock``,
        ``stop``, an expired command), it starts again from where the robot is, as after a change
        of mode: heading mode holds the heading the robot has, not the one held before."""
        self._apply(drive)
        self._running.command_count = drive.command_count

    def _apply(self, drive: SwerveDrive) -> None:
        running = self._running
        heading = drive.get_heading().radians()
        resets = drive.pose_resets
        if resets != running.pose_resets:
            # The pose was reset: the held target meant a direction in the old frame. Hold where
            # the robot faces now rather than turn to the old number in the new frame.
            if running.pose_resets is not None:
                running.target_heading = heading
            if running.pose_resets is not None and self.mode is Mode.DRIVE_TO_POSE:
                # The last drive-to-pose command is a field velocity of the old frame: go on from
                # the robot's own velocity (the generator's setpoint), in the new frame (its
                # heading as reset just now).
                running.follower.start(drive, Rotation2d(heading))
            running.pose_resets = resets
        if running.command_count != drive.command_count and running.command_count is not None:
            running.mode = None  # another command drove the robot since: start from where it is
        if running.mode is not self.mode:  # switched: start from where the robot is
            running.mode = self.mode
            # (heading mode: where it stops turning, if it still turns; see _hold_heading)
            running.target_heading = None if self.mode is Mode.HEADING else heading
            # (the turn too: not a rate left from an earlier drive to pose)
            running.follower.start(drive, Rotation2d(heading))
            running.follower.at_target = False
        if self.mode is Mode.DRIVE_TO_POSE:
            goal_heading = running.follower.follow(drive, self._pose_settings())
            if goal_heading is not None:
                running.target_heading = goal_heading
            return
        forward, left = self.translation()
        alliance = self.alliance_relative or self.alliance_heading  # (the heading stick's)
        red = alliance and self.is_red()
        if red and self.alliance_relative:  # (not a robot-relative translation)
            forward, left = 0.0 - forward, 0.0 - left
        offset = self.translation_offset
        if offset:  # (a fixed turn in the translation's frame; rotations commute)
            cos, sin = math.cos(offset), math.sin(offset)
            forward, left = forward * cos - left * sin, forward * sin + left * cos
        vx, vy = forward * drive.max_speed, left * drive.max_speed
        field_relative = not self.robot_relative
        if self.mode is Mode.RATE:
            omega = self.rotation_fraction() * drive.max_angular_velocity
            drive.drive(ChassisSpeeds(vx, vy, omega), field_relative=field_relative)
            running.target_heading = heading
            return
        if self.mode is Mode.HEADING:
            if self.heading_x is None or self.heading_y is None:
                raise ValueError(
                    "heading mode needs the heading stick's axes (heading_x, heading_y)"
                )
            hx, hy = self.heading_x(), self.heading_y()
            if red:
                hx, hy = 0.0 - hx, 0.0 - hy
            pushed = stick_heading(hx, hy, self.heading_deadband, math.nan)  # NaN: released
            target = running.target_heading if math.isnan(pushed) else pushed
            if target is None:  # released, nothing held yet: where the robot stops turning
                if not -SETTLED_YAW_RATE < drive.yaw_rate < SETTLED_YAW_RATE:
                    # a spin dying out (heading mode entered mid-spin): no turn asked meanwhile,
                    # rather than a turn back to where the switch happened
                    drive.drive(ChassisSpeeds(vx, vy, 0.0), field_relative=field_relative)
                    return
                target = heading
            running.target_heading = target
            drive.drive_facing(vx, vy, Rotation2d(target), field_relative=field_relative)
            return
        # AIM
        assert self.aim_target is not None
        to_target = self.aim_target() - drive.get_pose().translation()
        rx, ry = to_target.X(), to_target.Y()
        squared = rx * rx + ry * ry
        if squared < 1e-12:  # on the point: keep facing as before
            target = heading if running.target_heading is None else running.target_heading
            turn_rate = 0.0
        else:
            target = math.atan2(ry, rx) + self.aim_offset
            # How fast the bearing to the point turns while the robot translates (the field's
            # frame): the heading PID alone trails it (16° behind at 2.6 m/s, 2 m beside it).
            fvx, fvy = vx, vy
            if not field_relative:
                cos, sin = math.cos(heading), math.sin(heading)
                fvx, fvy = vx * cos - vy * sin, vx * sin + vy * cos
            top = drive.max_angular_velocity
            turn_rate = max(-top, min(top, (ry * fvx - rx * fvy) / squared))
        running.target_heading = target
        drive.drive_facing(
            vx, vy, Rotation2d(target), field_relative=field_relative, turn_rate=turn_rate
        )

    def _pose_settings(self) -> PoseSettings:
        """What :meth:`drive_to` was given, for the pose follower."""
        assert self.pose_target is not None
        return PoseSettings(
            self.pose_target,
            self.pose_tolerance,
            self.pose_max_speed,
            self.pose_max_acceleration,
            self.pose_max_turn_rate,
            self.pose_max_turn_acceleration,
        )
