"""SysId routines (swervelib.sysid) run by the commands2 scheduler write the DataLog entries the
SysId tool reads: per module, the measured applied volts, position, velocity and current, and the
test state; the drive routine holds every wheel forward, and the angle routine, which leaves the
modules with no angle set-point, raises no misconfiguration alarm. The rotation routine holds every
wheel tangential and spins the robot in place, logging its continuous yaw and yaw rate."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import commands2
import numpy
import pytest
import wpilib
from commands2.sysid import SysIdRoutine
from wpimath.geometry import Pose2d, Rotation2d
from wpimath.kinematics import ChassisSpeeds
from wpiutil.log import DataLogReader

from swervelib import SwerveDrive
from swervelib.angles import wrap_180
from swervelib.sysid import (
    ALIGNED_DEG,
    angle_routine,
    drive_routine,
    heading_gains,
    rotation_routine,
    tangent_deg,
)
from tests.drive.harness import LOOP, Harness, simulated
from tests.sim import alert_texts
from tests.sim import scheduled as scheduled_loops
from tests.waits import until


def log_records(directory: Path) -> Iterator[tuple[str, str, Any]]:
    """Each data record of the DataLog files in ``directory``: its entry's name and type, and
    the record."""
    names: dict[int, tuple[str, str]] = {}
    for path in directory.glob("*.wpilog"):
        for record in DataLogReader(str(path)):
            if record.isStart():
                start = record.getStartData()
                names[start.entry] = (start.name, start.type)
            elif not record.isControl() and record.getEntry() in names:
                yield (*names[record.getEntry()], record)


def read_log(directory: Path) -> dict[str, list[float]]:
    """Every double and string entry of the DataLog files in ``directory``, by name."""
    values: dict[str, list[float]] = defaultdict(list)
    for name, kind, record in log_records(directory):
        if kind == "double":
            values[name].append(record.getDouble())
        elif kind == "string":
            values[name].append(float(len(record.getString())))
    return values


def test_drive_and_angle_routines_log_what_sysid_needs(tmp_path: Path) -> None:
    wpilib.DataLogManager.start(str(tmp_path))
    scheduler = commands2.CommandScheduler.getInstance()
    subsystem = commands2.Subsystem()
    try:
        with simulated() as h:
            drive = h.drive
            config = SysIdRoutine.Config(stepVoltage=4.0)
            run = lambda d: scheduler.run()  # noqa: E731 - the robot loop's scheduler call
            for routine in (
                drive_routine(drive, subsystem, config),
                angle_routine(drive, subsystem),
            ):
                for test in (
                    routine.quasistatic(SysIdRoutine.Direction.kForward),
                    routine.dynamic(SysIdRoutine.Direction.kReverse),
                ):
                    scheduler.schedule(test)
                    h.run(0.6, run)
                    scheduler.cancel(test)
                    h.run(0.3, lambda d: d.stop())
        wpilib.DataLogManager.getLog().flush()  # written by a background thread: wait for it
        assert until(lambda: "voltage-angle-backright-swerve-angle" in read_log(tmp_path))
    finally:
        scheduler.unregisterAllSubsystems()
        wpilib.DataLogManager.stop()
    log = read_log(tmp_path)
    # SysId's names: <quantity>-<motor>-<mechanism>
    for module in ("frontleft", "frontright", "backleft", "backright"):
        for kind in ("drive", "angle"):
            for quantity in ("voltage", "current"):
                assert log[f"{quantity}-{kind}-{module}-swerve-{kind}"], (quantity, kind, module)
        volts = log[f"voltage-drive-{module}-swerve-drive"]
        # measured: the quasistatic ramp forward (1 V/s for 0.6 s), the dynamic step back (4 V)
        assert 0.4 < max(volts) < 1.0 and min(volts) < -3.5
        assert max(map(abs, log[f"velocity-drive-{module}-swerve-drive"])) > 0.2
        assert log[f"position-drive-{module}-swerve-drive"]
        assert log[f"velocity-angle-{module}-swerve-angle"]  # in rotations per second
    assert log["sysid-test-state-swerve-drive"] and log["sysid-test-state-swerve-angle"]


@contextmanager
def scheduled(test: commands2.Command) -> Iterator[None]:
    """``test`` scheduled; cancelled (the button let go) and the scheduler's subsystems forgotten
    afterwards."""
    scheduler = commands2.CommandScheduler.getInstance()
    scheduler.schedule(test)
    try:
        yield
    finally:
        scheduler.cancel(test)
        scheduler.unregisterAllSubsystems()


def scheduler_run(_: SwerveDrive) -> None:
    """The robot loop's scheduler call (the harness runs the drive's periodic() before it)."""
    commands2.CommandScheduler.getInstance().run()


def forward(drive: SwerveDrive) -> None:
    drive.drive(ChassisSpeeds(1.0, 0.0, 0.0))


def circle(clock: list[float]) -> Callable[[SwerveDrive], None]:
    def command(drive: SwerveDrive) -> None:
        clock[0] += 0.02
        drive.drive(ChassisSpeeds(0.5 * math.cos(clock[0]), 0.5 * math.sin(clock[0]), 0.0))

    return command


def sweep(h: Harness, end_deg: int, omega: float = 0.0) -> None:
    """Teleop before test mode: the stick swept round from forward to ``end_deg`` (0.5 m/s), a
    moment of that direction while turning at ``omega``, then stopped (the wheels stay put)."""
    for degrees in range(0, end_deg + 1, 15):
        a = math.radians(degrees)
        speeds = ChassisSpeeds(0.5 * math.cos(a), 0.5 * math.sin(a), 0.0)
        h.run(0.1, lambda d, speeds=speeds: d.drive(speeds))
    a = math.radians(end_deg)
    speeds = ChassisSpeeds(0.5 * math.cos(a), 0.5 * math.sin(a), omega)
    h.run(0.3, lambda d: d.drive(speeds))
    h.run(0.3, lambda d: d.stop())


@pytest.mark.parametrize(
    ("end_deg", "omega"),
    [(90, 1.5), (150, 0.0)],
    ids=["mixed-angles", "all-backwards"],
)
def test_drive_routine_points_every_wheel_forward_whatever_its_angle_before(
    end_deg: int, omega: float
) -> None:
    """Strafing left while turning leaves some wheels more than 90° from forward, a curve to the
    back left all of them: the forward step still drives every wheel, and the robot, forward."""
    with simulated() as h:
        sweep(h, end_deg, omega)
        before = {name: a.degrees() for name, a in h.sim.true_module_angles.items()}
        assert any(abs(wrap_180(a)) > 100.0 for a in before.values()), before
        start = h.sim.true_pose.X()
        test = drive_routine(h.drive, commands2.Subsystem()).dynamic(
            SysIdRoutine.Direction.kForward
        )
        with scheduled(test):
            h.run(1.0, scheduler_run)  # 1 s of the 7 V step
            angles = {name: a.degrees() for name, a in h.sim.true_module_angles.items()}
            speeds = {m.name: m.drive_velocity_mps for m in h.drive.modules}
        moved = h.sim.true_pose.X() - start
    assert all(abs(wrap_180(a)) < 2.0 for a in angles.values()), (before, angles)
    assert all(v > 2.0 for v in speeds.values()), speeds  # every wheel rolls forward
    assert moved > 1.0, moved


def test_angle_routine_raises_no_misconfiguration_alarm_on_a_healthy_robot() -> None:
    """The drive's last command (teleop, then test mode) left a 0° set-point that the spinning
    modules run away from half the time: it is not the routine's, so nothing judges it, and the
    drive is judged again, and drives, from its next command."""
    flagged: set[str] = set()
    with simulated() as h:
        h.drive.diagnostics.protective_stop = True  # a runaway verdict would stop the drive
        h.run(0.5, forward)
        routine = angle_routine(h.drive, commands2.Subsystem())
        for direction in (SysIdRoutine.Direction.kForward, SysIdRoutine.Direction.kReverse):
            with scheduled(routine.dynamic(direction)):
                for _ in range(10):
                    h.run(0.2, scheduler_run)
                    flagged |= h.drive.diagnostics.runaway | h.drive.diagnostics.stalled
        alarms = [t for t in alert_texts() if "running away" in t or "cannot reach its" in t]
        h.drive.stop()
        h.run(0.5)  # the modules stop spinning
        start = h.sim.true_pose.X()
        h.run(1.5, forward)
        assert all(m.is_commanded for m in h.drive.modules)
        moved = h.sim.true_pose.X() - start
        flagged |= h.drive.diagnostics.runaway | h.drive.diagnostics.stalled
    assert not flagged and not alarms, alarms
    assert moved > 1.0, moved  # not stopped by the protective stop


def test_runaway_check_judges_again_after_the_angle_routine() -> None:
    """On a robot whose backright angle motor is reversed the routine's spin is not judged (it
    has no set-point of its own), and the next drive commands are: backright is named, the others
    not."""
    with simulated(truth=lambda t: t.with_corner("backright", angle_reversed=True)) as h:
        h.run(0.5, forward)  # teleop, then test mode: the last command's set-point is 0°
        assert h.drive.diagnostics.runaway == set()  # (not long enough to tell)
        routine = angle_routine(h.drive, commands2.Subsystem())
        during: set[str] = set()
        for direction in (SysIdRoutine.Direction.kForward, SysIdRoutine.Direction.kReverse):
            with scheduled(routine.dynamic(direction)):
                for _ in range(10):
                    h.run(0.2, scheduler_run)
                    during |= h.drive.diagnostics.runaway
        assert during == set()
        h.run(4.0, circle([0.0]))
        assert h.drive.diagnostics.runaway == {"backright"}


def test_drive_routine_gives_no_volts_to_a_wheel_still_turning_round() -> None:
    """After a curve to the back left every wheel faces backwards: during the first tenths of
    the 7 V step they turn round, and a drive motor given volts meanwhile would push the robot
    backwards and sideways. Each wheel gets its volts once it faces forward: the robot never
    moves backwards, barely sideways, and every wheel's test starts facing forward."""
    with simulated() as h:
        sweep(h, 150)
        start = h.sim.true_pose
        test = drive_routine(h.drive, commands2.Subsystem()).dynamic(
            SysIdRoutine.Direction.kForward
        )
        backwards = sideways = 0.0
        volts_off_forward: dict[str, float] = {}
        with scheduled(test):
            for _ in range(25):  # 0.5 s of the step, one loop at a time
                h.run(0.02, scheduler_run)
                offset = h.sim.true_pose.relativeTo(start).translation()
                backwards = max(backwards, -offset.X())
                sideways = max(sideways, abs(offset.Y()))
                for module in h.drive.modules:
                    true_deg = wrap_180(h.sim.true_module_angles[module.name].degrees())
                    volts = abs(module.drive_motor.get_applied_volts())
                    if abs(true_deg) > 20.0:
                        volts_off_forward[module.name] = max(
                            volts, volts_off_forward.get(module.name, 0.0)
                        )
        moved = h.sim.true_pose.relativeTo(start).X()
    assert all(v < 0.5 for v in volts_off_forward.values()), volts_off_forward
    # given volts at once: 1.4 cm backwards, 6.9 cm sideways; now 0.0 and 0.5 cm measured
    assert backwards < 0.01 and sideways < 0.03, (backwards, sideways)
    assert moved > 0.15, moved  # 0.26 m measured


