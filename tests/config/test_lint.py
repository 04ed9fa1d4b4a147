"""Layout lint warnings from `check` (issue 6 item 5)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from swervelib.config import ConfigError, Severity, load_directory
from tests.conftest import DEPLOY, REPO


def copy(tmp_path: Path) -> Path:
    target = tmp_path / "swerve"
    shutil.copytree(DEPLOY / "swerve", target)
    return target


def edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def warnings(directory: Path) -> list[str]:
    config = load_directory(directory)
    assert all(p.severity is Severity.WARNING for p in config.warnings)
    return [p.format() for p in config.warnings]


def test_reference_configurations_have_no_lint() -> None:
    for directory in DEPLOY.iterdir():
        assert warnings(directory) == [], directory


def test_location_sign_contradicting_the_name(tmp_path: Path) -> None:
    directory = copy(tmp_path)
    # frontleft and frontright have each other's location (a common mix-up)
    edit(directory / "modules/frontright.json", lambda d: d["location"].update(left=10.75))
    edit(directory / "modules/frontleft.json", lambda d: d["location"].update(left=-10.75))
    found = warnings(directory)
    assert any(
        w.startswith("modules/frontright.json:") and "location.left" in w and "named right" in w
        for w in found
    ), found
    assert any(w.startswith("modules/frontleft.json:") and "named left" in w for w in found)
    assert len(found) == 2, found


def test_asymmetric_layout(tmp_path: Path) -> None:
    directory = copy(tmp_path)
    edit(directory / "modules/backright.json", lambda d: d["location"].update(front=-8.0))
    found = warnings(directory)
    assert any("not symmetric" in w and "front 2.75 in" in w for w in found), found


def test_can_id_shared_by_different_kinds_and_high_ids(tmp_path: Path) -> None:
    directory = copy(tmp_path)
    edit(directory / "modules/frontleft.json", lambda d: d["encoder"].update(id=1))
    edit(directory / "modules/backright.json", lambda d: d["drive"].update(id=45))
    found = warnings(directory)
    assert any("encoder.id" in w and "also used by the motor controller" in w for w in found)
    assert any("drive.id" in w and "above 40" in w for w in found), found


def test_offset_outside_a_turn(tmp_path: Path) -> None:
    directory = copy(tmp_path)
    edit(directory / "modules/frontleft.json", lambda d: d.update(absoluteEncoderOffset=400.0))
    found = warnings(directory)
    assert any("absoluteEncoderOffset" in w and "outside ±360°" in w for w in found), found


def test_check_prints_lint_and_still_succeeds(tmp_path: Path) -> None:
    directory = copy(tmp_path)
    edit(directory / "modules/frontright.json", lambda d: d["location"].update(left=10.75))
    edit(directory / "modules/frontleft.json", lambda d: d["location"].update(left=-10.75))
    result = subprocess.run(
        [sys.executable, "-m", "swervelib", "check", str(directory)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert result.returncode == 0
    assert "warning:" in result.stdout and "named right" in result.stdout


def _own_factors(angle_ratio: float, drive_ratio: float, diameter: float) -> dict[str, Any]:
    return {
        "angle": {"gearRatio": angle_ratio},
        "drive": {"gearRatio": drive_ratio, "diameter": diameter},
    }


def test_one_module_with_a_lost_digit_is_named(tmp_path: Path) -> None:
    directory = copy(tmp_path)
    for name in ("frontleft", "frontright", "backleft"):
        edit(
            directory / "modules" / f"{name}.json",
            lambda d: d.__setitem__("conversionFactors", _own_factors(21.43, 6.75, 4)),
        )
    edit(  # 67.5 for 6.75
        directory / "modules" / "backright.json",
        lambda d: d.__setitem__("conversionFactors", _own_factors(21.43, 67.5, 4)),
    )
    found = [w for w in warnings(directory) if "lost or extra digit" in w]
    assert len(found) == 1, found
    assert found[0].startswith("modules/backright.json:")
    assert "drive gear ratio of 67.5 while the other modules have 6.75" in found[0]


def test_matching_modules_and_a_small_difference_are_not_outliers(tmp_path: Path) -> None:
    directory = copy(tmp_path)
    for name, diameter in (
        ("frontleft", 4),
        ("frontright", 3.9),
        ("backleft", 4),
        ("backright", 4),
    ):
        edit(
            directory / "modules" / f"{name}.json",
            lambda d, diameter=diameter: d.__setitem__(
                "conversionFactors", _own_factors(21.43, 6.75, diameter)
            ),
        )
    assert [w for w in warnings(directory) if "lost or extra digit" in w] == []


def test_motor_and_encoder_sharing_a_can_id_is_a_warning(tmp_path: Path) -> None:
    directory = copy(tmp_path)
    edit(directory / "modules" / "frontleft.json", lambda d: d["encoder"].__setitem__("id", 1))
    found = [w for w in warnings(directory) if "CAN id 1 is also used" in w]
    assert found and found[0].startswith("modules/frontleft.json:"), warnings(directory)


def _load_problems(directory: Path) -> list[str]:
    try:
        load_directory(directory)
    except ConfigError as error:
        return [p.format() for p in error.problems]
    return []


def test_a_spark_and_a_talon_may_share_a_can_id(tmp_path: Path) -> None:
    # A CAN frame names its maker and device kind, so real robots (tests/corpus) mix a Talon FX
    # drive at id 10 with a Spark MAX angle at id 10.
    directory = copy(tmp_path)
    edit(
        directory / "modules" / "frontleft.json",
        lambda d: d["drive"].update({"type": "krakenx60", "id": 2}),
    )
    front_left = json.loads((directory / "modules" / "frontleft.json").read_text())
    assert front_left["angle"]["id"] == 2 and front_left["angle"]["type"].startswith("sparkmax")
    assert _load_problems(directory) == []
    found = [w for w in warnings(directory) if "CAN id 2 is also used" in w]
    assert found == [
        "modules/frontleft.json: angle.id: warning: CAN id 2 is also used by the motor controller "
        "in modules/frontleft.json `drive` (allowed for different device kinds, but easy to mix up)"
    ]


def test_two_sparks_on_one_can_id_are_an_error(tmp_path: Path) -> None:
    directory = copy(tmp_path)
    edit(directory / "modules" / "frontleft.json", lambda d: d["drive"].update({"id": 2}))
    (problem,) = _load_problems(directory)
    assert "angle.id: CAN id 2 on bus `rio` (REV) is used by two motor controllers" in problem
