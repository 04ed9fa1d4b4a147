"""offsets --add: every absoluteEncoderOffset plus N degrees, wrapped, encoder `none` skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from swervelib.config import load_directory
from swervelib.tools.edit import EditError
from swervelib.tools.offsets import add_to_offsets, wrap_degrees
from tests.tools import VALID, check_crash_at_every_step, copy_config, everything, snapshot

# deploy/swerve: frontleft 12.3, frontright 287.1, backleft 184.6, backright 45.0
SIGNED_PLUS_180 = {"frontleft": -167.7, "frontright": 107.1, "backleft": 4.6, "backright": -135.0}
UNSIGNED_PLUS_180 = {"frontleft": 192.3, "frontright": 107.1, "backleft": 4.6, "backright": 225.0}


@pytest.mark.parametrize(
    ("value", "signed", "unsigned"),
    [
        (0.0, 0.0, 0.0),
        (180.0, 180.0, 180.0),
        (-180.0, 180.0, 180.0),
        (180.000001, -179.999999, 180.000001),
        (-179.5, -179.5, 180.5),
        (360.0, 0.0, 0.0),
        (-360.0, 0.0, 0.0),
        (540.0, 180.0, 180.0),
        (12.3 + 180, -167.7, 192.3),
        (-1e-12, 0.0, 0.0),
        (359.9999999999, 0.0, 0.0),
        (725.25, 5.25, 5.25),
        (-0.0, 0.0, 0.0),
    ],
)
def test_wrap_degrees(value: float, signed: float, unsigned: float) -> None:
    assert wrap_degrees(value) == signed
    assert wrap_degrees(value, "signed") == signed
    assert wrap_degrees(value, "unsigned") == unsigned
    assert -180 < wrap_degrees(value) <= 180 and 0 <= wrap_degrees(value, "unsigned") < 360
    assert str(wrap_degrees(value)) != "-0.0"


def test_wrap_degrees_refuses_nonsense() -> None:
    with pytest.raises(EditError, match="finite"):
        wrap_degrees(float("inf"))
    with pytest.raises(EditError, match="unknown wrap"):
        wrap_degrees(1.0, "both")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("wrap", "expected"), [("signed", SIGNED_PLUS_180), ("unsigned", UNSIGNED_PLUS_180)]
)
def test_add_180(tmp_path: Path, wrap: str, expected: dict[str, float]) -> None:
    directory = copy_config(tmp_path)
    before = snapshot(directory)
    result = add_to_offsets(directory, 180, wrap=wrap)  # type: ignore[arg-type]
    config = load_directory(directory)
    assert {m.name: m.absolute_encoder_offset_deg for m in config.modules} == expected
    assert result.summary.startswith(f"offsets +180° ({wrap}): 4 fields in 4 files (backup: ")
    after = snapshot(directory)
    for name, value in expected.items():
        file = f"modules/{name}.json"
        old_value = json.loads(before[file])["absoluteEncoderOffset"]
        old_line = f'"absoluteEncoderOffset": {old_value!r},'.encode()
        assert after[file] == before[file].replace(
            old_line, f'"absoluteEncoderOffset": {value!r},'.encode()
        )
    assert after["swervedrive.json"] == before["swervedrive.json"]


def test_add_180_twice_returns_the_same_angles(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = snapshot(directory)
    add_to_offsets(directory, 180)
    add_to_offsets(directory, 180)
    after = snapshot(directory)
    # offsets already in (-180, 180] come back as the same text; the others as the same angle
    assert after["modules/frontleft.json"] == before["modules/frontleft.json"]
    assert after["modules/backright.json"] == before["modules/backright.json"]
    config = load_directory(directory)
    assert config.module("frontright").absolute_encoder_offset_deg == -72.9  # 287.1 - 360
    assert config.module("backleft").absolute_encoder_offset_deg == -175.4  # 184.6 - 360
    add_to_offsets(directory, 0, wrap="unsigned")
    assert snapshot(directory) == before  # every original offset was in [0, 360)


def test_whole_numbers_stay_whole(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    file = directory / "modules" / "frontleft.json"
    file.write_text(
        file.read_text().replace('"absoluteEncoderOffset": 12.3', '"absoluteEncoderOffset": 90')
    )
    add_to_offsets(directory, 180)
    assert '"absoluteEncoderOffset": -90,' in file.read_text()
    add_to_offsets(directory, -90.5, wrap="unsigned")
    assert '"absoluteEncoderOffset": 179.5,' in file.read_text()


def test_modules_without_encoder_are_skipped(tmp_path: Path) -> None:
    directory = copy_config(tmp_path, VALID / "no_encoder")
    before = snapshot(directory)
    result = add_to_offsets(directory, 180)
    assert result.summary.startswith("offsets +180° (signed): 3 fields in 3 files")
    assert snapshot(directory)["modules/backright.json"] == before["modules/backright.json"]
    assert {c.file for c in result.changes} == {
        "modules/frontleft.json",
        "modules/frontright.json",
        "modules/backleft.json",
    }


def test_refuses_bad_input(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    with pytest.raises(EditError, match="finite"):
        add_to_offsets(directory, float("nan"))
    with pytest.raises(EditError, match="must be a number"):
        add_to_offsets(directory, "180")  # type: ignore[arg-type]
    with pytest.raises(EditError, match="unknown wrap"):
        add_to_offsets(directory, 180, wrap="around")  # type: ignore[arg-type]
    with pytest.raises(EditError, match="does not exist"):
        add_to_offsets(directory / "nothere", 180)
    file = directory / "modules" / "backleft.json"
    file.write_text(file.read_text().replace('"absoluteEncoderOffset": 184.6,', ""))
    with pytest.raises(EditError, match=r"modules/backleft\.json: no absoluteEncoderOffset"):
        add_to_offsets(directory, 180)
    file.write_bytes(before["modules/backleft.json"])
    assert everything(directory) == before


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    result = add_to_offsets(directory, 180, dry_run=True)
    assert everything(directory) == before
    assert not result.written
    assert '+  "absoluteEncoderOffset": -167.7,' in result.diff
    assert '-  "absoluteEncoderOffset": 12.3,' in result.diff


def test_kill_at_every_step_of_offsets(tmp_path: Path) -> None:
    check_crash_at_every_step(
        lambda name: copy_config(tmp_path, name=name),
        lambda directory, hook: add_to_offsets(directory, 180, fault_hook=hook),
    )
