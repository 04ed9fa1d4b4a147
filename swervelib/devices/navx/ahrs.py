"""Studica navX-MXP / navX-Micro through robotpy-navx (``navx.AHRS``).

Type strings and ports: ``navx`` / ``navx_spi`` → MXP SPI, ``navx_i2c`` → I2C, ``navx_usb`` →
USB 1, ``navx_mxp_serial`` → MXP UART. The last three raise a warning Alert, as YAGSL does.

Frames: the navX's ``getYaw()`` / ``getAngle()`` / ``getRate()`` are CLOCKWISE positive (its
``getRotation2d()`` is the CCW one). The un-inverted yaw we report is ``-getAngle()`` (unwrapped,
CCW positive) and the rate ``-getRate()``; ``invertedIMU`` negates both. ``zeroYaw()`` is never used:
it averages recent yaw history and zeroes only partially after movement, so any zeroing is done
in software by the drive.

Pitch and roll (on demand) are ``-getPitch()`` and ``-getRoll()``: Kauai Labs' orientation page
gives the navX's pitch about its X (left/right) axis, "+ tilt backwards" (front up), and its roll
about its Y (forward) axis, "+ roll left" (left side down), both the opposite of WPILib's NWU
pitch (front down) and roll (left side up), as its yaw is. The board's Y axis is taken as the
robot's front (Kauai Labs' default board orientation).

While the navX says it is not connected (``isConnected()`` False, including the first tens of
milliseconds after start-up), ``fault()`` reports it and the getters return the last good values.

One ``AHRS`` per port and process: a port cannot be opened twice, and in simulation a second
``AHRS`` in the same process (same port re-opened, even after the first was deleted, or another
port) reads wrong or no values. Every adapter on the same port therefore shares one device, kept
open for the life of the process. Use one navX type per process.

Simulation: the device registers the SimDevice ``navX-Sensor[<getPort()>]`` (4 for MXP SPI, 1 for
I2C and for MXP UART, 2 for USB 1). ``Yaw`` is written in the device's clockwise frame, wrapped to
[-180, 180) like the real sensor's output; the navX simulation derives ``getRate()`` from successive
yaws (its ``Rate`` value is written too, for completeness, but the library does not read it).
``set_tilt`` writes ``Pitch`` and ``Roll`` negated, in the navX's own convention.
"""

from __future__ import annotations

import enum
import math
from typing import Any

import navx
import wpilib

from swervelib.devices.faults import ALERT_GROUP, FaultAlert, checked
from swervelib.devices.interfaces import Imu, ImuSim, UsableFlag
from swervelib.devices.settings import ImuSettings

NOT_CONNECTED = "not connected"
_COM = navx.AHRS.NavXComType

_I2C_WARNING = (
    "navX on the roboRIO I2C port: the roboRIO's onboard I2C is known to lock up the robot "
    "program (see WPILib's known issues). Prefer the MXP SPI port (type `navx`)."
)
_SERIAL_WARNING = (
    "navX over a serial link ({link}): other USB and serial traffic interrupts it, so it can "
    "drop out and reconnect intermittently. Prefer the MXP SPI port (type `navx`)."
)


class _Port(enum.Enum):
    SPI = "navx_spi"
    I2C = "navx_i2c"
    USB = "navx_usb"
    UART = "navx_mxp_serial"


_COM_TYPES: dict[_Port, Any] = {
    _Port.SPI: _COM.kMXP_SPI,
    _Port.I2C: _COM.kI2C,
    _Port.USB: _COM.kUSB1,
    _Port.UART: _COM.kMXP_UART,
}
_WARNINGS: dict[_Port, str | None] = {
    _Port.SPI: None,
    _Port.I2C: _I2C_WARNING,
    _Port.USB: _SERIAL_WARNING.format(link="USB"),
    _Port.UART: _SERIAL_WARNING.format(link="MXP serial"),
}


class _SharedNavX:
    """The one ``AHRS`` on a port, and its yaw rate sampled once per navX update.

    The navX library's ``getRate()`` is the yaw change since the previous ``getRate()`` call divided
    by the sensor time between them, so a second call within one navX sample returns 0 and the very
    first call divides by the time since boot (seen in simulation; the same library code runs on
    the robot). We call it once per new ``getLastSensorTimestamp()``, share the result with every
    reader on the port, and report 0 for the first call.
    """

    def __init__(self, port: _Port) -> None:
        self.ahrs: Any = navx.AHRS(_COM_TYPES[port])
        self._stamp: int | None = None
        self._rate = 0.0

    def clockwise_rate(self) -> float:
        stamp = self.ahrs.getLastSensorTimestamp()
        if stamp != self._stamp:
            rate = float(self.ahrs.getRate())
            self._rate = 0.0 if self._stamp is None else rate
            self._stamp = stamp
        return self._rate


# The one navX per port in this process (see the module docstring).
_OPEN: dict[_Port, _SharedNavX] = {}


def _open(port: _Port) -> _SharedNavX:
    device = _OPEN.get(port)
    if device is None:
        device = _SharedNavX(port)
        _OPEN[port] = device
    return device


