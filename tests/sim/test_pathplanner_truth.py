"""PathPlanner on a swervelib drive, judged in the simulated truth (tyres, mass and all): a path
started with ``reset_pose`` away from the origin ends where the path ends (one world frame); a fast
path tracks better with PathPlanner's feedforwards; ``AutoBuilder`` configured by
``swervelib.pathplanner`` follows a path on the blue and on the red alliance."""

from __future__ import annotations

import math
from typing import Any

import pytest
from pathplannerlib.config import PIDConstants
from pathplannerlib.controller import PPHolonomicDriveController
from pathplannerlib.path import GoalEndState, PathConstraints, PathPlannerPath
from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from swervelib.pathplanner import configure_auto_builder, module_order_problem, robot_config
from tests.drive.harness import LOOP, simulated

START = Pose2d(2.0, 4.0, Rotation2d.fromDegrees(0.0))
END = Pose2d(5.0, 5.5, Rotation2d.fromDegrees(90.0))


def test_a_path_started_away_from_the_origin_ends_at_its_end_in_the_truth() -> None:
    path = PathPlannerPath(
        PathPlannerPath.waypointsFromPoses(
            [START, Pose2d(3.8, 4.2, Rotation2d()), Pose2d(5.0, 5.5, Rotation2d.fromDegrees(90.0))]
        ),
        PathConstraints(2.0, 2.0, math.radians(360.0), math.radians(540.0)),
        None,
        GoalEndState(0.0, END.rotation()),
    )
    with simulated() as h:
        drive = h.drive
        trajectory = path.generateTrajectory(ChassisSpeeds(), START.rotation(), robot_config(drive))
        controller = PPHolonomicDriveController(PIDConstants(5.0), PIDConstants(5.0))
        drive.reset_pose(trajectory.getInitialPose())  # the auto's first step
        assert h.sim.true_pose.translation().distance(START.translation()) < 1e-9
        elapsed = [0.0]

        def follow(d: SwerveDrive) -> None:
            target = trajectory.sample(elapsed[0])
            d.drive(controller.calculateRobotRelativeSpeeds(d.get_pose(), target))
            elapsed[0] += LOOP

        h.run(trajectory.getTotalTimeSeconds() + 0.5, follow)
        h.run(0.5, lambda d: d.stop())
        truth = h.sim.true_pose
        distance = truth.translation().distance(END.translation())
        heading = abs((truth.rotation() - END.rotation()).degrees())
        print(f"\n[pathplanner] truth ends {distance * 100:.1f} cm / {heading:.2f}° from the end")
        assert distance < 0.05 and heading < 2.0, truth
        assert truth.translation().distance(Translation2d()) > 5.0  # nowhere near the origin


def track(feedforwards: bool) -> tuple[float, float]:
    """Follow a fast S-curve (4 m/s, 4 m/s²) with or without PathPlanner's per-module
    feedforwards: the largest and the mean distance (m) between the truth and the path's target."""
    path = PathPlannerPath(
        PathPlannerPath.waypointsFromPoses(
            [
                Pose2d(1.0, 2.0, Rotation2d()),
                Pose2d(4.0, 3.5, Rotation2d.fromDegrees(45.0)),
                Pose2d(7.0, 4.0, Rotation2d()),
            ]
        ),
        PathConstraints(4.0, 4.0, math.radians(540.0), math.radians(720.0)),
        None,
        GoalEndState(0.0, Rotation2d.fromDegrees(30.0)),
    )
    with simulated() as h:
        drive = h.drive
        trajectory = path.generateTrajectory(ChassisSpeeds(), Rotation2d(), robot_config(drive))
        controller = PPHolonomicDriveController(PIDConstants(5.0), PIDConstants(5.0))
        drive.reset_pose(trajectory.getInitialPose())
        elapsed, errors = [0.0], []

        def follow(d: SwerveDrive) -> None:
            target = trajectory.sample(elapsed[0])
            errors.append(h.sim.true_pose.translation().distance(target.pose.translation()))
            speeds = controller.calculateRobotRelativeSpeeds(d.get_pose(), target)
            d.drive(speeds, feedforwards=target.feedforwards if feedforwards else None)
            elapsed[0] += LOOP

        h.run(trajectory.getTotalTimeSeconds(), follow)
    return max(errors), sum(errors) / len(errors)


