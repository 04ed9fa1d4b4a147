"""SwerveSim: a physics model of the robot that the library's devices cannot see into.

The library commands its motor controllers; ``step(dt)`` reads what each controller really applies
to its motor (through the vendor simulator, in the bare motor's frame), moves the physical robot
described by a :class:`HardwareTruth`, and writes every sensor back through the vendor simulators.
Devices are matched to physical corners by their ids, so a configuration that puts the wrong ids
at a corner, or a wrong inversion flag, misbehaves here exactly as on the field.

A module steered on its absolute encoder (the angle Spark's feedback sensor) has that encoder
written every substep, before its angle motor is told the rotor state, since the controller's loop
runs on it; the steering gear is the truth's ``angle_gear_ratio``, else the configured one, else
(no ratio configured for such a module) REV MAXSwerve's 9424:203.
"""

from __future__ import annotations

import contextlib
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wpimath import kinematics
from wpimath.geometry import Pose2d, Rotation2d, Translation2d, Twist2d
from wpimath.kinematics import ChassisSpeeds, SwerveModuleState

from swervelib.config.catalog import Bus
from swervelib.config.model import INCH, ModuleConfig, SteerFeedback
from swervelib.devices.interfaces import AbsoluteEncoder, SwerveMotor
from swervelib.devices.settings import steer_gear_ratio
from swervelib.drive.telemetry import ROOT, TelemetryVerbosity
from swervelib.sim.chassis import (
    Chassis,
    ChassisProperties,
    FieldWalls,
    bumper_box,
    moment_of_inertia,
)
from swervelib.sim.motor_model import MotorModel, dc_motor
from swervelib.sim.talon_commands import TalonCommands
from swervelib.sim.truth import CornerTruth, HardwareTruth
from swervelib.text import printable, printable_repr

if TYPE_CHECKING:
    from swervelib.drive.swerve_drive import SwerveDrive

MAX_SUBSTEP_S = 0.002
MAX_STEP_S = 1.0
# The rotating parts of a drive: a brushless FRC motor's rotor and gearbox, reflected to the motor
# shaft (kg·m²), and a 4 in wheel with its hub about its axle (kg·m²). Approximate; they decide
# how fast a slipping wheel spins up, not how fast a gripping robot accelerates.
DRIVE_ROTOR_INERTIA = 1.0e-4
WHEEL_INERTIA = 5.0e-4
WHEEL_RADIUS_M = 0.0508  # when the configuration gives only a conversion factor
# The battery: WPILib's BatterySim's defaults, 12 V behind 0.02 Ω.
BATTERY_VOLTS = 12.0
BATTERY_OHMS = 0.02
# The most one by-hand action may move (turn_module_by_hand, rotate_robot_by_hand: degrees;
# roll_wheel_by_hand: metres): far more than a person does at once, small enough that the model's
# angles, pose and wheel positions stay finite and precise. Larger amounts are refused.
MAX_HAND_TURN_DEG = 3600.0  # ten turns
MAX_HAND_ROLL_M = 10.0
# The tilt set_tilt accepts: the range of each Euler angle (pitch ±90°, roll ±180°).
MAX_PITCH_DEG = 90.0
MAX_ROLL_DEG = 180.0


