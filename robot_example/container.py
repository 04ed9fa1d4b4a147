"""What the robot is made of and how its controllers drive it.

Driver (Xbox controller, port 0), in teleop:
  left stick      translate, field-relative from the driver's side (pushed away from the driver:
                  away from the driver on either alliance); hold the left bumper for
                  robot-relative
  right stick     point it where the robot should face (heading mode)
  right bumper    hold for rotation-rate mode: right stick X turns the robot
  A               the robot now faces away from the driver (zero heading: 0 rad on blue, π on red)
  X               hold to lock the wheels in an X

Characterisation (Xbox controller, port 1), in test mode only; hold the button for each test:
  A / B           drive motors: quasistatic forward / backward
  X / Y           drive motors: dynamic forward / backward
  left bumper     held with A, B, X or Y: the same tests on the angle motors
  start           spin in place to measure the wheel diameter (printed when released)
"""

from __future__ import annotations

import commands2
import commands2.button
import wpilib
from autos import Autos
from teleop import DriverSticks

from swervelib import SwerveDrive
from swervelib.commands import SwerveSubsystem


class RobotContainer:
    def __init__(self) -> None:
        self.drive = SwerveDrive.from_directory()  # deploy/swerve
        self.swerve = SwerveSubsystem(self.drive)
        self.driver = commands2.button.CommandXboxController(0)
        self.tester = commands2.button.CommandXboxController(1)
        self.drive.set_heading_correction(True)  # rate mode: hold the heading when not turning
        self.sticks = DriverSticks(self.drive, self.driver.getHID())
        self.teleop = self.swerve.input_command(self.sticks.current)
        self.autos = Autos(self.swerve)
        self.bind_driver()
        self.bind_characterisation()

    def bind_driver(self) -> None:
        teleop = commands2.button.Trigger(wpilib.DriverStation.isTeleopEnabled)
        locked = self.driver.x()
        (teleop & ~locked).whileTrue(self.teleop)  # back to the sticks when X is let go
        (teleop & locked).whileTrue(self.swerve.lock_command())
        (teleop & self.driver.a()).onTrue(commands2.InstantCommand(self.sticks.zero_heading))

    def bind_characterisation(self) -> None:
        testing = commands2.button.Trigger(wpilib.DriverStation.isTestEnabled)
        angle, rotation = self.tester.leftBumper(), self.tester.rightBumper()
        for routine, which in (
            (self.swerve.sysid_drive(), ~angle & ~rotation),
            (self.swerve.sysid_angle(), angle & ~rotation),
            (self.swerve.sysid_rotation(), rotation & ~angle),
        ):
            tests = self.swerve.sysid_commands(routine)  # quasistatic fwd/back, dynamic fwd/back
            buttons = (self.tester.a(), self.tester.b(), self.tester.x(), self.tester.y())
            for button, command in zip(buttons, tests, strict=True):
                (testing & which & button).whileTrue(command)
        (testing & self.tester.start()).whileTrue(self.swerve.wheel_radius_command())
