"""The autonomous routines and the chooser that picks one (SmartDashboard ``Autonomous``).

* ``Curve (PathPlanner)``: ``deploy/pathplanner/autos/Curve.auto``, through PathPlanner's
  ``AutoBuilder`` as ``swervelib.pathplanner`` configures it (the robot from the swerve JSON,
  PathPlanner's feedforwards, paths flipped for the red alliance);
* ``Arc (Choreo)``: ``deploy/choreo/Arc.traj``, followed by ``swervelib.choreo`` (with the
  trajectory's accelerations as feedforwards, flipped for the red alliance);
* ``Nothing``.

Both start by putting the pose where the routine starts. ``scripts/example_autos.py`` in the
swervelib repository writes these files and PathPlanner's ``settings.json`` from ``deploy/swerve``.
"""

from __future__ import annotations

import choreo
import commands2
import wpilib
from pathplannerlib.auto import PathPlannerAuto

from swervelib.choreo import follow_command
from swervelib.commands import SwerveSubsystem
from swervelib.pathplanner import configure_auto_builder

PATHPLANNER = "Curve (PathPlanner)"
CHOREO = "Arc (Choreo)"
NOTHING = "Nothing"


class Autos:
    def __init__(self, swerve: SwerveSubsystem) -> None:
        configure_auto_builder(swerve.drive, swerve)
        self.commands: dict[str, commands2.Command | None] = {
            PATHPLANNER: PathPlannerAuto("Curve"),
            CHOREO: follow_command(swerve, choreo.load_swerve_trajectory("Arc")),
            NOTHING: None,
        }
        self.chooser = wpilib.SendableChooser()
        self.chooser.setDefaultOption(PATHPLANNER, PATHPLANNER)
        for name in (CHOREO, NOTHING):
            self.chooser.addOption(name, name)
        wpilib.SmartDashboard.putData("Autonomous", self.chooser)

    def selected(self) -> commands2.Command | None:
        return self.commands[self.chooser.getSelected()]
