"""Gyroscopes read through WPILib: ADIS16448, ADIS16470, ADXRS450 and the analog gyro.

Each adapter reports the device's own counter-clockwise-positive yaw (for a normally mounted,
un-inverted device), negated with its rate when ``invertedIMU`` is set. WPILib 2026's sign
conventions, checked against its simulators:

* ``ADIS16448_IMU`` / ``ADIS16470_IMU``: ``getAngle()`` / ``getRate()`` are CCW positive (documented
  so since WPILib 2024, and the sims' ``setGyroAngleZ`` comes straight back from ``getAngle()``).
  Used as is. (YAGSL still negates them, from before that change.)
* ``ADXRS450_Gyro`` / ``AnalogGyro``: ``getAngle()`` / ``getRate()`` are CLOCKWISE positive;
  their own ``getRotation2d()`` is ``-getAngle()``. We negate them.

Pitch and roll (on demand): the ADIS gyros' integrated angles about the chip's Y axis (pitch) and X
axis (roll), counter-clockwise positive as WPILib documents every ADIS axis, so WPILib's NWU pitch
and roll when the chip's X axis points to the robot's front and Z up (the ADIS16470 class's own
default pitch and roll axes are these: ``getPitchAxis()`` is kY, ``getRollAxis()`` kX). They are
integrated gyro angles, zero where the IMU was at calibration, and drift as the yaw does; they are
not referenced to gravity. The ADXRS450 and the analog gyro measure one axis: None. In simulation
the ADIS sim hook's ``set_tilt`` writes the Y and X gyro angles; a single-axis gyro's ignores it.

Devices sit on their default roboRIO ports (the configuration's ``id`` is ignored), except the
analog gyro, which uses analog input ``id`` (0 or 1, checked by the configuration loader).
"""

from __future__ import annotations

import math
from typing import Any

import wpilib

from swervelib.devices.faults import checked
from swervelib.devices.interfaces import Imu, ImuSim
from swervelib.devices.settings import ImuSettings
from swervelib.devices.wpilib_sensors import PooledDevice

NOT_CONNECTED = "not connected"


class _WpilibGyro(PooledDevice, Imu):
    """Shared reading, inversion and fault logic.

    ``_DEVICE_SIGN`` turns the device's ``getAngle()`` into CCW positive (+1 or -1).
    """

    _sim: ImuSim | None

    _DEVICE_SIGN = 1.0

    def __init__(self, settings: ImuSettings, key: tuple[str, int]) -> None:
        self._take_port(settings, key)
        self._last_yaw = 0.0
        self._last_rate = 0.0
        self._value_fault: str | None = None

    # -- per device -------------------------------------------------------------------------------
    def _open(self) -> Any:
        raise NotImplementedError

    def _is_connected(self) -> bool:
        """Whether the device says it answers (devices that cannot tell say True)."""
        return True

    def _make_sim(self) -> ImuSim:
        raise NotImplementedError

    # -- reading ----------------------------------------------------------------------------------
    def _read(self, value: float, last: float) -> float:
        """``value`` (already CCW positive) after inversion, or ``last`` if it is not finite."""
        reading, self._value_fault = checked(value, last, self._sign)
        return reading

    def get_raw_yaw_degrees(self) -> float:
        if self._device is not None and self._is_connected():
            self._last_yaw = self._read(self._DEVICE_SIGN * self._device.getAngle(), self._last_yaw)
        self.fault()
        return self._last_yaw

    def get_yaw_rate_dps(self) -> float:
        if self._device is not None and self._is_connected():
            self._last_rate = self._read(
                self._DEVICE_SIGN * self._device.getRate(), self._last_rate
            )
        self.fault()
        return self._last_rate

    def _tilt(self) -> tuple[float, float] | None:
        """The open device's (pitch, roll) in degrees; None for a single-axis gyro."""
        return None

    def get_pitch_roll_degrees(self) -> tuple[float, float] | None:
        if self._device is None:
            return None
        try:
            tilt = self._tilt() if self._is_connected() else None
        except Exception:  # a vendor error must not stop the caller's loop
            return None
        return tilt if tilt is not None and math.isfinite(tilt[0] + tilt[1]) else None

    def fault(self) -> str | None:
        if self._device is None:
            return "closed"
        current = self._value_fault if self._is_connected() else NOT_CONNECTED
        self.alert.update(current)
        return current

    @property
    def sim(self) -> ImuSim:
        if self._device is None:
            raise RuntimeError(f"{self.label} is closed")
        if self._sim is None:
            self._sim = self._make_sim()
        return self._sim


