"""The all-REV + navX loop at ``NONE`` with every per-loop check, written flat: a lower bound.

The issue-18 target for ``NONE`` is 1.1× the floor (``loop_cost.py``), hot and paced. The
library spends that margin on its checks and on the layers between the drive and the vendor
objects (modules, adapters, the yaw tracker, the diagnostics). This script times a third loop
beside the two: :class:`FlatCheckedLoop`, one function that does what the library's
``periodic()`` + ``drive(field_relative=True)`` do at ``NONE`` on this configuration (the same
readings and set-points, the same checks on the same schedule), with no layer at all: every
vendor object in a list, every state in a list, every check inline. That is about the least
Python those checks can take, so:

* if the flat loop misses 1.1×, the target cannot be met by any library that keeps the checks;
* if it meets 1.1× and the library does not, the difference is what the layers cost.

What the flat loop keeps, per loop: every reading's finiteness test and last-good fall-back; the
absolute encoder's wrap, fault flag and frozen-reading test, with the relative encoder's fall-back
(its branch is written but not taken on a healthy robot, as in the library); the navX's connection
test; the IMU's frozen-reading test against the wheels' turn; the time step's clamp; the command
time-out; the protective-stop and range guards on the request; optimisation, the anti-jitter hold,
cosine compensation, the feedforward, the set-points' range guards; the runaway and stall
observation. Every fourth loop one device's fault check, in turn as the library's (per module the
drive Spark, the angle Spark and the absolute encoder, whose check reads its Spark's sticky and
active faults and last error too, then the navX); every fifth loop the heading check,
and two loops later the module judgements (their arithmetic, not their Alerts' texts, which only
a change writes). It publishes nothing, as the library at ``NONE``.

With ``--phoenix5`` (Talon SRX + Pigeon IMU) the middle loop is not a flat loop but
:class:`Phoenix5CheckCalls`: the floor plus only the native calls the library's checks need.

Usage::

    python benchmarks/flat_loop.py                 # hot and paced, three loops taking turns
    python benchmarks/flat_loop.py --phoenix5      # phoenix5: the floor plus the checks' calls
    python benchmarks/flat_loop.py --mode paced --paced-rounds 3000
"""

from __future__ import annotations

import argparse
import math
from array import array
from collections.abc import Sequence
from typing import Any

import loop_cost  # first: it loads the vendor libraries and leaves the repository's directory
import rev
import wpilib
from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModulePosition

from swervelib.devices.faults import FaultAlert
from swervelib.devices.guard import MAX_POSITION  # a set_angle beyond this is refused
from swervelib.drive.swerve_drive import SwerveDrive
from swervelib.drive.telemetry import TelemetryVerbosity
from swervelib.drive.wheel_math import discretize

CONFIG = "vortex_throughbore_navx"
_POSITION = rev.SparkLowLevel.ControlType.kPosition
_VELOCITY = rev.SparkLowLevel.ControlType.kVelocity
_VOLTAGE = rev.SparkLowLevel.ControlType.kVoltage
_SLOT0 = rev.ClosedLoopSlot.kSlot0
_FF_VOLTS = rev.SparkClosedLoopController.ArbFFUnits.kVoltage
_OK = rev.REVLibError.kOk
_from_degrees = Rotation2d.fromDegrees
_cos, _atan2, _hypot = math.cos, math.atan2, math.hypot
_is_enabled = wpilib.DriverStation.isEnabled
_fpga_us = wpilib.RobotController.getFPGATime

STALE_TURN_DEG = 1.0  # the module's frozen-reading threshold (swervelib.drive.module)
IMU_STALE_TURN_DEG = 0.25  # the yaw tracker's
RADIANS_PER_DEGREE = math.pi / 180.0
DEGREES_PER_RADIAN = 180.0 / math.pi


