"""phoenix6 CANcoder absolute encoder.

The device is configured with a fresh ``CANcoderConfiguration``: ``SensorDirection``
CLOCKWISE_POSITIVE when ``EncoderSettings.inverted``, magnet offset 0 (the module subtracts
``absoluteEncoderOffset`` in software) and the discontinuity point at 1 rotation, so the absolute
position is [0, 1) rotation, reported as degrees [0, 360).

The simulation hook writes the bare sensor's reading: ``sim_state.orientation`` stays at its default,
so the CANcoder applies the configured direction itself, as on the robot.
"""

from __future__ import annotations

from typing import Any, cast

import wpilib
from phoenix6 import configs, hardware, signals

from swervelib.devices.ctre6 import (
    OK,
    SignalDevice,
    SimDisconnect,
    apply_at_start,
    can_bus,
    signal_fault,
)
from swervelib.devices.faults import ConfigCalls, FaultAlert
from swervelib.devices.interfaces import AbsoluteEncoder, EncoderSim, UsableFlag
from swervelib.devices.settings import EncoderSettings

_BAD_MAGNET = frozenset(
    {signals.MagnetHealthValue.MAGNET_RED.value, signals.MagnetHealthValue.MAGNET_INVALID.value}
)
# Orange: the magnet is too far, too close or off centre, but the reading is still good (YAGSL
# warns "magnetic field is less than ideal"): a warning, before it turns red during a match.
_WEAK_MAGNET = signals.MagnetHealthValue.MAGNET_ORANGE.value
WEAK_MAGNET_TEXT = (
    "magnet field less than ideal (MAGNET_ORANGE): the reading is still used; check the magnet's "
    "distance and centring before it fails"
)


class CANcoderSim(SimDisconnect, EncoderSim):
    """Simulation hook of a CANcoder, in the bare sensor's frame."""

    def __init__(self, device: Any) -> None:
        self._state = device.sim_state
        self._device_type = "P6_CANcoderType"
        self._device_id = device.device_id

    def set_raw(self, rotations: float, rotations_per_second: float) -> None:
        state = self._state
        state.set_raw_position(rotations)
        state.set_velocity(rotations_per_second)

    def set_magnet_fault(self, bad: bool) -> None:
        health = signals.MagnetHealthValue
        self._state.set_magnet_health(health.MAGNET_RED if bad else health.MAGNET_GREEN)


class CANcoderEncoder(SignalDevice, UsableFlag, AbsoluteEncoder):
    """A CANcoder on the CAN bus named in the settings."""

    def __init__(self, settings: EncoderSettings, angle_motor: Any = None) -> None:
        self.settings = settings
        self.label = settings.label
        self._alert = FaultAlert(settings.label)
        self._magnet_warning = FaultAlert(settings.label, wpilib.Alert.AlertType.kWarning)
        self.config_calls = ConfigCalls(settings.label)  # what did not apply, on an Alert
        self.device = hardware.CANcoder(settings.device.id, can_bus(settings.device.bus_name))

        config = cast(Any, configs.CANcoderConfiguration)()  # untyped in phoenix6
        magnet = config.magnet_sensor
        magnet.sensor_direction = (
            signals.SensorDirectionValue.CLOCKWISE_POSITIVE
            if settings.inverted
            else signals.SensorDirectionValue.COUNTER_CLOCKWISE_POSITIVE
        )
        magnet.magnet_offset = 0.0
        magnet.absolute_sensor_discontinuity_point = 1.0
        apply_at_start(
            self.config_calls, "CANcoder configuration", self.device.configurator, config
        )

        self._absolute = self.device.get_absolute_position(False)
        self._velocity = self.device.get_velocity(False)
        self._magnet = self.device.get_magnet_health(False)
        # The absolute position and the magnet health are refreshed every loop (batched by the
        # drive, which makes each extra signal cheap); the velocity only when asked for.
        self._signals: list[Any] = [self._absolute, self._magnet]
        self._sim = CANcoderSim(self.device)
        self._last_degrees = 0.0
        self._last_velocity = 0.0
        self._absolute.wait_for_update(0.1, False)
        self.refresh()
        self.get_absolute_degrees()
        self.get_velocity_dps()

    def get_absolute_degrees(self) -> float:
        signal, magnet = self._absolute, self._magnet
        value = signal.value_as_double
        self.usable = (
            signal.status is OK
            and value == value  # not NaN
            and magnet.status is OK
            and magnet.value_as_double not in _BAD_MAGNET
        )
        if self.usable:
            degrees = value * 360.0
            if not 0.0 <= degrees < 360.0:
                degrees %= 360.0
            self._last_degrees = degrees
        return self._last_degrees

    def get_velocity_dps(self) -> float:
        signal = self._velocity
        signal.refresh(False)
        if signal.status is OK:
            value = signal.value_as_double
            if value == value:
                self._last_velocity = value * 360.0
        return self._last_velocity

    def fault(self) -> str | None:
        """What makes the reading unusable (not answering, NaN, a red magnet), or None. A weak
        (orange) magnet is no fault, but shows a warning Alert of its own meanwhile."""
        text = signal_fault(self._signals)
        health = self._magnet.value_as_double
        if text is None and health in _BAD_MAGNET:
            text = f"bad magnet ({self._magnet.value.name})"
        self._alert.update(text)
        self._magnet_warning.update(
            WEAK_MAGNET_TEXT if text is None and health == _WEAK_MAGNET else None
        )
        return text

    @property
    def sim(self) -> CANcoderSim:
        return self._sim
