"""``migrate DIRECTORY``: upgrade an older YAGSL configuration folder to the current format.

:func:`plan` says what would change, one :class:`MigrationStep` per change (file, field, one line
of what and why), without writing anything: ``check`` calls it to suggest ``migrate``.
:func:`migrate` applies the plan as one :class:`~swervelib.tools.edit.ConfigEditor` transaction
(``dry_run`` only shows the diff; otherwise a backup, atomic writes and the directory lock). The
rules are in :mod:`.migrate_conversions`, :mod:`.migrate_rules` and (only with
``talonfx_from_yagsl_2025``, which flips the Talon FX/FXS inversion flags of a folder tuned on
YAGSL 2025+) :mod:`.migrate_talonfx`, a step's shape in :mod:`.migrate_steps`. A run that flipped
says so in its backup folder, and a second run with the flag is refused (:class:`EditError`),
since it would flip them back.

Validation: the result is loaded before anything is written. A folder that loads now must still
load, and a value migrate writes must not be refused by the loader (:class:`EditError` listing the
problems, nothing written). A folder that does not load now for other reasons (a module with no
encoder type, say) is still migrated; the problems that remain are returned in
:attr:`MigrationResult.remaining` for the person to fix.

Files are read with :func:`~swervelib.tools.json_style.with_written_numbers`, so a number moved
to another place (an old ``conversionFactor``'s, ``optimalVoltage``) is written with its own text
(``16.80`` stays ``16.80``), and new objects follow the file's indentation at their depth.

Text after a file's JSON value (which the loader and YAGSL's Jackson ignore) is kept exactly as it
was: the file is migrated like any other. A file that cannot be read as JSON at all is left alone
and named, with why, in :attr:`MigrationResult.unread`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from swervelib.config import Problem, Severity
from swervelib.config.jsonpos import JSONSyntaxError, parse
from swervelib.config.native_counts import FactorUnits, module_units, shared_units
from swervelib.safe_read import MAX_FILE_BYTES, UnreadableFile, read_file
from swervelib.safe_read import Problem as ReadProblem
from swervelib.tools.edit import MISSING, ConfigEditor, EditError, EditResult, FaultHook
from swervelib.tools.fieldpath import DRIVE_FILE, module_file_paths
from swervelib.tools.json_style import dump, style_of, with_written_numbers
from swervelib.tools.migrate_conversions import conversion_steps, gives_both
from swervelib.tools.migrate_rules import (
    ignored_key_steps,
    location_steps,
    max_speed_steps,
    optimal_voltage_steps,
)
from swervelib.tools.migrate_steps import (
    FEET_THRESHOLD_MPS,
    MAX_SPEED_FLAG,
    PHYSICAL_FILE,
    TALONFX_FLAG,
    UNREADABLE,
    Edit,
    MigrationStep,
)
from swervelib.tools.migrate_talonfx import is_flip, second_flip_refusal, talonfx_inversion_steps

__all__ = [
    "FEET_THRESHOLD_MPS",
    "MAX_SPEED_FLAG",
    "TALONFX_FLAG",
    "Edit",
    "MigrationResult",
    "MigrationStep",
    "migrate",
    "plan",
    "plan_from",
]

WHAT: Final = "migrate"
FLIP_WHAT: Final = f"{WHAT} {TALONFX_FLAG}"
"""What a run that flipped Talon FX/FXS flags is called, in its summary and its backup folder."""

Reader = Callable[[str], Any]
"""A file's parsed JSON by its relative path; MISSING when absent, UNREADABLE when not JSON."""


@dataclass(frozen=True)
class MigrationResult:
    """What :func:`migrate` did. ``edit`` is None when there was nothing to change; ``remaining``
    holds the errors the migrated folder still has (none of them added by the migration);
    ``unread`` says, one line each, which files could not be read (so were not migrated) and why."""

    steps: tuple[MigrationStep, ...]
    edit: EditResult | None
    remaining: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()
    unread: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return self.edit is not None


# -- planning ----------------------------------------------------------------------------------------


