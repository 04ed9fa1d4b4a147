"""migrate --talonfx-from-yagsl-2025: a Talon FX/FXS folder tuned on YAGSL 2025+ (which reads
their ``inverted`` the other way round) flipped once, only where asked, never twice."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from swervelib.cli.main import main
from swervelib.config import ConfigError, Severity, load_directory
from swervelib.config.catalog import MOTOR_TYPES
from swervelib.tools.edit import EditError
from swervelib.tools.journal import backup_what
from swervelib.tools.migrate import TALONFX_FLAG, MigrationResult, MigrationStep, migrate, plan
from swervelib.tools.migrate_talonfx import TALONFX_TYPES
from tests.config.corpus import ACCEPTED, BROKEN
from tests.tools import (
    CORPUS,
    backups,
    check_crash_at_every_step,
    copy_config,
    everything,
    snapshot,
)

KRAKEN = "kraken_cancoder_pigeon2"
MODULES = ("frontleft", "frontright", "backleft", "backright")
FLIP = "YAGSL 2025+ reads a Talon FX's inverted the other way round (false = clockwise positive"


def module(name: str) -> str:
    return f"modules/{name}.json"


def _read(directory: Path, relative: str) -> Any:
    return json.loads((directory / relative).read_bytes())


def _edit(directory: Path, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = directory / module(name)
    data = json.loads(path.read_bytes())
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _inversions(directory: Path) -> dict[str, tuple[bool, bool]]:
    return {m.name: (m.inverted.drive, m.inverted.angle) for m in load_directory(directory).modules}


def _fields(steps: tuple[MigrationStep, ...] | list[MigrationStep]) -> list[tuple[str, str]]:
    return [(step.file, step.field) for step in steps if step.changes]


def test_the_talon_types_are_the_catalog_s_phoenix6_talon_fx_and_fxs() -> None:
    assert {"talonfx", "krakenx60", "krakenx44", "falcon", "talonfxs_minion"} <= TALONFX_TYPES
    assert {
        name for name, motor in MOTOR_TYPES.items() if motor.controller in ("talonfx", "talonfxs")
    } == TALONFX_TYPES
    assert not {"talonsrx", "sparkmax", "sparkflex", "neo", "vortex"} & TALONFX_TYPES


def test_flips_drive_and_angle_of_every_kraken_module_and_the_result_loads(
    tmp_path: Path,
) -> None:
    directory = copy_config(tmp_path, KRAKEN)
    _edit(directory, "backright", lambda data: data["inverted"].update(drive=True))
    before = _inversions(directory)
    old = snapshot(directory)
    result = migrate(directory, talonfx_from_yagsl_2025=True)
    assert result.changed and result.remaining == () and result.unread == ()
    assert _fields(result.steps) == [
        (module(name), f"inverted.{role}") for name in MODULES for role in ("drive", "angle")
    ]
    assert len(result.steps) == 8
    after = _inversions(directory)
    assert after == {name: (not drive, not angle) for name, (drive, angle) in before.items()}
    step = next(s for s in result.steps if s.file == module("backright"))
    assert step.format() == (
        f"modules/backright.json: inverted.drive: true → false ({TALONFX_FLAG}): {FLIP} there); "
        "the drive motor (krakenx60) turns the way it did on YAGSL"
    )
    # only the two values' text changed, every other byte is kept
    new = (directory / module("frontleft")).read_bytes()
    assert new == old[module("frontleft")].replace(
        b'"drive": false,\n    "angle": false', b'"drive": true,\n    "angle": true'
    )
    assert set(snapshot(directory)) == set(old)
    assert result.edit is not None and result.edit.summary.startswith(
        f"migrate {TALONFX_FLAG}: 8 fields in 4 files (backup: .swervelib-backups/"
    )


def test_a_missing_inverted_object_or_flag_reads_false_and_is_written_true(
    tmp_path: Path,
) -> None:
    directory = copy_config(tmp_path, KRAKEN)
    _edit(directory, "frontleft", lambda data: data.pop("inverted"))
    _edit(directory, "frontright", lambda data: data["inverted"].pop("angle"))
    with pytest.raises(ConfigError):  # the loader wants both flags
        load_directory(directory)
    result = migrate(directory, talonfx_from_yagsl_2025=True)
    assert result.remaining == ()
    front_left = _read(directory, module("frontleft"))
    assert front_left["inverted"] == {"drive": True, "angle": True}
    assert list(front_left)[-1] == "inverted"  # a new key goes at the end
    assert _read(directory, module("frontright"))["inverted"] == {"drive": True, "angle": True}
    lines = [s.format() for s in result.steps if s.file == module("frontleft")]
    assert lines[0].startswith(
        f"modules/frontleft.json: inverted.drive: missing (false) → true ({TALONFX_FLAG}): "
    )
    assert _inversions(directory) == dict.fromkeys(MODULES, (True, True))


def test_only_talon_fx_and_fxs_motors_are_flipped(tmp_path: Path) -> None:
    directory = copy_config(tmp_path, KRAKEN)
    for name in MODULES:  # Kraken drive, Spark MAX steering (as 4459 or arctos run)
        _edit(directory, name, lambda data: data["angle"].update(type="sparkmax", canbus=None))
    _edit(directory, "backleft", lambda data: data["angle"].update(type="talonfxs_minion"))
    _edit(directory, "backright", lambda data: data["drive"].update(type="sparkflex"))
    result = migrate(directory, talonfx_from_yagsl_2025=True)
    assert result.remaining == ()
    assert _fields(result.steps) == [
        (module("frontleft"), "inverted.drive"),
        (module("frontright"), "inverted.drive"),
        (module("backleft"), "inverted.drive"),
        (module("backleft"), "inverted.angle"),
    ]
    assert _inversions(directory) == {
        "frontleft": (True, False),
        "frontright": (True, False),
        "backleft": (True, True),
        "backright": (False, False),
    }
    fxs = next(s for s in result.steps if s.field == "inverted.angle")
    assert "reads a Talon FXS's inverted" in fxs.explanation
    assert "(talonfxs_minion)" in fxs.explanation


def test_phoenix5_talon_srx_and_spark_folders_are_never_touched(tmp_path: Path) -> None:
    for source in ("talonsrx_pigeon", "vortex_throughbore_navx", "swerve"):
        directory = copy_config(tmp_path, source)
        before = everything(directory)
        assert plan(directory, talonfx_from_yagsl_2025=True) == []
        result = migrate(directory, talonfx_from_yagsl_2025=True)
        assert not result.changed and result.steps == ()
        assert everything(directory) == before


def test_a_type_the_loader_does_not_know_is_not_taken_for_a_talon(tmp_path: Path) -> None:
    """Types are matched exactly, as the loader matches them: ``KrakenX60`` is not a Talon FX."""
    directory = copy_config(tmp_path, KRAKEN)
    _edit(directory, "frontleft", lambda data: data["drive"].update(type="KrakenX60"))
    steps = plan(directory, talonfx_from_yagsl_2025=True)
    assert (module("frontleft"), "inverted.drive") not in _fields(steps)
    assert len(_fields(steps)) == 7


def test_without_the_flag_nothing_is_changed_or_said(tmp_path: Path) -> None:
    directory = copy_config(tmp_path, KRAKEN)
    before = everything(directory)
    assert plan(directory) == []
    result = migrate(directory)
    assert not result.changed and result.steps == ()
    assert everything(directory) == before
    assert len(plan(directory, talonfx_from_yagsl_2025=True)) == 8
    # once flipped, a run without the flag does not keep asking
    migrate(directory, talonfx_from_yagsl_2025=True)
    assert plan(directory) == []
    flipped = everything(directory)
    assert migrate(directory).steps == () and everything(directory) == flipped


def test_a_second_run_with_the_flag_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    directory = copy_config(tmp_path, KRAKEN)
    first = migrate(directory, talonfx_from_yagsl_2025=True)
    assert first.edit is not None and first.edit.backup is not None
    assert backup_what(first.edit.backup) == f"migrate {TALONFX_FLAG}"
    flipped = everything(directory)
    with pytest.raises(EditError) as refused:
        migrate(directory, talonfx_from_yagsl_2025=True)
    message = str(refused.value)
    assert message.startswith(f"refusing {TALONFX_FLAG}: a migrate run with it already flipped")
    assert f"(its backup: {first.edit.backup})" in message
    assert "nothing was changed" in message
    assert f"copy them back from {first.edit.backup}" in message
    assert "delete that backup folder first" in message
    assert everything(directory) == flipped
    # other tools' backups do not count; the flip's backup does, whatever came after it
    assert migrate(directory).steps == ()
    with pytest.raises(EditError, match="already flipped"):
        migrate(directory, talonfx_from_yagsl_2025=True)
    # as the message says: restore, delete that backup, and the flag flips again
    for relative, data in snapshot(first.edit.backup).items():
        (directory / relative).write_bytes(data)
    shutil.rmtree(first.edit.backup)
    again = migrate(directory, talonfx_from_yagsl_2025=True)
    assert len(_fields(again.steps)) == 8
    assert _inversions(directory) == dict.fromkeys(MODULES, (True, True))


def _location_2023(data: dict[str, Any]) -> None:
    location = data["location"]
    data["location"] = {"x": location["front"], "y": location["left"]}


def test_a_run_with_the_flag_that_flipped_nothing_does_not_block_the_next(
    tmp_path: Path,
) -> None:
    """A run with the flag on a folder with no Talon FX (only other upgrades) marks no flip."""
    directory = copy_config(tmp_path, KRAKEN)
    for name in MODULES:
        _edit(directory, name, lambda data: data["drive"].update(type="sparkflex", canbus=None))
        _edit(directory, name, lambda data: data["angle"].update(type="sparkmax", canbus=None))
        _edit(directory, name, _location_2023)
    result = migrate(directory, talonfx_from_yagsl_2025=True)
    assert result.edit is not None and result.edit.backup is not None
    assert backup_what(result.edit.backup) == "migrate"
    assert not any(step.field.startswith("inverted") for step in result.steps)
    for name in MODULES:
        _edit(directory, name, lambda data: data["drive"].update(type="krakenx60"))
    assert len(_fields(migrate(directory, talonfx_from_yagsl_2025=True).steps)) == 4


def test_dry_run_shows_the_flips_writes_nothing_and_is_never_refused(tmp_path: Path) -> None:
    directory = copy_config(tmp_path, KRAKEN)
    before = everything(directory)
    dry = migrate(directory, dry_run=True, talonfx_from_yagsl_2025=True)
    assert dry.edit is not None and not dry.edit.written and dry.edit.backup is None
    assert everything(directory) == before
    assert '-    "drive": false,' in dry.edit.diff and '+    "drive": true,' in dry.edit.diff
    assert dry.edit.summary == (
        f"migrate {TALONFX_FLAG}: would change 8 fields in 4 files (dry run, nothing written)"
    )
    migrate(directory, talonfx_from_yagsl_2025=True)
    flipped = everything(directory)
    again = migrate(directory, dry_run=True, talonfx_from_yagsl_2025=True)
    assert again.edit is not None and not again.edit.written
    assert '-    "drive": true,' in again.edit.diff
    assert everything(directory) == flipped


@pytest.mark.parametrize(
    ("value", "shown"), [(None, "null"), (1, "1"), ("true", "the text 'true'"), ([], "an array")]
)
def test_a_flag_that_is_not_a_boolean_is_not_flipped_and_said(
    tmp_path: Path, value: Any, shown: str
) -> None:
    directory = copy_config(tmp_path, KRAKEN)
    _edit(directory, "frontleft", lambda data: data["inverted"].update(drive=value))
    result = migrate(directory, talonfx_from_yagsl_2025=True)
    said = [s for s in result.steps if (s.file, s.field) == (module("frontleft"), "inverted.drive")]
    assert len(said) == 1 and not said[0].changes
    assert said[0].explanation.startswith(
        f"not flipped ({TALONFX_FLAG}): {shown} is not true or false (the loader reports it)"
    )
    assert _read(directory, module("frontleft"))["inverted"]["drive"] == value
    assert len(_fields(result.steps)) == 7  # every other flag flipped
    if value is None:  # read as false, with a warning
        assert result.remaining == ()
    else:
        assert [(p.file, p.field) for p in result.remaining] == [
            (module("frontleft"), "inverted.drive")
        ]


def test_an_inverted_that_is_not_an_object_is_not_flipped_and_said(tmp_path: Path) -> None:
    directory = copy_config(tmp_path, KRAKEN)
    _edit(directory, "frontleft", lambda data: data.update(inverted=True))
    steps = plan(directory, talonfx_from_yagsl_2025=True)
    said = [s for s in steps if s.file == module("frontleft")]
    assert [(s.field, s.changes) for s in said] == [
        ("inverted.drive", False),
        ("inverted.angle", False),
    ]
    assert "inverted is true, not an object" in said[0].explanation


@pytest.mark.parametrize("broken", ["not json", "missing", "array"])
def test_a_module_file_that_cannot_be_read_is_said_not_flipped(tmp_path: Path, broken: str) -> None:
    directory = copy_config(tmp_path, KRAKEN)
    path = directory / module("backleft")
    if broken == "missing":
        path.unlink()
    else:
        path.write_text('{"drive": ' if broken == "not json" else "[]", encoding="utf-8")
    result = migrate(directory, talonfx_from_yagsl_2025=True)
    said = [s for s in result.steps if s.file == module("backleft")]
    assert len(said) == 1 and not said[0].changes and said[0].field == "inverted"
    why = {
        "not json": "the file cannot be read as a JSON object",
        "missing": "the file is missing",
        "array": "the file cannot be read as a JSON object",
    }[broken]
    assert said[0].explanation.startswith(
        f"not checked for Talon FX/FXS motors ({TALONFX_FLAG}): {why} (the loader reports it)"
    )
    assert len(_fields(result.steps)) == 6  # the three other modules
    assert result.changed


def test_the_cli_prints_one_line_per_flip_and_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = copy_config(tmp_path, KRAKEN)
    code = main(["migrate", str(directory), TALONFX_FLAG])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 9
    for line, (name, role) in zip(
        lines, [(n, r) for n in MODULES for r in ("drive", "angle")], strict=False
    ):
        assert line.startswith(f"modules/{name}.json: inverted.{role}: false → true ")
        assert FLIP in line
    assert lines[-1].startswith(f"migrate {TALONFX_FLAG}: 8 fields in 4 files (backup: ")
    flipped = everything(directory)
    code = main(["migrate", str(directory), TALONFX_FLAG])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert err.startswith(f"error: refusing {TALONFX_FLAG}: ") and "Traceback" not in err
    assert everything(directory) == flipped
    assert backups(directory) and len(backups(directory)) == 1


def _talon_roles(directory: Path) -> list[tuple[str, str]]:
    """(module file stem, role) of every Talon FX/FXS motor of the modules swervedrive.json lists."""
    roles = []
    for relative in dict.fromkeys(_read(directory, "swervedrive.json")["modules"]):
        path = directory / "modules" / relative
        data = json.loads(path.read_bytes())
        for role in ("drive", "angle"):
            motor = data.get(role)
            if isinstance(motor, dict) and motor.get("type") in TALONFX_TYPES:
                roles.append((path.stem, role))
    return roles


def _errors(directory: Path) -> list[tuple[str, str, str]]:
    try:
        load_directory(directory)
    except ConfigError as error:
        return sorted(
            (p.file, p.field, p.message) for p in error.problems if p.severity is Severity.ERROR
        )
    return []


TALON_CORPUS = sorted(
    name
    for name in ACCEPTED + BROKEN
    if (CORPUS / name / "modules").is_dir() and _talon_roles(CORPUS / name)
)


def test_the_corpus_has_talon_fx_folders() -> None:
    assert len(TALON_CORPUS) >= 10 and "yagsl-example-falcon" in TALON_CORPUS


@pytest.mark.parametrize("name", TALON_CORPUS)
def test_corpus_talon_folders_migrate_with_the_flag_and_load_flipped(
    tmp_path: Path, name: str
) -> None:
    """Each real Talon FX folder, migrated with the flag, loads (where it loads migrated without
    it) with exactly its Talon FX/FXS flags reversed and nothing else different."""
    plain = copy_config(tmp_path, CORPUS / name, "plain")
    flagged = copy_config(tmp_path, CORPUS / name, "flagged")
    without = migrate(plain)
    result = migrate(flagged, talonfx_from_yagsl_2025=True)
    roles = _talon_roles(CORPUS / name)
    flips = [s for s in result.steps if s.changes and s.field.startswith("inverted.")]
    assert sorted((Path(s.file).stem, s.field.removeprefix("inverted.")) for s in flips) == sorted(
        roles
    )
    assert result.changed
    remaining = _errors(flagged)
    assert remaining == _errors(plain)  # nothing added
    if remaining:  # broken for another reason (a CAN id in `canbus`): still migrated
        assert name in BROKEN and not without.changed
        return
    reference = load_directory(plain)
    config = load_directory(flagged)
    for ours, theirs in zip(config.modules, reference.modules, strict=True):
        drive = (ours.name, "drive") in roles
        angle = (ours.name, "angle") in roles
        assert ours.inverted.drive == (theirs.inverted.drive ^ drive)
        assert ours.inverted.angle == (theirs.inverted.angle ^ angle)
    for ours, theirs in zip(config.modules, reference.modules, strict=True):
        assert ours.drive == theirs.drive and ours.angle == theirs.angle
        assert ours.absolute_encoder_offset_deg == theirs.absolute_encoder_offset_deg


def test_a_kill_at_any_step_leaves_old_or_new_and_the_guard_agrees(tmp_path: Path) -> None:
    """Killed before the journal: nothing was flipped, and no backup says it was (the flag runs
    again); killed after it: the flip is completed and a second run is refused."""

    def run(directory: Path, hook: Callable[[str], None] | None) -> MigrationResult:
        return migrate(directory, talonfx_from_yagsl_2025=True, fault_hook=hook)

    steps = check_crash_at_every_step(lambda name: copy_config(tmp_path, KRAKEN, name), run)
    for index, step in enumerate(steps):
        directory = tmp_path / f"crash-{index}"
        if index < steps.index("journal"):
            assert all(backup_what(b) is None for b in backups(directory)), step
            assert len(_fields(run(directory, None).steps)) == 8
        else:
            with pytest.raises(EditError, match="already flipped"):
                run(directory, None)