@dataclass
class _Corner:
    """One physical corner: its truth, the library devices really mounted there, its physics."""

    truth: CornerTruth
    location: Translation2d
    angle_motor: SwerveMotor
    drive_motor: SwerveMotor
    encoder: AbsoluteEncoder | None
    angle_gear: float  # motor rotations per module rotation
    drive_metres_per_rotation: float
    angle_model: MotorModel
    drive_model: MotorModel
    angle_origin_deg: float  # true module angle when the angle rotor is at 0
    steers_on_encoder: bool  # the encoder is the angle controller's feedback sensor

    @property
    def angle_sign(self) -> float:
        return -1.0 if self.truth.angle_reversed else 1.0

    @property
    def drive_sign(self) -> float:
        return -1.0 if self.truth.drive_reversed else 1.0

    def module_angle_deg(self) -> float:
        turns = self.angle_sign * self.angle_model.position / self.angle_gear
        return self.angle_origin_deg + 360.0 * turns

    def module_rate_dps(self) -> float:
        return self.angle_sign * 360.0 * self.angle_model.velocity / self.angle_gear

    def wheel_speed(self) -> float:
        return self.drive_sign * self.drive_model.velocity * self.drive_metres_per_rotation

    def write_encoder(self) -> None:
        """The bare encoder's reading for the module's true angle (and its rate)."""
        if self.encoder is None:
            return
        truth = self.truth
        sign = -1.0 if truth.encoder_reversed else 1.0
        reading = (self.module_angle_deg() + truth.encoder_zero_deg) / 360.0
        self.encoder.sim.set_raw(sign * reading, sign * self.module_rate_dps() / 360.0)


def _find(owners: Mapping[int, Any], device_id: int, what: str, corner: str) -> Any:
    try:
        return owners[device_id]
    except KeyError:
        known = sorted(owners)
        raise ValueError(
            f"the truth puts {what} id {device_id} at {corner}, but the configuration has no "
            f"{what} with that id (it has {known})"
        ) from None


