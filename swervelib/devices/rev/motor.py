"""REV Spark MAX / Spark FLEX driving a brushless motor (NEO, NEO 550, Vortex, Minion), or a Spark
MAX driving a brushed one (``sparkmax_brushed``, a CIM).

A brushed motor reads the quadrature encoder its configuration names (``DeviceConfig.
brushed_encoder``, YAGSL's ``canbus``): on the encoder port (``getEncoder()``) or on the data port
(REV's alternate encoder mode, ``getAlternateEncoder()``, which is then the feedback sensor), with
its counts per revolution, the same conversion as a brushless motor's encoder, and ``inverted``
with the motor. A brushed angle motor with no encoder steers on the absolute encoder on its data
port, and :class:`DataPortAngle` stands in for its own encoder.

Configuration uses REVLib's 2025+ API: one ``SparkMaxConfig`` / ``SparkFlexConfig`` applied with
``ResetMode.kResetSafeParameters`` (so nothing stale from an earlier program survives) and
``PersistMode.kNoPersistParameters`` (flash is never written at start-up).

Units on the controller, set by the encoder conversion factors: the angle motor works in degrees
of module rotation (deg/s), the drive motor in metres (m/s). The on-controller PID therefore takes
its setpoints in those units, and its gains are in **duty cycle per unit of error** (REV's meaning).
``PIDF.f`` keeps YAGSL's meaning, duty cycle per unit/s of velocity setpoint; REVLib 2026 takes the
velocity gain kV in volts, so it is sent as ``f × optimal voltage`` (voltage compensation is on at
that voltage, so both mean the same output).

An angle motor's ``PIDF.s`` (swervelib's ``angle.s``, volts) is the Spark's static feedforward
``closedLoop.feedForward.kS``; drive motors get none. Measured in REV's simulator (REVLib 2026), the
position loop adds ±kS by the sign of the set-point less the sensor's reading taken *before*
wrapping (and +kS at exactly 0), while P acts on the wrapped error: a set-point written in [0, 360)
with the motor's continuous encoder at 725° would push against the turn. With ``s`` set,
:meth:`SparkMotor.set_angle` therefore sends the set-point within half a turn of the feedback
sensor's last reading (motor encoder, or the absolute encoder on the data port), where the wrapped
and unwrapped errors agree, whichever the device uses; without it the set-point is sent as before.

An angle motor steered on its absolute encoder (``settings.steer_feedback`` is
``SteerFeedback.ABSOLUTE_ENCODER``) closes its position loop on the encoder on its data port
(``closedLoop.setFeedbackSensor(kAbsoluteEncoder)``, position wrapping over 0–360°). That encoder is
configured here, in the same reset-safe configuration as the loop (degrees, ``inverted`` =
``absoluteEncoderInverted``, ``zeroOffset`` 0): it reads the module's encoder degrees after
inversion, *before* the offset, exactly what the attached-encoder adapter reports as
``Raw Absolute Encoder``. The offset stays in software: ``set_angle`` takes degrees in the frame of
the controller's feedback sensor, and the module sends ``module angle + offset`` (the Spark wraps).
Nothing is written to the Spark's ``zeroOffset``, so a reading never depends on REV's convention for
combining it with ``inverted``, and a changed offset needs no device configuration. The gains keep
their meaning (duty cycle per degree of module rotation: the encoder turns once per module turn).
The motor's own encoder still reads degrees of module rotation through the steering gear ratio.

Simulation (``SparkMotor.sim``) uses ``rev.SparkMaxSim`` / ``rev.SparkFlexSim``. Two REV simulator
behaviours are corrected in the hook (see ``SparkMotorSim``): the simulator ignores ``inverted``
(everything it shows is in the controller's user frame), and only ``SparkSim.setPosition`` survives
the next ``iterate()``, so the hook keeps the controller's position itself and writes it every step.
With the absolute encoder as feedback sensor, REV's simulator does run the closed loop on it (with
position wrapping), but ``iterate()`` integrates the velocity it is given into that encoder and no
longer moves the motor's own encoder; the hook therefore hands ``iterate()`` the encoder's reading
as the physics last wrote it (through ``SparkAttachedEncoderSim``) and moves the motor's encoder
itself, which is what the real controller sees. REV's current model (and so its smart current
limit) reads the velocity given to ``iterate()`` through the feedback sensor's factor, which would
make the module's speed look like a stalled motor; the hook gives it the rotor's speed instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

import rev
import wpilib
from wpimath.system.plant import DCMotor

from swervelib.angles import wrap_180
from swervelib.config.catalog import BRUSHED_ENCODERS, BrushedEncoder
from swervelib.config.model import PIDF, SteerFeedback
from swervelib.devices.faults import ConfigCalls, FaultAlert
from swervelib.devices.guard import MAX_POSITION, SetpointGuard
from swervelib.devices.interfaces import MotorSim, ReadingWatch, SwerveMotor
from swervelib.devices.rev.pool import POOL
from swervelib.devices.seeding import PendingSeed
from swervelib.devices.settings import MotorSettings, Role

CONTROLLERS: Final = ("sparkmax", "sparkflex")

# Gains used when pidfproperties.json is absent (duty cycle per degree / per m/s of error).
DEFAULT_ANGLE_PIDF: Final = PIDF(p=0.01)
DEFAULT_DRIVE_PIDF: Final = PIDF(p=0.1)

# Status frame periods (ms): fresh position/velocity every loop, faults visible within a loop.
STATUS_PERIOD_MS: Final = 20
APPLIED_OUTPUT_PERIOD_MS: Final = 10
# An absolute encoder on the data port reads degrees (one turn of the encoder = 360).
DEGREES_PER_ROTATION: Final = 360.0
# A reading this close to a seed (degrees or metres: the encoder's units) shows it.
SEED_MATCH: Final = 1e-3

_OK: Final = rev.REVLibError.kOk
_VOLTAGE: Final = rev.SparkLowLevel.ControlType.kVoltage
_VELOCITY: Final = rev.SparkLowLevel.ControlType.kVelocity
_POSITION: Final = rev.SparkLowLevel.ControlType.kPosition
_SLOT0: Final = rev.ClosedLoopSlot.kSlot0
_FF_VOLTS: Final = rev.SparkClosedLoopController.ArbFFUnits.kVoltage
_FAULT_FIELDS: Final = (
    "can",
    "sensor",
    "motorType",
    "gateDriver",
    "temperature",
    "escEeprom",
    "firmware",
    "other",
)


_NO_FAULTS: Final[tuple[list[str], list[str]]] = ([], [])


def fault_names(faults: Any) -> list[str]:
    """The names of the bits set in a ``SparkBase.Faults``."""
    return [name for name in _FAULT_FIELDS if getattr(faults, name)]


def _error_name(error: Any) -> str:
    return str(getattr(error, "name", error))


ANSWER: Final = "answer"  # the problems key of a Spark that does not answer


def note_reading(problems: dict[str, str], what: str, value: float) -> None:
    """Record why a reading was not used (NaN or infinite) under ``what``."""
    problems[what] = f"{what} reads {value}"


def configure_absolute_encoder(config: Any, inverted: bool) -> None:
    """The data-port absolute encoder's part of a Spark config: degrees in [0, 360) after
    ``inverted``, no zero offset on the device (the library subtracts the offset), and its position
    and velocity sent every :data:`STATUS_PERIOD_MS`."""
    absolute = config.absoluteEncoder
    absolute.positionConversionFactor(DEGREES_PER_ROTATION)
    absolute.velocityConversionFactor(DEGREES_PER_ROTATION / 60.0)  # native unit is rpm
    absolute.inverted(inverted)
    absolute.zeroOffset(0.0)  # nothing stale on the device either
    absolute.zeroCentered(False)  # readings in [0, 360)
    signals = config.signals
    signals.absoluteEncoderPositionPeriodMs(STATUS_PERIOD_MS)
    signals.absoluteEncoderPositionAlwaysOn(True)
    signals.absoluteEncoderVelocityPeriodMs(STATUS_PERIOD_MS)
    signals.absoluteEncoderVelocityAlwaysOn(True)


def configure_brushed_encoder(config: Any, encoder: BrushedEncoder, settings: MotorSettings) -> Any:
    """A brushed motor's quadrature encoder in a Spark MAX config, in the same units as a brushless
    motor's: its counts per revolution, the conversion, and ``inverted`` with the motor (a
    quadrature encoder does not follow the motor's inversion by itself; YAGSL inverts it for drive
    motors only, swervelib for both, so an inverted angle motor does not fight its own encoder).
    Returns the feedback sensor it is (REV's alternate encoder mode on the data port)."""
    if not encoder.data_port:
        config.encoder.countsPerRevolution(encoder.counts_per_revolution)
        config.encoder.inverted(settings.inverted)
        return rev.FeedbackSensor.kPrimaryEncoder
    alternate = config.alternateEncoder
    alternate.setSparkMaxDataPortConfig()
    alternate.countsPerRevolution(encoder.counts_per_revolution)
    alternate.inverted(settings.inverted)
    alternate.positionConversionFactor(settings.units_per_rotation)
    alternate.velocityConversionFactor(settings.units_per_rotation / 60.0)
    signals = config.signals
    signals.externalOrAltEncoderPosition(STATUS_PERIOD_MS)
    signals.externalOrAltEncoderPositionAlwaysOn(True)
    signals.externalOrAltEncoderVelocity(STATUS_PERIOD_MS)
    signals.externalOrAltEncoderVelocityAlwaysOn(True)
    return rev.FeedbackSensor.kAlternateOrExternalEncoder


class DataPortAngle:
    """The "own encoder" of a brushed angle motor that has none: the absolute encoder on its data
    port, unwrapped into a continuous position and shifted to what it was last seeded with (so it
    reads degrees of module rotation, like any angle motor's encoder). It cannot tell that the
    absolute encoder froze: it is that encoder."""

    def __init__(self, absolute: Any) -> None:
        self._absolute = absolute
        self._last: float | None = None
        self._unwrapped = 0.0
        self._shift = 0.0

    def getPosition(self) -> float:  # REVLib's encoder API names
        reading = float(self._absolute.getPosition())
        if reading - reading != 0.0:  # NaN or infinite: the motor keeps its last position
            return reading
        if self._last is not None:
            self._unwrapped += wrap_180(reading - self._last)
        self._last = reading
        return self._unwrapped + self._shift

    def getVelocity(self) -> float:  # REVLib's encoder API names
        return float(self._absolute.getVelocity())

    def setPosition(self, position: float) -> Any:  # REVLib's encoder API names
        self.getPosition()  # catch up with the encoder (a bad reading leaves the last good one)
        self._shift = position - self._unwrapped
        return _OK


def answer_problem(spark: Any, problems: dict[str, str]) -> None:
    """Record (or clear) a Spark that does not answer, from the result of its last call."""
    error = spark.getLastError()
    if error == _OK:
        problems.pop(ANSWER, None)
    else:
        problems[ANSWER] = f"not answering ({_error_name(error)})"


class SparkMotor(ReadingWatch, SwerveMotor):
    """A Spark MAX or Spark FLEX (``settings.motor_type.controller``) with a brushless motor.

    Besides :class:`SwerveMotor`, the attached-encoder adapters use :attr:`spark`,
    :attr:`controller`, :meth:`new_config` and :meth:`apply_extra_config`.
    """

    __slots__ = (
        "_last_position",
        "_last_velocity",
        "_max_speed",
        "_max_volts",
        "_problems",
        "_read_feedback",
        "_read_position",
        "_read_velocity",
        "_seed",
        "_set_setpoint",
    )

    def __init__(self, settings: MotorSettings) -> None:
        controller = settings.motor_type.controller
        if controller not in CONTROLLERS:
            raise ValueError(
                f"{settings.label}: SparkMotor drives Spark MAX / Spark FLEX controllers, "
                f"not `{controller}` (type `{settings.device.type}`)"
            )
        self.settings = settings
        self.label = settings.label
        self.controller: str = controller
        # The absolute encoder on the data port closes the position loop (angle motors only).
        self.absolute_feedback: bool = (
            settings.role is Role.ANGLE
            and settings.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER
        )
        self.dc_motor: DCMotor = getattr(DCMotor, settings.motor_type.motor.value)(1)
        brushed = settings.motor_type.brushed
        # A brushed motor reads the encoder named in its configuration (None: it has none).
        self.brushed_encoder: BrushedEncoder | None = (
            BRUSHED_ENCODERS.get(settings.device.brushed_encoder or "") if brushed else None
        )
        self.spark: Any = POOL.spark(controller, settings.device.id, brushed)
        self._encoder: Any
        if self.brushed_encoder is not None and self.brushed_encoder.data_port:
            self._encoder = self.spark.getAlternateEncoder()
        elif brushed and self.brushed_encoder is None:
            if not self.absolute_feedback:  # the loader never allows it; a hand-made config might
                raise ValueError(
                    f"{settings.label}: a brushed Spark MAX with no encoder named can only be an "
                    "angle motor steering on the absolute encoder on its data port"
                )
            self._encoder = DataPortAngle(self.spark.getAbsoluteEncoder())
        else:
            self._encoder = self.spark.getEncoder()
        # REVLib's bound methods, held: the per-loop paths load one into a local and call that
        # (``read = self._read_position; read()``). Called through ``self`` directly, CPython
        # 3.11 cannot specialise the lookup (a method name on the class first, then the
        # instance) and does it the slow, generic way every call.
        self._read_position = self._encoder.getPosition
        self._read_velocity = self._encoder.getVelocity
        self._pid: Any = self.spark.getClosedLoopController()
        self._set_setpoint = self._pid.setSetpoint
        # With a static feedforward (angle motors only), set_angle reads the feedback sensor.
        self._read_feedback: Callable[[], float] | None = None
        if settings.role is Role.ANGLE and _gains(settings).s != 0.0:
            self._read_feedback = (
                self.spark.getAbsoluteEncoder().getPosition
                if self.absolute_feedback
                else self._read_position
            )
        self.guard = SetpointGuard(settings)
        # its fixed limits, also here: set_velocity's in-range test reads no other object
        self._max_speed, self._max_volts = self.guard.max_speed, self.guard.max_volts
        self._alert = FaultAlert(settings.label)
        self._sticky_alert = FaultAlert(settings.label, wpilib.Alert.AlertType.kWarning)
        self._sign = -1.0 if settings.inverted else 1.0
        self._problems: dict[str, str] = {}
        self._last_position = 0.0
        self._last_velocity = 0.0
        self._seed: PendingSeed | None = None  # until the readings show it
        self._sim: SparkMotorSim | None = None
        self.last_faults: tuple[list[str], list[str]] = _NO_FAULTS
        self.config_calls = ConfigCalls(self.label)  # what did not apply, on an Alert

        self.configured = self.config_calls.apply(
            "motor configuration",
            lambda: (
                self.spark.configure(
                    self._full_config(),
                    rev.ResetMode.kResetSafeParameters,
                    rev.PersistMode.kNoPersistParameters,
                )
                == _OK
            ),
        )
        # Sticky faults left from before this program started say nothing about now.
        self.config_calls.apply("clearing sticky faults", lambda: self.spark.clearFaults() == _OK)
        # A reused Spark (see pool.py) must not keep an earlier program's setpoint.
        self.set_voltage(0.0)

    # --- configuration -------------------------------------------------------------------------

    def new_config(self) -> Any:
        """An empty config object of this controller's kind (``SparkMaxConfig``/``SparkFlexConfig``)."""
        return rev.SparkMaxConfig() if self.controller == "sparkmax" else rev.SparkFlexConfig()

    def apply_extra_config(self, config: Any, what: str, *, retry: bool = False) -> bool:
        """Apply ``config`` on top of the current one (no reset, no flash write), with retries
        (:meth:`ConfigCalls.apply`; ``retry``: kept for the health check if it did not apply)."""
        return self.config_calls.apply(
            what,
            lambda: (
                self.spark.configure(
                    config,
                    rev.ResetMode.kNoResetSafeParameters,
                    rev.PersistMode.kNoPersistParameters,
                )
                == _OK
            ),
            retry=retry,
        )

    def _full_config(self) -> Any:
        s = self.settings
        angle = s.role is Role.ANGLE
        pidf = _gains(s)
        config = self.new_config()
        config.inverted(s.inverted)
        config.setIdleMode(_idle_mode(s.brake))
        config.smartCurrentLimit(max(1, round(s.current_limit_a)))
        config.openLoopRampRate(s.ramp_rate_s)
        config.closedLoopRampRate(s.ramp_rate_s)
        if not wpilib.RobotBase.isSimulation():
            # REVLib's simulator breaks with voltage compensation on (the motor current becomes
            # garbage and the output stays 0); the simulated battery is at nominal voltage anyway.
            config.voltageCompensation(s.optimal_voltage)
        config.encoder.positionConversionFactor(s.units_per_rotation)
        config.encoder.velocityConversionFactor(s.units_per_rotation / 60.0)
        loop = config.closedLoop
        sensor = rev.FeedbackSensor.kPrimaryEncoder
        if self.brushed_encoder is not None:
            sensor = configure_brushed_encoder(config, self.brushed_encoder, s)
        if self.absolute_feedback:
            configure_absolute_encoder(config, s.absolute_encoder_inverted)
            sensor = rev.FeedbackSensor.kAbsoluteEncoder
        loop.setFeedbackSensor(sensor)
        loop.pid(pidf.p, pidf.i, pidf.d)
        loop.IZone(pidf.iz)
        loop.outputRange(pidf.output_min, pidf.output_max)
        loop.feedForward.kV(pidf.f * s.optimal_voltage)
        # added by the sign of the position error (volts; swervelib's `s`, angle motors only)
        loop.feedForward.kS(pidf.s if angle else 0.0)
        loop.positionWrappingEnabled(angle)
        if angle:
            loop.positionWrappingInputRange(0.0, 360.0)
        signals = config.signals
        signals.primaryEncoderPositionPeriodMs(STATUS_PERIOD_MS)
        signals.primaryEncoderPositionAlwaysOn(True)
        signals.primaryEncoderVelocityPeriodMs(STATUS_PERIOD_MS)
        signals.primaryEncoderVelocityAlwaysOn(True)
        signals.appliedOutputPeriodMs(APPLIED_OUTPUT_PERIOD_MS)
        signals.faultsPeriodMs(STATUS_PERIOD_MS)
        signals.faultsAlwaysOn(True)
        return config

    # --- commands ------------------------------------------------------------------------------

    def _command(self, what: str, function: Callable[..., Any], *args: Any) -> bool:
        """Call ``function``; a failure is recorded under ``what``. Whether it succeeded."""
        try:
            result = function(*args)
        except Exception as error:  # a dead device must not take the robot program down
            self._problems[what] = f"{what} failed ({error})"
            return False
        if result == _OK:
            if self._problems:
                self._problems.pop(what, None)
            return True
        self._problems[what] = f"{what} failed ({_error_name(result)})"
        return False

    def set_voltage(self, volts: float) -> None:
        # kVoltage rather than setVoltage(): setVoltage divides by the battery voltage and then
        # voltage compensation scales again, which double-compensates on the real controller.
        guard = self.guard
        if not -guard.max_volts <= volts <= guard.max_volts:  # out of range, NaN or infinite
            checked = guard.volts(volts)
            volts = 0.0 if checked is None else checked
        self._command("command", self._set_setpoint, volts, _VOLTAGE)

    # The per-loop setpoints do not look at REVLib's result: comparing a REVLibError costs a third
    # of the call itself, and a Spark that stops taking commands also stops answering, which
    # fault() (run about once a second) reports from its last error.
    def set_velocity(self, units_per_second: float, feedforward_volts: float) -> None:
        speed, volts = self._max_speed, self._max_volts
        if not (-speed <= units_per_second <= speed and -volts <= feedforward_volts <= volts):
            checked = self.guard.velocity(units_per_second, feedforward_volts)
            if checked is None:  # NaN or infinite
                self._set_setpoint(0.0, _VOLTAGE)
                return
            units_per_second, feedforward_volts = checked
        set_setpoint = self._set_setpoint
        set_setpoint(units_per_second, _VELOCITY, _SLOT0, feedforward_volts, _FF_VOLTS)

    def set_angle(self, degrees: float) -> None:
        """Closed-loop position, wrapped: degrees of the feedback sensor (module degrees on the
        motor's encoder; encoder degrees after inversion, before the offset, on the absolute
        encoder)."""
        if not -MAX_POSITION <= degrees <= MAX_POSITION and not self.guard.position(
            "set_angle", degrees
        ):
            self._set_setpoint(0.0, _VOLTAGE)
            return
        set_setpoint = self._set_setpoint
        read = self._read_feedback
        if read is None:
            set_setpoint(degrees % 360.0, _POSITION)
            return
        # A static feedforward takes its sign from the set-point less the sensor's reading as they
        # are, not wrapped (REV's simulator; P wraps): send the set-point within half a turn of
        # the reading, where both agree.
        reading = read()
        if -MAX_POSITION <= reading <= MAX_POSITION:
            set_setpoint(reading + wrap_180(degrees - reading), _POSITION)
        else:  # not finite, or beyond any mechanism (1e308): the set-point as it was
            set_setpoint(degrees % 360.0, _POSITION)

    def set_position(self, value: float) -> None:
        """Seed the relative encoder (a value that is not finite is refused).

        A Spark shows the seed in its next position status frame, not at once (REVLib's
        ``getPosition`` answers the last frame): :meth:`get_position` answers the seed until the
        readings show it. In simulation the robot-side ``setPosition`` is overwritten by the next
        ``iterate()``, so the value is also handed to the sim hook, which keeps the controller's
        position itself.
        """
        if not self.guard.position("set_position", value):
            return
        try:
            before = self._read_position()
        except Exception:  # unknown: the first reading after the seed ends the wait
            before = math.nan
        if self._command("seeding the encoder", lambda: self._encoder.setPosition(value)):
            self._seed = PendingSeed(value, before, SEED_MATCH)
        self._last_position = value
        if self._sim is not None:
            self._sim.seed(value)

    def set_brake(self, brake: bool) -> None:
        """Brake or coast. If the Spark does not take it, :meth:`fault` (the drive's health check,
        about once a second) tries again, once and only while the Spark answers, until it does;
        an Alert says so meanwhile."""
        config = self.new_config()
        config.setIdleMode(_idle_mode(brake))
        self.apply_extra_config(config, "idle mode", retry=True)

    # --- readings ------------------------------------------------------------------------------

    def get_position(self) -> float:
        read = self._read_position
        value = read()
        if value - value == 0.0:  # finite (NaN and infinities give NaN): the usual case
            if self._problems:
                self._problems.pop("position", None)
            if self._seed is not None:
                if not self._seed.shown_by(value):
                    return self._last_position  # the seed, until a frame shows it
                self._seed = None
            self._last_position = value
            return value  # type: ignore[no-any-return]
        note_reading(self._problems, "position", value)
        return self._last_position

    def get_velocity(self) -> float:
        read = self._read_velocity
        value = read()
        if value - value == 0.0:
            if self._problems:
                self._problems.pop("velocity", None)
            self._last_velocity = value
            return value  # type: ignore[no-any-return]
        note_reading(self._problems, "velocity", value)
        return self._last_velocity

    def get_applied_volts(self) -> float:
        try:
            return float(self.spark.getAppliedOutput() * self.spark.getBusVoltage())
        except Exception:  # a vendor error must not stop the robot loop
            return math.nan

    def get_current_amps(self) -> float:
        try:
            return float(self.spark.getOutputCurrent())
        except Exception:
            return math.nan

    def controller_faults(self) -> tuple[list[str], list[str]]:
        """Names of the Spark's active and sticky faults (empty lists when it cannot tell).

        The result is also kept as :attr:`last_faults`."""
        try:
            spark = self.spark
            # a bool first (no Faults object to build), and getFaults() last: fault() reads the
            # error code of the Spark's last call
            sticky = spark.hasStickyFault()
            active_bits = spark.getFaults()
            if active_bits.rawBits == 0 and not sticky:  # the usual case: cheap
                self.last_faults = _NO_FAULTS
            else:
                sticky_names = fault_names(spark.getStickyFaults()) if sticky else []
                self.last_faults = (fault_names(active_bits), sticky_names)
        except Exception:
            self.last_faults = _NO_FAULTS
        return self.last_faults

    def fault(self) -> str | None:
        active, sticky = self.controller_faults()
        problems = self._problems
        answer_problem(self.spark, problems)  # the last call was a fault read
        if ANSWER not in problems:  # an idle mode not taken is tried again while it answers
            self.config_calls.retry_pending()
            self._regain_reading()
        else:  # REVLib answers the last frame it had: the readings are frozen
            self._lose_reading()
        text = None
        if problems or active:
            parts = list(dict.fromkeys(problems.values()))
            if active:
                parts.append("faults: " + ", ".join(active))
            text = "; ".join(parts)
        self._alert.update(text)
        # Sticky faults record a past event (e.g. a short CAN drop-out): a warning, not a fault now.
        self._sticky_alert.update(
            "sticky faults since start-up: " + ", ".join(sticky) if sticky and not active else None
        )
        return text

    @property
    def sim(self) -> SparkMotorSim:
        if self._sim is None:
            self._sim = SparkMotorSim(self)
        return self._sim


def _gains(settings: MotorSettings) -> PIDF:
    """The closed-loop gains a Spark is configured with: its own, or the role's defaults."""
    return settings.pidf or (
        DEFAULT_ANGLE_PIDF if settings.role is Role.ANGLE else DEFAULT_DRIVE_PIDF
    )


def _idle_mode(brake: bool) -> Any:
    mode = rev.SparkBaseConfig.IdleMode
    return mode.kBrake if brake else mode.kCoast


# The Spark's closed loop runs once a millisecond: its kI adds the error times kI once a period,
# and its kD acts on the error's change over one period (REV's firmware: kI per native unit and
# ms, kD per native unit per ms). REV's simulator integrates and differentiates over the seconds
# given to iterate(): with the same gains its I would be 1000 times weaker and its D 1000 times
# stronger than the device's (measured: kD 1e-4 on an error falling 90°/s gave -0.009 at 1, 2 and
# 20 ms steps; the device gives -0.000009). The hook gives the simulator gains that act as the
# device's do.
SIM_PERIODS_PER_SECOND: Final = 1000.0


def _simulated_gains(motor: SparkMotor) -> Any:
    """The closed-loop gains (slot 0) that make REV's simulated PID act as the device's 1 ms loop."""
    pidf = _gains(motor.settings)
    config = motor.new_config()
    config.closedLoop.pid(
        pidf.p, pidf.i * SIM_PERIODS_PER_SECOND, pidf.d / SIM_PERIODS_PER_SECOND, _SLOT0
    )
    return config


class SparkMotorSim(MotorSim):
    """The REV simulator for one Spark, spoken to in the bare motor's frame.

    REV's simulated closed loop takes its I and D over the seconds given to ``iterate()``, the
    device over its 1 ms period: the hook rewrites the Spark's kI (times 1000) and kD (divided by
    1000) once, when it is made, so that the simulated loop acts as the device's does (see
    :data:`SIM_PERIODS_PER_SECOND`). The Spark's configuration read back in simulation holds those.

    ``rev.SparkMaxSim``/``SparkFlexSim`` work entirely in the controller's user frame and ignore
    ``inverted``, so this hook applies it: :meth:`applied_voltage` negates the controller's output
    when the motor is inverted, and :meth:`set_rotor` negates the rotor's motion before it reaches
    the controller. The controller's position integrates the rotor's *changes* (a relative encoder
    starts wherever it is seeded, not at the rotor's absolute angle); the hook keeps that position
    and writes it with ``SparkSim.setPosition`` every step, because a robot-side
    ``RelativeEncoder.setPosition`` would be overwritten by the next ``iterate()``.
    :meth:`SparkMotor.set_position` reseeds it through :meth:`seed`.

    With the absolute encoder as feedback sensor, ``SparkSim.setPosition`` and ``iterate()`` act on
    that encoder instead (REV's simulator follows the selected feedback sensor) and leave the
    motor's own encoder alone. The hook then writes the motor's encoder itself
    (``getRelativeEncoderSim()``), and runs ``iterate()`` on the absolute encoder's reading as the
    physics last wrote it (``SparkAttachedEncoderSim.set_raw``, user frame): the closed loop acts
    on what the encoder on the module reads, as on the real controller. The physics must write that
    reading before each :meth:`set_rotor` (``SwerveSim`` does, every substep); nothing else moves
    it, so with no physics writing it the controller sees a still encoder, as it would an unplugged
    one.
    """

    def __init__(self, motor: SparkMotor) -> None:
        sim_class: Any = rev.SparkMaxSim if motor.controller == "sparkmax" else rev.SparkFlexSim
        device_id = motor.settings.device.id
        model = motor.dc_motor  # the simulator keeps a pointer to it: the pool keeps it alive
        self.vendor_sim: Any = POOL.sim(
            motor.controller,
            device_id,
            "motor",
            lambda: sim_class(motor.spark, model),
            keep=model,
        )
        self._sign = -1.0 if motor.settings.inverted else 1.0
        self._units_per_rotation = motor.settings.units_per_rotation
        position = motor.spark.getEncoder().getPosition()
        self._position = position if math.isfinite(position) else 0.0
        self._last_rotor: float | None = None
        self._relative: Any = None
        self._absolute: Any = None
        # A brushed motor's quadrature encoder on the data port (REV's alternate encoder mode).
        self._alternate: Any = None
        brushed_encoder = motor.brushed_encoder
        if brushed_encoder is not None and brushed_encoder.data_port:
            self._alternate = POOL.sim(
                motor.controller,
                device_id,
                "alternate",
                lambda: rev.SparkMaxAlternateEncoderSim(motor.spark),
            )
            position = motor.spark.getAlternateEncoder().getPosition()
            self._position = position if math.isfinite(position) else 0.0
        self._feedback = 0.0  # the absolute encoder reading the controller last acted on
        if motor.absolute_feedback:
            self._relative = self.vendor_sim.getRelativeEncoderSim()
            # The same simulator object the attached-encoder hook writes (see encoders.py).
            self._absolute = POOL.sim(
                motor.controller,
                device_id,
                "absolute",
                lambda: rev.SparkAbsoluteEncoderSim(motor.spark),
            )
        motor.apply_extra_config(_simulated_gains(motor), "simulated closed-loop gains")
        # A pooled simulator may hold an earlier drive's motion: start this one at rest.
        self.vendor_sim.setVelocity(0.0)
        self.vendor_sim.setAppliedOutput(0.0)
        self.vendor_sim.setMotorCurrent(0.0)

    def applied_voltage(self) -> float:
        sim = self.vendor_sim
        return self._sign * sim.getAppliedOutput() * sim.getBusVoltage()  # type: ignore[no-any-return]

    def set_rotor(self, rotations: float, rotations_per_second: float, dt: float) -> None:
        if not (math.isfinite(rotations) and math.isfinite(rotations_per_second)):
            raise ValueError(f"rotor state must be finite, got {rotations}, {rotations_per_second}")
        if self._last_rotor is not None:
            self._position += self._sign * (rotations - self._last_rotor) * self._units_per_rotation
        self._last_rotor = rotations
        velocity = self._sign * rotations_per_second * self._units_per_rotation
        vbus = wpilib.RobotController.getBatteryVoltage()
        if self._alternate is not None:
            # The alternate encoder as feedback sensor: setPosition() and iterate() act on it, but
            # iterate() integrates it in its own units; give the loop the position, then write
            # the encoder's exact reading and rate.
            self.vendor_sim.setPosition(self._position)
            self.vendor_sim.iterate(velocity, vbus, dt)
            self._alternate.setPosition(self._position)
            self._alternate.setVelocity(velocity)
        elif self._absolute is None:
            # iterate() adds velocity*dt to the position it was given: pre-subtract it.
            self.vendor_sim.setPosition(self._position - velocity * dt)
            self.vendor_sim.iterate(velocity, vbus, dt)
        else:
            self._relative.setPosition(self._position)
            self._relative.setVelocity(velocity)
            absolute = self._absolute
            reading = absolute.getPosition()
            rate = absolute.getVelocity()
            # REV's simulator models the motor current (and so the smart current limit) from the
            # velocity given to iterate() read through the feedback sensor's velocity factor: the
            # module's speed would pass for a motor turning gear-ratio times too slowly, drawing
            # its stall current, and the limit would throttle the output. Give it the rotor's
            # speed in the encoder's units (degrees/s: 6 per rpm) so it sees the real motor, as
            # the real controller measures it; iterate() adds speed*dt to the position, so
            # pre-subtract it, then put the encoder's exact reading and rate back.
            speed = self._sign * rotations_per_second * DEGREES_PER_ROTATION
            # A garbage reading (a test's NaN) is what the robot reads; the controller's own
            # sensor input is a number, and a NaN would stick in REV's simulated PID for good.
            if reading - reading == 0.0:
                self._feedback = reading
            self.vendor_sim.setPosition(self._feedback - speed * dt)
            self.vendor_sim.iterate(speed, vbus, dt)
            absolute.setPosition(reading)
            absolute.setVelocity(rate)
        if math.isnan(self.vendor_sim.getMotorCurrent()):
            # REV's simulator can compute a NaN current for a motor at rest with no output; once
            # NaN it stays NaN and the controller outputs nothing from then on. Clear it.
            self.vendor_sim.setMotorCurrent(0.0)

    def seed(self, position: float) -> None:
        """The relative encoder was set to ``position`` (user frame)."""
        self._position = position
        if self._alternate is not None:
            self._alternate.setPosition(position)
        elif self._relative is None:
            self.vendor_sim.setPosition(position)
        else:
            self._relative.setPosition(position)