class NavXImu(UsableFlag, Imu):
    """A navX on the port chosen by the type string (``settings.imu_type.kind``)."""

    __slots__ = ("_device", "_last_yaw", "_sign", "_sim", "_value_fault", "usable")

    def __init__(self, settings: ImuSettings) -> None:
        self.usable = True
        self.label = settings.label
        self._sign = -1.0 if settings.inverted else 1.0
        self._port = _Port(settings.imu_type.kind)
        self.alert = FaultAlert(settings.label)
        self._sim: _NavXSim | None = None
        self._last_yaw = 0.0
        self._last_rate = 0.0
        self._value_fault: str | None = None
        self._start_fault: str | None = None
        self._shared: _SharedNavX | None = None
        self._device: Any = None
        try:
            self._shared = _open(self._port)
            self._device = self._shared.ahrs
        except Exception as error:  # the vendor raises plain RuntimeErrors; keep the robot alive
            self._start_fault = f"could not be started: {error}"
        warning = _WARNINGS[self._port]
        self.warning: wpilib.Alert | None = None
        if warning is not None:
            self.warning = wpilib.Alert(
                ALERT_GROUP, f"{settings.label}: {warning}", wpilib.Alert.AlertType.kWarning
            )
            self.warning.set(True)
            wpilib.reportWarning(f"{settings.label}: {warning}", False)
        self.fault()

    def _read(self, value: float, last: float) -> float:
        """The CCW-positive ``value`` after inversion, or ``last`` if it is not finite."""
        reading, self._value_fault = checked(value, last, self._sign)
        return reading

    def get_raw_yaw_degrees(self) -> float:
        """The yaw; the Alert is updated by :meth:`fault` (the drive calls it about once a
        second), not here, so this stays cheap enough for every loop."""
        device = self._device
        if device is not None and device.isConnected():
            angle = device.getAngle()
            sim = self._sim
            if sim is not None and sim.held_yaw is not None:
                angle = sim.held_angle(angle, device.getYaw())
            if angle - angle == 0.0:  # finite (the usual case: checked() inline)
                self._last_yaw = -self._sign * angle  # navX angles are clockwise positive
                self._value_fault = None
                self.usable = True
            else:
                self._last_yaw = self._read(-angle, self._last_yaw)
                self.usable = False
        else:
            self.usable = False
        return self._last_yaw

    def get_yaw_rate_dps(self) -> float:
        if self._shared is not None and self._device.isConnected():
            self._last_rate = self._read(-self._shared.clockwise_rate(), self._last_rate)
        self.fault()
        return self._last_rate

    def get_pitch_roll_degrees(self) -> tuple[float, float] | None:
        device = self._device
        try:
            if device is None or not device.isConnected():
                return None
            pitch, roll = -device.getPitch(), -device.getRoll()  # navX: front up, left down
        except Exception:  # a vendor error must not stop the caller's loop
            return None
        return (pitch, roll) if math.isfinite(pitch + roll) else None

    def fault(self) -> str | None:
        if self._device is None:
            current = self._start_fault
        elif not self._device.isConnected():
            current = NOT_CONNECTED
        else:
            current = self._value_fault
        self.alert.update(current)
        return current

    @property
    def sim(self) -> ImuSim:
        if self._device is None:
            raise RuntimeError(f"{self.label}: {self._start_fault}")
        if self._sim is None:
            self._sim = _NavXSim(int(self._device.getPort()))
        return self._sim

    def close(self) -> None:
        """Detach this adapter. The navX itself stays open for the process (it cannot reopen)."""
        self._sim = None


HELD_MATCH_DEG = 1e-3  # the navX library keeps its yaw in single precision


class _NavXSim(ImuSim):
    """The ``navX-Sensor[<port>]`` SimDevice, written in the device's clockwise frame."""

    def __init__(self, port: int) -> None:
        from wpilib.simulation import SimDeviceSim

        device = SimDeviceSim(f"navX-Sensor[{port}]")
        self._yaw = device.getDouble("Yaw")
        self._rate = device.getDouble("Rate")
        self._pitch = device.getDouble("Pitch")
        self._roll = device.getDouble("Roll")
        self._connected = device.getBoolean("Connected")
        self.held_yaw: float | None = None  # see report_at_once

    def set_raw_yaw(self, degrees: float, rate_dps: float) -> None:
        """Write the yaw. The navX library reads its SimDevice only on its own update, in
        simulated time: until it has, the adapter reads the yaw written here (as a real navX,
        whose reading is a few milliseconds old, not a whole robot loop)."""
        clockwise = -degrees
        if math.isfinite(clockwise):
            wrapped = clockwise - 360.0 * math.floor((clockwise + 180.0) / 360.0)
            self._yaw.set(wrapped)
            self.held_yaw = wrapped
        else:  # a garbage reading (NaN, infinity: a fault test), written as it is
            self._yaw.set(clockwise)
            self.held_yaw = None
        self._rate.set(-rate_dps)

    def report_at_once(self) -> None:
        """The navX library reads its SimDevice on its own update, in simulated time: until then
        the adapter reads the yaw just written (as the device's unwrapped angle will be)."""
        value = self._yaw.get()
        self.held_yaw = value if math.isfinite(value) else None

    def held_angle(self, angle: float, yaw: float) -> float:
        """The device's clockwise ``angle`` (unwrapped), or, while its ``yaw`` still differs from
        the one held, the angle it will report once it has taken that in."""
        held = self.held_yaw
        assert held is not None
        step = (held - yaw + 180.0) % 360.0 - 180.0
        if abs(step) < HELD_MATCH_DEG:
            self.held_yaw = None  # taken in: the device reports it itself from now on
            return angle
        return angle + step

    def set_tilt(self, pitch_deg: float, roll_deg: float) -> None:
        """In the navX's convention (pitch positive front up, roll positive left side down: the
        adapter negates both); the library takes them in on its next update, as the yaw."""
        self._pitch.set(-pitch_deg)
        self._roll.set(-roll_deg)

    def set_connected(self, connected: bool) -> None:
        self._connected.set(connected)
