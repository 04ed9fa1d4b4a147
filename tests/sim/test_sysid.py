"""SysId routines (swervelib.sysid) run by the commands2 scheduler write the DataLog entries the
SysId tool reads: per module, the measured applied volts, position, velocity and current, and the
test state; the drive routine holds every wheel forward, and the angle routine, which leaves the
modules with no angle set-point, raises no misconfiguration alarm."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import commands2
import pytest
import wpilib
from commands2.sysid import SysIdRoutine
from wpimath.kinematics import ChassisSpeeds
from wpiutil.log import DataLogReader

from swervelib import SwerveDrive
from swervelib.angles import wrap_180
from swervelib.sysid import angle_routine, drive_routine
from tests.drive.harness import Harness, simulated
from tests.sim import alert_texts
from tests.waits import until


def read_log(directory: Path) -> dict[str, list[float]]:
    """Every double and string entry of the DataLog files in ``directory``, by name."""
    values: dict[str, list[float]] = defaultdict(list)
    names: dict[int, tuple[str, str]] = {}
    for path in directory.glob("*.wpilog"):
        for record in DataLogReader(str(path)):
            if record.isStart():
                start = record.getStartData()
                names[start.entry] = (start.name, start.type)
            elif not record.isControl() and record.getEntry() in names:
                name, kind = names[record.getEntry()]
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
