"""Cost of one swervelib robot loop against the floor: the same device I/O written by hand.

One process, simulation, no physics stepped (every device reads at rest: the device calls cost what
a moving robot's do; no module ever reaches its setpoint, so the library's runaway and stall
observation looks at every module every loop, its most). With ``--moving`` the robot moves: one
drive per configuration, at the ``--pair`` level, with a physics model stepped between its paced
loops, outside the timed window. For each configuration it builds one
library drive per telemetry level (``HIGH``, the default, to ``NONE``) from the deploy directory,
each on devices of its own and with ``simulate=False`` so the library's own physics model is not
timed, and a *floor*: a minimal hand-written loop that makes the same device reads and writes the
simplest correct way on the ``HIGH`` drive's own vendor objects (REVLib allows one Spark object per
CAN id per process) and calls WPILib kinematics, desaturation and pose estimation directly. It
refreshes phoenix6 signals with phoenix6's own ``BaseStatusSignal.refresh_all``. Where there are
phoenix6 signals, a second floor, *floor, batched*, refreshes them through swervelib's
``SignalBatch`` instead, so the table also shows the library's own overhead apart from what its
batch saves. A third, *floor, telemetry*, also publishes by hand the values the library publishes
at ``HIGH``, as often, so the table shows what those values cost a hand-written loop and what the
library's ``HIGH`` costs beyond that (``/tele``).

One loop is ``periodic()`` plus one field-relative ``drive()`` with speeds that change every loop.
A configuration's loops (the library at every level, the floors) are interleaved, in a new order
every round (shuffled from a fixed seed), so machine noise hits them alike and no loop always
follows the same other loop; the configurations are timed one after the other.
Printed: median and p10/p90 per loop, the library/floor ratios, and the share of a 20 ms robot loop
on a roboRIO at an assumed slowdown; the garbage collections made during the timed runs (with
``--moving``, the physics steps' among them). Then the tracemalloc (and RSS) growth over 100 000
library loops.

Usage::

    python benchmarks/loop_cost.py             # full run (a few minutes)
    python benchmarks/loop_cost.py --quick     # fewer loops, smoke test
    python benchmarks/loop_cost.py --profile   # cProfile of the library loop instead
    python benchmarks/loop_cost.py --rev-config vortex_throughbore_navx   # all-REV + navX
    python benchmarks/loop_cost.py --phoenix5  # also Talon SRX + Pigeon IMU, in its own process
    python benchmarks/loop_cost.py --pair NONE # one level against the floor, side by side
    python benchmarks/loop_cost.py --mode all  # also each loop alone, back to back
    python benchmarks/loop_cost.py --moving --pair NONE   # a moving robot, paced, one level

The REV configurations share CAN ids, so only one of them can be measured per process.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import functools
import gc
import io
import json
import math
import os
import pstats
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

# phoenix6 keeps simulated device configs in ./ctre_sim: keep them out of the repository.
os.chdir(tempfile.mkdtemp(prefix="swervelib-bench-"))

import navx  # noqa: E402,F401 - vendor libraries are loaded before anything is timed
import ntcore  # noqa: E402
import phoenix5  # noqa: E402
import rev  # noqa: E402
import wpilib  # noqa: E402
from phoenix6 import BaseStatusSignal, StatusCode, controls  # noqa: E402
from wpilib.simulation import DriverStationSim  # noqa: E402
from wpimath.estimator import SwerveDrive4PoseEstimator  # noqa: E402
from wpimath.geometry import Pose2d, Rotation2d  # noqa: E402
from wpimath.kinematics import (  # noqa: E402
    ChassisSpeeds,
    SwerveDrive4Kinematics,
    SwerveModulePosition,
    SwerveModuleState,
)

from swervelib import SwerveDrive, TelemetryVerbosity  # noqa: E402
from swervelib.devices.ctre6.batch import SignalBatch  # noqa: E402
from swervelib.sim import SwerveSim  # noqa: E402

LOOP_S = 0.02
ROBORIO_SLOWDOWN = 25.0  # a roboRIO 2 core runs CPython about 20-30x slower than this desktop core
ANTI_JITTER_FRACTION = 0.01  # same rule as the library: hold the angle below 1 % of top speed
OK = StatusCode.OK
BATCHED = "floor, batched"  # the floor refreshing phoenix6 signals through swervelib's batch
SITE_PACKAGES = str(Path(rev.__file__).resolve().parent.parent) + "/"

_K_POSITION = rev.SparkLowLevel.ControlType.kPosition
_K_VELOCITY = rev.SparkLowLevel.ControlType.kVelocity
_SLOT0 = rev.ClosedLoopSlot.kSlot0
_ARB_VOLTS = rev.SparkClosedLoopController.ArbFFUnits.kVoltage
_P5_POSITION = phoenix5.ControlMode.Position
_P5_VELOCITY = phoenix5.ControlMode.Velocity
_P5_ARB_FF = phoenix5.DemandType.ArbitraryFeedForward


# -- the floor -----------------------------------------------------------------------------------
class Floor:
    """What every hand-written loop shares: WPILib kinematics and pose estimation, nothing else.

    Subclasses read the sensors (:meth:`read`) into ``drive_m``, ``drive_mps``, ``steer_deg``,
    ``absolute_deg`` and ``yaw_deg`` and write the two set-points of a module (:meth:`command`).
    """

    signals: list[Any]  # phoenix6 status signals read per loop (empty without phoenix6 devices)

    def __init__(self, drive: SwerveDrive, *, batched: bool = False) -> None:
        modules = drive.modules
        assert len(modules) == 4, "the floor is written for four modules"
        # batched: refresh the phoenix6 signals through swervelib's SignalBatch (its native fast
        # path) instead of phoenix6's refresh_all, to show the library's own overhead apart from
        # what that batch saves.
        self.batch = SignalBatch(self.signals) if batched and self.signals else None
        self.kinematics = SwerveDrive4Kinematics(*(m.location for m in modules))
        self.max_speed = drive.max_speed
        self.offsets = [m.config.absolute_encoder_offset_deg for m in modules]
        self.hold_mps = [ANTI_JITTER_FRACTION * m.free_speed_mps for m in modules]
        self.kv = [12.0 / m.free_speed_mps for m in modules]
        self.cosine = [m.use_cosine_compensator for m in modules]
        self.drive_m = [0.0] * 4
        self.drive_mps = [0.0] * 4
        self.steer_deg = [0.0] * 4
        self.absolute_deg = [0.0] * 4
        self.yaw_deg = 0.0
        self.bad_refreshes = 0  # phoenix6 refreshes that were not OK (stale frames on a busy VM)
        self.read()
        self.angles = [
            Rotation2d.fromDegrees(a - o)
            for a, o in zip(self.absolute_deg, self.offsets, strict=True)
        ]
        self.targets_deg = [a.degrees() for a in self.angles]
        self.last_deg = [a - o for a, o in zip(self.absolute_deg, self.offsets, strict=True)]
        d, a = self.drive_m, self.angles
        self.estimator = SwerveDrive4PoseEstimator(
            self.kinematics,
            Rotation2d.fromDegrees(self.yaw_deg),
            (
                SwerveModulePosition(d[0], a[0]),
                SwerveModulePosition(d[1], a[1]),
                SwerveModulePosition(d[2], a[2]),
                SwerveModulePosition(d[3], a[3]),
            ),
            Pose2d(),
        )
        self.pose = Pose2d()

    def read(self) -> None:
        raise NotImplementedError

    def refresh_signals(self) -> bool:
        """One refresh of every phoenix6 signal: phoenix6's ``refresh_all``, or the batch."""
        batch = self.batch
        if batch is None:
            return BaseStatusSignal.refresh_all(self.signals) is OK
        return batch.refresh()

    def command(self, index: int, steer_setpoint_deg: float, speed: float, ff_volts: float) -> None:
        raise NotImplementedError

    def loop(self, vx: float, vy: float, omega: float) -> None:
        """One robot loop: read, odometry, then a field-relative drive command."""
        # periodic()
        self.read()
        a, o = self.absolute_deg, self.offsets
        from_degrees = Rotation2d.fromDegrees
        degrees = [a[0] - o[0], a[1] - o[1], a[2] - o[2], a[3] - o[3]]
        angles = [
            from_degrees(degrees[0]),
            from_degrees(degrees[1]),
            from_degrees(degrees[2]),
            from_degrees(degrees[3]),
        ]
        # odometry counts each wheel's roll half-way through its turn this loop, as the library
        # does (swervelib.drive.odometry): the direction it rolled in
        last = self.last_deg
        rolled = [
            from_degrees(d - 0.5 * ((d - p + 180.0) % 360.0 - 180.0))
            for d, p in zip(degrees, last, strict=True)
        ]
        self.last_deg = degrees
        self.angles = angles
        drive_m = self.drive_m
        self.pose = self.estimator.update(
            Rotation2d.fromDegrees(self.yaw_deg),
            (
                SwerveModulePosition(drive_m[0], rolled[0]),
                SwerveModulePosition(drive_m[1], rolled[1]),
                SwerveModulePosition(drive_m[2], rolled[2]),
                SwerveModulePosition(drive_m[3], rolled[3]),
            ),
        )
        # drive()
        speeds = ChassisSpeeds.fromFieldRelativeSpeeds(
            ChassisSpeeds(vx, vy, omega), self.pose.rotation()
        )
        speeds = ChassisSpeeds.discretize(speeds, LOOP_S)
        states = self.kinematics.desaturateWheelSpeeds(
            self.kinematics.toSwerveModuleStates(speeds), self.max_speed
        )
        self.speeds, self.states = speeds, states  # for TelemetryFloor
        for i in range(4):
            state: SwerveModuleState = states[i]
            angle = angles[i]
            state.optimize(angle)
            if self.cosine[i]:
                state.cosineScale(angle)
            speed = state.speed
            if abs(speed) >= self.hold_mps[i]:
                self.targets_deg[i] = state.angle.degrees()
            # the steering motor's own encoder + the shortest turn to the target (as the library)
            error = (self.targets_deg[i] - angle.degrees() + 180.0) % 360.0 - 180.0
            self.command(i, self.steer_deg[i] + error, speed, self.kv[i] * speed)


