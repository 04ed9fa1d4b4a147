"""Shared helpers of the simulation tests."""

from __future__ import annotations


def alert_texts(levels: tuple[str, ...] = ("errors", "warnings")) -> list[str]:
    """The WPILib Alerts of the `Swerve Alerts` group now shown on NetworkTables."""
    import ntcore
    import wpilib

    wpilib.SmartDashboard.updateValues()  # a robot's loop does this; the tests step by hand
    nt = ntcore.NetworkTableInstance.getDefault()
    texts: list[str] = []
    for level in levels:
        topic = nt.getStringArrayTopic(f"/SmartDashboard/Swerve Alerts/{level}")
        texts += topic.subscribe([]).get()
    return texts


class Pad:
    """An Xbox controller's sticks, raw axes (X right, Y back)."""

    def __init__(self) -> None:
        self.lx = self.ly = self.rx = self.ry = 0.0

    def getLeftX(self) -> float:
        return self.lx

    def getLeftY(self) -> float:
        return self.ly

    def getRightX(self) -> float:
        return self.rx

    def getRightY(self) -> float:
        return self.ry
