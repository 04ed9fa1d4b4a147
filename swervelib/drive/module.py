"""One swerve module: its three devices, its angle, and how it follows a desired state.

The module angle comes from the absolute encoder (after inversion) minus the configured offset,
wrapped to [0°, 360°). While the absolute encoder is healthy the module remembers how far the angle
motor's relative encoder sits from it; when the absolute encoder faults (bad magnet, unplugged, NaN)
the module carries on from the relative encoder plus that remembered difference, so the angle does
not jump, and an Alert names the encoder.

The angle motor is always commanded relative to where its own encoder is now (current motor
position plus the shortest turn to the target), so the control never depends on the relative encoder
having been seeded exactly.

A module steered on its absolute encoder (``SteerFeedback.ABSOLUTE_ENCODER``: the encoder is the
angle Spark's feedback sensor) is commanded in that encoder's frame instead: target module angle
plus the offset, wrapped to [0°, 360°) (the encoder reads after inversion, before the offset; the
Spark wraps, so it takes the short way round). Optimisation, the hold below 1 % of top speed and
cosine compensation are the same. The motor's own encoder still gives ``Raw Angle Encoder``, the
frozen-reading check and the angle while the absolute encoder cannot be used, but control never
depends on it. When the absolute encoder cannot be used, the Spark's loop has no trustworthy
feedback (chasing a frozen or dead reading it would spin the module without end), so the module
**stops steering**: the angle motor gets 0 V (the steering gearbox holds the wheel roughly where it
is), the drive motor keeps going with cosine compensation forced on (the wheel pushes only along
where it points, by the angle motor's encoder), the runaway and stall checks leave the module
alone, and the module's warning Alert says so. That happens at once for an unusable reading (NaN,
a sensor or CAN fault on the Spark), and after :data:`STALE_STOP_LOOPS` loops for a reading frozen
while the angle motor turns (a late frame or two is normal and harmless: the Spark reads the
encoder itself). Steering resumes as soon as the reading is usable again and changes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from math import nan
from typing import Any

import wpilib
from wpimath.geometry import Rotation2d, Translation2d
from wpimath.kinematics import SwerveModulePosition, SwerveModuleState

from swervelib.angles import RADIANS_PER_DEGREE, wrap_180, wrap_360
from swervelib.config.model import DriveFeedforward, ModuleConfig, SteerFeedback
from swervelib.devices.faults import FaultAlert
from swervelib.devices.interfaces import AbsoluteEncoder, SwerveMotor
from swervelib.text import shown_number

NOMINAL_VOLTS = 12.0
READ_ERRORS = (
    "drive position",
    "drive velocity",
    "angle position",
    "absolute encoder",
    "absolute encoder state",
)
COMMAND_ERRORS = ("angle command", "drive command")
ANTI_JITTER_FRACTION = 0.01  # below 1 % of top speed, hold the last angle instead of snapping
FALLBACK_TEXT = "absolute encoder unusable, using the angle motor's encoder"
STALE_TEXT = (
    "absolute encoder reading frozen while the module turns, using the angle motor's encoder"
)
# An absolute reading exactly the same as last loop while the angle motor turned more than this
# (module degrees) is a frame that did not arrive, or a device whose last value is still reported
# as fine after it stopped answering: the angle motor's encoder carries on for that loop.
STALE_TURN_DEG = 1.0
STALE_ALERT_LOOPS = 25  # the Alert only after half a second of it: a late frame is normal
# A module steering on its absolute encoder stops steering sooner: a Spark chasing a frozen
# feedback reading spins the module (0.1 s: a late frame or two is normal, five in a row is not).
STALE_STOP_LOOPS = 5
# The same, for a module whose absolute encoder is the angle controller's feedback sensor.
STOPPED_TEXT = (
    "absolute encoder unusable: it is this module's steering sensor, so steering is stopped "
    "(the angle motor's encoder gives the angle meanwhile)"
)
STOPPED_STALE_TEXT = (
    "absolute encoder reading frozen while the module turns: it is this module's steering "
    "sensor, so steering is stopped (the angle motor's encoder gives the angle meanwhile)"
)
_cos = math.cos
_from_degrees = Rotation2d.fromDegrees  # (a plain name: see swerve_drive._from_degrees)


def _usable(encoder: AbsoluteEncoder) -> Callable[[], bool]:
    return lambda: encoder.usable


class SwerveModule:
    """A module: call :meth:`update` once per loop, then read or command it.

    The per-loop path (:meth:`update`, :meth:`set_desired_state`) reads and commands the devices
    and does the angle arithmetic, nothing else; the devices' own fault checks run from
    :meth:`health_checks`, which the drive spreads over its loops.
    """

    __slots__ = (
        "_angle",
        "_error_alert",
        "_error_shown",
        "_errors",
        "_fallback_alert",
        "_hold_below_mps",
        "_offset",
        "_refusal_alert",
        "_relative_to_module",
        "_stale_loops",
        "absolute_read_issue",
        "angle_deg",
        "angle_motor",
        "angle_motor_fault",
        "angle_setpoint_deg",
        "config",
        "drive_motor",
        "drive_velocity_mps",
        "encoder",
        "feedforward",
        "free_speed_mps",
        "is_commanded",
        "last_turn_deg",
        "location",
        "name",
        "optimize",
        "position",
        "raw_absolute_deg",
        "raw_angle_deg",
        "raw_drive_m",
        "refused",
        "speed_setpoint_mps",
        "steering_stopped",
        "steers_on_absolute",
        "use_cosine_compensator",
    )

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
        self.feedforward = DriveFeedforward(kv=NOMINAL_VOLTS / free_speed_mps)
        self._hold_below_mps = ANTI_JITTER_FRACTION * free_speed_mps
        self.optimize = True  # never turn the wheel more than 90°: reverse it instead
        self._offset = config.absolute_encoder_offset_deg
        # The absolute encoder closes the steering loop on the angle controller: commands are in
        # its frame, and steering stops while it cannot be used.
        self.steers_on_absolute = (
            config.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER and encoder is not None
        )
        self.steering_stopped = False
        # Each adapter raises its own fault Alert from fault(); this one says what the module does
        # about an absolute encoder it cannot use.
        self._fallback_alert = FaultAlert(f"{config.name} module", wpilib.Alert.AlertType.kWarning)
        self._error_alert = FaultAlert(f"{config.name} module")
        self._refusal_alert = FaultAlert(
            f"{config.name} module command", wpilib.Alert.AlertType.kWarning
        )
        self.refused = 0
        self._errors: dict[str, str] = {}
        self._error_shown = False
        # Readings, refreshed by update(); the spec's telemetry values.
        self.raw_absolute_deg = 0.0
        self.raw_angle_deg = 0.0
        self.raw_drive_m = 0.0
        self.drive_velocity_mps = 0.0
        self.angle_deg = 0.0
        self.last_turn_deg = 0.0  # how far the module angle turned in the last update()
        self.absolute_read_issue = encoder is None
        # What the angle motor's last fault check said (None: fine): a controller that does not
        # answer or reports a fault cannot steer, and the drive's diagnostics leave it alone.
        self.angle_motor_fault: str | None = None
        self._stale_loops = 0
        self.speed_setpoint_mps = 0.0
        self.angle_setpoint_deg = 0.0
        self._relative_to_module = 0.0  # module angle − angle motor's encoder, set on fallback
        self._angle = Rotation2d()
        self.position = SwerveModulePosition()
        for device in (drive_motor, angle_motor, encoder):
            if device is not None:
                device.refresh()
        self.update()
        self.seed_relative_encoder()
        self.angle_setpoint_deg = self.angle_deg
        self.last_turn_deg = 0.0
        # True while following set_desired_state, False after stop() or set_voltages()
        self.is_commanded = False

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

    def _read_guarded(self) -> tuple[float, float, float, float, bool]:
        """The readings one call at a time, each failure reported under its own name."""
        call, drive, angle, encoder = self._call, self.drive_motor, self.angle_motor, self.encoder
        drive_m = call("drive position", drive.get_position, nan)
        drive_v = call("drive velocity", drive.get_velocity, nan)
        angle_deg = call("angle position", angle.get_position, nan)
        raw, usable = nan, False
        if encoder is not None:
            raw = call("absolute encoder", encoder.get_absolute_degrees, nan)
            usable = raw - raw == 0.0 and call("absolute encoder state", _usable(encoder), False)
        return drive_m, drive_v, angle_deg, raw, usable

    def update(self) -> None:
        """Read this module's sensors (after the drive's batched refresh) and work out its angle.

        Adapters keep their last good value for a bad reading; the finiteness checks here only
        guard odometry against an adapter that does not.
        """
        encoder = self.encoder
        try:  # the usual case: nothing raises, so no per-call bookkeeping
            drive_m = self.drive_motor.get_position()
            drive_v = self.drive_motor.get_velocity()
            angle_deg = self.angle_motor.get_position()
            if encoder is not None:
                raw = encoder.get_absolute_degrees()
                # finite, and the encoder is fine (a conditional: its compare is specialised)
                usable = encoder.usable if raw - raw == 0.0 else False
            else:
                raw, usable = nan, False
            if self._errors:
                self._forget(READ_ERRORS)
        except Exception:
            self._forget(READ_ERRORS)
            drive_m, drive_v, angle_deg, raw, usable = self._read_guarded()
        if drive_m - drive_m == 0.0:  # finite (NaN and infinities give NaN)
            self.raw_drive_m = drive_m
        if drive_v - drive_v == 0.0:
            self.drive_velocity_mps = drive_v
        if angle_deg - angle_deg != 0.0:
            angle_deg = self.raw_angle_deg
        previous = self.angle_deg
        stale = False
        if (  # frozen while the module turns; once frozen, until the reading changes
            usable
            and raw == self.raw_absolute_deg
            and (
                self._stale_loops
                # turned more than STALE_TURN_DEG either way (no abs() call; both readings finite)
                or (turned := angle_deg - self.raw_angle_deg) > STALE_TURN_DEG
                or turned < -STALE_TURN_DEG
            )
        ):
            usable, stale = False, True
        if usable:
            self.raw_absolute_deg = raw
            angle = (raw - self._offset) % 360.0
            if angle >= 360.0:  # a tiny negative difference rounds up to exactly 360
                angle = 0.0
            if self.absolute_read_issue:  # recovered
                self.absolute_read_issue = False
                self.steering_stopped = False
                self._stale_loops = 0
                self._fallback_alert.update(None)
        else:
            if not self.absolute_read_issue:  # from now on the angle motor's encoder carries on
                self._relative_to_module = wrap_180(previous - self.raw_angle_deg)
                self.absolute_read_issue = True
            on_absolute = self.steers_on_absolute
            if not stale:
                self._stale_loops = 0
                self.steering_stopped = on_absolute
                self._fallback_alert.update(STOPPED_TEXT if on_absolute else FALLBACK_TEXT)
            else:
                self._stale_loops += 1
                if self._stale_loops == (STALE_STOP_LOOPS if on_absolute else STALE_ALERT_LOOPS):
                    self.steering_stopped = on_absolute
                    self._fallback_alert.update(STOPPED_STALE_TEXT if on_absolute else STALE_TEXT)
            angle = wrap_360(angle_deg + self._relative_to_module)
        self.raw_angle_deg = angle_deg
        self.angle_deg = angle
        self.last_turn_deg = (angle - previous + 180.0) % 360.0 - 180.0
        self._angle = rotation = _from_degrees(angle)
        self.position = SwerveModulePosition(self.raw_drive_m, rotation)
        if self._errors or self._error_shown:
            self._show_errors()

    def _show_errors(self) -> None:
        self._error_alert.update("; ".join(self._errors.values()) or None)
        self._error_shown = bool(self._errors)

    def health_checks(self) -> list[Callable[[], None]]:
        """One check per device (its ``fault()``, which updates the device's own Alert), for the
        drive to run in turn. An exception is reported on the module's Alert."""

        def check(
            what: str, device: Any, keep: Callable[[str | None], None] | None = None
        ) -> Callable[[], None]:
            def run() -> None:
                fault = self._call(what, device.fault, None)
                if keep is not None:  # what it said, or why it raised
                    keep(self._errors.get(what, fault))
                if self._errors or self._error_shown:
                    self._show_errors()

            return run

        checks = [
            check("drive fault", self.drive_motor),
            check("angle fault", self.angle_motor, self._keep_angle_motor_fault),
        ]
        if self.encoder is not None:
            checks.append(check("absolute encoder fault", self.encoder))
        return checks

    def _keep_angle_motor_fault(self, fault: str | None) -> None:
        self.angle_motor_fault = fault

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
        """Distance and angle as of the last :meth:`update` (a new object each update)."""
        return self.position

    # -- commands ----------------------------------------------------------------------------------
    def set_anti_jitter(self, enabled: bool, below_mps: float | None = None) -> None:
        """Below ``below_mps`` (default 1 % of the free speed), hold the wheel's angle instead of
        turning it (on by default: a stopping robot does not snap its wheels to 0°)."""
        if below_mps is not None and not (math.isfinite(below_mps) and below_mps >= 0.0):
            raise ValueError(f"below_mps must be a number >= 0, not {below_mps!r}")
        default = ANTI_JITTER_FRACTION * self.free_speed_mps
        self._hold_below_mps = (default if below_mps is None else below_mps) if enabled else 0.0

    @property
    def anti_jitter(self) -> bool:
        return self._hold_below_mps > 0.0

    def set_desired_state(
        self,
        state: SwerveModuleState,
        *,
        force_angle: bool = False,
        acceleration_mps2: float = 0.0,
    ) -> None:
        """Follow ``state``: optimise (never turn more than 90°, unless ``optimize`` is off),
        cosine-compensate, command. ``state`` itself is left as it is.

        ``acceleration_mps2``: the wheel's acceleration along ``state``'s direction (a path
        follower's feedforward), added through the feedforward's kA; it turns with the speed when
        optimisation reverses the wheel, and is cosine-compensated with it. A speed or angle that
        is not a finite number stops the module instead (counted in :attr:`refused`, shown on the
        module's Alert); a speed beyond the module's free speed is limited to it; an acceleration
        that is not finite counts as 0.
        """
        self.command(state.speed, state.angle.degrees(), acceleration_mps2, force_angle)

    def command(
        self,
        speed: float,
        angle_deg: float | None,
        acceleration_mps2: float = 0.0,
        force_angle: bool = False,
    ) -> tuple[float, float]:
        """:meth:`set_desired_state` in plain numbers (m/s, degrees, m/s²), the drive's per-loop
        path; ``angle_deg`` None keeps the angle set-point. Returns the state followed, after
        optimisation and before cosine compensation, as (m/s, degrees in [0, 360))."""
        if angle_deg is None:
            angle_deg = self.angle_setpoint_deg
        if self.optimize:
            turn = (angle_deg - self.angle_deg + 180.0) % 360.0 - 180.0
            if turn > 90.0 or turn < -90.0:  # reverse the wheel instead (WPILib's optimize)
                speed = -speed
                angle_deg += 180.0
                acceleration_mps2 = -acceleration_mps2
        if acceleration_mps2 and acceleration_mps2 - acceleration_mps2 != 0.0:  # not finite
            acceleration_mps2 = 0.0  # (a zero, the usual case, costs one test)
        angle_deg = angle_deg % 360.0  # (not %=: the in-place form takes another C path)
        if angle_deg >= 360.0:  # a tiny negative angle rounds up to exactly 360
            angle_deg = 0.0
        followed = (speed, angle_deg)
        if force_angle or abs(speed) >= self._hold_below_mps:
            target = angle_deg
        else:
            target = self.angle_setpoint_deg  # hold: do not snap the wheels when stopping
        error = (target - self.angle_deg + 180.0) % 360.0 - 180.0  # shortest turn, degrees
        top = self.free_speed_mps
        if not (-top <= speed <= top and error - error == 0.0):  # out of range, NaN or infinite
            if not (math.isfinite(speed) and math.isfinite(error)):
                self._refuse(speed, angle_deg)
                return 0.0, self.angle_setpoint_deg
            speed = top if speed > top else -top
        stopped = self.steering_stopped
        if self.use_cosine_compensator or stopped:
            scale = _cos(error * RADIANS_PER_DEGREE)
            if scale < 0.0:
                scale = 0.0
            speed *= scale
            acceleration_mps2 *= scale
        self.speed_setpoint_mps = speed
        self.angle_setpoint_deg = target
        # Not steering: nothing for the runaway and stall checks to judge.
        self.is_commanded = not stopped
        steer: float | None
        if not self.steers_on_absolute:
            steer = self.raw_angle_deg + error  # relative to where the angle motor's encoder is now
        elif not stopped:
            steer = (target + self._offset) % 360.0  # the absolute encoder's frame
        else:
            steer = None  # 0 V: the Spark's feedback sensor cannot be trusted
        feedforward = self.feedforward  # kS·sign(speed) + kV·speed + kA·acceleration, inline
        ff_volts = feedforward.kv * speed
        if acceleration_mps2:  # (none in teleop)
            ff_volts += feedforward.ka * acceleration_mps2
        if speed != 0.0:
            ff_volts += feedforward.ks if speed > 0.0 else -feedforward.ks
        try:
            if steer is not None:
                self.angle_motor.set_angle(steer)
            else:
                self.angle_motor.set_voltage(0.0)
            self.drive_motor.set_velocity(speed, ff_volts)
        except Exception:
            self._command_guarded(steer, speed, ff_volts)
            return followed
        if self._errors:
            self._forget(COMMAND_ERRORS)
        return followed

    def point(self, angle_deg: float) -> None:
        """Turn the wheel to face ``angle_deg`` (module degrees), speed 0: never reversed, whatever
        :attr:`optimize` says (a module 180° away turns round rather than face backwards), and
        with no hold below 1 % of top speed. For code that drives the drive motor itself, as
        SysId's drive routine does while it holds every wheel forward."""
        optimize = self.optimize
        self.optimize = False  # for this command only
        try:
            self.command(0.0, angle_deg, force_angle=True)
        finally:
            self.optimize = optimize

    def set_drive_voltage(self, volts: float) -> None:
        """The drive motor open loop at ``volts``, the angle motor left on its set-point (SysId's
        drive and rotation routines, after :meth:`point`). A controller that raises is reported on
        the module's Alert, never raised."""
        self._call("drive command", lambda: self.drive_motor.set_voltage(volts), None)

    def set_voltages(self, drive_volts: float, angle_volts: float) -> None:
        """Both motors open loop at these voltages (characterisation, as SysId's angle routine
        does). The module then has no set-point: the drive's runaway and stall checks leave it
        alone until its next command (``is_commanded`` is False, as after :meth:`stop`). A
        controller that raises is reported on the module's Alert, never raised."""
        self.speed_setpoint_mps = 0.0
        self.is_commanded = False
        self._call("drive command", lambda: self.drive_motor.set_voltage(drive_volts), None)
        self._call("angle command", lambda: self.angle_motor.set_voltage(angle_volts), None)

    def _refuse(self, speed: float, angle_deg: float) -> None:
        self.refused += 1
        self._refusal_alert.update(
            f"refused set_desired_state({shown_number(speed)} m/s, "
            f"{shown_number(angle_deg)}°): not finite, module stopped "
            f"({self.refused} refused so far)"
        )
        self.stop()

    def _command_guarded(self, steer_deg: float | None, speed: float, ff_volts: float) -> None:
        """Both commands again, each on its own: a failure is reported, never raised."""
        try:
            if steer_deg is not None:
                self.angle_motor.set_angle(steer_deg)
            else:
                self.angle_motor.set_voltage(0.0)
        except Exception as failure:  # reported, never raised: the loop must go on
            self._errors["angle command"] = f"angle command raised {failure!r}"
        else:
            self._errors.pop("angle command", None)
        try:
            self.drive_motor.set_velocity(speed, ff_volts)
        except Exception as failure:
            self._errors["drive command"] = f"drive command raised {failure!r}"
        else:
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
