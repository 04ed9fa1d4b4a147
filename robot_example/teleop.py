"""The driver's command: field-relative translation with the left stick; the right stick points
the robot (heading mode), or, with the right bumper held, turns it (rotation-rate mode)."""

from __future__ import annotations

import commands2
import wpilib
from wpimath.kinematics import ChassisSpeeds

from swervelib.commands import SwerveSubsystem
from swervelib.input import HeadingDriveInput, apply_deadband

STICK_DEADBAND = 0.1


class TeleopDrive(commands2.Command):
    def __init__(self, swerve: SwerveSubsystem, driver: wpilib.XboxController) -> None:
        super().__init__()
        self.drive = swerve.drive
        self.driver = driver
        # The heading-mode test drive routine: raw stick axes in, as the controller reports them.
        self.sticks = HeadingDriveInput.for_drive(
            self.drive, driver.getLeftX, driver.getLeftY, driver.getRightX, driver.getRightY
        )
        self.addRequirements(swerve)
        self.setName("teleop drive")

    def initialize(self) -> None:
        self.sticks.reset_heading()  # keep facing the way the robot faces now

    def zero_heading(self) -> None:
        """The robot now faces the field's forward direction, and heading mode holds it."""
        self.drive.zero_heading()
        self.sticks.reset_heading(0.0)

    def execute(self) -> None:
        driver, drive = self.driver, self.drive
        field_relative = not driver.getLeftBumperButton()
        if driver.getRightBumperButton():  # rotation-rate mode
            x, y = self.sticks.translation()
            turn = apply_deadband(-driver.getRightX(), STICK_DEADBAND)  # stick right: turn right
            speeds = ChassisSpeeds(
                x * drive.max_speed, y * drive.max_speed, turn * drive.max_angular_velocity
            )
            drive.drive(speeds, field_relative=field_relative)
            self.sticks.reset_heading()  # when the bumper is let go, hold the new heading
            return
        self.sticks.apply(drive, field_relative=field_relative)
