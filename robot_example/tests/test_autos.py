"""Each autonomous routine ends where it ends, in the simulated physics (tyres, mass, battery),
on the blue and on the red alliance; and the test-mode controller runs SysId."""

from __future__ import annotations

import math
from typing import Any

import choreo
import hal
import ntcore
import pytest
from autos import CHOREO, PATHPLANNER
from pathplannerlib.path import PathPlannerPath
from pathplannerlib.util import FlippingUtil
from wpilib.simulation import DriverStationSim, XboxControllerSim, stepTiming
from wpimath.geometry import Pose2d, Translation2d

LOOP = 0.02
TOLERANCE_M = 0.05
TOLERANCE_DEG = 2.0


def run(robot: Any, seconds: float) -> None:
    """Step robot loops one at a time; after each, wait until CTRE's status signals (sent on the
    wall clock) carry the state just simulated, however loaded the machine is."""
    for _ in range(round(seconds / LOOP)):
        DriverStationSim.notifyNewData()
        stepTiming(LOOP)
        assert robot.physics.sim.wait_for_readings(), "a simulated CTRE device stopped answering"


def end_pose(auto: str, red: bool) -> Pose2d:
    """Where the routine ends, as its file says (flipped for red as each library flips it)."""
    if auto == PATHPLANNER:
        path = PathPlannerPath.fromPathFile("Curve")
        end = Pose2d(path.getPoint(path.numPoints() - 1).position, path.getGoalEndState().rotation)
        return FlippingUtil.flipFieldPose(end) if red else end
    final = choreo.load_swerve_trajectory("Arc").get_final_pose(red)
    assert final is not None
    return final


def start(robot: Any, mode: str, *, red: bool = False) -> None:
    station = hal.AllianceStationID.kRed1 if red else hal.AllianceStationID.kBlue1
    DriverStationSim.setAllianceStationId(station)
    DriverStationSim.setDsAttached(True)
    DriverStationSim.setAutonomous(mode == "auto")
    DriverStationSim.setTest(mode == "test")
    DriverStationSim.setEnabled(True)


@pytest.mark.parametrize("red", [False, True], ids=["blue", "red"])
@pytest.mark.parametrize("auto", [PATHPLANNER, CHOREO])
def test_each_auto_ends_at_its_end_pose(control: Any, robot: Any, auto: str, red: bool) -> None:
    with control.run_robot():
        table = ntcore.NetworkTableInstance.getDefault().getTable("SmartDashboard/Autonomous")
        table.putString("selected", auto)  # as a dashboard picks it
        run(robot, 0.1)
        start(robot, "auto", red=red)
        run(robot, 0.1)
        command = robot.auto
        assert command is not None and command.getName() in (
            auto.split()[0],
            f"Choreo {auto.split()[0]}",
        )
        for _ in range(500):  # ten seconds at most
            if not command.isScheduled():
                break
            run(robot, LOOP)
        assert not command.isScheduled(), "the routine did not finish"
        run(robot, 0.3)  # stopped: nothing moves on
        truth = robot.physics.sim.true_pose
        wanted = end_pose(auto, red)
        distance = truth.translation().distance(wanted.translation())
        heading = abs((truth.rotation() - wanted.rotation()).degrees())
        print(
            f"\n[{auto}, {'red' if red else 'blue'}] ends {distance * 100:.1f} cm / {heading:.2f} deg"
        )
        assert distance < TOLERANCE_M and heading < TOLERANCE_DEG, (truth, wanted)
        odometry = robot.swerve.get_pose()
        assert odometry.translation().distance(truth.translation()) < TOLERANCE_M
        DriverStationSim.setEnabled(False)
        run(robot, 0.2)


def hold_a(
    robot: Any, mode: str, seconds: float, *, rotation: bool = False
) -> tuple[list[float], Translation2d, float]:
    """Hold A (with ``rotation``, and the right bumper) on the characterisation controller
    (port 1) in ``mode``: each drive motor's measured volts at the end, how far the simulated
    robot moved and how far it turned (degrees, counter-clockwise positive)."""
    tester = XboxControllerSim(1)
    start(robot, mode)
    run(robot, 0.2)
    sim = robot.physics.sim
    before, yaw = sim.true_pose.translation(), sim.true_yaw_deg
    tester.setRightBumperButton(rotation)
    tester.setAButton(True)
    run(robot, seconds)
    volts = [m.drive_motor.get_applied_volts() for m in robot.swerve.modules]
    moved, turned = sim.true_pose.translation() - before, sim.true_yaw_deg - yaw
    tester.setAButton(False)
    tester.setRightBumperButton(False)
    run(robot, 0.2)
    return volts, moved, turned


def test_the_test_mode_controller_runs_the_drive_sysid_routine(control: Any, robot: Any) -> None:
    with control.run_robot():
        volts, moved, turned = hold_a(robot, "test", 1.5)  # quasistatic forward: 1 V/s
        assert all(1.0 < v < 3.0 for v in volts), volts  # measured, not asked
        assert moved.X() > 0.1 and abs(moved.Y()) < 0.05, moved  # straight ahead
        assert abs(turned) < 2.0, turned
        assert all(abs(m.drive_motor.get_applied_volts()) < 0.1 for m in robot.swerve.modules)
        DriverStationSim.setEnabled(False)
        run(robot, 0.2)


