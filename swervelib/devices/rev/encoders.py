"""Absolute encoders plugged into the angle motor's Spark MAX / Spark FLEX.

* ``integrated``/``attached`` (Spark MAX) and ``sparkflex_integrated``/``sparkflex_attached``
  (Spark FLEX): a duty-cycle absolute encoder (Through Bore, Canandmag in PWM mode, ...) on the data
  port, read with ``spark.getAbsoluteEncoder()``. Inversion is the Spark's own absolute encoder
  ``inverted`` setting (the controller reports ``1 − r`` of a raw reading ``r``). It may also be
  the angle Spark's closed-loop feedback sensor (see :mod:`swervelib.devices.rev.motor`); the
  reading means the same either way.
* ``sparkmax_analog`` (3.3 V full scale) and ``sparkmax_analog5v`` (5 V full scale): an analog
  absolute encoder on the data port, read with ``spark.getAnalog()``. REV documents the analog
  sensor's ``inverted`` only as a "phase" setting, so the adapter leaves it off and negates the
  angle itself (negation, as for every other analog encoder).

The REV simulator ignores ``inverted`` and every conversion factor (``setPosition`` writes the
reading as returned), so the sim hooks apply them, just as the controller would.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

import rev

from swervelib.devices.faults import FaultAlert
from swervelib.devices.interfaces import AbsoluteEncoder, EncoderSim, UsableFlag
from swervelib.devices.rev.motor import (
    ANSWER,
    DEGREES_PER_ROTATION,
    STATUS_PERIOD_MS,
    SparkMotor,
    answer_problem,
    configure_absolute_encoder,
    note_reading,
)
from swervelib.devices.rev.pool import POOL
from swervelib.devices.settings import EncoderSettings

# Full-scale voltage of the analog encoder kinds.
ANALOG_FULL_SCALE_V: Final = {"spark_analog": 3.3, "spark_analog5v": 5.0}

_OK: Final = rev.REVLibError.kOk


def _wrap_degrees(degrees: float) -> float:
    wrapped = degrees % DEGREES_PER_ROTATION
    return 0.0 if wrapped >= DEGREES_PER_ROTATION else wrapped


def _check_angle_motor(settings: EncoderSettings, angle_motor: object) -> SparkMotor:
    required = settings.encoder_type.requires_controller
    if not isinstance(angle_motor, SparkMotor):
        raise ValueError(
            f"{settings.label}: encoder type `{settings.device.type}` is plugged into the angle "
            f"motor's {' or '.join(required)} controller, but this module's angle motor is "
            f"`{type(angle_motor).__name__}`; use a REV angle motor or another encoder type"
        )
    if angle_motor.controller not in required:
        raise ValueError(
            f"{settings.label}: encoder type `{settings.device.type}` needs a "
            f"{' or '.join(required)} angle motor, but the angle motor is "
            f"`{angle_motor.settings.device.type}` ({angle_motor.controller}); "
            + (
                "use `sparkflex_integrated`/`sparkflex_attached` on a Spark FLEX"
                if angle_motor.controller == "sparkflex"
                else "use `integrated`/`attached` or `sparkmax_analog` on a Spark MAX"
            )
        )
    return angle_motor


class _SparkSensor(UsableFlag, AbsoluteEncoder):
    """Shared reading and fault logic for sensors read through the angle motor's Spark.

    Getters check only that a value is finite; :meth:`fault` (about once a second) reads the
    Spark's fault bits and last error, and a sensor or CAN fault found there keeps :attr:`usable`
    False until a later check clears it.
    """

    def __init__(self, settings: EncoderSettings, angle_motor: object) -> None:
        self.settings = settings
        self.label = settings.label
        self.motor = _check_angle_motor(settings, angle_motor)
        self.spark: Any = self.motor.spark
        self._alert = FaultAlert(settings.label)
        self._problems: dict[str, str] = {}
        self._last_degrees = 0.0
        self._last_dps = 0.0
        self._spark_fault = False  # the last fault() found a sensor or CAN fault

    def _good(self, what: str) -> None:
        if self._problems:
            self._problems.pop(what, None)

    def _read(self, what: str, getter: Callable[[], float], last: float) -> float:
        value = getter()
        if value - value == 0.0:
            self._good(what)
            return value
        note_reading(self._problems, what, value)
        return last

    def fault(self) -> str | None:
        active, _ = self.motor.controller_faults()
        answer_problem(self.spark, self._problems)
        spark_faults = []
        if "sensor" in active:
            spark_faults.append("the Spark reports a sensor fault")
        if "can" in active:
            spark_faults.append("the Spark reports a CAN fault")
        self._spark_fault = bool(spark_faults) or ANSWER in self._problems
        if self._spark_fault:
            self.usable = False
        text = None
        if self._problems or spark_faults:
            text = "; ".join([*dict.fromkeys(self._problems.values()), *spark_faults])
        self._alert.update(text)
        return text


class SparkAttachedEncoder(_SparkSensor):
    """A duty-cycle absolute encoder on the data port of a Spark MAX or Spark FLEX."""

    __slots__ = ("_last_degrees", "_problems", "_read_position", "_spark_fault", "usable")

    def __init__(self, settings: EncoderSettings, angle_motor: object) -> None:
        self.usable = True
        super().__init__(settings, angle_motor)
        self._encoder: Any = self.spark.getAbsoluteEncoder()
        self._read_position = self._encoder.getPosition
        config = self.motor.new_config()
        # Degrees after inversion, no zero offset on the device (the library subtracts the offset).
        # When the angle motor steers on this encoder its own configuration already holds the
        # same settings; applying them again changes nothing.
        configure_absolute_encoder(config, settings.inverted)
        self.configured = self.motor.apply_extra_config(config, "absolute encoder configuration")
        self._sim: SparkAttachedEncoderSim | None = None

    def get_absolute_degrees(self) -> float:
        read = self._read_position  # (a local call: see SparkMotor's _read_position)
        value = read()
        if value - value == 0.0 and not self._spark_fault:
            if self._problems:
                self._good("absolute position")
            if not 0.0 <= value < DEGREES_PER_ROTATION:
                value = _wrap_degrees(value)
            self._last_degrees = value
            self.usable = True
            return value  # type: ignore[no-any-return]
        if value - value != 0.0:
            note_reading(self._problems, "absolute position", value)
        self.usable = False
        return self._last_degrees

    def get_velocity_dps(self) -> float:
        self._last_dps = self._read("velocity", self._encoder.getVelocity, self._last_dps)
        return self._last_dps

    @property
    def sim(self) -> SparkAttachedEncoderSim:
        if self._sim is None:
            self._sim = SparkAttachedEncoderSim(self)
        return self._sim


class SparkAttachedEncoderSim(EncoderSim):
    """``rev.SparkAbsoluteEncoderSim``, fed the bare sensor's reading; applies ``inverted``."""

    def __init__(self, encoder: SparkAttachedEncoder) -> None:
        motor = encoder.motor
        self.vendor_sim: Any = POOL.sim(
            motor.controller,
            motor.settings.device.id,
            "absolute",
            lambda: rev.SparkAbsoluteEncoderSim(encoder.spark),
        )
        self._inverted = encoder.settings.inverted

    def set_raw(self, rotations: float, rotations_per_second: float) -> None:
        raw = rotations % 1.0
        if self._inverted:  # what the Spark does with `inverted`: r -> 1 - r
            raw = (1.0 - raw) % 1.0
            rotations_per_second = -rotations_per_second
        self.vendor_sim.setPosition(raw * DEGREES_PER_ROTATION)
        self.vendor_sim.setVelocity(rotations_per_second * DEGREES_PER_ROTATION)


