"""The range of every number in the configuration: what is an error, what only a warning.

An **error** is a value the drive cannot use: a vendor library refuses it or silently changes it,
WPILib's arithmetic overflows on it, or it is physically impossible for an FRC swerve robot by a
wide margin. A **warning** is a value that works but no FRC robot uses (usually a unit mix-up).
Each bound carries its reason; the README's JSON tables list the same numbers.

Found by building real drives in simulation on configurations at and beyond each bound
(``SwerveDrive.from_directory``, every vendor): phoenix6 stores every setting as a 32-bit float and
refuses a whole configuration holding a number it cannot represent (below 1.2e-38 or above 3.4e38,
``INVALID_PARAM_VALUE``), and silently caps others (``SensorToMechanismRatio`` at 1000, the supply
current lower limit at 500 A, ramp periods at about 1 s; kS is fixed point in 1/1024 V steps that
wraps near ±512 V: 510 V reads back as -2 V);
REV stores 32-bit floats (1e-300 becomes 0, then NaN readings; 1e39 becomes infinity); the Spark's
and the Talon SRX's current limits are C ``int`` s (2**31 raises ``TypeError``); the simulation's
motor model divides by inertias that underflow to 0. Pure Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


def number_text(value: float) -> str:
    """A bound as written in messages and the README: ``500``, ``0.001``, ``1e+06``."""
    return f"{value:g}"


@dataclass(frozen=True, slots=True)
class Range:
    """Accepted values of one number: ``low``..``high`` inclusive, errors outside (the reasons are
    ``too_low`` and ``too_high``); ``0`` is accepted too when ``zero`` (it means "not given" or
    "off"). ``signed``: the bounds apply to the size, either sign is fine. Warnings below
    ``warn_low`` (``unusually_low``) and above ``warn_high`` (``unusually_high``)."""

    low: float
    high: float
    unit: str
    too_low: str
    too_high: str
    warn_low: float | None = None
    warn_high: float | None = None
    unusually_low: str = ""
    unusually_high: str = ""
    zero: bool = False
    signed: bool = False

    def _unit(self) -> str:
        return f" {self.unit}" if self.unit else ""

    def expected(self) -> str:
        """``0, or 0.001 to 10 seconds``: what an error asks for."""
        low, high = number_text(self.low), number_text(self.high)
        if not self.signed:
            span = f"{low} to {high}{self._unit()}"
        elif self.low == 0:
            span = f"-{high} to {high}{self._unit()}"
        else:
            span = f"{low} to {high}{self._unit()} either way (or -{high} to -{low})"
        return f"0, or {span}" if self.zero else span

    def usual(self) -> str:
        """``5 to 120 amperes``: what a warning calls usual."""
        size = " either way" if self.signed else ""
        if self.warn_low is None:
            return f"at most {number_text(self.warn_high or 0)}{self._unit()}{size}"
        if self.warn_high is None:
            return f"at least {number_text(self.warn_low)}{self._unit()}{size}"
        low, high = number_text(self.warn_low), number_text(self.warn_high)
        return f"{low} to {high}{self._unit()}{size}"

    def _size(self, value: float) -> float:
        return abs(value) if self.signed else value

    def error(self, value: float) -> str | None:
        """Why ``value`` (finite) is an error, or None when it is accepted."""
        if value == 0 and self.zero:
            return None
        size = self._size(value)
        if size < self.low:
            return self.too_low
        if size > self.high:
            return self.too_high
        return None

    def accepts(self, value: float) -> bool:
        """Whether ``value`` (finite) is not an error (NaN is not accepted)."""
        return value == value and self.error(value) is None

    def warning(self, value: float) -> str | None:
        """Why an accepted ``value`` is unusual, or None (0 given as "off" never is)."""
        if value == 0 and self.zero:
            return None
        size = self._size(value)
        if self.warn_low is not None and size < self.warn_low:
            return self.unusually_low
        if self.warn_high is not None and size > self.warn_high:
            return self.unusually_high
        return None


TINY = "no setting is that small: 0 means none (phoenix6 refuses a whole configuration holding a "
TINY += "number under 1.2e-38 and REV turns it into 0)"

# -- physicalproperties.json ------------------------------------------------------------------------
CURRENT_LIMIT: Final = Range(
    1,
    500,
    "amperes",
    too_low="Spark and Talon SRX take whole amperes, and under 1 A rounds to 0, which turns a "
    "Talon SRX's limit off",
    too_high="phoenix6 takes at most 500 A and no FRC motor draws more (the Spark and Talon SRX "
    "take a C int: 2**31 crashes them)",
    warn_low=5,
    warn_high=120,
    unusually_low="under 5 A a motor can hardly turn a module",
    unusually_high="above the 120 A main breaker a current limit protects nothing",
)
RAMP_RATE: Final = Range(
    0.001,
    10,
    "seconds",
    too_low="0 means no ramp; a ramp shorter than the controllers' 1 ms loop is none (write 0), "
    "and phoenix6 refuses numbers under 1.2e-38",
    too_high="a robot taking over 10 s to reach full output cannot be driven",
    warn_high=1,
    unusually_high="phoenix6 Talons cap ramps at 1 s (longer ones are silently shortened), and a "
    "ramp that long makes driving and steering sluggish",
    zero=True,
)
OPTIMAL_VOLTAGE: Final = Range(
    1,
    16,
    "volts",
    too_low="the motors never get more than this voltage: under 1 V the robot cannot drive (and "
    "phoenix6 refuses a configuration holding a number under 1.2e-38)",
    too_high="voltage compensation and phoenix6's peak output take at most 16 V",
    warn_low=8,
    warn_high=13,
    unusually_low="compensating to less than 8 V wastes most of the motors' power",
    unusually_high="an FRC battery gives at most 13 V: compensation to more never reaches its "
    "target",
)
WHEEL_GRIP: Final = Range(
    0.01,
    10,
    "",
    too_low="no tyre grips with less than 1 % of its load",
    too_high="no tyre grips with more than 10 times its load",
    warn_low=0.5,
    warn_high=2,
    unusually_low="FRC treads on carpet grip with 0.8-1.3",
    unusually_high="FRC treads on carpet grip with 0.8-1.3",
)
FRICTION: Final = Range(
    0,
    16,
    "volts",
    too_low="friction cannot push a motor along",
    too_high="the simulated motor could never move against more than the 16 V any motor is given",
    warn_high=2,
    unusually_high="swerve modules lose 0.1-0.5 V to friction",
)
STEER_INERTIA: Final = Range(
    1e-6,
    10,
    "kg*m^2",
    too_low="no module turns that easily, and the simulation's motor model divides by it",
    too_high="no swerve module is that hard to turn",
    warn_low=0.001,
    warn_high=0.5,
    unusually_low="swerve modules have 0.004-0.05 kg*m^2",
    unusually_high="swerve modules have 0.004-0.05 kg*m^2",
)
ROBOT_MASS: Final = Range(
    1,
    1000,
    "pounds",
    too_low="no robot weighs under 1 lb, and the simulation's motor model divides by it",
    too_high="FRC robots weigh at most about 150 lb with battery and bumpers",
    warn_low=20,
    warn_high=200,
    unusually_low="robotMass is in pounds (YAGSL's default 110.2311 lb is 50 kg)",
    unusually_high="robotMass is in pounds (YAGSL's default 110.2311 lb is 50 kg)",
)
# -- the drive feedforward (pidfproperties.json drive.feedforward, SI: volts per m/s, per m/s²) -----
FEEDFORWARD_KS: Final = Range(
    0,
    6,
    "volts",
    too_low="kS is the voltage that just overcomes friction: never negative",
    too_high="a drive that needs 6 V to start moving would barely move at all",
    warn_high=1.5,
    unusually_high="drive modules need 0.05-0.5 V to break friction",
)
FEEDFORWARD_KV: Final = Range(
    0.1,
    100,
    "volts per m/s",
    too_low="below 0.1 V per m/s the wheel's free speed would be over 100 m/s",
    too_high="above 100 V per m/s the robot could not reach 0.12 m/s",
    warn_low=1,
    warn_high=6,
    unusually_low="swerve drives need 1.5-4 V per m/s (12 V over a 3-8 m/s free speed)",
    unusually_high="swerve drives need 1.5-4 V per m/s (12 V over a 3-8 m/s free speed)",
)
FEEDFORWARD_KA: Final = Range(
    0,
    20,
    "volts per m/s^2",
    too_low="kA is the voltage per unit of acceleration: never negative",
    too_high="above 20 V per m/s^2 the robot could not accelerate at 0.6 m/s^2",
    warn_high=2,
    unusually_high="swerve drives need 0.05-1 V per m/s^2",
)

ROBOT_MOMENT_OF_INERTIA: Final = Range(
    0.05,
    200,
    "kg*m^2",
    too_low="a robot is far harder to turn than that: 0.05 kg*m^2 is a 2 kg plate",
    too_high="a 70 kg robot 1.3 m across has about 20 kg*m^2",
    warn_low=0.5,
    warn_high=30,
    unusually_low="FRC robots have 2-12 kg*m^2 (it is kg*m^2, not lb*in^2)",
    unusually_high="FRC robots have 2-12 kg*m^2 (it is kg*m^2, not lb*in^2)",
)

# -- conversion factors (physicalproperties.json or a module file) ---------------------------------
ANGLE_GEAR_RATIO: Final = Range(
    0.1,
    1000,
    "motor rotations per module rotation",
    too_low="the module would turn 10 times per motor rotation",
    too_high="phoenix6 takes a SensorToMechanismRatio of at most 1000 (it silently caps larger "
    "ones, and the module angle then reads wrong)",
    warn_low=1,
    warn_high=100,
    unusually_low="steering is geared down, 12:1 to 50:1: is the ratio upside down?",
    unusually_high="swerve steering reductions are 12:1 to 50:1",
    zero=True,
)
ANGLE_FACTOR: Final = Range(
    0.36,
    3600,
    "degrees per motor rotation",
    too_low="360 / factor is the steering gear ratio, at most 1000 (see gearRatio)",
    too_high="360 / factor is the steering gear ratio, at least 0.1 (see gearRatio)",
    warn_low=3.6,
    warn_high=360,
    unusually_low="swerve steering turns a module 7-30 degrees per motor rotation",
    unusually_high="swerve steering turns a module 7-30 degrees per motor rotation: is it "
    "upside down?",
    zero=True,
)
DRIVE_GEAR_RATIO: Final = Range(
    0.1,
    1000,
    "motor rotations per wheel rotation",
    too_low="no drive is geared up 10 times",
    too_high="no drive is geared down over 1000:1",
    zero=True,
)
WHEEL_DIAMETER: Final = Range(
    0.1,
    100,
    "inches",
    too_low="no wheel is under 0.1 in",
    too_high="no wheel is over 100 in",
    warn_low=2,
    warn_high=8,
    unusually_low="FRC swerve wheels are 3-6 in: diameter is in inches (4 in is 0.1016 m)",
    unusually_high="FRC swerve wheels are 3-6 in",
    zero=True,
)
DRIVE_METRES_PER_ROTATION: Final = Range(
    0.001,
    1,
    "metres per motor rotation",
    too_low="below 1 mm per motor rotation a wheel runs under 0.2 m/s with any FRC "
    "motor, and phoenix6 takes at most 1000 motor rotations per metre (SensorToMechanismRatio; it "
    "silently caps more, and distances then read wrong)",
    too_high="a wheel going 1 m per motor rotation would run at 100 m/s",
    zero=True,
)
FREE_SPEED: Final = Range(
    0,
    float("inf"),
    "m/s",
    too_low="",
    too_high="",
    warn_low=1,
    warn_high=10,
    unusually_low="FRC swerve modules run 3-6 m/s: check the gear ratio, and that the diameter is "
    "in inches",
    unusually_high="FRC swerve modules run 3-6 m/s: check the gear ratio, and that the diameter "
    "is in inches",
)

# -- module files ------------------------------------------------------------------------------------
LOCATION: Final = Range(
    0,
    100,
    "inches",
    too_low="",
    too_high="no FRC robot has a wheel 100 in from its centre (is it in millimetres?), and "
    "WPILib's kinematics turn huge distances into NaN",
    warn_high=30,
    unusually_high="the FRC frame perimeter is at most 120 in, so a wheel is within 30 in of the "
    "centre",
    signed=True,
)
MIN_CENTRE_DISTANCE_IN: Final = 1.0
MIN_MODULE_SPACING_IN: Final = 2.0
ABSOLUTE_ENCODER_OFFSET: Final = Range(
    0,
    36000,
    "degrees",
    too_low="",
    too_high="an offset is an angle within one turn; 100 turns or more is a mix-up, and "
    "overflows the Talon SRX simulation's integer sensor units",
    signed=True,
)

# -- swervedrive.json --------------------------------------------------------------------------------
# maxSpeed must be at least this fraction of the fastest module's free speed: below 1 % of its
# free speed a module holds its angle rather than steer (swervelib.drive.module's anti-jitter).
MIN_MAX_SPEED_FRACTION: Final = 0.02

# -- pidfproperties.json and controllerproperties.json ------------------------------------------------
GAIN: Final = Range(
    1e-9,
    1e6,
    "",
    too_low=TINY,
    too_high="above 1e+06 the output saturates at any error, in any vendor's units",
    zero=True,
)
FEEDFORWARD: Final = Range(
    1e-9,
    100,
    "",
    too_low=TINY,
    too_high="phoenix6's kS wraps around near 512 V either way (510 V becomes -2 V), and no "
    "feedforward needs more than 100 in any vendor's units",
    zero=True,
    signed=True,
)
# pidfproperties.json angle.s: the Spark's static feedforward (volts), added by the position
# error's sign at any error, however small: about the voltage that just turns the steering.
STEER_KS: Final = Range(
    0,
    3,
    "volts",
    too_low="s is the voltage that just overcomes the steering's friction: never negative",
    too_high="s is added at any error, however small: 3 V or more would shake the wheel about "
    "its set-point",
    warn_high=1,
    unusually_high="steering motors need 0.05-0.5 V to break friction; s above that makes the "
    "wheel chatter about its set-point",
)
OUTPUT_LIMIT: Final = Range(
    0.01,
    1,
    "",
    too_low="outputs are fractions of full output: under 1 % the motor cannot move",
    too_high="outputs are fractions of full output",
    zero=True,
    signed=True,
)

# -- device descriptors ----------------------------------------------------------------------------
# An id that is ignored (attached encoders, navX and ADIS ports) must still fit the C int every
# vendor call takes.
IGNORED_ID_RANGE: Final = (-(2**31), 2**31 - 1)
MAX_CANBUS_NAME: Final = 100
