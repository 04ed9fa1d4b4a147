"""SwerveDrive: the public entry point.

Typical robot code::

    from swervelib import SwerveDrive

    class Robot(wpilib.TimedRobot):
        def robotInit(self):
            self.swerve = SwerveDrive.from_directory()     # deploy/swerve

        def robotPeriodic(self):
            self.swerve.periodic()                         # sensors, odometry, telemetry

        def teleopPeriodic(self):
            self.swerve.drive(ChassisSpeeds(vx, vy, omega), field_relative=True)

Units are SI (metres, radians, seconds); geometry is WPILib's. The gyro is **not** zeroed at start:
the pose starts at the origin facing 0 rad whatever the IMU reads, and ``zero_heading()`` or
``reset_pose()`` set it later (the raw IMU yaw is never changed by the library).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import wpilib
from wpimath import estimator, kinematics
from wpimath.controller import PIDController
from wpimath.geometry import Pose2d, Rotation2d, Rotation3d, Translation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModulePosition, SwerveModuleState

from swervelib.angles import DEGREES_PER_RADIAN, RADIANS_PER_DEGREE
from swervelib.config import ConfigError, DriveFeedforward, Problem, SwerveConfig, load_directory
from swervelib.config.catalog import Vendor
from swervelib.config.loader import MODULE_COUNT_MESSAGE, SUPPORTED_MODULE_COUNTS
from swervelib.devices.faults import FaultAlert
from swervelib.devices.interfaces import Device, Imu
from swervelib.drive.builder import build_imu, build_module
from swervelib.drive.config_warnings import announce
from swervelib.drive.diagnostics import DriveDiagnostics
from swervelib.drive.feedforward import derived_feedforward
from swervelib.drive.heading import YawTracker
from swervelib.drive.housekeeping import RoundRobin
from swervelib.drive.module import SwerveModule
from swervelib.drive.odometry import odometry_positions
from swervelib.drive.options import DriveOptions
from swervelib.drive.pose_history import holds
from swervelib.drive.safety import (
    FieldArea,
    Refusals,
    center_problem,
    pose_problem,
    usable_rotation,
)
from swervelib.drive.setpoints import SetpointGenerator
from swervelib.drive.shaping import DRIVE_FACING, HEADING_CORRECTION, RequestShaper
from swervelib.drive.stand_in import WheelStandIn
from swervelib.drive.state import DriveState
from swervelib.drive.switches import DriveSwitches
from swervelib.drive.telemetry import DriveTelemetry, TelemetryVerbosity
from swervelib.drive.vision import VisionGate
from swervelib.drive.wheel_math import WheelKinematics, discretize
from swervelib.text import printable, shown_number

if TYPE_CHECKING:
    from swervelib.sim.swerve_sim import SwerveSim

LOOP_PERIOD_S = 0.02
SIM_START_WAIT_S = 5.0  # at most, for simulated phoenix6 devices to report a new simulator
DIAGNOSTICS_EVERY = 5  # loops between diagnostic checks (each judged over a tenth of a second)
HEALTH_CHECK_EVERY = 4  # loops between device fault checks: 13 devices, each about once a second
# A loop's values for its DriveState, in DriveState's order (time, pose, raw yaw, positions,
# velocities, angles, desired speeds, targets, period)
_LoopValues = tuple[
    float,
    Pose2d,
    float,
    tuple[SwerveModulePosition, ...],
    list[float],
    list[float],
    tuple[float, float, float],
    list[tuple[float, float]],
    float,
]
# Commanded speeds beyond this many times what the robot can do are scaled down (keeping their
# direction and mix) before the kinematics, whose products would overflow to infinity.
COMMAND_HEADROOM = 100.0
# A drive command not renewed for this long (seconds) expires: the modules stop (MotorSafety's idea).
COMMAND_TIMEOUT_S = 0.1
# The setpoint generator goes on from its last setpoint only if that was given within this long
# (seconds); after a longer gap (disabled with command_timeout None) it starts from the modules.
STALE_SETPOINT_S = COMMAND_TIMEOUT_S
_NO_SPEEDS = (0.0, 0.0, 0.0)
# Held as plain names for the loop: a static method looked up on its class every call is a
# lookup CPython 3.11 does not specialise.
_fpga_us = wpilib.RobotController.getFPGATime
_from_degrees = Rotation2d.fromDegrees


def _wpilib_class(prefix: str, count: int, package: Any) -> Any:
    return getattr(package, f"SwerveDrive{count}{prefix}")


class SwerveDrive(DriveSwitches):
    """A swerve drive built from a configuration. See the module docstring for use."""

    # Slots for what the loop reads and writes every cycle: an instance dict of more than 30
    # names is no longer CPython's compact split dict, and each access would search its table.
    # (DriveSwitches, the mixin, brings a __dict__ for anything else set on a drive.)
    __slots__ = (
        "_batch",
        "_callback_alert",
        "_command_time",
        "_commanded",
        "_desired_speeds",
        "_devices",
        "_direct",
        "_distances",
        "_estimated_wheels",
        "_expiry_alert",
        "_imu_error_alert",
        "_indexed_modules",
        "_last_heading_check",
        "_last_time",
        "_loop_count",
        "_loop_values",
        "_omega_headroom",
        "_options",
        "_pose",
        "_positions",
        "_publishes",
        "_refresh_alert",
        "_reset_time",
        "_setpoints",
        "_shaper",
        "_shapes",
        "_sim",
        "_sim_owned",
        "_simulate",
        "_speed_headroom",
        "_state",
        "_targets",
        "_telemetry_callbacks",
        "_timing_paused",
        "_unbatched",
        "_wheels",
        "_yaw_rate",
        "command_count",
        "command_timeout",
        "config",
        "config_alert",
        "diagnostics",
        "estimator",
        "field",
        "heading_controller",
        "health_checks",
        "imu",
        "kinematics",
        "loop_period",
        "max_angular_velocity",
        "max_speed",
        "module_max_speed",
        "modules",
        "pose_resets",
        "refusals",
        "stand_in",
        "telemetry",
        "vision",
        "yaw",
    )

    def __init__(
        self,
        config: SwerveConfig,
        *,
        max_speed: float | None = None,
        verbosity: TelemetryVerbosity = TelemetryVerbosity.HIGH,
        loop_period: float = LOOP_PERIOD_S,
        simulate: bool | None = None,
        options: DriveOptions | None = None,
        command_timeout: float | None = COMMAND_TIMEOUT_S,
    ) -> None:
        for name, value in (
            ("max_speed", max_speed),
            ("loop_period", loop_period),
            ("command_timeout", command_timeout),
        ):
            if value is not None and not (math.isfinite(value) and value > 0.0):
                raise ValueError(f"{name} must be a positive number, not {shown_number(value)}")
        count = len(config.modules)
        if count not in SUPPORTED_MODULE_COUNTS:
            raise ConfigError(
                [
                    Problem(
                        "swervedrive.json",
                        "modules",
                        MODULE_COUNT_MESSAGE,
                        found=f"{count} modules",
                    )
                ],
                config.directory,
            )
        self.config = config
        self.config_alert = announce(config)
        self.loop_period = loop_period
        self.modules: tuple[SwerveModule, ...] = tuple(
            build_module(config, m) for m in config.modules
        )
        # (index, module) pairs, built once: the loop iterates a tuple, with no enumerate object
        self._indexed_modules = tuple(enumerate(self.modules))
        self.imu: Imu = build_imu(config)
        configured = config.pidf.drive_feedforward if config.pidf is not None else None
        for module, module_config in zip(self.modules, config.modules, strict=True):
            module.feedforward = configured or derived_feedforward(
                module_config, config.physical_or_default, count
            )
        self._imu_error_alert = FaultAlert("Swerve IMU")
        self._refresh_alert = FaultAlert("Swerve sensors")
        physical_max = min(m.free_speed_mps for m in self.modules)
        self.max_speed = min(max_speed or config.max_speed_mps, physical_max)
        self.module_max_speed = physical_max
        radius = max(m.location.norm() for m in self.modules)
        self.max_angular_velocity = self.max_speed / radius
        self._speed_headroom = COMMAND_HEADROOM * self.max_speed
        self._omega_headroom = COMMAND_HEADROOM * self.max_angular_velocity
        self.field: FieldArea | None = FieldArea()
        self.refusals = Refusals("Swerve commands")
        self.vision = VisionGate()
        locations = [m.location for m in self.modules]
        self.kinematics: Any = _wpilib_class("Kinematics", count, kinematics)(*locations)
        self._options = options or DriveOptions()
        self._shapes = self._options.shapes  # (a property: worked out once per options)
        self._shaper = RequestShaper()
        self._setpoints = SetpointGenerator(self.kinematics)
        self.command_timeout = command_timeout
        # Commands given (drive methods, lock, stop, feed): a teleop routine that finds another
        # command was given since its own starts again from where the robot is.
        self.command_count = 0
        self._commanded = False  # a command is in force (stop() is not one)
        self._direct = False  # ... and it is robot code driving the modules itself (feed())
        self._command_time = 0.0  # the loop time of the latest command
        self._expiry_alert = FaultAlert("Swerve command expired", wpilib.Alert.AlertType.kWarning)
        self._telemetry_callbacks: list[Callable[[DriveState], None]] = []
        self._callback_alert = FaultAlert(
            "Swerve telemetry callback", wpilib.Alert.AlertType.kWarning
        )
        self._yaw_rate = 0.0  # rad/s, from the IMU yaw between loops
        self._devices = self._collect_devices()
        self._batch, self._unbatched = self._split_refresh(self._devices)
        if self._batch is not None:  # phoenix6: positions read as they are at the refresh
            for module in self.modules:
                module.drive_motor.use_latency_compensation(self._batch)
        self._refresh()
        for module in self.modules:
            module.update()
        self.yaw = YawTracker(self.imu, self._wheel_turn_deg)
        # Device fault checks: all now, then one every HEALTH_CHECK_EVERY loops, in turn.
        self.health_checks = RoundRobin(
            [check for m in self.modules for check in m.health_checks()] + [self._check_imu]
        )
        self.health_checks.run_all()
        self._positions = tuple([m.get_position() for m in self.modules])
        self._distances = [m.raw_drive_m for m in self.modules]  # the same, in metres
        self.estimator: Any = _wpilib_class("PoseEstimator", count, estimator)(
            self.kinematics, Rotation2d.fromDegrees(self.yaw.yaw_deg), self._positions, Pose2d()
        )
        self._pose = Pose2d()
        self._start_history(Rotation2d.fromDegrees(self.yaw.yaw_deg))
        # How many times the pose was reset (reset_pose, zero_heading): a heading held by a
        # teleop routine means another direction afterwards.
        self.pose_resets = 0
        # What was last commanded, in plain numbers (DriveState makes the WPILib objects when
        # asked): robot-relative (vx, vy, omega) and each module's (m/s, degrees) followed.
        self._desired_speeds = _NO_SPEEDS
        self._targets: list[tuple[float, float]] = [(0.0, m.angle_deg) for m in self.modules]
        self._wheels = WheelKinematics([(m.location.X(), m.location.Y()) for m in self.modules])
        # A drive reading that is not live (its motor does not answer) is stood in for from the
        # other modules: the loop adjusts the estimator's positions only while
        # ``_estimated_wheels`` is set, by the adapters' events (no per-module check per loop).
        self._estimated_wheels: WheelStandIn | None = None
        self.stand_in = WheelStandIn(
            [m.name for m in self.modules],
            [(m.location.X(), m.location.Y()) for m in self.modules],
            self._stand_in_active,
        )
        for index, module in self._indexed_modules:
            module.drive_motor.watch_reading(self.stand_in.watcher(index))
        heading = (config.controller.heading if config.controller else None) or None
        self.heading_controller = PIDController(
            heading.p if heading else 0.4,
            heading.i if heading else 0.0,
            heading.d if heading else 0.0,
        )
        if heading and heading.iz > 0:
            self.heading_controller.setIZone(heading.iz)
        self.heading_controller.enableContinuousInput(-math.pi, math.pi)
        self.telemetry = DriveTelemetry(self.modules, self.max_speed, verbosity)
        self._publishes = self.telemetry.verbosity > TelemetryVerbosity.NONE
        self.diagnostics = DriveDiagnostics(self.modules)
        self._loop_count = 0
        self._last_time = wpilib.Timer.getFPGATimestamp()
        # The loop's values for its DriveState, which get_state() builds when first asked for.
        self._loop_values: _LoopValues = (
            self._last_time,
            self._pose,
            self.yaw.raw_yaw_deg,
            self._positions,
            [m.drive_velocity_mps for m in self.modules],
            [m.angle_deg for m in self.modules],
            self._desired_speeds,
            self._targets,
            0.0,
        )
        self._state: DriveState | None = None
        self._last_heading_check = self._last_time
        # In simulation the drive steps a physics model of itself unless a SwerveSim is attached
        # explicitly (e.g. in physics.py), so `from_directory()` drives in `robotpy sim` as is.
        self._simulate = wpilib.RobotBase.isSimulation() if simulate is None else simulate
        if self._simulate:
            from wpilib.simulation import isTimingPaused

            self._timing_paused = isTimingPaused
        self._sim: Any = None
        self._sim_owned = False
        if self._simulate:
            self._step_own_simulation(0.0)  # created with the drive: `simulation` is there at once

    @classmethod
    def from_directory(
        cls,
        directory: str | os.PathLike[str] | None = None,
        *,
        max_speed: float | None = None,
        verbosity: TelemetryVerbosity = TelemetryVerbosity.HIGH,
        simulate: bool | None = None,
        loop_period: float = LOOP_PERIOD_S,
        options: DriveOptions | None = None,
        command_timeout: float | None = COMMAND_TIMEOUT_S,
    ) -> SwerveDrive:
        """Load ``directory`` (default: ``<deploy directory>/swerve``) and build the drive.

        ``max_speed`` (m/s) defaults to ``maxSpeed`` in swervedrive.json, else the slowest module's
        free speed. ``loop_period`` (seconds) is the robot loop's, for discretisation and the
        limits; ``options`` the request shaping (:class:`~swervelib.drive.options.DriveOptions`:
        heading correction, skew compensation, acceleration limits, setpoint generator; all off by
        default); ``command_timeout`` how long a drive command lasts unless renewed (None: for
        ever). In simulation (``simulate`` defaults to ``RobotBase.isSimulation()``) the
        drive moves a physics model of a correctly built robot each ``periodic()`` unless a
        :class:`swervelib.sim.SwerveSim` is attached. Raises :class:`ConfigError` for a bad
        configuration and
        :class:`~swervelib.devices.registry.MissingVendorError` when a vendor package is missing.
        """
        if directory is None:
            directory = Path(wpilib.getDeployDirectory()) / "swerve"
        config = load_directory(directory)
        return cls(
            config,
            max_speed=max_speed,
            verbosity=verbosity,
            simulate=simulate,
            loop_period=loop_period,
            options=options,
            command_timeout=command_timeout,
        )

    # -- set-up helpers ------------------------------------------------------------------------------
    def _collect_devices(self) -> list[Device]:
        devices: list[Device] = [self.imu]
        for module in self.modules:
            devices += [module.drive_motor, module.angle_motor]
            if module.encoder is not None:
                devices.append(module.encoder)
        return devices

    @staticmethod
    def _split_refresh(devices: Sequence[Device]) -> tuple[Any, list[Device]]:
        """phoenix6 signals go into one batch refreshed per loop; devices with a refresh() of
        their own are refreshed one by one; the rest (reads are always fresh) need nothing."""
        signals: list[Any] = []
        unbatched: list[Device] = []
        for device in devices:
            device_signals = device.status_signals()
            if device_signals:
                signals.extend(device_signals)
            elif type(device).refresh is not Device.refresh:
                unbatched.append(device)
        batch = None
        if signals:
            from swervelib.devices.ctre6.batch import SignalBatch

            batch = SignalBatch(signals)
        return batch, unbatched

    def _refresh(self) -> None:
        """Fresh readings from every device; a failure is reported by the device, never raised."""
        errors = None
        if self._batch is not None:
            try:
                self._batch.refresh()  # a signal that is not OK is reported by its device
            except Exception as error:
                errors = [f"phoenix6 refresh raised {error!r}"]
        for device in self._unbatched:
            try:
                device.refresh()
            except Exception as error:
                errors = errors or []
                errors.append(f"{device.label}: refresh raised {error!r}")
        if errors is not None or self._refresh_alert.active is not None:
            self._refresh_alert.update("; ".join(errors) if errors else None)

    def _stand_in_active(self, active: bool) -> None:
        self._estimated_wheels = self.stand_in if active else None

    def _check_imu(self) -> None:
        """The IMU's fault check (one of the health checks run in turn)."""
        try:
            self.imu.fault()
        except Exception as error:
            self._imu_error_alert.update(f"IMU fault check raised {error!r}")
        else:
            self._imu_error_alert.update(None)

    @property
    def vendors(self) -> set[Vendor]:
        """The vendor libraries this drive's devices come from."""
        vendors = {self.config.drive.imu_type.vendor}
        for m in self.config.modules:
            vendors |= {m.drive_motor_type.vendor, m.angle_motor_type.vendor, m.encoder_type.vendor}
        return vendors

    # -- simulation ----------------------------------------------------------------------------------
    @property
    def devices(self) -> tuple[Device, ...]:
        """Every device the drive reads: the IMU, then each module's drive motor, angle motor and
        absolute encoder."""
        return tuple(self._devices)

    @property
    def simulation(self) -> SwerveSim | None:
        """The physics model of this robot in simulation (:class:`~swervelib.sim.SwerveSim`):
        its ``true_pose`` is where the simulated robot really is. The drive creates one with
        itself (and steps it in :meth:`periodic`) when it simulates; a ``SwerveSim`` built on the
        drive later, e.g. in ``physics.py``, replaces it (and is stepped by whoever built it).
        None on a robot, or with ``simulate=False`` until a ``SwerveSim`` is built on it."""
        return self._sim  # type: ignore[no-any-return]

    def attach_simulation(self, sim: Any) -> None:
        """Called by :class:`swervelib.sim.SwerveSim`: that model now owns the physics."""
        self._sim = sim
        self._sim_owned = False

    def resync_after_simulation_start(self) -> None:
        """Re-read every sensor after a simulator has placed the mechanism, and re-seed."""
        # CTRE sim readings follow the wall clock (a frame about every 10 ms): wait for phoenix6
        # frames sent after the simulator placed the mechanism; phoenix5 has no such wait.
        if self._sim is not None:
            self._sim.wait_for_readings(SIM_START_WAIT_S)
        if Vendor.CTRE_PHOENIX5 in self.vendors:
            time.sleep(0.05)
        self._refresh()
        for module in self.modules:
            module.update()
            module.seed_relative_encoder()
        self.yaw.resync()
        self._positions = tuple([m.get_position() for m in self.modules])
        self._distances = [m.raw_drive_m for m in self.modules]
        # one world frame: the estimate starts where the new simulated robot is
        self._reset(self._sim.true_pose if self._sim is not None else self._pose)

    def _step_own_simulation(self, dt: float) -> None:
        if self._sim is None:
            from swervelib.sim.swerve_sim import SwerveSim

            SwerveSim(self)
            self._sim_owned = True
        elif self._sim_owned:
            self._sim.step(dt)

    # -- every loop ----------------------------------------------------------------------------------
    def periodic(self) -> None:
        """Call once per robot loop: read every sensor once, update odometry, publish telemetry.

        Besides that, every fourth call runs one device's fault check (in turn), every call notes
        how each module moves relative to its setpoint, and every fifth call judges the
        misconfiguration checks, so their cost is spread thin over the loops.
        """
        # microseconds, NetworkTables' time base too: the telemetry is stamped with this loop's time
        now_us = _fpga_us()
        now = now_us * 1e-6  # (Timer.getFPGATimestamp()'s own arithmetic: the same float)
        previous = self._last_time
        dt = now - previous
        if not 0.0 <= dt <= 0.1:  # time stood still or went back (0), or a long pause (0.1 s)
            dt = 0.0 if dt < 0.0 else 0.1
        self._last_time = now
        if self._simulate:
            if self._sim is None or self._sim_owned:
                self._step_own_simulation(dt)
            if self._batch is not None:  # stepped time: frames' wall-clock ages mean nothing
                self._batch.live_ages = not self._timing_paused()
        if self._batch is not None or self._unbatched:  # (REV, navX, WPILib: nothing to refresh)
            self._refresh()
        positions_read: list[SwerveModulePosition] = []
        distances: list[float] = []
        velocities: list[float] = []
        angles: list[float] = []
        turns: list[float] = []
        for module in self.modules:
            module.update()
            positions_read.append(module.position)
            distances.append(module.raw_drive_m)
            velocities.append(module.drive_velocity_mps)
            angles.append(module.angle_deg)
            turns.append(module.last_turn_deg)
        positions = tuple(positions_read)
        yaw = self.yaw
        previous_yaw = yaw.yaw_deg
        yaw.update(distances, angles)
        if dt > 0.0:
            self._yaw_rate = (yaw.yaw_deg - previous_yaw) * RADIANS_PER_DEGREE / dt
        # each wheel's roll along the direction it rolled in (half-way through its turn)
        rolled = odometry_positions(positions, distances, angles, turns)
        stand_in = self._estimated_wheels
        if stand_in is not None:  # a drive reading not live (or back, with an offset)
            turn = (yaw.yaw_deg - previous_yaw) * RADIANS_PER_DEGREE
            rolled = stand_in.adjust(rolled, self._distances, distances, turn)
            # a reading good again this loop is found live (stood in for one loop more, then used)
            for index in tuple(stand_in.estimated):
                self.modules[index].drive_motor.recheck_reading()
        self._positions = positions
        self._distances = distances
        self._pose = pose = self.estimator.updateWithTime(now, _from_degrees(yaw.yaw_deg), rolled)
        # this loop's snapshot, built by get_state() if anyone asks (nobody at NONE)
        self._loop_values = (
            now,
            pose,
            yaw.raw_yaw_deg,
            positions,
            velocities,
            angles,
            self._desired_speeds,
            self._targets,
            dt,
        )
        self._state = None
        if self._commanded:
            age = now - self._command_time
            timeout = self.command_timeout
            if timeout is not None and age > timeout:
                self._expire(age)
            elif self._command_time < previous and not self._direct:
                self._hold()
        if self._loop_count % HEALTH_CHECK_EVERY == 1:  # one device's fault check, in turn
            self.health_checks.run_next()
        self.diagnostics.observe_modules(dt)
        phase = self._loop_count % DIAGNOSTICS_EVERY
        if phase == 0:
            # the wheels' rotation rate: only the omega of the measured speeds, unless this
            # loop's snapshot is built anyway (telemetry, callbacks), which works out all three
            state = self.get_state() if self._publishes or self._telemetry_callbacks else None
            self.diagnostics.update_heading(
                yaw.yaw_deg,
                self._wheels.rotation(velocities, angles) if state is None else state.measured[2],
                yaw.imu_ok,
                now - self._last_heading_check,
                judge=wpilib.DriverStation.isEnabled(),
            )
            self._last_heading_check = now
        elif phase == 2:
            self.diagnostics.judge_modules(judge=wpilib.DriverStation.isEnabled())
        self._loop_count += 1
        if self._publishes:
            self.telemetry.publish(self.get_state(), now_us)
        if self._telemetry_callbacks:
            self._call_back(self.get_state())

    def _call_back(self, state: DriveState) -> None:
        problem = None
        for callback in self._telemetry_callbacks:
            try:
                callback(state)
            except Exception as error:  # a callback's bug must not stop the robot loop
                problem = f"{getattr(callback, '__name__', callback)!s} raised {error!r}"
        self._callback_alert.update(problem)

    def _expire(self, age: float) -> None:
        """No command for longer than ``command_timeout``: stop; say so while enabled if the
        command was moving the robot (a path follower's last, zero request expires quietly)."""
        moving = any(speed != 0.0 for speed, _ in self._targets)
        self.stop()
        if moving and wpilib.DriverStation.isEnabled():
            self._expiry_alert.update(
                f"no drive command for {age:.2f} s (timeout {self.command_timeout:g} s): modules "
                "stopped; call a drive method every loop"
            )

    def _hold(self) -> None:
        """No drive method was called in the last loop: apply the command in force again.

        A command lasts until ``command_timeout``, but a motor controller does not keep it by
        itself: a Talon FX/FXS gets one-shot control frames and goes neutral about 100 ms after
        the last. Each module follows its last target again (speed and angle, without the path
        feedforward), cosine-compensated for where it points now, so a module that was still
        turning also drives once it is there."""
        modules = self.modules
        self._targets = [
            modules[i].command(speed, angle) for i, (speed, angle) in enumerate(self._targets)
        ]

    def feed(self) -> None:
        """Say the drive's current command still holds this loop (for code that drives the
        modules directly, as SysId does), so it does not expire. That code commands the modules
        every loop itself: the drive does not re-apply its own last command over it."""
        self._command_time = self._last_time
        self._direct = True
        self.command_count += 1

    def _mark_commanded(self) -> None:
        self.command_count += 1
        self._commanded = True
        self._direct = False
        self._command_time = self._last_time
        if self._expiry_alert.active is not None:
            self._expiry_alert.update(None)

    def _wheel_turn_deg(self, distances: Sequence[float], angles: Sequence[float]) -> float:
        """How far the wheels say the robot turned since the last loop (degrees), from this
        loop's distances (m) and angles (degrees): the rotation of WPILib's ``toTwist2d``, each
        wheel's distance along its new angle (the yaw tracker's ``wheel_turn``)."""
        if distances == self._distances:  # no wheel rolled: no turn (the robot at rest)
            return 0.0
        stand_in = self._estimated_wheels
        if stand_in is not None and stand_in.estimated:  # not a frozen wheel's turn
            turn = stand_in.turn(self._distances, distances, angles)
            if turn is not None:
                return turn * DEGREES_PER_RADIAN
        before = self._distances  # (same length: one per module)
        # (a plain loop: a comprehension reading ``before`` would make a cell every call)
        rolled: list[float] = []
        for i, new in enumerate(distances):
            rolled.append(new - before[i])
        return self._wheels.rotation(rolled, angles) * DEGREES_PER_RADIAN

    # -- commands --------------------------------------------------------------------------------------
    def drive(
        self,
        speeds: ChassisSpeeds,
        *,
        field_relative: bool = False,
        center_of_rotation: Translation2d | None = None,
        feedforwards: Any = None,
    ) -> None:
        """Drive at ``speeds`` (m/s, rad/s); robot-relative unless ``field_relative``.

        ``feedforwards``: each module's acceleration (m/s², module order, along the module's
        direction), e.g. PathPlanner's ``DriveFeedforwards`` (its module accelerations are used:
        ``accelerationsMPS`` in robotpy-pathplannerlib) or a plain sequence; added through each module's feedforward kA, with the sign
        turned when optimisation reverses a wheel and the cosine scale applied.

        Speeds that are not finite numbers, or a centre of rotation that is not finite or more
        than 1 km away, or feedforwards of the wrong length, are refused: the drive stops and
        the ``Swerve commands`` Alert says why.

        The request is shaped as :attr:`options` says (heading correction, acceleration limits,
        angular-velocity compensation, discretisation, the setpoint generator). A command lasts
        until the next one, or ``command_timeout`` (0.1 s by default) if no other comes: then the
        modules stop, with an Alert.
        """
        self._drive(speeds, field_relative, center_of_rotation, feedforwards, True)

    def _drive(
        self,
        speeds: ChassisSpeeds,
        field_relative: bool,
        center_of_rotation: Translation2d | None,
        feedforwards: Any,
        correct_heading: bool,
    ) -> None:
        accelerations = None
        if feedforwards is not None:
            accelerations = list(_module_accelerations(feedforwards))
            if len(accelerations) != len(self.modules):
                self._refuse(
                    "drive()",
                    f"{len(accelerations)} feedforwards for {len(self.modules)} modules",
                )
                return
        diagnostics = self.diagnostics
        if diagnostics.runaway and diagnostics.should_stop:  # (no call while nothing runs away)
            self.stop()
            return
        vx, vy, omega = speeds.vx, speeds.vy, speeds.omega
        limit, spin_limit = self._speed_headroom, self._omega_headroom
        if not (
            -limit <= vx <= limit and -limit <= vy <= limit and -spin_limit <= omega <= spin_limit
        ):
            if not (math.isfinite(vx) and math.isfinite(vy) and math.isfinite(omega)):
                why = f"speeds ({shown_number(vx)}, {shown_number(vy)}, {shown_number(omega)}) are not finite"
                self._refuse("drive()", why)
                return
            # Far beyond reach (1e308 would overflow the kinematics): scaled down, same mix.
            scale = min(limit / max(abs(vx), abs(vy), 1e-300), spin_limit / max(abs(omega), 1e-300))
            vx, vy, omega = vx * scale, vy * scale, omega * scale
        if center_of_rotation is not None:
            center_why = center_problem(center_of_rotation)
            if center_why is not None:
                self._refuse("drive()", center_why)
                return
        options = self._options
        if self._shapes:
            heading = self._pose.rotation()
            robot = ChassisSpeeds(vx, vy, omega)
            if not field_relative:
                robot = ChassisSpeeds.fromRobotRelativeSpeeds(robot, heading)
            robot = self._shaper.shape(
                robot,
                options=options,
                heading=heading.radians(),
                state=self.get_state(),
                yaw_rate=self._yaw_rate,
                now=self._last_time,
                loop_period=self.loop_period,
                autonomous=wpilib.DriverStation.isAutonomous(),
                correct_heading=correct_heading,
                turn_to=self._correct_to,
            )
            vx, vy, omega = robot.vx, robot.vy, robot.omega
        elif field_relative:  # to the robot's frame: turned by minus the heading
            heading = self._pose.rotation()
            cos, sin = heading.cos(), heading.sin()
            vx, vy = vx * cos + vy * sin, vy * cos - vx * sin
        if options.discretize:
            vx, vy, omega = discretize(vx, vy, omega, self.loop_period)
        self._desired_speeds = (vx, vy, omega)
        if options.setpoint_limits is not None:
            self._apply_states(
                self._limited_states(ChassisSpeeds(vx, vy, omega), center_of_rotation),
                accelerations,
            )
            return
        if center_of_rotation is None:
            wanted = self._wheels.module_targets(vx, vy, omega, self.max_speed)
        else:
            wanted = self._wheels.module_targets(
                vx, vy, omega, self.max_speed, center_of_rotation.X(), center_of_rotation.Y()
            )
        # (indexed, not zip(..., strict=True): a keyword to a C constructor costs a dict and an
        # argument parse each loop; ``wanted`` has one target per module by construction; a
        # plain loop, not a comprehension, which would make a function object every loop)
        targets = []
        for i, module in self._indexed_modules:
            speed, angle = wanted[i]
            if accelerations is None:
                targets.append(module.command(speed, angle))
            else:
                targets.append(module.command(speed, angle, accelerations[i]))
        self._targets = targets
        self._mark_commanded()

    def _limited_states(
        self, robot: ChassisSpeeds, center_of_rotation: Translation2d | None
    ) -> Sequence[SwerveModuleState]:
        """The setpoint generator's next module states towards ``robot`` (desaturated)."""
        kinematics = self.kinematics
        if center_of_rotation is None:
            states = kinematics.toSwerveModuleStates(robot)
        else:
            states = kinematics.toSwerveModuleStates(robot, center_of_rotation)
        states = kinematics.desaturateWheelSpeeds(states, self.max_speed)
        limits = self._options.setpoint_limits
        assert limits is not None
        if self.setpoint_is_stale:
            self._setpoints.forget()  # history (a stale 2 m/s made a re-enabled robot lurch)
        state = self.get_state()
        return self._setpoints.next(
            kinematics.toChassisSpeeds(states),
            limits,
            self.loop_period,
            state.speeds,
            state.module_states,
        )

    def _apply_states(
        self, states: Sequence[SwerveModuleState], accelerations: Sequence[float] | None = None
    ) -> None:
        if accelerations is None:
            accelerations = [0.0] * len(self.modules)
        self._targets = [
            module.command(state.speed, state.angle.degrees(), acceleration)
            for module, state, acceleration in zip(self.modules, states, accelerations, strict=True)
        ]
        self._mark_commanded()

    # -- feedforward ----------------------------------------------------------------------------------
    @property
    def drive_feedforward(self) -> tuple[DriveFeedforward, ...]:
        """Each module's drive feedforward (volts = kS·sign(v) + kV·v + kA·a; SI units of the
        wheel), from ``pidfproperties.json`` ``drive.feedforward`` or derived from the motors."""
        return tuple(m.feedforward for m in self.modules)

    def set_drive_feedforward(self, ks: float, kv: float, ka: float = 0.0) -> None:
        """Replace every module's drive feedforward (e.g. with a SysId result): kS in volts, kV
        in volts per m/s, kA in volts per m/s². Values that are not finite, or negative (kV: not
        positive), are refused with ValueError."""
        for name, value in (("ks", ks), ("kv", kv), ("ka", ka)):
            if not (math.isfinite(value) and value >= 0.0) or (name == "kv" and value == 0.0):
                raise ValueError(f"{name} must be a finite number >= 0 (kv > 0), not {value!r}")
        feedforward = DriveFeedforward(ks=float(ks), kv=float(kv), ka=float(ka))
        for module in self.modules:
            module.feedforward = feedforward

    def _refuse(self, call: str, why: str) -> None:
        """A refused command: stop, and say so on the ``Swerve commands`` Alert."""
        self.refusals.refuse(call, why, "drive stopped")
        self.stop()

    def set_module_states(self, states: Sequence[SwerveModuleState]) -> None:
        """Command each module directly (robot-relative states, in module order).

        Speeds above the modules' free speed are desaturated (all scaled alike); a state whose
        speed or angle is not a finite number refuses the whole call (the drive stops).
        """
        states = list(states)
        if len(states) != len(self.modules):
            raise ValueError(f"{len(states)} states for {len(self.modules)} modules")
        for index, state in enumerate(states):
            if not (math.isfinite(state.speed) and usable_rotation(state.angle)):
                why = (
                    f"module {index} state ({shown_number(state.speed)} m/s, "
                    f"{shown_number(state.angle.radians())} rad) is not finite (angles within ±1e6 rad)"
                )
                self._refuse("set_module_states()", why)
                return
        top = self.module_max_speed
        if any(abs(state.speed) > top for state in states):
            states = list(self.kinematics.desaturateWheelSpeeds(states, top))
        self._apply_states(states)

    def drive_facing(
        self,
        vx: float,
        vy: float,
        heading: Rotation2d,
        *,
        field_relative: bool = True,
        turn_rate: float = 0.0,
    ) -> None:
        """Translate at (vx, vy) m/s while the heading PID turns the robot to ``heading``.

        ``turn_rate`` (rad/s): how fast ``heading`` itself turns, added to the PID's output as a
        feedforward (as phoenix6's ``TargetRateFeedforward``), e.g. while aiming at a point and
        translating past it: without it the robot trails a heading that moves.

        Near the heading the PID asks for less than overcomes the drive motors' static friction:
        a robot stuck short of ``heading`` gets a small push until it is within 0.1°
        (:meth:`~swervelib.drive.shaping.RequestShaper.facing_rotation`; heading correction
        turns by the same rule).

        A heading or speed that is not finite is refused before it reaches the heading PID (whose
        integral would keep a NaN for good): the drive stops.
        """
        if not (
            math.isfinite(vx)
            and math.isfinite(vy)
            and usable_rotation(heading)
            and math.isfinite(turn_rate)
        ):
            heading_rad = shown_number(heading.radians())
            why = (
                f"({shown_number(vx)}, {shown_number(vy)}, heading {heading_rad} rad, turn rate "
                f"{shown_number(turn_rate)} rad/s) is not finite (or > 1e6 rad)"
            )
            self._refuse("drive_facing()", why)
            return
        current = self._pose.rotation().radians()
        omega = self._turn_to(current, heading.radians(), math.hypot(vx, vy), turn_rate)
        self._drive(ChassisSpeeds(vx, vy, omega), field_relative, None, None, False)

    def _correct_to(self, current: float, target: float, translation: float) -> float:
        """Heading correction's turn: :meth:`_turn_to` with a push of its own (see
        :meth:`~swervelib.drive.shaping.RequestShaper.facing_rotation`'s ``rule``)."""
        return self._turn_to(current, target, translation, rule=HEADING_CORRECTION)

    def _turn_to(
        self,
        current: float,
        target: float,
        translation: float,
        turn_rate: float = 0.0,
        rule: str = DRIVE_FACING,
    ) -> float:
        """The rotation (rad/s) that holds or turns the robot from ``current`` to ``target``
        (radians) while it translates at ``translation`` m/s: the heading PID's, plus
        ``turn_rate`` (a feedforward), with the push a robot stuck short of its heading gets
        (:meth:`~swervelib.drive.shaping.RequestShaper.facing_rotation`). The one rule of both
        ``drive_facing`` and heading correction, each with its own push (``rule``)."""
        omega = self._heading_output(current, target)
        if turn_rate:
            omega += turn_rate
        return self._shaper.facing_rotation(
            omega,
            math.remainder(target - current, math.tau),
            translation + self._lowest_ks_speed(),
            self._yaw_rate,
            self.loop_period,
            self.max_speed,
            self.max_angular_velocity,
            rule,
        )

    def _lowest_ks_speed(self) -> float:
        """The wheel speed (m/s) whose voltage the smallest drive kS adds by itself: what a
        module's feedforward already gives towards overcoming static friction."""
        speeds = [m.feedforward.ks / m.feedforward.kv for m in self.modules if m.feedforward.kv > 0]
        return min(speeds, default=0.0)

    def _heading_output(self, current: float, target: float) -> float:
        """The heading PID's rotation (rad/s) from ``current`` towards ``target`` (radians)."""
        output = self.heading_controller.calculate(current, target)
        return max(-1.0, min(1.0, output)) * self.max_angular_velocity

    def lock(self) -> None:
        """Point every wheel at the robot centre (an X), speed 0. Call it every loop while locked."""
        self._targets = [
            module.command(0.0, module.location.angle().degrees(), force_angle=True)
            for module in self.modules
        ]
        self._desired_speeds = _NO_SPEEDS
        self._shaper.forget()
        self._setpoints.forget()
        self._mark_commanded()

    def point_wheels_at(self, direction: Rotation2d) -> None:
        """Turn every wheel to ``direction`` (robot-relative: 0 rad is the robot's front,
        counter-clockwise positive) without driving (phoenix6's ``PointWheelsAt``), e.g. to
        pre-align the wheels before autonomous or to check the steering. Call it every loop while
        pointing, as :meth:`lock`.

        Each wheel takes the shortest way: with optimisation on (the default), a wheel more than
        90° away faces the opposite way, which is the same line with the drive reversed, and the
        drive speed is 0 either way. A direction that is not finite (or beyond 1e6 rad) is
        refused: the drive stops and the ``Swerve commands`` Alert says why. The protective stop
        (``diagnostics.protective_stop``) stops the drive here as in :meth:`drive`.
        """
        if not usable_rotation(direction):
            why = f"direction {shown_number(direction.radians())} rad is not finite (or > 1e6 rad)"
            self._refuse("point_wheels_at()", why)
            return
        diagnostics = self.diagnostics
        if diagnostics.runaway and diagnostics.should_stop:  # (it steers, as drive() does)
            self.stop()
            return
        angle_deg = direction.degrees()
        self._targets = [
            module.command(0.0, angle_deg, force_angle=True) for module in self.modules
        ]
        self._desired_speeds = _NO_SPEEDS
        self._shaper.forget()
        self._setpoints.forget()
        self._mark_commanded()

    def stop(self) -> None:
        """Stop every motor."""
        for module in self.modules:
            module.stop()
        self._desired_speeds = _NO_SPEEDS
        self._targets = [(0.0, m.angle_deg) for m in self.modules]
        self._commanded = False
        self.command_count += 1
        self._shaper.forget()
        self._setpoints.forget()

    def set_idle_mode(self, brake: bool) -> None:
        """Brake or coast on the drive motors. A Talon FX/FXS or Spark that does not take it at
        once is tried again by its health check (about once a second, while it answers) until it
        does, with an Alert meanwhile."""
        for module in self.modules:
            module.set_idle_mode(brake)

    # -- pose ------------------------------------------------------------------------------------------
    def get_pose(self) -> Pose2d:
        """The pose estimate (metres, radians), updated by :meth:`periodic`."""
        return self._pose

    def reset_pose(self, pose: Pose2d) -> None:
        """Set the pose; the gyro is left alone and odometry stays consistent with it.

        A pose that is not finite, or more than 1 km from the origin, or not a Pose2d, is refused
        (the pose stays as it was and the ``Swerve commands`` Alert says why). Off the field is fine: odometry
        started at the origin, a field corner, goes negative on any practice floor.

        In simulation the simulated robot is put at the pose too (as YAGSL does), so an
        autonomous routine that starts with ``reset_pose`` runs where it says; its gyro reading is
        left alone, as the drive's is. ``drive.simulation.follow_pose_resets = False`` (or
        ``SwerveSim(..., follow_pose_resets=False)``) keeps the simulated robot where it is, to
        test what odometry does with a wrong starting pose.
        """
        checked = self._checked_reset("reset_pose()", pose)
        if checked is not None and self._sim is not None and self._sim.follow_pose_resets:
            self._sim.place(checked)  # one world frame: the simulated robot is put there too

    def _checked_reset(self, call: str, pose: Pose2d) -> Pose2d | None:
        """Reset to ``pose``, its rotation normalised, and return it; a pose that is not finite or
        is beyond 1 km is refused (None, the pose kept, ``call`` on the Alert), as is anything
        that is not a Pose2d."""
        if not self._given(call, pose, Pose2d):
            return None
        problem = pose_problem(pose, None)
        if problem is not None:
            self.refusals.refuse(call, problem[1], "pose kept")
            return None
        rotation = pose.rotation()  # normalised: Rotation2d(1e308) keeps 1e308 as its radians
        pose = Pose2d(pose.translation(), Rotation2d(rotation.cos(), rotation.sin()))
        self._reset(pose)
        return pose

    def _given(self, call: str, value: object, kind: type) -> bool:
        """Whether ``value``, given to ``call``, is a ``kind``; if not, it is refused (the pose
        kept, ``call`` and the type given on the ``Swerve commands`` Alert), not passed on to
        raise from inside wpimath and stop the robot loop."""
        if isinstance(value, kind):
            return True
        given = printable(type(value).__name__, 60)
        self.refusals.refuse(call, f"a {given} is not a {kind.__name__}", "pose kept")
        return False

    def _reset(self, pose: Pose2d) -> None:
        if self._estimated_wheels is not None:  # the estimator starts again from the readings
            self.stand_in.forget_offsets()
        gyro = Rotation2d.fromDegrees(self.yaw.yaw_deg)
        self.estimator.resetPosition(gyro, self._positions, pose)
        self._start_history(gyro)
        self._pose = pose
        self.pose_resets += 1
        self.yaw.note_reset()
        self._shaper.forget(pose.rotation().radians())  # heading correction holds the new heading

    def _start_history(self, gyro: Rotation2d) -> None:
        """The pose history starts again now, at the pose the estimator was just given (WPILib's
        estimator empties it on a reset): one sample, the odometry not having moved since, so
        that :meth:`sample_pose_at` answers from the reset on, between it and the next loop too,
        and a vision measurement given before the next loop has a pose to go against (WPILib
        drops one given to an empty history)."""
        now = wpilib.Timer.getFPGATimestamp()
        self._reset_time = now
        self.estimator.updateWithTime(now, gyro, self._positions)

    def reset_translation(self, translation: Translation2d) -> None:
        """Set the position, keeping the heading (phoenix6's ``reset_translation``, WPILib's
        ``resetTranslation``): :meth:`reset_pose` with the current heading. A translation that is
        not finite, or more than 1 km from the origin, or not a Translation2d, is refused as
        :meth:`reset_pose` refuses it (the pose kept, the ``Swerve commands`` Alert).

        In simulation the simulated robot is moved there too, keeping its own heading (the robot
        did not turn), unless ``drive.simulation.follow_pose_resets`` is False, as for
        :meth:`reset_pose`."""
        if not self._given("reset_translation()", translation, Translation2d):
            return
        checked = self._checked_reset(
            "reset_translation()", Pose2d(translation, self._pose.rotation())
        )
        sim = self._sim
        if checked is not None and sim is not None and sim.follow_pose_resets:
            sim.place(Pose2d(checked.translation(), sim.true_pose.rotation()))

    def reset_rotation(self, rotation: Rotation2d) -> None:
        """Set the heading, keeping the position (phoenix6's ``reset_rotation``, WPILib's
        ``resetRotation``): the same as ``zero_heading(rotation)``, under the name teams coming
        from phoenix6 or WPILib look for. A rotation that is not finite, or not a Rotation2d, is
        refused (the pose kept, the ``Swerve commands`` Alert naming ``reset_rotation()``)."""
        if self._given("reset_rotation()", rotation, Rotation2d):
            self._checked_reset("reset_rotation()", Pose2d(self._pose.translation(), rotation))

    def sample_pose_at(self, timestamp: float) -> Pose2d | None:
        """The estimated pose at ``timestamp`` (FPGA seconds, the time base of
        :meth:`add_vision_measurement`): e.g. the heading at a camera frame's timestamp, for a
        vision pipeline that needs it (phoenix6's ``sample_pose_at``, WPILib's ``sampleAt``).

        Each :meth:`periodic` keeps its pose at its loop's time; between two loops the pose is
        interpolated. Vision measurements correct the history as WPILib defines it: a pose from
        a measurement's timestamp on is moved by that measurement's correction, an earlier one
        is not. None, never an exception, for a timestamp the history does not hold: before
        the last pose reset (``reset_pose``, ``zero_heading``, ``reset_translation``,
        ``reset_rotation``; the poses before it were in another frame) or the drive's creation,
        more than 1.5 s before the latest loop (WPILib keeps 1.5 s), more than 0.1 s ahead of
        the robot's clock, or not a finite number. A time after the latest loop, up to 0.1 s
        ahead of the clock, gives the latest estimate."""
        start = self._reset_time
        newest = max(self._last_time, start)
        if not holds(timestamp, start=start, newest=newest, now=wpilib.Timer.getFPGATimestamp()):
            return None
        sample: Pose2d | None = self.estimator.sampleAt(float(timestamp))
        return sample

    def get_heading(self) -> Rotation2d:
        """The pose estimator's heading."""
        return self._pose.rotation()

    @property
    def setpoint_is_stale(self) -> bool:
        """Whether the last drive command is older than :data:`STALE_SETPOINT_S` (as of the last
        ``periodic()``): the setpoint generator then starts again from the measured modules."""
        return self._last_time - self._command_time > STALE_SETPOINT_S

    @property
    def yaw_rate(self) -> float:
        """How fast the robot turns (rad/s, counter-clockwise positive): the heading's change over
        the last loop (the IMU's, or the wheels' while the IMU is out)."""
        return self._yaw_rate

    def zero_heading(self, heading: Rotation2d | None = None) -> None:
        """Make the current direction the field's 0 rad (or ``heading``: π for a robot facing
        away from the red alliance's wall), keeping the position. The simulated robot is left
        where it is (the robot did not turn). A heading that is not finite is refused as
        :meth:`reset_pose` refuses it (the ``Swerve commands`` Alert; the pose kept)."""
        here = self._pose.translation()
        if heading is None:
            self._reset(Pose2d(here, Rotation2d()))
        elif self._given("zero_heading()", heading, Rotation2d):
            self._checked_reset("zero_heading()", Pose2d(here, heading))

    def get_raw_yaw(self) -> Rotation2d:
        """The IMU yaw after ``invertedIMU``, before any zeroing."""
        return Rotation2d.fromDegrees(self.yaw.raw_yaw_deg)

    def _pitch_roll_deg(self) -> tuple[float, float] | None:
        try:
            return self.imu.get_pitch_roll_degrees()
        except Exception:  # an adapter's bug must not stop the caller's loop
            return None

    def get_pitch(self) -> Rotation2d | None:
        """The robot's pitch, read from the IMU now (each call reads it; the drive's loop does
        not): WPILib's convention, counter-clockwise about the robot's left (+y) axis, so positive
        when the front goes down. None when the IMU cannot tell (a single-axis gyro) or the read
        failed. ``invertedIMU`` does not change it."""
        tilt = self._pitch_roll_deg()
        return None if tilt is None else _from_degrees(tilt[0])

    def get_roll(self) -> Rotation2d | None:
        """The robot's roll, read from the IMU now: counter-clockwise about the robot's front
        (+x) axis, so positive when the left side goes up; None as for :meth:`get_pitch`."""
        tilt = self._pitch_roll_deg()
        return None if tilt is None else _from_degrees(tilt[1])

    def get_rotation3d(self) -> Rotation3d | None:
        """The IMU's orientation: roll and pitch read now (as :meth:`get_roll` and
        :meth:`get_pitch`) and the IMU's own yaw, :meth:`get_raw_yaw` (after ``invertedIMU``, not
        zeroed: YAGSL's ``getGyroRotation3d`` is the IMU's too), as of the last ``periodic()``.
        For the field heading use :meth:`get_heading`. None when pitch and roll cannot be read."""
        tilt = self._pitch_roll_deg()
        yaw = self.yaw.raw_yaw_deg
        if tilt is None or not math.isfinite(yaw):
            return None
        return Rotation3d(
            tilt[1] * RADIANS_PER_DEGREE, tilt[0] * RADIANS_PER_DEGREE, yaw * RADIANS_PER_DEGREE
        )

    def add_vision_measurement(
        self,
        pose: Pose2d,
        timestamp: float,
        std_devs: tuple[float, float, float] | None = None,
    ) -> bool:
        """Fuse a vision pose taken at ``timestamp`` (FPGA seconds); True if it was used.

        ``std_devs`` (x m, y m, heading rad) stay in force for later measurements given without
        (WPILib's pose estimator keeps them): None means the last ones given, or WPILib's default
        (0.9, 0.9, 0.9) if none ever were.

        Refused (counted per reason in ``vision.refused``, shown on the ``Swerve vision`` Alert):
        a pose that is not finite or is off :attr:`field`, a timestamp more than 0.1 s ahead of
        the robot's clock or more than 1.5 s old, a timestamp before the last pose reset
        (``reset_pose``, ``zero_heading``, ``reset_translation``, ``reset_rotation``) or the
        drive's creation, std devs that are not three finite numbers ≥ 0. A frame taken before a
        reset would be fused against the reset pose as if the robot had not moved since the
        frame (WPILib's estimator keeps no history from before it).
        """
        gate = self.vision
        now = wpilib.Timer.getFPGATimestamp()
        problem = gate.problem(pose, timestamp, std_devs, now, self.field, self._reset_time)
        if problem is not None:
            gate.refuse(*problem)
            return False
        if std_devs is None:
            self.estimator.addVisionMeasurement(pose, timestamp)
        else:
            self.estimator.addVisionMeasurement(pose, timestamp, tuple(std_devs))
        gate.accepted += 1
        return True

    # -- speeds and states -----------------------------------------------------------------------------
    def get_state(self) -> DriveState:
        """This loop's snapshot (see :class:`~swervelib.drive.state.DriveState`), the same object
        for every caller until the next :meth:`periodic`."""
        state = self._state
        if state is None:  # built from the loop's values when first asked for
            state = self._state = DriveState(*self._loop_values, self._wheels)
        return state

    def register_telemetry(self, callback: Callable[[DriveState], None]) -> None:
        """Call ``callback(state)`` at the end of every :meth:`periodic` (a logger, a dashboard).
        A callback that raises is reported on an Alert; the loop goes on."""
        self._telemetry_callbacks.append(callback)

    @property
    def options(self) -> DriveOptions:
        """The request shaping in force (:class:`~swervelib.drive.options.DriveOptions`)."""
        return self._options

    @options.setter
    def options(self, options: DriveOptions) -> None:
        if not isinstance(options, DriveOptions):
            raise TypeError(f"options must be a DriveOptions, not {type(options).__name__}")
        self._options = options
        self._shapes = options.shapes
        self._shaper.forget()
        self._setpoints.forget()

    def get_module_states(self) -> list[SwerveModuleState]:
        """Each module's measured speed and angle this loop (from :meth:`get_state`)."""
        return list(self.get_state().module_states)

    def get_module_positions(self) -> list[SwerveModulePosition]:
        return list(self.get_state().module_positions)

    def get_robot_relative_speeds(self) -> ChassisSpeeds:
        """The measured chassis speeds this loop (from :meth:`get_state`)."""
        return self.get_state().speeds

    def get_field_relative_speeds(self) -> ChassisSpeeds:
        return self.get_state().field_speeds()


def _module_accelerations(feedforwards: Any) -> Any:
    """The module accelerations of PathPlanner's ``DriveFeedforwards`` (robotpy-pathplannerlib
    names them ``accelerationsMPS``, PathPlannerLib's Java ``accelerationsMPSSq``), or the
    sequence itself."""
    for name in ("accelerationsMPS", "accelerationsMPSSq"):
        values = getattr(feedforwards, name, None)
        if values is not None:
            return values
    return feedforwards