# -- the rotation routine ------------------------------------------------------------------------
ROTATION = "swerve-rotation"
CORNERS = ("frontleft", "frontright", "backleft", "backright")
TESTS = {
    "quasistatic-forward": (SysIdRoutine.Direction.kForward, False),
    "quasistatic-reverse": (SysIdRoutine.Direction.kReverse, False),
    "dynamic-forward": (SysIdRoutine.Direction.kForward, True),
    "dynamic-reverse": (SysIdRoutine.Direction.kReverse, True),
}


def read_tests(directory: Path, mechanism: str) -> dict[str, dict[str, list[float]]]:
    """The double entries of ``mechanism`` in the DataLog files in ``directory``, split by the
    test being run when they were logged, as SysId splits them: {test state: {entry: values}}.
    In stepped simulated time a loop's records share one timestamp, the test state's among them
    (the routine logs it after the motor frames of the same loop)."""
    state_name = f"sysid-test-state-{mechanism}"
    states: dict[int, str] = {}
    samples: list[tuple[int, str, float]] = []
    for name, kind, record in log_records(directory):
        if name == state_name:
            states[record.getTimestamp()] = record.getString()
        elif kind == "double" and name.endswith(f"-{mechanism}"):
            samples.append((record.getTimestamp(), name, record.getDouble()))
    tests: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for time_us, name, value in sorted(samples, key=lambda sample: sample[0]):
        tests[states.get(time_us, "none")][name].append(value)
    return tests


