"""Wheel diameter characterisation (swervelib.wheel_radius): spinning in place against the gyro
finds the wheels' real diameter, and writing it keeps the file's other contents."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

from swervelib import wheel_radius
from swervelib.config import load_directory
from swervelib.config.model import INCH
from swervelib.tools.edit import BACKUP_DIR, EditError, EditResult
from swervelib.wheel_radius import WheelRadiusCharacterization, write_wheel_diameter
from tests.drive.harness import REV_NAVX, forget_drive, simulated

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


# -- where the diameter is written: where each module's drive conversion comes from -------------

MODULES = ("frontleft", "frontright", "backleft", "backright")
OVERRIDE = {"angle": {"gearRatio": 21.43}, "drive": {"gearRatio": 6.75, "diameter": 4}}
NEW_IN = 3.85


def _robot(tmp_path: Path, physical_drive: dict[str, float] | None = None, **own: object) -> Path:
    """The all-REV reference robot, with physicalproperties' drive conversion ``physical_drive``
    and the module files named in ``own`` given that ``conversionFactors`` of their own."""
    directory = tmp_path / "swerve"
    shutil.copytree(REV_NAVX, directory)
    if physical_drive is not None:
        path = directory / "modules" / "physicalproperties.json"
        data = json.loads(path.read_text())
        data["conversionFactors"]["drive"] = physical_drive
        path.write_text(json.dumps(data, indent=2))
    for name, factors in own.items():
        path = directory / "modules" / f"{name}.json"
        data = json.loads(path.read_text())
        data["conversionFactors"] = factors
        path.write_text(json.dumps(data, indent=2))
    return directory


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((directory / "modules").glob("*.json"))}


def _diameters_in(directory: Path) -> dict[str, float]:
    config = load_directory(directory)
    diameters = {}
    for module in config.modules:
        conversion = module.conversion
        assert conversion.wheel_diameter_m is not None and conversion.drive_gear_ratio is not None
        # the diameter is what the robot drives on: the conversion is worked out from it
        assert conversion.drive_m_per_rotation == pytest.approx(
            math.pi * conversion.wheel_diameter_m / conversion.drive_gear_ratio, rel=1e-12
        )
        diameters[module.name] = conversion.wheel_diameter_m / INCH
    return diameters


def _backed_up(directory: Path, result: EditResult) -> list[str]:
    assert result.backup is not None
    return sorted(p.relative_to(result.backup).as_posix() for p in result.backup.rglob("*.json"))


def test_the_diameter_goes_into_module_files_that_give_their_own_drive_conversion(
    tmp_path: Path,
) -> None:
    directory = _robot(tmp_path, **dict.fromkeys(MODULES, OVERRIDE))
    assert _diameters_in(directory) == dict.fromkeys(MODULES, pytest.approx(4.0))
    physical_before = (directory / "modules" / "physicalproperties.json").read_bytes()
    before = {
        name: json.loads((directory / "modules" / f"{name}.json").read_text()) for name in MODULES
    }
    result = write_wheel_diameter(directory, NEW_IN)
    assert result.written and len(result.changes) == len(MODULES)
    assert _diameters_in(directory) == dict.fromkeys(MODULES, pytest.approx(NEW_IN))
    for name in MODULES:  # only the diameter changed, key order kept
        after = json.loads((directory / "modules" / f"{name}.json").read_text())
        assert after["conversionFactors"]["drive"]["diameter"] == NEW_IN
        after["conversionFactors"]["drive"]["diameter"] = 4
        assert after == before[name] and list(after) == list(before[name])
        assert list(after["conversionFactors"]["drive"]) == ["gearRatio", "diameter"]
    # physicalproperties' conversion is used by no module: left as it was
    assert (directory / "modules" / "physicalproperties.json").read_bytes() == physical_before
    assert _backed_up(directory, result) == [f"modules/{name}.json" for name in sorted(MODULES)]


@pytest.mark.parametrize(
    ("physical_drive", "own", "named"),
    [
        (  # physicalproperties' factor wins over its gearRatio and diameter, for every module
            {"gearRatio": 6.75, "diameter": 4, "factor": 0.047287},
            {},
            "modules/physicalproperties.json: conversionFactors.drive.factor gives the drive "
            "conversion of frontleft, frontright, backleft, backright",
        ),
        (  # one module's own factor wins: refused although the others have a diameter
            None,
            {"frontright": {"angle": {"factor": 7.75}, "drive": {"factor": 0.047287}}},
            "modules/frontright.json: conversionFactors.drive.factor gives the drive conversion "
            "of frontright",
        ),
    ],
    ids=["physicalproperties factor", "module factor"],
)
def test_a_drive_conversion_given_by_factor_is_refused(
    tmp_path: Path,
    physical_drive: dict[str, float] | None,
    own: dict[str, object],
    named: str,
) -> None:
    directory = _robot(tmp_path, physical_drive, **own)
    before_m = [m.conversion.drive_m_per_rotation for m in load_directory(directory).modules]
    before = _files(directory)
    with pytest.raises(ValueError, match="no wheel diameter to correct") as refused:
        write_wheel_diameter(directory, NEW_IN)
    assert named in str(refused.value)
    assert _files(directory) == before  # nothing written
    assert not (directory / BACKUP_DIR).exists()
    after_m = [m.conversion.drive_m_per_rotation for m in load_directory(directory).modules]
    assert after_m == before_m


def test_the_diameter_goes_where_each_module_takes_it_from(tmp_path: Path) -> None:
    # frontleft and backright override with a conversion that works; backleft's own, a diameter
    # alone, does not work and is ignored (physicalproperties' is used, as YAGSL does); frontright
    # has none.
    directory = _robot(
        tmp_path,
        frontleft=OVERRIDE,
        backright=OVERRIDE,
        backleft={"drive": {"diameter": 4}},
    )
    assert _diameters_in(directory) == {
        "frontleft": pytest.approx(4.0),
        "frontright": pytest.approx(CONFIGURED_IN),
        "backleft": pytest.approx(CONFIGURED_IN),
        "backright": pytest.approx(4.0),
    }
    before = _files(directory)
    dry = write_wheel_diameter(directory, WORN_IN, dry_run=True)
    assert not dry.written and len(dry.changes) == 3
    assert _files(directory) == before
    result = write_wheel_diameter(directory, WORN_IN)
    assert result.written
    assert _diameters_in(directory) == dict.fromkeys(MODULES, pytest.approx(WORN_IN))
    after = _files(directory)
    changed = sorted(name for name in before if after[name] != before[name])
    assert changed == ["backright.json", "frontleft.json", "physicalproperties.json"]
    for name in changed:
        assert json.loads(after[name])["conversionFactors"]["drive"]["diameter"] == WORN_IN
    # one transaction: one backup of the three files it replaced
    assert _backed_up(directory, result) == [f"modules/{name}" for name in changed]
    assert json.loads(after["backleft.json"])["conversionFactors"] == {"drive": {"diameter": 4}}


def test_a_write_that_would_not_reach_every_module_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The check after staging: were the modules' own overrides mistaken for physicalproperties'
    # users, the reloaded result still drives on 4 in wheels, and nothing is written.
    directory = _robot(tmp_path, frontleft=OVERRIDE)
    monkeypatch.setattr(wheel_radius, "drive_decided_by", lambda own, physical: (False, "diameter"))
    before = _files(directory)
    with pytest.raises(EditError, match="drive conversion of frontleft would still not come"):
        write_wheel_diameter(directory, NEW_IN)
    assert _files(directory) == before


# -- measuring: against each module's own configured diameter -----------------------------------


def _measure(directory: Path) -> WheelRadiusCharacterization:
    """A drive for ``directory`` (the reference robot's Spark ids: the pool reuses its Sparks,
    and the shared drive is built anew afterwards) on wheels of :data:`WORN_IN`, spun 4 s."""
    try:
        with simulated(directory, true_wheel_diameter_m=WORN_IN * INCH) as h:
            measure = WheelRadiusCharacterization(h.drive)
            h.run(0.5, lambda d: measure.step())  # spin up
            measure = WheelRadiusCharacterization(h.drive)
            h.run(4.0, lambda d: measure.step())
            return measure
    finally:
        forget_drive(directory)
        forget_drive(REV_NAVX)  # its (pooled) devices were configured for another drive


def test_each_module_is_measured_against_its_own_configured_diameter(tmp_path: Path) -> None:
    """frontleft gives its own conversion, on 4 in wheels; the others take physicalproperties'
    3 in. Every wheel is really 2.89 in: measured against frontleft's 4 in for every module, the
    result read 3.59 in."""
    own = {"angle": {"gearRatio": 46.42}, "drive": {"gearRatio": 5.08, "diameter": 4}}
    directory = _robot(tmp_path, frontleft=own)
    measure = _measure(directory)
    result = measure.result()
    assert result.left_out == ()
    assert result.diameter_in == pytest.approx(WORN_IN, rel=0.01)
    assert measure.configured == {
        "frontleft": pytest.approx(4.0 * INCH),
        **dict.fromkeys(MODULES[1:], pytest.approx(CONFIGURED_IN * INCH)),
    }


def test_a_diameter_beside_a_drive_factor_is_not_measured(tmp_path: Path) -> None:
    """A non-zero factor gives the drive conversion (3 in wheels, as a factor); the diameter
    written beside it (4 in) is not what odometry uses, so there is nothing to correct."""
    factor = math.pi * CONFIGURED_IN * INCH / 5.08
    directory = _robot(tmp_path, {"gearRatio": 5.08, "diameter": 4, "factor": factor})
    with pytest.raises(ValueError, match="frontleft, frontright, backleft, backright as a fac"):
        _measure(directory)
