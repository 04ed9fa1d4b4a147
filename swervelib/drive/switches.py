"""The drive-quality switches, named as YAGSL names them (see :mod:`swervelib.drive.options`).

Each one replaces ``drive.options`` (an immutable :class:`DriveOptions`) or sets every module alike;
assigning ``drive.options`` directly does the same in one step.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from swervelib.drive.options import (
    ANGULAR_VELOCITY_COEFFICIENT,
    HEADING_CORRECTION_DEADBAND,
    DriveOptions,
    SetpointLimits,
)

if TYPE_CHECKING:
    from swervelib.drive.module import SwerveModule


class DriveSwitches:
    """Mixed into :class:`~swervelib.drive.swerve_drive.SwerveDrive`."""

    options: DriveOptions
    modules: tuple[SwerveModule, ...]
    loop_period: float

    def set_heading_correction(
        self, enabled: bool, deadband: float = HEADING_CORRECTION_DEADBAND
    ) -> None:
        """Hold the heading while translating with no rotation asked (|ω| and the speed compared
        with ``deadband``, m/s and rad/s), turning back to it as ``drive_facing`` turns (with its
        push for a robot stuck short of the heading, so a slow translation does not leave it
        there). Not in autonomous, nor in ``drive_facing`` (which holds its own heading)."""
        self.options = replace(
            self.options, heading_correction=enabled, heading_correction_deadband=deadband
        )

    def set_angular_velocity_compensation(
        self, teleop: bool, auto: bool = False, coefficient: float = ANGULAR_VELOCITY_COEFFICIENT
    ) -> None:
        """Turn the translation against the measured yaw rate by ``rate × coefficient`` (seconds:
        about the modules' response time; 0.05–0.15 typically), in teleop and/or autonomous."""
        self.options = replace(
            self.options,
            angular_velocity_compensation_teleop=teleop,
            angular_velocity_compensation_auto=auto,
            angular_velocity_coefficient=coefficient,
        )

    def set_chassis_discretization(self, enabled: bool, dt: float | None = None) -> None:
        """WPILib's ``ChassisSpeeds.discretize`` over the loop period (``dt`` replaces it)."""
        if dt is not None:
            if not (math.isfinite(dt) and dt > 0.0):  # inf would make every request NaN
                raise ValueError(f"dt must be a positive number of seconds, not {dt!r}")
            self.loop_period = dt
        self.options = replace(self.options, discretize=enabled)

    def set_acceleration_limits(self, linear: float | None, angular: float | None = None) -> None:
        """Limit how fast a request may change: ``linear`` m/s² (the translation, as a vector in
        the field's frame) and ``angular`` rad/s²; None for no limit."""
        self.options = replace(
            self.options, max_linear_acceleration=linear, max_angular_acceleration=angular
        )

    def set_setpoint_limits(self, limits: SetpointLimits | None) -> None:
        """Run every request through the setpoint generator with these limits (None: off)."""
        self.options = replace(self.options, setpoint_limits=limits)

    def set_module_state_optimization(self, enabled: bool) -> None:
        """Reverse a wheel rather than turn it more than 90° (on by default)."""
        for module in self.modules:
            module.optimize = enabled

    def set_anti_jitter(self, enabled: bool, below_mps: float | None = None) -> None:
        """Hold the wheels' angle below ``below_mps`` (default: 1 % of each module's free speed;
        on by default)."""
        for module in self.modules:
            module.set_anti_jitter(enabled, below_mps)

    def set_latency_compensation(self, enabled: bool) -> None:
        """phoenix6 drive motors: read each wheel's position as it is at the loop's refresh
        (position + velocity × the frame's age; on by default). No effect on other vendors,
        whose readings are read fresh."""
        for module in self.modules:
            if hasattr(module.drive_motor, "latency_compensation"):
                module.drive_motor.latency_compensation = enabled

    def set_cosine_compensator(self, enabled: bool) -> None:
        """Scale each wheel's speed by the cosine of its angle error (``useCosineCompensator``)."""
        for module in self.modules:
            module.use_cosine_compensator = enabled
