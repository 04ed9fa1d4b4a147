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
     limits, then coming to rest and holding still once within the tolerance (:attr:`at_target`).

Heading and aim turn the robot with ``drive_facing`` (the heading PID of
``controllerproperties.json``).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field, replace
from typing import TYPE_CHECKING, Any

import wpilib
from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib.alliance import red_alliance
from swervelib.drive.feedforward import module_accelerations
from swervelib.drive.safety import pose_problem
from swervelib.drive.setpoints import SetpointGenerator
from swervelib.drive.shaping import SETTLED_YAW_RATE
from swervelib.input import apply_deadband, joystick_to_robot, stick_heading
from swervelib.pose_profile import (
    approach_speed,
    approach_step,
    limited_step,
    module_budget,
    remaining_time,
    shared_accelerations,
    shared_step,
    steered_fraction,
    steering_lag_samples,
    trailing_turn,
    translating_turn_lag,
    translation_still_to_come,
    turn_still_to_come,
    unhurried_rate,
)

if TYPE_CHECKING:
    from swervelib.drive.options import SetpointLimits
    from swervelib.drive.swerve_drive import SwerveDrive

Axis = Callable[[], float]
PoseSource = Callable[[], Pose2d]
PointSource = Callable[[], Translation2d]

DEFAULT_DEADBAND = 0.1
DEFAULT_HEADING_DEADBAND = 0.5
DEFAULT_POSE_TOLERANCE = (0.01, math.radians(0.5))  # metres, radians
DEFAULT_POSE_SPEED = 2.0  # m/s
DEFAULT_POSE_ACCELERATION = 3.0  # m/s²
DEFAULT_POSE_TURN_RATE = math.pi  # rad/s
DEFAULT_POSE_TURN_ACCELERATION = 2 * math.pi  # rad/s²
# Outside the tolerance, never slower than this fraction of the drive's top speed (and turn rate):
# below it, a drive without a kS feedforward does not overcome its static friction.
MIN_POSE_FRACTION = 0.02
# How long (s) the robot's turn trails a falling command while it translates: its modules steer
# the turn's changes then, and steering lags its targets (measured in simulation: 38-41 ms
# behind them; the turn 40-58 ms behind a command falling at 2π rad/s², driving at 1-2 m/s).
# On the spot the wheels' speeds make the turn, fed forward through kA: no lag.
TRANSLATING_TURN_LAG_S = 0.05
# (at the all-REV robot's steering lag, STEERING_LAG_S; without the setpoint generator, scaled by
# the square root of the lag measured over it: in proportion, on the Spark MAX robot's 72 ms the
# turn braked early and crept to the heading, arriving 15-28 % later; unscaled it turned
# 0.5-0.6° past the heading; the square root did neither on the cases measured. And without the
# generator never less than STEERED_TURN_LAG_S: see there.)
# Without the setpoint generator, translating, where the translation would end after the turn,
# the robot's turn trails a falling command by at least this (s). With the translation turned
# back by the steering's lag (below) the robot goes straight along the line to the pose, so the
# approach's corrections no longer sweep the modules round at the end of the move; what their
# steering leaves of the turn's last changes (a P-only loop within its static friction) then
# turns the robot on while it still translates, ~0.3° after the turn's command is at rest
# against ~0.15° before. And the lag measured reads 29-36 ms at the end of a slow turn on the
# all-REV robot (38-41 ms overall), which scaled the 50 ms down to 43-48 ms. Measured in
# simulation (the all-REV robot, 3-6 runs each): scaled down as measured, from rest 3 m and 90°
# turned 0.17-0.22° past the heading (before the turn-back: 0.0°), over the mapped moves up to
# 0.26°; never below 50 ms, up to 0.20° (entered at 1 m/s, 3 m and 180°); 52.5 ms, 0.17°; 55 ms,
# 0.04°; 60 ms, 0.0° but braking the turn early and creeping onto the heading, up to 6 % later.
# Where the turn ends last (a large turn near the pose) nothing translates after it: there 55 ms
# only braked the turn early (entered at 1 m/s, 2 m and 170°: 1.74 s, 1.68-1.70 s before).
STEERED_TURN_LAG_S = 0.055
# Without the setpoint generator, turning while translating (pose_profile.steered_fraction):
# * how long (s) the modules' steering trails its targets: measured on the robot while drive_to
#   drives it (each loop, each rolling module's angle short of its target over the rate its
#   target turns at: pose_profile.steering_lag_samples; the loop's median, smoothed by
#   STEERING_LAG_GAIN), from STEERING_LAG_S (the all-REV robot's 38-41 ms) until then. Measured
#   in simulation: all-REV 41 ms, Spark MAX (deploy/swerve) 72 ms, Kraken (deploy/
#   kraken_cancoder_pigeon2) 72 ms. The translation's direction in the robot's frame turns the
#   other way at the turn rate, so the wheels point this much of the turn behind it: the robot's
#   velocity is the command turned by ``turn rate × lag`` the way it turns, and is commanded
#   turned back by as much (less what the drive's own skew compensation turns it back by);
# * how long the part of a change of the translation that the modules steer (rather than drive)
#   trails it, in steering lags: braking at 3 m/s² while turning at π rad/s (half of it steered),
#   the all-REV robot went 0.1 m/s faster than its command, about 52 ms behind it. Its braking
#   curve is taken from where it will have gone (pose_profile.translation_still_to_come). Over
#   the mapped moves (0.5-3 m, 90-180°, from rest and entered at 1 m/s) on the all-REV robot, 3
#   lags (0.12 s) passed the pose by at most 0.86 cm, 2 by 1.8 cm, and 4 by 0.94 cm and arrived
#   up to 3.4 % later.
STEERING_LAG_S = 0.04
STEERED_TRANSLATION_LAGS = 3.0
STEERING_LAG_GAIN = 0.1
# A module counts towards the steering lag when asked for this part of the drive's top speed at
# least and its target turns at least this fast (rad/s): slower, its angle error is the steering
# loop's noise and static friction, not its lag.
STEERING_SAMPLE_SPEED_FRACTION = 0.05
STEERING_SAMPLE_RATE = 0.5
# Translating and turning at once without the setpoint generator, the turn ends this long (s)
# before the translation would at its own limits, and no sooner: once the turn's command is at
# rest, what its modules have not yet steered of its last changes (steering that stops short of
# its targets, e.g. a P-only loop within the motor's static friction) goes on turning the robot
# for as long as it translates, faster the faster it translates. Measured in simulation (the
# all-REV robot: 2 m/s, 2π rad/s²): ending with the translation, the modules steering the turn's
# last changes skewed its braking (1.5 cm past the pose, 0.3 s later); 0.15-0.25 s before it,
# at most 0.26° past the heading; as soon as it could (before), 0.5-0.6°.
TURN_ENDS_BEFORE_S = 0.2
# A drive-to-pose command older than this (s: the drive's default command timeout) is history, not
# what the robot does (disabled meanwhile, or not driven): start again from the robot's velocity.
STALE_POSE_COMMAND_S = 0.1
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
        self.pose_velocity = (0.0, 0.0)  # the last drive-to-pose command, field frame (m/s)
        self.pose_turn = 0.0
        # The robot's turn rate expected from its drive-to-pose commands (rad/s; see
        # pose_profile.trailing_turn), and the last command it follows (another: start again).
        self.pose_turn_expected = (0.0, 0.0)
        # The same for its field velocity (m/s, field frame; see _expected_velocity).
        self.pose_velocity_expected = ((0.0, 0.0), (0.0, 0.0))
        # The last drive-to-pose command as sent (field frame, m/s: turned back by the steering's
        # lag, see STEERING_LAG_S), and the velocity it was sent for (another: start again).
        self.pose_sent = ((0.0, 0.0), (0.0, 0.0))
        self.pose_time: float | None = None  # when the last drive-to-pose command was given (s)
        # The modules' steering lag measured so far (s; see STEERING_LAG_S), and the loop's
        # timestamp and module targets it was last measured from.
        self.steering_lag = STEERING_LAG_S
        self.steering_seen: tuple[float, tuple[tuple[float, float], ...]] | None = None
        self.at_target = False