def run_rotation_tests(h: Harness, routine: SysIdRoutine, seconds: float) -> dict[str, dict]:
    """Each of the routine's four tests for ``seconds``, one loop at a time (the robot's
    periodic(), then the scheduler, then time), the robot left to stop in between; per test the
    true yaw (degrees, unwrapped) at each loop's periodic(), and how far the robot's centre
    moved at most."""
    seen: dict[str, dict] = {}
    for name, (direction, dynamic) in TESTS.items():
        test = routine.dynamic(direction) if dynamic else routine.quasistatic(direction)
        start = h.sim.true_pose.translation()
        yaws: list[float] = []
        moved = 0.0
        with scheduled(test):
            for _ in range(round(seconds / LOOP)):
                yaws.append(h.sim.true_yaw_deg)  # what this loop's periodic() read
                h.run(LOOP, scheduler_run)
                moved = max(moved, h.sim.true_pose.translation().distance(start))
        seen[name] = {"yaws": yaws, "moved": moved}
        h.run(1.0, lambda d: d.stop())
    return seen


def test_rotation_routine_spins_the_robot_in_place_and_logs_its_continuous_yaw(
    tmp_path: Path,
) -> None:
    """Forward tests turn the robot counter-clockwise, backward ones clockwise, in place; the log
    has the drive motors' applied volts, the yaw in turns (continuous over more than a turn,
    through ±180°, as the robot really turned) and its rate in turns per second."""
    wpilib.DataLogManager.stop()  # a log started by an earlier test would keep its directory
    wpilib.DataLogManager.start(str(tmp_path))
    try:
        with simulated() as h:
            h.drive.reset_pose(Pose2d(1.0, 1.0, Rotation2d.fromDegrees(170.0)))  # near ±180°
            routine = rotation_routine(h.drive, commands2.Subsystem(), SysIdRoutine.Config())
            seen = run_rotation_tests(h, routine, 2.0)
        wpilib.DataLogManager.getLog().flush()  # written by a background thread: wait for it
        # every loop's records, not just the last test's first (a wait for that read 92 of the
        # dynamic-reverse test's 99 samples about one run in ten, its last ones not yet written)
        logging = {name: len(seen[name]["yaws"]) - 1 for name in TESTS}
        voltage = f"voltage-robot-{ROTATION}"
        assert until(
            lambda: all(
                len(read_tests(tmp_path, ROTATION)[name][voltage]) >= count
                for name, count in logging.items()
            )
        )
    finally:
        commands2.CommandScheduler.getInstance().unregisterAllSubsystems()
        wpilib.DataLogManager.stop()
    logged = read_tests(tmp_path, ROTATION)
    for name, (direction, dynamic) in TESTS.items():
        sign = 1.0 if direction == SysIdRoutine.Direction.kForward else -1.0
        # (a test's first loop only starts its timer: it logs from the second)
        yaws = seen[name]["yaws"][1:]
        entries = logged[name]
        volts = entries[f"voltage-robot-{ROTATION}"]
        turns = entries[f"position-robot-{ROTATION}"]
        rates = entries[f"velocity-robot-{ROTATION}"]
        assert len(volts) == len(turns) == len(rates) == len(yaws), name
        turned = yaws[-1] - yaws[0]
        # measured: 2 s of the 1 V/s ramp turned it 79°, 2 s of the 7 V step 695°
        assert sign * turned > (500.0 if dynamic else 60.0), (name, turned)
        assert seen[name]["moved"] < 0.01, (name, seen[name]["moved"])  # in place
        # volts: the ramp (1 V/s) or the 7 V step, in the test's direction
        top = 7.0 if dynamic else 2.0
        assert top - 0.3 < sign * max(volts, key=lambda v: sign * v) < top + 0.05, (name, volts)
        # the yaw in turns, as the robot turned (within 1e-7 turn measured)
        for index, value in enumerate(turns):
            truth = (yaws[index] - yaws[0]) / 360.0
            assert abs(value - turns[0] - truth) < 0.003, (name, index, value, truth)
        # continuous: no jump between two loops (7 V turns the robot 0.02 turn a loop)
        assert max(abs(b - a) for a, b in itertools.pairwise(turns)) < 0.03, name
        # the rate in turns/s: the yaw's change over each loop, and in the test's direction
        for index in range(1, len(turns)):
            change = (turns[index] - turns[index - 1]) / LOOP
            assert rates[index] == pytest.approx(change, abs=0.02), (name, index)
        assert min(sign * rate for rate in rates) > -0.01, (name, rates)
        assert max(sign * rate for rate in rates) > (1.0 if dynamic else 0.2), (name, rates)
    # the robot turned more than a turn within one test: the yaw crossed ±180° and did not wrap
    dynamic_turns = logged["dynamic-forward"][f"position-robot-{ROTATION}"]
    assert max(dynamic_turns) - min(dynamic_turns) > 1.5, dynamic_turns


