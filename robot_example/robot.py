"""The reference competition robot for swervelib: command-based, autonomous from PathPlanner and
Choreo, SysId on a test-mode controller.

* ``container.py`` builds the drive (from ``deploy/swerve``) and binds the controllers;
* ``autos.py`` makes the autonomous chooser (SmartDashboard ``Autonomous``);
* ``teleop.py`` reads the driver's sticks (swervelib's ``SwerveInput``: heading mode, or
  rotation-rate mode while a button is held).

Controls are listed in ``container.py``. ``robotpy sim`` runs it against swervelib's physics
(``physics.py``); ``robotpy test`` runs pyfrc's tests and ``tests/``.
"""

from __future__ import annotations

import commands2
import wpilib
from container import RobotContainer

from swervelib.interrupt import end_on_ctrl_c

STATUS_EVERY = 100  # loops between the simulation's pose lines


class Robot(commands2.TimedCommandRobot):
    """The scheduler runs every loop (subsystems' ``periodic()`` first, so the drive reads its
    sensors once, then the commands); the mode methods only start and stop commands."""

    def robotInit(self) -> None:
        end_on_ctrl_c(self)  # Ctrl-C in `robotpy sim` ends the program without noise
        self.container = RobotContainer()
        self.swerve = self.container.drive  # physics.py simulates this drive
        self.auto: commands2.Command | None = None
        self.loops = 0

    def robotPeriodic(self) -> None:
        self.loops += 1
        if self.loops % STATUS_EVERY == 0 and wpilib.RobotBase.isSimulation():
            pose = self.swerve.get_pose()
            print(
                f"t={wpilib.Timer.getFPGATimestamp():6.2f}s pose x={pose.X():+.2f} m "
                f"y={pose.Y():+.2f} m heading={pose.rotation().degrees():+.1f} deg"
            )

    def autonomousInit(self) -> None:
        self.auto = self.container.autos.selected()
        if self.auto is not None:
            self.auto.schedule()

    def teleopInit(self) -> None:
        if self.auto is not None:
            self.auto.cancel()

    def testInit(self) -> None:
        commands2.CommandScheduler.getInstance().cancelAll()
        wpilib.DataLogManager.start()  # SysId reads the routines' entries from this log

    # The scheduler does the work; overriding these keeps wpilib from asking for them.
    def disabledPeriodic(self) -> None:
        pass

    def autonomousPeriodic(self) -> None:
        pass

    def teleopPeriodic(self) -> None:
        pass

    def testPeriodic(self) -> None:
        pass