def plan(
    directory: str | os.PathLike[str],
    *,
    max_speed_in_feet: bool = False,
    talonfx_from_yagsl_2025: bool = False,
) -> list[MigrationStep]:
    """What ``migrate`` would do to ``directory``, read-only and never raising for a broken folder
    (files that cannot be read are left out). Steps whose :attr:`~MigrationStep.changes` is True
    are what migrate would write; the others are only said (e.g. a ``maxSpeed`` that looks like
    feet per second, converted only with ``max_speed_in_feet``). ``talonfx_from_yagsl_2025``: the
    folder was tuned on YAGSL 2025+, so every Talon FX/FXS ``inverted`` flag is flipped (without
    it they are not mentioned)."""
    return plan_from(
        _directory_reader(Path(directory)),
        max_speed_in_feet=max_speed_in_feet,
        talonfx_from_yagsl_2025=talonfx_from_yagsl_2025,
    )


def plan_from(
    read: Reader, *, max_speed_in_feet: bool = False, talonfx_from_yagsl_2025: bool = False
) -> list[MigrationStep]:
    """:func:`plan` over files given by ``read``."""
    drive = read(DRIVE_FILE)
    physical = read(PHYSICAL_FILE)
    steps: list[MigrationStep] = []
    modules: list[MigrationStep] = []
    complete: list[bool] = []  # per module: its own conversionFactors gives both conversions
    units: list[FactorUnits] = []  # per module: what its factors are written per
    for file in _module_files(drive):
        data = read(file)
        flips = talonfx_inversion_steps(file, data) if talonfx_from_yagsl_2025 else []
        if not isinstance(data, dict):
            complete.append(False)
            modules += flips
            continue
        units.append(module_units(data))
        conversion, own = conversion_steps(
            file, data, module=True, physical_works=gives_both(physical), units=units[-1]
        )
        complete.append(own)
        modules += conversion + location_steps(file, data) + flips
    if isinstance(drive, dict):
        steps += max_speed_steps(DRIVE_FILE, drive, in_feet=max_speed_in_feet)
        steps += optimal_voltage_steps(DRIVE_FILE, drive, physical)
    if isinstance(physical, dict):
        needed = not (complete and all(complete))
        steps += conversion_steps(
            PHYSICAL_FILE, physical, module=False, needed=needed, units=shared_units(units)
        )[0]
        steps += ignored_key_steps(PHYSICAL_FILE, physical)
    return steps + modules


def _module_files(drive: Any) -> list[str]:
    if not isinstance(drive, dict):
        return []
    try:
        files = module_file_paths(drive.get("modules"))
    except EditError:
        return []
    return [f for f in dict.fromkeys(files) if f != PHYSICAL_FILE]


def _directory_reader(directory: Path) -> Reader:
    def read(file: str) -> Any:
        try:
            data = read_file(directory / file, limit=MAX_FILE_BYTES)
        except UnreadableFile as error:
            return MISSING if error.problem is ReadProblem.MISSING else UNREADABLE
        try:
            text = data.decode("utf-8-sig")
            document = parse(text, trailing=True)  # as the loader reads
        except (UnicodeDecodeError, JSONSyntaxError):
            return UNREADABLE
        if document.duplicates:
            return UNREADABLE
        return with_written_numbers(text, document.root, document.value)

    return read


def _editor_reader(editor: ConfigEditor, unread: list[str]) -> Reader:
    """Reads through ``editor``; why a file cannot be read goes into ``unread`` (once)."""

    def read(file: str) -> Any:
        if not editor.has_file(file):
            return MISSING
        try:
            text = editor.get_text(file, "")
            if text is None:
                return MISSING
            document = parse(text)
            return with_written_numbers(text, document.root, document.value)
        except EditError as error:  # not JSON, or not a regular file: the loader reports it too
            if str(error) not in unread:
                unread.append(str(error))
            return UNREADABLE

    return read


# -- applying ----------------------------------------------------------------------------------------


