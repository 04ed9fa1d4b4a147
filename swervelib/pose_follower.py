"""``PoseFollower``: the loop work of ``SwerveInput.drive_to()``.

Each loop of drive-to-pose mode, :meth:`PoseFollower.follow` commands the drive one step towards
the target pose: translating and turning on trapezoidal profiles that stop at the pose (the
arithmetic of :mod:`swervelib.pose_profile`), never changing the command faster than drive_to's
acceleration limits nor the drive's own where lower, each step's change fed forward through the
drive's kA; within the tolerance it comes to rest and holds still (:attr:`PoseFollower.at_target`).
A target that is not usable (NaN, infinite, beyond 1 km) brakes the robot within the limits and is
reported on the drive's ``Swerve commands`` Alert.

A ``PoseFollower`` is the running state the copies of one
:class:`~swervelib.input_stream.SwerveInput` share while driving to a pose: the last command (the
next starts from it), what the robot is expected to do after it, and the modules' steering lag
measured on the robot. ``SwerveInput`` keeps one and calls :meth:`PoseFollower.start` wherever a
command starts again from the robot (a change of mode, a pose reset). The constants below are
what the loop counts on, with how each was measured in simulation (docs/teleop.md has the
figures).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import wpilib
from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib.drive.feedforward import module_accelerations
from swervelib.drive.safety import pose_problem
from swervelib.drive.setpoints import SetpointGenerator
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

PoseSource = Callable[[], Pose2d]

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


@dataclass(frozen=True, slots=True)
class PoseSettings:
    """What ``SwerveInput.drive_to()`` was given: the target (a function giving a field pose each
    loop), the tolerance (metres, radians) and the profiles' limits (m/s, m/s², rad/s, rad/s²)."""

    target: PoseSource
    tolerance: tuple[float, float]
    max_speed: float
    max_acceleration: float
    max_turn_rate: float
    max_turn_acceleration: float


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


