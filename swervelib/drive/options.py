"""How ``SwerveDrive.drive()`` shapes a request before the kinematics: the options a team turns on
for teleop quality. Every one is off (or as before) by default, so a drive behaves the same until
it is asked for more. Pure Python: no wpilib here.

YAGSL's switches and their counterparts (``SwerveDrive`` methods of the same meaning):

* ``setHeadingCorrection(on, deadband)``: ``set_heading_correction(on, deadband)``;
* ``setAngularVelocityCompensation(teleop, auto, k)``: ``set_angular_velocity_compensation``;
* ``setChassisDiscretization(on, dt)``: ``set_chassis_discretization(on, dt)``;
* ``setModuleStateOptimization(on)``: ``set_module_state_optimization(on)``;
* ``setAutoCenteringModules(on)`` (anti-jitter off): ``set_anti_jitter(not on)``;
* ``setCosineCompensator(on)``: ``set_cosine_compensator(on)``;
* acceleration limits (YAGSL has a mass-based tip limiter): ``set_acceleration_limits``;
* a setpoint generator (PathPlanner's ``SwerveSetpointGenerator``): ``set_setpoint_limits``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

HEADING_CORRECTION_DEADBAND = 0.01  # m/s and rad/s, YAGSL's default
ANGULAR_VELOCITY_COEFFICIENT = 0.1  # seconds; YAGSL suggests starting at 0.1


def _positive(name: str, value: float | None, *, allow_none: bool = True) -> None:
    if value is None and allow_none:
        return
    if value is None or not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a positive number, not {value!r}")


@dataclass(frozen=True, slots=True)
class SetpointLimits:
    """Kinematic limits for the setpoint generator: each module's top speed (m/s), steering speed
    (rad/s) and drive acceleration (m/s²). A request beyond them is approached along the straight
    line from the previous setpoint, as far as every module can go this loop."""

    max_module_speed: float
    max_steer_velocity: float
    max_drive_acceleration: float

    def __post_init__(self) -> None:
        _positive("max_module_speed", self.max_module_speed, allow_none=False)
        _positive("max_steer_velocity", self.max_steer_velocity, allow_none=False)
        _positive("max_drive_acceleration", self.max_drive_acceleration, allow_none=False)


@dataclass(frozen=True, slots=True)
class DriveOptions:
    """The drive's request shaping. ``heading_correction``: while translating (faster than the
    deadband) with no rotation asked (slower than the deadband), hold the heading the robot has
    once its rotation has died out (not in autonomous, as YAGSL; YAGSL holds the heading of the
    moment the rotation was let go, which a fast spin overshoots and then swings back to). ``angular_velocity_compensation_*``: turn
    the translation against the robot's measured rotation by ``rate × coefficient`` so a spinning
    robot translates where asked (teleop and autonomous separately). ``max_linear_acceleration``
    (m/s², field frame) and ``max_angular_acceleration`` (rad/s²): how fast the request may change.
    ``discretize``: WPILib's ``ChassisSpeeds.discretize`` over ``loop_period``. ``setpoint_limits``:
    the setpoint generator, off when None."""

    heading_correction: bool = False
    heading_correction_deadband: float = HEADING_CORRECTION_DEADBAND
    angular_velocity_compensation_teleop: bool = False
    angular_velocity_compensation_auto: bool = False
    angular_velocity_coefficient: float = ANGULAR_VELOCITY_COEFFICIENT
    max_linear_acceleration: float | None = None
    max_angular_acceleration: float | None = None
    discretize: bool = True
    setpoint_limits: SetpointLimits | None = None

    def __post_init__(self) -> None:
        _positive("heading_correction_deadband", self.heading_correction_deadband)
        if not math.isfinite(self.angular_velocity_coefficient):
            raise ValueError(
                f"angular_velocity_coefficient must be finite, not {self.angular_velocity_coefficient!r}"
            )
        _positive("max_linear_acceleration", self.max_linear_acceleration)
        _positive("max_angular_acceleration", self.max_angular_acceleration)

    @property
    def shapes(self) -> bool:
        """Whether anything here needs the shaping step (the plain path skips it)."""
        return bool(
            self.heading_correction
            or self.angular_velocity_compensation_teleop
            or self.angular_velocity_compensation_auto
            or self.max_linear_acceleration
            or self.max_angular_acceleration
        )