class SparkFloor(Floor):
    """REV motors: steering position and drive velocity set-points on the Sparks' own PIDs."""

    def take_sparks(self, modules: Sequence[Any]) -> None:
        """The drive's Spark encoders and closed-loop controllers (REVLib allows no others)."""
        self.drive_encoders = [m.drive_motor.spark.getEncoder() for m in modules]
        self.steer_encoders = [m.angle_motor.spark.getEncoder() for m in modules]
        self.drive_pids = [m.drive_motor.spark.getClosedLoopController() for m in modules]
        self.steer_pids = [m.angle_motor.spark.getClosedLoopController() for m in modules]

    def read_sparks(self) -> None:
        self.drive_m = [e.getPosition() for e in self.drive_encoders]
        self.drive_mps = [e.getVelocity() for e in self.drive_encoders]
        self.steer_deg = [e.getPosition() for e in self.steer_encoders]

    def command(self, index: int, steer_setpoint_deg: float, speed: float, ff_volts: float) -> None:
        self.steer_pids[index].setSetpoint(steer_setpoint_deg % 360.0, _K_POSITION)
        self.drive_pids[index].setSetpoint(speed, _K_VELOCITY, _SLOT0, ff_volts, _ARB_VOLTS)


class SparkCancoderPigeonFloor(SparkFloor):
    """Spark MAX/FLEX motors (REVLib getters), CANcoders and a Pigeon2 (one ``refresh_all``)."""

    def __init__(self, drive: SwerveDrive, *, batched: bool = False) -> None:
        modules: Sequence[Any] = drive.modules  # the adapters' vendor objects are untyped
        imu: Any = drive.imu
        self.take_sparks(modules)
        self.absolute = [m.encoder.device.get_absolute_position(False) for m in modules]
        self.yaw = imu.device.get_yaw(False)
        self.signals = [*self.absolute, self.yaw]
        super().__init__(drive, batched=batched)

    def read(self) -> None:
        if self.refresh_signals():
            self.absolute_deg = [s.value_as_double * 360.0 for s in self.absolute]
            self.yaw_deg = self.yaw.value_as_double
        else:
            self.bad_refreshes += 1  # keep the last readings
        self.read_sparks()


class SparkAttachedNavXFloor(SparkFloor):
    """All REV (absolute encoder on the steering Spark's data port) and a navX."""

    def __init__(self, drive: SwerveDrive, *, batched: bool = False) -> None:
        modules: Sequence[Any] = drive.modules  # the adapters' vendor objects are untyped
        imu: Any = drive.imu
        self.take_sparks(modules)
        self.absolute = [m.angle_motor.spark.getAbsoluteEncoder() for m in modules]
        self.ahrs: Any = imu._device  # the navX adapter's navx.AHRS (no public accessor)
        self.signals = []
        super().__init__(drive, batched=batched)

    def read(self) -> None:
        self.absolute_deg = [e.getPosition() for e in self.absolute]
        self.yaw_deg = -self.ahrs.getAngle()  # navX angles are clockwise positive
        self.read_sparks()


