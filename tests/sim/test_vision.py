"""Vision in simulation (docs/simulation.md): PhotonVision's simulated camera, fed the true pose,
pulls a wrong pose estimate onto the truth through ``add_vision_measurement``, while the robot
drives; without the camera the estimate stays as wrong as it started."""

from __future__ import annotations

import math

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


def estimate_error(with_camera: bool) -> tuple[float, float, int]:
    """Drive slowly away from the tags for 2 s with a wrong starting estimate; the estimate's
    distance and heading error from the truth at the end, and the camera poses used."""
    layout = AprilTagFieldLayout.loadField(AprilTagField.kDefaultField)
    camera = PhotonCamera("swervelib-test")
    vision = VisionSystemSim("swervelib-test")
    vision.addAprilTags(layout)
    properties = SimCameraProperties()
    properties.setCalibError(0.25, 0.08)
    vision.addCamera(PhotonCameraSim(camera, properties, layout), ROBOT_TO_CAMERA)
    estimator = PhotonPoseEstimator(layout, ROBOT_TO_CAMERA)
    used = 0
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

        h.run(2.0, loop)
        pose, truth = h.drive.get_pose(), h.sim.true_pose
        distance = pose.translation().distance(truth.translation())
        heading = abs((pose.rotation() - truth.rotation()).degrees())
    return distance, heading, used


def test_a_simulated_camera_pulls_the_estimate_onto_the_truth() -> None:
    with_distance, with_heading, used = estimate_error(True)
    without_distance, without_heading, _ = estimate_error(False)
    print(
        f"\n[vision] {used} camera poses: {with_distance:.3f} m / {with_heading:.2f}° off the "
        f"truth; without the camera {without_distance:.3f} m / {without_heading:.2f}°"
    )
    assert used > 20
    assert with_distance < 0.05 and with_heading < 1.0
    assert without_distance > 0.5 and without_heading > 7.0
