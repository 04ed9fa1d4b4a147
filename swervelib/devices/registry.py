"""Type string → adapter, imported only when a device of that vendor is configured.

Adapters are named by ``"module:attribute"`` strings so that looking one up imports its vendor
package and nothing else. A missing vendor package raises :class:`MissingVendorError`, which says
what to add to ``[tool.robotpy] requires``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from types import MappingProxyType
from typing import Any, Final

from swervelib.config.catalog import ENCODER_TYPES, IMU_TYPES, MOTOR_TYPES, Vendor
from swervelib.config.model import SwerveConfig

# Motor adapters by controller; encoder and IMU adapters by kind (see swervelib.config.catalog).
MOTOR_ADAPTERS: Final = MappingProxyType(
    {
        "sparkmax": "swervelib.devices.rev.motor:SparkMotor",
        "sparkflex": "swervelib.devices.rev.motor:SparkMotor",
        "talonfx": "swervelib.devices.ctre6.talonfx:TalonFXMotor",
        "talonfxs": "swervelib.devices.ctre6.talonfx:TalonFXSMotor",
        "talonsrx": "swervelib.devices.ctre5.talonsrx:TalonSRXMotor",
    }
)
ENCODER_ADAPTERS: Final = MappingProxyType(
    {
        "none": "swervelib.devices.none:no_encoder",
        "cancoder": "swervelib.devices.ctre6.cancoder:CANcoderEncoder",
        "spark_attached": "swervelib.devices.rev.encoders:SparkAttachedEncoder",
        "spark_analog": "swervelib.devices.rev.encoders:SparkAnalogEncoder",
        "spark_analog5v": "swervelib.devices.rev.encoders:SparkAnalogEncoder",
        "dio_dutycycle": "swervelib.devices.wpilib_sensors.encoders:DutyCycleAbsoluteEncoder",
        "analog": "swervelib.devices.wpilib_sensors.encoders:AnalogAbsoluteEncoder",
        "talonsrx_pwm": "swervelib.devices.ctre5.encoders:TalonSRXAttachedEncoder",
        "talonsrx_analog": "swervelib.devices.ctre5.encoders:TalonSRXAttachedEncoder",
        "srxmag_standalone": "swervelib.devices.ctre5.encoders:TalonSRXStandaloneEncoder",
        "talonfxs_analog": "swervelib.devices.ctre6.fxs_analog:TalonFXSAnalogEncoder",
    }
)
IMU_ADAPTERS: Final = MappingProxyType(
    {
        "pigeon2": "swervelib.devices.ctre6.pigeon2:Pigeon2Imu",
        "pigeon": "swervelib.devices.ctre5.pigeon:PigeonImu",
        "pigeon_via_talonsrx": "swervelib.devices.ctre5.pigeon:PigeonImu",
        "navx_spi": "swervelib.devices.navx.ahrs:NavXImu",
        "navx_i2c": "swervelib.devices.navx.ahrs:NavXImu",
        "navx_usb": "swervelib.devices.navx.ahrs:NavXImu",
        "navx_mxp_serial": "swervelib.devices.navx.ahrs:NavXImu",
        "navx3": "swervelib.devices.navx.navx3:NavX3Imu",
        "adis16448": "swervelib.devices.wpilib_sensors.gyros:ADIS16448Imu",
        "adis16470": "swervelib.devices.wpilib_sensors.gyros:ADIS16470Imu",
        "adxrs450": "swervelib.devices.wpilib_sensors.gyros:ADXRS450Imu",
        "analog_gyro": "swervelib.devices.wpilib_sensors.gyros:AnalogGyroImu",
    }
)

# The Python module each vendor's pip requirement provides.
_VENDOR_MODULE: Final = MappingProxyType(
    {
        Vendor.REV: "rev",
        Vendor.CTRE_PHOENIX6: "phoenix6",
        Vendor.CTRE_PHOENIX5: "phoenix5",
        Vendor.NAVX: "navx",
        Vendor.WPILIB: "wpilib",
    }
)


class MissingVendorError(ImportError):
    """A configured device needs a vendor package that is not installed."""

    def __init__(self, type_name: str, vendor: Vendor) -> None:
        super().__init__(
            f"device type `{type_name}` needs the `{vendor.requirement}` package, which is not "
            f'installed: add "{vendor.requirement}" to `[tool.robotpy] requires` in your robot\'s '
            f"pyproject.toml (then `python -m robotpy sync`), or `pip install {vendor.requirement}`"
        )
        self.type_name = type_name
        self.vendor = vendor


def _installed(vendor: Vendor) -> bool:
    try:
        return importlib.util.find_spec(_VENDOR_MODULE[vendor]) is not None
    except (ImportError, ValueError):
        return False


def missing_packages(config: SwerveConfig) -> list[MissingVendorError]:
    """One :class:`MissingVendorError` per vendor package ``config`` needs that is not installed
    (naming the first device type that needs it), without importing any vendor package: what
    building the drive would refuse, said in advance (``check`` uses it)."""
    needed: dict[Vendor, str] = {}
    imu = config.drive.imu
    needed.setdefault(IMU_TYPES[imu.type].vendor, imu.type)
    for module in config.modules:
        for device, catalog in (
            (module.drive, MOTOR_TYPES),
            (module.angle, MOTOR_TYPES),
            (module.encoder, ENCODER_TYPES),
        ):
            needed.setdefault(catalog[device.type].vendor, device.type)
    return [
        MissingVendorError(type_name, vendor)
        for vendor, type_name in needed.items()
        if not _installed(vendor)
    ]


def _load(target: str, type_name: str, vendor: Vendor) -> Callable[..., Any]:
    try:
        importlib.import_module(_VENDOR_MODULE[vendor])
    except ImportError as error:
        raise MissingVendorError(type_name, vendor) from error
    module_name, attribute = target.split(":")
    return getattr(importlib.import_module(module_name), attribute)  # type: ignore[no-any-return]


def motor_adapter(type_name: str) -> Callable[..., Any]:
    """The class building a motor of JSON type ``type_name`` (called with ``MotorSettings``)."""
    entry = MOTOR_TYPES[type_name]
    return _load(MOTOR_ADAPTERS[entry.controller], type_name, entry.vendor)


def encoder_adapter(type_name: str) -> Callable[..., Any]:
    """The factory for an absolute encoder (called with ``EncoderSettings`` and the angle motor)."""
    entry = ENCODER_TYPES[type_name]
    return _load(ENCODER_ADAPTERS[entry.kind], type_name, entry.vendor)


def imu_adapter(type_name: str) -> Callable[..., Any]:
    """The class building an IMU of JSON type ``type_name`` (called with ``ImuSettings``)."""
    entry = IMU_TYPES[type_name]
    return _load(IMU_ADAPTERS[entry.kind], type_name, entry.vendor)