def simple_fit(tests: dict[str, dict[str, list[float]]], motor: str) -> tuple[float, float, float]:
    """SysId's "Simple" feedforward fit of ``motor``'s logged tests: least squares of
    volts = kS·sign(v) + kV·v + kA·a, the acceleration from the logged velocity's change between
    two loops, leaving out the samples below 0.05 (units/s), as SysId's velocity threshold does."""
    rows: list[tuple[float, float, float]] = []
    volts: list[float] = []
    for name in TESTS:
        entries = tests[name]
        v = entries[f"velocity-{motor}"]
        for index in range(1, len(v)):
            if abs(v[index]) > 0.05:
                accel = (v[index] - v[index - 1]) / LOOP
                rows.append((math.copysign(1.0, v[index]), v[index], accel))
                volts.append(entries[f"voltage-{motor}"][index])
    (ks, kv, ka), *_ = numpy.linalg.lstsq(numpy.array(rows), numpy.array(volts), rcond=None)
    return float(ks), float(kv), float(ka)


def test_rotation_log_fits_as_the_drive_log_says_it_should(tmp_path: Path) -> None:
    """The rotation routine's log, fitted as SysId fits it (units: rotations), agrees with the
    drive routine's: turning the robot at one turn a second rolls each wheel 2π·r metres a second,
    so the rotation's kV is the drive's kV times 2π·r (r: the wheels' distance from the centre).
    A log in other units, or of wheels pushing at another angle, would not."""
    wpilib.DataLogManager.stop()  # a log started by an earlier test would keep its directory
    wpilib.DataLogManager.start(str(tmp_path))
    try:
        with simulated() as h:
            radius = h.drive.modules[0].location.norm()
            assert all(m.location.norm() == pytest.approx(radius) for m in h.drive.modules)
            subsystem = commands2.Subsystem()
            for routine in (
                drive_routine(h.drive, subsystem),
                rotation_routine(h.drive, subsystem),
            ):
                for direction, dynamic in TESTS.values():
                    test = routine.dynamic(direction) if dynamic else routine.quasistatic(direction)
                    with scheduled(test):
                        h.run(1.0 if dynamic else 3.0, scheduler_run)
                    h.run(1.0, lambda d: d.stop())
        wpilib.DataLogManager.getLog().flush()  # written by a background thread: wait for it
        assert until(lambda: "dynamic-reverse" in read_tests(tmp_path, ROTATION))
    finally:
        commands2.CommandScheduler.getInstance().unregisterAllSubsystems()
        wpilib.DataLogManager.stop()
    drive_tests = read_tests(tmp_path, "swerve-drive")
    drive_kv = [simple_fit(drive_tests, f"drive-{m}-swerve-drive")[1] for m in CORNERS]
    ks, kv, ka = simple_fit(read_tests(tmp_path, ROTATION), f"robot-{ROTATION}")
    expected = sum(drive_kv) / len(drive_kv) * math.tau * radius
    # measured: kV 6.20 V per turn/s against 6.28 expected (2.23 V per m/s from the drive log)
    assert kv == pytest.approx(expected, rel=0.03), (ks, kv, ka, drive_kv)
    assert ks > 0.0 and ka > 0.0, (ks, ka)