class TalonCancoderPigeonFloor(Floor):
    """phoenix6 only: every signal in one ``refresh_all``, one preallocated request per motor."""

    def __init__(self, drive: SwerveDrive, *, batched: bool = False) -> None:
        modules: Sequence[Any] = drive.modules  # the adapters' vendor objects are untyped
        imu: Any = drive.imu
        self.talons_drive = [m.drive_motor.device for m in modules]
        self.talons_steer = [m.angle_motor.device for m in modules]
        self.drive_pos = [t.get_position(False) for t in self.talons_drive]
        self.drive_vel = [t.get_velocity(False) for t in self.talons_drive]
        self.steer_pos = [t.get_position(False) for t in self.talons_steer]
        self.absolute = [m.encoder.device.get_absolute_position(False) for m in modules]
        self.yaw = imu.device.get_yaw(False)
        self.signals = [
            *self.drive_pos,
            *self.drive_vel,
            *self.steer_pos,
            *self.absolute,
            self.yaw,
        ]
        # krakenx60 (not the _foc type): no FOC commutation, as the library configures it; one-shot
        # frames (update_freq_hz 0), as the library sends them
        self.steer_requests = [
            controls.PositionVoltage(0.0, enable_foc=False).with_update_freq_hz(0.0)
            for _ in modules
        ]
        self.drive_requests = [
            controls.VelocityVoltage(0.0, enable_foc=False).with_update_freq_hz(0.0)
            for _ in modules
        ]
        super().__init__(drive, batched=batched)

    def read(self) -> None:
        if not self.refresh_signals():
            self.bad_refreshes += 1
            return  # keep the last readings
        # Mechanism units: drive metres (SensorToMechanismRatio), steering module rotations.
        self.drive_m = [s.value_as_double for s in self.drive_pos]
        self.drive_mps = [s.value_as_double for s in self.drive_vel]
        self.steer_deg = [s.value_as_double * 360.0 for s in self.steer_pos]
        self.absolute_deg = [s.value_as_double * 360.0 for s in self.absolute]
        self.yaw_deg = self.yaw.value_as_double

    def command(self, index: int, steer_setpoint_deg: float, speed: float, ff_volts: float) -> None:
        steer = self.steer_requests[index]
        steer.position = steer_setpoint_deg / 360.0
        self.talons_steer[index].set_control(steer)
        request = self.drive_requests[index]
        request.velocity = speed
        request.feed_forward = ff_volts
        self.talons_drive[index].set_control(request)


class TalonSrxPigeonFloor(Floor):
    """phoenix5 (robotpy-ctre): Talon SRX motors, pulse-width encoders on the steering Talons, a
    Pigeon IMU; each value read once by its getter, set-points in native units.

    phoenix5 getters return the last frame's value whether or not it arrived; the only way to know
    is ``getLastError()`` after the call. The floor asks once per device per loop, after its last
    read (a device that stopped answering keeps its last readings), the least a correct loop does;
    the library asks after every reading (a Talon's velocity shares its position's answer: the
    same status frame) and also judges the encoder's pulse and the Talons' fault flags."""

    def __init__(self, drive: SwerveDrive, *, batched: bool = False) -> None:
        modules: Sequence[Any] = drive.modules  # the adapters' vendor objects are untyped
        imu: Any = drive.imu
        self.drive_talons = [m.drive_motor.talon for m in modules]
        self.steer_talons = [m.angle_motor.talon for m in modules]
        # adapter units (metres, module degrees) per native count, as the library configures them
        self.drive_unit = [m.drive_motor._unit for m in modules]
        self.steer_unit = [m.angle_motor._unit for m in modules]
        self.sensors = [m.encoder._sensors for m in modules]
        self.encoder_units = [m.encoder._units for m in modules]
        self.pigeon = imu.pigeon
        self.max_volts = [m.drive_motor._volts for m in modules]
        self.signals = []
        super().__init__(drive, batched=batched)

    def read(self) -> None:
        for i in range(4):
            talon, unit = self.drive_talons[i], self.drive_unit[i]
            position = talon.getSelectedSensorPosition(0)
            velocity = talon.getSelectedSensorVelocity(0)
            if not talon.getLastError().value:  # (.value: int() costs twice as much)
                self.drive_m[i] = position * unit
                self.drive_mps[i] = velocity * 10.0 * unit
            else:
                self.bad_refreshes += 1
            talon, units = self.steer_talons[i], self.encoder_units[i]
            position = talon.getSelectedSensorPosition(0)
            absolute = self.sensors[i].getPulseWidthPosition()
            if not talon.getLastError().value:  # (.value: int() costs twice as much)
                self.steer_deg[i] = position * self.steer_unit[i]
                self.absolute_deg[i] = (int(absolute) % units) * 360.0 / units
            else:
                self.bad_refreshes += 1
        yaw = self.pigeon.getYaw()
        if not self.pigeon.getLastError().value:
            self.yaw_deg = yaw
        else:
            self.bad_refreshes += 1

    def loop(self, vx: float, vy: float, omega: float) -> None:
        phoenix5.Unmanaged.feedEnable(100)  # simulation only: keep the outputs enabled
        super().loop(vx, vy, omega)

    def command(self, index: int, steer_setpoint_deg: float, speed: float, ff_volts: float) -> None:
        self.steer_talons[index].set(_P5_POSITION, steer_setpoint_deg / self.steer_unit[index])
        self.drive_talons[index].set(
            _P5_VELOCITY,
            speed / self.drive_unit[index] / 10.0,
            _P5_ARB_FF,
            ff_volts / self.max_volts[index],
        )


FLOORS: dict[str, type[Floor]] = {
    "swerve": SparkCancoderPigeonFloor,
    "vortex_throughbore_navx": SparkAttachedNavXFloor,
    "kraken_cancoder_pigeon2": TalonCancoderPigeonFloor,
    "talonsrx_pigeon": TalonSrxPigeonFloor,
}


TELEMETRY = "floor, telemetry"  # the floor publishing, by hand, what the library does at HIGH
_MODULE_VALUES = (
    "Raw Absolute Encoder",
    "Adjusted Absolute Encoder",
    "Raw Angle Encoder",
    "Raw Drive Encoder",
    "Raw Drive Velocity",
    "Speed Setpoint",
    "Angle Setpoint",
)


