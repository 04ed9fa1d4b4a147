"""The device type strings swervelib accepts in JSON, as pure data.

The spellings are YAGSL's, so a team can bring its deploy directory across unchanged. Each entry says
which vendor library builds the device (so configuration can name the package to install without
importing it), how the device is addressed (which decides what ``id`` means and which ids may collide),
and for motors which motor is fitted (used for free speed and simulation).

The adapters that build the real devices are registered under these same strings in
:mod:`swervelib.devices.registry`; a test keeps the two in step.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final


class Vendor(enum.Enum):
    """A vendor library, with the pip requirement that provides it."""

    REV = "robotpy-rev"
    CTRE_PHOENIX6 = "phoenix6"
    CTRE_PHOENIX5 = "robotpy-ctre"
    NAVX = "robotpy-navx"
    WPILIB = "wpilib"

    @property
    def requirement(self) -> str:
        """The line to add to ``[tool.robotpy] requires`` (and ``pip install``)."""
        return self.value

    @property
    def maker(self) -> str:
        """Who made the device, as its CAN frames say (phoenix5 and phoenix6 are both CTRE)."""
        return _MAKERS.get(self, self.value)


_MAKERS: Final = {
    Vendor.CTRE_PHOENIX6: "CTRE",
    Vendor.CTRE_PHOENIX5: "CTRE",
    Vendor.REV: "REV",
    Vendor.NAVX: "Studica",
}


class Bus(enum.Enum):
    """How a device is addressed, and so what its ``id`` means."""

    CAN = "can"  # id is a CAN id 0..62 on the bus named by `canbus`
    DIO = "dio"  # id is a roboRIO DIO channel
    ANALOG = "analog"  # id is a roboRIO analog input channel
    ATTACHED = "attached"  # plugged into the angle motor controller; id is ignored
    PORT = "port"  # a fixed roboRIO port (SPI, I2C, USB, serial); id is ignored
    NONE = "none"  # no device


class Motor(enum.Enum):
    """Motor models, named after WPILib's ``DCMotor`` factory methods."""

    NEO = "NEO"
    NEO550 = "NEO550"
    VORTEX = "neoVortex"
    KRAKEN_X60 = "krakenX60"
    KRAKEN_X60_FOC = "krakenX60FOC"
    KRAKEN_X44 = "krakenX44"
    FALCON500 = "falcon500"
    FALCON500_FOC = "falcon500FOC"
    CIM = "CIM"
    MINION = "minion"


# Free speed in rotations per second at 12 V (manufacturer figures, as in WPILib's DCMotor).
MOTOR_FREE_SPEED_RPS: Final = MappingProxyType(
    {
        Motor.NEO: 5676 / 60,
        Motor.NEO550: 11000 / 60,
        Motor.VORTEX: 6784 / 60,
        Motor.KRAKEN_X60: 6000 / 60,
        Motor.KRAKEN_X60_FOC: 5800 / 60,
        Motor.KRAKEN_X44: 7758 / 60,
        Motor.FALCON500: 6380 / 60,
        Motor.FALCON500_FOC: 6080 / 60,
        Motor.CIM: 5310 / 60,
        Motor.MINION: 7704 / 60,
    }
)


@dataclass(frozen=True, slots=True)
class MotorType:
    """A motor controller type string and what it means."""

    controller: str  # "sparkmax", "sparkflex", "talonfx", "talonfxs", "talonsrx"
    motor: Motor
    vendor: Vendor
    # A brushed motor on a Spark MAX: its encoder is named in the device's `canbus` (YAGSL's
    # choice), one of BRUSHED_ENCODERS.
    brushed: bool = False

    @property
    def bus(self) -> Bus:
        return Bus.CAN


@dataclass(frozen=True, slots=True)
class BrushedEncoder:
    """An encoder a brushed Spark MAX reads, named in the motor's ``canbus`` (YAGSL's spellings).

    ``data_port``: wired to the data port (REV's alternate encoder mode) rather than the encoder
    port. ``counts_per_revolution`` is what REV's ``countsPerRevolution`` takes (YAGSL's figures).
    """

    counts_per_revolution: int
    data_port: bool


BRUSHED_ENCODERS: Final = MappingProxyType(
    {
        "greyhill_63r256": BrushedEncoder(1024, data_port=False),
        "srx_mag_encoder": BrushedEncoder(4096, data_port=False),
        "throughbore": BrushedEncoder(8192, data_port=False),
        "greyhill_63r256_dataport": BrushedEncoder(1024, data_port=True),
        "srx_mag_encoder_dataport": BrushedEncoder(4096, data_port=True),
        "throughbore_dataport": BrushedEncoder(8192, data_port=True),
    }
)


