"""An example robot using swervelib: an Xbox controller, field-relative and heading modes.

Controls (driver Xbox controller on port 0):
  left stick      translate, field-relative (hold the left bumper for robot-relative)
  right stick     point it where the robot should face (heading mode)
  right bumper    hold for rotation-rate mode: right stick X turns the robot
  A               the robot now faces the field's forward direction (zero heading)
  X               hold to lock the wheels in an X

Autonomous drives a 1 m square on odometry, facing forward, and stops where it started.
"""

from __future__ import annotations

import wpilib
from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from swervelib.input import HeadingDriveInput, apply_deadband
from swervelib.interrupt import end_on_ctrl_c

STICK_DEADBAND = 0.1
SQUARE = [(1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0)]  # corners, metres from the start
SQUARE_SPEED = 1.0  # m/s
ARRIVED = 0.03  # metres


class Robot(wpilib.TimedRobot):
    def robotInit(self) -> None:
        end_on_ctrl_c(self)  # Ctrl-C in `robotpy sim` ends the program without noise
        self.swerve = SwerveDrive.from_directory()  # deploy/swerve
        self.driver = driver = wpilib.XboxController(0)
        # The heading-mode test drive routine: raw stick axes in, as the controller reports them.
        self.sticks = HeadingDriveInput.for_drive(
            self.swerve, driver.getLeftX, driver.getLeftY, driver.getRightX, driver.getRightY
        )
        self.corner = 0
        self.loops = 0

    def robotPeriodic(self) -> None:
        self.swerve.periodic()
        self.loops += 1
        if self.loops % 100 == 0 and wpilib.RobotBase.isSimulation():
            pose = self.swerve.get_pose()
            print(
                f"t={wpilib.Timer.getFPGATimestamp():6.2f}s pose x={pose.X():+.2f} m "
                f"y={pose.Y():+.2f} m heading={pose.rotation().degrees():+.1f} deg"
            )

    # -- autonomous: a square ----------------------------------------------------------------------
    def autonomousInit(self) -> None:
        self.swerve.zero_heading()
        self.swerve.reset_pose(Pose2d())
        self.corner = 0

    def autonomousPeriodic(self) -> None:
        if self.corner >= len(SQUARE):
            self.swerve.lock()
            return
        target = Translation2d(*SQUARE[self.corner])
        error = target - self.swerve.get_pose().translation()
        distance = error.norm()
        if distance < ARRIVED:
            self.corner += 1
            return
        speed = min(SQUARE_SPEED, 3.0 * distance)  # slow down on the way in
        self.swerve.drive_facing(
            error.X() / distance * speed, error.Y() / distance * speed, Rotation2d()
        )

    # -- teleop ------------------------------------------------------------------------------------
    def teleopInit(self) -> None:
        self.sticks.reset_heading()  # keep facing the way the robot faces now

    def teleopPeriodic(self) -> None:
        driver = self.driver
        if driver.getAButtonPressed():
            self.swerve.zero_heading()
            self.sticks.reset_heading(0.0)
        if driver.getXButton():
            self.swerve.lock()
            return
        field_relative = not driver.getLeftBumperButton()
        if driver.getRightBumperButton():  # rotation-rate mode
            x, y = self.sticks.translation()
            turn = apply_deadband(-driver.getRightX(), STICK_DEADBAND)  # stick right: turn right
            speeds = ChassisSpeeds(
                x * self.swerve.max_speed,
                y * self.swerve.max_speed,
                turn * self.swerve.max_angular_velocity,
            )
            self.swerve.drive(speeds, field_relative=field_relative)
            self.sticks.reset_heading()  # when the bumper is let go, hold the new heading
            return
        self.sticks.apply(self.swerve, field_relative=field_relative)

    def disabledInit(self) -> None:
        self.swerve.stop()

    def disabledPeriodic(self) -> None:
        pass  # robotPeriodic does the work; overriding it keeps Python running every loop