class SwerveSim:
    """Physics for a :class:`SwerveDrive`. Call :meth:`step` once per simulation period."""

    def __init__(
        self,
        drive: SwerveDrive,
        truth: HardwareTruth | None = None,
        *,
        initial_module_angles_deg: Mapping[str, float] | None = None,
        initial_pose: Pose2d | None = None,
        initial_yaw_deg: float = 0.0,
        steer_scrub_volts: float = 0.0,
        traction: bool = True,
        walls: FieldWalls | None = None,
        follow_pose_resets: bool = True,
        true_wheel_diameter_m: float | None = None,
    ) -> None:
        """``steer_scrub_volts``: extra friction (in motor volts) that the tire's scrub on the floor
        adds to turning a module while the robot stands on its wheels; 0 models a robot on blocks
        or a floor with negligible scrub.

        ``traction``: the robot is a rigid body (mass, moment of inertia) pushed by its tyres,
        whose grip is limited (see :mod:`swervelib.sim.chassis`); wheels can slip. Without it the
        robot follows its wheels exactly, each drive motor turning a share of the robot's mass.
        ``walls``: the field perimeter the bumpers stop at (with ``traction`` only).

        ``follow_pose_resets``: the drive's ``reset_pose()`` also puts this simulated robot at the
        pose (:meth:`place`, which keeps it moving as it moved), so the estimate and the truth
        share one world frame.

        ``true_wheel_diameter_m``: the wheels' real diameter when it is not the configured one
        (worn treads), for modules whose configuration gives a diameter.

        The true pose is published every step beside the estimate: ``True Pose`` on the drive's
        Field2d and ``swerve/advantagescope/truePose`` (a Pose2d struct, for AdvantageScope)."""
        self.drive = drive
        self.follow_pose_resets = follow_pose_resets
        self.truth = truth or HardwareTruth.matching(drive.config)
        # see wait_for_readings: the devices with wall-clock signals, those last waited for (all
        # but the ones disconnected through their sim hook), and those devices' signals by bus
        self._signal_devices: list[Any] | None = None
        self._waited_devices: tuple[Any, ...] | None = None
        self._signal_groups: list[list[Any]] = []
        config = drive.config
        physical = config.physical_or_default
        count = len(self.truth.corners)
        wheel_mass = physical.robot_mass_kg / count
        drives: dict[int, tuple[SwerveMotor, ModuleConfig]] = {}
        angles: dict[int, tuple[SwerveMotor, ModuleConfig]] = {}
        encoders: dict[int, AbsoluteEncoder] = {}  # by encoder id
        attached: dict[int, AbsoluteEncoder] = {}  # plugged into an angle motor: by its id
        for module, module_config in zip(drive.modules, config.modules, strict=True):
            drives[module_config.drive.id] = (module.drive_motor, module_config)
            angles[module_config.angle.id] = (module.angle_motor, module_config)
            if module.encoder is None:
                continue
            if module_config.encoder_type.bus is Bus.ATTACHED:
                attached[module_config.angle.id] = module.encoder
            else:
                encoders[module_config.encoder.id] = module.encoder
        initial = initial_module_angles_deg or {}
        self._corners: list[_Corner] = []
        for truth_corner in self.truth.corners:
            angle_motor, angle_config = _find(
                angles, truth_corner.angle_id, "angle motor", truth_corner.name
            )
            drive_motor, drive_config = _find(
                drives, truth_corner.drive_id, "drive motor", truth_corner.name
            )
            encoder = attached.get(truth_corner.angle_id) or encoders.get(truth_corner.encoder_id)
            gear = truth_corner.angle_gear_ratio or steer_gear_ratio(angle_config)
            if not (gear > 0.0 and math.isfinite(gear)):
                raise ValueError(
                    f"the truth gives {truth_corner.name} an angle_gear_ratio of {gear}: it must "
                    "be a positive number (angle-motor rotations per module rotation)"
                )
            metres = drive_config.conversion.drive_m_per_rotation
            configured = drive_config.conversion.wheel_diameter_m
            if true_wheel_diameter_m is not None and configured:
                if not (math.isfinite(true_wheel_diameter_m) and true_wheel_diameter_m > 0.0):
                    raise ValueError(
                        f"true_wheel_diameter_m must be a positive number, not "
                        f"{true_wheel_diameter_m!r}"
                    )
                metres *= true_wheel_diameter_m / configured
            angle_inertia = physical.steer_rotational_inertia / gear**2
            if traction:  # the rotor turns its own parts; the tyre couples it to the robot
                radius = (drive_config.conversion.wheel_diameter_m or 2 * WHEEL_RADIUS_M) / 2
                drive_inertia = (
                    DRIVE_ROTOR_INERTIA + WHEEL_INERTIA * (metres / (2 * math.pi * radius)) ** 2
                )
            else:
                drive_inertia = wheel_mass * (metres / (2 * math.pi)) ** 2
            self._corners.append(
                _Corner(
                    truth=truth_corner,
                    location=Translation2d(truth_corner.front * INCH, truth_corner.left * INCH),
                    angle_motor=angle_motor,
                    drive_motor=drive_motor,
                    encoder=encoder,
                    angle_gear=gear,
                    drive_metres_per_rotation=metres,
                    angle_model=MotorModel(
                        dc_motor(angle_config.angle_motor_type.motor),
                        angle_inertia,
                        physical.friction.angle + steer_scrub_volts,
                    ),
                    drive_model=MotorModel(
                        dc_motor(drive_config.drive_motor_type.motor),
                        drive_inertia,
                        physical.friction.drive,
                    ),
                    angle_origin_deg=float(initial.get(truth_corner.name, 0.0)),
                    steers_on_encoder=(
                        encoder is not None
                        and angle_config.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER
                        and encoder is attached.get(truth_corner.angle_id)
                    ),
                )
            )
        if count not in (2, 3, 4, 6):
            raise ValueError("WPILib kinematics support 2, 3, 4 or 6 modules")
        # the motors whose commands a step waits for (phoenix6: no other vendor's have signals)
        phoenix6_motors = [
            motor
            for corner in self._corners
            for motor in (corner.angle_motor, corner.drive_motor)
            if motor.status_signals()
        ]
        self._talon_commands = TalonCommands(phoenix6_motors) if phoenix6_motors else None
        self._kinematics: Any = getattr(kinematics, f"SwerveDrive{count}Kinematics")(
            *(c.location for c in self._corners)
        )
        self._pose = initial_pose or Pose2d()
        self._yaw_deg = initial_yaw_deg
        self._yaw_rate_dps = 0.0
        self._tilt_deg = (0.0, 0.0)  # (pitch, roll): see set_tilt
        self._ideal_speeds = ChassisSpeeds()  # robot-relative, without traction
        self.chassis: Chassis | None = None
        self.battery = traction  # the battery sags under load in the traction model
        self.supply_current_a = 0.0
        self._volts = [0.0] * (2 * len(self._corners))
        if traction:
            self.chassis = self._new_chassis(walls)
        from wpilib.simulation import RoboRioSim

        # A fresh battery, whatever an earlier model left: a model without sag (ideal wheels)
        # would otherwise run on the voltage an earlier one had sagged to, for good.
        RoboRioSim.setVInVoltage(BATTERY_VOLTS)
        self._rim_masses = [
            c.drive_model.inertia * (2 * math.pi / c.drive_metres_per_rotation) ** 2
            for c in self._corners
        ]
        self._ghost, self._true_pose_topic = _truth_publishers(drive)
        drive.attach_simulation(self)
        self._write_sensors()
        self.drive.imu.sim.report_at_once()  # no earlier model's yaw on the first read
        # The new robot stands level, whatever an earlier model tilted this IMU to (an IMU whose
        # simulator cannot tilt always reads level).
        with contextlib.suppress(NotImplementedError):
            self.drive.imu.sim.set_tilt(0.0, 0.0)
        drive.resync_after_simulation_start()

    # -- read-outs -----------------------------------------------------------------------------------
    @property
    def true_pose(self) -> Pose2d:
        """Where the robot really is (field frame, metres and radians)."""
        return self._pose

    @property
    def true_yaw_deg(self) -> float:
        """The robot's real heading, counter-clockwise positive, unwrapped."""
        return self._yaw_deg

    @property
    def true_tilt_deg(self) -> tuple[float, float]:
        """The robot's real ``(pitch, roll)`` in degrees, as last given to :meth:`set_tilt`
        (level, ``(0.0, 0.0)``, until then)."""
        return self._tilt_deg

    @property
    def true_module_angles(self) -> dict[str, Rotation2d]:
        """Each corner's real module angle (0 = the wheel faces the robot's front)."""
        return {c.truth.name: Rotation2d.fromDegrees(c.module_angle_deg()) for c in self._corners}

    @property
    def true_speeds(self) -> ChassisSpeeds:
        """The robot's real velocity in the field's frame (m/s, rad/s)."""
        chassis = self.chassis
        if chassis is not None:
            return ChassisSpeeds(chassis.vx, chassis.vy, chassis.omega)
        return ChassisSpeeds.fromRobotRelativeSpeeds(self._ideal_speeds, self._pose.rotation())

    @property
    def true_module_speeds(self) -> dict[str, float]:
        """Each corner's real wheel speed along the wheel's direction (m/s)."""
        return {c.truth.name: c.wheel_speed() for c in self._corners}

    # -- physics ---------------------------------------------------------------------------------------
    def wait_for_readings(self, timeout_s: float = 10.0) -> bool:
        """Block until every device whose readings follow the wall clock has sent readings taken
        after this call (phoenix6 devices send a frame about every 10 ms of real time), so the next
        ``periodic()`` sees the state just simulated.

        For tests that step time faster than real time (pyfrc's ``stepTiming``): call it once per
        robot loop, after the loop's last step (each call takes two frames, some 20 ms of real
        time, and a Talon drops its command 100 ms of real time after it was sent).
        ``robotpy sim`` runs in real time and needs nothing. True at once for a drive without
        such devices; False when one did not update within ``timeout_s`` (it stopped answering).
        A device disconnected through its sim hook (``sim.set_connected(False)``) sends nothing
        more and is not waited for: the others' readings are.

        It also keeps those devices enabled while the Driver Station is enabled, for up to two
        seconds of wall-clock time from the call and from the end of the wait
        (:func:`~swervelib.devices.ctre6.hold_enable`): phoenix6's own enable lasts 100 ms
        of wall-clock time from the last step, which a loop on a busy machine outlasts, and a
        Talon whose enable lapsed applies nothing until it is commanded again. While it waits
        it sends each Talon its command again, as :meth:`step` does
        (:mod:`swervelib.sim.talon_commands`).
        """
        devices = self._signal_devices
        if devices is None:
            devices = self._signal_devices = [d for d in self.drive.devices if d.status_signals()]
        waited = tuple(d for d in devices if getattr(d.sim, "connected", True))
        if waited != self._waited_devices:  # the first call, or a device was disconnected
            self._waited_devices = waited
            signals = [s for device in waited for s in device.status_signals()]
            self._signal_groups = []
            if signals:  # phoenix6 is imported only for a drive that has phoenix6 devices
                from swervelib.devices.ctre6.batch import group_by_bus

                self._signal_groups = group_by_bus(signals)
        if not self._signal_groups:
            return True
        from swervelib.devices.ctre6 import hold_enable
        from swervelib.devices.ctre6.batch import wait_for_frames

        hold_enable()  # through the wait, which a busy machine stretches
        talons = self._talon_commands
        if talons is not None:  # and the Talons on their commands through it
            updated = talons.wait_for_frames(self._signal_groups, timeout_s)
        else:
            updated = wait_for_frames(self._signal_groups, timeout_s)
        hold_enable()  # and through the next loop, until the next step
        return updated

    def step(self, dt: float) -> None:
        """Advance the physical robot by ``dt`` seconds and update every sensor.

        The motor controllers are read and told the rotor state every substep (2 ms), so their
        on-board control loops run at a realistic rate rather than once per robot loop.
        """
        if not dt > 0.0:  # also NaN
            return
        dt = min(dt, MAX_STEP_S)  # a paused process (or an infinite dt) catches up at most this
        talons = self._talon_commands
        if talons is not None:
            talons.before_step(dt)  # the Talons on the commands in force (stepped time)
        substeps = max(1, math.ceil(dt / MAX_SUBSTEP_S))
        h = dt / substeps
        if self.chassis is not None:
            self._step_with_traction(self.chassis, substeps, h)
            return
        for _ in range(substeps):
            states = []
            for corner in self._corners:
                angle, drive = corner.angle_model, corner.drive_model
                angle.step(corner.angle_motor.sim.applied_voltage(), h)
                drive.step(corner.drive_motor.sim.applied_voltage(), h)
                if corner.steers_on_encoder:
                    corner.write_encoder()
                corner.angle_motor.sim.set_rotor(angle.position, angle.velocity, h)
                corner.drive_motor.sim.set_rotor(drive.position, drive.velocity, h)
                states.append(
                    SwerveModuleState(
                        corner.wheel_speed(), Rotation2d.fromDegrees(corner.module_angle_deg())
                    )
                )
            speeds = self._ideal_speeds = self._kinematics.toChassisSpeeds(tuple(states))
            self._pose = self._pose.exp(Twist2d(speeds.vx * h, speeds.vy * h, speeds.omega * h))
            self._yaw_rate_dps = math.degrees(speeds.omega)
            self._yaw_deg += self._yaw_rate_dps * h
        self._write_sensors(motors=False)

    def _new_chassis(self, walls: FieldWalls | None) -> Chassis:
        physical = self.drive.config.physical_or_default
        wheels = [(c.location.X(), c.location.Y()) for c in self._corners]
        length, width = bumper_box(wheels)
        mass = physical.robot_mass_kg
        properties = ChassisProperties(
            mass_kg=mass,
            moment_of_inertia=moment_of_inertia(mass, physical.robot_moment_of_inertia, wheels),
            wheel_grip=physical.wheel_grip_coefficient_of_friction,
            bumper_length_m=length,
            bumper_width_m=width,
        )
        pose = self._pose
        self._heading_start = pose.rotation().radians()
        return Chassis(
            properties,
            wheels,
            x=pose.X(),
            y=pose.Y(),
            heading=self._heading_start,
            walls=walls,
        )

    def _step_with_traction(self, chassis: Chassis, substeps: int, h: float) -> None:
        corners = self._corners
        speeds = [0.0] * len(corners)
        angles = [0.0] * len(corners)
        masses = self._rim_masses
        yaw_start = self._yaw_deg - math.degrees(chassis.heading)
        volts = self._volts
        for _ in range(substeps):
            for index, corner in enumerate(corners):
                angle_volts = corner.angle_motor.sim.applied_voltage()
                drive_volts = corner.drive_motor.sim.applied_voltage()
                volts[2 * index] = angle_volts
                volts[2 * index + 1] = drive_volts
                corner.angle_model.step(angle_volts, h)
                corner.drive_model.step(drive_volts, h)
                speeds[index] = corner.wheel_speed()
                angles[index] = math.radians(corner.module_angle_deg())
            chassis.grip(h, speeds, angles, masses)
            for index, corner in enumerate(corners):
                drive, angle = corner.drive_model, corner.angle_model
                free = drive.velocity
                drive.velocity = speeds[index] / (
                    corner.drive_sign * corner.drive_metres_per_rotation
                )
                # the step turned the rotor at its free-spinning speed; it really ran from its
                # old speed to the one the tyre left it (trapezoid: half the difference)
                drive.position += (drive.velocity - free) * h / 2
                if corner.steers_on_encoder:
                    corner.write_encoder()
                corner.angle_motor.sim.set_rotor(angle.position, angle.velocity, h)
                corner.drive_motor.sim.set_rotor(drive.position, drive.velocity, h)
            chassis.advance(h)
        self._yaw_rate_dps = math.degrees(chassis.omega)
        self._yaw_deg = yaw_start + math.degrees(chassis.heading)
        heading = chassis.heading  # unwrapped (the yaw); the pose's rotation is in (-180°, 180°]
        self._pose = Pose2d(chassis.x, chassis.y, Rotation2d(math.cos(heading), math.sin(heading)))
        if self.battery:
            self._sag_battery()
        self._write_sensors(motors=False)

    def _sag_battery(self) -> None:
        """The battery's voltage under the motors' load (WPILib's BatterySim: 12 V behind
        0.02 Ω), for each motor's duty cycle and speed in the last substep.

        The voltage and the currents are solved together, as they settle on a robot: a controller
        applies its duty cycle d of the battery's voltage V, so a motor draws d·(d·V − back-EMF)/R
        from the battery (negative when the motor runs faster than that voltage drives it), which
        pulls V down in turn. Feeding one step's currents to the next step's voltage instead
        overshoots whenever the motors at full output are stiffer than the battery (four drive
        motors of under 0.08 Ω: every swerve robot), and the voltage swung between two values
        every loop (9.1 and 11.9 V for four Vortexes, 5.7 and 11.9 V for four Kraken X60s), which
        held the robot at 76% (63%) of its top speed."""
        from wpilib import RobotController
        from wpilib.simulation import RoboRioSim

        vbus = max(RobotController.getBatteryVoltage(), 1.0)  # what the controllers applied from
        volts = self._volts
        terms = []  # (duty, back-EMF, resistance) of each motor
        load = 0.0  # the supply current per volt of battery: sum of d²/R (A/V)
        source = 0.0  # sum of d·back-EMF/R (A)
        for index, corner in enumerate(self._corners):
            for model, applied in (
                (corner.angle_model, volts[2 * index]),
                (corner.drive_model, volts[2 * index + 1]),
            ):
                motor = model.motor
                duty = applied / vbus
                emf = model.velocity * 2 * math.pi / motor.Kv
                terms.append((duty, emf, motor.R))
                load += duty * duty / motor.R
                source += duty * emf / motor.R
        # V = nominal − r·(load·V − source)
        battery = (BATTERY_VOLTS + BATTERY_OHMS * source) / (1.0 + BATTERY_OHMS * load)
        battery = max(0.0, battery)
        RoboRioSim.setVInVoltage(battery)
        self.supply_current_a = sum(d * (d * battery - emf) / r for d, emf, r in terms)

    def place(self, pose: Pose2d) -> None:
        """Put the simulated robot at ``pose`` without changing how it moves: its wheels keep
        their speeds and angles, its velocity relative to itself (forward stays forward) and its
        turn rate stay, as when a pose reset changes only the frame a moving robot is seen in.
        Its gyro keeps reading what it read, as a real one does. A robot at rest stays at rest."""
        self._pose = pose
        if self.chassis is not None:
            self.chassis.place(pose.X(), pose.Y(), pose.rotation().radians())
        self._publish_truth()

    def _publish_truth(self) -> None:
        if self._ghost is not None:
            self._ghost.setPose(self._pose)
            self._true_pose_topic.set(self._pose)

    def _write_sensors(self, *, motors: bool = True) -> None:
        for corner in self._corners:
            corner.write_encoder()  # first: a controller steering on it reads it in set_rotor
            if motors:
                angle, drive = corner.angle_model, corner.drive_model
                corner.angle_motor.sim.set_rotor(angle.position, angle.velocity, MAX_SUBSTEP_S)
                corner.drive_motor.sim.set_rotor(drive.position, drive.velocity, MAX_SUBSTEP_S)
        imu_sign = -1.0 if self.truth.imu_reversed else 1.0
        self.drive.imu.sim.set_raw_yaw(imu_sign * self._yaw_deg, imu_sign * self._yaw_rate_dps)
        self._publish_truth()

    # -- things a person does by hand during calibration -------------------------------------------
    def _corner(self, name: str) -> _Corner:
        if not isinstance(name, str):
            raise TypeError(
                f"a corner name must be a string, not {printable(type(name).__name__, 60)}"
            )
        for corner in self._corners:
            if corner.truth.name == name:
                return corner
        known = ", ".join(c.truth.name for c in self._corners)
        raise KeyError(f"no corner named {printable_repr(name, 60)} (the corners are {known})")

    def turn_module_by_hand(self, corner: str, degrees: float) -> None:
        """Turn one module by hand, counter-clockwise positive seen from above.

        ``degrees`` must be a finite number within ±:data:`MAX_HAND_TURN_DEG` (ten turns), else
        ValueError (TypeError for a non-number or a bool) and nothing moves.
        """
        amount = hand_amount(degrees, MAX_HAND_TURN_DEG, "°", "a module turn")
        c = self._corner(corner)
        c.angle_model.move_by(c.angle_sign * amount / 360.0 * c.angle_gear)
        self._write_sensors()

    def roll_wheel_by_hand(self, corner: str, metres: float) -> None:
        """Roll one wheel by hand, positive = the way the wheel faces.

        ``metres`` must be a finite number within ±:data:`MAX_HAND_ROLL_M`, else ValueError
        (TypeError for a non-number or a bool) and nothing moves.
        """
        amount = hand_amount(metres, MAX_HAND_ROLL_M, " m", "a wheel roll")
        c = self._corner(corner)
        c.drive_model.move_by(c.drive_sign * amount / c.drive_metres_per_rotation)
        self._write_sensors()

    def rotate_robot_by_hand(self, degrees: float) -> None:
        """Rotate the whole robot in place, counter-clockwise positive seen from above.

        ``degrees`` must be a finite number within ±:data:`MAX_HAND_TURN_DEG` (ten turns), else
        ValueError (TypeError for a non-number or a bool) and nothing moves.
        """
        amount = hand_amount(degrees, MAX_HAND_TURN_DEG, "°", "a robot rotation")
        self._yaw_deg += amount
        pose = self._pose
        self._pose = Pose2d(pose.translation(), pose.rotation() + Rotation2d.fromDegrees(amount))
        if self.chassis is not None:
            self.chassis.heading += math.radians(amount)
        self._write_sensors()

    def set_tilt(self, pitch_deg: float, roll_deg: float) -> None:
        """Tilt the robot, as a ramp or a bump would: ``pitch_deg`` positive with the front down,
        ``roll_deg`` positive with the left side up (WPILib's ``Rotation3d``), held until set
        again. The IMU's simulator is told what the real IMU would report (each vendor's own
        convention), so ``drive.get_pitch()``, ``get_roll()``, ``get_rotation3d()`` and the code
        acting on them (slowing down when tipping) can be tried; they show it from the IMU's next
        update (a navX's: within a loop). Nothing else follows from it: the robot still drives
        as on a level floor (no weight transfer, no tipping over), and ``imu_reversed`` (the
        yaw's) does not change it.

        Each angle a finite number of degrees, pitch within ±90, roll within ±180 (the Euler
        angles' ranges), else ValueError (TypeError for a non-number or a bool). A single-axis
        gyro cannot see a tilt (the drive's pitch and roll stay None); an IMU whose simulator
        cannot be tilted (the phoenix5 Pigeon IMU) raises NotImplementedError, and nothing
        changes."""
        pitch = _tilt_angle(pitch_deg, MAX_PITCH_DEG, "a pitch")
        roll = _tilt_angle(roll_deg, MAX_ROLL_DEG, "a roll")
        self.drive.imu.sim.set_tilt(pitch, roll)
        self._tilt_deg = (pitch, roll)