class ADIS16448Imu(_WpilibGyro):
    """ADIS16448 on the MXP SPI port (WPILib default), yaw axis Z; ``getAngle()`` is CCW+."""

    def __init__(self, settings: ImuSettings) -> None:
        super().__init__(settings, ("spi:ADIS16448", 0))

    def _open(self) -> Any:
        return wpilib.ADIS16448_IMU()

    def _is_connected(self) -> bool:
        return bool(self._device.isConnected())

    def _tilt(self) -> tuple[float, float] | None:
        device = self._device
        return device.getGyroAngleY(), device.getGyroAngleX()

    def _make_sim(self) -> ImuSim:
        from wpilib.simulation import ADIS16448_IMUSim

        return _AdisSim(ADIS16448_IMUSim(self._device))


class ADIS16470Imu(_WpilibGyro):
    """ADIS16470 on the onboard SPI CS0 port (WPILib default), yaw axis Z; ``getAngle()`` is CCW+."""

    def __init__(self, settings: ImuSettings) -> None:
        super().__init__(settings, ("spi:ADIS16470", 0))

    def _open(self) -> Any:
        return wpilib.ADIS16470_IMU()

    def _is_connected(self) -> bool:
        return bool(self._device.isConnected())

    def _tilt(self) -> tuple[float, float] | None:
        device = self._device
        axis = wpilib.ADIS16470_IMU.IMUAxis
        return device.getAngle(axis.kPitch), device.getAngle(axis.kRoll)

    def _make_sim(self) -> ImuSim:
        from wpilib.simulation import ADIS16470_IMUSim

        return _AdisSim(ADIS16470_IMUSim(self._device))


class ADXRS450Imu(_WpilibGyro):
    """ADXRS450 on the onboard SPI CS0 port (WPILib default); ``getAngle()`` is CW+, negated."""

    _DEVICE_SIGN = -1.0

    def __init__(self, settings: ImuSettings) -> None:
        super().__init__(settings, ("spi:ADXRS450", 0))

    def _open(self) -> Any:
        return wpilib.ADXRS450_Gyro()

    def _is_connected(self) -> bool:
        return bool(self._device.isConnected())

    def _make_sim(self) -> ImuSim:
        from wpilib.simulation import ADXRS450_GyroSim, SimDeviceSim

        connected = SimDeviceSim(f"Gyro:ADXRS450[{self._device.getPort()}]").getBoolean("connected")
        return _ClockwiseGyroSim(ADXRS450_GyroSim(self._device), connected)


class AnalogGyroImu(_WpilibGyro):
    """An analog rate gyro on analog input ``id`` (0 or 1); ``getAngle()`` is CW+, negated.

    An analog signal cannot tell a disconnected gyro, so ``fault()`` only reports NaN readings.
    WPILib calibrates it in the constructor (several seconds on a real roboRIO; keep it still).
    """

    _DEVICE_SIGN = -1.0

    def __init__(self, settings: ImuSettings) -> None:
        super().__init__(settings, ("analog", settings.device.id))

    def _open(self) -> Any:
        return wpilib.AnalogGyro(self.channel)

    def _make_sim(self) -> ImuSim:
        from wpilib.simulation import AnalogGyroSim

        return _ClockwiseGyroSim(AnalogGyroSim(self._device), None)


class _AdisSim(ImuSim):
    """ADIS sims write the CCW-positive Z axis the device reports.

    WPILib's ADIS ``isConnected()`` does not follow the sim device's ``connected`` value, so a
    disconnect cannot be simulated (``set_connected`` raises NotImplementedError).
    """

    def __init__(self, sim: Any) -> None:
        self._sim = sim

    def set_raw_yaw(self, degrees: float, rate_dps: float) -> None:
        self._sim.setGyroAngleZ(degrees)
        self._sim.setGyroRateZ(rate_dps)

    def set_tilt(self, pitch_deg: float, roll_deg: float) -> None:
        """The integrated angles about the chip's Y (pitch) and X (roll) axes."""
        self._sim.setGyroAngleY(pitch_deg)
        self._sim.setGyroAngleX(roll_deg)


class _ClockwiseGyroSim(ImuSim):
    """Sims of clockwise-positive gyros: the CCW physical yaw is written negated."""

    def __init__(self, sim: Any, connected: Any | None) -> None:
        self._sim = sim
        self._connected = connected

    def set_raw_yaw(self, degrees: float, rate_dps: float) -> None:
        self._sim.setAngle(-degrees)
        self._sim.setRate(-rate_dps)

    def set_tilt(self, pitch_deg: float, roll_deg: float) -> None:
        """Nothing: a single-axis gyro cannot see a tilt (its pitch and roll are None)."""

    def set_connected(self, connected: bool) -> None:
        if self._connected is None:
            super().set_connected(connected)
        else:
            self._connected.set(connected)
