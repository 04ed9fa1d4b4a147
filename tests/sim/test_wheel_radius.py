"""Wheel diameter characterisation (swervelib.wheel_radius): spinning in place against the gyro
finds the wheels' real diameter, and writing it keeps the file's other contents."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from swervelib.config import load_directory
from swervelib.config.model import INCH
from swervelib.wheel_radius import WheelRadiusCharacterization, write_wheel_diameter
from tests.drive.harness import REV_NAVX, simulated

CONFIGURED_IN = 3.0  # the all-REV reference robot's wheels, as configured
WORN_IN = 2.89  # the treads wore down


def test_spinning_in_place_finds_the_real_diameter() -> None:
    configured_in = load_directory(REV_NAVX).modules[0].conversion.wheel_diameter_m / INCH
    assert configured_in == pytest.approx(CONFIGURED_IN)
    with simulated(true_wheel_diameter_m=WORN_IN * INCH) as h:
        measure = WheelRadiusCharacterization(h.drive)
        h.run(0.5, lambda d: measure.step())  # spin up
        measure = WheelRadiusCharacterization(h.drive)  # measure at a steady spin
        h.run(4.0, lambda d: measure.step())
        result = measure.result()
    print(f"\n[wheel diameter] {result.diameter_in:.3f} in over {result.turned_rad:.1f} rad")
    assert result.turned_rad > 3.0
    assert result.diameter_in == pytest.approx(WORN_IN, rel=0.01)


def test_writing_the_diameter_keeps_the_rest_of_the_file(tmp_path: Path) -> None:
    directory = tmp_path / "swerve"
    shutil.copytree(REV_NAVX, directory)
    path = directory / "modules" / "physicalproperties.json"
    before = json.loads(path.read_text())
    result = write_wheel_diameter(directory, WORN_IN)
    assert result.written
    after = json.loads(path.read_text())
    assert after["conversionFactors"]["drive"]["diameter"] == WORN_IN
    after["conversionFactors"]["drive"]["diameter"] = before["conversionFactors"]["drive"][
        "diameter"
    ]
    assert after == before and list(after) == list(before)  # nothing else, key order kept
    loaded = load_directory(directory).modules[0].conversion.wheel_diameter_m
    assert loaded == pytest.approx(WORN_IN * INCH)
    with pytest.raises(ValueError):
        write_wheel_diameter(directory, 400.0)