def _tilt_angle(value: object, limit: float, what: str) -> float:
    """``value`` as a float when it is a real number of degrees (not a bool), finite and within
    ±``limit``; else TypeError or ValueError with a short, printable message."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{what} must be a number of degrees, not {printable(type(value).__name__, 60)}"
        )
    try:
        amount = float(value)
    except (OverflowError, ValueError):  # e.g. an integer too large for a float
        amount = math.inf
    if not (math.isfinite(amount) and abs(amount) <= limit):
        raise ValueError(
            f"{what} must be a finite number of degrees within ±{limit:g}°, not {amount:.6g}"
        )
    return amount


def _truth_publishers(drive: SwerveDrive) -> tuple[Any, Any]:
    """The Field2d object and the NetworkTables topic the true pose is shown on (None, None when
    the drive publishes no telemetry)."""
    telemetry = drive.telemetry
    if telemetry.verbosity is TelemetryVerbosity.NONE:
        return None, None
    topic = telemetry.nt.getStructTopic(f"{ROOT}/advantagescope/truePose", Pose2d).publish()
    return telemetry.field.getObject("True Pose"), topic


def hand_amount(value: object, limit: float, unit: str, what: str) -> float:
    """``value`` as a float when it is a real number (not a bool), finite and within ±``limit``;
    else TypeError or ValueError with a short, printable message."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} must be a number, not {printable(type(value).__name__, 60)}")
    try:
        amount = float(value)
    except (OverflowError, ValueError):  # e.g. an integer too large for a float
        raise ValueError(
            f"{what} is a number too large for a float (far beyond ±{limit:g}{unit})"
        ) from None
    if not math.isfinite(amount):
        raise ValueError(f"{what} must be a finite number, not {amount}")
    if abs(amount) > limit:
        raise ValueError(
            f"{what} of {amount:.6g}{unit} is beyond the ±{limit:g}{unit} a hand can do at once"
        )
    return amount
