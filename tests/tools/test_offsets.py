"""offsets --add: every absoluteEncoderOffset plus N degrees, in the folder's own convention, exact,
encoder `none` skipped."""

from __future__ import annotations

import json
import re
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swervelib.config import load_directory
from swervelib.tools.edit import EditError
from swervelib.tools.offsets import MEMORY, add_to_offsets, wrap_degrees
from tests.tools import VALID, check_crash_at_every_step, copy_config, everything, snapshot

# deploy/swerve: frontleft 12.3, frontright 287.1, backleft 184.6, backright 45.0
SIGNED_PLUS_180 = {"frontleft": -167.7, "frontright": 107.1, "backleft": 4.6, "backright": -135.0}
UNSIGNED_PLUS_180 = {"frontleft": 192.3, "frontright": 107.1, "backleft": 4.6, "backright": 225.0}
NAMES = ("frontleft", "frontright", "backleft", "backright")


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
    ("wrap", "expected", "how"),
    [
        ("keep", UNSIGNED_PLUS_180, ", kept in [0°, 360°) like the folder's"),
        ("signed", SIGNED_PLUS_180, " in (−180°, 180°]"),
        ("unsigned", UNSIGNED_PLUS_180, " in [0°, 360°)"),
    ],
)
def test_add_180(tmp_path: Path, wrap: str, expected: dict[str, float], how: str) -> None:
    directory = copy_config(tmp_path)
    before = snapshot(directory)
    result = add_to_offsets(directory, 180, wrap=wrap)  # type: ignore[arg-type]
    config = load_directory(directory)
    assert {m.name: m.absolute_encoder_offset_deg for m in config.modules} == expected
    assert result.summary.startswith(f"offsets +180°{how}: 4 fields in 4 files (backup: ")
    after = snapshot(directory)
    for name, value in expected.items():
        file = f"modules/{name}.json"
        old_value = json.loads(before[file])["absoluteEncoderOffset"]
        old_line = f'"absoluteEncoderOffset": {old_value!r},'.encode()
        assert after[file] == before[file].replace(
            old_line, f'"absoluteEncoderOffset": {value!r},'.encode()
        )
    assert after["swervedrive.json"] == before["swervedrive.json"]


def write_offsets(directory: Path, offsets: dict[str, str]) -> None:
    """Set each module's absoluteEncoderOffset to the JSON text given (module name → text)."""
    for name, text in offsets.items():
        file = directory / "modules" / f"{name}.json"
        file.write_text(
            re.sub(
                r'"absoluteEncoderOffset": [^,]*,',
                f'"absoluteEncoderOffset": {text},',
                file.read_text(),
            )
        )


def offsets_of(directory: Path) -> dict[str, float]:
    return {m.name: m.absolute_encoder_offset_deg for m in load_directory(directory).modules}