def _radius(drive: SwerveDrive) -> float:
    """The furthest module's distance from the robot's centre (m)."""
    return max(m.location.norm() for m in drive.modules)


def _starting_speeds(drive: SwerveDrive, heading: Rotation2d) -> ChassisSpeeds:
    """The field velocity a command starts from, in the frame where the robot faces ``heading``
    (the drive's heading now: after a pose reset this loop, the new frame's; the loop's snapshot
    keeps the pose ``periodic()`` saw): the robot's, or, under the setpoint generator while the
    drive is commanded, the generator's last setpoint (from the module states it last gave),
    which it goes on from whatever the robot does: a command started from the robot's velocity,
    which trails it, asked the modules for a step of 5 m/s² at 1.5 (and, after a pose reset while
    speeding up, braked for a loop)."""
    if (
        drive.options.setpoint_limits is None
        or drive.setpoint_is_stale  # (the drive's generator too starts from the modules then)
        or not all(m.is_commanded for m in drive.modules)
    ):
        robot = drive.get_robot_relative_speeds()
    else:
        robot = drive.kinematics.toChassisSpeeds(drive.get_state().module_targets)
    return ChassisSpeeds.fromRobotRelativeSpeeds(robot, heading)


def _reachable(
    drive: SwerveDrive,
    limits: SetpointLimits,
    command: tuple[float, float, float],
    heading: Rotation2d,
) -> tuple[float, float, float]:
    """``command`` (field vx, vy, omega), or as far towards it from the setpoint generator's last
    setpoint as every module can go this loop, by the generator's own rule (a
    :class:`~swervelib.drive.setpoints.SetpointGenerator` started from the module states it last
    gave): the budget above counts a module's change as a vector, the generator a wheel that
    turns by more than 90° as reversed (a module going past rest while the robot turns: 1.9
    m/s² at 1.5)."""
    if not all(m.is_commanded for m in drive.modules):
        return command
    kinematics = drive.kinematics
    state = drive.get_state()
    # (after a gap in commands the drive's generator starts from the measured modules: so here)
    before = state.module_states if drive.setpoint_is_stale else state.module_targets
    reach = SetpointGenerator(kinematics)
    reach.speeds, reach.states = kinematics.toChassisSpeeds(before), list(before)
    request = ChassisSpeeds.fromFieldRelativeSpeeds(ChassisSpeeds(*command), heading)
    reach.next(request, limits, drive.loop_period, reach.speeds, reach.states)
    assert reach.speeds is not None
    reached = ChassisSpeeds.fromRobotRelativeSpeeds(reach.speeds, heading)
    return reached.vx, reached.vy, reached.omega


