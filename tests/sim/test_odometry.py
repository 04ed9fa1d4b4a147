"""The pose estimate follows a robot that turns while it translates: each wheel's roll counts along
the direction it rolled in during the loop, not the one it ends the loop in (which put the estimate
4.7 cm to one side of the truth after 4.5 m at 1.5 m/s turning at 1.5 rad/s, with no slip)."""

from __future__ import annotations

import pytest
from wpimath.geometry import Pose2d, Rotation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModulePosition

from swervelib.drive.odometry import odometry_positions
from tests.drive.harness import simulated


def test_the_estimate_stays_on_the_truth_while_translating_and_turning() -> None:
    # traction=False: the robot goes exactly where its wheels roll, so any difference between
    # the estimate and the truth is the odometry's own
    with simulated(initial_pose=Pose2d(2.0, 2.0, Rotation2d()), traction=False) as h:
        h.run(3.0, lambda d: d.drive(ChassisSpeeds(1.5, 0.0, 1.5), field_relative=True))
        h.run(0.5)
        estimate, truth = h.drive.get_pose(), h.sim.true_pose
        travelled = truth.translation().distance(Pose2d(2.0, 2.0, Rotation2d()).translation())
        off = estimate.translation().distance(truth.translation())
        print(f"\n[odometry] {travelled:.2f} m while turning: estimate {off * 100:.2f} cm off")
        assert travelled > 4.0  # it did go somewhere (and turned: 4.5 rad)
        assert off < 0.01, (estimate, truth)
        assert abs((estimate.rotation() - truth.rotation()).degrees()) < 0.1


def test_a_module_rolls_half_way_through_its_turn_unless_its_angle_jumped() -> None:
    still = SwerveModulePosition(1.0, Rotation2d.fromDegrees(30.0))
    turned = SwerveModulePosition(2.0, Rotation2d.fromDegrees(30.0))
    jumped = SwerveModulePosition(3.0, Rotation2d.fromDegrees(30.0))
    out = odometry_positions(
        (still, turned, jumped), (1.0, 2.0, 3.0), (30.0, 30.0, 30.0), (0.0, 10.0, -170.0)
    )
    assert out[0] is still and out[2] is jumped  # no turn; a jump (re-seed, fall-back) is no roll
    assert out[1].distance == 2.0 and out[1].angle.degrees() == pytest.approx(25.0)
