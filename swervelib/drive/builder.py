"""Build the devices and modules a configuration describes, through the adapter registry."""

from __future__ import annotations

from swervelib.config.model import ModuleConfig, SteerFeedback, SwerveConfig
from swervelib.devices import registry
from swervelib.devices.interfaces import AbsoluteEncoder, Imu, SwerveMotor
from swervelib.devices.settings import (
    Role,
    encoder_settings,
    imu_settings,
    motor_settings,
)
from swervelib.drive.module import SwerveModule


def build_motor(config: SwerveConfig, module: ModuleConfig, role: Role) -> SwerveMotor:
    device = module.drive if role is Role.DRIVE else module.angle
    adapter = registry.motor_adapter(device.type)
    motor: SwerveMotor = adapter(motor_settings(config, module, role))
    return motor


def build_module(config: SwerveConfig, module: ModuleConfig) -> SwerveModule:
    """The module's motors first, then its encoder (attached encoders need the angle motor).

    A module steered on its absolute encoder gets an angle motor whose closed loop is configured
    on that encoder (see :mod:`swervelib.devices.rev.motor`)."""
    drive = build_motor(config, module, Role.DRIVE)
    angle = build_motor(config, module, Role.ANGLE)
    encoder: AbsoluteEncoder | None = registry.encoder_adapter(module.encoder.type)(
        encoder_settings(module), angle
    )
    if module.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER and not (
        encoder is not None and getattr(angle, "absolute_feedback", False)
    ):  # the loader never allows it; a hand-made ModuleConfig might
        raise ValueError(
            f"{module.name}: steering on the absolute encoder needs a Spark angle motor with the "
            f"encoder on its data port, not `{module.angle.type}` with `{module.encoder.type}`"
        )
    return SwerveModule(module, drive, angle, encoder, free_speed_mps=module.max_drive_speed_mps)


def build_imu(config: SwerveConfig) -> Imu:
    imu: Imu = registry.imu_adapter(config.drive.imu.type)(imu_settings(config))
    return imu
