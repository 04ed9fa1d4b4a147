"""migrate: older YAGSL folders to the current format, each change explained, nothing invented."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from swervelib.config import ConfigError, Problem, load_directory
from swervelib.tools.edit import EditError
from swervelib.tools.migrate import MigrationStep, added_errors, migrate, plan
from tests.conftest import DEPLOY
from tests.tools import backups, check_crash_at_every_step, copy_config, everything, snapshot
from tests.tools.legacy_folders import (
    ANGLE_FACTOR,
    DRIVE,
    DRIVE_FACTOR,
    MODULES,
    PHYSICAL,
    current,
    module,
    replace_key,
    season_2023,
    season_2024,
    write,
)


def _read(directory: Path, relative: str) -> Any:
    return json.loads((directory / relative).read_bytes())


def _lines(steps: tuple[MigrationStep, ...] | list[MigrationStep]) -> list[str]:
    return [step.format() for step in steps]


def _step(steps: tuple[MigrationStep, ...], file: str, field: str) -> MigrationStep:
    (found,) = [s for s in steps if (s.file, s.field) == (file, field)]
    return found


def _conversions(directory: Path) -> list[tuple[float, float]]:
    config = load_directory(directory)
    return [
        (m.conversion.angle_deg_per_rotation, m.conversion.drive_m_per_rotation)
        for m in config.modules
    ]


# -- conversionFactor (2024) -------------------------------------------------------------------------


def test_2024_conversion_factor_becomes_conversion_factors_in_place(tmp_path: Path) -> None:
    directory = write(tmp_path / "old", season_2024())
    with pytest.raises(ConfigError, match="migrate"):
        load_directory(directory)
    result = migrate(directory)
    assert result.changed and result.remaining == ()
    physical = _read(directory, PHYSICAL)
    assert physical["conversionFactors"] == {
        "drive": {"factor": DRIVE_FACTOR},
        "angle": {"factor": ANGLE_FACTOR},
    }
    assert "conversionFactor" not in physical
    assert next(iter(physical)) == "conversionFactors"  # where the old key was
    reference = _conversions(copy_config(tmp_path))
    assert _conversions(directory) == [pytest.approx(pair) for pair in reference]
    step = _step(result.steps, PHYSICAL, "conversionFactor")
    assert step.format().startswith(
        "modules/physicalproperties.json: conversionFactor: moved to conversionFactors "
        f"(angle.factor {ANGLE_FACTOR!r}°/motor rotation, drive.factor {DRIVE_FACTOR!r} m/motor "
        "rotation): the pre-2024.5 format"
    )


def test_zero_or_null_old_values_are_not_written_and_what_is_missing_is_said(
    tmp_path: Path,
) -> None:
    directory = write(tmp_path / "old", season_2024(drive=DRIVE_FACTOR, angle=None))
    result = migrate(directory)
    assert _read(directory, PHYSICAL)["conversionFactors"] == {"drive": {"factor": DRIVE_FACTOR}}
    explanation = _step(result.steps, PHYSICAL, "conversionFactor").explanation
    assert "still missing: the angle conversion (conversionFactors.angle.gearRatio" in explanation
    # the folder did not load before and does not now: written anyway, the rest listed
    assert result.edit is not None and result.edit.written
    assert {(p.file, p.field) for p in result.remaining} == {
        (module(name), "conversionFactors.angle") for name in MODULES
    }


def test_nothing_is_said_missing_in_physicalproperties_when_no_module_needs_it(
    tmp_path: Path,
) -> None:
    files = season_2024(drive=DRIVE_FACTOR, angle=0)
    for name in MODULES:
        files[module(name)]["conversionFactors"] = current()[PHYSICAL]["conversionFactors"]
    directory = write(tmp_path / "old", files)
    result = migrate(directory)
    explanation = _step(result.steps, PHYSICAL, "conversionFactor").explanation
    assert explanation.startswith("moved to conversionFactors (drive.factor ")
    assert "missing" not in explanation and result.remaining == ()


def test_merge_never_overwrites_and_skips_a_conversion_already_given(tmp_path: Path) -> None:
    files = season_2024(drive=0.05, angle=99.0)
    files[PHYSICAL] = {
        "conversionFactors": {"angle": {"gearRatio": 21.4}, "drive": {"diameter": 4}},
        **files[PHYSICAL],
    }
    directory = write(tmp_path / "old", files)
    result = migrate(directory)
    assert _read(directory, PHYSICAL)["conversionFactors"] == {
        "angle": {"gearRatio": 21.4},  # not given 99 as a factor: the angle was already there
        "drive": {"diameter": 4, "factor": 0.05},
    }
    explanation = _step(result.steps, PHYSICAL, "conversionFactor").explanation
    assert "conversionFactor.angle 99.0 not copied: conversionFactors already gives the angle" in (
        explanation
    )


def test_working_conversion_factors_make_the_old_key_stale(tmp_path: Path) -> None:
    files = current()
    files[PHYSICAL] = {**files[PHYSICAL], "conversionFactor": {"drive": 0.9, "angle": 360}}
    directory = write(tmp_path / "old", files)
    before = _read(directory, PHYSICAL)["conversionFactors"]
    result = migrate(directory)
    physical = _read(directory, PHYSICAL)
    assert "conversionFactor" not in physical and physical["conversionFactors"] == before
    assert _step(result.steps, PHYSICAL, "conversionFactor").explanation.startswith(
        "removed: stale, conversionFactors already gives both conversions"
    )


def test_module_conversion_factor_becomes_the_module_s_own(tmp_path: Path) -> None:
    files = season_2024()  # physicalproperties.json has only the older key too
    files[module("frontleft")]["conversionFactor"] = {"drive": 0, "angle": 0}
    files[module("frontright")]["conversionFactor"] = {"drive": 0.05, "angle": 12.5}
    files[module("backleft")]["conversionFactor"] = {"drive": 0, "angle": 12.5}
    directory = write(tmp_path / "old", files)
    result = migrate(directory)
    assert "conversionFactor" not in _read(directory, module("frontleft"))
    assert "conversionFactors" not in _read(directory, module("frontleft"))
    assert _read(directory, module("frontright"))["conversionFactors"] == {
        "drive": {"factor": 0.05},
        "angle": {"factor": 12.5},
    }
    assert _read(directory, module("backleft"))["conversionFactors"] == {"angle": {"factor": 12.5}}
    config = load_directory(directory)
    assert config.module("frontright").conversion.angle_deg_per_rotation == 12.5
    assert config.module("frontleft").conversion.angle_deg_per_rotation == pytest.approx(16.8)
    lines = "\n".join(_lines(result.steps))
    assert "modules/frontleft.json: conversionFactor: removed: all 0, which meant 'use " in lines
    assert "drive still missing here: a module's conversionFactors must give both" in lines


def test_module_conversion_factor_beside_working_physical_factors_is_stale(
    tmp_path: Path,
) -> None:
    """YAGSL 2025+ and the loader ignore it there (the loader's warning says migrate removes it):
    removing it keeps what the robot does, and the line says what it held."""
    files = current()
    files[module("frontright")]["conversionFactor"] = {"drive": 0.05, "angle": 12.5}
    directory = write(tmp_path / "old", files)
    before = _conversions(directory)
    warnings = [w.field for w in load_directory(directory).warnings]
    assert "conversionFactor" in warnings
    result = migrate(directory)
    assert _read(directory, module("frontright")) == current()[module("frontright")]
    assert _conversions(directory) == before
    assert _step(result.steps, module("frontright"), "conversionFactor").explanation == (
        "removed: stale, modules/physicalproperties.json's conversionFactors gives this module's "
        "conversions (the pre-2024.5 format, which YAGSL 2025+ and swervelib ignore); it said "
        "drive 0.05, angle 12.5: to keep that as this module's own, set it in this file's "
        "conversionFactors (angle and drive)"
    )


MIXED_NOTE = (
    "this module's conversionFactors mixes factor with gearRatio/diameter, which YAGSL 2025+ and "
    "the loader ignore beside a modules/physicalproperties.json conversionFactors that works: a "
    "module's override needs both factors, or all of drive gearRatio and diameter and angle "
    "gearRatio"
)


def test_a_module_s_mixed_conversion_factors_is_said_beside_a_stale_old_key(
    tmp_path: Path,
) -> None:
    """A module's conversionFactors giving the angle by factor and the drive by gear ratio gives
    both conversions but is not an override YAGSL accepts: removing the old key says so."""
    files = current()
    files[module("frontright")]["conversionFactors"] = {
        "angle": {"factor": 16.8},
        "drive": {"gearRatio": 6.75, "diameter": 4},
    }
    files[module("frontright")]["conversionFactor"] = {"drive": 0.05, "angle": 12.5}
    directory = write(tmp_path / "old", files)
    result = migrate(directory)
    assert "conversionFactor" not in _read(directory, module("frontright"))
    assert _step(result.steps, module("frontright"), "conversionFactor").explanation == (
        "removed: stale, conversionFactors already gives both conversions (the pre-2024.5 "
        f"format, which YAGSL 2025+ and swervelib ignore); {MIXED_NOTE}"
    )


def test_an_old_key_moved_into_a_mixed_module_override_says_it_may_be_ignored(
    tmp_path: Path,
) -> None:
    """Moving the old angle factor beside a drive given by gear ratio makes a mix, which the
    loader ignores (with a warning) once physicalproperties.json's works: the step says so."""
    files = season_2024()
    files[module("frontright")]["conversionFactors"] = {"drive": {"gearRatio": 6.75, "diameter": 4}}
    files[module("frontright")]["conversionFactor"] = {"drive": 0.05, "angle": 12.5}
    directory = write(tmp_path / "old", files)
    result = migrate(directory)
    assert _read(directory, module("frontright"))["conversionFactors"] == {
        "drive": {"gearRatio": 6.75, "diameter": 4},
        "angle": {"factor": 12.5},
    }
    explanation = _step(result.steps, module("frontright"), "conversionFactor").explanation
    assert explanation.endswith(MIXED_NOTE), explanation
    config = load_directory(directory)
    assert config.module("frontright").conversion == config.module("frontleft").conversion
    assert any(
        "a mix YAGSL does not accept" in w.message
        for w in config.warnings
        if w.file == module("frontright")
    )


def test_unknown_members_of_the_old_object_are_kept_in_conversion_factors(tmp_path: Path) -> None:
    files = season_2024()
    files[PHYSICAL]["conversionFactor"] = {
        "angle": ANGLE_FACTOR,
        "note": "from CAD",
        "drive": DRIVE_FACTOR,
        "history": [16.8, {"by": "Sam"}],
    }
    directory = write(tmp_path / "old", files)
    result = migrate(directory)
    assert result.changed and result.remaining == ()
    factors = _read(directory, PHYSICAL)["conversionFactors"]
    assert factors == {
        "angle": {"factor": ANGLE_FACTOR},
        "note": "from CAD",
        "drive": {"factor": DRIVE_FACTOR},
        "history": [16.8, {"by": "Sam"}],
    }
    assert list(factors) == ["angle", "note", "drive", "history"]  # in their places
    assert _step(result.steps, PHYSICAL, "conversionFactor").explanation.endswith(
        "; conversionFactor.note, conversionFactor.history kept in conversionFactors (unknown to "
        "YAGSL, which ignores them there too)"
    )
    config = load_directory(directory)  # loads, the unknown keys only warned about
    assert {(w.field, w.message) for w in config.warnings} >= {
        ("conversionFactors.note", f"unknown key `note` in {PHYSICAL} (ignored)"),
        ("conversionFactors.history", f"unknown key `history` in {PHYSICAL} (ignored)"),
    }
    after = everything(directory)
    assert not migrate(directory).changed and everything(directory) == after


def test_unknown_members_of_a_stale_old_object_are_kept(tmp_path: Path) -> None:
    files = current()
    files[PHYSICAL]["conversionFactor"] = {"drive": 0.9, "angle": 360, "note": "old robot"}
    files[module("frontright")]["conversionFactor"] = {"drive": 0.05, "angle": 0, "src": "CAD"}
    directory = write(tmp_path / "old", files)
    before = _read(directory, PHYSICAL)["conversionFactors"]
    result = migrate(directory)
    physical = _read(directory, PHYSICAL)
    assert "conversionFactor" not in physical
    assert physical["conversionFactors"] == {**before, "note": "old robot"}
    assert list(physical["conversionFactors"])[-1] == "note"
    frontright = _read(directory, module("frontright"))
    assert "conversionFactor" not in frontright
    assert frontright["conversionFactors"] == {"src": "CAD"}  # in the old key's place
    assert list(frontright) == [
        k if k != "conversionFactor" else "conversionFactors" for k in files[module("frontright")]
    ]
    assert _step(result.steps, module("frontright"), "conversionFactor").explanation.endswith(
        "it said drive 0.05: to keep that as this module's own, set it in this file's "
        "conversionFactors (angle and drive); conversionFactor.src kept in conversionFactors "
        "(unknown to YAGSL, which ignores it there too)"
    )
    assert "conversionFactor.note kept in conversionFactors" in (
        _step(result.steps, PHYSICAL, "conversionFactor").explanation
    )
    assert load_directory(directory).module("frontright").conversion == (
        load_directory(copy_config(tmp_path)).module("frontright").conversion
    )


@pytest.mark.parametrize(
    ("factors", "member", "why"),
    [
        (
            {"note": "current"},
            "from CAD",
            "conversionFactor.note cannot be kept in conversionFactors, which already has a `note`",
        ),
        (5, "from CAD", "conversionFactor.note cannot be kept in conversionFactors, which is 5"),
        (
            None,
            float("nan"),
            "conversionFactor.note cannot be written back exactly (NaN, Infinity or a huge "
            "integer)",
        ),
    ],
)
def test_an_old_object_whose_unknown_members_have_nowhere_to_go_is_left_alone(
    tmp_path: Path, factors: Any, member: Any, why: str
) -> None:
    files = season_2024()
    files[PHYSICAL] = {
        "conversionFactors": factors,
        **files[PHYSICAL],
    }
    files[PHYSICAL]["conversionFactor"]["note"] = member
    directory = write(tmp_path / "old", files)
    before = everything(directory)
    (step,) = plan(directory)
    assert (step.file, step.field, step.changes) == (PHYSICAL, "conversionFactor", False)
    assert step.explanation == (
        f"left alone: {why}, and nothing of conversionFactor is dropped; rename or move it by "
        "hand, then run migrate again"
    )
    result = migrate(directory)
    assert not result.changed and everything(directory) == before


def test_an_old_angle_factor_of_360_is_copied_with_a_warning(tmp_path: Path) -> None:
    directory = write(tmp_path / "old", season_2024(angle=360))
    result = migrate(directory)
    assert _read(directory, PHYSICAL)["conversionFactors"]["angle"] == {"factor": 360}
    assert "check angle.factor 360: it means steering on the absolute encoder only with" in (
        _step(result.steps, PHYSICAL, "conversionFactor").explanation
    )


def test_out_of_range_old_values_are_not_copied(tmp_path: Path) -> None:
    directory = write(tmp_path / "old", season_2024(drive=5.0, angle=ANGLE_FACTOR))
    result = migrate(directory)
    assert _read(directory, PHYSICAL)["conversionFactors"] == {"angle": {"factor": ANGLE_FACTOR}}
    assert "conversionFactor.drive 5.0 not copied: out of range" in (
        _step(result.steps, PHYSICAL, "conversionFactor").explanation
    )


# -- the 2023 format ----------------------------------------------------------------------------------


def test_2023_folder(tmp_path: Path) -> None:
    directory = write(tmp_path / "old", season_2023())
    result = migrate(directory, max_speed_in_feet=True)
    physical = _read(directory, PHYSICAL)
    assert list(physical) == [
        "conversionFactors",
        "currentLimit",
        "rampRate",
        "wheelGripCoefficientOfFriction",
        "optimalVoltage",
    ]
    assert physical["conversionFactors"] == current()[PHYSICAL]["conversionFactors"]
    assert physical["optimalVoltage"] == 11.5
    drive = _read(directory, DRIVE)
    assert "optimalVoltage" not in drive and drive["maxSpeed"] == 4.4196
    for name in MODULES:
        assert _read(directory, module(name))["location"] == current()[module(name)]["location"]
    reference = copy_config(tmp_path)
    config = load_directory(directory)
    assert _conversions(directory) == _conversions(reference)
    assert config.max_speed_mps == pytest.approx(14.5 * 0.3048)
    assert [m.location for m in config.modules] == [
        m.location for m in load_directory(reference).modules
    ]
    fields = {(s.file, s.field) for s in result.steps}
    assert {
        (PHYSICAL, "wheelDiameter, gearRatio"),
        (PHYSICAL, "encoderPulsePerRotation"),
        (PHYSICAL, "moduleFeedForwardClosedLoop"),
        (DRIVE, "maxSpeed"),
        (DRIVE, "optimalVoltage"),
        (module("backright"), "location.x"),
        (module("backright"), "location.y"),
    } <= fields


def test_location_x_y_renamed_in_place_or_removed_when_stale(tmp_path: Path) -> None:
    files = current()
    files[module("frontleft")]["location"] = {"y": 10.75, "unknownKey": 1, "x": 10.75}
    files[module("frontright")]["location"] = {"front": 10.75, "left": -10.75, "x": 3, "y": 4}
    directory = write(tmp_path / "old", files)
    result = migrate(directory)
    assert list(_read(directory, module("frontleft"))["location"].items()) == [
        ("left", 10.75),
        ("unknownKey", 1),
        ("front", 10.75),
    ]
    assert _read(directory, module("frontright"))["location"] == {"front": 10.75, "left": -10.75}
    assert _step(result.steps, module("frontleft"), "location.x").explanation.startswith(
        "renamed to front (the same inches forward)"
    )
    assert _step(result.steps, module("frontright"), "location.y").explanation == (
        "removed: the 2023 name, ignored since location.left is set (y was 4, left is -10.75)"
    )


def test_max_speed_in_feet_is_flagged_not_converted_without_the_flag(tmp_path: Path) -> None:
    files = current()
    files[DRIVE]["maxSpeed"] = 14.5
    directory = write(tmp_path / "old", files)
    before = everything(directory)
    result = migrate(directory)
    assert not result.changed and everything(directory) == before
    (step,) = result.steps
    assert not step.changes
    assert step.format().startswith(
        "swervedrive.json: maxSpeed: left alone: swervelib reads metres per second and 14.5 m/s "
        "is faster than any swerve drive (over 7)"
    )
    assert "rerun with --max-speed-in-feet" in step.explanation
    converted = migrate(directory, max_speed_in_feet=True)
    assert converted.changed and _read(directory, DRIVE)["maxSpeed"] == 4.4196
    again = migrate(directory, max_speed_in_feet=True)  # 4.4196 is plausible m/s: not again
    assert not again.changed and _read(directory, DRIVE)["maxSpeed"] == 4.4196


@pytest.mark.parametrize("speed", [4.5, 7])
def test_a_plausible_max_speed_is_never_converted(tmp_path: Path, speed: float) -> None:
    files = current()
    files[DRIVE]["maxSpeed"] = speed
    directory = write(tmp_path / "old", files)
    assert plan(directory) == []
    result = migrate(directory, max_speed_in_feet=True)
    assert not result.changed and _read(directory, DRIVE)["maxSpeed"] == speed


def test_optimal_voltage_stale_or_moved_into_a_new_file(tmp_path: Path) -> None:
    files = current()
    files[DRIVE]["optimalVoltage"] = 11
    stale = write(tmp_path / "stale", files)
    result = migrate(stale)
    assert "optimalVoltage" not in _read(stale, DRIVE)
    assert _read(stale, PHYSICAL)["optimalVoltage"] == 12
    assert "which sets 12 V; this one said 11" in result.steps[0].explanation

    factors = files.pop(PHYSICAL)["conversionFactors"]
    for name in MODULES:  # each module gives its own conversion: no physicalproperties.json
        files[module(name)]["conversionFactors"] = factors
    created = write(tmp_path / "created", files)
    result = migrate(created)
    assert (created / PHYSICAL).read_text() == '{\n  "optimalVoltage": 11\n}\n'
    assert result.steps[0].explanation.startswith(
        "moved to modules/physicalproperties.json (11 V, a new file): YAGSL 2024+"
    )
    physical = load_directory(created).physical
    assert physical is not None and physical.optimal_voltage == 11


# -- the transaction ----------------------------------------------------------------------------------


def test_dry_run_changes_nothing_and_shows_the_diff(tmp_path: Path) -> None:
    directory = write(tmp_path / "old", season_2023())
    before = everything(directory)
    result = migrate(directory, dry_run=True)
    assert everything(directory) == before
    assert result.edit is not None and not result.edit.written and result.edit.backup is None
    assert '-    "x": 10.75,' in result.edit.diff.splitlines()
    assert result.edit.summary.endswith("(dry run, nothing written)")


def test_backup_holds_the_old_files(tmp_path: Path) -> None:
    directory = write(tmp_path / "old", season_2024())
    old = snapshot(directory)
    result = migrate(directory)
    assert result.edit is not None and result.edit.backup is not None
    (backup,) = backups(directory)
    assert (backup / PHYSICAL).read_bytes() == old[PHYSICAL]
    assert result.edit.summary.startswith("migrate: ")


def test_unknown_keys_key_order_and_formatting_are_kept(tmp_path: Path) -> None:
    files = season_2024()
    files[PHYSICAL] = {"zzUnknown": [1, 2], **files[PHYSICAL], "$schema": "x"}
    directory = write(tmp_path / "old", files, indent="\t")
    path = directory / PHYSICAL
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    migrate(directory)
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"\n" not in data.replace(b"\r\n", b"")
    text = data[3:].decode()
    assert '\r\n\t"conversionFactors": {\r\n\t\t"drive": {\r\n\t\t\t"factor": ' in text
    keys = list(json.loads(text))
    assert keys[:2] == ["zzUnknown", "conversionFactors"] and keys[-1] == "$schema"
    expected = [k if k != "conversionFactor" else "conversionFactors" for k in files[PHYSICAL]]
    assert keys == expected


def test_idempotent(tmp_path: Path) -> None:
    directory = write(tmp_path / "old", season_2023())
    assert migrate(directory, max_speed_in_feet=True).changed
    after = everything(directory)
    assert [s for s in plan(directory) if s.changes] == []
    again = migrate(directory, max_speed_in_feet=True)
    assert not again.changed and again.edit is None
    assert everything(directory) == after


def test_a_current_folder_has_nothing_to_do(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    result = migrate(directory)
    assert (result.steps, result.edit) == ((), None)
    assert everything(directory) == before


def test_other_problems_do_not_stop_the_migration(tmp_path: Path) -> None:
    files = season_2024()
    files[module("backleft")]["encoder"]["type"] = "bogus"
    directory = write(tmp_path / "old", files)
    result = migrate(directory)
    assert "conversionFactors" in _read(directory, PHYSICAL)
    assert [(p.file, p.field) for p in result.remaining] == [(module("backleft"), "encoder.type")]


def test_a_migration_that_would_add_an_error_writes_nothing(tmp_path: Path) -> None:
    files = current()
    files[module("frontleft")]["location"] = {"x": 10.75, "y": 10.75}
    files[module("backright")]["location"] = {"x": 10.75, "y": 10.75}  # same place once read
    directory = write(tmp_path / "old", files)
    before = everything(directory)
    with pytest.raises(EditError, match="refusing to write: the migrated folder would have") as e:
        migrate(directory)
    assert "same location as modules/frontleft.json" in str(e.value)
    assert everything(directory) == before


def test_added_errors() -> None:
    def error(file: str, field: str, message: str = "bad") -> Problem:
        return Problem(file, field, message)

    step = MigrationStep(
        PHYSICAL, "conversionFactor", "moved", (_set(PHYSICAL, "conversionFactors", {"a": 1}),)
    )
    old = (error("swervedrive.json", "imu.type"),)
    new = (
        *old,
        error(PHYSICAL, "conversionFactors.a"),  # what was written
        error(PHYSICAL, "conversionFactors"),  # above it
        error(PHYSICAL, "currentLimit"),  # elsewhere in the file
        error(module("frontleft"), "conversionFactors.a"),  # another file
    )
    assert added_errors(old, new, [step]) == [new[1], new[2]]
    assert added_errors((), new, [step]) == list(new)  # a folder that loaded must still load
    assert added_errors(old, old, [step]) == []


def _set(file: str, path: str, value: Any) -> Any:
    from swervelib.tools.migrate import Edit

    return Edit("set", file, path, value)


def test_kill_at_every_step_of_migrate(tmp_path: Path) -> None:
    steps = check_crash_at_every_step(
        lambda name: write(tmp_path / name, season_2023()),
        lambda directory, hook: migrate(directory, fault_hook=hook),
    )
    assert len([s for s in steps if s.startswith("replace ")]) == 6


# -- text after the JSON ------------------------------------------------------------------------------


@pytest.mark.parametrize("tail", ["\n// old values below\n", "3.", '\r\n{"second": 1}'])
def test_text_after_the_json_is_kept_and_the_file_migrated(tmp_path: Path, tail: str) -> None:
    """The loader (like YAGSL's Jackson) ignores text after the JSON object, so migrate must not
    skip such a file: it migrates it and writes the text back exactly as it was."""
    directory = write(tmp_path / "old", season_2024())
    path = directory / PHYSICAL
    path.write_bytes(path.read_bytes().rstrip(b"\n") + tail.encode())  # right after the `}`
    old = path.read_bytes()
    assert [(s.file, s.field, s.changes) for s in plan(directory)] == [
        (PHYSICAL, "conversionFactor", True)
    ]  # what check's hint says
    result = migrate(directory)
    assert result.changed and result.remaining == () and result.unread == ()
    data = path.read_bytes()
    assert data.endswith(b"}" + tail.encode())
    assert json.loads(data[: -len(tail)])["conversionFactors"] == {
        "drive": {"factor": DRIVE_FACTOR},
        "angle": {"factor": ANGLE_FACTOR},
    }
    assert _conversions(directory) == [
        pytest.approx(pair) for pair in _conversions(copy_config(tmp_path))
    ]
    (backup,) = backups(directory)
    assert (backup / PHYSICAL).read_bytes() == old
    again = migrate(directory)
    assert not again.changed and again.unread == () and path.read_bytes() == data


def test_a_file_that_is_not_json_is_named_not_skipped_silently(tmp_path: Path) -> None:
    directory = write(tmp_path / "old", season_2024())
    (directory / module("frontright")).write_text("{ not json")
    result = migrate(directory)
    assert "conversionFactors" in _read(directory, PHYSICAL)  # the rest is still migrated
    assert result.unread == (
        "modules/frontright.json:1:3: JSON syntax error: expected a key in double quotes; "
        "fix it by hand first",
    )
    assert (directory / module("frontright")).read_text() == "{ not json"


# -- plan ------------------------------------------------------------------------------------------


def test_plan_reads_only_and_never_raises(tmp_path: Path) -> None:
    directory = write(tmp_path / "old", season_2024())
    (directory / module("frontright")).write_text("{ not json")
    before = everything(directory)
    steps = plan(directory)
    assert everything(directory) == before
    assert [(s.file, s.field, s.changes) for s in steps] == [(PHYSICAL, "conversionFactor", True)]
    assert plan(tmp_path / "absent") == []
    (directory / DRIVE).write_text("[]")
    assert plan(directory) == [_step(tuple(steps), PHYSICAL, "conversionFactor")]
    huge = "9" * 500  # an integer no float holds
    (directory / PHYSICAL).write_text(
        f'{{"conversionFactors": {{"angle": {{"factor": {huge}}}}}, '
        f'"conversionFactor": {{"drive": {huge}, "angle": 16.8}}}}'
    )
    (step,) = plan(directory)
    assert "conversionFactors.angle.factor 1000" in step.explanation  # kept, never overwritten
    assert len(step.format()) < 1000  # the numbers are cut, not printed in full
    assert "not copied: out of range, far too large" in step.explanation


def test_a_talon_srx_robots_2024_factors_per_native_count_are_moved_not_dropped(
    tmp_path: Path,
) -> None:
    """YAGSL reads a Talon SRX's factor per native count (the loader too: native_counts), so a
    2024 Talon SRX folder's ``conversionFactor`` is moved as written. Before, migrate judged it
    per motor rotation, found it out of range and removed it (0.0189°/count is 4.66:1)."""
    base = DEPLOY / "talonsrx_pigeon"
    files = {
        p.relative_to(base).as_posix(): json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(base.rglob("*.json"))
    }
    angle, drive = 360.0 / (4.66 * 4096), 0.1016 * math.pi / (8.14 * 4096)
    files[PHYSICAL] = replace_key(
        files[PHYSICAL], "conversionFactors", {"conversionFactor": {"drive": drive, "angle": angle}}
    )
    directory = write(tmp_path / "old", files)
    result = migrate(directory)
    assert result.changed and result.remaining == ()
    assert _read(directory, PHYSICAL)["conversionFactors"] == {
        "drive": {"factor": drive},
        "angle": {"factor": angle},
    }
    assert "°/native count" in _step(result.steps, PHYSICAL, "conversionFactor").format()
    for angle_per_rotation, drive_per_rotation in _conversions(directory):
        assert angle_per_rotation == pytest.approx(360.0 / 4.66)
        assert drive_per_rotation == pytest.approx(0.1016 * math.pi / 8.14)