class FlatCheckedLoop:
    """One flat function per loop, with the library's per-loop checks (module docstring)."""

    def __init__(self, drive: SwerveDrive) -> None:
        modules: Sequence[Any] = drive.modules
        assert len(modules) == 4
        self.drive_enc = [m.drive_motor.spark.getEncoder() for m in modules]
        self.steer_enc = [m.angle_motor.spark.getEncoder() for m in modules]
        self.abs_enc = [m.angle_motor.spark.getAbsoluteEncoder() for m in modules]
        self.drive_pid = [m.drive_motor.spark.getClosedLoopController() for m in modules]
        self.steer_pid = [m.angle_motor.spark.getClosedLoopController() for m in modules]
        # The fault checks in turn, as the library's: per module the drive Spark, the angle Spark
        # and the absolute encoder (its Spark's faults again, which also say whether the encoder
        # can be used), then the navX. (Spark or None for the navX, its module, and whether it
        # is the encoder's check.)
        self.checks: list[tuple[Any, int, bool]] = [
            check
            for i, m in enumerate(modules)
            for check in (
                (m.drive_motor.spark, i, False),
                (m.angle_motor.spark, i, False),
                (m.angle_motor.spark, i, True),
            )
        ] + [(None, -1, False)]
        imu: Any = drive.imu
        self.ahrs: Any = imu._device
        self.spark_fault = [False] * 4
        self.problems: list[dict[str, str]] = [{} for _ in modules]
        self.offset = [m.config.absolute_encoder_offset_deg for m in modules]
        self.hold_mps = [m._hold_below_mps for m in modules]
        self.top = [m.free_speed_mps for m in modules]
        self.kv = [m.feedforward.kv for m in modules]
        self.ks = [m.feedforward.ks for m in modules]
        self.cosine = [m.use_cosine_compensator for m in modules]
        self.on_absolute = [m.steers_on_absolute for m in modules]
        self.max_speed_units = [m.drive_motor._max_speed for m in modules]
        self.max_volts = [m.drive_motor._max_volts for m in modules]
        self.points = list(drive._wheels._points)
        self.wheels = drive._wheels
        self.alerts = [
            (
                FaultAlert(f"flat {n}", wpilib.Alert.AlertType.kError),
                FaultAlert(f"flat {n} sticky", wpilib.Alert.AlertType.kWarning),
            )
            for n in range(len(self.checks))
        ]
        self.max_speed = drive.max_speed
        self.speed_headroom = drive._speed_headroom
        self.omega_headroom = drive._omega_headroom
        self.loop_period = drive.loop_period
        self.command_timeout = drive.command_timeout
        # state, as the library keeps it
        self.drive_m = [m.raw_drive_m for m in modules]
        self.drive_mps = [0.0] * 4
        self.raw_steer = [m.raw_angle_deg for m in modules]
        self.raw_abs = [m.raw_absolute_deg for m in modules]
        self.angle = [m.angle_deg for m in modules]
        self.setpoint = [m.angle_deg for m in modules]
        self.speed_setpoint = [0.0] * 4
        self.last_turn = [0.0] * 4
        self.stale = [0] * 4
        self.read_issue = [False] * 4
        self.relative_to_module = [0.0] * 4
        self.commanded = [False] * 4
        self.away = [0.0] * 4
        self.stuck = [0.0] * 4
        self.angle_timer = [0.0] * 4
        self.stall_timer = [0.0] * 4
        self.observed = 0.0
        self.imu_timer = 0.0
        self.last_heading_yaw: float | None = None
        self.raw_yaw = -self.ahrs.getAngle()
        self.yaw = self.raw_yaw
        self.imu_ok = True
        self.imu_problem: str | None = None
        self.yaw_offset = 0.0  # added to the raw yaw after an outage (the library's offset_deg)
        self.distances = list(self.drive_m)
        self.estimator = drive.estimator.__class__(
            drive.kinematics,
            _from_degrees(self.yaw),
            tuple(
                SwerveModulePosition(d, _from_degrees(a))
                for d, a in zip(self.drive_m, self.angle, strict=True)
            ),
            drive.get_pose(),
        )
        self.pose = drive.get_pose()
        self.last_time = _fpga_us() * 1e-6
        self.command_time = self.last_time
        self.commanded_drive = False
        self.loop_count = 0
        self.next_check = 0
        self.last_heading_check = self.last_time
        self.faults_seen = 0
        self.protective_stop = False
        self.runaway = 0

    def wheel_turn_deg(
        self, before: Sequence[float], distances: Sequence[float], angles_deg: Sequence[float]
    ) -> float:
        """Degrees the wheels say the robot turned since ``before`` (the library's own forward
        kinematics: only on a path a healthy robot at rest does not take)."""
        rolled = [new - old for new, old in zip(distances, before, strict=True)]
        return self.wheels.rotation(rolled, angles_deg) * DEGREES_PER_RADIAN

    def loop(self, vx_in: float, vy_in: float, omega_in: float) -> None:
        # -- periodic() --------------------------------------------------------------------------
        now = _fpga_us() * 1e-6
        previous = self.last_time
        dt = now - previous
        if not 0.0 <= dt <= 0.1:
            dt = 0.0 if dt < 0.0 else 0.1
        self.last_time = now
        drive_m, drive_mps, raw_steer, raw_abs = (
            self.drive_m,
            self.drive_mps,
            self.raw_steer,
            self.raw_abs,
        )
        angles, last_turn, stale, read_issue = (
            self.angle,
            self.last_turn,
            self.stale,
            self.read_issue,
        )
        offset, spark_fault = self.offset, self.spark_fault
        positions = []
        rolled = []  # for odometry: each wheel's roll half-way through its turn (as the library)
        for i in range(4):
            # a reading that is not finite is noted for the device's Alert (and its last good
            # value used); a good one clears the note
            problems = self.problems[i]
            drive_enc = self.drive_enc[i]
            value = drive_enc.getPosition()
            if value - value == 0.0:
                drive_m[i] = value
                if problems:
                    problems.pop("drive position", None)
            else:
                problems["drive position"] = f"drive position reads {value}"
            value = drive_enc.getVelocity()
            if value - value == 0.0:
                drive_mps[i] = value
                if problems:
                    problems.pop("drive velocity", None)
            else:
                problems["drive velocity"] = f"drive velocity reads {value}"
            steer = self.steer_enc[i].getPosition()
            if steer - steer == 0.0:
                if problems:
                    problems.pop("angle position", None)
            else:
                problems["angle position"] = f"angle position reads {steer}"
                steer = raw_steer[i]
            raw = self.abs_enc[i].getPosition()
            usable = raw - raw == 0.0 and not spark_fault[i]
            if usable:
                if problems:
                    problems.pop("absolute position", None)
                if not 0.0 <= raw < 360.0:
                    raw = raw % 360.0
            elif raw - raw != 0.0:
                problems["absolute position"] = f"absolute position reads {raw}"
            is_stale = False
            if (
                usable
                and raw == raw_abs[i]
                and (
                    stale[i]
                    or (turned := steer - raw_steer[i]) > STALE_TURN_DEG
                    or turned < -STALE_TURN_DEG
                )
            ):
                usable, is_stale = False, True
            before = angles[i]
            if usable:
                raw_abs[i] = raw
                angle = (raw - offset[i]) % 360.0
                if angle >= 360.0:
                    angle = 0.0
                if read_issue[i]:
                    read_issue[i] = False
                    stale[i] = 0
            else:  # the relative encoder carries on (not taken on a healthy robot)
                if not read_issue[i]:
                    self.relative_to_module[i] = (before - raw_steer[i] + 180.0) % 360.0 - 180.0
                    read_issue[i] = True
                stale[i] = stale[i] + 1 if is_stale else 0
                angle = (steer + self.relative_to_module[i]) % 360.0
            raw_steer[i] = steer
            angles[i] = angle
            last_turn[i] = turned_deg = (angle - before + 180.0) % 360.0 - 180.0
            position = SwerveModulePosition(drive_m[i], _from_degrees(angle))
            positions.append(position)
            rolled.append(
                position
                if turned_deg == 0.0 or not -90.0 < turned_deg < 90.0
                else SwerveModulePosition(drive_m[i], _from_degrees(angle - 0.5 * turned_deg))
            )
        # the IMU
        ahrs = self.ahrs
        usable = False
        if ahrs.isConnected():
            value = ahrs.getAngle()
            if value - value == 0.0:
                raw = -value
                usable = True
                self.imu_problem = None
            else:
                self.imu_problem = f"yaw reads {value}"
        turn = None
        distances = self.distances
        if usable and raw == self.raw_yaw:  # the same reading: did the wheels turn meanwhile?
            turn = 0.0 if drive_m == distances else self.wheel_turn_deg(distances, drive_m, angles)
            usable = abs(turn) <= IMU_STALE_TURN_DEG
        previous_yaw = self.yaw
        if usable:
            if not self.imu_ok:  # back (the library's rejoin: not taken on a healthy robot)
                self.imu_ok = True
            self.raw_yaw = raw
            self.yaw = raw + self.yaw_offset
        else:  # the wheels carry the yaw (not taken on a healthy robot)
            if turn is None:
                turn = self.wheel_turn_deg(distances, drive_m, angles)
            self.imu_ok = False
            self.yaw += turn
        self.distances = list(drive_m)
        yaw = self.yaw
        if dt > 0.0:
            self.yaw_rate = (yaw - previous_yaw) * RADIANS_PER_DEGREE / dt
        self.pose = pose = self.estimator.updateWithTime(now, _from_degrees(yaw), tuple(rolled))
        if self.commanded_drive:
            age = now - self.command_time
            if age > self.command_timeout:
                self.commanded_drive = False  # (the library stops the modules here)
        count = self.loop_count
        if count % 4 == 1:  # one device's fault check, in turn
            index = self.next_check
            self.next_check = index + 1 if index + 1 < len(self.checks) else 0
            alert, sticky_alert = self.alerts[index]
            spark, module, encoder = self.checks[index]
            if spark is not None:
                sticky = spark.hasStickyFault()
                faults = spark.getFaults()
                spark_problem = faults.rawBits != 0 or sticky or spark.getLastError() != _OK
                if encoder:
                    spark_fault[module] = spark_problem
                problem = None
                problems = self.problems[module]
                if problems or spark_problem:  # the readings' notes and the Spark's faults
                    parts = list(problems.values())
                    if spark_problem:  # (the library names them: not taken on a healthy robot)
                        parts.append("a fault")
                    problem = "; ".join(parts)
                alert.update(problem)
                sticky_alert.update(None)
            else:
                alert.update(self.imu_problem if ahrs.isConnected() else "not connected")
        # the runaway and stall observation
        if dt > 0.0:
            self.observed += dt
            away_turn = 20.0 * dt
            slow = 90.0 * dt
            setpoint, commanded = self.setpoint, self.commanded
            for i in range(4):
                if not commanded[i]:
                    continue
                error = (setpoint[i] - angles[i] + 180.0) % 360.0 - 180.0
                if -15.0 <= error <= 15.0:
                    continue
                turn = last_turn[i]
                if error * turn < 0.0 and (turn > away_turn or turn < -away_turn):
                    if error > 20.0 or error < -20.0:
                        self.away[i] += dt
                elif -slow < turn < slow and self.speed_setpoint[i] != 0.0:
                    self.stuck[i] += dt
        phase = count % 5
        if phase == 0:  # the heading check
            enabled = _is_enabled()
            check_dt = now - self.last_heading_check
            self.last_heading_check = now
            last, self.last_heading_yaw = self.last_heading_yaw, yaw
            if enabled and last is not None and check_dt > 0.0:
                imu_omega = (yaw - last) * RADIANS_PER_DEGREE / check_dt
                wheel_omega = self.wheels.rotation(drive_mps, angles)  # as the library's check
                opposite = (
                    abs(wheel_omega) > 0.6
                    and imu_omega * wheel_omega < 0
                    and abs(imu_omega) > 0.3 * abs(wheel_omega)
                )
                value = self.imu_timer + (check_dt if opposite else -0.5 * check_dt)
                self.imu_timer = 0.0 if value <= 0.0 else min(value, 1.0)
        elif phase == 2:  # the module judgements
            enabled = _is_enabled()
            observed, self.observed = self.observed, 0.0
            for i in range(4):
                away, stuck = self.away[i], self.stuck[i]
                self.away[i] = self.stuck[i] = 0.0
                if not enabled or observed <= 0.0:
                    continue
                value = self.angle_timer[i] + away - 0.5 * (observed - away)
                self.angle_timer[i] = 0.0 if value <= 0.0 else min(value, 0.8)
                value = self.stall_timer[i] + stuck - (observed - stuck)
                self.stall_timer[i] = 0.0 if value <= 0.0 else min(value, 1.6)
        self.loop_count = count + 1

        # -- drive(field_relative=True) ----------------------------------------------------------
        speeds = ChassisSpeeds(vx_in, vy_in, omega_in)
        if self.protective_stop and self.runaway:
            return
        vx, vy, omega = speeds.vx, speeds.vy, speeds.omega
        limit, spin_limit = self.speed_headroom, self.omega_headroom
        if not (
            -limit <= vx <= limit and -limit <= vy <= limit and -spin_limit <= omega <= spin_limit
        ):
            if not (math.isfinite(vx) and math.isfinite(vy) and math.isfinite(omega)):
                return
            scale = min(limit / max(abs(vx), abs(vy), 1e-300), spin_limit / max(abs(omega), 1e-300))
            vx, vy, omega = vx * scale, vy * scale, omega * scale
        heading = pose.rotation()
        cos, sin = heading.cos(), heading.sin()
        vx, vy = vx * cos + vy * sin, vy * cos - vx * sin
        vx, vy, omega = discretize(vx, vy, omega, self.loop_period)
        top_speed = self.max_speed
        wanted = []
        fastest = 0.0
        for x, y in self.points:
            mx = vx - omega * y
            my = vy + omega * x
            speed = _hypot(mx, my)
            if speed > fastest:
                fastest = speed
            wanted.append((speed, _atan2(my, mx) * DEGREES_PER_RADIAN if speed > 1e-6 else None))
        scale = top_speed / fastest if fastest > top_speed else 1.0
        setpoint, speed_setpoint, commanded = self.setpoint, self.speed_setpoint, self.commanded
        for i in range(4):
            speed, target_deg = wanted[i]
            speed *= scale
            if target_deg is None:
                target_deg = setpoint[i]
            turn = (target_deg - angles[i] + 180.0) % 360.0 - 180.0
            if turn > 90.0 or turn < -90.0:
                speed = -speed
                target_deg += 180.0
            target_deg = target_deg % 360.0
            if target_deg >= 360.0:
                target_deg = 0.0
            target = target_deg if abs(speed) >= self.hold_mps[i] else setpoint[i]
            error = (target - angles[i] + 180.0) % 360.0 - 180.0
            top = self.top[i]
            if not (-top <= speed <= top and error - error == 0.0):
                if not (math.isfinite(speed) and math.isfinite(error)):
                    continue
                speed = top if speed > top else -top
            if self.cosine[i]:
                factor = _cos(error * RADIANS_PER_DEGREE)
                speed *= factor if factor > 0.0 else 0.0
            speed_setpoint[i] = speed
            setpoint[i] = target
            commanded[i] = True
            steer = (target + offset[i]) % 360.0 if self.on_absolute[i] else raw_steer[i] + error
            ff_volts = self.kv[i] * speed
            if speed != 0.0:
                ff_volts += self.ks[i] if speed > 0.0 else -self.ks[i]
            try:
                if -MAX_POSITION <= steer <= MAX_POSITION:
                    self.steer_pid[i].setSetpoint(steer % 360.0, _POSITION)
                else:
                    self.steer_pid[i].setSetpoint(0.0, _VOLTAGE)
                units, volts = self.max_speed_units[i], self.max_volts[i]
                if -units <= speed <= units and -volts <= ff_volts <= volts:
                    self.drive_pid[i].setSetpoint(speed, _VELOCITY, _SLOT0, ff_volts, _FF_VOLTS)
                else:
                    self.drive_pid[i].setSetpoint(0.0, _VOLTAGE)
            except Exception:
                self.faults_seen += 1
        self.commanded_drive = True
        self.command_time = now


