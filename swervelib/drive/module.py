"""One swerve module: its three devices, its angle, and how it follows a desired state.

The module angle comes from the absolute encoder (after inversion) minus the configured offset,
wrapped to [0°, 360°). While the absolute encoder is healthy the module remembers how far the angle
motor's relative encoder sits from it; when the absolute encoder faults (bad magnet, unplugged, NaN)
the module carries on from the relative encoder plus that remembered difference, so the angle does
not jump, and an Alert names the encoder.

The angle motor is always commanded relative to where its own encoder is now (current motor
position plus the shortest turn to the target), so the control never depends on the relative encoder
having been seeded exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from math import nan
from typing import Any

import wpilib
from wpimath.geometry import Rotation2d, Translation2d
from wpimath.kinematics import SwerveModulePosition, SwerveModuleState

from swervelib.angles import module_angle, wrap_180, wrap_360
from swervelib.config.model import ModuleConfig
from swervelib.devices.faults import FaultAlert
from swervelib.devices.interfaces import AbsoluteEncoder, SwerveMotor

NOMINAL_VOLTS = 12.0
READ_ERRORS = (
    "drive position",
    "drive velocity",
    "angle position",
    "absolute encoder",
    "absolute encoder fault",
)
MOTOR_FAULT_EVERY = 5  # loops between polls of the motor controllers' fault bits (100 ms)
ANTI_JITTER_FRACTION = 0.01  # below 1 % of top speed, hold the last angle instead of snapping


def _finite(value: float, fallback: float) -> float:
    return value if math.isfinite(value) else fallback


class SwerveModule:
    """A module: call :meth:`update` once per loop, then read or command it."""

    def __init__(
        self,
        config: ModuleConfig,
        drive_motor: SwerveMotor,
        angle_motor: SwerveMotor,
        encoder: AbsoluteEncoder | None,
        *,
        free_speed_mps: float,
    ) -> None:
        self.config = config
        self.name = config.name
        self.location = Translation2d(config.location.front_m, config.location.left_m)
        self.drive_motor = drive_motor
        self.angle_motor = angle_motor
        self.encoder = encoder
        self.free_speed_mps = free_speed_mps
        self.use_cosine_compensator = config.use_cosine_compensator
        self._kv = NOMINAL_VOLTS / free_speed_mps
        self._offset = config.absolute_encoder_offset_deg
        # Each adapter raises its own fault Alert from fault(); this one says what the module does
        # about an absolute encoder it cannot use.
        self._fallback_alert = FaultAlert(f"{config.name} module", wpilib.Alert.AlertType.kWarning)
        self._error_alert = FaultAlert(f"{config.name} module")
        self._errors: dict[str, str] = {}
        self._fault_countdown = 0
        # Readings, refreshed by update(); the spec's telemetry values.
        self.raw_absolute_deg = 0.0
        self.raw_angle_deg = 0.0
        self.raw_drive_m = 0.0
        self.drive_velocity_mps = 0.0
        self.angle_deg = 0.0
        self.absolute_read_issue = encoder is None
        self.speed_setpoint_mps = 0.0
        self.angle_setpoint_deg = 0.0
        self._relative_to_module = 0.0  # module angle − relative angle encoder, while both are good
        self._angle = Rotation2d()
        for device in (drive_motor, angle_motor, encoder):
            if device is not None:
                device.refresh()
        self.update()
        self.seed_relative_encoder()
        self.angle_setpoint_deg = self.angle_deg
        self.is_commanded = False  # True while following set_desired_state, False after stop()

    # -- readings ----------------------------------------------------------------------------------
    def _call(self, what: str, function: Callable[[], Any], fallback: Any) -> Any:
        """Call an adapter; an exception (a vendor error, a bug) is reported, never raised."""
        try:
            result = function()
        except Exception as error:
            self._errors[what] = f"{what} raised {type(error).__name__}: {error}"
            return fallback
        if self._errors:
            self._errors.pop(what, None)
        return result

    def _forget(self, names: tuple[str, ...]) -> None:
        for name in names:
            self._errors.pop(name, None)

    def _read_guarded(self) -> tuple[float, float, float, float, str | None]:
        """The readings one call at a time, each failure reported under its own name."""
        call, drive, angle, encoder = self._call, self.drive_motor, self.angle_motor, self.encoder
        drive_m = call("drive position", drive.get_position, nan)
        drive_v = call("drive velocity", drive.get_velocity, nan)
        angle_deg = call("angle position", angle.get_position, nan)
        raw, fault = nan, None
        if encoder is not None:
            raw = call("absolute encoder", encoder.get_absolute_degrees, nan)
            fault = call("absolute encoder fault", encoder.fault, "not answering")
        return drive_m, drive_v, angle_deg, raw, fault

    def update(self) -> None:
        """Read this module's sensors (after the drive's batched refresh) and work out its angle."""
        drive, angle, encoder = self.drive_motor, self.angle_motor, self.encoder
        try:  # the usual case: nothing raises, so no per-call bookkeeping
            drive_m, drive_v, angle_deg = (
                drive.get_position(),
                drive.get_velocity(),
                angle.get_position(),
            )
            raw, fault = nan, None
            if encoder is not None:
                raw, fault = encoder.get_absolute_degrees(), encoder.fault()
            if self._errors:
                self._forget(READ_ERRORS)
        except Exception:
            self._forget(READ_ERRORS)
            drive_m, drive_v, angle_deg, raw, fault = self._read_guarded()
        self.raw_drive_m = _finite(drive_m, self.raw_drive_m)
        self.drive_velocity_mps = _finite(drive_v, self.drive_velocity_mps)
        self.raw_angle_deg = _finite(angle_deg, self.raw_angle_deg)
        if encoder is not None:
            if fault is None and not math.isfinite(raw):
                fault = "reading is not a number"
            if fault is None:
                self.raw_absolute_deg = raw
            if (fault is None) == self.absolute_read_issue:  # the state changes: tell the Alert
                self._fallback_alert.update(
                    None
                    if fault is None
                    else "absolute encoder unusable, using the angle motor's encoder"
                )
        self._fault_countdown -= 1
        if self._fault_countdown <= 0:  # the motors' own fault Alerts, every few loops
            self._fault_countdown = MOTOR_FAULT_EVERY
            self._call("drive fault", drive.fault, None)
            self._call("angle fault", angle.fault, None)
        if encoder is not None and fault is None:
            self.angle_deg = module_angle(self.raw_absolute_deg, self._offset)
            self._relative_to_module = wrap_180(self.angle_deg - self.raw_angle_deg)
            self.absolute_read_issue = False
        else:
            self.angle_deg = wrap_360(self.raw_angle_deg + self._relative_to_module)
            self.absolute_read_issue = True
        self._angle = Rotation2d.fromDegrees(self.angle_deg)
        if self._errors or self._error_alert.active is not None:
            self._error_alert.update("; ".join(self._errors.values()) or None)

    def seed_relative_encoder(self) -> None:
        """Set the angle motor's relative encoder to the module angle (done at start-up)."""
        if self.encoder is None or self.absolute_read_issue:
            return
        self.angle_motor.set_position(self.angle_deg)
        self.raw_angle_deg = self.angle_deg
        self._relative_to_module = 0.0

    def get_angle(self) -> Rotation2d:
        """The module angle, counter-clockwise positive, 0 = facing the robot's front."""
        return self._angle

    def get_state(self) -> SwerveModuleState:
        return SwerveModuleState(self.drive_velocity_mps, self._angle)

    def get_position(self) -> SwerveModulePosition:
        return SwerveModulePosition(self.raw_drive_m, self._angle)

    # -- commands ----------------------------------------------------------------------------------
    def set_desired_state(self, state: SwerveModuleState, *, force_angle: bool = False) -> None:
        """Follow ``state``: optimise (never turn more than 90°), cosine-compensate, command."""
        state.optimize(self._angle)
        speed = state.speed
        target = state.angle.degrees()
        if not force_angle and abs(speed) < ANTI_JITTER_FRACTION * self.free_speed_mps:
            target = self.angle_setpoint_deg  # hold: do not snap the wheels when stopping
        error = wrap_180(target - self.angle_deg)
        if self.use_cosine_compensator:
            speed *= max(0.0, math.cos(math.radians(error)))
        self.speed_setpoint_mps = speed
        self.angle_setpoint_deg = wrap_360(target)
        self.is_commanded = True
        try:
            self.angle_motor.set_angle(self.raw_angle_deg + error)
        except Exception as failure:  # reported, never raised: the loop must go on
            self._errors["angle command"] = f"angle command raised {failure!r}"
        else:
            if self._errors:
                self._errors.pop("angle command", None)
        try:
            self.drive_motor.set_velocity(speed, self._kv * speed)
        except Exception as failure:
            self._errors["drive command"] = f"drive command raised {failure!r}"
        else:
            if self._errors:
                self._errors.pop("drive command", None)

    def stop(self) -> None:
        """Zero drive output and hold the current angle."""
        self.speed_setpoint_mps = 0.0
        self.is_commanded = False
        self._call("drive command", lambda: self.drive_motor.set_voltage(0.0), None)
        self._call("angle command", lambda: self.angle_motor.set_voltage(0.0), None)

    def set_idle_mode(self, brake: bool) -> None:
        """Brake or coast on the drive motor (angle motors stay as configured)."""
        self._call("idle mode", lambda: self.drive_motor.set_brake(brake), None)