def test_a_fast_path_tracks_better_with_feedforwards() -> None:
    with_worst, with_mean = track(True)
    without_worst, without_mean = track(False)
    print(
        f"\n[feedforwards] truth to target: worst {with_worst * 100:.1f} cm, mean "
        f"{with_mean * 100:.1f} cm with; {without_worst * 100:.1f} cm, "
        f"{without_mean * 100:.1f} cm without"
    )
    assert with_mean < 0.8 * without_mean and with_worst < without_worst


def test_robot_config_comes_from_the_swerve_json() -> None:
    with simulated() as h:
        drive = h.drive
        config = robot_config(drive)
        physical = drive.config.physical_or_default
        assert config.massKG == physical.robot_mass_kg
        assert config.moduleConfig.wheelCOF == physical.wheel_grip_coefficient_of_friction
        assert config.moduleConfig.driveCurrentLimit == physical.current_limit.drive
        assert config.moduleConfig.maxDriveVelocityMPS == drive.module_max_speed
        assert config.moduleLocations == [m.location for m in drive.modules]
        assert module_order_problem(drive) is None  # the reference robot lists FL, FR, BL, BR
        # a free-spinning wheel: the motor through the gearing reaches the module's free speed
        motor = config.moduleConfig.driveMotor
        wheel_speed = motor.freeSpeed * config.moduleConfig.wheelRadiusMeters
        assert wheel_speed == pytest.approx(drive.module_max_speed, rel=0.01)


# PathPlanner's AutoBuilder is one per process: the drive it was configured with, and its subsystem
_CONFIGURED: dict[str, Any] = {}


@pytest.mark.parametrize("alliance", ["blue", "red"])
def test_auto_builder_follows_a_path_on_either_alliance(alliance: str) -> None:
    """``configure_auto_builder`` then ``AutoBuilder.followPath``, run by the commands2 scheduler
    as a robot runs it: on red the path is flipped, and the truth ends at the flipped end."""
    import commands2
    from hal import AllianceStationID
    from pathplannerlib.auto import AutoBuilder
    from pathplannerlib.util import FlippingUtil
    from wpilib.simulation import DriverStationSim

    path = PathPlannerPath(
        PathPlannerPath.waypointsFromPoses([START, Pose2d(3.8, 4.2, Rotation2d()), END]),
        PathConstraints(2.0, 2.0, math.radians(360.0), math.radians(540.0)),
        None,
        GoalEndState(0.0, END.rotation()),
    )
    station = AllianceStationID.kRed1 if alliance == "red" else AllianceStationID.kBlue1
    DriverStationSim.setAllianceStationId(station)
    DriverStationSim.notifyNewData()
    try:
        with simulated() as h:
            if _CONFIGURED.get("drive") is not h.drive:
                # Configured once per drive: another test may have rebuilt the shared drive
                # (harness.forget_drive), and the old one's callbacks would drive the old object.
                # (Reconfiguring is deliberate here, so not PathPlanner's "already configured".)
                AutoBuilder._configured = False
                subsystem = commands2.Subsystem()
                configure_auto_builder(h.drive, subsystem)
                _CONFIGURED.update(drive=h.drive, subsystem=subsystem)
            flip = FlippingUtil.flipFieldPose if alliance == "red" else (lambda pose: pose)
            assert AutoBuilder.shouldFlip() is (alliance == "red")
            h.drive.reset_pose(flip(START))
            command = AutoBuilder.followPath(path)
            scheduler = commands2.CommandScheduler.getInstance()
            scheduler.schedule(command)
            h.run(6.0, lambda d: scheduler.run())
            assert not scheduler.isScheduled(command)  # finished
            truth, end = h.sim.true_pose, flip(END)
            distance = truth.translation().distance(end.translation())
            heading = abs((truth.rotation() - end.rotation()).degrees())
            print(f"\n[auto builder, {alliance}] {distance * 100:.1f} cm / {heading:.2f}° off")
            assert distance < 0.05 and heading < 2.0, (alliance, truth, end)
    finally:
        DriverStationSim.setAllianceStationId(AllianceStationID.kBlue1)
        DriverStationSim.notifyNewData()
