"""The drive motors' feedforward when the configuration gives none: derived from the motors.

volts = kS·sign(v) + kV·v + kA·a for a wheel speed v (m/s) and acceleration a (m/s²):

* kS = 0 (no friction term, as before feedforwards were configurable);
* kV = 12 V over the wheel's free speed (the motor's free speed through the drive conversion);
* kA: the voltage that makes the motor's torque push its share of the robot's mass at 1 m/s²
  through the wheel: (m / modules) · (metres per motor turn / 2π) · R / Kt.

Set one in ``pidfproperties.json`` (``drive.feedforward``) or at run time with
:meth:`~swervelib.drive.swerve_drive.SwerveDrive.set_drive_feedforward`, from a characterisation.
"""

from __future__ import annotations

import math
from typing import Any

from wpimath.kinematics import ChassisSpeeds
from wpimath.system.plant import DCMotor

from swervelib.config.model import DriveFeedforward, ModuleConfig, PhysicalProperties

NOMINAL_VOLTS = 12.0


def derived_feedforward(
    module: ModuleConfig, physical: PhysicalProperties, module_count: int
) -> DriveFeedforward:
    """The physics-derived feedforward of ``module``'s drive (see the module docstring)."""
    motor = getattr(DCMotor, module.drive_motor_type.motor.value)(1)
    metres = module.conversion.drive_m_per_rotation
    mass_share = physical.robot_mass_kg / module_count
    ka = mass_share * (metres / (2 * math.pi)) * motor.R / motor.Kt
    return DriveFeedforward(ks=0.0, kv=NOMINAL_VOLTS / module.max_drive_speed_mps, ka=ka)


def module_accelerations(
    kinematics: Any, velocity: ChassisSpeeds, acceleration: ChassisSpeeds
) -> list[float]:
    """Each module's acceleration (m/s²) along the direction it is about to roll, for a
    robot-relative chassis ``velocity`` and ``acceleration`` (in the kinematics' module order):
    what :meth:`~swervelib.drive.swerve_drive.SwerveDrive.drive` takes as ``feedforwards``. A
    module at rest turns to where it will push, so it gets the whole of its push."""
    rolling = kinematics.toSwerveModuleStates(velocity)
    pushing = kinematics.toSwerveModuleStates(acceleration)
    result = []
    for roll, push in zip(rolling, pushing, strict=True):
        if abs(roll.speed) < 1e-6:
            result.append(abs(push.speed))
        else:
            result.append(push.speed * (push.angle - roll.angle).cos())
    return result
