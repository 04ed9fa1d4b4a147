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

The volts logged are what each controller reports it applies (``get_applied_volts``), not what was
asked. The log goes to WPILib's DataLog (``DataLogManager``), which the SysId tool reads: run each
routine's quasistatic and dynamic tests forward and backward, then open the log in SysId. The drive
result (kS, kV, kA, in volts per metre per second) goes into ``pidfproperties.json`` as
``drive.feedforward`` or into :meth:`SwerveDrive.set_drive_feedforward`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from swervelib.angles import wrap_180
from swervelib.optional import missing

try:
    from commands2.sysid import SysIdRoutine
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing(__name__, "robotpy-commands-v2", "commands") from error

if TYPE_CHECKING:
    from swervelib.drive.swerve_drive import SwerveDrive

ALIGNED_DEG = 10.0
"""How far from forward a wheel may face while the drive routine gives its drive motor voltage.
Further off (a wheel still turning round at the start of a test) it gets 0 V: driven at an angle,
it would push the robot sideways and log a speed that is not along the test's direction."""


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


def drive_routine(
    drive: SwerveDrive, subsystem: Any, config: SysIdRoutine.Config | None = None
) -> SysIdRoutine:
    """A SysId routine for the drive motors (modules held pointing forward)."""

    def apply(volts: float) -> None:
        drive.feed()  # the modules are commanded directly: the drive's command must not expire
        for module in drive.modules:
            module.point(0.0)  # forward, never reversed: reversed, a wheel would drive backwards
            facing = abs(wrap_180(module.angle_deg)) <= ALIGNED_DEG
            module.drive_motor.set_voltage(volts if facing else 0.0)

    def log(sysid_log: Any) -> None:
        for module in drive.modules:
            motor = module.drive_motor
            entry = sysid_log.motor(f"drive-{module.name}")
            entry.voltage(_finite(motor.get_applied_volts()))
            entry.position(module.raw_drive_m)
            entry.velocity(module.drive_velocity_mps)
            entry.current(_finite(motor.get_current_amps()))

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
            entry.voltage(_finite(motor.get_applied_volts()))
            entry.angularPosition(module.raw_angle_deg / 360.0)  # turns of the module
            entry.angularVelocity(_finite(motor.get_velocity()) / 360.0)
            entry.current(_finite(motor.get_current_amps()))

    return _routine(config, apply, log, subsystem, "swerve-angle")
