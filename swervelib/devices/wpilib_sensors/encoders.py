"""Absolute encoders wired to the roboRIO: duty-cycle (PWM) on a DIO channel, or analog.

Type strings: ``throughbore``, ``dutycycle``, ``ctre_mag``, ``rev_hex``, ``am_mag`` (DIO duty cycle,
:class:`DutyCycleAbsoluteEncoder`) and ``thrifty``, ``ma3``, ``analog`` (analog input,
:class:`AnalogAbsoluteEncoder`). ``id`` is the DIO or analog input channel.

Readings: the sensor gives a fraction of a turn; we report ``fraction * 360`` degrees, negated in
software when ``absoluteEncoderInverted`` is set, wrapped to [0, 360).

Velocity: neither sensor measures speed, so :meth:`get_velocity_dps` is a finite difference of
successive angle readings (shortest way round, so the 0/360 seam is harmless) taken at least
:data:`MIN_SAMPLE_PERIOD_S` apart on the FPGA clock (simulated time in simulation), smoothed by a
single-pole low-pass filter with time constant :data:`VELOCITY_TIME_CONSTANT_S`. It therefore lags
by about that much. It is 0 until two samples exist, after a gap longer than
:data:`MAX_SAMPLE_GAP_S` (the turn count between samples would be ambiguous), and while the sensor
reports a fault.
"""

from __future__ import annotations

import math
import time
from typing import Any

import wpilib

from swervelib.devices.faults import NOT_A_NUMBER
from swervelib.devices.interfaces import AbsoluteEncoder, EncoderSim
from swervelib.devices.settings import EncoderSettings
from swervelib.devices.wpilib_sensors import PooledDevice

VELOCITY_TIME_CONSTANT_S = 0.05
MIN_SAMPLE_PERIOD_S = 0.005
MAX_SAMPLE_GAP_S = 0.25
# Real duty-cycle encoders need a few signal periods before the roboRIO has measured one; wait at
# most this long (wall clock) at construction so the module is not seeded from a blank reading.
CONNECT_WAIT_S = 0.5


def wrap_degrees(degrees: float) -> float:
    """``degrees`` in [0, 360) (``x % 360`` can round to exactly 360 for tiny negatives)."""
    wrapped = degrees % 360.0
    return 0.0 if wrapped >= 360.0 else wrapped


class _VelocityEstimator:
    """Filtered finite difference of a wrapped angle, on the FPGA clock."""

    def __init__(self) -> None:
        self._last_time: float | None = None
        self._last_degrees = 0.0
        self.value = 0.0

    def reset(self) -> None:
        self._last_time = None
        self.value = 0.0

    def add(self, degrees: float) -> None:
        now = wpilib.Timer.getFPGATimestamp()
        if self._last_time is None:
            self._last_time, self._last_degrees = now, degrees
            return
        dt = now - self._last_time
        if dt < MIN_SAMPLE_PERIOD_S:
            return
        if dt > MAX_SAMPLE_GAP_S:
            self._last_time, self._last_degrees = now, degrees
            self.value = 0.0
            return
        raw = math.remainder(degrees - self._last_degrees, 360.0) / dt
        self.value += dt / (VELOCITY_TIME_CONSTANT_S + dt) * (raw - self.value)
        self._last_time, self._last_degrees = now, degrees


