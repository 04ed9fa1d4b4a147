"""A PathPlanner path, started with ``reset_pose`` away from the origin, ends where the path ends
in the simulated truth (tyres, mass and all), not only in odometry: one world frame."""

from __future__ import annotations

import math

from pathplannerlib.config import ModuleConfig, PIDConstants, RobotConfig
from pathplannerlib.controller import PPHolonomicDriveController
from pathplannerlib.path import GoalEndState, PathConstraints, PathPlannerPath
from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds
from wpimath.system.plant import DCMotor

from swervelib import SwerveDrive
from tests.drive.harness import LOOP, simulated

START = Pose2d(2.0, 4.0, Rotation2d.fromDegrees(0.0))
END = Pose2d(5.0, 5.5, Rotation2d.fromDegrees(90.0))


def robot_config(drive: SwerveDrive) -> RobotConfig:
    """PathPlanner's description of the robot, from its configuration (module order kept)."""
    config = drive.config
    physical = config.physical_or_default
    module = config.modules[0]
    wheel_radius = (module.conversion.wheel_diameter_m or 0.1016) / 2
    gearing = module.conversion.drive_gear_ratio or 6.75
    return RobotConfig(
        physical.robot_mass_kg,
        6.0,
        ModuleConfig(
            wheel_radius,
            drive.max_speed,
            physical.wheel_grip_coefficient_of_friction,
            DCMotor.neoVortex(1).withReduction(gearing),  # PathPlanner wants the wheel's motor
            physical.current_limit.drive,
            1,
        ),
        [m.location for m in drive.modules],
    )


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