@dataclass(frozen=True, slots=True)
class EncoderType:
    """An absolute encoder type string and what it means."""

    kind: str  # adapter family, e.g. "cancoder", "spark_attached", "dio_dutycycle"
    vendor: Vendor
    bus: Bus
    # For attached encoders: the angle-motor controllers it can be plugged into.
    requires_controller: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ImuType:
    """An IMU (gyroscope) type string and what it means."""

    kind: str
    vendor: Vendor
    bus: Bus


_REV = Vendor.REV
_P6 = Vendor.CTRE_PHOENIX6
_P5 = Vendor.CTRE_PHOENIX5


MOTOR_TYPES: Final = MappingProxyType(
    {
        "sparkmax": MotorType("sparkmax", Motor.NEO, _REV),
        "sparkmax_neo": MotorType("sparkmax", Motor.NEO, _REV),
        "neo": MotorType("sparkmax", Motor.NEO, _REV),
        "sparkmax_neo550": MotorType("sparkmax", Motor.NEO550, _REV),
        "neo550": MotorType("sparkmax", Motor.NEO550, _REV),
        "sparkmax_vortex": MotorType("sparkmax", Motor.VORTEX, _REV),
        "sparkmax_minion": MotorType("sparkmax", Motor.MINION, _REV),
        "sparkmax_brushed": MotorType("sparkmax", Motor.CIM, _REV, brushed=True),
        "sparkflex": MotorType("sparkflex", Motor.VORTEX, _REV),
        "sparkflex_vortex": MotorType("sparkflex", Motor.VORTEX, _REV),
        "vortex": MotorType("sparkflex", Motor.VORTEX, _REV),
        "sparkflex_neo": MotorType("sparkflex", Motor.NEO, _REV),
        "sparkflex_neo550": MotorType("sparkflex", Motor.NEO550, _REV),
        "sparkflex_minion": MotorType("sparkflex", Motor.MINION, _REV),
        "talonfx": MotorType("talonfx", Motor.KRAKEN_X60, _P6),
        "krakenx60": MotorType("talonfx", Motor.KRAKEN_X60, _P6),
        "krakenx60foc": MotorType("talonfx", Motor.KRAKEN_X60_FOC, _P6),
        "krakenx44": MotorType("talonfx", Motor.KRAKEN_X44, _P6),
        "falcon": MotorType("talonfx", Motor.FALCON500, _P6),
        "falcon500": MotorType("talonfx", Motor.FALCON500, _P6),
        "falcon500foc": MotorType("talonfx", Motor.FALCON500_FOC, _P6),
        "talonfxs_neo": MotorType("talonfxs", Motor.NEO, _P6),
        "talonfxs_neo550": MotorType("talonfxs", Motor.NEO550, _P6),
        "talonfxs_vortex": MotorType("talonfxs", Motor.VORTEX, _P6),
        "talonfxs_minion": MotorType("talonfxs", Motor.MINION, _P6),
        "talonsrx": MotorType("talonsrx", Motor.CIM, _P5),
    }
)

_SPARKMAX = ("sparkmax",)
_SPARKFLEX = ("sparkflex",)
_TALONSRX = ("talonsrx",)
_TALONFXS = ("talonfxs",)

