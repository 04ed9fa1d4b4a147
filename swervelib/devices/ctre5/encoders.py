"""Absolute encoders plugged into a Talon SRX data port: the angle motor's, or a Talon of their own.

* ``talonsrx_pwm``: a CTRE SRX Mag Encoder's absolute (pulse-width) output, 4096 units per rotation,
  read with ``getSensorCollection().getPulseWidthPosition()``. That count is continuous on the
  Talon (it tracks wraps), so it is reduced modulo 4096 here. A disconnected encoder has no pulse:
  the rise-to-rise period reads 0, which :meth:`TalonSRXAttachedEncoder.fault` reports.
* ``talonsrx_analog``: an analog absolute encoder on the Talon's analog input, 1024 units per
  rotation (0..3.3 V), read with ``getAnalogInRaw()``. An unplugged analog input still reads a
  (floating) value, so only a Talon that stops answering can be detected, not a loose sensor.
* ``srxmag_standalone``: an SRX Mag Encoder on a Talon SRX that is not the angle motor (YAGSL's
  type for a Talon used only as the encoder's interface), at CAN id ``id``; read like
  ``talonsrx_pwm``.

Both readings are the bare sensor's; ``EncoderSettings.inverted`` negates them in software (the
Talon's ``setSensorPhase`` only applies to its selected feedback sensor). The result is degrees in
[0, 360). The relevant Talon status frame (8 for pulse width, 4 for analog) is sped up from its
160 ms default so the reading is as fresh as the module's control loop needs.
"""

from __future__ import annotations

from typing import Any, Final

import phoenix5

from swervelib.devices.ctre5 import CONFIG_TIMEOUT_MS, Debounce, is_ok, read_failed
from swervelib.devices.ctre5.talonsrx import TalonSRXMotor
from swervelib.devices.faults import ConfigCalls, FaultAlert
from swervelib.devices.interfaces import AbsoluteEncoder, EncoderSim, UsableFlag
from swervelib.devices.settings import EncoderSettings

PULSE_WIDTH_UNITS: Final = 4096
ANALOG_UNITS: Final = 1024
SENSOR_FRAME_MS: Final = 10

_ATTACHED_KINDS: Final = ("talonsrx_pwm", "talonsrx_analog")
_STANDALONE_KIND: Final = "srxmag_standalone"
DISCONNECTED: Final = "magnet encoder disconnected (no pulse-width signal)"


class _TalonSRXEncoder(UsableFlag, AbsoluteEncoder):
    """An SRX Mag Encoder (pulse width) or analog encoder read through ``talon``.

    :attr:`usable` is whether no fault is reported (set by :meth:`refresh`, the only place the
    reported fault changes): one late frame does not take the module off its absolute encoder."""

    # What the loop reads lives in the object (the set-up state in its instance dict).
    __slots__ = (
        "_counts",
        "_debounce",
        "_inverted",
        "_pulse_width",
        "_read",
        "_read_error",
        "_sensors",
        "_units",
        "talon",
        "usable",
    )

    def __init__(self, settings: EncoderSettings, talon: phoenix5.TalonSRX) -> None:
        self.usable = True
        self.settings = settings
        self.label = settings.label
        self._inverted = settings.inverted
        self._pulse_width = settings.encoder_type.kind != "talonsrx_analog"
        self._units = PULSE_WIDTH_UNITS if self._pulse_width else ANALOG_UNITS
        self.talon = talon
        self._sensors = self.talon.getSensorCollection()
        self._alert = FaultAlert(settings.label)
        self.config_calls = ConfigCalls(settings.label)  # what did not apply, on an Alert
        self._debounce = Debounce()
        self._counts = 0  # last good reading, bare sensor counts in [0, units)
        self._velocity = 0.0
        self._read = False  # read since the last refresh()
        self._read_error: str | None = None
        self._sim: TalonSRXEncoderSim | None = None
        frame = (
            phoenix5.StatusFrameEnhanced.Status_8_PulseWidth
            if self._pulse_width
            else phoenix5.StatusFrameEnhanced.Status_4_AinTempVbat
        )
        self.config_calls.apply(
            "sensor status frame",
            lambda: is_ok(
                self.talon.setStatusFramePeriod(frame, SENSOR_FRAME_MS, CONFIG_TIMEOUT_MS)
            ),
        )

    def _checked(self, what: str) -> bool:
        self._read = True
        code = self.talon.getLastError()
        if code.value:  # not OK (is_ok, inline and without int(): this runs for every reading)
            self._read_error = read_failed(what, code)
            return False
        return True

    def get_absolute_degrees(self) -> float:
        sensors = self._sensors
        self._read = True
        if self._pulse_width:
            raw = sensors.getPulseWidthPosition()
            code = self.talon.getLastError()  # (_checked, inline: every module, every loop)
            if code.value:
                self._read_error = read_failed("position", code)
            # The pulse's period, from the same status frame as the position whose read was just
            # checked (no second check): 0 means no pulse, no encoder.
            elif sensors.getPulseWidthRiseToRiseUs() == 0:
                self._read_error = DISCONNECTED
            else:
                self._counts = int(raw) % PULSE_WIDTH_UNITS
        else:  # analog: an unplugged input still reads a value, only the Talon's answer tells
            raw = sensors.getAnalogInRaw()
            if self._checked("position"):
                self._counts = int(raw) % ANALOG_UNITS
        counts = (-self._counts) % self._units if self._inverted else self._counts
        return counts * 360.0 / self._units

    def get_velocity_dps(self) -> float:
        if self._pulse_width:
            raw = self._sensors.getPulseWidthVelocity()
        else:
            raw = self._sensors.getAnalogInVel()
        if self._checked("velocity"):
            self._velocity = float(raw) * 10.0 * 360.0 / self._units  # units per 100 ms
        return -self._velocity if self._inverted else self._velocity

    def refresh(self) -> None:
        """Judge the readings taken since the last refresh (read now if there were none); a fault
        is reported after a few bad samples."""
        if not self._read:
            self.get_absolute_degrees()
        problem = self._read_error
        self._read_error = None
        self._read = False
        debounce = self._debounce
        if problem is not None or not debounce.quiet:  # (a healthy, quiet loop makes no call)
            debounce.report(problem, self._alert)
            self.usable = debounce.reported is None

    def fault(self) -> str | None:
        return self._debounce.reported

    @property
    def alert(self) -> FaultAlert:
        """The WPILib Alert showing this encoder's fault."""
        return self._alert

    @property
    def sim(self) -> TalonSRXEncoderSim:
        if self._sim is None:
            self._sim = TalonSRXEncoderSim(self.talon, self._pulse_width)
        return self._sim