class PoseFollower:
    """drive_to's running state, shared by the copies of one SwerveInput, and its loop (see the
    module docstring)."""

    def __init__(self) -> None:
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

    @property
    def settled(self) -> bool:
        """:attr:`at_target`, and the last loop's command at rest."""
        return self.at_target and self.pose_velocity == (0.0, 0.0) and not self.pose_turn

    def start(self, drive: SwerveDrive, heading: Rotation2d) -> None:
        """Go on from the robot's own velocity (the generator's setpoint while it drives the
        modules: :func:`_starting_speeds`), in the frame where the robot faces ``heading``."""
        moving = _starting_speeds(drive, heading)
        self.pose_velocity = (moving.vx, moving.vy)
        self.pose_turn = moving.omega

    def follow(self, drive: SwerveDrive, settings: PoseSettings) -> float | None:
        """One loop of drive-to-pose mode: command ``drive`` towards ``settings.target()``.
        Returns the target's heading (rad), or None where the target was not usable this loop."""
        now = wpilib.Timer.getFPGATimestamp()
        last_time, self.pose_time = self.pose_time, now
        if last_time is not None and not 0.0 <= now - last_time <= STALE_POSE_COMMAND_S:
            # (e.g. disabled and enabled again: the robot stood still whatever it was asked)
            moving = drive.get_field_relative_speeds()
            self.pose_velocity = (moving.vx, moving.vy)
            self.pose_turn = moving.omega
        goal = settings.target()
        pose = drive.get_pose()
        self._measure_steering(drive)
        problem = pose_problem(goal, None)
        if problem is not None:
            # No goal this loop (NaN, infinite, beyond 1 km: a distance that overflows): brake to
            # rest within the limits; the running command stays finite for the next good goal.
            drive.refusals.refuse("SwerveInput.drive_to()", f"target {problem[1]}", "braking")
            self.at_target = False
            # (shared in proportion to the speeds, the translation and the turn stop together)
            speeds = (math.hypot(*self.pose_velocity), abs(self.pose_turn))
            # The robot still follows its last command meanwhile: the turn expected of it goes on
            # with it (translating, it trails it), so that the next good goal brakes from where
            # the robot then turns, not from the rate it had when the goal was lost.
            translating = self.pose_velocity != (0.0, 0.0)
            turn_lag = self._turn_lag(drive) if translating else 0.0
            self._expected_turn(turn_lag, drive.loop_period)
            self._expected_velocity(
                self._translation_lag(drive, pose, self.pose_turn), drive.loop_period
            )
            limits = self._pose_limits(drive, settings)
            self._pose_command(drive, pose, (0.0, 0.0), 0.0, limits, speeds)
            return None
        error = goal.translation() - pose.translation()
        distance = error.norm()
        turn = math.remainder(goal.rotation().radians() - pose.rotation().radians(), math.tau)
        tolerance, angle_tolerance = settings.tolerance
        dt = drive.loop_period
        self.at_target = distance <= tolerance and abs(turn) <= angle_tolerance
        # On braking curves that stop at the goal (swervelib.pose_profile); within a tolerance,
        # nothing more is asked: the command comes to rest at the acceleration limit below.
        limits = self._pose_limits(drive, settings)
        acceleration, turn_acceleration = limits
        generator = drive.options.setpoint_limits
        both = distance > tolerance and abs(turn) > angle_tolerance
        radius = _radius(drive) if generator is not None and both else 0.0
        last_turn = self.pose_turn
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
            vx, vy = self.pose_velocity
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
            vx, vy = self.pose_velocity
            towards = (vx * error.X() + vy * error.Y()) / distance
            translation_ends = remaining_time(distance, towards, settings.max_speed, acceleration)
            turn_ends = remaining_time(
                abs(turn),
                last_turn * math.copysign(1.0, turn),
                settings.max_turn_rate,
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
            top_turn = settings.max_turn_rate
            if generator is None and distance > tolerance:  # (see TURN_ENDS_BEFORE_S)
                vx, vy = self.pose_velocity
                towards = (vx * error.X() + vy * error.Y()) / distance
                ends = remaining_time(distance, towards, settings.max_speed, acceleration)
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
            speed = approach_speed(max(0.0, remaining), settings.max_speed, acceleration, dt)
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
        return goal.rotation().radians()

    def _expected_turn(self, lag: float, dt: float) -> float:
        """The turn rate (rad/s) expected of the robot after this loop from the drive-to-pose
        commands it follows (``lag``: how long its turn trails them, s; see
        :func:`swervelib.pose_profile.trailing_turn`), advanced one loop of ``dt`` (s) and kept in
        the running state: every loop that gives a command advances it, with a goal or without."""
        last_turn = self.pose_turn
        expected, following = self.pose_turn_expected
        if following != last_turn:  # (a fresh start: the robot's own rate)
            expected = last_turn
        expected = trailing_turn(expected, last_turn, lag, dt)
        self.pose_turn_expected = (expected, last_turn)
        return expected

    def _expected_velocity(self, lag: float, dt: float) -> tuple[float, float]:
        """The field velocity (m/s) expected of the robot after this loop from the drive-to-pose
        commands it follows, trailing them by ``lag`` (s): as :meth:`_expected_turn`."""
        last = self.pose_velocity
        expected, following = self.pose_velocity_expected
        if following != last:  # (a fresh start: the robot's own velocity)
            expected = last
        expected = (
            trailing_turn(expected[0], last[0], lag, dt),
            trailing_turn(expected[1], last[1], lag, dt),
        )
        self.pose_velocity_expected = (expected, last)
        return expected

    def _measure_steering(self, drive: SwerveDrive) -> None:
        """Without the setpoint generator, the modules' steering lag (STEERING_LAG_S) as this
        loop shows it: the median of :func:`~swervelib.pose_profile.steering_lag_samples`'s,
        the running one moved towards it by STEERING_LAG_GAIN."""
        if drive.options.setpoint_limits is not None:
            self.steering_seen = None
            return
        state = drive.get_state()
        targets = tuple((float(speed), float(angle)) for speed, angle in state.targets)
        seen, self.steering_seen = self.steering_seen, (state.timestamp, targets)
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
            self.steering_lag += (median - self.steering_lag) * STEERING_LAG_GAIN

    def _turn_lag(self, drive: SwerveDrive, floored: bool = True) -> float:
        """How long (s) the robot's turn trails a falling command while it translates:
        TRANSLATING_TURN_LAG_S under the setpoint generator (the steering lag is not measured
        there); without it, :func:`~swervelib.pose_profile.translating_turn_lag` of the steering
        lag measured (scaled from STEERING_LAG_S; ``floored``: at least STEERED_TURN_LAG_S, where
        the translation would end after the turn)."""
        if drive.options.setpoint_limits is not None:
            return TRANSLATING_TURN_LAG_S
        return translating_turn_lag(
            self.steering_lag,
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
        robot = Translation2d(*self.pose_velocity).rotateBy(-pose.rotation())
        locations = [(m.X(), m.Y()) for m in drive.kinematics.getModules()]
        steered = steered_fraction((robot.X(), robot.Y()), turn, locations)
        return STEERED_TRANSLATION_LAGS * self.steering_lag * steered

    def _pose_limits(self, drive: SwerveDrive, settings: PoseSettings) -> tuple[float, float]:
        """The acceleration limits (m/s², rad/s²): drive_to's, or the drive's own
        (``DriveOptions``, and the setpoint generator's module acceleration: the chassis's, and
        turning, over the furthest module's radius) where lower, which would otherwise hold the
        command back from the braking curve and make the robot pass the pose. (Translating and
        turning at once under the setpoint generator, the modules need both: ``follow``
        and ``_pose_command`` share the module acceleration between them.)"""
        options = drive.options
        linear, angular = settings.max_acceleration, settings.max_turn_acceleration
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
        return module_budget(
            generator.max_drive_acceleration,
            math.hypot(*self.pose_velocity),
            self.pose_turn,
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
        dt = drive.loop_period
        # From the last command (the robot's velocity on entry), at most one acceleration step per
        # loop, braking included: a robot moving away from the goal or across its line turns
        # towards it, and one within the tolerance comes to rest, within the limits.
        last_vx, last_vy = self.pose_velocity
        last_omega = self.pose_turn
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
            if self.pose_sent[1] == last_sent:  # (else a fresh start: from the robot's own)
                last_sent = self.pose_sent[0]
            # (the turn over the steering's lag, less the drive's own turn-back)
            turn_back = omega * self.steering_lag - _skew_turn_back(drive)
            sent = _turned(sent, -turn_back)
            sent_x, sent_y = limited_step(last_sent, sent, linear_limit * dt)
            sent = (sent_x, sent_y)
            vx, vy = _turned(sent, turn_back)
        self.pose_velocity = (vx, vy)
        self.pose_sent = (sent, (vx, vy))
        self.pose_turn = omega
        self.pose_turn_expected = (self.pose_turn_expected[0], omega)
        self.pose_velocity_expected = (self.pose_velocity_expected[0], (vx, vy))
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
