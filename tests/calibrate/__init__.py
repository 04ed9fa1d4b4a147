"""Shared checks of the calibration tests."""

from __future__ import annotations

from pathlib import Path

from swervelib.config import load_directory
from swervelib.sim.truth import HardwareTruth


def assert_config_describes(directory: Path, truth: HardwareTruth, tolerance_deg: float) -> None:
    """The configuration in ``directory`` matches ``truth``: every flag, offsets within tolerance."""
    written = HardwareTruth.matching(load_directory(directory))
    for corner in truth.corners:
        mine = written.corner(corner.name)
        assert (mine.angle_reversed, mine.drive_reversed, mine.encoder_reversed) == (
            corner.angle_reversed,
            corner.drive_reversed,
            corner.encoder_reversed,
        ), corner.name
        error = (mine.encoder_zero_deg - corner.encoder_zero_deg + 180.0) % 360.0 - 180.0
        assert abs(error) < tolerance_deg, (
            corner.name,
            mine.encoder_zero_deg,
            corner.encoder_zero_deg,
        )
    assert written.imu_reversed is truth.imu_reversed
