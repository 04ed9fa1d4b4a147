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
