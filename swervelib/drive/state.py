"""One loop's snapshot of the drive (phoenix6's ``SwerveDriveState`` idea): what ``periodic()``
read and estimated, and what the drive was asked for, taken together so every reader of a loop
sees the same values.

``periodic()`` records the loop's values (the readings themselves, so a state kept for later still
says what that loop read); the derived ones (module states and the measured chassis speeds from
them) are computed the first time anyone asks, once, and then shared by every getter, the
telemetry and the state callbacks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wpimath.geometry import Pose2d, Rotation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModulePosition, SwerveModuleState


class DriveState:
    """The drive as ``periodic()`` left it. Treat it as read-only.

    * ``timestamp``: FPGA seconds when the loop's readings were taken;
    * ``pose``: the pose estimate; ``raw_heading``: the IMU yaw (after ``invertedIMU``);
    * ``module_positions``: each module's distance and angle; ``module_states``: speed and angle;
    * ``speeds``: the measured robot-relative chassis speeds (from the module states);
    * ``desired_speeds``: the robot-relative chassis speeds last commanded;
    * ``module_targets``: the module states last commanded (before optimisation);
    * ``odometry_period``: seconds since the previous loop.
    """

    __slots__ = (
        "_kinematics",
        "_speeds",
        "_states",
        "_velocities",
        "desired_speeds",
        "module_positions",
        "module_targets",
        "odometry_period",
        "pose",
        "raw_heading_deg",
        "timestamp",
    )

    def __init__(
        self,
        timestamp: float,
        pose: Pose2d,
        raw_heading_deg: float,
        module_positions: tuple[SwerveModulePosition, ...],
        velocities: Sequence[float],
        desired_speeds: ChassisSpeeds,
        module_targets: Sequence[SwerveModuleState],
        odometry_period: float,
        kinematics: Any,
    ) -> None:
        self.timestamp = timestamp
        self.pose = pose
        self.raw_heading_deg = raw_heading_deg
        self.module_positions = module_positions
        self.desired_speeds = desired_speeds
        self.module_targets = module_targets
        self.odometry_period = odometry_period
        self._velocities = velocities
        self._kinematics = kinematics
        self._states: tuple[SwerveModuleState, ...] | None = None
        self._speeds: ChassisSpeeds | None = None

    @property
    def raw_heading(self) -> Rotation2d:
        return Rotation2d.fromDegrees(self.raw_heading_deg)

    @property
    def module_states(self) -> tuple[SwerveModuleState, ...]:
        if self._states is None:
            self._states = tuple(
                [
                    SwerveModuleState(speed, position.angle)
                    for speed, position in zip(self._velocities, self.module_positions, strict=True)
                ]
            )
        return self._states

    @property
    def speeds(self) -> ChassisSpeeds:
        if self._speeds is None:
            self._speeds = self._kinematics.toChassisSpeeds(self.module_states)
        return self._speeds

    def field_speeds(self) -> ChassisSpeeds:
        """The measured speeds in the field's frame (by the pose's heading)."""
        return ChassisSpeeds.fromRobotRelativeSpeeds(self.speeds, self.pose.rotation())

    def __repr__(self) -> str:
        return (
            f"DriveState(t={self.timestamp:.3f}, pose={self.pose}, speeds={self.speeds}, "
            f"desired={self.desired_speeds})"
        )
