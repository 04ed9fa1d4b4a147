"""``offsets --capture`` refuses a module whose robot reports an Absolute Encoder Read Issue.

While a module's absolute encoder cannot be read (bad magnet, unplugged, not answering) the robot
keeps publishing its last good ``Raw Absolute Encoder``. In simulation, a CANcoder whose magnet
went bad with its wheel at 40°, the wheel then turned straight: capture wrote 52.29 where 12.3 is
right, a 40° error, with the robot's own ``Absolute Encoder Read Issue`` true beside it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from swervelib.config import load_directory
from swervelib.tools.calibrate import CalibrationError
from swervelib.tools.capture import capture_offsets
from swervelib.tools.telemetry_client import (
    RAW_ABSOLUTE,
    RAW_ANGLE,
    RAW_DRIVE,
    RAW_IMU_YAW,
    ROOT,
    MemoryTelemetry,
)
from tests.conftest import DEPLOY
from tests.ports import listening_server

TIMEOUT_S = 10.0
# the key the robot publishes (swervelib.drive.telemetry, YAGSL)
READ_ISSUE = "Absolute Encoder Read Issue"
STALE_READING = 52.29  # frontleft's last good reading, from before its wheel was straightened


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    target = tmp_path / "swerve"
    shutil.copytree(DEPLOY / "kraken_cancoder_pigeon2", target)
    return target


def files(directory: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(directory.rglob("*.json"))}


def readings(directory: Path) -> dict[str, float]:
    """What the robot reads with every wheel straight: each module's offset, but frontleft's
    stale reading."""
    config = load_directory(directory)
    values = {m.name: m.absolute_encoder_offset_deg for m in config.modules}
    values["frontleft"] = STALE_READING
    return values


@pytest.fixture
def robot(tmp_path: Path) -> Iterator[tuple[Any, int]]:
    """A NetworkTables server (the robot's) on free localhost ports, listening."""
    with listening_server(tmp_path / "networktables.json", TIMEOUT_S) as served:
        yield served


def test_capture_refuses_a_module_the_robot_cannot_read(
    config_dir: Path, robot: tuple[Any, int]
) -> None:
    """Over NetworkTables, as the robot publishes it (a boolean per module)."""
    instance, port = robot
    publishers: list[Any] = []
    values = readings(config_dir)
    names = instance.getStringArrayTopic(f"{ROOT}/moduleNames").publish()
    names.set(list(values))
    publishers.append(names)

    def number(path: str, value: float) -> None:
        publisher = instance.getDoubleTopic(f"{ROOT}/{path}").publish()
        publisher.set(value)
        publishers.append(publisher)

    for name, reading in values.items():
        number(f"modules/{name}/{RAW_ABSOLUTE}", reading)
        number(f"modules/{name}/{RAW_ANGLE}", 0.0)
        number(f"modules/{name}/{RAW_DRIVE}", 0.0)
        issue = instance.getBooleanTopic(f"{ROOT}/modules/{name}/{READ_ISSUE}").publish()
        issue.set(name == "frontleft")
        publishers.append(issue)
    number(RAW_IMU_YAW, 0.0)
    before = files(config_dir)
    try:
        with pytest.raises(CalibrationError, match="frontleft reports an Absolute Encoder Read"):
            capture_offsets(
                config_dir, "127.0.0.1", port=port, timeout_s=TIMEOUT_S, samples=2, dry_run=True
            )
        assert files(config_dir) == before
    finally:
        for publisher in publishers:
            publisher.close()


def test_capture_refuses_a_read_issue_and_captures_once_it_clears(config_dir: Path) -> None:
    source = MemoryTelemetry(tuple(readings(config_dir)))
    for name, reading in readings(config_dir).items():
        source.set(name, RAW_ABSOLUTE, reading)
    source.set_read_issue("frontleft", True)
    before = files(config_dir)
    with pytest.raises(CalibrationError, match="frontleft reports an Absolute Encoder Read Issue"):
        capture_offsets(config_dir, source=source, sleep=lambda _: None)
    assert files(config_dir) == before
    source.set_read_issue("frontleft", False)  # the encoder answers again (here: still 52.29)
    result = capture_offsets(config_dir, source=source, sleep=lambda _: None)
    assert [(c.file, c.new) for c in result.changes] == [("modules/frontleft.json", STALE_READING)]
    offsets = json.loads((config_dir / "modules" / "frontleft.json").read_text())
    assert offsets["absoluteEncoderOffset"] == STALE_READING