def wheels_off_tangent(h: Harness) -> dict[str, float]:
    """How far (degrees, signed) each real wheel faces from its tangent."""
    return {
        m.name: wrap_180(h.sim.true_module_angles[m.name].degrees() - tangent_deg(m))
        for m in h.drive.modules
    }


@pytest.mark.parametrize(
    ("end_deg", "omega"),
    [(0, 0.0), (90, 0.0), (150, 0.0)],
    ids=["forward", "left", "backwards"],
)
def test_rotation_routine_turns_each_wheel_tangential_before_driving_it(
    end_deg: int, omega: float
) -> None:
    """Wheels left pointing anywhere (forward, left, back left: two of them more than 90° from
    their tangent each time, where the shortest turn would reverse them) turn to their tangent, never the reverse of it, with 0 V on
    their drive motor until they face it: then every wheel drives the robot counter-clockwise
    and the robot turns in place from the start."""
    with simulated() as h:
        sweep(h, end_deg, omega)
        before = wheels_off_tangent(h)
        assert max(abs(a) for a in before.values()) > 90.0, before
        start = h.sim.true_pose
        start_yaw = h.sim.true_yaw_deg
        test = rotation_routine(h.drive, commands2.Subsystem()).dynamic(
            SysIdRoutine.Direction.kForward
        )
        volts_off_tangent: dict[str, float] = {}
        moved = clockwise = 0.0
        with scheduled(test):
            for _ in range(50):  # 1 s of the 7 V step, one loop at a time
                h.run(LOOP, scheduler_run)
                moved = max(moved, h.sim.true_pose.translation().distance(start.translation()))
                clockwise = max(clockwise, start_yaw - h.sim.true_yaw_deg)
                for name, off in wheels_off_tangent(h).items():
                    module = next(m for m in h.drive.modules if m.name == name)
                    volts = abs(module.drive_motor.get_applied_volts())
                    if abs(off) > 2.0 * ALIGNED_DEG:
                        volts_off_tangent[name] = max(volts, volts_off_tangent.get(name, 0.0))
            after = wheels_off_tangent(h)
            speeds = {m.name: m.drive_velocity_mps for m in h.drive.modules}
        turned = h.sim.true_yaw_deg - start_yaw
    assert all(v < 0.5 for v in volts_off_tangent.values()), volts_off_tangent
    assert all(abs(a) < 2.0 for a in after.values()), (before, after)  # tangent, not reversed
    assert all(v > 2.0 for v in speeds.values()), speeds  # every wheel rolls forward
    assert turned > 180.0 and clockwise < 0.5, (turned, clockwise)
    assert moved < 0.02, moved


