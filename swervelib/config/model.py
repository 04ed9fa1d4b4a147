"""Immutable configuration objects: the values as written in JSON, plus SI conversions.

Nothing here imports wpilib or a vendor package. Field names are snake_case and carry their unit
when the JSON unit is not SI (``front_in``, ``absolute_encoder_offset_deg``); properties give the SI
value beside it (``front_m``, ``absolute_encoder_offset_rad``).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from swervelib.config.catalog import (
    ENCODER_TYPES,
    IMU_TYPES,
    MOTOR_FREE_SPEED_RPS,
    MOTOR_TYPES,
    EncoderType,
    ImuType,
    MotorType,
)
from swervelib.config.errors import Problem

INCH = 0.0254  # metres per inch
POUND = 0.45359237  # kilograms per pound


@dataclass(frozen=True, slots=True)
class DeviceConfig:
    """A device descriptor: ``{"type": ..., "id": ..., "canbus": ...}``.

    ``canbus`` is ``None`` for the roboRIO's own bus (JSON ``null``, ``""`` or ``"rio"``).
    ``brushed_encoder``: for a brushed Spark MAX (``sparkmax_brushed``), the encoder it reads, one
    of :data:`~swervelib.config.catalog.BRUSHED_ENCODERS`, written in ``canbus`` as YAGSL has it
    (``None``: no encoder of its own, for an angle motor steering on its data-port encoder).
    """

    type: str
    id: int
    canbus: str | None = None
    brushed_encoder: str | None = None

    @property
    def bus_name(self) -> str:
        """The CAN bus name as phoenix6 expects it (``""`` for the roboRIO bus)."""
        return self.canbus or ""


@dataclass(frozen=True, slots=True)
class MotorInversion:
    """``inverted``: ``true`` reverses the motor from its vendor default."""

    drive: bool
    angle: bool


@dataclass(frozen=True, slots=True)
class Location:
    """``location``: inches from the robot centre, front and left positive."""

    front_in: float
    left_in: float

    @property
    def front_m(self) -> float:
        return self.front_in * INCH

    @property
    def left_m(self) -> float:
        return self.left_in * INCH


@dataclass(frozen=True, slots=True)
class AngleConversion:
    """``conversionFactors.angle`` as written: ``gearRatio`` (motor rotations per module rotation)
    and ``factor`` (degrees of module rotation per motor rotation); 0 means "not given"."""

    gear_ratio: float = 0.0
    factor: float = 0.0


@dataclass(frozen=True, slots=True)
class DriveConversion:
    """``conversionFactors.drive`` as written: ``gearRatio`` (motor rotations per wheel rotation),
    ``diameter`` (wheel diameter, inches) and ``factor`` (metres per motor rotation); 0 = not given."""

    gear_ratio: float = 0.0
    diameter_in: float = 0.0
    factor: float = 0.0
    factor_counts: int = 1
    """Native counts per motor rotation that ``factor`` was written per: 4096 for a Talon SRX's
    (YAGSL's unit for it, :mod:`swervelib.config.native_counts`), else 1."""

    @property
    def diameter_m(self) -> float:
        return self.diameter_in * INCH


@dataclass(frozen=True, slots=True)
class ConversionFactors:
    """``conversionFactors`` as written in physicalproperties.json or a module file."""

    angle: AngleConversion = AngleConversion()
    drive: DriveConversion = DriveConversion()


@dataclass(frozen=True, slots=True)
class ResolvedConversion:
    """The conversion a module uses, after merging module and physical properties.

    ``angle_deg_per_rotation``: degrees of module rotation per angle-motor rotation.
    ``drive_m_per_rotation``: metres of wheel travel per drive-motor rotation.
    Gear ratios and wheel diameter are ``None`` when only a ``factor`` was given.

    A module steered on its absolute encoder (:attr:`SteerFeedback.ABSOLUTE_ENCODER`) from YAGSL's
    ``angle.factor: 360`` has ``angle_deg_per_rotation`` 360 (per turn of the encoder, which turns
    with the module) and ``angle_gear_ratio`` None unless a ``gearRatio`` was also written: the
    motor's own gearing is then unknown, and nothing that steers depends on it.
    """

    angle_deg_per_rotation: float
    drive_m_per_rotation: float
    angle_gear_ratio: float | None
    drive_gear_ratio: float | None
    wheel_diameter_m: float | None

    @property
    def angle_rad_per_rotation(self) -> float:
        return math.radians(self.angle_deg_per_rotation)


class SteerFeedback(enum.Enum):
    """Which sensor closes a module's steering loop.

    ``MOTOR_ENCODER``: the angle motor's own encoder, seeded from the absolute encoder at start-up
    (every controller). ``ABSOLUTE_ENCODER``: an absolute encoder on a Spark's data port is the
    Spark's feedback sensor (its own PID, position wrapping on): what YAGSL 2025+ does when
    ``conversionFactors.angle.factor`` is 360 with an attached encoder, and what REV's MAXSwerve
    code does.
    """

    MOTOR_ENCODER = "motor encoder"
    ABSOLUTE_ENCODER = "absolute encoder"


@dataclass(frozen=True, slots=True)
class MotorPair:
    """A ``{"drive": ..., "angle": ...}`` pair of numbers."""

    drive: float
    angle: float


@dataclass(frozen=True, slots=True)
class PhysicalProperties:
    """``modules/physicalproperties.json``. Defaults are YAGSL's."""

    conversion_factors: ConversionFactors = ConversionFactors()
    current_limit: MotorPair = MotorPair(drive=40, angle=20)  # amperes
    ramp_rate: MotorPair = MotorPair(drive=0.25, angle=0.25)  # seconds from 0 to full output
    wheel_grip_coefficient_of_friction: float = 1.19
    optimal_voltage: float = 12.0  # volts
    friction: MotorPair = MotorPair(drive=0.2, angle=0.3)  # volts
    steer_rotational_inertia: float = 0.03  # kg·m²
    robot_mass_lb: float = 110.2311
    # kg·m² about the vertical axis; None: the simulation takes a uniform slab the size of the
    # bumpers (swervelib's key, which YAGSL ignores)
    robot_moment_of_inertia: float | None = None

    @property
    def robot_mass_kg(self) -> float:
        return self.robot_mass_lb * POUND


@dataclass(frozen=True, slots=True)
class PIDF:
    """A PIDF block: gains act on the controller's units after conversion (see README)."""

    p: float = 0.0
    i: float = 0.0
    d: float = 0.0
    f: float = 0.0
    iz: float = 0.0
    output_min: float = -1.0
    output_max: float = 1.0
    # Static feedforward in volts (swervelib's key ``s``, angle motors on a Spark only): the Spark
    # adds it by the sign of the position error (``closedLoop.feedForward.kS``).
    s: float = 0.0


@dataclass(frozen=True, slots=True)
class DriveFeedforward:
    """The drive motors' feedforward, in SI units of the wheel: volts = kS·sign(v) + kV·v + kA·a,
    with v in m/s and a in m/s² (``pidfproperties.json`` ``drive.feedforward``, swervelib's key)."""

    ks: float = 0.0
    kv: float = 0.0
    ka: float = 0.0


@dataclass(frozen=True, slots=True)
class PIDFProperties:
    """``modules/pidfproperties.json``. ``drive_feedforward`` is None when the file gives none:
    the drive then derives one from its motors (see :meth:`SwerveDrive.drive_feedforward`)."""

    drive: PIDF
    angle: PIDF
    drive_feedforward: DriveFeedforward | None = None


@dataclass(frozen=True, slots=True)
class ControllerProperties:
    """``controllerproperties.json``: the heading controller used by ``drive_facing``."""

    angle_joystick_radius_deadband: float = 0.0
    heading: PIDF = PIDF(p=0.4)


@dataclass(frozen=True, slots=True)
class ModuleConfig:
    """One module file (``modules/<name>.json``)."""

    name: str
    file: str  # relative to the configuration directory
    drive: DeviceConfig
    angle: DeviceConfig
    encoder: DeviceConfig
    inverted: MotorInversion
    absolute_encoder_inverted: bool
    absolute_encoder_offset_deg: float
    location: Location
    conversion: ResolvedConversion
    use_cosine_compensator: bool = True
    conversion_factors: ConversionFactors = ConversionFactors()  # the module's own, as written
    steer_feedback: SteerFeedback = SteerFeedback.MOTOR_ENCODER

    @property
    def absolute_encoder_offset_rad(self) -> float:
        return math.radians(self.absolute_encoder_offset_deg)

    @property
    def drive_motor_type(self) -> MotorType:
        return MOTOR_TYPES[self.drive.type]

    @property
    def angle_motor_type(self) -> MotorType:
        return MOTOR_TYPES[self.angle.type]

    @property
    def encoder_type(self) -> EncoderType:
        return ENCODER_TYPES[self.encoder.type]

    @property
    def angle_encoder_is_absolute(self) -> bool:
        """The angle motor has no encoder of its own: a brushed Spark MAX (``sparkmax_brushed``)
        with none named steers on the absolute encoder on its data port, so its "angle motor
        encoder" (``Raw Angle Encoder``) *is* that absolute encoder, after
        ``absoluteEncoderInverted``: turning the module by hand says nothing about the motor's
        direction (``inverted.angle``)."""
        return self.angle_motor_type.brushed and self.angle.brushed_encoder is None

    @property
    def max_drive_speed_mps(self) -> float:
        """The wheel's free speed at 12 V, from the drive motor model and the drive conversion."""
        free_rps = MOTOR_FREE_SPEED_RPS[self.drive_motor_type.motor]
        return free_rps * self.conversion.drive_m_per_rotation


@dataclass(frozen=True, slots=True)
class DriveConfig:
    """``swervedrive.json``."""

    imu: DeviceConfig
    imu_inverted: bool
    module_names: tuple[str, ...]
    max_speed_mps: float | None = None

    @property
    def imu_type(self) -> ImuType:
        return IMU_TYPES[self.imu.type]


@dataclass(frozen=True, slots=True)
class SwerveConfig:
    """A whole configuration directory, validated."""

    directory: str
    drive: DriveConfig
    modules: tuple[ModuleConfig, ...]
    physical: PhysicalProperties | None = None
    pidf: PIDFProperties | None = None
    controller: ControllerProperties | None = None
    warnings: tuple[Problem, ...] = ()

    def module(self, name: str) -> ModuleConfig:
        """The module called ``name`` (file name without ``.json``)."""
        for module in self.modules:
            if module.name == name:
                return module
        raise KeyError(name)

    @property
    def max_speed_mps(self) -> float:
        """``maxSpeed`` from swervedrive.json, or else the slowest module's free speed."""
        if self.drive.max_speed_mps is not None:
            return self.drive.max_speed_mps
        return min(module.max_drive_speed_mps for module in self.modules)

    @property
    def physical_or_default(self) -> PhysicalProperties:
        return self.physical if self.physical is not None else PhysicalProperties()
