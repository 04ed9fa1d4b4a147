"""Vision in simulation (docs/simulation.md): PhotonVision's simulated camera, fed the true pose,
pulls a wrong pose estimate onto the truth through ``add_vision_measurement``, while the robot
drives; without the camera the estimate stays as wrong as it started."""

from __future__ import annotations

import math

import numpy as np
import pytest
from photonlibpy import PhotonCamera, PhotonPoseEstimator
from photonlibpy.simulation import PhotonCameraSim, SimCameraProperties, VisionSystemSim
from robotpy_apriltag import AprilTagField, AprilTagFieldLayout
from wpimath.geometry import Pose2d, Rotation2d, Rotation3d, Transform3d, Translation3d
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from tests.drive.harness import simulated

START = Pose2d(2.5, 4.18, Rotation2d.fromDegrees(180.0))  # 2.5 m in front of tag 32, facing it
WRONG = Pose2d(2.0, 4.6, Rotation2d.fromDegrees(188.0))
ROBOT_TO_CAMERA = Transform3d(Translation3d(0.3, 0.0, 0.3), Rotation3d())


def estimate_error(with_camera: bool, seed: int = 2026) -> tuple[float, float, int]:
    """Drive slowly away from the tags for 2 s with a wrong starting estimate; the estimate's
    distance and heading error from the truth, averaged over the last half second (each camera
    pose moves the estimate by its noise), and the camera poses used."""
    np.random.seed(seed)  # photonlibpy's simulated noise comes from numpy's global generator
    layout = AprilTagFieldLayout.loadField(AprilTagField.kDefaultField)
    camera = PhotonCamera("swervelib-test")
    vision = VisionSystemSim("swervelib-test")
    vision.addAprilTags(layout)
    properties = SimCameraProperties()
    properties.setCalibError(0.25, 0.08)
    vision.addCamera(PhotonCameraSim(camera, properties, layout), ROBOT_TO_CAMERA)
    estimator = PhotonPoseEstimator(layout, ROBOT_TO_CAMERA)
    used = 0
    errors: list[tuple[float, float]] = []
    with simulated(initial_pose=START, follow_pose_resets=False) as h:
        h.drive.reset_pose(WRONG)

        def loop(drive: SwerveDrive) -> None:
            nonlocal used
            vision.update(h.sim.true_pose)
            for result in camera.getAllUnreadResults():
                seen = estimator.estimateCoprocMultiTagPose(result)
                seen = seen or estimator.estimateLowestAmbiguityPose(result)
                if seen is not None and with_camera:
                    used += 1
                    drive.add_vision_measurement(
                        seen.estimatedPose.toPose2d(),
                        seen.timestampSeconds,
                        (0.1, 0.1, math.radians(5.0)),
                    )
            drive.drive(ChassisSpeeds(-0.5, 0.2, 0.0))  # robot-relative: backing away
            pose, truth = drive.get_pose(), h.sim.true_pose
            errors.append(
                (
                    pose.translation().distance(truth.translation()),
                    abs((pose.rotation() - truth.rotation()).degrees()),
                )
            )

        h.run(2.0, loop)
    last = errors[-25:]
    distance = sum(e[0] for e in last) / len(last)
    heading = sum(e[1] for e in last) / len(last)
    return distance, heading, used


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_simulated_camera_pulls_the_estimate_onto_the_truth(seed: int) -> None:
    """Five draws of the camera's noise (repeatable: seeded), each converging."""
    with_distance, with_heading, used = estimate_error(True, seed)
    without_distance, without_heading, _ = estimate_error(False, seed)
    print(
        f"\n[vision] {used} camera poses: {with_distance:.3f} m / {with_heading:.2f}° off the "
        f"truth; without the camera {without_distance:.3f} m / {without_heading:.2f}°"
    )
    assert used > 20
    assert with_distance < 0.05 and with_heading < 1.0
    assert without_distance > 0.5 and without_heading > 7.0


def test_std_devs_given_once_stay_in_force_as_the_docs_say() -> None:
    """docs/driving.md: ``std_devs=None`` is the last std devs given (WPILib's estimator keeps
    them), not WPILib's default."""
    import wpilib

    start = Pose2d(2.0, 2.0, Rotation2d())
    with simulated(initial_pose=start) as h:
        drive: SwerveDrive = h.drive
        try:
            h.loop()
            h.observe()  # odometry since the pose reset, for the measurement to go against
            now = wpilib.Timer.getFPGATimestamp()
            assert drive.add_vision_measurement(
                Pose2d(3.0, 2.0, Rotation2d()), now, (0.9, 0.9, 0.9)
            )
            by_default = drive.estimator.getEstimatedPosition().X() - start.X()
            drive.reset_pose(start)
            h.loop()
            h.observe()
            now = wpilib.Timer.getFPGATimestamp()
            assert drive.add_vision_measurement(start, now, (0.01, 0.01, 0.01))
            assert drive.add_vision_measurement(Pose2d(3.0, 2.0, Rotation2d()), now)
            after_tight = drive.estimator.getEstimatedPosition().X() - start.X()
            print(
                f"\n[vision std devs] 1 m away: {by_default:.2f} m at 0.9 m, then {after_tight:.2f} m"
            )
            assert by_default < 0.2  # 0.9 m against odometry's 0.1 m
            assert after_tight > 0.8  # the tight std devs given before still apply
        finally:
            drive.estimator.setVisionMeasurementStdDevs((0.9, 0.9, 0.9))  # the shared drive's