def test_rotation_routine_raises_no_misconfiguration_alarm_on_a_healthy_robot() -> None:
    """The modules hold the routine's tangential set-points (the last drive command's, forward,
    is not judged): the runaway, stall and IMU checks find nothing while the robot spins, the
    protective stop does not stop it, and the drive drives from its next command."""
    flagged: set[str] = set()
    with simulated() as h:
        h.drive.diagnostics.protective_stop = True  # a runaway verdict would stop the drive
        h.run(0.5, forward)
        routine = rotation_routine(h.drive, commands2.Subsystem())
        turned: dict[str, float] = {}
        for name, (direction, dynamic) in TESTS.items():
            test = routine.dynamic(direction) if dynamic else routine.quasistatic(direction)
            start_yaw = h.sim.true_yaw_deg
            with scheduled(test):
                for _ in range(10):
                    h.run(0.2, scheduler_run)
                    flagged |= h.drive.diagnostics.runaway | h.drive.diagnostics.stalled
                    assert not h.drive.diagnostics.imu_disagrees, name
            h.run(0.5, lambda d: d.stop())
            turned[name] = h.sim.true_yaw_deg - start_yaw
        alarms = [t for t in alert_texts() if "running away" in t or "cannot reach its" in t]
        alarms += [t for t in alert_texts() if "no drive command" in t]  # (fed: never expired)
        start = h.sim.true_pose.X()
        h.run(1.5, forward)
        moved = h.sim.true_pose.X() - start
        flagged |= h.drive.diagnostics.runaway | h.drive.diagnostics.stalled
    assert not flagged and not alarms, (flagged, alarms)
    # the tests did spin it, each its way (2 s: the ramps 80°, the steps 700°)
    assert turned["quasistatic-forward"] > 30.0 and turned["dynamic-forward"] > 300.0, turned
    assert turned["quasistatic-reverse"] < -30.0 and turned["dynamic-reverse"] < -300.0, turned
    assert moved > 1.0, moved


