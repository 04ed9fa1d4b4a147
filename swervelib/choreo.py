"""Following Choreo trajectories with a swervelib drive (optional: sleipnirgroup-choreolib,
swervelib's ``choreo`` extra; the rest of swervelib never imports it).

:class:`ChoreoFollower` turns one ``SwerveSample`` into a drive command each loop: the sample's
field-relative velocity, plus proportional corrections towards its pose, plus feedforwards: the
sample's chassis acceleration turned into each module's acceleration (through the drive's own
kinematics, so in the drive's module order) and added through the drive feedforward's kA.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from swervelib.optional import missing

try:
    from choreo.trajectory import SwerveSample
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing(__name__, "sleipnirgroup-choreolib", "choreo") from error
from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds

if TYPE_CHECKING:
    from swervelib.drive.swerve_drive import SwerveDrive


class ChoreoFollower:
    """Drive ``drive`` along Choreo samples: ``follower(sample)`` once per loop.

    ``translation_kp`` (m/s per metre of error) and ``rotation_kp`` (rad/s per radian) correct
    towards the sample's pose; ``feedforwards`` adds the sample's acceleration."""

    def __init__(
        self,
        drive: SwerveDrive,
        *,
        translation_kp: float = 5.0,
        rotation_kp: float = 5.0,
        feedforwards: bool = True,
    ) -> None:
        self.drive = drive
        self.translation_kp = translation_kp
        self.rotation_kp = rotation_kp
        self.feedforwards = feedforwards

    def __call__(self, sample: SwerveSample) -> None:
        drive = self.drive
        pose = drive.get_pose()
        heading_error = math.remainder(sample.heading - pose.rotation().radians(), math.tau)
        speeds = ChassisSpeeds(
            sample.vx + self.translation_kp * (sample.x - pose.X()),
            sample.vy + self.translation_kp * (sample.y - pose.Y()),
            sample.omega + self.rotation_kp * heading_error,
        )
        accelerations = (
            self.module_accelerations(sample, pose.rotation()) if self.feedforwards else None
        )
        drive.drive(speeds, field_relative=True, feedforwards=accelerations)

    def module_accelerations(self, sample: SwerveSample, heading: Rotation2d) -> list[float]:
        """Each module's acceleration (m/s²) along the direction it is about to roll, from the
        sample's field-relative chassis acceleration (ax, ay, alpha)."""
        drive = self.drive
        kinematics: Any = drive.kinematics
        velocity = ChassisSpeeds.fromFieldRelativeSpeeds(
            ChassisSpeeds(sample.vx, sample.vy, sample.omega), heading
        )
        acceleration = ChassisSpeeds.fromFieldRelativeSpeeds(
            ChassisSpeeds(sample.ax, sample.ay, sample.alpha), heading
        )
        rolling = kinematics.toSwerveModuleStates(velocity)
        pushing = kinematics.toSwerveModuleStates(acceleration)
        result = []
        for roll, push in zip(rolling, pushing, strict=True):
            if abs(roll.speed) < 1e-6:  # at rest: the module turns to where it will push
                result.append(abs(push.speed))
            else:
                result.append(push.speed * (push.angle - roll.angle).cos())
        return result