def test_the_right_bumper_runs_the_rotation_sysid_routine(control: Any, robot: Any) -> None:
    """Right bumper and A in test mode: the rotation routine's quasistatic forward test spins
    the robot counter-clockwise in place."""
    with control.run_robot():
        volts, moved, turned = hold_a(robot, "test", 1.5, rotation=True)
        assert all(1.0 < v < 3.0 for v in volts), volts
        assert turned > 30.0, turned  # counter-clockwise
        assert moved.norm() < 0.02, moved  # in place
        DriverStationSim.setEnabled(False)
        run(robot, 0.2)


def test_sysid_buttons_do_nothing_outside_test_mode(control: Any, robot: Any) -> None:
    with control.run_robot():
        volts, moved, _ = hold_a(robot, "teleop", 1.0)
        assert all(abs(v) < 0.1 for v in volts), volts
        assert moved.norm() < 0.01, moved
        DriverStationSim.setEnabled(False)
        run(robot, 0.2)


def test_the_chooser_offers_every_routine(control: Any, robot: Any) -> None:
    with control.run_robot():
        run(robot, 0.1)
        table = ntcore.NetworkTableInstance.getDefault().getTable("SmartDashboard/Autonomous")
        options = set(table.getStringArray("options", []))
        assert options == {PATHPLANNER, CHOREO, "Nothing"}
        assert table.getString("default", "") == PATHPLANNER
        assert math.isfinite(robot.swerve.get_pose().X())


def test_the_driver_drives_in_heading_mode_and_in_rate_mode(control: Any, robot: Any) -> None:
    with control.run_robot():
        pad = XboxControllerSim(0)
        start(robot, "teleop")
        run(robot, 0.2)
        pad.setRightX(-1.0)  # heading stick to the left: face +90°
        run(robot, 2.0)
        truth = robot.physics.sim.true_pose
        assert abs(truth.rotation().degrees() - 90.0) < 3.0, truth
        pad.setRightX(0.0)
        pad.setRightBumperButton(True)  # rate mode: the right stick turns
        run(robot, 0.2)
        assert abs(robot.physics.sim.true_pose.rotation().degrees() - 90.0) < 3.0  # no jump
        pad.setRightX(1.0)  # stick right: turn clockwise
        run(robot, 0.3)
        assert robot.physics.sim.true_pose.rotation().degrees() < 60.0
        pad.setRightX(0.0)
        run(robot, 0.5)  # released: the turn stops, and the new heading is held
        before = robot.physics.sim.true_pose
        pad.setLeftY(-1.0)  # full forward, field-relative
        run(robot, 1.0)
        after = robot.physics.sim.true_pose
        moved = after.translation() - before.translation()
        assert abs((after.rotation() - before.rotation()).degrees()) < 3.0  # heading held
        assert moved.X() > 1.0 and abs(moved.Y()) < 0.2, moved
        pad.setLeftY(0.0)
        pad.setRightBumperButton(False)
        pad.setXButton(True)  # lock: the wheels form an X
        run(robot, 0.5)
        angles = [abs(m.get_angle().degrees()) % 90.0 for m in robot.swerve.modules]
        assert all(abs(a - 45.0) < 5.0 for a in angles), angles
        pad.setXButton(False)
        DriverStationSim.setEnabled(False)
        run(robot, 0.2)


def test_a_red_driver_drives_away_from_the_red_wall_and_zeroes_facing_it(
    control: Any, robot: Any
) -> None:
    """The field's frame is blue's (the autos' paths are flipped for red): on red, the sticks
    are turned half a turn, and A makes the robot face away from the red driver (π)."""
    with control.run_robot():
        pad = XboxControllerSim(0)
        start(robot, "teleop", red=True)
        run(robot, 0.5)
        before = robot.physics.sim.true_pose
        pad.setLeftY(-1.0)  # full forward: away from the red driver, towards the blue wall (-x)
        run(robot, 1.0)
        pad.setLeftY(0.0)
        run(robot, 0.5)
        # at rest before the heading is zeroed (0.5 s after the stick it still rolls at about
        # 0.2 m/s: a pose reset no longer stops the simulated robot, as it never stops a real one)
        for _ in range(100):
            if robot.physics.sim.true_speeds.vx > -0.005:
                break
            run(robot, LOOP)
        assert abs(robot.physics.sim.true_speeds.vx) < 0.005, robot.physics.sim.true_speeds
        after = robot.physics.sim.true_pose
        moved = after.translation() - before.translation()
        assert moved.X() < -1.0 and abs(moved.Y()) < 0.2, moved
        assert abs((after.rotation() - before.rotation()).degrees()) < 3.0  # heading held
        place = robot.swerve.get_pose().translation()
        pad.setAButton(True)  # zero heading: the robot now faces away from the red driver
        run(robot, 0.1)
        pad.setAButton(False)
        run(robot, 0.5)
        odometry = robot.swerve.get_pose()
        assert abs(abs(odometry.rotation().degrees()) - 180.0) < 1.0, odometry
        assert odometry.translation().distance(place) < 0.01  # the position kept
        # (the simulation places the robot where a pose reset says it is)
        truth = robot.physics.sim.true_pose
        assert abs((truth.rotation() - odometry.rotation()).degrees()) < 3.0, truth
        pad.setLeftY(-1.0)  # forward again: still away from the red driver, the heading held
        run(robot, 1.0)
        pad.setLeftY(0.0)
        run(robot, 0.5)
        moved = robot.physics.sim.true_pose.translation() - truth.translation()
        assert moved.X() < -1.0 and abs(moved.Y()) < 0.2, moved
        turned = robot.physics.sim.true_pose.rotation() - truth.rotation()
        assert abs(turned.degrees()) < 3.0, turned
        DriverStationSim.setEnabled(False)
        run(robot, 0.2)
