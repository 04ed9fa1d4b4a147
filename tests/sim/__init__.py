"""Shared helpers of the simulation tests."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import DEPLOY

# The two other example configurations: Spark Max + NEO with CANcoders and a Pigeon 2, and Kraken
# X60s with CANcoders and a Pigeon 2 (phoenix6: the harness waits for their readings each loop).
SWERVE, KRAKEN = "swerve", "kraken_cancoder_pigeon2"
# REVLib cannot simulate a Spark Max and a Spark Flex with one CAN id in one process, and the
# drive_and_sim group's Spark Flexes (deploy/vortex_throughbore_navx) hold ids 1-8: deploy/swerve
# is copied with its Spark Maxes on 40-47, the ids test_absolute_steering gives its Spark Maxes
# (the pool reuses a Spark of the same kind; each drive configures it afresh).
SPARK_MAX_FIRST_ID = 40


def example_robots(directory: Path) -> dict[str, Path]:
    """:data:`SWERVE` (copied under ``directory``, its Spark Maxes on CAN ids 40-47) and
    :data:`KRAKEN`, by name."""
    swerve = directory / SWERVE
    shutil.copytree(DEPLOY / SWERVE, swerve)
    names = json.loads((swerve / "swervedrive.json").read_text())["modules"]
    for index, name in enumerate(names):
        path = swerve / "modules" / name
        module = json.loads(path.read_text())
        module["drive"]["id"] = SPARK_MAX_FIRST_ID + 2 * index
        module["angle"]["id"] = SPARK_MAX_FIRST_ID + 2 * index + 1
        path.write_text(json.dumps(module, indent=2))
    return {SWERVE: swerve, KRAKEN: DEPLOY / KRAKEN}


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
