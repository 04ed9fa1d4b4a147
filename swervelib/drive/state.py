"""One loop's snapshot of the drive (phoenix6's ``SwerveDriveState`` idea): what ``periodic()``
read and estimated, and what the drive was asked for, taken together so every reader of a loop
sees the same values.

``periodic()`` records the loop's values (the readings themselves, so a state kept for later still
says what that loop read), and ``SwerveDrive.get_state()`` builds the snapshot from them the first
time anyone asks in that loop (the telemetry above ``NONE``, a state callback, a getter; at
``NONE`` with no callback, nobody may ask). The derived values (module states and the measured
chassis speeds from them) are likewise computed the first time anyone asks, once, and then shared
by every getter, the telemetry and the state callbacks.
"""

from __future__ import annotations

from collections.abc import Sequence

from wpimath.geometry import Pose2d, Rotation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModulePosition, SwerveModuleState

from swervelib.angles import RADIANS_PER_DEGREE
from swervelib.drive.wheel_math import WheelKinematics


class DriveState:
    """The drive as ``periodic()`` left it. Treat it as read-only.

    * ``timestamp``: FPGA seconds when the loop's readings were taken;
    * ``pose``: the pose estimate; ``raw_heading``: the IMU yaw (after ``invertedIMU``);
    * ``module_positions``: each module's distance and angle; ``module_states``: speed and angle;
    * ``speeds``: the measured robot-relative chassis speeds (from the module states);
    * ``desired_speeds``: the robot-relative chassis speeds last commanded;
    * ``module_targets``: the module states last commanded (after optimisation, before cosine
      compensation);
    * ``odometry_period``: seconds since the previous loop.

    The same in plain numbers, without building WPILib objects: ``velocities`` (m/s) and
    ``angles_deg`` per module, ``targets`` ((m/s, degrees) per module), ``measured`` and
    ``desired`` ((vx m/s, vy m/s, omega rad/s), robot-relative).
    """

    __slots__ = (
        "_desired_speeds",
        "_measured",
        "_speeds",
        "_states",
        "_target_states",
        "_wheels",
        "angles_deg",
        "desired",
        "module_positions",
        "odometry_period",
        "pose",
        "raw_heading_deg",
        "targets",
        "timestamp",
        "velocities",
    )

    def __init__(
        self,
        timestamp: float,
        pose: Pose2d,
        raw_heading_deg: float,
        module_positions: tuple[SwerveModulePosition, ...],
        velocities: Sequence[float],
        angles_deg: Sequence[float],
        desired: tuple[float, float, float],
        targets: Sequence[tuple[float, float]],
        odometry_period: float,
        wheels: WheelKinematics,
    ) -> None:
        self.timestamp = timestamp
        self.pose = pose
        self.raw_heading_deg = raw_heading_deg
        self.module_positions = module_positions
        self.velocities = velocities
        self.angles_deg = angles_deg
        self.desired = desired
        self.targets = targets
        self.odometry_period = odometry_period
        self._wheels = wheels
        self._states: tuple[SwerveModuleState, ...] | None = None
        self._measured: tuple[float, float, float] | None = None
        self._speeds: ChassisSpeeds | None = None
        self._desired_speeds: ChassisSpeeds | None = None
        self._target_states: tuple[SwerveModuleState, ...] | None = None

    @property
    def raw_heading(self) -> Rotation2d:
        return Rotation2d.fromDegrees(self.raw_heading_deg)

    @property
    def module_states(self) -> tuple[SwerveModuleState, ...]:
        if self._states is None:
            self._states = tuple(
                [
                    SwerveModuleState(speed, position.angle)
                    for speed, position in zip(self.velocities, self.module_positions, strict=True)
                ]
            )
        return self._states

    @property
    def measured(self) -> tuple[float, float, float]:
        if self._measured is None:
            self._measured = self._wheels.chassis_speeds(self.velocities, self.angles_deg)
        return self._measured

    def module_state_values(self) -> list[float]:
        """Each module's speed (m/s) and angle (radians) in turn: the numbers of a
        ``SwerveModuleState[]`` struct. A new list each call; :attr:`measured` is worked out on
        the way if nobody asked for it yet (one pass over the modules for both)."""
        values: list[float] = []
        if self._measured is None:
            self._measured = self._wheels.chassis_speeds(self.velocities, self.angles_deg, values)
        else:
            for speed, angle in zip(self.velocities, self.angles_deg, strict=True):
                values += (speed, angle * RADIANS_PER_DEGREE)
        return values

    @property
    def speeds(self) -> ChassisSpeeds:
        if self._speeds is None:
            self._speeds = ChassisSpeeds(*self.measured)
        return self._speeds

    @property
    def desired_speeds(self) -> ChassisSpeeds:
        if self._desired_speeds is None:
            self._desired_speeds = ChassisSpeeds(*self.desired)
        return self._desired_speeds

    @property
    def module_targets(self) -> tuple[SwerveModuleState, ...]:
        if self._target_states is None:
            from_degrees = Rotation2d.fromDegrees
            self._target_states = tuple(
                [SwerveModuleState(speed, from_degrees(angle)) for speed, angle in self.targets]
            )
        return self._target_states

    def field_speeds(self) -> ChassisSpeeds:
        """The measured speeds in the field's frame (by the pose's heading)."""
        return ChassisSpeeds.fromRobotRelativeSpeeds(self.speeds, self.pose.rotation())

    def __repr__(self) -> str:
        return (
            f"DriveState(t={self.timestamp:.3f}, pose={self.pose}, speeds={self.speeds}, "
            f"desired={self.desired_speeds})"
        )