def test_a_folder_with_negative_offsets_stays_signed(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    write_offsets(
        directory,
        {"frontleft": "-10.5", "frontright": "170.25", "backleft": "90", "backright": "0"},
    )
    before = snapshot(directory)
    result = add_to_offsets(directory, 180)
    assert result.summary.startswith("offsets +180°, kept in (−180°, 180°] like the folder's")
    assert offsets_of(directory) == {
        "frontleft": 169.5,
        "frontright": -9.75,
        "backleft": -90,
        "backright": 180.0,
    }
    add_to_offsets(directory, 180)
    assert snapshot(directory) == before


def test_a_folder_that_follows_neither_convention_is_written_unsigned(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    write_offsets(
        directory, {"frontleft": "-10", "frontright": "270", "backleft": "400", "backright": "0"}
    )
    result = add_to_offsets(directory, 180)
    assert result.summary.startswith(
        "offsets +180° in [0°, 360°) (the folder's offsets follow neither convention)"
    )
    assert offsets_of(directory) == {
        "frontleft": 170,
        "frontright": 90,
        "backleft": 220,
        "backright": 180,
    }


def test_a_signed_folder_whose_sum_reads_either_way_is_remembered(tmp_path: Path) -> None:
    """Signed offsets all at most 0 give, after +180, offsets all in [0°, 180°]: a note in the
    folder says they are signed, so that the next +180 gives the very numbers back."""
    directory = copy_config(tmp_path)
    start = {"frontleft": "-10.5", "frontright": "-179.75", "backleft": "0", "backright": "-90"}
    write_offsets(directory, start)
    before = snapshot(directory)
    add_to_offsets(directory, 180)
    assert offsets_of(directory) == {
        "frontleft": 169.5,
        "frontright": 0.25,
        "backleft": 180,
        "backright": 90,
    }
    assert (directory / MEMORY).is_file()
    add_to_offsets(directory, 180)
    assert snapshot(directory) == before and not (directory / MEMORY).exists()
    # the note counts only for the offsets it was written with
    add_to_offsets(directory, 180)
    write_offsets(directory, {"frontleft": "169.6"})  # a person changed one meanwhile
    add_to_offsets(directory, 180)
    assert offsets_of(directory)["frontleft"] == 349.6  # [0°, 360°): the folder reads unsigned
    assert not (directory / MEMORY).exists()


def test_sums_are_exact_decimals(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    write_offsets(directory, {"frontleft": "12.345678901234", "frontright": "0.1"})
    before = snapshot(directory)
    add_to_offsets(directory, 180)
    text = (directory / "modules" / "frontleft.json").read_text()
    assert '"absoluteEncoderOffset": 192.345678901234,' in text
    assert '"absoluteEncoderOffset": 180.1,' in (directory / "modules/frontright.json").read_text()
    add_to_offsets(directory, 180)
    assert snapshot(directory) == before


def test_add_180_twice_returns_the_same_angles(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = snapshot(directory)
    add_to_offsets(directory, 180, wrap="signed")
    add_to_offsets(directory, 180, wrap="signed")
    after = snapshot(directory)
    # offsets already in (-180, 180] come back as the same text; the others as the same angle
    assert after["modules/frontleft.json"] == before["modules/frontleft.json"]
    assert after["modules/backright.json"] == before["modules/backright.json"]
    config = load_directory(directory)
    assert config.module("frontright").absolute_encoder_offset_deg == -72.9  # 287.1 - 360
    assert config.module("backleft").absolute_encoder_offset_deg == -175.4  # 184.6 - 360
    add_to_offsets(directory, 0, wrap="unsigned")
    assert snapshot(directory) == before  # every original offset was in [0, 360)


def _offset_text(units: int, decimals: int) -> str:
    """A number as a person or the tools write it: ``12.3``, ``90``, ``-0.5``."""
    value = Decimal(units).scaleb(-decimals)
    return str(units) if decimals == 0 else repr(float(value))


_NUMBERS = st.integers(0, 6).flatmap(
    lambda decimals: st.tuples(st.integers(0, 360 * 10**decimals - 1), st.just(decimals))
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    signed=st.booleans(),
    numbers=st.lists(_NUMBERS, min_size=4, max_size=4),
)
def test_plus_180_twice_gives_the_numbers_back_in_either_convention(
    signed: bool, numbers: list[tuple[int, int]]
) -> None:
    """Whatever offsets a folder holds in [0°, 360°) or in (−180°, 180°], +180 keeps them in the
    folder's range, and +180 again gives back the very same files."""
    texts = []
    for units, decimals in numbers:
        if signed:  # (−180, 180]: shift [0, 360) down by half a turn, then up by one unit
            units = units - 180 * 10**decimals + 1
        texts.append(_offset_text(units, decimals))
    with tempfile.TemporaryDirectory() as scratch:
        directory = copy_config(Path(scratch))
        write_offsets(directory, dict(zip(NAMES, texts, strict=True)))
        start = offsets_of(directory)
        before = snapshot(directory)
        convention = "signed" if any(v < 0 for v in start.values()) else "unsigned"
        add_to_offsets(directory, 180)
        low, high = (-180.0, 180.0) if convention == "signed" else (0.0, 360.0)
        for name, value in offsets_of(directory).items():
            assert (low < value <= high) if convention == "signed" else (low <= value < high), (
                name,
                value,
                start,
            )
        add_to_offsets(directory, 180)
        assert snapshot(directory) == before


def test_whole_numbers_stay_whole(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    file = directory / "modules" / "frontleft.json"
    file.write_text(
        file.read_text().replace('"absoluteEncoderOffset": 12.3', '"absoluteEncoderOffset": 90')
    )
    add_to_offsets(directory, 180, wrap="signed")
    assert '"absoluteEncoderOffset": -90,' in file.read_text()
    add_to_offsets(directory, -90.5, wrap="unsigned")
    assert '"absoluteEncoderOffset": 179.5,' in file.read_text()


def test_modules_without_encoder_are_skipped(tmp_path: Path) -> None:
    directory = copy_config(tmp_path, VALID / "no_encoder")
    before = snapshot(directory)
    result = add_to_offsets(directory, 180)
    assert result.summary.startswith(
        "offsets +180°, kept in [0°, 360°) like the folder's: 3 fields in 3 files"
    )
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
    assert '+  "absoluteEncoderOffset": 192.3,' in result.diff
    assert '-  "absoluteEncoderOffset": 12.3,' in result.diff


def test_kill_at_every_step_of_offsets(tmp_path: Path) -> None:
    check_crash_at_every_step(
        lambda name: copy_config(tmp_path, name=name),
        lambda directory, hook: add_to_offsets(directory, 180, fault_hook=hook),
    )