def migrate(
    directory: str | os.PathLike[str],
    *,
    dry_run: bool = False,
    max_speed_in_feet: bool = False,
    talonfx_from_yagsl_2025: bool = False,
    fault_hook: FaultHook | None = None,
) -> MigrationResult:
    """Apply :func:`plan` to ``directory`` in one transaction (see the module docstring). With
    ``talonfx_from_yagsl_2025``, a folder whose backups show that a run with it already flipped
    the flags is refused (:class:`EditError`, naming that backup); a dry run is not."""
    with ConfigEditor(
        directory, dry_run=dry_run, fault_hook=fault_hook, keep_trailing_text=True
    ) as editor:
        if talonfx_from_yagsl_2025 and not dry_run:
            refusal = second_flip_refusal(editor.directory, FLIP_WHAT)
            if refusal is not None:
                raise EditError(refusal)
        unread: list[str] = []
        reader = _editor_reader(editor, unread)
        steps = tuple(
            plan_from(
                reader,
                max_speed_in_feet=max_speed_in_feet,
                talonfx_from_yagsl_2025=talonfx_from_yagsl_2025,
            )
        )
        if not any(step.changes for step in steps):
            return MigrationResult(steps, None, (), tuple(editor.notes), tuple(unread))
        before = _errors(editor.load_errors())
        for step in steps:
            for edit in step.edits:
                _apply(editor, edit)
        after = _errors(editor.load_errors())
        added = added_errors(before, after, steps)
        if added:
            lines = "\n".join(f"  {problem.format()}" for problem in added)
            count = len(added)
            raise EditError(
                f"refusing to write: the migrated folder would have {count} new "
                f"problem{'s' if count != 1 else ''}:\n{lines}"
            )
        what = FLIP_WHAT if any(is_flip(step) for step in steps) else WHAT
        result = editor.commit(what, validate=False)
        return MigrationResult(steps, result, after, result.notes, tuple(unread))


def _errors(problems: Iterable[Problem]) -> tuple[Problem, ...]:
    return tuple(p for p in problems if p.severity is Severity.ERROR)


def _apply(editor: ConfigEditor, edit: Edit) -> None:
    if edit.action == "set":
        editor.set(edit.file, edit.path, edit.value)
    elif edit.action == "delete":
        editor.delete(edit.file, edit.path)
    elif edit.action == "rename":
        editor.rename(edit.file, edit.path, edit.value)
    else:
        editor.replace_file(edit.file, _new_file(editor, edit.value))


def _new_file(editor: ConfigEditor, value: Any) -> bytes:
    """A new JSON file holding ``value``, written in swervedrive.json's style."""
    text = editor.get_text(DRIVE_FILE, "") or "{}"
    style = style_of(text, parse(text).root)
    ending = style.newline if editor.original_bytes(DRIVE_FILE).endswith(b"\n") else ""
    return (dump(value, style, style.multi_line, "") + ending).encode("utf-8")


def added_errors(
    before: tuple[Problem, ...], after: tuple[Problem, ...], steps: Iterable[MigrationStep]
) -> list[Problem]:
    """The errors of ``after`` the migration is to blame for: any new one when the folder loaded
    ``before``; otherwise a new one at, below or above a value the steps wrote."""
    old = {(p.file, p.field, p.message) for p in before}
    new = [p for p in after if (p.file, p.field, p.message) not in old]
    if not before:
        return new
    written = list(_written(steps))
    return [p for p in new if any(p.file == f and _related(p.field, w) for f, w in written)]


def _written(steps: Iterable[MigrationStep]) -> Iterator[tuple[str, str]]:
    """(file, field) of every value the steps write."""
    for step in steps:
        for edit in step.edits:
            if edit.action == "rename":
                parent = edit.path.rpartition(".")[0]
                yield edit.file, f"{parent}.{edit.value}" if parent else str(edit.value)
            elif edit.action in ("set", "create"):
                yield from ((edit.file, leaf) for leaf in _leaves(edit.path, edit.value))


def _leaves(path: str, value: Any) -> Iterator[str]:
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from _leaves(f"{path}.{key}" if path else key, item)
    else:
        yield path


def _related(field: str, written: str) -> bool:
    """``field`` is ``written``, inside it or one of its parents (``""``: the whole file)."""
    if field == written or not field:
        return True
    return written.startswith((f"{field}.", f"{field}[")) or field.startswith(
        (f"{written}.", f"{written}[")
    )
