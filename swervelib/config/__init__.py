"""Configuration: JSON files to validated, immutable objects. Pure Python (no wpilib import)."""

from swervelib.config.catalog import ENCODER_TYPES, IMU_TYPES, MOTOR_TYPES, Bus, Motor, Vendor
from swervelib.config.errors import ConfigError, Problem, Severity
from swervelib.config.loader import load_directory
from swervelib.config.model import (
    PIDF,
    AngleConversion,
    ControllerProperties,
    ConversionFactors,
    DeviceConfig,
    DriveConfig,
    DriveConversion,
    DriveFeedforward,
    Location,
    ModuleConfig,
    MotorInversion,
    MotorPair,
    PhysicalProperties,
    PIDFProperties,
    ResolvedConversion,
    SteerFeedback,
    SwerveConfig,
)

__all__ = [
    "ENCODER_TYPES",
    "IMU_TYPES",
    "MOTOR_TYPES",
    "PIDF",
    "AngleConversion",
    "Bus",
    "ConfigError",
    "ControllerProperties",
    "ConversionFactors",
    "DeviceConfig",
    "DriveConfig",
    "DriveConversion",
    "DriveFeedforward",
    "Location",
    "ModuleConfig",
    "Motor",
    "MotorInversion",
    "MotorPair",
    "PIDFProperties",
    "PhysicalProperties",
    "Problem",
    "ResolvedConversion",
    "Severity",
    "SteerFeedback",
    "SwerveConfig",
    "Vendor",
    "load_directory",
]
