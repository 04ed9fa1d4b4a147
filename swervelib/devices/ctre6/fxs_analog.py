"""``talonfxs_analog``: an analog absolute encoder on the angle motor's Talon FXS data port.

The Talon FXS reports the voltage on its analog input (``get_analog_voltage``). As in YAGSL, 0 to
3.3 V is one rotation: degrees = volts / 3.3 × 360, wrapped to [0, 360). ``EncoderSettings.inverted``
negates the reading in software. phoenix6 sends that signal at 4 Hz by default, far too slowly to
steer on, so it is asked for at 100 Hz; the drive refreshes it with the other phoenix6 signals.

An unplugged analog input still reads a (floating) voltage, so only a Talon that stops answering
can be detected, not a loose sensor. The simulation hook writes the bare sensor's voltage through
the Talon's ``sim_state``.
"""

from __future__ import annotations

import math
from typing import Any, Final

from swervelib.devices.ctre6 import OK, SignalDevice, signal_fault
from swervelib.devices.ctre6.talonfx import TalonFXSMotor
from swervelib.devices.faults import FaultAlert
from swervelib.devices.interfaces import AbsoluteEncoder, EncoderSim, UsableFlag
from swervelib.devices.settings import EncoderSettings

FULL_SCALE_VOLTS: Final = 3.3
UPDATE_HZ: Final = 100.0


class TalonFXSAnalogSim(EncoderSim):
    """The Talon FXS's simulated analog input, in the bare sensor's frame."""

    def __init__(self, device: Any, talon: Any) -> None:
        self._state = device.sim_state
        self._talon = talon  # the angle Talon's sim hook

    @property
    def connected(self) -> bool:
        """False once the Talon it is read through was disconnected (it sends nothing more)."""
        return bool(self._talon.connected)

    def set_raw(self, rotations: float, rotations_per_second: float) -> None:
        self._state.set_analog_voltage((rotations % 1.0) * FULL_SCALE_VOLTS)


class TalonFXSAnalogEncoder(SignalDevice, UsableFlag, AbsoluteEncoder):
    """An analog absolute encoder read through the angle motor's Talon FXS."""

    def __init__(self, settings: EncoderSettings, angle_motor: object) -> None:
        if not isinstance(angle_motor, TalonFXSMotor):
            raise TypeError(
                f"{settings.label}: encoder type `{settings.device.type}` is read through the angle "
                f"motor's Talon FXS, but the angle motor is "
                f"{getattr(angle_motor, 'label', type(angle_motor).__name__)}; use a `talonfxs_*` "
                f"angle motor, or another encoder type"
            )
        self.settings = settings
        self.label = settings.label
        self._alert = FaultAlert(settings.label)
        device = angle_motor.device
        self._voltage = device.get_analog_voltage(False)
        self._voltage.set_update_frequency(UPDATE_HZ)
        self._signals: list[Any] = [self._voltage]
        self._sim = TalonFXSAnalogSim(device, angle_motor.sim)
        self._last_degrees = 0.0
        self._last_sample: tuple[float, float] | None = None  # (timestamp s, degrees)
        self._velocity = 0.0
        self.refresh()
        self.get_absolute_degrees()

    def get_absolute_degrees(self) -> float:
        signal = self._voltage
        volts = signal.value_as_double
        self.usable = signal.status is OK and math.isfinite(volts)
        if self.usable:
            degrees = (volts / FULL_SCALE_VOLTS * 360.0) % 360.0
            if self.settings.inverted:
                degrees = (-degrees) % 360.0
            self._track_velocity(signal.timestamp.time, degrees)
            self._last_degrees = degrees
        return self._last_degrees

    def _track_velocity(self, stamp: float, degrees: float) -> None:
        """The Talon reports no analog velocity: the change between two samples, the short way
        round, over the time between them."""
        last = self._last_sample
        if last is not None and stamp > last[0]:
            self._velocity = math.remainder(degrees - last[1], 360.0) / (stamp - last[0])
        if last is None or stamp > last[0]:
            self._last_sample = (stamp, degrees)

    def get_velocity_dps(self) -> float:
        # Its own refresh: the drive's batch writes back values, not timestamps, and the
        # velocity is worked out from the samples' times.
        self._voltage.refresh(False)
        self.get_absolute_degrees()  # takes in that sample
        return self._velocity

    def fault(self) -> str | None:
        text = signal_fault(self._signals)
        self._alert.update(text)
        return text

    @property
    def alert(self) -> FaultAlert:
        """The WPILib Alert showing this encoder's fault."""
        return self._alert

    @property
    def sim(self) -> TalonFXSAnalogSim:
        return self._sim