class TelemetryFloor:
    """A floor that also publishes, written by hand, the values the library publishes at ``HIGH``,
    as often: every loop the pose (struct and Field2d), the measured and commanded module states
    and chassis speeds; in turn, one group per loop, the rotation and the two IMU yaws or one
    module's seven numbers. Typed struct publishers take the WPILib objects the floor already
    has (the simplest correct way); topics of their own, under ``/SmartDashboard/floor``.

    Not a target of issue 18 (the targets are against the plain floor); it shows what the
    library's ``HIGH`` costs beyond publishing the same values."""

    def __init__(self, floor: Floor) -> None:
        self.floor = floor
        nt = ntcore.NetworkTableInstance.getDefault()
        base = "/SmartDashboard/floor"
        scope = f"{base}/advantagescope"
        self.pose = nt.getStructTopic(f"{scope}/pose", Pose2d).publish()
        self.rotation = nt.getStructTopic(f"{scope}/robotRotation", Rotation2d).publish()

        def states(name: str) -> ntcore.StructArrayPublisher:
            return nt.getStructArrayTopic(f"{scope}/{name}", SwerveModuleState).publish()

        def speeds(name: str) -> ntcore.StructPublisher:
            return nt.getStructTopic(f"{scope}/{name}", ChassisSpeeds).publish()

        self.current_states = states("currentStates")
        self.desired_states = states("desiredStates")
        self.measured_speeds = speeds("measuredChassisSpeeds")
        self.desired_speeds = speeds("desiredChassisSpeeds")
        self.field = wpilib.Field2d()
        wpilib.SmartDashboard.putData("Floor Field", self.field)
        self.raw_yaw = nt.getDoubleTopic(f"{base}/Raw IMU Yaw").publish()
        self.adjusted_yaw = nt.getDoubleTopic(f"{base}/Adjusted IMU Yaw").publish()
        self.module_values = [
            [nt.getDoubleTopic(f"{base}/modules/{i}/{name}").publish() for name in _MODULE_VALUES]
            for i in range(4)
        ]
        self.read_issues = [
            nt.getBooleanTopic(f"{base}/modules/{i}/Absolute Encoder Read Issue").publish()
            for i in range(4)
        ]
        for issue in self.read_issues:
            issue.set(False)  # set once: the floor never loses an encoder
        self.group = 0

    def loop(self, vx: float, vy: float, omega: float) -> None:
        f = self.floor
        f.loop(vx, vy, omega)
        pose = f.pose
        self.pose.set(pose)
        self.field.setRobotPose(pose)
        angles, mps = f.angles, f.drive_mps
        current = (
            SwerveModuleState(mps[0], angles[0]),
            SwerveModuleState(mps[1], angles[1]),
            SwerveModuleState(mps[2], angles[2]),
            SwerveModuleState(mps[3], angles[3]),
        )
        self.current_states.set(list(current))
        self.desired_states.set(list(f.states))
        self.measured_speeds.set(f.kinematics.toChassisSpeeds(current))
        self.desired_speeds.set(f.speeds)
        group = self.group
        self.group = group + 1 if group < 4 else 0
        if group == 0:
            rotation = pose.rotation()
            self.rotation.set(rotation)
            self.raw_yaw.set(f.yaw_deg)
            self.adjusted_yaw.set(rotation.degrees())
            return
        i = group - 1
        values = self.module_values[i]
        values[0].set(f.absolute_deg[i])
        values[1].set(angles[i].degrees())
        values[2].set(f.steer_deg[i])
        values[3].set(f.drive_m[i])
        values[4].set(mps[i])
        values[5].set(f.states[i].speed)
        values[6].set(f.targets_deg[i])


# -- what is timed ---------------------------------------------------------------------------------
def speed_sequence(count: int) -> list[tuple[float, float, float]]:
    """Field-relative commands that change every loop (m/s, m/s, rad/s), some near zero."""
    return [
        (
            2.5 * math.sin(2 * math.pi * k / 500),
            1.5 * math.cos(2 * math.pi * k / 700),
            2.0 * math.sin(2 * math.pi * k / 300),
        )
        for k in range(count)
    ]


def library_loop(drive: SwerveDrive) -> Callable[[float, float, float], None]:
    def loop(vx: float, vy: float, omega: float) -> None:
        drive.periodic()
        drive.drive(ChassisSpeeds(vx, vy, omega), field_relative=True)

    return loop


@dataclass
class Case:
    config: str
    label: str  # "library HIGH", "library NONE", "floor"
    loop: Callable[[float, float, float], None]
    times_ns: array[int]
    # With --moving: the physics of this case's devices, stepped one loop period before each
    # paced loop, outside the timed window (None: the devices are another case's, stepped there).
    step: Callable[[], None] | None = None


LEVELS = (
    TelemetryVerbosity.HIGH,
    TelemetryVerbosity.POSE,
    TelemetryVerbosity.LOW,
    TelemetryVerbosity.NONE,
)


@dataclass
class Setup:
    config: str
    drives: dict[TelemetryVerbosity, SwerveDrive]  # one library drive per telemetry level
    floor: Floor
    batched_floor: Floor | None  # the floor on swervelib's phoenix6 batch (phoenix6 configs)
    telemetry_floor: TelemetryFloor  # the floor publishing what the library does at HIGH
    # With --moving: the one drive's physics (the floors command that drive's devices too)
    sims: dict[TelemetryVerbosity, SwerveSim] = field(default_factory=dict)
    # metres driven and degrees turned by each moving drive's simulated robot, while timed
    travelled: dict[TelemetryVerbosity, list[float]] = field(default_factory=dict)

    @property
    def high(self) -> SwerveDrive:
        """The drive whose devices the floors share: HIGH's (with --moving, the one drive)."""
        return next(iter(self.drives.values()))

    def _stepper(self, level: TelemetryVerbosity) -> Callable[[], None] | None:
        """One loop period of ``level``'s physics (None when the robot is at rest)."""
        sim = self.sims.get(level)
        if sim is None:
            return None
        travelled = self.travelled.setdefault(level, [0.0, 0.0])

        def step() -> None:
            sim.step(LOOP_S)
            speeds = sim.true_speeds
            travelled[0] += math.hypot(speeds.vx, speeds.vy) * LOOP_S
            travelled[1] += abs(speeds.omega) * LOOP_S * 180.0 / math.pi

        return step

    def travel(self) -> list[str]:
        """How far each moving drive's simulated robot has gone so far."""
        return [
            f"{self.config} {level.name}: the simulated robot drove {metres:.1f} m and turned "
            f"{degrees:.0f}° while timed"
            for level, (metres, degrees) in self.travelled.items()
        ]

    def cases(self, pair: TelemetryVerbosity | None = None) -> list[Case]:
        """Every level, the floor, the batched floor and the floor with telemetry; with
        ``pair``, that level and the floor alone."""
        cases = [
            Case(
                self.config,
                f"library {level.name}",
                library_loop(drive),
                array("q"),
                self._stepper(level),
            )
            for level, drive in self.drives.items()
            if pair is None or level is pair
        ]
        # the floors share the first drive's devices, whose physics that drive's case steps
        cases.append(Case(self.config, "floor", self.floor.loop, array("q")))
        if pair is None:
            if self.batched_floor is not None:
                cases.append(Case(self.config, BATCHED, self.batched_floor.loop, array("q")))
            cases.append(Case(self.config, TELEMETRY, self.telemetry_floor.loop, array("q")))
        return cases


