"""Odometry against the simulated truth, with and without phoenix6 latency compensation.

A phoenix6 device sends its readings in frames (every 10 ms here); when the robot loop reads them,
the newest frame is up to a frame period old, and a wheel at 3 m/s has moved up to 3 cm since.
swervelib extrapolates each drive position by its velocity over the frame's age
(``SwerveDrive.set_latency_compensation``, on by default for phoenix6 drive motors).

That can only be measured where the simulated robot moves between frames as a real one does: here
the physics runs in its own thread in real time (1 ms steps), the robot loop runs every 20 ms of
real time, and each loop compares odometry with the truth at the moment the loop read its
sensors. (In a stepped simulation the robot stands still between steps, so a frame is never stale:
the drive turns the compensation off while simulated time is paused.)

Usage::

    python benchmarks/latency.py              # 3 x (off, on), 4 s each, deploy/kraken_cancoder_pigeon2
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
os.chdir(tempfile.mkdtemp(prefix="swervelib-latency-"))  # phoenix6's ctre_sim/ stays out

import wpilib  # noqa: E402
from wpilib.simulation import DriverStationSim  # noqa: E402
from wpimath.geometry import Pose2d, Rotation2d  # noqa: E402
from wpimath.kinematics import ChassisSpeeds  # noqa: E402

from swervelib import SwerveDrive  # noqa: E402
from swervelib.sim import SwerveSim  # noqa: E402

LOOP_S = 0.02
PHYSICS_S = 0.001
SPEED = 3.0  # m/s


class Physics(threading.Thread):
    """Steps the simulated robot by the real time elapsed, every millisecond."""

    def __init__(self, sim: SwerveSim) -> None:
        super().__init__(daemon=True)
        self.sim = sim
        self.running = True
        self.lock = threading.Lock()

    def run(self) -> None:
        last = time.perf_counter()
        while self.running:
            time.sleep(PHYSICS_S)
            now = time.perf_counter()
            with self.lock:
                self.sim.step(now - last)
            last = now


def run(drive: SwerveDrive, compensate: bool, seconds: float) -> list[float]:
    """Along-track odometry error (truth − odometry, metres) of each loop at full speed."""
    drive.set_latency_compensation(compensate)
    drive.stop()
    start = Pose2d(2.0, 4.0, Rotation2d())
    sim = SwerveSim(drive, initial_pose=start, traction=False)
    sim.wait_for_readings()
    physics = Physics(sim)
    physics.start()
    drive.periodic()
    drive.reset_pose(start)
    errors = []
    next_loop = time.perf_counter()
    loops = round(seconds / LOOP_S)
    try:
        for k in range(loops):
            next_loop += LOOP_S
            with physics.lock:
                truth = sim.true_pose  # where the robot is as the loop reads its sensors
                drive.periodic()
            if k > loops // 3:  # at full speed
                errors.append(truth.X() - drive.get_pose().X())
            drive.drive(ChassisSpeeds(SPEED, 0.0, 0.0), field_relative=True)
            pause = next_loop - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
    finally:
        physics.running = False
        physics.join()
        drive.stop()
    return errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="kraken_cancoder_pigeon2")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args(argv)
    DriverStationSim.setEnabled(True)
    DriverStationSim.notifyNewData()
    wpilib.DriverStation.silenceJoystickConnectionWarning(True)
    drive = SwerveDrive.from_directory(REPO / "deploy" / args.config, command_timeout=None)
    print(f"{args.config}: {SPEED} m/s straight, loop every {LOOP_S * 1000:.0f} ms of real time")
    print("along-track error truth - odometry, cm (mean, and mean of |error|), per run:")
    for compensate in (False, True) * args.runs:
        errors = run(drive, compensate, args.seconds)
        mean = statistics.mean(errors) * 100
        spread = statistics.mean(abs(e) for e in errors) * 100
        label = "compensated  " if compensate else "uncompensated"
        print(f"  {label}  mean {mean:+.2f} cm   |error| {spread:.2f} cm   ({len(errors)} loops)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