ENCODER_TYPES: Final = MappingProxyType(
    {
        "none": EncoderType("none", Vendor.WPILIB, Bus.NONE),
        "cancoder": EncoderType("cancoder", _P6, Bus.CAN),
        "integrated": EncoderType("spark_attached", _REV, Bus.ATTACHED, _SPARKMAX),
        "attached": EncoderType("spark_attached", _REV, Bus.ATTACHED, _SPARKMAX),
        # YAGSL reads a Redux Canandmag (Canandcoder) wired to the Spark's data port like any other
        # duty-cycle encoder there; only the CAN variants need Redux's own library.
        "canandmag": EncoderType("spark_attached", _REV, Bus.ATTACHED, _SPARKMAX),
        "canandcoder": EncoderType("spark_attached", _REV, Bus.ATTACHED, _SPARKMAX),
        "sparkflex_integrated": EncoderType("spark_attached", _REV, Bus.ATTACHED, _SPARKFLEX),
        "sparkflex_attached": EncoderType("spark_attached", _REV, Bus.ATTACHED, _SPARKFLEX),
        "sparkflex_canandmag": EncoderType("spark_attached", _REV, Bus.ATTACHED, _SPARKFLEX),
        "sparkflex_canandcoder": EncoderType("spark_attached", _REV, Bus.ATTACHED, _SPARKFLEX),
        "sparkmax_analog": EncoderType("spark_analog", _REV, Bus.ATTACHED, _SPARKMAX),
        "sparkmax_analog5v": EncoderType("spark_analog5v", _REV, Bus.ATTACHED, _SPARKMAX),
        "throughbore": EncoderType("dio_dutycycle", Vendor.WPILIB, Bus.DIO),
        "dutycycle": EncoderType("dio_dutycycle", Vendor.WPILIB, Bus.DIO),
        "ctre_mag": EncoderType("dio_dutycycle", Vendor.WPILIB, Bus.DIO),
        "rev_hex": EncoderType("dio_dutycycle", Vendor.WPILIB, Bus.DIO),
        "am_mag": EncoderType("dio_dutycycle", Vendor.WPILIB, Bus.DIO),
        "thrifty": EncoderType("analog", Vendor.WPILIB, Bus.ANALOG),
        "ma3": EncoderType("analog", Vendor.WPILIB, Bus.ANALOG),
        "analog": EncoderType("analog", Vendor.WPILIB, Bus.ANALOG),
        "talonsrx_pwm": EncoderType("talonsrx_pwm", _P5, Bus.ATTACHED, _TALONSRX),
        "talonsrx_analog": EncoderType("talonsrx_analog", _P5, Bus.ATTACHED, _TALONSRX),
        # An SRX Mag Encoder on a Talon SRX of its own (not the angle motor), at CAN id `id`.
        "srxmag_standalone": EncoderType("srxmag_standalone", _P5, Bus.CAN),
        "talonfxs_analog": EncoderType("talonfxs_analog", _P6, Bus.ATTACHED, _TALONFXS),
    }
)

IMU_TYPES: Final = MappingProxyType(
    {
        "pigeon2": ImuType("pigeon2", _P6, Bus.CAN),
        "pigeon": ImuType("pigeon", _P5, Bus.CAN),
        "pigeon_via_talonsrx": ImuType("pigeon_via_talonsrx", _P5, Bus.CAN),
        "navx": ImuType("navx_spi", Vendor.NAVX, Bus.PORT),
        "navx_spi": ImuType("navx_spi", Vendor.NAVX, Bus.PORT),
        "navx_i2c": ImuType("navx_i2c", Vendor.NAVX, Bus.PORT),
        "navx_usb": ImuType("navx_usb", Vendor.NAVX, Bus.PORT),
        "navx_mxp_serial": ImuType("navx_mxp_serial", Vendor.NAVX, Bus.PORT),
        "navx3": ImuType("navx3", Vendor.NAVX, Bus.CAN),
        "adis16448": ImuType("adis16448", Vendor.WPILIB, Bus.PORT),
        "adis16470": ImuType("adis16470", Vendor.WPILIB, Bus.PORT),
        "adxrs450": ImuType("adxrs450", Vendor.WPILIB, Bus.PORT),
        "analog": ImuType("analog_gyro", Vendor.WPILIB, Bus.ANALOG),
    }
)

# Valid `id` ranges per bus (inclusive). CAN ids are 0..62 for both REV and CTRE devices. The
# roboRIO has 31 DIO channels (0-9 on board, 10-25 on the MXP, 26-30 on the SPI port; WPILib
# refuses channel 31) and 8 analog inputs (0-3 on board, 4-7 on the MXP).
ID_RANGES: Final = MappingProxyType(
    {
        Bus.CAN: (0, 62),
        Bus.DIO: (0, 30),
        Bus.ANALOG: (0, 7),
    }
)

# Type strings YAGSL knows that swervelib does not build, with the reason, so the error is useful.
NO_PACKAGE: Final = "no RobotPy package"
_NO_PULSAR: Final = "YAGSL cannot build a Pulsar motor either (WPILib has no model of it)"
UNSUPPORTED: Final = MappingProxyType(
    {
        "nova_neo": NO_PACKAGE,
        "nova_neo550": NO_PACKAGE,
        "nova_vortex": NO_PACKAGE,
        "nova_minion": NO_PACKAGE,
        "thrifty_nova": NO_PACKAGE,
        "thrifty_nova_rev": NO_PACKAGE,
        "thrifty_nova_redux": NO_PACKAGE,
        "thrifty_nova_srx_mag": NO_PACKAGE,
        "canandmag_can": NO_PACKAGE,
        "canandcoder_can": NO_PACKAGE,
        "canandgyro": NO_PACKAGE,
        "sparkmax_pulsar": _NO_PULSAR,
        "sparkflex_pulsar": _NO_PULSAR,
        "talonfxs_pulsar": _NO_PULSAR,
        "nova_pulsar": _NO_PULSAR,
        "navx_onboard": "YAGSL's generator offers it but no parser accepts it; use `navx`",
    }
)