# Each level's drive gets CAN ids of its own, moved up by this much per level (the reference
# configurations' ids are at most 13: 13 + 3 × 16 = 61, within CAN's 0-62).
ID_OFFSET = 16


def own_devices(config: str, index: int) -> Path:
    """``config`` with every CAN id moved up by ``index`` × :data:`ID_OFFSET` (a copy in the
    working directory; index 0 is the configuration itself).

    Library drives built twice on the same simulated devices disturb each other: each seeds and
    commands the other's motors, and the later drives' modules were found on their relative
    encoders (the absolute encoder judged frozen while the angle motor turned) and timed on that
    fall-back path. An ``id`` of 0 (an attached encoder's, a navX's: not a CAN id) stays.
    """
    source = DEPLOY / config
    if index == 0:
        return source
    target = Path.cwd() / f"{config}-{index}"
    shutil.copytree(source, target)
    for path in target.rglob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        moved = _moved_ids(data, index * ID_OFFSET)
        path.write_text(json.dumps(moved, indent=2), encoding="utf-8")
    return target


def _moved_ids(value: Any, offset: int) -> Any:
    if isinstance(value, dict):
        return {
            key: item + offset
            if key == "id" and type(item) is int and item > 0
            else _moved_ids(item, offset)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_moved_ids(item, offset) for item in value]
    return value


def build(config: str, *, moving: TelemetryVerbosity | None = None, ids: int = 0) -> Setup:
    """One drive per level and the floors on the first (HIGH) drive's devices.

    ``moving``: one drive only, at that level, with a physics model (:class:`SwerveSim`, stepped
    by the paced loop, not by the drive), its ids moved ``ids`` times (:func:`own_devices`). One
    drive, because a navX has no CAN id to move: drives at several levels would share it, and
    each drive's model would write its own robot's yaw into it. ``ids`` keeps two configurations
    apart: the simulated phoenix6 devices of the REV configuration (rio bus) and of the TalonFX
    one (CANivore) have the same ids, and phoenix6's simulator keeps one device per id whatever
    the bus (a CANcoder 9 on "rio" reads what was written to CANcoder 9 on "canivore")."""
    levels = LEVELS if moving is None else (moving,)
    drives = {
        level: SwerveDrive.from_directory(
            own_devices(config, ids + index), verbosity=level, simulate=False
        )
        for index, level in enumerate(levels)
    }
    # built before the floors: the model places the mechanisms and the drive re-reads them
    sims = (
        {level: SwerveSim(drive) for level, drive in drives.items()} if moving is not None else {}
    )
    high = next(iter(drives.values()))
    floor = FLOORS[config](high)
    batched = FLOORS[config](high, batched=True) if floor.signals else None
    telemetry = TelemetryFloor(FLOORS[config](high))
    return Setup(config, drives, floor, batched, telemetry, sims)


def floor_differences(setup: Setup, pair: TelemetryVerbosity | None = None) -> list[str]:
    """Where the floors timed (with ``pair``, the plain floor only) did not read what the library
    read: module angles, distances, yaw."""
    drive = setup.high
    found = []
    floors = (setup.floor,) if pair is not None else (setup.floor, setup.telemetry_floor.floor)
    for floor in floors:
        for module, angle, distance in zip(drive.modules, floor.angles, floor.drive_m, strict=True):
            difference = (module.angle_deg - angle.degrees() + 180.0) % 360.0 - 180.0
            if abs(difference) >= 1e-6:
                found.append(f"{setup.config} {module.name}: angle {difference}")
            # phoenix6 positions are latency-compensated (position + velocity x age): a wheel the
            # model left turning reads ahead of the bare signal by up to a frame's age's worth
            if abs(module.raw_drive_m - distance) >= 1e-9 + abs(module.drive_velocity_mps) * 0.1:
                found.append(f"{setup.config} {module.name}: distance")
        if abs(drive.get_raw_yaw().degrees() - floor.yaw_deg) >= 1e-6:
            found.append(f"{setup.config}: yaw")
    return found


def check_floor(setup: Setup, pair: TelemetryVerbosity | None = None) -> None:
    """The floors must read what the library reads: same module angles, distances and yaw."""
    found = floor_differences(setup, pair)
    assert not found, "; ".join(found)


def health_problems(setup: Setup) -> list[str]:
    """What keeps a library drive off its usual path (:func:`drive_problems`), every level's."""
    return drive_problems(setup.config, {level.name: d for level, d in setup.drives.items()})


def drive_problems(config: str, drives: Mapping[str, SwerveDrive]) -> list[str]:
    """What keeps a library drive off its usual path: a module on its relative encoder, an IMU
    not trusted (a drive in a fault state runs other code than a healthy robot)."""
    problems = []
    for name, drive in drives.items():
        fallen = [m.name for m in drive.modules if m.absolute_read_issue]
        if fallen:
            problems.append(f"{config} {name}: on relative encoders: {fallen}")
        if not drive.yaw.imu_ok:
            problems.append(f"{config} {name}: IMU not trusted")
    return problems


def check_healthy(setup: Setup) -> None:
    """Every library drive must be timed on its usual path."""
    problems = health_problems(setup)
    assert not problems, "; ".join(problems)


# A simulated device can take a while to answer after it was built (a phoenix5 Pigeon IMU reports
# itself initialising first, on the wall clock): the warm-up waits for every drive to be healthy,
# giving up after this long.
READY_TIMEOUT_S = 30.0


def warm_up(setup: Setup, cases: Sequence[Case], speeds: Sequence[tuple[float, ...]]) -> None:
    """Run the loops (untimed) until every drive is healthy (:func:`settle`), then check."""
    settle(setup.config, lambda: health_problems(setup), cases, speeds)
    check_healthy(setup)


def settle(
    config: str,
    problems: Callable[[], list[str]],
    cases: Sequence[Case],
    speeds: Sequence[tuple[float, ...]],
) -> None:
    """Run the loops (untimed) at least 500 rounds, then at 50 Hz until ``problems()`` finds
    none, for at most :data:`READY_TIMEOUT_S`."""
    run_interleaved(cases, 500, speeds)
    found = problems()
    start = time.monotonic()
    while found and time.monotonic() - start < READY_TIMEOUT_S:
        time.sleep(LOOP_S)
        run_interleaved(cases, 1, speeds)
        found = problems()
    waited = time.monotonic() - start
    if waited > LOOP_S:
        print(f"{config}: waited {waited:.2f} s for every drive to be healthy")


