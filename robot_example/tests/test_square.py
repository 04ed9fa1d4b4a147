"""The autonomous square ends where it started, and odometry agrees with the simulated truth."""

from __future__ import annotations

from typing import Any

import wpilib
from wpilib.simulation import DriverStationSim, stepTiming

LOOP = 0.02


def run(robot: Any, seconds: float) -> None:
    """Step robot loops one at a time; after each, wait until CTRE's status signals (sent on the
    wall clock) carry the state just simulated, however loaded the machine is."""
    for _ in range(round(seconds / LOOP)):
        DriverStationSim.notifyNewData()
        stepTiming(LOOP)
        assert robot.physics.sim.wait_for_readings(), "a simulated CTRE device stopped answering"


def test_autonomous_square_returns_to_the_start(control: Any, robot: Any) -> None:
    with control.run_robot():
        DriverStationSim.setDsAttached(True)
        DriverStationSim.setAutonomous(True)
        DriverStationSim.setEnabled(True)
        run(robot, 12.0)
        assert wpilib.DriverStation.isAutonomousEnabled()
        true_pose = robot.physics.sim.true_pose
        pose = robot.swerve.get_pose()
        assert robot.corner == 4, "the square was not finished"
        assert true_pose.translation().norm() < 0.10, true_pose
        assert abs(true_pose.rotation().degrees()) < 3.0, true_pose
        assert pose.translation().distance(true_pose.translation()) < 0.05, (pose, true_pose)
        DriverStationSim.setEnabled(False)
        run(robot, 0.2)