def test_subsystem_sysid_rotation_is_made_once_and_spins_the_robot() -> None:
    """``SwerveSubsystem.sysid_rotation()`` gives the same routine every time; its tests require
    the subsystem, and, run by the scheduler after the subsystem's periodic(), spin the robot
    counter-clockwise forward and clockwise backward."""
    with simulated() as h, scheduled_loops.subsystem_for(h) as subsystem:
        routine = subsystem.sysid_rotation()
        assert subsystem.sysid_rotation() is routine
        assert routine is not subsystem.sysid_drive() and routine is not subsystem.sysid_angle()
        turned: list[float] = []
        for test in subsystem.sysid_commands(routine)[2:]:  # the dynamic tests
            assert subsystem in test.getRequirements()
            start_yaw = h.sim.true_yaw_deg
            commands2.CommandScheduler.getInstance().schedule(test)
            scheduled_loops.run(h, 1.0)
            commands2.CommandScheduler.getInstance().cancel(test)
            turned.append(h.sim.true_yaw_deg - start_yaw)
            scheduled_loops.run(h, 1.0)  # (stopped: the routine ends with 0 V)
    assert turned[0] > 180.0 and turned[1] < -180.0, turned


class _Motor:
    def __init__(self, volts: float) -> None:
        self.volts = volts

    def get_applied_volts(self) -> float:
        return self.volts


def test_rotation_volts_are_the_mean_of_the_drive_motors_that_report_a_number() -> None:
    from types import SimpleNamespace

    from swervelib.sysid import _mean_applied_volts

    modules = [SimpleNamespace(drive_motor=_Motor(v)) for v in (6.0, math.nan, 7.0, 8.0)]
    assert _mean_applied_volts(modules) == pytest.approx(7.0)  # type: ignore[arg-type]
    silent = [SimpleNamespace(drive_motor=_Motor(math.nan)) for _ in range(4)]
    assert _mean_applied_volts(silent) == 0.0  # type: ignore[arg-type]


def test_heading_gains_turn_sysid_volts_into_the_heading_controller_s_units() -> None:
    """SysId's kP of 6 V per turn with kV 2 V per turn/s, on a robot turning at most 10 rad/s:
    a heading error of 1 rad (1/2π turn) asks 6/2π V, which the drive applies for a turn rate of
    (6/2π)/2 turns/s = 3 rad/s = 0.3 of the maximum: p = 0.3 per radian (and d = 0.4/20)."""
    p, d = heading_gains(6.0, 0.4, 2.0, 10.0)
    assert p == pytest.approx(0.3) and d == pytest.approx(0.02)
    # the unit of angle cancels: the same result from the analysis in radians
    assert heading_gains(6.0 / math.tau, 0.4 / math.tau, 2.0 / math.tau, 10.0) == pytest.approx(
        (p, d)
    )
    for bad in ((1.0, 0.0, 0.0, 10.0), (1.0, 0.0, 2.0, -1.0), (math.nan, 0.0, 2.0, 10.0)):
        with pytest.raises(ValueError):
            heading_gains(*bad)


@pytest.mark.parametrize(
    "args",
    [(1e300, 0.0, 1e-300, 1.0), (1.0, 1e308, 1e-10, 1e-10), (1e308, 0.0, 0.5, 0.5)],
    ids=["p", "d", "both-small"],
)
def test_heading_gains_that_overflow_are_refused(args: tuple[float, float, float, float]) -> None:
    """Finite SysId figures whose quotient overflows (a kV of 1e-300: a fit gone wrong) are
    refused: an infinite p would turn the robot at full speed with no heading error
    (inf × 0 is NaN, which the output clamp reads as +1)."""
    with pytest.raises(ValueError, match="not finite"):
        heading_gains(*args)


def heading_step(h: Harness, command: Callable[[SwerveDrive], None]) -> list[float]:
    """The robot's true yaw (degrees from the start) over 2 s of ``command``, loop by loop."""
    start = h.sim.true_yaw_deg
    trace: list[float] = []
    for _ in range(100):
        h.run(LOOP, command)
        trace.append(h.sim.true_yaw_deg - start)
    return trace


