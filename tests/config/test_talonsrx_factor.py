"""A Talon SRX's ``conversionFactors`` ``factor`` is read in YAGSL's unit for it: per native count.

YAGSL multiplies a Talon SRX's native position by the factor, so a YAGSL folder with Talon SRX
motors writes degrees (or metres) per count, 360 / (gearRatio x 4096); team 3646's robot does
(tests/corpus/3646-yagslexampledev2025), and swervelib refused it as out of range. A ``gearRatio``
means the same for every controller."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from swervelib.config import ConfigError, load_directory
from swervelib.config.native_counts import FactorUnits, shared_units
from tests.conftest import DEPLOY

PHYSICAL = "modules/physicalproperties.json"
COUNTS = 4096
ANGLE_RATIO = 12.8
DRIVE_RATIO = 8.14
DIAMETER_IN = 4.0
DRIVE_M_PER_ROTATION = math.pi * DIAMETER_IN * 0.0254 / DRIVE_RATIO
PER_COUNT = {
    "angle": {"factor": 360.0 / (ANGLE_RATIO * COUNTS)},
    "drive": {"factor": DRIVE_M_PER_ROTATION / COUNTS},
}


def talonsrx_folder(tmp_path: Path, factors: dict[str, Any], *, in_module: bool = False) -> Path:
    """The Talon SRX example robot with ``factors`` as physicalproperties.json's
    ``conversionFactors`` (or as every module file's own, ``in_module``)."""
    target = tmp_path / "talonsrx"
    shutil.copytree(DEPLOY / "talonsrx_pigeon", target)
    files = sorted((target / "modules").glob("*.json")) if in_module else [target / PHYSICAL]
    for path in files:
        if in_module and "properties" in path.name:
            continue
        data = json.loads(path.read_text())
        data["conversionFactors"] = factors
        path.write_text(json.dumps(data, indent=2))
    return target


@pytest.mark.parametrize("in_module", [False, True])
def test_a_talonsrx_factor_is_read_per_native_count(tmp_path: Path, in_module: bool) -> None:
    config = load_directory(talonsrx_folder(tmp_path, PER_COUNT, in_module=in_module))
    for module in config.modules:
        conversion = module.conversion
        assert conversion.angle_deg_per_rotation == pytest.approx(360.0 / ANGLE_RATIO)
        assert conversion.angle_gear_ratio == pytest.approx(ANGLE_RATIO)
        assert conversion.drive_m_per_rotation == pytest.approx(DRIVE_M_PER_ROTATION)
    unusual = [w.format() for w in config.warnings if "factor" in w.field]
    assert not unusual, unusual


def test_a_talonsrx_factor_per_motor_rotation_is_refused_naming_yagsls_unit(
    tmp_path: Path,
) -> None:
    """28.125 degrees per count would be a 0.003:1 steering gear: the error says the unit."""
    factors = {"angle": {"factor": 28.125}, "drive": {"factor": DRIVE_M_PER_ROTATION}}
    with pytest.raises(ConfigError) as caught:
        load_directory(talonsrx_folder(tmp_path, factors))
    named = {(p.file, p.field): p.format() for p in caught.value.problems}
    for axis in ("angle", "drive"):
        message = named[(PHYSICAL, f"conversionFactors.{axis}.factor")]
        assert "per Talon SRX native count" in message and "4096 per motor rotation" in message


@pytest.mark.parametrize("in_module", [False, True])
def test_an_unusual_talonsrx_drive_factor_is_quoted_as_written(
    tmp_path: Path, in_module: bool
) -> None:
    """1e-6 m per count is 0.004096 m per motor rotation, a 0.36 m/s wheel: the warning quotes the
    number in the file, per count, beside the one per rotation it was read as."""
    factors = {"angle": PER_COUNT["angle"], "drive": {"factor": 1e-6}}
    config = load_directory(talonsrx_folder(tmp_path, factors, in_module=in_module))
    unusual = [w.format() for w in config.warnings if w.field == "conversionFactors.drive"]
    assert unusual, [w.format() for w in config.warnings]
    for text in unusual:
        assert "factor 1e-06 m per Talon SRX native count, 0.004096 m per rotation" in text


def test_an_out_of_range_talonsrx_factor_gives_its_reason_per_count(tmp_path: Path) -> None:
    """The reasons speak per motor rotation ("360 / factor is the steering gear ratio"): the error
    says that a per-count factor is x 4096 there."""
    factors = {"angle": {"factor": 1.0}, "drive": {"factor": 1e-9}}
    with pytest.raises(ConfigError) as caught:
        load_directory(talonsrx_folder(tmp_path, factors))
    named = {(p.file, p.field): p.format() for p in caught.value.problems}
    for axis in ("angle", "drive"):
        message = named[(PHYSICAL, f"conversionFactors.{axis}.factor")]
        assert "the factor per motor rotation is this one x 4096" in message, message


def test_a_talonsrx_gear_ratio_means_what_it_means_for_any_motor(tmp_path: Path) -> None:
    factors = {
        "angle": {"gearRatio": ANGLE_RATIO},
        "drive": {"gearRatio": DRIVE_RATIO, "diameter": DIAMETER_IN},
    }
    config = load_directory(talonsrx_folder(tmp_path, factors))
    for module in config.modules:
        assert module.conversion.angle_deg_per_rotation == pytest.approx(360.0 / ANGLE_RATIO)
        assert module.conversion.drive_m_per_rotation == pytest.approx(DRIVE_M_PER_ROTATION)


def test_another_motors_factor_stays_per_motor_rotation(tmp_path: Path) -> None:
    target = tmp_path / "swerve"
    shutil.copytree(DEPLOY / "swerve", target)
    path = target / PHYSICAL
    data = json.loads(path.read_text())
    data["conversionFactors"] = PER_COUNT
    path.write_text(json.dumps(data, indent=2))
    with pytest.raises(ConfigError) as caught:
        load_directory(target)
    fields = {p.field for p in caught.value.problems if p.file == PHYSICAL}
    assert {"conversionFactors.angle.factor", "conversionFactors.drive.factor"} <= fields


def test_shared_factors_are_per_count_only_where_every_module_has_a_talonsrx() -> None:
    srx, spark = FactorUnits(COUNTS, COUNTS), FactorUnits(1, 1)
    assert shared_units([srx] * 4) == srx
    assert shared_units([srx, srx, srx, spark]) == FactorUnits(1, 1)
    assert shared_units([FactorUnits(COUNTS, 1)] * 4) == FactorUnits(COUNTS, 1)
