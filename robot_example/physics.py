"""Simulation physics for the example robot (used by `robotpy sim` and `robotpy test`).

The robot is simulated by swervelib's SwerveSim from a *hardware truth* kept apart from the
configuration: by default the robot that deploy/swerve describes correctly. Put a
`sim_hardware.json` next to this file (see `swervelib.sim.HardwareTruth`) to simulate a robot
built differently from its configuration — a reversed motor, swapped CAN ids — and watch the
spec's symptoms appear.

Hand actions for calibration (turn a module, roll a wheel, rotate the robot), and a tilt, arrive over
NetworkTables through `swervelib.sim.hands.SimHands`, so `python -m swervelib calibrate` can be
practised against this simulated robot with a program playing the person (`HandsClient`).

With `SWERVELIB_DEMO=1` in the environment and no Driver Station attached (headless
`robotpy sim --nogui`), the robot enables itself in autonomous after one second so the demo drives.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import wpilib
from wpilib.simulation import DriverStationSim

from swervelib.sim import HardwareTruth, SwerveSim
from swervelib.sim.hands import SimHands

AUTO_ENABLE_AFTER_S = 1.0


def truth_file() -> Path:
    """``sim_hardware.json`` beside robot.py (pyfrc loads this module without ``__file__``)."""
    return Path(wpilib.getOperatingDirectory()) / "sim_hardware.json"


class PhysicsEngine:
    def __init__(self, physics_controller: Any, robot: Any) -> None:
        path = truth_file()
        truth = HardwareTruth.load(path) if path.exists() else None
        self.sim = SwerveSim(robot.swerve, truth)
        self.hands = SimHands(self.sim)
        self.demo = os.environ.get("SWERVELIB_DEMO") == "1"
        self.physics_controller = physics_controller
        self.robot = robot
        self.elapsed = 0.0
        self.auto_enabled = False
        robot.physics = self

    def update_sim(self, now: float, tm_diff: float) -> None:
        self.hands.poll()
        self.sim.step(tm_diff)
        # pyfrc's Field2d at /SmartDashboard/Field (the drive's own shows the estimate and, for a
        # simulated robot, its "True Pose" beside it)
        self.physics_controller.field.setRobotPose(self.robot.swerve.get_pose())
        self.elapsed += tm_diff
        if (
            self.demo
            and not self.auto_enabled
            and self.elapsed > AUTO_ENABLE_AFTER_S
            and not wpilib.DriverStation.isDSAttached()
        ):
            self.auto_enabled = True
            DriverStationSim.setAutonomous(True)
            DriverStationSim.setEnabled(True)
            DriverStationSim.notifyNewData()
