"""Shaping a drive request before the kinematics (see :mod:`swervelib.drive.options`): heading
correction, acceleration limits and angular-velocity (skew) compensation, in that order.

The request arrives in the field's frame. Heading correction replaces a near-zero rotation with the
heading PID's output towards the held heading, taken when the robot has stopped turning (below
:data:`SETTLED_YAW_RATE`: a released spin dies out first, and is not turned back); the limits move the request at most
``acceleration × dt`` from the previous one (translation as a vector, so a turn of the stick does
not make the robot swerve); compensation converts to the robot's frame with the heading advanced
by ``measured yaw rate × coefficient``, which is where the robot will face by the time the modules
carry the request out.
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


class RequestShaper:
    """The state the shaping keeps between loops: the held heading and the last request."""

    def __init__(self) -> None:
        self.held_heading: float | None = None  # radians, field frame
        self._last: tuple[float, float, float] | None = None  # field vx, vy, omega
        self._last_time = 0.0

    def forget(self, heading: float | None = None) -> None:
        """After a stop, a lock, an expired command or a pose reset: limits start again from the
        measured speeds, and heading correction holds ``heading`` (None: the next heading)."""
        self._last = None
        self.held_heading = heading

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
        heading_output: Callable[[float, float], float],
    ) -> ChassisSpeeds:
        """``request``: field-relative; returns the robot-relative request. ``state``: this loop's
        snapshot, whose measured speeds are worked out only when the limits start again from them.
        ``heading_output(current, target)``: the heading PID's rotation (rad/s)."""
        vx, vy, omega = request.vx, request.vy, request.omega
        if options.heading_correction and correct_heading and not autonomous:
            band = options.heading_correction_deadband
            if abs(omega) < band and (abs(vx) > band or abs(vy) > band):
                held = self.held_heading
                if held is None and -SETTLED_YAW_RATE < yaw_rate < SETTLED_YAW_RATE:
                    self.held_heading = held = heading  # the spin let go of has died out
                if held is not None:
                    omega = heading_output(heading, held)
            else:  # turning (or standing): the heading to hold is taken once it settles
                self.held_heading = None
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
