"""System identification (SysId) of a swervelib drive with commands2's ``SysIdRoutine``
(optional: robotpy-commands-v2; the rest of swervelib never imports it).

* :func:`drive_routine`: every drive motor gets the routine's voltage while the modules are held
  pointing forward (each wheel faces forward, never reversed, whatever its angle before: a module
  left facing backwards turns round first, its drive motor at 0 V until it faces within
  :data:`ALIGNED_DEG` of forward); each module is logged as ``drive-<module>`` (volts, metres,
  m/s, amperes).
* :func:`angle_routine`: every angle motor gets the voltage, the drive motors none; each module is
  logged as ``angle-<module>`` (volts, rotations, rotations/s, amperes). The modules have no angle
  set-point meanwhile, so the drive's runaway and stall checks leave them alone (a spin judged
  against the last drive command's set-point would look like a misconfigured module); they judge
  again from the next drive command.
* :func:`rotation_routine` (phoenix6's ``SysIdSwerveRotation``): the robot spins in place, every
  drive motor at the voltage while the modules are held tangential (each wheel perpendicular to
  the line from the robot's centre to it, facing the way that turns the robot counter-clockwise,
  never reversed; a module still turning round gets 0 V until within :data:`ALIGNED_DEG`). The
  robot is logged as ``robot`` (the drive motors' mean applied volts, the robot's yaw in turns,
  continuous, and its yaw rate in turns per second), for the heading controller of
  ``drive_facing`` (see :func:`heading_gains`).

The volts logged are what each controller reports it applies (``get_applied_volts``), not what was
asked. The log goes to WPILib's DataLog (``DataLogManager``), which the SysId tool reads: run each
routine's quasistatic and dynamic tests forward and backward, then open the log in SysId. The drive
result (kS, kV, kA, in volts per metre per second) goes into ``pidfproperties.json`` as
``drive.feedforward`` or into :meth:`SwerveDrive.set_drive_feedforward`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from swervelib.angles import wrap_180
from swervelib.optional import missing

try:
    from commands2.sysid import SysIdRoutine
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing(__name__, "robotpy-commands-v2", "commands") from error

if TYPE_CHECKING:
    from swervelib.drive.module import SwerveModule
    from swervelib.drive.swerve_drive import SwerveDrive

ALIGNED_DEG = 10.0
"""How far from its direction (forward, or tangential for the rotation routine) a wheel may face
while the routine gives its drive motor voltage. Further off (a wheel still turning round at the
start of a test) it gets 0 V: driven at an angle, it would push the robot sideways and log a
speed that is not along the test's direction."""


def _routine(
    config: SysIdRoutine.Config | None,
    apply: Callable[[float], None],
    log: Callable[[Any], None],
    subsystem: Any,
    name: str,
) -> SysIdRoutine:
    """A routine for the mechanism ``name`` (the suffix of every logged entry's name)."""
    return SysIdRoutine(
        config or SysIdRoutine.Config(), SysIdRoutine.Mechanism(apply, log, subsystem, name)
    )


def _finite(value: float) -> float:
    return value if math.isfinite(value) else 0.0


def _reading(read: Callable[[], float]) -> float:
    """A controller's reading for the log; NaN when the call raises (a vendor error): the log goes
    on, and the module's Alert reports the controller from the drive's own reads and commands."""
    try:
        return read()
    except Exception:
        return math.nan


def _drive_along(drive: SwerveDrive, directions_deg: Sequence[float], volts: float) -> None:
    """Each module held facing its direction (module degrees, in module order), never reversed
    (reversed, a wheel would push the wrong way), its drive motor at ``volts`` once it faces
    within :data:`ALIGNED_DEG` of it, 0 V until then.

    ``module.point`` gives each module that angle set-point (speed 0): the runaway check judges
    its turn towards the direction the routine holds, and the stall check, which only judges a
    module asked to move, leaves it alone."""
    drive.feed()  # the modules are commanded directly: the drive's command must not expire
    for module, direction in zip(drive.modules, directions_deg, strict=True):
        module.point(direction)
        facing = abs(wrap_180(module.angle_deg - direction)) <= ALIGNED_DEG
        module.set_drive_voltage(volts if facing else 0.0)


def tangent_deg(module: SwerveModule) -> float:
    """The direction (module degrees: robot-relative, counter-clockwise from the robot's front) in
    which a module's wheel, driven forward, turns the robot counter-clockwise about its centre:
    perpendicular to the line from the centre to the module, 90° counter-clockwise from it."""
    return wrap_180(module.location.angle().degrees() + 90.0)


def _mean_applied_volts(modules: Sequence[SwerveModule]) -> float:
    """The mean of the volts the drive motors report applying; a reading that is not a number (or
    raises) is left out (0 V if none is)."""
    readings = [_reading(module.drive_motor.get_applied_volts) for module in modules]
    finite = [volts for volts in readings if math.isfinite(volts)]
    return sum(finite) / len(finite) if finite else 0.0


