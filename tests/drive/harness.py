"""Build a drive and its physics in simulation and step them like a robot loop."""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from wpilib.simulation import DriverStationSim, pauseTiming, resumeTiming, stepTiming
from wpimath.geometry import Pose2d
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from swervelib.config import load_directory
from swervelib.drive.diagnostics import DriveDiagnostics
from swervelib.drive.options import DriveOptions
from swervelib.sim import HardwareTruth, SwerveSim
from tests.conftest import DEPLOY
from tests.waits import PATIENCE_S

# All-REV + navX: every reading follows simulated time step for step, but a Spark's measured
# velocity is not repeatable from one run to the next. REV's simulator updates it every 16 ms of
# simulated time and draws a hall sensor's noise from a generator seeded by std::random_device
# (REVLib's NoiseGenerator, which Python cannot seed): given the same inputs, two runs reported
# 0.0187 and 0.0155 m/s at the same 2 ms step. The Sparks' velocity loops act on it, so a measured
# speed ends a few mm/s apart between runs (0.900-0.925 m/s, sd 0.005, after 0.5 s at 1 m/s):
# a test's margin on one must be wider than that.
REV_NAVX = DEPLOY / "vortex_throughbore_navx"
LOOP = 0.02


def polygon_config(
    target: Path, count: int, *, first_id: int, radius_in: float = 14.0, base: Path = REV_NAVX
) -> Path:
    """A copy of ``base`` with ``count`` modules evenly around a circle, CAN ids from ``first_id``."""
    shutil.copytree(base, target)
    template = json.loads((base / "modules" / "frontleft.json").read_text())
    for path in (target / "modules").glob("*.json"):
        if "properties" not in path.name:
            path.unlink()
    names = []
    for index in range(count):
        angle = math.radians(45 + 360 * index / count)
        module = json.loads(json.dumps(template))
        module["drive"]["id"] = first_id + 2 * index
        module["angle"]["id"] = first_id + 2 * index + 1
        module["absoluteEncoderOffset"] = (37.0 * index) % 360
        module["location"] = {
            "front": round(radius_in * math.cos(angle), 3),
            "left": round(radius_in * math.sin(angle), 3),
        }
        name = f"module{index}"
        (target / "modules" / f"{name}.json").write_text(json.dumps(module, indent=2))
        names.append(f"{name}.json")
    drive = json.loads((target / "swervedrive.json").read_text())
    drive["modules"] = names
    (target / "swervedrive.json").write_text(json.dumps(drive, indent=2))
    return target


class Harness:
    """A drive, its SwerveSim, and a stepped clock.

    phoenix6 devices publish their readings on the wall clock (about every 10 ms), not on the
    stepped simulated clock, so in a fast stepped loop their readings would be several loops old.
    When the drive has any, each loop waits after the physics step until every one of their
    status signals has received a new frame (``BaseStatusSignal.wait_for_all``): the readings the
    next ``periodic()`` sees are then the ones just simulated, as on a robot whose loop runs in
    real time. The wait is on the devices' own updates, not a wall-clock budget."""

    def __init__(self, drive: SwerveDrive, sim: SwerveSim) -> None:
        self.drive = drive
        self.sim = sim
        # True when the current loop's periodic() has run (run() ends on it): the next loop()
        # does not run it again, as a robot runs it once per loop.
        self._periodic_done = False

    def _settle(self) -> None:
        assert self.sim.wait_for_readings(PATIENCE_S), "phoenix6 signals did not update"

    def begin_loop(self) -> None:
        """A robot loop's periodic(), unless :meth:`observe` has already run this loop's."""
        if not self._periodic_done:
            self.drive.periodic()
        self._periodic_done = False

    def loop(self, command: Callable[[SwerveDrive], None] | None = None) -> None:
        """One robot loop: :meth:`begin_loop`, the command, then physics, then time."""
        self.begin_loop()
        if command is not None:
            command(self.drive)
        self.sim.step(LOOP)
        stepTiming(LOOP)
        self._settle()

    def observe(self) -> None:
        """The next loop's periodic(), run now so that what follows (assertions, or a command
        given by the test itself) sees this loop's readings; the next loop does not repeat it."""
        if not self._periodic_done:
            self.drive.periodic()
            self._periodic_done = True

    def run(self, seconds: float, command: Callable[[SwerveDrive], None] | None = None) -> None:
        """Robot loops for ``seconds`` (each: periodic(), the command, physics, time), then
        :meth:`observe`: periodic() runs once per loop, never twice between two time steps."""
        for _ in range(round(seconds / LOOP)):
            self.loop(command)
        self.observe()


