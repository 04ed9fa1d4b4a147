"""A setpoint generator: module states every module can reach this loop.

The idea of PathPlanner's and team 254's generators, in its simplest form: the new chassis
setpoint lies on the straight line from the previous setpoint to the request, as far along it as
every module can follow in one loop (its drive speed changing by at most ``max_drive_acceleration
× dt``, its wheel turning by at most ``max_steer_velocity × dt``, a reversal of the wheel counting
as no turn), found by bisection. A wheel slow enough to stop within the loop may point anywhere at
once: it moves (almost) nothing while it turns. The request is first desaturated to ``max_module_speed``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from wpimath.kinematics import ChassisSpeeds, SwerveModuleState

from swervelib.drive.options import SetpointLimits

AT_REST_MPS = 1e-3
BISECTION_STEPS = 12  # the fraction to 1/4096


def _turn(from_rad: float, to_rad: float) -> float:
    """The smallest turn (radians, ≥ 0) from one wheel direction to another, a reversal free."""
    return abs(math.remainder(to_rad - from_rad, math.pi))


class SetpointGenerator:
    """Keeps the previous setpoint; :meth:`next` gives this loop's."""

    def __init__(self, kinematics: Any) -> None:
        self.kinematics = kinematics
        self.speeds: ChassisSpeeds | None = None
        self.states: list[SwerveModuleState] | None = None

    def forget(self) -> None:
        """Start again from the measured states at the next request."""
        self.speeds = self.states = None

    def next(
        self,
        request: ChassisSpeeds,
        limits: SetpointLimits,
        dt: float,
        measured_speeds: ChassisSpeeds,
        measured_states: Sequence[SwerveModuleState],
    ) -> list[SwerveModuleState]:
        kinematics = self.kinematics
        if self.speeds is None or self.states is None:
            self.speeds, self.states = measured_speeds, list(measured_states)
        wanted = kinematics.desaturateWheelSpeeds(
            kinematics.toSwerveModuleStates(request), limits.max_module_speed
        )
        request = kinematics.toChassisSpeeds(tuple(wanted))
        previous, before = self.speeds, self.states
        max_speed_step = limits.max_drive_acceleration * dt
        max_turn = limits.max_steer_velocity * dt

        def along(fraction: float) -> ChassisSpeeds:
            return ChassisSpeeds(
                previous.vx + (request.vx - previous.vx) * fraction,
                previous.vy + (request.vy - previous.vy) * fraction,
                previous.omega + (request.omega - previous.omega) * fraction,
            )

        def reachable(states: Sequence[SwerveModuleState]) -> bool:
            for old, new in zip(before, states, strict=True):
                turn = _turn(old.angle.radians(), new.angle.radians())
                # speed along the old direction: a reversal is a change of sign, not a turn
                reversed_ = abs(math.remainder(new.angle.radians() - old.angle.radians(), math.tau))
                signed = new.speed if reversed_ <= math.pi / 2 else -new.speed
                if abs(signed - old.speed) > max_speed_step + 1e-9:
                    return False
                # a wheel slow enough to stop within the loop may turn as it likes
                moving = abs(old.speed) > max_speed_step and abs(new.speed) > AT_REST_MPS
                if moving and turn > max_turn + 1e-9:
                    return False
            return True

        states = list(kinematics.toSwerveModuleStates(request))
        if reachable(states):
            fraction = 1.0
        else:
            low, high = 0.0, 1.0
            for _ in range(BISECTION_STEPS):
                middle = (low + high) / 2
                if reachable(kinematics.toSwerveModuleStates(along(middle))):
                    low = middle
                else:
                    high = middle
            fraction = low
            states = list(kinematics.toSwerveModuleStates(along(fraction)))
        # a module at rest keeps its direction rather than snapping to 0 rad
        for index, (old, new) in enumerate(zip(before, states, strict=True)):
            if abs(new.speed) <= AT_REST_MPS:
                states[index] = SwerveModuleState(0.0, old.angle)
        self.speeds, self.states = along(fraction), states
        return [SwerveModuleState(s.speed, s.angle) for s in states]
