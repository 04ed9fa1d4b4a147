"""SysId routines (swervelib.sysid) run by the commands2 scheduler write the DataLog entries the
SysId tool reads: per module, the measured applied volts, position, velocity and current, and the
test state."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import commands2
import wpilib
from commands2.sysid import SysIdRoutine
from wpiutil.log import DataLogReader

from swervelib.sysid import angle_routine, drive_routine
from tests.drive.harness import simulated
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