class TalonSRXAttachedEncoder(_TalonSRXEncoder):
    """An SRX Mag Encoder (pulse width) or analog encoder read through the angle motor's Talon."""

    def __init__(self, settings: EncoderSettings, angle_motor: object) -> None:
        if settings.encoder_type.kind not in _ATTACHED_KINDS:
            raise ValueError(
                f"{settings.label}: TalonSRXAttachedEncoder handles {', '.join(_ATTACHED_KINDS)}, "
                f"not `{settings.device.type}`"
            )
        if not isinstance(angle_motor, TalonSRXMotor):
            raise TypeError(
                f"{settings.label}: encoder type `{settings.device.type}` is read through the angle "
                f"motor's Talon SRX, but the angle motor is "
                f"{getattr(angle_motor, 'label', type(angle_motor).__name__)}; use a `talonsrx` "
                f"angle motor, or another encoder type"
            )
        super().__init__(settings, angle_motor.talon)


class TalonSRXStandaloneEncoder(_TalonSRXEncoder):
    """An SRX Mag Encoder on a Talon SRX of its own at CAN id ``settings.device.id``; the angle
    motor can be anything."""

    def __init__(self, settings: EncoderSettings, angle_motor: object = None) -> None:
        if settings.encoder_type.kind != _STANDALONE_KIND:
            raise ValueError(
                f"{settings.label}: TalonSRXStandaloneEncoder handles {_STANDALONE_KIND}, "
                f"not `{settings.device.type}`"
            )
        super().__init__(settings, phoenix5.TalonSRX(settings.device.id))


class TalonSRXEncoderSim(EncoderSim):
    """The Talon SRX sim collection's pulse-width or analog input, in the bare sensor's frame."""

    def __init__(self, talon: phoenix5.TalonSRX, pulse_width: bool) -> None:
        self._collection: Any = talon.getSimCollection()
        self._pulse_width = pulse_width

    def set_raw(self, rotations: float, rotations_per_second: float) -> None:
        c = self._collection
        if self._pulse_width:
            c.setPulseWidthPosition(round(rotations * PULSE_WIDTH_UNITS))
            c.setPulseWidthVelocity(round(rotations_per_second * PULSE_WIDTH_UNITS / 10.0))
        else:
            c.setAnalogPosition(round(rotations * ANALOG_UNITS))
            c.setAnalogVelocity(round(rotations_per_second * ANALOG_UNITS / 10.0))

    def set_connected(self, connected: bool) -> None:
        if not self._pulse_width:
            super().set_connected(connected)  # raises: an analog input cannot tell
        self._collection.setPulseWidthConnected(connected)