def _turned(vector: tuple[float, float], angle: float) -> tuple[float, float]:
    """``vector`` turned anticlockwise by ``angle`` (rad)."""
    cos, sin = math.cos(angle), math.sin(angle)
    return vector[0] * cos - vector[1] * sin, vector[0] * sin + vector[1] * cos


def _skew_turn_back(drive: SwerveDrive) -> float:
    """The angle (rad) the drive's own angular-velocity (skew) compensation turns this loop's
    request back by: the measured yaw rate times its coefficient, when on in this mode (the
    request is taken into the robot's frame that much further round)."""
    options = drive.options
    compensating = (
        options.angular_velocity_compensation_auto
        if wpilib.DriverStation.isAutonomous()
        else options.angular_velocity_compensation_teleop
    )
    return drive.yaw_rate * options.angular_velocity_coefficient if compensating else 0.0


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
        return self._running.at_target

    @property
    def settled(self) -> bool:
        """In drive-to-pose mode: :attr:`at_target`, and the last loop's command at rest. A
        command that ends on ``at_target`` may leave a robot that reached the tolerance moving
        (entered at the pose while driving, or passing through it); one that ends on
        ``settled`` leaves it stopped."""
        running = self._running
        return running.at_target and running.pose_velocity == (0.0, 0.0) and not running.pose_turn

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
                moving = _starting_speeds(drive, Rotation2d(heading))
                running.pose_velocity = (moving.vx, moving.vy)
                running.pose_turn = moving.omega
            running.pose_resets = resets
        if running.command_count != drive.command_count and running.command_count is not None:
            running.mode = None  # another command drove the robot since: start from where it is
        if running.mode is not self.mode:  # switched: start from where the robot is
            running.mode = self.mode
            # (heading mode: where it stops turning, if it still turns; see _hold_heading)
            running.target_heading = None if self.mode is Mode.HEADING else heading
            moving = _starting_speeds(drive, Rotation2d(heading))
            running.pose_velocity = (moving.vx, moving.vy)
            running.pose_turn = moving.omega  # (not a rate left from an earlier drive to pose)
            running.at_target = False
        if self.mode is Mode.DRIVE_TO_POSE:
            self._drive_to_pose(drive)
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

    def _drive_to_pose(self, drive: SwerveDrive) -> None:
        running = self._running
        now = wpilib.Timer.getFPGATimestamp()
        last_time, running.pose_time = running.pose_time, now
        if last_time is not None and not 0.0 <= now - last_time <= STALE_POSE_COMMAND_S:
            # (e.g. disabled and enabled again: the robot stood still whatever it was asked)
            moving = drive.get_field_relative_speeds()
            running.pose_velocity = (moving.vx, moving.vy)
            running.pose_turn = moving.omega
        assert self.pose_target is not None
        goal = self.pose_target()
        pose = drive.get_pose()
        self._measure_steering(drive)
        problem = pose_problem(goal, None)
        if problem is not None:
            # No goal this loop (NaN, infinite, beyond 1 km: a distance that overflows): brake to
            # rest within the limits; the running command stays finite for the next good goal.
            drive.refusals.refuse("SwerveInput.drive_to()", f"target {problem[1]}", "braking")
            running.at_target = False
            # (shared in proportion to the speeds, the translation and the turn stop together)
            speeds = (math.hypot(*running.pose_velocity), abs(running.pose_turn))
            # The robot still follows its last command meanwhile: the turn expected of it goes on
            # with it (translating, it trails it), so that the next good goal brakes from where
            # the robot then turns, not from the rate it had when the goal was lost.
            translating = running.pose_velocity != (0.0, 0.0)
            turn_lag = self._turn_lag(drive) if translating else 0.0
            self._expected_turn(turn_lag, drive.loop_period)
            self._expected_velocity(
                self._translation_lag(drive, pose, running.pose_turn), drive.loop_period
            )
            self._pose_command(drive, pose, (0.0, 0.0), 0.0, self._pose_limits(drive), speeds)
            return
        error = goal.translation() - pose.translation()
        distance = error.norm()
        turn = math.remainder(goal.rotation().radians() - pose.rotation().radians(), math.tau)
        tolerance, angle_tolerance = self.pose_tolerance
        running.target_heading = goal.rotation().radians()
        dt = drive.loop_period
        running.at_target = distance <= tolerance and abs(turn) <= angle_tolerance
        # On braking curves that stop at the goal (swervelib.pose_profile); within a tolerance,
        # nothing more is asked: the command comes to rest at the acceleration limit below.
        limits = self._pose_limits(drive)
        acceleration, turn_acceleration = limits
        generator = drive.options.setpoint_limits
        both = distance > tolerance and abs(turn) > angle_tolerance
        radius = _radius(drive) if generator is not None and both else 0.0
        last_turn = running.pose_turn
        # Without the generator, turning, the translation trails a falling command where the
        # modules steer its changes (STEERED_TRANSLATION_LAGS): the velocity expected of the robot.
        lag_now = self._translation_lag(drive, pose, last_turn)
        going = self._expected_velocity(lag_now, dt)
        moving_towards = 0.0
        if distance > 1e-9:
            moving_towards = (going[0] * error.X() + going[1] * error.Y()) / distance

        def shares(lead: float) -> tuple[float, float]:
            # Translating and turning at once, each module needs both: the module budget
            # is shared so that braking on both curves together stays within it.
            # (each first what it needs to stop on the pose from the last command: entered
            # while moving, or on its braking curve, short of where the robot will still turn)
            assert generator is not None
            vx, vy = running.pose_velocity
            towards = (vx * error.X() + vy * error.Y()) / distance
            turning = last_turn * math.copysign(radius, turn)  # (> 0: towards)
            linear, turn_arc = shared_accelerations(
                distance,
                abs(turn) * radius,
                acceleration,
                turn_acceleration * radius,
                self._module_budget(drive, generator),
                (towards, turning),
                dt,
                (0.0, lead * radius),
            )
            return linear, turn_arc / radius

        sharing = generator is not None and radius > 0.0
        # The turn brakes on its curve from the heading the robot will have turned to: its turn
        # trails a falling command while it translates (the modules steer the turn's changes),
        # and it may be seen to turn faster or slower than that (pose_profile.turn_still_to_come,
        # over the braking at the acceleration it brakes at). Braking from where it was, it
        # turned 6.1° past the heading entered turning at 2 rad/s, 2 m from the pose.
        lag = 0.0
        if distance > tolerance:
            # (the leftover of the turn's last changes turns the robot on only while it still
            # translates: where the translation ends first, the scaled lag alone, see
            # STEERED_TURN_LAG_S)
            vx, vy = running.pose_velocity
            towards = (vx * error.X() + vy * error.Y()) / distance
            translation_ends = remaining_time(distance, towards, self.pose_max_speed, acceleration)
            turn_ends = remaining_time(
                abs(turn),
                last_turn * math.copysign(1.0, turn),
                self.pose_max_turn_rate,
                turn_acceleration,
            )
            lag = self._turn_lag(drive, translation_ends > turn_ends)
        expected = self._expected_turn(lag, dt)
        braking = shares(0.0)[1] if sharing else turn_acceleration
        ahead = turn - turn_still_to_come(last_turn, expected, drive.yaw_rate, lag, braking)
        if sharing:
            acceleration, turn_acceleration = shares((turn - ahead) * math.copysign(1.0, turn))
        speed = omega = 0.0
        if abs(turn) > angle_tolerance:
            top_turn = self.pose_max_turn_rate
            if generator is None and distance > tolerance:  # (see TURN_ENDS_BEFORE_S)
                vx, vy = running.pose_velocity
                towards = (vx * error.X() + vy * error.Y()) / distance
                ends = remaining_time(distance, towards, self.pose_max_speed, acceleration)
                top_turn = min(
                    top_turn,
                    unhurried_rate(abs(ahead), ends - TURN_ENDS_BEFORE_S, turn_acceleration),
                )
            omega = approach_speed(abs(ahead), top_turn, turn_acceleration, dt)
        if distance > tolerance:
            # The translation brakes on its curve from where the robot will have gone, at the
            # larger of the lags now and at the turn rate about to be asked for: speeding the turn
            # up while braking, the lag grows (the curve would then fall faster than it can brake).
            coming = math.copysign(max(abs(last_turn), omega), ahead)
            lag = max(lag_now, self._translation_lag(drive, pose, coming))
            remaining = distance - translation_still_to_come(moving_towards, lag)
            speed = approach_speed(max(0.0, remaining), self.pose_max_speed, acceleration, dt)
        # Outside the tolerance, never slower than the floor (MIN_POSE_FRACTION): each on its own,
        # or, translating and turning at once under the generator, the fastest module (the turn
        # over the radius at which the drive's top turn rate is its top speed): the translation
        # moves the wheels, so a low share of the turn is not held up to a floor it cannot then
        # brake from within its share, which passed the pose.
        floor = MIN_POSE_FRACTION * drive.max_speed
        arm = drive.max_speed / drive.max_angular_velocity
        if generator is not None and both:
            fastest = speed + omega * arm
            if 0.0 < fastest < floor:
                speed, omega = speed * floor / fastest, omega * floor / fastest
        else:
            speed = max(speed, floor) if distance > tolerance else 0.0
            omega = max(omega, floor / arm) if abs(turn) > angle_tolerance else 0.0
        # (short of the heading, the robot's turn still to come at most brings the command to
        # rest: turned back, a robot that then stops short turns on to it again)
        omega = math.copysign(omega, ahead) if ahead * turn > 0.0 else 0.0
        wanted = (0.0, 0.0)
        if distance > 1e-9:
            wanted = (error.X() / distance * speed, error.Y() / distance * speed)
        self._pose_command(drive, pose, wanted, omega, limits, (acceleration, turn_acceleration))

    def _expected_turn(self, lag: float, dt: float) -> float:
        """The turn rate (rad/s) expected of the robot after this loop from the drive-to-pose
        commands it follows (``lag``: how long its turn trails them, s; see
        :func:`swervelib.pose_profile.trailing_turn`), advanced one loop of ``dt`` (s) and kept in
        the running state: every loop that gives a command advances it, with a goal or without."""
        running = self._running
        last_turn = running.pose_turn
        expected, following = running.pose_turn_expected
        if following != last_turn:  # (a fresh start: the robot's own rate)
            expected = last_turn
        expected = trailing_turn(expected, last_turn, lag, dt)
        running.pose_turn_expected = (expected, last_turn)
        return expected

    def _expected_velocity(self, lag: float, dt: float) -> tuple[float, float]:
        """The field velocity (m/s) expected of the robot after this loop from the drive-to-pose
        commands it follows, trailing them by ``lag`` (s): as :meth:`_expected_turn`."""
        running = self._running
        last = running.pose_velocity
        expected, following = running.pose_velocity_expected
        if following != last:  # (a fresh start: the robot's own velocity)
            expected = last
        expected = (
            trailing_turn(expected[0], last[0], lag, dt),
            trailing_turn(expected[1], last[1], lag, dt),
        )
        running.pose_velocity_expected = (expected, last)
        return expected

    def _measure_steering(self, drive: SwerveDrive) -> None:
        """Without the setpoint generator, the modules' steering lag (STEERING_LAG_S) as this
        loop shows it: the median of :func:`~swervelib.pose_profile.steering_lag_samples`'s,
        the running one moved towards it by STEERING_LAG_GAIN."""
        running = self._running
        if drive.options.setpoint_limits is not None:
            running.steering_seen = None
            return
        state = drive.get_state()
        targets = tuple((float(speed), float(angle)) for speed, angle in state.targets)
        seen, running.steering_seen = running.steering_seen, (state.timestamp, targets)
        if seen is None or not 0.0 < state.timestamp - seen[0] <= STALE_POSE_COMMAND_S:
            return
        samples = sorted(
            steering_lag_samples(
                seen[1],
                targets,
                state.angles_deg,
                state.timestamp - seen[0],
                STEERING_SAMPLE_SPEED_FRACTION * drive.max_speed,
                STEERING_SAMPLE_RATE,
            )
        )
        if samples:
            middle = len(samples) // 2
            median = (samples[middle] + samples[~middle]) / 2.0
            running.steering_lag += (median - running.steering_lag) * STEERING_LAG_GAIN

    def _turn_lag(self, drive: SwerveDrive, floored: bool = True) -> float:
        """How long (s) the robot's turn trails a falling command while it translates:
        TRANSLATING_TURN_LAG_S under the setpoint generator (the steering lag is not measured
        there); without it, :func:`~swervelib.pose_profile.translating_turn_lag` of the steering
        lag measured (scaled from STEERING_LAG_S; ``floored``: at least STEERED_TURN_LAG_S, where
        the translation would end after the turn)."""
        if drive.options.setpoint_limits is not None:
            return TRANSLATING_TURN_LAG_S
        return translating_turn_lag(
            self._running.steering_lag,
            TRANSLATING_TURN_LAG_S,
            STEERING_LAG_S,
            STEERED_TURN_LAG_S if floored else 0.0,
        )

    def _translation_lag(self, drive: SwerveDrive, pose: Pose2d, turn: float) -> float:
        """How long (s) the robot's translation trails the last drive-to-pose command's when it
        turns at ``turn`` (rad/s): without the setpoint generator, STEERED_TRANSLATION_LAGS
        steering lags (measured: see STEERING_LAG_S) times the part of its changes the modules
        steer (:func:`~swervelib.pose_profile.steered_fraction`); none under it (the generator
        paces the modules itself)."""
        if drive.options.setpoint_limits is not None:
            return 0.0
        robot = Translation2d(*self._running.pose_velocity).rotateBy(-pose.rotation())
        locations = [(m.X(), m.Y()) for m in drive.kinematics.getModules()]
        steered = steered_fraction((robot.X(), robot.Y()), turn, locations)
        return STEERED_TRANSLATION_LAGS * self._running.steering_lag * steered

    def _pose_limits(self, drive: SwerveDrive) -> tuple[float, float]:
        """The acceleration limits (m/s², rad/s²): drive_to's, or the drive's own
        (``DriveOptions``, and the setpoint generator's module acceleration: the chassis's, and
        turning, over the furthest module's radius) where lower, which would otherwise hold the
        command back from the braking curve and make the robot pass the pose. (Translating and
        turning at once under the setpoint generator, the modules need both: ``_drive_to_pose``
        and ``_pose_command`` share the module acceleration between them.)"""
        options = drive.options
        linear, angular = self.pose_max_acceleration, self.pose_max_turn_acceleration
        if options.max_linear_acceleration:
            linear = min(linear, options.max_linear_acceleration)
        if options.max_angular_acceleration:
            angular = min(angular, options.max_angular_acceleration)
        generator = options.setpoint_limits
        if generator is not None:
            module = generator.max_drive_acceleration
            radius = _radius(drive)
            linear = min(linear, module)
            angular = min(angular, module / radius) if radius > 0.0 else angular
        return linear, angular

    def _module_budget(self, drive: SwerveDrive, generator: SetpointLimits) -> float:
        """The setpoint generator's module acceleration (m/s²) left for the translation's and
        the turn's changes at the last command (:func:`swervelib.pose_profile.module_budget`)."""
        running = self._running
        return module_budget(
            generator.max_drive_acceleration,
            math.hypot(*running.pose_velocity),
            running.pose_turn,
            [m.location.norm() for m in drive.modules],
        )

    def _pose_command(
        self,
        drive: SwerveDrive,
        pose: Pose2d,
        wanted: tuple[float, float],
        omega: float,
        limits: tuple[float, float],
        shares: tuple[float, float],
    ) -> None:
        """Command the drive one acceleration step (``limits``: :meth:`_pose_limits`'s m/s² and
        rad/s²) from the last command towards ``wanted`` (m/s, field frame) and ``omega``
        (rad/s), its change fed forward through kA; under the setpoint generator the translation
        and the turn share the module acceleration in proportion to ``shares`` (m/s², rad/s²:
        the braking curves' accelerations)."""
        running = self._running
        dt = drive.loop_period
        # From the last command (the robot's velocity on entry), at most one acceleration step per
        # loop, braking included: a robot moving away from the goal or across its line turns
        # towards it, and one within the tolerance comes to rest, within the limits.
        last_vx, last_vy = running.pose_velocity
        last_omega = running.pose_turn
        linear_limit, turn_limit = limits
        vx, vy = approach_step((last_vx, last_vy), wanted, linear_limit * dt)
        (omega,) = limited_step((last_omega,), (omega,), turn_limit * dt)
        generator = drive.options.setpoint_limits
        radius = _radius(drive) if generator is not None else 0.0
        if generator is not None and radius > 0.0:
            # Each module's velocity changes by the step's translation plus its turn times the
            # module's radius: the two share the generator's module acceleration, each at least
            # the part its braking curve counts on.
            linear_scale, turn_scale = shared_step(
                math.hypot(vx - last_vx, vy - last_vy),
                abs(omega - last_omega) * radius,
                (shares[0], shares[1] * radius),
                self._module_budget(drive, generator) * dt,
            )
            vx = last_vx + (vx - last_vx) * linear_scale
            vy = last_vy + (vy - last_vy) * linear_scale
            omega = last_omega + (omega - last_omega) * turn_scale
            if vx != 0.0 or vy != 0.0 or omega != 0.0:
                vx, vy, omega = _reachable(drive, generator, (vx, vy, omega), pose.rotation())
        sent, last_sent = (vx, vy), (last_vx, last_vy)
        if generator is None:
            # The velocity above is the robot's: turning, it is commanded turned back by what the
            # steering's lag turns it by (STEERING_LAG_S), so that the robot goes along the line
            # its braking curve is on (sent as it was, at 3 rad/s it went 7° off that line, and
            # the command across that corrected it, turned in its turn, added to its speed
            # towards the pose); the command still changes by at most the limit step.
            # The drive's own skew compensation, when on, turns it back too (the yaw rate times
            # its coefficient): drive_to turns it back by what that leaves of the lag measured
            # (forward, where the coefficient is the larger), so the two make one turn-back.
            if running.pose_sent[1] == last_sent:  # (else a fresh start: from the robot's own)
                last_sent = running.pose_sent[0]
            # (the turn over the steering's lag, less the drive's own turn-back)
            turn_back = omega * running.steering_lag - _skew_turn_back(drive)
            sent = _turned(sent, -turn_back)
            sent_x, sent_y = limited_step(last_sent, sent, linear_limit * dt)
            sent = (sent_x, sent_y)
            vx, vy = _turned(sent, turn_back)
        running.pose_velocity = (vx, vy)
        running.pose_sent = (sent, (vx, vy))
        running.pose_turn = omega
        running.pose_turn_expected = (running.pose_turn_expected[0], omega)
        running.pose_velocity_expected = (running.pose_velocity_expected[0], (vx, vy))
        if vx == vy == omega == 0.0:
            drive.drive(ChassisSpeeds())  # holding still
            return
        # The change of command is this loop's acceleration: fed forward through the drive's kA,
        # the robot keeps up with the braking curve instead of trailing it (and overshooting).
        # (the drive's field-to-robot turn this loop, its skew compensation's included)
        heading = pose.rotation() + Rotation2d(_skew_turn_back(drive))
        change = ((sent[0] - last_sent[0]) / dt, (sent[1] - last_sent[1]) / dt)
        command = ChassisSpeeds(sent[0], sent[1], omega)
        acceleration = ChassisSpeeds.fromFieldRelativeSpeeds(
            ChassisSpeeds(change[0], change[1], (omega - last_omega) / dt), heading
        )
        robot = ChassisSpeeds.fromFieldRelativeSpeeds(command, heading)
        if generator is None:
            # In the robot's frame a field velocity held while turning turns the other way: each
            # module's speed changes by that too (-ω × v), which its feedforward now includes.
            acceleration = ChassisSpeeds(
                acceleration.vx + omega * robot.vy,
                acceleration.vy - omega * robot.vx,
                acceleration.omega,
            )
        feedforwards = module_accelerations(drive.kinematics, robot, acceleration)
        drive.drive(command, field_relative=True, feedforwards=feedforwards)
