"""Valid configurations load with the right values and units."""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys

import pytest

from swervelib.config import ConfigError, Motor, load_directory
from tests.conftest import DEPLOY, FIXTURES, REPO

VALID = FIXTURES / "valid"
REFERENCE = sorted(p for p in DEPLOY.iterdir() if p.is_dir())


@pytest.mark.parametrize("directory", REFERENCE, ids=lambda p: p.name)
def test_reference_configurations_load_without_warnings(directory: object) -> None:
    config = load_directory(directory)  # type: ignore[arg-type]
    assert [m.name for m in config.modules] == ["frontleft", "frontright", "backleft", "backright"]
    assert config.warnings == ()


def test_reference_robot_values_and_units() -> None:
    config = load_directory(DEPLOY / "swerve")
    fl, fr, bl, br = config.modules
    assert fl.file == "modules/frontleft.json"
    assert (fl.drive.type, fl.drive.id, fl.drive.canbus) == ("sparkmax", 1, None)
    assert fl.drive_motor_type.motor is Motor.NEO
    assert (fl.encoder.type, fl.encoder.id) == ("cancoder", 9)
    assert fl.absolute_encoder_offset_deg == 12.3
    assert fl.absolute_encoder_offset_rad == pytest.approx(math.radians(12.3))
    assert fl.absolute_encoder_inverted is False  # omitted: defaults to false
    assert (fl.location.front_in, fl.location.left_in) == (10.75, 10.75)
    assert fl.location.front_m == pytest.approx(0.27305)
    assert fr.location.left_m == pytest.approx(-0.27305)
    assert bl.location.front_m == pytest.approx(-0.27305)
    assert br.location.left_in == -10.75
    assert fl.conversion.angle_deg_per_rotation == pytest.approx(360 / 21.428571428571427)
    assert fl.conversion.drive_m_per_rotation == pytest.approx(math.pi * 4 * 0.0254 / 6.75)
    assert fl.conversion.wheel_diameter_m == pytest.approx(0.1016)
    assert fl.use_cosine_compensator is True
    assert config.drive.imu.type == "pigeon2"
    assert config.drive.imu.canbus is None  # "rio" is the roboRIO bus
    assert config.drive.imu_inverted is False
    assert config.physical is not None
    assert config.physical.current_limit.drive == 40
    assert config.physical.robot_mass_kg == pytest.approx(50.0, abs=1e-3)
    assert config.pidf is not None and config.pidf.angle.p == 0.01
    assert config.controller is not None and config.controller.heading.p == 0.4
    # free speed: NEO 5676 rpm through 6.75:1 on a 4 in wheel
    assert config.max_speed_mps == pytest.approx(5676 / 60 / 6.75 * math.pi * 0.1016)


def test_config_objects_are_immutable() -> None:
    config = load_directory(DEPLOY / "swerve")
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.modules[0].inverted.drive = True  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.drive = None  # type: ignore[misc,assignment]
    assert isinstance(config.modules, tuple)


def test_canivore_variant_keeps_bus_names() -> None:
    config = load_directory(DEPLOY / "kraken_cancoder_pigeon2")
    assert config.drive.imu.canbus == "canivore"
    assert config.modules[0].drive.canbus == "canivore"
    assert config.modules[0].drive_motor_type.motor is Motor.KRAKEN_X60


def test_invert_imu_spelling_is_accepted() -> None:
    assert load_directory(VALID / "invert_imu_spelling").drive.imu_inverted is True
    assert load_directory(VALID / "both_imu_spellings_agree").drive.imu_inverted is True


def test_absolute_encoder_inverted_when_given() -> None:
    config = load_directory(VALID / "abs_inverted_explicit")
    assert config.module("frontleft").absolute_encoder_inverted is True
    assert config.module("frontright").absolute_encoder_inverted is False


def test_partial_module_override_is_dropped_as_yagsl_drops_it() -> None:
    """A module's conversionFactors that gives only the angle is ignored beside working physical
    properties (YAGSL's reading), and the warning says so where it was written."""
    config = load_directory(VALID / "partial_module_override")
    fr = config.module("frontright")
    fl = config.module("frontleft")
    assert fr.conversion == fl.conversion
    assert fl.conversion.angle_deg_per_rotation == pytest.approx(16.8)
    (warning,) = [w for w in config.warnings if w.file == "modules/frontright.json"]
    assert warning.field == "conversionFactors" and "ignored" in warning.message


def test_a_complete_module_override_wins() -> None:
    config = load_directory(VALID / "factors_in_modules")
    assert config.modules[0].conversion.angle_deg_per_rotation == 16.8


def test_factor_only_configuration_has_a_finite_free_speed() -> None:
    config = load_directory(VALID / "factors_in_modules")
    module = config.modules[0]
    assert module.conversion.drive_m_per_rotation == 0.05
    assert module.conversion.drive_gear_ratio is None
    assert module.conversion.angle_gear_ratio == pytest.approx(360 / 16.8)
    assert math.isfinite(module.max_drive_speed_mps) and module.max_drive_speed_mps > 0
    assert config.physical is None


def test_three_modules_in_listed_order() -> None:
    config = load_directory(VALID / "three_modules")
    assert [m.name for m in config.modules] == ["frontleft", "frontright", "backleft"]


def test_optional_files_absent() -> None:
    config = load_directory(VALID / "minimal_files")
    assert config.pidf is None
    assert config.controller is None


def test_unknown_keys_are_warnings_with_suggestions() -> None:
    config = load_directory(VALID / "unknown_keys")
    texts = [w.format() for w in config.warnings]
    assert any("did you mean `absoluteEncoderOffset`" in t for t in texts), texts
    assert any("location.x" in t and "2023 format" in t for t in texts), texts
    assert not any("$schema" in t for t in texts)
    assert len(texts) == 2


def test_names_without_suffix_rio_bus_and_max_speed() -> None:
    config = load_directory(VALID / "names_without_suffix_and_rio_bus")
    assert config.drive.module_names == ("frontleft", "frontright", "backleft", "backright")
    assert config.module("frontleft").encoder.canbus is None
    assert config.max_speed_mps == 4.0


def test_same_id_on_different_buses_is_fine() -> None:
    config = load_directory(VALID / "canivore_ids_reused_across_buses")
    assert config.module("frontleft").encoder.canbus == "canivore"


def test_no_encoder_needs_no_offset() -> None:
    config = load_directory(VALID / "no_encoder")
    assert config.module("backright").encoder.type == "none"
    assert config.module("backright").absolute_encoder_offset_deg == 0.0


def test_duplicate_module_names_rejected(tmp_path: object) -> None:
    import json
    import shutil
    from pathlib import Path

    target = Path(str(tmp_path)) / "swerve"
    shutil.copytree(DEPLOY / "swerve", target)
    drive = json.loads((target / "swervedrive.json").read_text())
    drive["modules"] = ["frontleft.json", "frontright.json", "frontleft"]
    (target / "swervedrive.json").write_text(json.dumps(drive))
    with pytest.raises(ConfigError, match="listed twice"):
        load_directory(target)


def test_importing_config_imports_no_wpilib_or_vendor() -> None:
    code = (
        "import sys, swervelib, swervelib.config;"
        "swervelib.config.load_directory(sys.argv[1]);"
        "bad=[m for m in sys.modules if m.split('.')[0] in "
        "('wpilib','wpimath','ntcore','hal','rev','phoenix6','phoenix5','navx')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(DEPLOY / "swerve")],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
