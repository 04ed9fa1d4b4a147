"""How a module's conversion is chosen from its own ``conversionFactors`` and
physicalproperties.json's, as YAGSL's ``ModuleJson.createModuleConfiguration`` chooses it: each
axis whole from one file, and a module override only when it passes YAGSL's ``works()``."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from swervelib.config import load_directory
from swervelib.config.conversions import drive_decided_by, effective_factors, works
from swervelib.config.model import AngleConversion, ConversionFactors, DriveConversion
from tests.conftest import DEPLOY

INCH = 0.0254
PHYSICAL = "modules/physicalproperties.json"
FRONT_LEFT = "modules/frontleft.json"


def folder(
    tmp_path: Path,
    physical: dict[str, Any] | None,
    own: dict[str, Any],
    modules: tuple[str, ...] = ("frontleft",),
) -> Path:
    """The reference robot with physicalproperties.json's ``conversionFactors`` (None: removed)
    and the own of ``modules`` set to ``own``."""
    target = tmp_path / "swerve"
    shutil.copytree(DEPLOY / "swerve", target)
    path = target / PHYSICAL
    data = json.loads(path.read_text())
    if physical is None:
        del data["conversionFactors"]
    else:
        data["conversionFactors"] = physical
    path.write_text(json.dumps(data, indent=2))
    for name in modules:
        path = target / "modules" / f"{name}.json"
        data = json.loads(path.read_text())
        data["conversionFactors"] = own
        path.write_text(json.dumps(data, indent=2))
    return target


def override_warnings(directory: Path) -> list[str]:
    config = load_directory(directory)
    return [
        w.message for w in config.warnings if (w.file, w.field) == (FRONT_LEFT, "conversionFactors")
    ]


# physicalproperties.json of the 175-frc2025 corpus folder: both forms, each axis's factor given.
PHYSICAL_WITH_FACTORS = {
    "angle": {"gearRatio": 17, "factor": 21.1764705882},
    "drive": {"diameter": 4, "gearRatio": 6.75, "factor": 0.0472867872},
}
PHYSICAL_GEARS = {"angle": {"gearRatio": 12.8}, "drive": {"gearRatio": 8.14, "diameter": 4}}


@pytest.mark.parametrize(
    ("angle", "drive", "expected"),
    [
        ({"factor": 16.8}, {"factor": 0.05}, True),
        ({"gearRatio": 12.8}, {"gearRatio": 6.75, "diameter": 4.0}, True),
        ({"factor": 16.8, "gearRatio": 12.8}, {"factor": 0.05}, True),
        # the mixed forms: both conversions given, but not YAGSL's test
        ({"factor": 16.8}, {"gearRatio": 6.75, "diameter": 4.0}, False),
        ({"gearRatio": 12.8}, {"factor": 0.05}, False),
        ({"gearRatio": 12.8}, {"factor": 0.05, "gearRatio": 6.75}, False),
        ({"factor": 16.8}, {}, False),
        ({}, {"gearRatio": 6.75, "diameter": 4.0}, False),
    ],
)
def test_works_is_yagsl_s_test(
    angle: dict[str, float], drive: dict[str, float], expected: bool
) -> None:
    """``(angle.factor and drive.factor) or (drive.gearRatio and drive.diameter and
    angle.gearRatio)``, all non-zero, as ``ConversionFactorsJson.works()``."""
    factors = ConversionFactors(
        AngleConversion(gear_ratio=angle.get("gearRatio", 0.0), factor=angle.get("factor", 0.0)),
        DriveConversion(
            gear_ratio=drive.get("gearRatio", 0.0),
            diameter_in=drive.get("diameter", 0.0),
            factor=drive.get("factor", 0.0),
        ),
    )
    assert works(factors) is expected


def test_a_gear_ratio_override_beats_physical_factors(tmp_path: Path) -> None:
    """A module overriding with gear ratios (factor 0) beside physical properties that give
    factors uses its own gear ratios (YAGSL: the module's axis unless it is empty), never the
    physical factors field by field (the 175-frc2025 folder with a frontleft override)."""
    own = {
        "angle": {"gearRatio": 21.4285714286, "factor": 0},
        "drive": {"gearRatio": 6.12, "diameter": 4, "factor": 0},
    }
    config = load_directory(folder(tmp_path, PHYSICAL_WITH_FACTORS, own))
    conversion = config.module("frontleft").conversion
    assert conversion.angle_deg_per_rotation == pytest.approx(360 / 21.4285714286)
    assert conversion.drive_m_per_rotation == pytest.approx(math.pi * 4 * INCH / 6.12)
    assert conversion.angle_gear_ratio == pytest.approx(21.4285714286)
    assert conversion.drive_gear_ratio == pytest.approx(6.12)
    assert conversion.wheel_diameter_m == pytest.approx(4 * INCH)
    other = config.module("frontright").conversion
    assert other.angle_deg_per_rotation == pytest.approx(21.1764705882)
    assert other.drive_m_per_rotation == pytest.approx(0.0472867872)
    assert override_warnings(folder(tmp_path / "again", PHYSICAL_WITH_FACTORS, own)) == []


def test_a_factor_override_takes_no_gear_ratio_from_physical_properties(tmp_path: Path) -> None:
    """The gear ratios and wheel diameter come from the file the axis's conversion comes from: a
    module giving only factors has the ratios of its factors, not physicalproperties.json's."""
    own = {"angle": {"factor": 16.8}, "drive": {"factor": 0.05}}
    config = load_directory(folder(tmp_path, PHYSICAL_GEARS, own))
    conversion = config.module("frontleft").conversion
    assert conversion.angle_deg_per_rotation == 16.8
    assert conversion.drive_m_per_rotation == 0.05
    assert conversion.angle_gear_ratio == pytest.approx(360 / 16.8)  # what 16.8°/rotation means
    assert conversion.drive_gear_ratio is None
    assert conversion.wheel_diameter_m is None
    assert config.module("frontright").conversion.angle_gear_ratio == pytest.approx(12.8)


@pytest.mark.parametrize(
    ("own", "angle_by", "drive_by"),
    [
        (
            {"angle": {"factor": 16.8}, "drive": {"gearRatio": 6.75, "diameter": 4}},
            "`factor`",
            "`gearRatio` and `diameter`",
        ),
        ({"angle": {"gearRatio": 21.43}, "drive": {"factor": 0.05}}, "`gearRatio`", "`factor`"),
    ],
)
def test_a_mixed_override_is_dropped_as_yagsl_drops_it(
    tmp_path: Path, own: dict[str, Any], angle_by: str, drive_by: str
) -> None:
    """An override giving one axis by factor and the other by gear ratio does not pass YAGSL's
    ``works()``: beside working physical properties the module uses those whole, with a warning
    that says what YAGSL needs in the module file."""
    directory = folder(tmp_path, PHYSICAL_GEARS, own)
    config = load_directory(directory)
    conversion = config.module("frontleft").conversion
    assert conversion == config.module("frontright").conversion
    assert conversion.angle_deg_per_rotation == pytest.approx(360 / 12.8)
    assert conversion.drive_m_per_rotation == pytest.approx(math.pi * 4 * INCH / 8.14)
    assert conversion.angle_gear_ratio == pytest.approx(12.8)
    assert conversion.drive_gear_ratio == pytest.approx(8.14)
    (message,) = override_warnings(directory)
    assert f"gives the angle by {angle_by} and the drive by {drive_by}" in message
    assert "ignored" in message and "physicalproperties.json's is used" in message
    assert (
        "YAGSL needs both `factor`s, or all of drive `gearRatio` and `diameter` and angle "
        "`gearRatio`, in this module file" in message
    )


def test_the_partial_override_warning_says_what_yagsl_needs(tmp_path: Path) -> None:
    directory = folder(tmp_path, PHYSICAL_GEARS, {"angle": {"factor": 7.5}})
    (message,) = override_warnings(directory)
    assert "gives only part of the conversion" in message
    assert "YAGSL needs both `factor`s, or all of drive `gearRatio` and `diameter`" in message
    assert load_directory(directory).module("frontleft").conversion.angle_deg_per_rotation == (
        pytest.approx(360 / 12.8)
    )


def test_a_mixed_module_with_no_physical_conversion_is_still_read(tmp_path: Path) -> None:
    """Where neither file works on its own (YAGSL would fail or end with Infinity/NaN), swervelib
    keeps merging field by field: a mixed module beside no physical conversion is read."""
    own = {"angle": {"factor": 16.8}, "drive": {"gearRatio": 6.75, "diameter": 4}}
    every = ("frontleft", "frontright", "backleft", "backright")
    config = load_directory(folder(tmp_path, None, own, every))
    assert config.warnings == ()
    conversion = config.module("frontleft").conversion
    assert conversion.angle_deg_per_rotation == 16.8
    assert conversion.drive_m_per_rotation == pytest.approx(math.pi * 4 * INCH / 6.75)
    assert conversion.drive_gear_ratio == 6.75


def test_a_dropped_override_gives_no_gear_ratio_to_absolute_steering(tmp_path: Path) -> None:
    """Steering on an attached encoder (``angle.factor`` 360) takes the motor's gearing from the
    file the angle conversion comes from: never from a module override YAGSL drops."""
    physical = {"angle": {"factor": 360}, "drive": {"factor": 0.05}}
    directory = folder(tmp_path, physical, {"angle": {"gearRatio": 46.42}})
    for name in ("frontleft", "frontright", "backleft", "backright"):
        path = directory / "modules" / f"{name}.json"
        data = json.loads(path.read_text())
        data["encoder"] = {"type": "attached", "id": 0, "canbus": None}
        data["steerOnAbsoluteEncoder"] = True
        path.write_text(json.dumps(data, indent=2))
    config = load_directory(directory)
    assert config.module("frontleft").conversion == config.module("frontright").conversion
    assert config.module("frontleft").conversion.angle_gear_ratio is None


def _factors(
    angle_ratio: float = 0, drive_ratio: float = 0, diameter: float = 0, factor: float = 0
) -> ConversionFactors:
    return ConversionFactors(
        AngleConversion(gear_ratio=angle_ratio), DriveConversion(drive_ratio, diameter, factor)
    )


@pytest.mark.parametrize(
    ("own", "physical", "decided_by"),
    [
        (_factors(), _factors(46.42, 5.08, 3), (False, "diameter")),
        (_factors(21.43, 6.75, 4), _factors(46.42, 5.08, 3), (True, "diameter")),
        (_factors(drive_ratio=6.75, diameter=4), _factors(46.42, 5.08, 3), (False, "diameter")),
        (_factors(), _factors(46.42, 5.08, 3, 0.05), (False, "factor")),
        (_factors(21.43, 6.75, 4, 0.05), _factors(46.42, 5.08, 3), (True, "factor")),
        # neither works alone: merged field by field, each field from the file that gives it
        (_factors(diameter=4), _factors(46.42, 5.08), (True, "diameter")),
        (_factors(drive_ratio=6.75), _factors(46.42, diameter=3), (False, "diameter")),
        (_factors(diameter=4), _factors(46.42, 5.08, factor=0.05), (False, "factor")),
        (_factors(factor=0.05), _factors(46.42, 5.08), (True, "factor")),
    ],
)
def test_the_file_and_field_that_decide_the_drive_conversion(
    own: ConversionFactors, physical: ConversionFactors, decided_by: tuple[bool, str]
) -> None:
    assert drive_decided_by(own, physical) == decided_by
    drive = effective_factors(own, physical).drive
    own_file, field = decided_by
    assert (drive.factor != 0) == (field == "factor")
    source = own if own_file else physical
    if field == "factor":
        assert drive.factor == source.drive.factor
    else:
        assert drive.diameter_in == source.drive.diameter_in