def round_orders(n: int, rounds: int) -> list[list[int]]:
    """Each round's order of ``n`` cases: a new shuffle every round, from a fixed seed (runs
    repeat). Rotating one order instead gives every case the same predecessor in every round
    (the library at ``NONE`` always after the library at ``LOW``, the floor always after a
    library loop), and a loop that follows another loop of the same code finds more of it in
    the caches: in a scratch A/B run of three publishing variants, whichever ran right after the
    floor measured up to 0.17 of the floor slower, paced, until the order was varied. Shuffled,
    every case follows every other about equally often."""
    rng = random.Random(18)
    orders = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        orders.append(order)
    return orders


def run_paced(
    cases: Sequence[Case],
    rounds: int,
    speeds: Sequence[tuple[float, ...]],
    collections: Collections | None = None,
) -> None:
    """A robot's rhythm: each case runs once per 20 ms, and every timed loop follows a sleep (the
    slot of 20 ms / cases), in a new order every round (:func:`round_orders`), so no loop runs
    right after another with its caches warm, and none always after the same one. The garbage
    collections made meanwhile are counted in ``collections``."""
    clock = time.perf_counter_ns
    n = len(cases)
    slot_ns = int(LOOP_S * 1e9 / n)
    loops = [c.loop for c in cases]
    times = [c.times_ns for c in cases]
    steps = [c.step for c in cases]
    orders = round_orders(n, rounds)  # made before counting: they are not the loops' objects
    with collections or contextlib.nullcontext():
        deadline = clock()
        for r, order in enumerate(orders):
            vx, vy, omega = speeds[r % len(speeds)]
            for i in order:
                deadline += slot_ns
                step = steps[i]
                if step is not None:  # --moving: the physics, before the sleep, not timed
                    step()
                wait = deadline - clock()
                if wait > 0:
                    time.sleep(wait / 1e9)
                else:
                    deadline = clock()  # fell behind (a slow loop, a busy machine): start again
                loop = loops[i]
                t0 = clock()
                loop(vx, vy, omega)
                times[i].append(clock() - t0)


ALONE_BLOCKS = 10