class Phoenix5CheckCalls(loop_cost.TalonSrxPigeonFloor):
    """phoenix5 (``--phoenix5``): the floor, plus the native calls the library's checks need that
    the floor does not make, and no Python check at all: per module the steering Talon's error
    code once more (the library checks its position's frame and the encoder pulse's frame, the
    floor only the last) and the pulse's period (0: no encoder). Less than any loop with those
    checks costs, so a bound from below (phoenix5 is not written flat here)."""

    def read(self) -> None:
        super().read()
        for i in range(4):
            if self.steer_talons[i].getLastError().value:
                self.bad_refreshes += 1
            if self.sensors[i].getPulseWidthRiseToRiseUs() == 0:
                self.bad_refreshes += 1


def faithfulness(library: SwerveDrive, flat_drive: SwerveDrive, flat: FlatCheckedLoop) -> None:
    """Print whether the flat loop read what the library reads, on the flat loop's devices, and
    commanded what the library commanded, handed the same requests in the same rounds."""
    modules = flat_drive.modules
    for module in modules:  # the library's own reading of the flat loop's devices, now
        module.update()
    differences = [
        f"{m.name}: angle {m.angle_deg} against {a}"
        for m, a in zip(modules, flat.angle, strict=True)
        if abs((m.angle_deg - a + 180.0) % 360.0 - 180.0) > 1e-6
    ]
    print(f"the flat loop read what the library reads: {differences or 'yes'}")
    commanded = [
        f"{m.name}: ({m.speed_setpoint_mps}, {m.angle_setpoint_deg}) against ({v}, {a})"
        for m, v, a in zip(library.modules, flat.speed_setpoint, flat.setpoint, strict=True)
        if abs(m.speed_setpoint_mps - v) > 1e-9
        or abs((m.angle_setpoint_deg - a + 180.0) % 360.0 - 180.0) > 1e-6
    ]
    print(f"the flat loop commanded what the library commanded: {commanded or 'yes'}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="both", choices=("hot", "paced", "both"))
    parser.add_argument("--rounds", type=int, default=10000)
    parser.add_argument("--paced-rounds", type=int, default=1500)
    parser.add_argument(
        "--phoenix5",
        action="store_true",
        help="Talon SRX + Pigeon IMU instead: the floor plus the native calls the library's "
        "checks need (Phoenix5CheckCalls) in place of the flat loop",
    )
    args = parser.parse_args(argv)
    config = "talonsrx_pigeon" if args.phoenix5 else CONFIG
    loop_cost.enable_driver_station()
    setup = loop_cost.build(config)
    library = setup.drives[TelemetryVerbosity.NONE]
    # On devices of its own (the POSE drive's, never run here): on the floor's, each would find
    # the other's vendor data warm, paced.
    own = setup.drives[TelemetryVerbosity.POSE]
    flat = None if args.phoenix5 else FlatCheckedLoop(own)
    middle = (
        loop_cost.Case(config, "floor + calls", Phoenix5CheckCalls(own).loop, array("q"))
        if flat is None
        else loop_cost.Case(config, "flat, checked", flat.loop, array("q"))
    )
    cases = [
        loop_cost.Case(config, "library NONE", loop_cost.library_loop(library), array("q")),
        middle,
        loop_cost.Case(config, "floor", setup.floor.loop, array("q")),
    ]
    speeds = loop_cost.speed_sequence(10000)
    loop_cost.settle(config, lambda: loop_cost.health_problems(setup), cases, speeds)
    loop_cost.check_healthy(setup)
    runs = {"hot": [], "paced": []}
    if args.mode in ("hot", "both"):
        for case in cases:
            del case.times_ns[:]
        loop_cost.run_interleaved(cases, args.rounds, speeds)
        runs["hot"] = [loop_cost.Stats.of(c.times_ns) for c in cases]
    if args.mode in ("paced", "both"):
        for case in cases:
            del case.times_ns[:]
        loop_cost.run_paced(cases, args.paced_rounds, speeds)
        runs["paced"] = [loop_cost.Stats.of(c.times_ns) for c in cases]
    if flat is not None:
        faithfulness(library, own, flat)
    print(f"{'mode':6} {'loop':16} {'median µs':>10} {'p10':>7} {'p90':>7} {'/floor':>7}")
    for mode, stats in runs.items():
        if not stats:
            continue
        floor = stats[-1].median_us
        for case, s in zip(cases, stats, strict=True):
            print(
                f"{mode:6} {case.label:16} {s.median_us:10.1f} {s.p10_us:7.1f} {s.p90_us:7.1f} "
                f"{s.median_us / floor:7.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