class _RoborioEncoder(PooledDevice, AbsoluteEncoder):
    """Shared reading, inversion, wrapping, velocity and fault logic."""

    _sim: EncoderSim | None

    def __init__(self, settings: EncoderSettings, key: tuple[str, int]) -> None:
        self._take_port(settings, key)
        self._last_degrees = 0.0
        self._value_fault: str | None = None
        self._velocity = _VelocityEstimator()

    # -- per sensor -------------------------------------------------------------------------------
    def _open(self) -> Any:
        raise NotImplementedError

    def _connection_fault(self) -> str | None:
        return None

    def _make_sim(self) -> EncoderSim:
        raise NotImplementedError

    # -- AbsoluteEncoder --------------------------------------------------------------------------
    # No refresh(): every read is fresh, and the module reads once per loop.
    def get_absolute_degrees(self) -> float:
        if self._device is None:
            return self._last_degrees
        fault = self._connection_fault()
        if fault is None:
            rotations = float(self._device.get())
            if math.isfinite(rotations):
                self._value_fault = None
                self._last_degrees = wrap_degrees(self._sign * rotations * 360.0)
                self._velocity.add(self._last_degrees)
            else:
                self._value_fault = NOT_A_NUMBER
        if fault is not None or self._value_fault is not None:
            self._velocity.reset()
        self.alert.update(fault or self._value_fault)
        return self._last_degrees

    def get_velocity_dps(self) -> float:
        self.get_absolute_degrees()
        return self._velocity.value

    def fault(self) -> str | None:
        if self._device is None:
            return "closed"
        current = self._connection_fault() or self._value_fault
        self.alert.update(current)
        return current

    @property
    def sim(self) -> EncoderSim:
        if self._sim is None:
            self._sim = self._make_sim()
        return self._sim


class DutyCycleAbsoluteEncoder(_RoborioEncoder):
    """A PWM absolute encoder (REV Through Bore, CTRE Mag, REV Hex, AndyMark Mag) on a DIO port.

    ``fault()`` reports a missing duty-cycle signal (WPILib ``isConnected()``: the measured
    frequency is below its threshold); the angle then stays at the last good reading.
    """

    def __init__(self, settings: EncoderSettings, angle_motor: Any = None) -> None:
        super().__init__(settings, ("dio", settings.device.id))
        deadline = time.monotonic() + CONNECT_WAIT_S
        while not self._device.isConnected() and time.monotonic() < deadline:
            time.sleep(0.01)
        self.get_absolute_degrees()

    def _open(self) -> Any:
        return wpilib.DutyCycleEncoder(self.channel)

    def _connection_fault(self) -> str | None:
        if self._device.isConnected():
            return None
        return "not connected (no duty-cycle signal)"

    def _make_sim(self) -> EncoderSim:
        if self._device is None:
            raise RuntimeError(f"{self.label} is closed")
        return _DutyCycleSim(self._device)


class AnalogAbsoluteEncoder(_RoborioEncoder):
    """An analog absolute encoder (Thrifty, MA3, any 0–5 V sensor) on a roboRIO analog input.

    WPILib's ``AnalogEncoder`` reads the voltage as a fraction of the 5 V rail. An analog signal
    cannot tell a disconnected sensor from a real angle, so ``fault()`` only reports unreadable
    (NaN) values.
    """

    def __init__(self, settings: EncoderSettings, angle_motor: Any = None) -> None:
        super().__init__(settings, ("analog", settings.device.id))
        self.get_absolute_degrees()

    def _open(self) -> Any:
        return wpilib.AnalogEncoder(self.channel)

    def _make_sim(self) -> EncoderSim:
        if self._device is None:
            raise RuntimeError(f"{self.label} is closed")
        return _AnalogSim(self._device)


class _DutyCycleSim(EncoderSim):
    """``DutyCycleEncoderSim``: writes what the bare sensor reads, in [0, 1) rotations."""

    def __init__(self, encoder: Any) -> None:
        from wpilib.simulation import DutyCycleEncoderSim

        self._sim = DutyCycleEncoderSim(encoder)

    def set_raw(self, rotations: float, rotations_per_second: float) -> None:
        # The sensor measures no speed; the adapter differentiates the angle, as on the robot.
        self._sim.set(rotations % 1.0)

    def set_connected(self, connected: bool) -> None:
        self._sim.setConnected(connected)


class _AnalogSim(EncoderSim):
    """``AnalogEncoderSim``: writes what the bare sensor reads, in [0, 1) rotations."""

    def __init__(self, encoder: Any) -> None:
        from wpilib.simulation import AnalogEncoderSim

        self._sim = AnalogEncoderSim(encoder)

    def set_raw(self, rotations: float, rotations_per_second: float) -> None:
        self._sim.set(rotations % 1.0)
