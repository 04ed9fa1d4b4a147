"""Talon SRX (phoenix5) driving a CIM: drive motor in metres, angle motor in module degrees.

Sensor assumption (documented, as YAGSL's TalonSRX support assumes it too): the selected feedback
sensor is a **quadrature encoder counting 4096 native units per motor rotation** (a CTRE SRX Mag
Encoder in relative mode, or any 1024 CPR encoder decoded 4x) whose **phase matches the motor**:
driving the bare motor forward makes the count increase (``setSensorPhase(False)``). If the encoder
sits on the module shaft rather than the motor, configure a gear ratio of 1 (360 degrees per
rotation). A sensor wired out of phase makes the Talon raise ``SensorOutOfPhase``, reported by
:meth:`TalonSRXMotor.fault`.

All conversions happen here: ``settings.units_per_rotation`` (degrees or metres per motor rotation)
divided by 4096 gives the unit of one native count; velocities are native counts per 100 ms.

``setInverted(True)`` reverses the motor output *and* the selected sensor reading (the Talon keeps
them in phase), which is exactly ``MotorSettings.inverted``. The simulation collection speaks the
bare motor's frame: ``getMotorOutputLeadVoltage()`` is the voltage across the bare motor (negative
for a positive command when inverted) and the quadrature input is the bare encoder's count.

PIDF gains (``settings.pidf``) act on the converted units, as for every vendor: ``p`` is output
fraction (of ``optimal_voltage``, voltage compensation is on) per degree (angle) or per m/s (drive)
of error, ``i`` and ``d`` likewise per the Talon's 1 ms loop, ``iz`` in degrees or m/s, ``f`` (drive
only) output fraction per m/s of setpoint. They are scaled here into the Talon's native gains
(1023 = full output, per native unit). The angle ``f`` is not applied: a Talon's ``kF`` multiplies
the *position* setpoint, which is meaningless for an unwrapped module angle.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

import phoenix5
import wpilib

from swervelib.angles import nearest_equivalent
from swervelib.config.model import PIDF
from swervelib.devices.ctre5 import (
    CONFIG_TIMEOUT_MS,
    ENABLE_FEED,
    FAULT_READ_EVERY,
    SIMULATION,
    Debounce,
    code_name,
    is_ok,
    monotonic,
    read_failed,
)
from swervelib.devices.faults import ConfigCalls, FaultAlert
from swervelib.devices.guard import MAX_POSITION, SetpointGuard
from swervelib.devices.interfaces import MotorSim, ReadingWatch, SwerveMotor
from swervelib.devices.seeding import PendingSeed
from swervelib.devices.settings import MotorSettings, Role

# Native quadrature counts per motor rotation (see the module docstring).
COUNTS_PER_ROTATION: Final = 4096
# A reading this close to a seed (native counts) shows it (see swervelib.devices.seeding).
SEED_MATCH_COUNTS: Final = 4
# The Talon's closed-loop output scale: 1023 native output units = 100 % output.
FULL_OUTPUT: Final = 1023.0
# Selected-sensor status frame period: fresher readings than the 20 ms default.
FEEDBACK_FRAME_MS: Final = 10

# The per-loop control modes, as plain names: an enum value looked up on its class every call is
# a lookup CPython 3.11 does not specialise.
_VELOCITY: Final = phoenix5.ControlMode.Velocity
_POSITION: Final = phoenix5.ControlMode.Position
_ARBITRARY_FF: Final = phoenix5.DemandType.ArbitraryFeedForward

# Default gains (converted units, see the module docstring) when pidfproperties.json is absent.
DEFAULT_ANGLE_PIDF: Final = PIDF(p=0.01)  # 1 % output per degree of module error
DEFAULT_DRIVE_PIDF: Final = PIDF(p=0.1)  # 10 % output per m/s; the feedforward does the rest

# Talon fault flags that mean something is wrong (limit switches and soft limits are normal).
_FAULT_FLAGS: Final = (
    ("HardwareFailure", "hardware failure"),
    ("SensorOutOfPhase", "sensor out of phase (encoder counts against the motor)"),
    ("SensorOverflow", "sensor overflow"),
    ("RemoteLossOfSignal", "remote sensor lost"),
    ("UnderVoltage", "under-voltage"),
    ("ResetDuringEn", "reset while enabled"),
    ("HardwareESDReset", "ESD reset"),
    ("SupplyUnstable", "supply unstable"),
    ("SupplyOverV", "supply over-voltage"),
    ("APIError", "API error"),
)


def _apply(calls: ConfigCalls, what: str, action: Callable[[], Any]) -> bool:
    """Run a phoenix5 config call through ``calls`` (retries, then an Alert)."""
    return calls.apply(what, lambda: is_ok(action()))


class TalonSRXMotor(ReadingWatch, SwerveMotor):
    """A Talon SRX with a CIM, as a swerve drive motor (metres) or angle motor (degrees)."""

    # What the loop reads lives in the object (the set-up state in its instance dict).
    __slots__ = (
        "_command_error",
        "_config_error",
        "_debounce",
        "_faults",
        "_frame_checked",
        "_position",
        "_read",
        "_read_error",
        "_refreshes",
        "_seed",
        "_unit",
        "_velocity",
        "_volts",
        "guard",
        "talon",
    )

    def __init__(self, settings: MotorSettings) -> None:
        self.settings = settings
        self.label = settings.label
        device = settings.device
        self.talon = (
            phoenix5.TalonSRX(device.id, device.canbus)
            if device.canbus
            else phoenix5.TalonSRX(device.id)
        )
        # Units (degrees or metres) per native count.
        self._unit = settings.units_per_rotation / COUNTS_PER_ROTATION
        self.guard = SetpointGuard(settings)
        self._volts = self.guard.max_volts
        self._alert = FaultAlert(settings.label)
        self.config_calls = ConfigCalls(settings.label)  # what did not apply, on an Alert
        self._debounce = Debounce()
        self._position = 0.0
        self._velocity = 0.0
        self._read = False  # read since the last refresh()
        # The position read just now was checked: the velocity read after it comes from the
        # same status frame (Status 2, Feedback0), so it needs no second getLastError().
        self._frame_checked = False
        self._seed: PendingSeed | None = None  # until the readings show it
        self._read_error: str | None = None
        self._faults: str | None = None  # the fault flags as last read
        self._fault_flags = phoenix5.Faults()  # filled by each read of them
        self._refreshes = 0
        self._command_error: str | None = None
        self._config_error: str | None = None
        self._sim: TalonSRXSim | None = None
        self._configure()

    # ----------------------------------------------------------------------------- configuration

    def _configure(self) -> None:
        talon = self.talon
        s = self.settings
        calls = self.config_calls
        t = CONFIG_TIMEOUT_MS

        def config(what: str, action: Callable[[], Any]) -> None:
            _apply(calls, what, action)

        if not _apply(calls, "factory defaults", lambda: talon.configFactoryDefault(t)):
            # Not answering: skip the rest rather than wait out every retry of every call. The
            # motor stays unconfigured (inversion included), so this is reported until restart.
            self._config_error = "not configured: did not answer at start-up"
            return
        config(
            "feedback sensor",
            lambda: talon.configSelectedFeedbackSensor(phoenix5.FeedbackDevice.QuadEncoder, 0, t),
        )

        def invert() -> bool:
            talon.setSensorPhase(False)
            talon.setInverted(s.inverted)
            return talon.getInverted() == s.inverted and is_ok(talon.getLastError())

        calls.apply("inversion", invert)
        self.set_brake(s.brake)

        limit = round(s.current_limit_a)
        if limit > 0:
            config("continuous current limit", lambda: talon.configContinuousCurrentLimit(limit, t))
            config("peak current limit", lambda: talon.configPeakCurrentLimit(limit, t))
            config("peak current duration", lambda: talon.configPeakCurrentDuration(0, t))
        talon.enableCurrentLimit(limit > 0)

        ramp = max(0.0, s.ramp_rate_s)
        config("open-loop ramp", lambda: talon.configOpenloopRamp(ramp, t))
        config("closed-loop ramp", lambda: talon.configClosedloopRamp(ramp, t))

        config("voltage compensation", lambda: talon.configVoltageCompSaturation(self._volts, t))
        talon.enableVoltageCompensation(True)

        self._configure_pidf()
        config(
            "feedback status frame",
            lambda: talon.setStatusFramePeriod(
                phoenix5.StatusFrameEnhanced.Status_2_Feedback0, FEEDBACK_FRAME_MS, t
            ),
        )

    def _configure_pidf(self) -> None:
        talon = self.talon
        s = self.settings
        t = CONFIG_TIMEOUT_MS
        angle = s.role is Role.ANGLE
        pidf = (
            s.pidf if s.pidf is not None else (DEFAULT_ANGLE_PIDF if angle else DEFAULT_DRIVE_PIDF)
        )
        # Native error units per converted unit: counts per degree, or counts/100 ms per m/s.
        native_per_unit = 1.0 / self._unit if angle else 1.0 / (self._unit * 10.0)
        gain = FULL_OUTPUT / native_per_unit
        kf = 0.0 if angle else pidf.f * gain
        peak = min(1.0, max(abs(pidf.output_min), abs(pidf.output_max)))
        steps = (
            ("kP", lambda: talon.config_kP(0, pidf.p * gain, t)),
            ("kI", lambda: talon.config_kI(0, pidf.i * gain, t)),
            ("kD", lambda: talon.config_kD(0, pidf.d * gain, t)),
            ("kF", lambda: talon.config_kF(0, kf, t)),
            ("integral zone", lambda: talon.config_IntegralZone(0, pidf.iz * native_per_unit, t)),
            ("closed-loop peak output", lambda: talon.configClosedLoopPeakOutput(0, peak, t)),
            ("PID slot", lambda: talon.selectProfileSlot(0, 0)),
        )
        for what, action in steps:
            _apply(self.config_calls, what, action)

    # ----------------------------------------------------------------------------------- commands

    def set_voltage(self, volts: float) -> None:
        if SIMULATION and monotonic() >= ENABLE_FEED.next_s:  # (feed() due: see ENABLE_FEED)
            ENABLE_FEED.feed()
        guard = self.guard
        if not -guard.max_volts <= volts <= guard.max_volts:  # out of range, NaN or infinite
            checked = guard.volts(volts)
            if checked is None:
                self.talon.neutralOutput()
                return
            volts = checked
        self.talon.set(phoenix5.ControlMode.PercentOutput, volts / self._volts)

    def set_velocity(self, units_per_second: float, feedforward_volts: float) -> None:
        if SIMULATION and monotonic() >= ENABLE_FEED.next_s:  # (feed() due: see ENABLE_FEED)
            ENABLE_FEED.feed()
        guard = self.guard
        speed, volts = guard.max_speed, guard.max_volts
        if not (-speed <= units_per_second <= speed and -volts <= feedforward_volts <= volts):
            checked = guard.velocity(units_per_second, feedforward_volts)
            if checked is None:  # NaN or infinite
                self.talon.neutralOutput()
                return
            units_per_second, feedforward_volts = checked
        native = units_per_second / self._unit / 10.0  # counts per 100 ms
        self.talon.set(
            _VELOCITY,
            native,
            _ARBITRARY_FF,
            feedforward_volts / self._volts,
        )

    def set_angle(self, degrees: float) -> None:
        if SIMULATION and monotonic() >= ENABLE_FEED.next_s:  # (feed() due: see ENABLE_FEED)
            ENABLE_FEED.feed()
        if not -MAX_POSITION <= degrees <= MAX_POSITION and not self.guard.position(
            "set_angle", degrees
        ):
            self.talon.neutralOutput()
            return
        # the short way from the motor's last reading (the module reads it every loop first)
        target = nearest_equivalent(degrees, self._position)
        self.talon.set(_POSITION, target / self._unit)

    def set_position(self, value: float) -> None:
        if not self.guard.position("set_position", value):
            return
        before = self.talon.getSelectedSensorPosition(0)
        native = value / self._unit
        code = self.talon.setSelectedSensorPosition(native, 0, 0)
        if is_ok(code):
            self._command_error = None
            self._position = value
            self._seed = PendingSeed(native, before, SEED_MATCH_COUNTS)
        else:
            self._command_error = f"set_position failed ({code_name(code)})"

    def set_brake(self, brake: bool) -> None:
        mode = phoenix5.NeutralMode.Brake if brake else phoenix5.NeutralMode.Coast
        self.talon.setNeutralMode(mode)

    # ----------------------------------------------------------------------------------- readings

    def _checked(self, value: float, what: str) -> bool:
        self._read = True
        code = self.talon.getLastError()
        if code.value or value - value != 0.0:  # not OK (is_ok without int()), or not finite
            self._read_failed(code, what)
            return False
        return True

    def _read_failed(self, code: Any, what: str) -> None:
        """Say why a reading was refused: the Talon's error ``code``, or else a value not finite."""
        if code.value:
            self._read_error = read_failed(what, code)
        else:
            self._read_error = f"{what} reads NaN"

    def get_position(self) -> float:
        talon = self.talon
        raw = talon.getSelectedSensorPosition(0)
        self._read = True
        code = talon.getLastError()  # (_checked, inline: this runs twice per module every loop)
        if code.value or raw - raw != 0.0:
            self._frame_checked = False
            self._read_failed(code, "position")
            self._lose_reading()  # the Talon did not answer (or NaN): the last good value
            return self._position
        self._frame_checked = True
        if self._seed is None or self._seed_shown(raw):
            self._position = raw * self._unit
        return self._position

    def _seed_shown(self, raw: float) -> bool:
        assert self._seed is not None
        if self._seed.shown_by(raw):
            self._seed = None
            return True
        return False  # the seed is answered until a frame shows it

    def get_velocity(self) -> float:
        raw = self.talon.getSelectedSensorVelocity(0)
        if self._frame_checked:  # right after a good position read: the same frame
            self._frame_checked = False
            if raw - raw == 0.0:
                self._velocity = raw * 10.0 * self._unit
            else:
                self._read_error = "velocity reads NaN"
        elif self._checked(raw, "velocity"):
            self._velocity = raw * 10.0 * self._unit
        return self._velocity

    def refresh(self) -> None:
        """Judge the readings taken since the last refresh (read now if there were none) and the
        fault flags; a fault is reported after a few bad samples."""
        if not self._read:
            self.get_position()
            self.get_velocity()
        count = self._refreshes
        self._refreshes = count + 1
        if count % FAULT_READ_EVERY == 0:
            self._faults = self._device_faults()
        problem = self._read_error or self._faults or self._config_error or self._command_error
        self._read_error = None
        self._read = self._frame_checked = False
        debounce = self._debounce
        if problem is not None or not debounce.quiet:  # (a healthy, quiet loop makes no call)
            debounce.report(problem, self._alert)

    def _device_faults(self) -> str | None:
        faults = self._fault_flags
        code = self.talon.getFaults(faults)
        if not is_ok(code):
            return read_failed("faults", code)
        if not faults.hasAnyFault():
            return None
        found = [text for flag, text in _FAULT_FLAGS if getattr(faults, flag, False)]
        return ", ".join(found) if found else None

    def get_applied_volts(self) -> float:
        try:
            return float(self.talon.getMotorOutputVoltage())
        except Exception:  # a vendor error must not stop the robot loop
            return math.nan

    def get_current_amps(self) -> float:
        try:
            return float(self.talon.getStatorCurrent())
        except Exception:
            return math.nan

    def recheck_reading(self) -> None:
        if self._read_error is None:  # this loop's reads (since refresh()) were answered
            self._regain_reading()

    def fault(self) -> str | None:
        reported = self._debounce.reported
        if reported is None:
            self._regain_reading()
        return reported

    @property
    def alert(self) -> FaultAlert:
        """The WPILib Alert showing this motor's fault."""
        return self._alert

    # --------------------------------------------------------------------------------- simulation

    @property
    def sim(self) -> TalonSRXSim:
        if self._sim is None:
            self._sim = TalonSRXSim(self.talon)
        return self._sim


class TalonSRXSim(MotorSim):
    """The Talon SRX simulation collection, in the bare motor's frame."""

    def __init__(self, talon: phoenix5.TalonSRX) -> None:
        self._collection = talon.getSimCollection()

    def applied_voltage(self) -> float:
        # Voltage across the bare motor: the Talon has already applied setInverted.
        return float(self._collection.getMotorOutputLeadVoltage())

    def set_rotor(self, rotations: float, rotations_per_second: float, dt: float) -> None:
        c = self._collection
        c.setBusVoltage(wpilib.RobotController.getBatteryVoltage())
        # The bare quadrature count (the Talon applies the inversion to its selected sensor).
        c.setQuadratureRawPosition(round(rotations * COUNTS_PER_ROTATION))
        c.setQuadratureVelocity(round(rotations_per_second * COUNTS_PER_ROTATION / 10.0))
