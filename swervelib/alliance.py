"""Which alliance the robot is on, for flipping autonomous paths to the red side."""

from __future__ import annotations

import wpilib


def red_alliance() -> bool:
    """True when the Driver Station says the robot is on the red alliance (False before it
    says anything)."""
    return wpilib.DriverStation.getAlliance() == wpilib.DriverStation.Alliance.kRed