_DRIVES: dict[Path, SwerveDrive] = {}


def shared_drive(directory: Path) -> SwerveDrive:
    """One drive per configuration directory for the whole test session.

    REVLib's simulator cannot simulate a second Spark object created with the same CAN id in one
    process, so tests reuse drives and give each test a fresh physical robot (a new SwerveSim).
    """
    drive = _DRIVES.get(directory)
    if drive is None:
        drive = SwerveDrive.from_directory(directory)
        _DRIVES[directory] = drive
    return drive


def forget_drive(directory: Path) -> None:
    """Drop the session's drive for ``directory``: the next :func:`shared_drive` builds it anew,
    which configures its (pooled) devices again after another drive configured them otherwise."""
    _DRIVES.pop(directory, None)


@contextmanager
def simulated(
    directory: Path = REV_NAVX,
    truth: HardwareTruth | Callable[[HardwareTruth], HardwareTruth] | None = None,
    *,
    enabled: bool = True,
    initial_pose: Pose2d | None = None,
    **sim_options: Any,
) -> Iterator[Harness]:
    """The drive for ``directory`` on a new physical robot ``truth`` (default: the matching one)."""
    pauseTiming()
    DriverStationSim.setEnabled(enabled)
    DriverStationSim.setAutonomous(False)
    DriverStationSim.notifyNewData()
    drive = shared_drive(directory)
    drive.stop()
    if callable(truth):
        truth = truth(HardwareTruth.matching(load_directory(directory)))
    start = initial_pose or Pose2d()
    sim = SwerveSim(drive, truth, initial_pose=start, **sim_options)
    harness = Harness(drive, sim)
    harness.run(0.1)  # let every sensor report the simulated robot before the test starts
    drive.reset_pose(start)
    try:
        yield harness
    finally:
        # A zero command, then stop: the command-expired Alert (process-wide) of this robot goes
        # with it, as the verdicts below do.
        drive.drive(ChassisSpeeds())
        drive.stop()
        # the drive is shared by the session's tests: the next one starts from the defaults
        drive.options = DriveOptions()
        drive.set_module_state_optimization(True)
        drive.set_anti_jitter(True)
        # The next test's robot is another one. The misconfiguration verdicts (a module running
        # away, the IMU against the wheels) are this robot's, and their Alerts are process-wide:
        # left active they would show up in the next test of any drive, so they go with it.
        drive.diagnostics = DriveDiagnostics(drive.modules)
        resumeTiming()


class ImuOutage:
    """Replaces the drive's IMU reading: it raises for the next ``loops`` reads (an IMU that is
    not answering), then reads ``jump`` degrees off what the IMU says (a rebooted IMU)."""

    def __init__(self, drive: SwerveDrive, monkeypatch: Any, loops: int = 0, jump: float = 0.0):
        self.read = drive.imu.get_raw_yaw_degrees
        self.loops = loops
        self.jump = jump
        monkeypatch.setattr(drive.imu, "get_raw_yaw_degrees", self)

    def __call__(self) -> float:
        if self.loops > 0:
            self.loops -= 1
            raise RuntimeError("IMU not answering")
        return self.read() + self.jump
