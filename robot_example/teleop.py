"""The driver's sticks, as swervelib's SwerveInput: field-relative translation with the left stick
(deadband, cubed, 80 % at full stick); the right stick points the robot (heading mode), or, with
the right bumper held, turns it (rotation-rate mode); the left bumper held makes translation
robot-relative. Both modes share their state, so switching while driving has no jump.

The field's frame is the blue alliance's (PathPlanner's and Choreo's: x away from the blue wall),
so field-relative driving is alliance-relative: on the red alliance the sticks are turned half a
turn, and pushing a stick away from the driver moves the robot away from the driver on either
side."""

from __future__ import annotations

import math

import wpilib
from wpimath.geometry import Pose2d, Rotation2d

from swervelib import SwerveDrive
from swervelib.alliance import red_alliance
from swervelib.input_stream import Curve, SwerveInput

STICK_DEADBAND = 0.1


class DriverSticks:
    def __init__(self, drive: SwerveDrive, pad: wpilib.XboxController) -> None:
        self.drive = drive
        self.pad = pad
        controller = drive.config.controller
        self.rate = (
            SwerveInput.from_xbox(pad)
            .with_deadband(STICK_DEADBAND)
            .with_curve(Curve.CUBED, Curve.LINEAR)
            .scaled(0.8)
            .alliance_relative_mode()
        )
        self.heading = self.rate.heading_mode()
        if controller is not None:  # controllerproperties.json's angleJoystickRadiusDeadband
            self.heading = self.heading.with_heading_deadband(
                controller.angle_joystick_radius_deadband
            )

    def current(self) -> SwerveInput:
        """This loop's mode, as the bumpers say."""
        sticks = self.rate if self.pad.getRightBumperButton() else self.heading
        return sticks.robot_relative_mode() if self.pad.getLeftBumperButton() else sticks

    def zero_heading(self) -> None:
        """The robot now faces away from its driver (0 rad on the blue alliance, π on the red),
        and heading mode holds it."""
        facing = math.pi if red_alliance() else 0.0
        here = self.drive.get_pose().translation()
        self.drive.reset_pose(Pose2d(here, Rotation2d(facing)))
        self.heading.reset_heading(facing)
