"""Configuration warnings reach the console and the driver station when the drive is built."""

from __future__ import annotations

import json
import logging
import shutil
from collections import Counter
from pathlib import Path

import pytest

from swervelib import SwerveDrive
from tests.conftest import DEPLOY
from tests.sim import alert_texts


def _with_typo(tmp_path: Path) -> Path:
    directory = tmp_path / "swerve"
    shutil.copytree(DEPLOY / "vortex_throughbore_navx", directory)  # the group's Spark ids
    module = directory / "modules" / "frontleft.json"
    data = json.loads(module.read_text())
    data["absoluteEncoderInvertd"] = True  # the typo a team makes
    data["absoluteEncoderOffset"] = None  # YAGSL reads 0
    module.write_text(json.dumps(data, indent=2))
    return directory


def test_each_warning_is_printed_once_and_one_alert_counts_them(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """wpilib.reportWarning logs (the robot console) and, on a robot, sends to the driver
    station; pytest's caplog sees the log."""
    caplog.set_level(logging.WARNING)
    drive = SwerveDrive.from_directory(_with_typo(tmp_path), simulate=False)
    printed = caplog.text
    assert printed.count("unknown key `absoluteEncoderInvertd`") == 1
    assert "did you mean `absoluteEncoderInverted`?" in printed
    assert printed.count("absoluteEncoderOffset: warning: null is read as 0") == 1
    assert "modules/frontleft.json:" in printed  # file and line:col, as `check` prints them
    count = len(drive.config.warnings)
    assert count == 2, [w.format() for w in drive.config.warnings]
    expected = f"swerve config: {count} warnings, run `python -m swervelib check`"
    assert expected in alert_texts(("warnings",))
    drive.config_alert = None  # the alert goes when the drive lets go of it
    assert expected not in alert_texts(("warnings",))


def config_alerts() -> Counter[str]:
    return Counter(t for t in alert_texts(("warnings",)) if t.startswith("swerve config:"))


def test_a_clean_configuration_raises_no_config_alert() -> None:
    # Alerts are process-wide: drives that earlier tests built from other folders (still alive,
    # kept for reuse) keep theirs, so this checks that building this one adds none.
    before = config_alerts()
    drive = SwerveDrive.from_directory(DEPLOY / "vortex_throughbore_navx", simulate=False)
    assert drive.config.warnings == ()
    assert drive.config_alert is None
    assert not config_alerts() - before
