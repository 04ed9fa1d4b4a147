"""phoenix6 Pigeon 2.0 IMU.

Yaw is the Pigeon's own (counter-clockwise positive, unwrapped) yaw in degrees; the rate is the
world-frame z angular velocity in degrees per second. ``ImuSettings.inverted`` negates both. The
simulation hook writes the bare device's yaw and rate (its own CCW-positive frame).

Pitch and roll (on demand) are the Pigeon's own ``get_pitch()`` / ``get_roll()``, as they are: CTRE's
Pigeon 2.0 user's guide (Orientation Convention) defines X forward, Y left, Z up, yaw about Z, then
pitch about the new Y ("pitching nose down is positive"), then roll about the new X, which are
WPILib's extrinsic roll, pitch, yaw (``Rotation3d``). Their signals are refreshed only when asked.
The simulation hook's ``set_tilt`` writes them through the sim state's ``set_pitch`` / ``set_roll``.
"""

from __future__ import annotations

import math
from typing import Any, cast

from phoenix6 import BaseStatusSignal, configs, hardware

from swervelib.devices.ctre6 import (
    OK,
    SignalDevice,
    SimDisconnect,
    apply_at_start,
    can_bus,
    signal_fault,
)
from swervelib.devices.faults import ConfigCalls, FaultAlert
from swervelib.devices.interfaces import Imu, ImuSim, UsableFlag
from swervelib.devices.settings import ImuSettings


class Pigeon2Sim(SimDisconnect, ImuSim):
    """Simulation hook of a Pigeon 2.0, in the bare device's frame."""

    def __init__(self, device: Any) -> None:
        self._state = device.sim_state
        self._device_type = "P6_Pigeon2Type"
        self._device_id = device.device_id

    def set_raw_yaw(self, degrees: float, rate_dps: float) -> None:
        state = self._state
        state.set_raw_yaw(degrees)
        state.set_angular_velocity_z(rate_dps)

    def set_tilt(self, pitch_deg: float, roll_deg: float) -> None:
        """The Pigeon's own pitch and roll, which are WPILib's (see the module docstring)."""
        state = self._state
        state.set_pitch(pitch_deg)
        state.set_roll(roll_deg)


class Pigeon2Imu(SignalDevice, UsableFlag, Imu):
    """A Pigeon 2.0 on the CAN bus named in the settings."""

    def __init__(self, settings: ImuSettings) -> None:
        self.settings = settings
        self.label = settings.label
        self._alert = FaultAlert(settings.label)
        self.config_calls = ConfigCalls(settings.label)  # what did not apply, on an Alert
        self._sign = -1.0 if settings.inverted else 1.0
        self.device = hardware.Pigeon2(settings.device.id, can_bus(settings.device.bus_name))
        # fresh: mount pose 0, no trims, compass off (the class is untyped in phoenix6)
        config = cast(Any, configs.Pigeon2Configuration)()
        apply_at_start(self.config_calls, "Pigeon2 configuration", self.device.configurator, config)
        self._yaw = self.device.get_yaw(False)
        self._rate = self.device.get_angular_velocity_z_world(False)
        self._signals: list[Any] = [self._yaw]  # the rate is refreshed only when asked for
        self._tilt = (self.device.get_pitch(False), self.device.get_roll(False))  # likewise
        self._sim = Pigeon2Sim(self.device)
        self._last_yaw = 0.0
        self._last_rate = 0.0
        self._yaw.wait_for_update(0.1, False)
        self.refresh()
        self.get_raw_yaw_degrees()
        self.get_yaw_rate_dps()

    def get_raw_yaw_degrees(self) -> float:
        signal = self._yaw
        value = signal.value_as_double
        self.usable = signal.status is OK and value == value  # answering, not NaN
        if self.usable:
            self._last_yaw = self._sign * value
        return self._last_yaw

    def get_yaw_rate_dps(self) -> float:
        signal = self._rate
        signal.refresh(False)
        if signal.status is OK:
            value = signal.value_as_double
            if value == value:
                self._last_rate = self._sign * value
        return self._last_rate

    def get_pitch_roll_degrees(self) -> tuple[float, float] | None:
        pitch, roll = self._tilt
        try:
            BaseStatusSignal.refresh_all(pitch, roll)
        except Exception:  # a vendor error must not stop the caller's loop
            return None
        if pitch.status is not OK or roll.status is not OK:
            return None
        values = (pitch.value_as_double, roll.value_as_double)
        return values if math.isfinite(values[0] + values[1]) else None

    def fault(self) -> str | None:
        text = signal_fault(self._signals)
        self._alert.update(text)
        return text

    @property
    def sim(self) -> Pigeon2Sim:
        return self._sim
