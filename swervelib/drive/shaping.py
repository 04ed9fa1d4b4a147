"""Shaping a drive request before the kinematics (see :mod:`swervelib.drive.options`): heading
correction, acceleration limits and angular-velocity (skew) compensation, in that order.

The request arrives in the field's frame. Heading correction replaces a near-zero rotation with the
rotation ``drive_facing`` would ask for towards the held heading (the heading PID's, pushed as
below when the robot is stuck short of it), taken when the robot has stopped turning (below
:data:`SETTLED_YAW_RATE`: a released spin dies out first, and is not turned back); the limits move the request at most
``acceleration × dt`` from the previous one (translation as a vector, so a turn of the stick does
not make the robot swerve); compensation converts to the robot's frame with the heading advanced
by ``measured yaw rate × coefficient``, which is where the robot will face by the time the modules
carry the request out.

:meth:`RequestShaper.facing_rotation` is the last step of every turn to a heading: ``drive_facing``'s
and heading correction's (both through ``SwerveDrive._turn_to``). The heading PID's output
falls with the error, and below the turn rate whose wheel speed overcomes the drive motors' static
friction the robot stands still short of its heading (1.3-2.6° with the example configurations' P
and no kS: the wheels were asked for 0.06-0.08 m/s and did not roll; heading correction, pushed 3°
off while translating at 1 % of top speed, stood 1.6° short). A robot stuck like that is
asked for at least :data:`MIN_TURN_FRACTION` of the top wheel speed until it is within
:data:`FACING_RELEASE_RAD`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib.drive.options import DriveOptions
from swervelib.drive.state import DriveState

# A previous request older than this (seconds) is not the one to limit from: start again from
# what the robot measures.
STALE_REQUEST_S = 0.1
# Heading correction takes the heading to hold once the robot turns slower than this (rad/s) after
# the rotation was let go: a spin still dying out is not turned back to where it was released.
SETTLED_YAW_RATE = 0.1
# The floor of a turn to a heading (drive_facing's and heading correction's; see
# RequestShaper.facing_rotation): taken up outside FACING_ENGAGE_RAD by a
# robot that turns slower than FACING_STUCK_YAW_RATE (rad/s: held by static friction), let go within
# FACING_RELEASE_RAD (plus the turn of one loop at the measured yaw rate).
FACING_ENGAGE_RAD = math.radians(0.4)
FACING_STUCK_YAW_RATE = 0.005
FACING_STUCK_LOOPS = 5
FACING_RELEASE_RAD = math.radians(0.1)
# The turns to a heading that each keep their own floor (see RequestShaper.facing_rotation's rule).
DRIVE_FACING = "drive_facing"
HEADING_CORRECTION = "heading correction"
# The floor: this fraction of the drive's top speed at the furthest wheel, above what a drive
# without a kS feedforward needs to overcome static friction (drive_to's 2 % is 0.24 V of kV with
# the example Krakens, against the simulated 0.2 V: the robot crawled, 2.9 s to within 0.5°).
MIN_TURN_FRACTION = 0.03


class RequestShaper:
    """The state the shaping keeps between loops: the held heading and the last request."""

    def __init__(self) -> None:
        self.held_heading: float | None = None  # radians, field frame
        self.facing_floor = False  # the floor of a turn to a heading is taken up
        self._stuck_loops = 0  # facing_rotation calls in a row that found the robot stuck
        self._floor_rule = DRIVE_FACING  # the turn the floor's state is for
        self._last: tuple[float, float, float] | None = None  # field vx, vy, omega
        self._last_time = 0.0

    def forget(self, heading: float | None = None) -> None:
        """After a stop, a lock, an expired command or a pose reset: limits start again from the
        measured speeds, and heading correction holds ``heading`` (None: the next heading)."""
        self._last = None
        self.held_heading = heading
        self._let_go_of_floor()

    def _let_go_of_floor(self) -> None:
        """The floor of a turn to a heading is let go, and the count of stuck loops starts again."""
        self.facing_floor, self._stuck_loops = False, 0

    def facing_rotation(
        self,
        omega: float,
        error: float,
        rolling: float,
        yaw_rate: float,
        loop_period: float,
        max_speed: float,
        max_angular_velocity: float,
        rule: str = DRIVE_FACING,
    ) -> float:
        """The rotation (rad/s) ``drive_facing`` and heading correction ask for: ``omega`` (the
        heading PID's output, plus any turn-rate feedforward), raised to a floor while the floor
        is taken up and ``omega`` turns towards the heading more slowly than it.

        The floor is :data:`MIN_TURN_FRACTION` of ``max_speed`` at the furthest wheel, less
        ``rolling`` (m/s: the translation asked for, and the speed whose voltage the drive kS
        gives by itself), so a robot whose wheels roll anyway, or whose kS overcomes friction,
        turns on the PID alone. It is taken up once the robot is stuck: the heading ``error``
        (target - heading, radians, within ±π) beyond :data:`FACING_ENGAGE_RAD`, ``omega`` below
        the floor and the measured ``yaw_rate`` (rad/s) below :data:`FACING_STUCK_YAW_RATE`, for
        :data:`FACING_STUCK_LOOPS` calls in a row (a robot at rest before a turn, or at the end
        of a swing past the heading, is not stuck). It is let go within
        :data:`FACING_RELEASE_RAD` plus one loop's turn (``loop_period``, s) at the yaw rate. A
        robot with little friction thus turns on the PID alone, as before, and a robot that the
        floor carried into the tolerance is not pushed again while within
        :data:`FACING_ENGAGE_RAD` (no limit cycle). An ``omega`` that turns away from the
        heading (the PID's D braking an approach) is left as it is.

        ``rule``: whose turn this is (:data:`DRIVE_FACING` or :data:`HEADING_CORRECTION`). A
        floor taken up, or stuck loops counted, for one is not the other's: switching from
        heading correction to ``drive_facing`` in consecutive loops, the robot turning after a
        push to one heading would otherwise be pushed to the other at once, within
        :data:`FACING_ENGAGE_RAD` and not stuck (0.245 rad/s past a heading 0.3° away, then
        back at the same rate, measured)."""
        if rule != self._floor_rule:
            self._floor_rule = rule
            self._let_go_of_floor()
        floor_speed = MIN_TURN_FRACTION * max_speed - rolling
        if floor_speed <= 0.0:
            self._let_go_of_floor()
            return omega
        floor = floor_speed * max_angular_velocity / max_speed  # over the furthest wheel's radius
        size = -error if error < 0.0 else error
        if size <= FACING_RELEASE_RAD + abs(yaw_rate) * loop_period:
            self._let_go_of_floor()
        elif not self.facing_floor:
            if (
                size > FACING_ENGAGE_RAD
                and -floor < omega < floor
                and -FACING_STUCK_YAW_RATE < yaw_rate < FACING_STUCK_YAW_RATE
            ):
                self._stuck_loops += 1
                self.facing_floor = self._stuck_loops >= FACING_STUCK_LOOPS
            else:
                self._stuck_loops = 0
        if not self.facing_floor:
            return omega
        if error > 0.0:
            return floor if 0.0 <= omega < floor else omega
        return -floor if -floor < omega <= 0.0 else omega

    def shape(
        self,
        request: ChassisSpeeds,
        *,
        options: DriveOptions,
        heading: float,
        state: DriveState,
        yaw_rate: float,
        now: float,
        loop_period: float,
        autonomous: bool,
        correct_heading: bool,
        turn_to: Callable[[float, float, float], float],
    ) -> ChassisSpeeds:
        """``request``: field-relative; returns the robot-relative request. ``state``: this loop's
        snapshot, whose measured speeds are worked out only when the limits start again from them.
        ``turn_to(current, target, translation)``: the rotation (rad/s) that turns the robot to
        ``target`` while it translates at ``translation`` m/s, as ``drive_facing`` turns it (the
        heading PID's, with :meth:`facing_rotation`'s push for a robot stuck short of it)."""
        vx, vy, omega = request.vx, request.vy, request.omega
        if options.heading_correction and correct_heading and not autonomous:
            band = options.heading_correction_deadband
            if abs(omega) < band and (abs(vx) > band or abs(vy) > band):
                held = self.held_heading
                if held is None and -SETTLED_YAW_RATE < yaw_rate < SETTLED_YAW_RATE:
                    self.held_heading = held = heading  # the spin let go of has died out
                    self._let_go_of_floor()  # a new heading
                if held is not None:
                    omega = turn_to(heading, held, math.hypot(vx, vy))
            else:  # turning (or standing): the heading to hold is taken once it settles
                self.held_heading = None
                self._let_go_of_floor()
        else:
            self.held_heading = None
        linear, angular = options.max_linear_acceleration, options.max_angular_acceleration
        if linear or angular:
            last, dt = self._last, now - self._last_time
            if last is None or not 0.0 < dt <= STALE_REQUEST_S:
                measured = state.field_speeds()
                last = (measured.vx, measured.vy, measured.omega)
                dt = loop_period
            if linear:
                dx, dy = vx - last[0], vy - last[1]
                step = math.hypot(dx, dy)
                allowed = linear * dt
                if step > allowed:
                    vx, vy = last[0] + dx * allowed / step, last[1] + dy * allowed / step
            if angular:
                allowed = angular * dt
                omega = max(last[2] - allowed, min(last[2] + allowed, omega))
        self._last = (vx, vy, omega)
        self._last_time = now
        compensate = (
            options.angular_velocity_compensation_auto
            if autonomous
            else options.angular_velocity_compensation_teleop
        )
        angle = heading + (yaw_rate * options.angular_velocity_coefficient if compensate else 0.0)
        return ChassisSpeeds.fromFieldRelativeSpeeds(
            ChassisSpeeds(vx, vy, omega), Rotation2d(angle)
        )