@pytest.mark.parametrize(("kp", "kd"), [(40.0, 2.0), (80.0, 3.0)])
def test_heading_gains_turn_the_robot_as_sysid_s_controller_would(kp: float, kd: float) -> None:
    """A 90° turn: SysId's controller (kP volts per turn of error, kD volts per turn/s, given to
    the drive motors through the rotation routine) against ``drive_facing`` with the heading
    gains ``heading_gains`` makes of them (kV: the rotation log's fit, 6.2 V per turn/s). The
    heading controller turns the robot as fast or a little faster, overshooting no more."""
    kv = 6.2  # V per turn/s: test_rotation_log_fits_as_the_drive_log_says_it_should's fit
    with simulated() as h:
        volts_mode = rotation_routine(h.drive, commands2.Subsystem()).mechanism.drive
        origin = h.drive.yaw.yaw_deg  # (the IMU's yaw is not zeroed with the pose)

        def sysid_controller(drive: SwerveDrive) -> None:
            error = (90.0 - (drive.yaw.yaw_deg - origin)) / 360.0  # turns
            volts = kp * error - kd * drive.yaw_rate / math.tau
            volts_mode(max(-12.0, min(12.0, volts)))

        reference = heading_step(h, sysid_controller)
    with simulated() as h:
        controller = h.drive.heading_controller
        gains = (controller.getP(), controller.getI(), controller.getD())
        p, d = heading_gains(kp, kd, kv, h.drive.max_angular_velocity)
        controller.setPID(p, 0.0, d)
        try:
            converted = heading_step(
                h, lambda drive: drive.drive_facing(0.0, 0.0, Rotation2d.fromDegrees(90.0))
            )
        finally:
            controller.setPID(*gains)

    def settle_s(trace: list[float]) -> float:  # to within 5 % of the turn
        return next(i for i, yaw in enumerate(trace) if yaw > 85.5) * LOOP

    # measured: (40, 2) 0.62 s against 0.68 s, overshoot none (89.1° at most) against 0.2°;
    #           (80, 3) 0.48 s against 0.58 s, overshoot 5.2° against 7.1°
    assert settle_s(reference) * 0.75 <= settle_s(converted) <= settle_s(reference) * 1.05
    assert max(converted) <= max(reference) + 1.0, (max(converted), max(reference))
    assert abs(converted[-1] - 90.0) < 2.0, converted[-1]


class _ControllerError(RuntimeError):
    """What a vendor call raises on a CAN error (a closed or unplugged controller)."""


@pytest.mark.parametrize("routine_of", [rotation_routine, drive_routine, angle_routine])
def test_a_motor_controller_that_raises_does_not_stop_the_robot_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, routine_of: Callable[..., SysIdRoutine]
) -> None:
    """One module's drive and angle controllers raise on every output and reading (a vendor error):
    the routine's test, run by the scheduler in the robot loop, goes on (the drive reports the
    module's fault on its Alert, as for any drive command) and the other modules still move the
    robot. Before, the exception left the scheduler's run()."""
    wpilib.DataLogManager.stop()
    wpilib.DataLogManager.start(str(tmp_path))
    try:
        with simulated() as h:
            broken = h.drive.modules[0]

            def fail(*_: object) -> float:
                raise _ControllerError("CAN frame not received")

            for motor in (broken.drive_motor, broken.angle_motor):
                for name in ("set_voltage", "get_applied_volts", "get_current_amps"):
                    monkeypatch.setattr(motor, name, fail)
            start_yaw, start = h.sim.true_yaw_deg, h.sim.true_pose.translation()
            test = routine_of(h.drive, commands2.Subsystem()).dynamic(
                SysIdRoutine.Direction.kForward
            )
            spun = [0.0] * (len(h.drive.modules) - 1)
            with scheduled(test):
                for _ in range(25):  # 0.5 s of the 7 V step
                    h.run(LOOP, scheduler_run)
                    for index, module in enumerate(h.drive.modules[1:]):
                        spun[index] += abs(module.last_turn_deg)
            turned = h.sim.true_yaw_deg - start_yaw
            moved = h.sim.true_pose.translation().distance(start)
            texts = alert_texts()
            monkeypatch.undo()
            h.run(0.5, lambda d: d.stop())
    finally:
        commands2.CommandScheduler.getInstance().unregisterAllSubsystems()
        wpilib.DataLogManager.stop()
    assert any("drive command raised _ControllerError" in t for t in texts), texts
    if routine_of is rotation_routine:
        assert turned > 20.0, turned  # measured 36°
    elif routine_of is drive_routine:
        assert moved > 0.2, moved  # measured 0.37 m
    else:
        assert min(spun) > 90.0, spun  # measured 358° each
