"""Studica navX3 on the CAN bus through robotpy-navx (``navx.Navx(deviceId)``), type ``navx3``.

Frames: unlike the navX-MXP's ``AHRS``, the navX3's ``getYaw()`` is counter-clockwise positive (its
``getRotation2D()`` is the same angle), wrapped to [-180, 180]. The un-inverted yaw we report is
that yaw unwrapped here (each new reading moves the last one the short way round), so it is
continuous like the other IMUs'; ``invertedIMU`` negates it. The rate is the gyro's z angular
velocity (``getAngularVel()``), in degrees per second, negated likewise. ``resetYaw()`` is never
used: zeroing is done in software by the drive.

Pitch and roll (on demand) are the navX3's ``getPitch()`` / ``getRoll()`` as it reports them (a
value of 360 is its error flag: None). Its yaw is counter-clockwise positive, unlike the
navX-MXP's, but we found no statement of its pitch and roll signs: they are taken to be WPILib's
NWU ones; check them on the robot (docs/device-types.md says how).

A reading the navX3 flags as an error (``getRotation2D()`` returning its error flag) or one that is
not finite keeps the last good value and is reported through the adapter's Alert.

One ``Navx`` per CAN id and process: every adapter on the same id shares one device, kept open
for the life of the process (as for the other navX types).

Simulation: the device registers the SimDevice ``NavX3[<id>]``; the hook writes its ``Yaw``
(wrapped to [-180, 180), counter-clockwise positive) and ``Angle`` (continuous). The simulated
navX3 has no angular-velocity or connection value, so the simulated rate reads 0 and a
disconnect cannot be simulated. ``set_tilt`` writes its ``Pitch`` and ``Roll`` as the adapter reads
them (the simulated navX3 passes them through unchanged, so it cannot tell the real signs).
"""

from __future__ import annotations

import math
from typing import Any

import navx

from swervelib.devices.faults import FaultAlert
from swervelib.devices.interfaces import Imu, ImuSim, UsableFlag
from swervelib.devices.settings import ImuSettings

ERROR_READING = "reported a reading error"
ERROR_DEGREES = 360.0  # what the navX3's angle getters return on an error

# The one navX3 per CAN id in this process (see the module docstring).
_OPEN: dict[int, Any] = {}


def _open(device_id: int) -> Any:
    device = _OPEN.get(device_id)
    if device is None:
        device = navx.Navx(device_id)
        _OPEN[device_id] = device
    return device


class NavX3Imu(UsableFlag, Imu):
    """A navX3 at CAN id ``settings.device.id``."""

    def __init__(self, settings: ImuSettings) -> None:
        self.label = settings.label
        self._id = settings.device.id
        self._sign = -1.0 if settings.inverted else 1.0
        self.alert = FaultAlert(settings.label)
        self._sim: ImuSim | None = None
        self._wrapped: float | None = None  # the device's last good yaw, as it reports it
        self._continuous = 0.0  # that yaw unwrapped, counter-clockwise positive
        self._last_rate = 0.0
        self._fault: str | None = None
        self._device: Any = None
        try:
            self._device = _open(self._id)
        except Exception as error:  # the vendor raises plain RuntimeErrors; keep the robot alive
            self._fault = f"could not be started: {error}"
        self.get_raw_yaw_degrees()
        self.fault()

    def get_raw_yaw_degrees(self) -> float:
        """The yaw; the Alert is updated by :meth:`fault` (the drive calls it about once a
        second), not here, so this stays cheap enough for every loop."""
        device = self._device
        if device is None:
            self.usable = False
            return self._sign * self._continuous
        error, rotation = device.getRotation2D()
        degrees = rotation.degrees()
        if error or not math.isfinite(degrees):
            self._fault = ERROR_READING if error else "reading NaN"
            self.usable = False
        else:
            self._fault = None
            self.usable = True
            if self._wrapped is None:
                self._continuous = degrees
            else:
                self._continuous += math.remainder(degrees - self._wrapped, 360.0)
            self._wrapped = degrees
        return self._sign * self._continuous

    def get_yaw_rate_dps(self) -> float:
        if self._device is not None:
            error, _x, _y, z = self._device.getAngularVel()
            if not error and math.isfinite(z):
                self._last_rate = self._sign * z
        self.fault()
        return self._last_rate

    def get_pitch_roll_degrees(self) -> tuple[float, float] | None:
        device = self._device
        if device is None:
            return None
        try:
            pitch, roll = float(device.getPitch()), float(device.getRoll())
        except Exception:  # a vendor error must not stop the caller's loop
            return None
        if pitch == ERROR_DEGREES or roll == ERROR_DEGREES or not math.isfinite(pitch + roll):
            return None
        return pitch, roll

    def fault(self) -> str | None:
        self.alert.update(self._fault)
        return self._fault

    @property
    def sim(self) -> ImuSim:
        if self._device is None:
            raise RuntimeError(f"{self.label}: {self._fault}")
        if self._sim is None:
            self._sim = NavX3Sim(self._id)
        return self._sim

    def close(self) -> None:
        """Detach this adapter. The navX3 itself stays open for the process."""
        self._sim = None


class NavX3Sim(ImuSim):
    """The ``NavX3[<id>]`` SimDevice, counter-clockwise positive."""

    def __init__(self, device_id: int) -> None:
        from wpilib.simulation import SimDeviceSim

        device = SimDeviceSim(f"NavX3[{device_id}]")
        self._yaw = device.getDouble("Yaw")
        self._angle = device.getDouble("Angle")
        self._pitch = device.getDouble("Pitch")
        self._roll = device.getDouble("Roll")

    def set_raw_yaw(self, degrees: float, rate_dps: float) -> None:
        if math.isfinite(degrees):
            self._yaw.set(degrees - 360.0 * math.floor((degrees + 180.0) / 360.0))
        else:
            self._yaw.set(degrees)
        self._angle.set(degrees)

    def set_tilt(self, pitch_deg: float, roll_deg: float) -> None:
        """As the adapter reads them: the navX3's pitch and roll taken as WPILib's (assumed, see
        the module docstring)."""
        self._pitch.set(pitch_deg)
        self._roll.set(roll_deg)
