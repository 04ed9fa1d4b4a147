"""Following Choreo trajectories with a swervelib drive (optional: sleipnirgroup-choreolib,
swervelib's ``choreo`` extra; the rest of swervelib never imports it).

:class:`ChoreoFollower` turns one ``SwerveSample`` into a drive command each loop: the sample's
field-relative velocity, plus proportional corrections towards its pose, plus feedforwards: the
sample's chassis acceleration turned into each module's acceleration (through the drive's own
kinematics, so in the drive's module order) and added through the drive feedforward's kA.

:func:`follow_command` (needs commands2 too) follows a whole trajectory as a command: the pose reset
to its start, the trajectory flipped for the red alliance, the drive stopped at its end.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from swervelib.optional import missing

try:
    from choreo.trajectory import SwerveSample, SwerveTrajectory
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing(__name__, "sleipnirgroup-choreolib", "choreo") from error
import wpilib
from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib.alliance import red_alliance
from swervelib.drive.feedforward import module_accelerations

if TYPE_CHECKING:
    import commands2

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
        return module_accelerations(kinematics, velocity, acceleration)


def follow_command(
    subsystem: Any,
    trajectory: SwerveTrajectory,
    *,
    follower: ChoreoFollower | None = None,
    should_flip: Callable[[], bool] = red_alliance,
    reset_pose: bool = True,
) -> commands2.Command:
    """A command that follows ``trajectory`` with ``subsystem.drive`` (a
    :class:`~swervelib.commands.SwerveSubsystem`, which it requires). When it starts, the
    trajectory is flipped to the red side if ``should_flip()`` (Choreo's flip for the current
    field) and, with ``reset_pose``, the pose is reset to its first sample (in an auto of several
    trajectories, pass False to every one but the first: a reset throws away what odometry and
    vision have learned since); it ends when the trajectory's time is up, stopping the drive. ``follower``: how samples are followed (a
    :class:`ChoreoFollower` with its default gains unless given)."""
    try:
        import commands2
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise missing(
            "swervelib.choreo.follow_command", "robotpy-commands-v2", "commands"
        ) from error
    if not trajectory.samples:
        raise ValueError(f"the Choreo trajectory {trajectory.name!r} has no samples")
    drive: SwerveDrive = subsystem.drive
    follow = follower or ChoreoFollower(drive)
    timer = wpilib.Timer()
    chosen = [trajectory]

    def start() -> None:
        chosen[0] = trajectory.flipped() if should_flip() else trajectory
        if reset_pose:
            drive.reset_pose(chosen[0].samples[0].get_pose())
        timer.restart()

    def execute() -> None:
        sample = chosen[0].sample_at(timer.get())
        if sample is not None:
            follow(sample)

    def end(interrupted: bool) -> None:
        drive.stop()

    return commands2.FunctionalCommand(
        start, execute, end, lambda: timer.hasElapsed(trajectory.get_total_time()), subsystem
    ).withName(f"Choreo {trajectory.name}")
