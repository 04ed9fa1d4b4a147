"""Per-device settings derived from the configuration: what an adapter needs, nothing more.

Pure Python. Adapters take these instead of the whole configuration, so each adapter only knows
about its own device.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from swervelib.config.catalog import (
    ENCODER_TYPES,
    IMU_TYPES,
    MOTOR_TYPES,
    EncoderType,
    ImuType,
    MotorType,
)
from swervelib.config.model import PIDF, DeviceConfig, ModuleConfig, SteerFeedback, SwerveConfig

# The steering gear ratio assumed for a module steered on its absolute encoder whose configuration
# gives none (YAGSL's ``conversionFactors.angle.factor: 360``): REV MAXSwerve's 9424:203 (about
# 46.42:1), the module that setup comes from. Nothing that steers depends on it (the Spark closes
# the loop on the absolute encoder); it scales the angle motor's own encoder (``Raw Angle Encoder``,
# the frozen-reading check, the angle estimate while the absolute encoder is unusable) and is the
# simulated module's real gearing.
DEFAULT_STEER_GEAR_RATIO: Final = 9424.0 / 203.0


class Role(enum.Enum):
    DRIVE = "drive"
    ANGLE = "angle"


@dataclass(frozen=True, slots=True)
class MotorSettings:
    """Everything a motor adapter applies at start-up.

    ``units_per_rotation``: degrees of module rotation (angle) or metres of wheel travel (drive) per
    motor rotation. ``pidf`` is None when pidfproperties.json does not exist: the adapter then uses
    its vendor's sensible default gains.

    ``steer_feedback``: for an angle motor, which sensor closes its position loop. With
    :attr:`SteerFeedback.ABSOLUTE_ENCODER` (Spark angle motors only) the absolute encoder on the
    Spark's data port is the feedback sensor, read with ``absolute_encoder_inverted`` applied, and
    ``set_angle`` takes that encoder's degrees (after inversion, before the offset); the motor's
    own encoder still reads degrees of module rotation through ``units_per_rotation``.
    """

    label: str
    role: Role
    device: DeviceConfig
    motor_type: MotorType
    inverted: bool
    brake: bool
    current_limit_a: float
    ramp_rate_s: float
    units_per_rotation: float
    optimal_voltage: float
    pidf: PIDF | None
    steer_feedback: SteerFeedback = SteerFeedback.MOTOR_ENCODER
    absolute_encoder_inverted: bool = False

    @property
    def gear_ratio(self) -> float:
        """Motor rotations per mechanism rotation (angle) or per metre (drive)."""
        per = 360.0 if self.role is Role.ANGLE else 1.0
        return per / self.units_per_rotation


@dataclass(frozen=True, slots=True)
class EncoderSettings:
    label: str
    device: DeviceConfig
    encoder_type: EncoderType
    inverted: bool


@dataclass(frozen=True, slots=True)
class ImuSettings:
    label: str
    device: DeviceConfig
    imu_type: ImuType
    inverted: bool


def motor_settings(config: SwerveConfig, module: ModuleConfig, role: Role) -> MotorSettings:
    physical = config.physical_or_default
    drive = role is Role.DRIVE
    device = module.drive if drive else module.angle
    pidf = None
    if config.pidf is not None:
        pidf = config.pidf.drive if drive else config.pidf.angle
    return MotorSettings(
        label=f"{module.name} {role.value} motor ({device.type} {device.id})",
        role=role,
        device=device,
        motor_type=MOTOR_TYPES[device.type],
        inverted=module.inverted.drive if drive else module.inverted.angle,
        brake=drive,
        current_limit_a=physical.current_limit.drive if drive else physical.current_limit.angle,
        ramp_rate_s=physical.ramp_rate.drive if drive else physical.ramp_rate.angle,
        units_per_rotation=(
            module.conversion.drive_m_per_rotation if drive else steer_deg_per_rotation(module)
        ),
        optimal_voltage=physical.optimal_voltage,
        pidf=pidf,
        steer_feedback=SteerFeedback.MOTOR_ENCODER if drive else module.steer_feedback,
        absolute_encoder_inverted=module.absolute_encoder_inverted,
    )


def steer_gear_ratio(module: ModuleConfig) -> float:
    """Angle-motor rotations per module rotation: from the conversion, or, for a module steered on
    its absolute encoder whose configuration gives no gear ratio, :data:`DEFAULT_STEER_GEAR_RATIO`."""
    conversion = module.conversion
    if module.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER:
        return conversion.angle_gear_ratio or DEFAULT_STEER_GEAR_RATIO
    return 360.0 / conversion.angle_deg_per_rotation


def steer_deg_per_rotation(module: ModuleConfig) -> float:
    """Degrees of module rotation per angle-motor rotation (see :func:`steer_gear_ratio`)."""
    conversion = module.conversion
    if (
        module.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER
        and conversion.angle_gear_ratio is None
    ):
        return 360.0 / DEFAULT_STEER_GEAR_RATIO
    return conversion.angle_deg_per_rotation


def encoder_settings(module: ModuleConfig) -> EncoderSettings:
    return EncoderSettings(
        label=f"{module.name} absolute encoder ({module.encoder.type} {module.encoder.id})",
        device=module.encoder,
        encoder_type=ENCODER_TYPES[module.encoder.type],
        inverted=module.absolute_encoder_inverted,
    )


def imu_settings(config: SwerveConfig) -> ImuSettings:
    imu = config.drive.imu
    return ImuSettings(
        label=f"IMU ({imu.type} {imu.id})",
        device=imu,
        imu_type=IMU_TYPES[imu.type],
        inverted=config.drive.imu_inverted,
    )