def drive_routine(
    drive: SwerveDrive, subsystem: Any, config: SysIdRoutine.Config | None = None
) -> SysIdRoutine:
    """A SysId routine for the drive motors (modules held pointing forward)."""
    forward = [0.0] * len(drive.modules)

    def apply(volts: float) -> None:
        _drive_along(drive, forward, volts)

    def log(sysid_log: Any) -> None:
        for module in drive.modules:
            motor = module.drive_motor
            entry = sysid_log.motor(f"drive-{module.name}")
            entry.voltage(_finite(_reading(motor.get_applied_volts)))
            entry.position(module.raw_drive_m)
            entry.velocity(module.drive_velocity_mps)
            entry.current(_finite(_reading(motor.get_current_amps)))

    return _routine(config, apply, log, subsystem, "swerve-drive")


def angle_routine(
    drive: SwerveDrive, subsystem: Any, config: SysIdRoutine.Config | None = None
) -> SysIdRoutine:
    """A SysId routine for the angle motors (drive motors at 0 V)."""

    def apply(volts: float) -> None:
        drive.feed()
        for module in drive.modules:
            # No angle set-point (set_voltages): the last drive command's is not this routine's,
            # so the drive's runaway check does not judge the spin against it.
            module.set_voltages(0.0, volts)

    def log(sysid_log: Any) -> None:
        for module in drive.modules:
            motor = module.angle_motor
            entry = sysid_log.motor(f"angle-{module.name}")
            entry.voltage(_finite(_reading(motor.get_applied_volts)))
            entry.angularPosition(module.raw_angle_deg / 360.0)  # turns of the module
            entry.angularVelocity(_finite(_reading(motor.get_velocity)) / 360.0)
            entry.current(_finite(_reading(motor.get_current_amps)))

    return _routine(config, apply, log, subsystem, "swerve-angle")


def rotation_routine(
    drive: SwerveDrive, subsystem: Any, config: SysIdRoutine.Config | None = None
) -> SysIdRoutine:
    """A SysId routine for the robot's rotation (phoenix6's ``SysIdSwerveRotation``): the modules
    held tangential (:func:`tangent_deg`), every drive motor at the routine's voltage, so a
    forward test turns the robot counter-clockwise in place and a backward one clockwise.

    Logged as the motor ``robot`` of the mechanism ``swerve-rotation``: the drive motors' mean
    applied volts, the robot's yaw in turns (the yaw the drive's odometry uses: continuous, never
    wrapped at ±180°, the IMU's or the wheels' while the IMU is out; a pose reset does not move
    it) and its yaw rate in turns per second (:attr:`SwerveDrive.yaw_rate`), counter-clockwise
    positive. Load it in SysId with the units "Rotations"."""
    tangents = [tangent_deg(module) for module in drive.modules]

    def apply(volts: float) -> None:
        _drive_along(drive, tangents, volts)

    def log(sysid_log: Any) -> None:
        entry = sysid_log.motor("robot")
        entry.voltage(_mean_applied_volts(drive.modules))
        entry.angularPosition(_finite(drive.yaw.yaw_deg) / 360.0)
        entry.angularVelocity(_finite(drive.yaw_rate) / math.tau)

    return _routine(config, apply, log, subsystem, "swerve-rotation")


def heading_gains(
    kp: float, kd: float, kv: float, max_angular_velocity: float
) -> tuple[float, float]:
    """The heading controller's ``p`` and ``d`` (``controllerproperties.json``'s ``heading``) from
    the rotation routine's SysId result: ``kp`` and ``kd`` from SysId's position feedback analysis
    and ``kv`` from its feedforward analysis, all in the same units (as SysId gives them), and the
    drive's ``max_angular_velocity`` (rad/s).

    SysId's gains are in volts; the heading controller's output, clamped to ±1, is a fraction of
    ``max_angular_velocity``, which the drive turns into wheel speeds and about ``kv`` volts per
    unit of the robot's rotation speed. So ``p = kp / (kv · max_angular_velocity)`` per radian of
    heading error, and ``d`` likewise; the unit of angle cancels (turns or radians, as long as
    the three come from one analysis). Raises ``ValueError`` for a ``kv`` or
    ``max_angular_velocity`` that is not a positive number, or a gain (given or worked out) that is
    not finite."""
    if not (kv > 0.0 and math.isfinite(kv)):
        raise ValueError(f"kv must be a positive number of volts per rotation speed, not {kv}")
    if not (max_angular_velocity > 0.0 and math.isfinite(max_angular_velocity)):
        raise ValueError(
            f"max_angular_velocity must be a positive number of rad/s, not {max_angular_velocity}"
        )
    if not (math.isfinite(kp) and math.isfinite(kd)):
        raise ValueError(f"kp and kd must be finite, not {kp} and {kd}")
    scale = kv * max_angular_velocity
    p, d = kp / scale, kd / scale
    if not (math.isfinite(p) and math.isfinite(d)):  # finite figures whose quotient overflows
        raise ValueError(
            f"kp {kp} and kd {kd} over kv {kv} times {max_angular_velocity} rad/s give a gain "
            "that is not finite: check the SysId fit"
        )
    return p, d
