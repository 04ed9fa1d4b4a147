"""NetworkTables telemetry under ``/SmartDashboard/swerve/``, through publishers created once.

Verbosity (default ``HIGH``, so the raw values the calibration procedures read need no set-up):

* ``NONE``: nothing per loop.
* ``LOW``: the pose (``advantagescope/pose``, ``advantagescope/robotRotation``) and the Field2d.
* ``POSE``: ``LOW`` plus module states and chassis speeds (AdvantageScope structs).
* ``HIGH``: ``POSE`` plus every module's raw readings and setpoints and ``Raw IMU Yaw`` /
  ``Adjusted IMU Yaw``.

What a program replays or draws (the pose, the Field2d, module states, chassis speeds) is set every
loop. The numbers a person reads (``robotRotation``, the IMU yaws and each module's values under
``modules/<name>/``) are set in turn, one group per loop: at ``HIGH`` with four modules each group
is refreshed every five loops (100 ms), which is how often NetworkTables sends a value to a
dashboard by default anyway. A loop therefore makes about 13 NetworkTables calls instead of 18.

The pose and ``robotRotation`` go through typed struct publishers: the loop has them as WPILib
objects already, and packing them in C++ costs less than taking them apart in Python. The module
states and chassis speeds are packed from the loop's plain numbers straight into their WPILib
struct layout (a raw topic of the struct's type, its schema registered as the typed publishers do),
so no ``SwerveModuleState`` or ``ChassisSpeeds`` is built just to be published; the measured module
states are packed from the same pass over the modules that works out the measured chassis speeds.
Any struct subscriber (AdvantageScope, ``getStructTopic``) reads them as usual. A module's
``Absolute Encoder Read Issue`` is set when it changes (NetworkTables would not send a repeated
value anyway).

Every value is set with the loop's own timestamp (``periodic()``'s FPGA time, NetworkTables' time
base), so one loop's values line up in a log, and ntcore reads no clock of its own for each.

Settings (module count, locations, max speed) are published once at any verbosity above ``NONE``.
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Iterable, Sequence
from typing import Any

import ntcore
import wpilib
from wpimath.geometry import Pose2d, Rotation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModuleState
from wpiutil import wpistruct

from swervelib.angles import RADIANS_PER_DEGREE
from swervelib.drive.module import SwerveModule
from swervelib.drive.state import DriveState

ROOT = "/SmartDashboard/swerve"
# The WPILib struct layout packed here: ChassisSpeeds (vx, vy, omega) is three doubles.
_THREE_DOUBLES = struct.Struct("<3d")


def struct_publisher(
    nt: ntcore.NetworkTableInstance, name: str, cls: type, *, array: bool = False
) -> ntcore.RawPublisher:
    """A raw publisher typed as WPILib struct ``cls`` (or an array of it), its schemas added."""
    wpistruct.forEachNested(
        cls, lambda type_string, schema: nt.addSchema(type_string, "structschema", schema)
    )
    type_string = f"struct:{wpistruct.getTypeName(cls)}{'[]' if array else ''}"
    return nt.getRawTopic(name).publish(type_string)


def _pack_pairs(layout: struct.Struct, states: Iterable[tuple[float, float]]) -> bytes:
    """SwerveModuleState[] from (m/s, degrees) pairs."""
    values: list[float] = []
    for speed, angle in states:
        values += (speed, angle * RADIANS_PER_DEGREE)
    return layout.pack(*values)


class TelemetryVerbosity(enum.IntEnum):
    NONE = 0
    LOW = 1
    POSE = 2
    HIGH = 3


class _ModulePublishers:
    def __init__(self, nt: ntcore.NetworkTableInstance, module: SwerveModule) -> None:
        base = f"{ROOT}/modules/{module.name}"

        def double(name: str) -> ntcore.DoublePublisher:
            return nt.getDoubleTopic(f"{base}/{name}").publish()

        self.module = module
        self.raw_absolute = double("Raw Absolute Encoder")
        self.adjusted_absolute = double("Adjusted Absolute Encoder")
        self.raw_angle = double("Raw Angle Encoder")
        self.raw_drive = double("Raw Drive Encoder")
        self.raw_drive_velocity = double("Raw Drive Velocity")
        self.speed_setpoint = double("Speed Setpoint")
        self.angle_setpoint = double("Angle Setpoint")
        self.read_issue = nt.getBooleanTopic(f"{base}/Absolute Encoder Read Issue").publish()
        # the read-issue flag is set when it changes (NetworkTables sends no repeats anyway)
        self._issue_shown: bool | None = None

    def publish(self, time_us: int = 0) -> None:
        """Set the module's values, timestamped ``time_us`` (0: NetworkTables' own clock, now)."""
        m = self.module
        self.raw_absolute.set(m.raw_absolute_deg, time_us)
        self.adjusted_absolute.set(m.angle_deg, time_us)
        self.raw_angle.set(m.raw_angle_deg, time_us)
        self.raw_drive.set(m.raw_drive_m, time_us)
        self.raw_drive_velocity.set(m.drive_velocity_mps, time_us)
        self.speed_setpoint.set(m.speed_setpoint_mps, time_us)
        self.angle_setpoint.set(m.angle_setpoint_deg, time_us)
        issue = m.absolute_read_issue
        if issue is not self._issue_shown:
            self.read_issue.set(issue, time_us)
            self._issue_shown = issue


class DriveTelemetry:
    """Publishes a drive's state each loop, as much as the verbosity asks for."""

    def __init__(
        self,
        modules: Sequence[SwerveModule],
        max_speed_mps: float,
        verbosity: TelemetryVerbosity = TelemetryVerbosity.HIGH,
        nt: ntcore.NetworkTableInstance | None = None,
    ) -> None:
        verbosity = TelemetryVerbosity(verbosity)
        self._verbosity = verbosity
        self.nt = nt or ntcore.NetworkTableInstance.getDefault()
        self.modules = tuple(modules)
        self.field = wpilib.Field2d()
        self._published: dict[str, Any] = {}
        scope = f"{ROOT}/advantagescope"
        if verbosity > TelemetryVerbosity.NONE:
            self._publish_settings(max_speed_mps)
            wpilib.SmartDashboard.putData("Field", self.field)
            # the pose and its rotation are WPILib objects already: typed publishers pack them
            self.pose = self.nt.getStructTopic(f"{scope}/pose", Pose2d).publish()
            self.rotation = self.nt.getStructTopic(f"{scope}/robotRotation", Rotation2d).publish()
        if verbosity >= TelemetryVerbosity.POSE:
            nt = self.nt
            self._states_layout = struct.Struct(f"<{2 * len(self.modules)}d")
            self.current_states = struct_publisher(
                nt, f"{scope}/currentStates", SwerveModuleState, array=True
            )
            self.desired_states = struct_publisher(
                nt, f"{scope}/desiredStates", SwerveModuleState, array=True
            )
            self.measured_speeds = struct_publisher(
                nt, f"{scope}/measuredChassisSpeeds", ChassisSpeeds
            )
            self.desired_speeds = struct_publisher(
                nt, f"{scope}/desiredChassisSpeeds", ChassisSpeeds
            )
        if verbosity >= TelemetryVerbosity.HIGH:
            self.module_publishers = [_ModulePublishers(self.nt, m) for m in self.modules]
            for publishers in self.module_publishers:
                publishers.publish()
            self.raw_yaw = self.nt.getDoubleTopic(f"{ROOT}/Raw IMU Yaw").publish()
            self.adjusted_yaw = self.nt.getDoubleTopic(f"{ROOT}/Adjusted IMU Yaw").publish()
        # the groups set in turn: 0 = robotRotation (and the IMU yaws), 1.. = the modules
        self._groups = 1 + (len(self.modules) if verbosity is TelemetryVerbosity.HIGH else 0)
        self._next_group = 0

    @property
    def verbosity(self) -> TelemetryVerbosity:
        """Fixed at construction (the publishers are created for it)."""
        return self._verbosity

    def _publish_settings(self, max_speed_mps: float) -> None:
        nt = self.nt
        count = nt.getDoubleTopic(f"{ROOT}/moduleCount").publish()
        count.set(len(self.modules))
        names = nt.getStringArrayTopic(f"{ROOT}/moduleNames").publish()
        names.set([m.name for m in self.modules])
        locations = nt.getDoubleArrayTopic(f"{ROOT}/wheelLocation").publish()
        locations.set([v for m in self.modules for v in (m.location.X(), m.location.Y())])
        units = nt.getStringTopic(f"{ROOT}/wheelLocationUnit").publish()
        units.set("metres")
        speed = nt.getDoubleTopic(f"{ROOT}/maxSpeed").publish()
        speed.set(max_speed_mps)
        # keep the publishers alive so the values stay published
        self._published.update(
            count=count, names=names, locations=locations, units=units, speed=speed
        )

    def publish(self, state: DriveState, time_us: int = 0) -> None:
        """Publish this loop's values (from ``POSE`` up, the state's module states and speeds),
        each timestamped ``time_us``: the loop's own FPGA time in microseconds, NetworkTables'
        time base (0: NetworkTables reads its clock at each value, as a plain ``set`` does)."""
        verbosity = self._verbosity
        if verbosity is TelemetryVerbosity.NONE:
            return
        pose = state.pose
        self.pose.set(pose, time_us)
        self.field.setRobotPose(pose)
        if verbosity is not TelemetryVerbosity.LOW:
            layout = self._states_layout
            self.current_states.set(layout.pack(*state.module_state_values()), time_us)
            self.desired_states.set(_pack_pairs(layout, state.targets), time_us)
            self.measured_speeds.set(_THREE_DOUBLES.pack(*state.measured), time_us)
            self.desired_speeds.set(_THREE_DOUBLES.pack(*state.desired), time_us)
        group = self._next_group
        self._next_group = group + 1 if group + 1 < self._groups else 0
        if group:
            self.module_publishers[group - 1].publish(time_us)
            return
        rotation = pose.rotation()
        self.rotation.set(rotation, time_us)
        if verbosity is TelemetryVerbosity.HIGH:
            self.raw_yaw.set(state.raw_heading_deg, time_us)
            self.adjusted_yaw.set(rotation.degrees(), time_us)