class SparkAnalogEncoder(_SparkSensor):
    """An analog absolute encoder on a Spark MAX's data port (3.3 V or 5 V full scale)."""

    def __init__(self, settings: EncoderSettings, angle_motor: object) -> None:
        super().__init__(settings, angle_motor)
        kind = settings.encoder_type.kind
        if kind not in ANALOG_FULL_SCALE_V:
            raise ValueError(
                f"{settings.label}: `{settings.device.type}` is not a Spark analog type"
            )
        self.full_scale_v: float = ANALOG_FULL_SCALE_V[kind]
        self._sign = -1.0 if settings.inverted else 1.0
        self._analog: Any = self.spark.getAnalog()
        degrees_per_volt = DEGREES_PER_ROTATION / self.full_scale_v
        config = self.motor.new_config()
        analog = config.analogSensor
        analog.positionConversionFactor(degrees_per_volt)
        analog.velocityConversionFactor(degrees_per_volt)  # native unit is V/s
        analog.inverted(False)  # inversion is applied here, see the module docstring
        config.signals.analogVoltagePeriodMs(STATUS_PERIOD_MS)
        config.signals.analogVoltageAlwaysOn(True)
        config.signals.analogVelocityPeriodMs(STATUS_PERIOD_MS)
        config.signals.analogVelocityAlwaysOn(True)
        self.configured = self.motor.apply_extra_config(config, "analog encoder configuration")
        self._sim: SparkAnalogEncoderSim | None = None

    def get_absolute_degrees(self) -> float:
        volts = self._read("voltage", self._analog.getVoltage, math.nan)
        self.usable = math.isfinite(volts) and not self._spark_fault
        if self.usable:
            degrees = self._sign * volts / self.full_scale_v * DEGREES_PER_ROTATION
            self._last_degrees = _wrap_degrees(degrees)
        return self._last_degrees

    def get_velocity_dps(self) -> float:
        dps = self._read("velocity", self._analog.getVelocity, math.nan)
        if math.isfinite(dps):
            self._last_dps = self._sign * dps
        return self._last_dps

    @property
    def sim(self) -> SparkAnalogEncoderSim:
        if self._sim is None:
            self._sim = SparkAnalogEncoderSim(self)
        return self._sim


class SparkAnalogEncoderSim(EncoderSim):
    """``rev.SparkAnalogSensorSim``, fed the bare sensor's output voltage (the adapter inverts)."""

    def __init__(self, encoder: SparkAnalogEncoder) -> None:
        motor = encoder.motor
        self.vendor_sim: Any = POOL.sim(
            motor.controller,
            motor.settings.device.id,
            "analog",
            lambda: rev.SparkAnalogSensorSim(encoder.spark),
        )
        self._full_scale_v = encoder.full_scale_v

    def set_raw(self, rotations: float, rotations_per_second: float) -> None:
        volts = (rotations % 1.0) * self._full_scale_v
        degrees_per_volt = DEGREES_PER_ROTATION / self._full_scale_v
        self.vendor_sim.setVoltage(volts)
        self.vendor_sim.setPosition(volts * degrees_per_volt)
        self.vendor_sim.setVelocity(rotations_per_second * self._full_scale_v * degrees_per_volt)
