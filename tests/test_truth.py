"""HardwareTruth: JSON round trip and the hardware a configuration describes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from swervelib.config import load_directory
from swervelib.sim.truth import HardwareTruth
from tests.conftest import DEPLOY


def test_matching_truth_follows_the_configuration() -> None:
    config = load_directory(DEPLOY / "swerve")
    truth = HardwareTruth.matching(config)
    assert [c.name for c in truth.corners] == ["frontleft", "frontright", "backleft", "backright"]
    fl = truth.corner("frontleft")
    assert (fl.drive_id, fl.angle_id, fl.encoder_id) == (1, 2, 9)
    assert (fl.front, fl.left) == (10.75, 10.75)
    assert fl.encoder_zero_deg == 12.3
    assert not (fl.drive_reversed or fl.angle_reversed or fl.encoder_reversed)
    assert truth.imu_reversed is False


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    truth = HardwareTruth.matching(load_directory(DEPLOY / "swerve"))
    changed = truth.with_corner("backleft", angle_reversed=True, encoder_zero_deg=99.5)
    path = tmp_path / "sim_hardware.json"
    changed.save(path)
    data = json.loads(path.read_text())
    assert data["corners"]["backleft"]["angle_reversed"] is True
    assert HardwareTruth.load(path) == changed
    assert HardwareTruth.load(path) != truth


def test_unknown_corner_is_a_clear_error() -> None:
    truth = HardwareTruth.matching(load_directory(DEPLOY / "swerve"))
    with pytest.raises(KeyError, match="no corner named 'middle'"):
        truth.with_corner("middle", drive_reversed=True)