def run_alone(
    cases: Sequence[Case],
    rounds: int,
    speeds: Sequence[tuple[float, ...]],
    collections: Collections | None = None,
) -> None:
    """Each case by itself, as in a tight loop of one drive: ``rounds`` loops of each, in
    :data:`ALONE_BLOCKS` blocks of one case's loops back to back, the cases taking turns block by
    block (the order rotating), so machine noise hits them alike. The garbage collections made
    meanwhile are counted in ``collections``."""
    clock = time.perf_counter_ns
    n = len(cases)
    per_block = max(1, rounds // ALONE_BLOCKS)
    with collections or contextlib.nullcontext():
        for block in range(ALONE_BLOCKS):
            for j in range(n):
                case = cases[(block + j) % n]
                loop, times = case.loop, case.times_ns
                for k in range(block * per_block, (block + 1) * per_block):
                    vx, vy, omega = speeds[k % len(speeds)]
                    t0 = clock()
                    loop(vx, vy, omega)
                    times.append(clock() - t0)


def run_interleaved(
    cases: Sequence[Case],
    rounds: int,
    speeds: Sequence[tuple[float, ...]],
    collections: Collections | None = None,
) -> None:
    """Each round runs every case once, in a new order every round (:func:`round_orders`). The
    garbage collections made meanwhile are counted in ``collections``."""
    clock = time.perf_counter_ns
    loops = [c.loop for c in cases]
    times = [c.times_ns for c in cases]
    orders = round_orders(len(cases), rounds)  # made before counting: not the loops' objects
    with collections or contextlib.nullcontext():
        for r, order in enumerate(orders):
            vx, vy, omega = speeds[r % len(speeds)]
            for i in order:
                loop = loops[i]
                t0 = clock()
                loop(vx, vy, omega)
                times[i].append(clock() - t0)


# -- reporting -------------------------------------------------------------------------------------
def percentile(sorted_values: Sequence[float], q: float) -> float:
    index = q * (len(sorted_values) - 1)
    low = math.floor(index)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (index - low)


@dataclass
class Stats:
    median_us: float
    p10_us: float
    p90_us: float

    @classmethod
    def of(cls, times_ns: Sequence[int]) -> Stats:
        values = sorted(t / 1000.0 for t in times_ns)
        return cls(statistics.median(values), percentile(values, 0.1), percentile(values, 0.9))


def library_signal_count(drive: SwerveDrive) -> int:
    """phoenix6 status signals the library refreshes per loop (the adapters' public batch)."""
    devices: list[Any] = [drive.imu]
    for m in drive.modules:
        devices += [m.drive_motor, m.angle_motor, m.encoder]
    return sum(len(d.status_signals()) for d in devices if d is not None)


def print_signal_counts(setups: Sequence[Setup]) -> None:
    for setup in setups:
        floor = len(getattr(setup.floor, "signals", ()))
        print(
            f"{setup.config}: phoenix6 signals refreshed per loop: library "
            f"{library_signal_count(setup.high)}, floor {floor}"
        )


class Collections:
    """The garbage collections made while it is in use (``with``), by generation: a loop that
    leaves container objects behind sets one off every 700 of them, in whichever loop is running
    (so a count is for all the cases timed together, not for one of them)."""

    def __init__(self) -> None:
        self.counts = [0, 0, 0]

    def _count(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.counts[info["generation"]] += 1

    def __enter__(self) -> Collections:
        gc.callbacks.append(self._count)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._count)

    def line(self) -> str:
        young, middle, old = self.counts
        return (
            f"garbage collections during the timed runs: {young} young, {middle} middle, {old} full"
            + ("" if any(self.counts) else " (no loop paid for one)")
        )


TARGETS = {"library HIGH": 1.3, "library NONE": 1.1}  # library/floor, hot and paced


def print_table(
    timed: Sequence[tuple[str, Sequence[Case]]],
    rounds: int,
    paced_rounds: int,
    moving: bool = False,
) -> None:
    """Each mode's medians side by side (hot, alone, paced: those timed), with their
    library/floor ratios; the roboRIO share is of the last mode's median."""
    modes = [
        (name, {(c.config, c.label): Stats.of(c.times_ns) for c in cases})
        for name, cases in timed
        if cases
    ]
    described = {
        "hot": f"{rounds} rounds, each case once per round, back to back, in a new order each round",
        "alone": f"{rounds} loops of each case, in {ALONE_BLOCKS} blocks of one case's loops",
        "paced": f"{paced_rounds} rounds at 50 Hz, a sleep before every loop (each case once per "
        "20 ms, in a new order each round)"
        + (
            "; the robot moving: each drive's physics stepped 20 ms before each of its loops"
            if moving
            else ""
        ),
    }
    print("\nOne loop = periodic() + drive(field_relative=True).")
    for name, _ in modes:
        print(f"{name}: {described[name]}")
    print(
        f"roboRIO share assumes a {ROBORIO_SLOWDOWN:.0f}x slowdown of the last median "
        f"(of a {LOOP_S * 1000:.0f} ms loop).\n"
    )
    header = f"{'configuration':<26}{'loop':<18}"
    for name, _ in modes:
        header += f"{name + ' µs':>10}{'p10':>7}{'p90':>7}{'/floor':>8}{'/batched':>9}{'/tele':>7}"
    header += f"{'roboRIO':>9}{'target':>8}"
    print(header)
    print("-" * len(header))
    configs = dict.fromkeys(c.config for _, cases in timed for c in cases)
    labels = [f"library {level.name}" for level in LEVELS] + ["floor", BATCHED, TELEMETRY]
    for config in configs:
        for label in labels:
            if (config, label) not in modes[0][1]:
                continue
            library = label.startswith("library")
            line = f"{config:<26}{label:<18}"
            verdicts = []
            last = 0.0
            for _, stats in modes:
                s = stats[(config, label)]
                floor = stats[(config, "floor")]
                batched = stats.get((config, BATCHED))
                ratio = s.median_us / floor.median_us
                line += f"{s.median_us:>10.1f}{s.p10_us:>7.1f}{s.p90_us:>7.1f}"
                line += f"{ratio:>8.2f}" if library else f"{'':>8}"
                line += (
                    f"{s.median_us / batched.median_us:>9.2f}"
                    if library and batched
                    else f"{'':>9}"
                )
                # the same telemetry: only HIGH publishes what the telemetry floor does
                telemetry = stats.get((config, TELEMETRY))
                line += (
                    f"{s.median_us / telemetry.median_us:>7.2f}"
                    if label == "library HIGH" and telemetry
                    else f"{'':>7}"
                )
                target = TARGETS.get(label)
                if target is not None:
                    verdicts.append(ratio <= target)
                last = s.median_us
            line += f"{last * ROBORIO_SLOWDOWN / (LOOP_S * 1e6):>8.1%}"
            if verdicts:
                line += f"{'met' if all(verdicts) else 'MISSED':>8}"
            print(line)
    print("\n/floor = library median over the floor's; /batched = over the floor refreshing its")
    print("phoenix6 signals through swervelib's SignalBatch instead of phoenix6's refresh_all (the")
    print("library's own overhead, without what its batch saves). /tele = library HIGH over the")
    print("floor that also publishes the same values by hand (floor, telemetry).")
    print(
        "Targets (issue 18): library/floor <= 1.3 at HIGH and <= 1.1 at NONE, in every mode timed."
    )


def rss_kib() -> int:
    """Resident set size of this process (KiB), from /proc (0 where unavailable)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def memory_growth(setup: Setup, loops: int, speeds: Sequence[tuple[float, ...]]) -> None:
    """tracemalloc growth over ``loops`` library loops at HIGH, plus allocated blocks and RSS.

    A snapshot after the first tenth of the loops separates one-off allocations (caches, lazily
    built objects) from growth that goes on: the second figure is what the last nine tenths added.
    """
    loop = library_loop(setup.high)
    for k in range(2000):  # warm every cache and lazily created object first
        loop(*speeds[k % len(speeds)])
    print(f"  {setup.config}: {loops} loops under tracemalloc ...", file=sys.stderr, flush=True)
    gc.collect()
    tracemalloc.start()
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__)]
    before = tracemalloc.take_snapshot().filter_traces(ignore)
    blocks_before = sys.getallocatedblocks()
    rss_before = rss_kib()
    tenth = max(loops // 10, 1)
    middle = before
    t0 = time.perf_counter()
    for k in range(loops):
        vx, vy, omega = speeds[k % len(speeds)]
        loop(vx, vy, omega)
        if k + 1 == tenth:
            gc.collect()
            middle = tracemalloc.take_snapshot().filter_traces(ignore)
    elapsed = time.perf_counter() - t0
    gc.collect()
    after = tracemalloc.take_snapshot().filter_traces(ignore)
    blocks_after = sys.getallocatedblocks()
    rss_after = rss_kib()
    tracemalloc.stop()
    total = after.compare_to(before, "lineno")
    late = after.compare_to(middle, "lineno")
    growth = sum(d.size_diff for d in total)
    late_growth = sum(d.size_diff for d in late)
    print(
        f"{setup.config:<26}{loops:>7} loops ({elapsed:5.1f} s traced): tracemalloc {growth:+,} B "
        f"in all, {late_growth:+,} B over the last {loops - tenth}; "
        f"allocated blocks {blocks_after - blocks_before:+,}; RSS {rss_after - rss_before:+,} KiB"
    )
    for d in total[:3]:
        if d.size_diff:
            where = d.traceback.format()[0].strip().replace(SITE_PACKAGES, "")
            print(f"    {d.size_diff:+,} B ({d.count_diff:+} blocks)  {where}")


def profile(
    setup: Setup,
    loops: int,
    speeds: Sequence[tuple[float, ...]],
    top: int,
    level: TelemetryVerbosity = TelemetryVerbosity.HIGH,
) -> None:
    """cProfile of the library loop at ``level``: swervelib by cumulative time, all by own time."""
    loop = library_loop(setup.drives[level])
    for k in range(500):
        loop(*speeds[k % len(speeds)])
    profiler = cProfile.Profile()
    profiler.enable()
    for k in range(loops):
        vx, vy, omega = speeds[k % len(speeds)]
        loop(vx, vy, omega)
    profiler.disable()
    print(f"\n=== cProfile, library loop at {level.name}, {setup.config}, {loops} loops ===")
    print("(per-call times are inflated by the profiler; compare them with each other)")
    for sort, restriction in (("cumulative", r"swervelib|phoenix6.base_status"), ("tottime", "")):
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats(sort).print_stats(*([restriction, top] if restriction else [top]))
        lines = out.getvalue().splitlines()
        start = next(i for i, line in enumerate(lines) if "ncalls" in line)
        print(f"--- by {sort}{' (swervelib only)' if restriction else ''}")
        for line in lines[start:]:
            if line.strip():
                print(line.replace(str(REPO) + "/", "").replace(SITE_PACKAGES, ""))


# -- main ------------------------------------------------------------------------------------------
MODES = {
    "both": ("hot", "paced"),
    "all": ("hot", "alone", "paced"),
    "hot": ("hot",),
    "alone": ("alone",),
    "paced": ("paced",),
}


def enable_driver_station() -> None:
    """Teleop enabled, as while driving (the misconfiguration checks judge only then)."""
    DriverStationSim.setEnabled(True)
    DriverStationSim.setAutonomous(False)
    DriverStationSim.notifyNewData()
    wpilib.DriverStation.silenceJoystickConnectionWarning(True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer loops (smoke test)")
    parser.add_argument("--rounds", type=int, help="interleaved timing rounds (default 10000)")
    parser.add_argument("--memory-loops", type=int, help="loops for tracemalloc (default 100000)")
    parser.add_argument(
        "--rev-config",
        default="swerve",
        choices=("swerve", "vortex_throughbore_navx"),
        help="REV configuration: SparkMax+CANcoder+Pigeon2 or all-REV+navX",
    )
    parser.add_argument(
        "--phoenix5",
        action="store_true",
        help="also the phoenix5 configuration (talonsrx_pigeon: Talon SRX + Pigeon IMU), timed "
        "afterwards in a process of its own",
    )
    parser.add_argument(
        "--pair",
        choices=[level.name for level in LEVELS],
        help="time only the library at this level against the floor, two loops taking turns (a "
        "side-by-side measurement: no other drive's loop in between)",
    )
    parser.add_argument("--only", choices=sorted(FLOORS), help=argparse.SUPPRESS)
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc run")
    parser.add_argument(
        "--mode",
        default="both",
        choices=sorted(MODES),
        help="hot: the cases' loops back to back, taking turns; alone: each case's loops back to "
        "back by themselves (a tight loop of one drive); paced: at 50 Hz with a sleep before each; "
        "both: hot and paced (the default); all: the three",
    )
    parser.add_argument(
        "--paced-rounds", type=int, help="paced rounds, 20 ms each (default 1500: 30 s)"
    )
    parser.add_argument(
        "--moving",
        action="store_true",
        help="a moving robot (with --pair LEVEL): the drive gets a physics model (SwerveSim), "
        "stepped 20 ms before each of its paced loops, outside the timed window; paced only "
        "(phoenix6 readings follow the wall clock: a robot moved faster than real time would "
        "read stale frames); no memory run",
    )
    parser.add_argument("--profile", action="store_true", help="cProfile the library loop only")
    parser.add_argument(
        "--level",
        default="HIGH",
        choices=[level.name for level in LEVELS],
        help="with --profile: the telemetry level profiled (default HIGH)",
    )
    args = parser.parse_args(argv)
    if args.moving and (args.mode not in ("both", "paced") or args.profile or not args.pair):
        parser.error(
            "--moving needs --pair LEVEL (one drive: a navX would be shared by several), times "
            "the paced loops only and does not profile"
        )
    pair = TelemetryVerbosity[args.pair] if args.pair else None
    rounds = args.rounds or (2000 if args.quick else 10000)
    paced_rounds = args.paced_rounds or (300 if args.quick else 1500)
    memory_loops = args.memory_loops or (10000 if args.quick else 100000)

    enable_driver_station()

    configs = [args.only] if args.only else [args.rev_config, "kraken_cancoder_pigeon2"]
    setups = [
        build(config, moving=pair, ids=index) if args.moving else build(config)
        for index, config in enumerate(configs)
    ]
    speeds = speed_sequence(10000)

    if args.profile:
        for setup in setups:
            level = TelemetryVerbosity[args.level]
            profile(setup, 5000 if args.quick else 20000, speeds, 30, level)
        return phoenix5_apart(args, argv)

    # Each configuration's loops (the library at every level, floor, batched floor) are
    # interleaved with each other; the configurations are timed one after the other (all devices
    # of both stay alive throughout). Interleaving the two configurations' loops as well would time
    # each loop with caches cold from the other drive's, which no robot does: it runs one drive.
    modes = ("paced",) if args.moving else MODES[args.mode]
    hot: list[Case] = []
    alone: list[Case] = []
    paced: list[Case] = []
    collections = Collections()
    for setup in setups:
        setup_cases = setup.cases(pair)
        warm_up(setup, setup_cases, speeds)  # discarded
        if "hot" in modes:
            for case in setup_cases:
                del case.times_ns[:]
            run_interleaved(setup_cases, rounds, speeds, collections)
            hot += setup_cases
        if "alone" in modes:
            alone_cases = setup.cases(pair)
            run_alone(alone_cases, rounds, speeds, collections)
            alone += alone_cases
        if "paced" in modes:
            paced_cases = setup.cases(pair)
            run_paced(paced_cases, paced_rounds, speeds, collections)
            paced += paced_cases
    travel = [line for setup in setups for line in setup.travel()]  # before the stop below
    if args.moving:  # the robot must have moved, or the figures are the resting robot's
        still = [s.config for s in setups if not any(m > 1.0 for m, _ in s.travelled.values())]
        assert not still, f"--moving: the simulated robot did not move: {still}"
    for setup in setups:
        if args.moving:  # brought to rest, until the devices report where the physics left them
            run_paced(setup.cases(pair), 50, [(0.0, 0.0, 0.0)])
            differences = functools.partial(floor_differences, setup, pair)
            settle(setup.config, differences, setup.cases(pair), speeds)
        check_floor(setup, pair)
        check_healthy(setup)
    print_table(
        [("hot", hot), ("alone", alone), ("paced", paced)], rounds, paced_rounds, args.moving
    )
    print_signal_counts(setups)
    print(collections.line())
    for line in travel:
        print(line)
    for setup in setups:
        if setup.floor.bad_refreshes:
            print(
                f"warning: {setup.config}: {setup.floor.bad_refreshes} floor refreshes were not OK "
                "(CTRE sim frames went stale: the machine was overloaded; error printing slows "
                "both loops)"
            )

    if not (args.no_memory or args.moving):
        print(f"\nMemory over {memory_loops} library loops at HIGH (after 2000 warm-up loops):")
        print("(tracemalloc sees Python allocations; RSS also native ones, and is page-grained)")
        for setup in setups:
            memory_growth(setup, memory_loops, speeds)
    return phoenix5_apart(args, argv)


def phoenix5_apart(args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    """With ``--phoenix5``: the same run for the phoenix5 configuration, in a process of its own.

    Every library drive has devices of its own (:func:`own_devices`), and with that many phoenix6
    and phoenix5 devices in one process CTRE's simulator crashed (a segmentation fault, at a random
    place, within a minute); either family alone runs fine."""
    if not args.phoenix5 or args.only:
        return 0
    rest = [a for a in (sys.argv[1:] if argv is None else argv) if a != "--phoenix5"]
    print("\n=== phoenix5, in a process of its own ===", flush=True)
    command = [sys.executable, str(Path(__file__).resolve()), *rest, "--only", "talonsrx_pigeon"]
    return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
