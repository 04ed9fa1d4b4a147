"""``migrate --talonfx-from-yagsl-2025``: a Talon FX/FXS folder tuned on YAGSL 2025+ made to turn
its motors the same way in swervelib.

Since 2024-11-11 (all of 2025.x and 2026.x) YAGSL maps a phoenix6 Talon FX or FXS's ``inverted``
true to ``CounterClockwise_Positive`` and false to ``Clockwise_Positive``: the opposite of
phoenix's own meaning, which swervelib (and YAGSL 2024) keeps. So every such ``inverted.drive`` and
``inverted.angle`` of a folder that drove correctly on YAGSL 2025+ is the wrong way round here.
With the flag, migrate flips each of them (a missing flag reads false, YAGSL's default for a
missing key, so it is written true, which also gives the loader the flag it requires); without it
nothing is said, since nothing in the files tells which YAGSL they were tuned on. Spark and
phoenix5 Talon SRX motors are never touched.

The motor types are the catalog's phoenix6 Talon FX/FXS types, matched exactly as the loader
matches them (``Falcon500`` is not ``falcon500``). A flag that is not true or false, or a module
file that cannot be read, is only said (the loader reports it).

Flipping twice would undo it, so :func:`earlier_flips` finds the backups a run with the flag left
(each backup folder says what made it, :data:`~swervelib.tools.journal.WHAT_NAME`), and
:func:`second_flip_refusal` words the refusal.

Pure: parsed JSON in, steps out; the backup folders are only read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

from swervelib.config.catalog import MOTOR_TYPES
from swervelib.text import shown_path
from swervelib.tools.edit_result import MISSING
from swervelib.tools.journal import BACKUP_DIR, INCOMPLETE_PREFIX, backup_what
from swervelib.tools.migrate_steps import TALONFX_FLAG, Edit, MigrationStep, shown

__all__ = [
    "TALONFX_TYPES",
    "earlier_flips",
    "is_flip",
    "second_flip_refusal",
    "talonfx_inversion_steps",
]

_CONTROLLERS: Final = {"talonfx": "Talon FX", "talonfxs": "Talon FXS"}
TALONFX_TYPES: Final = frozenset(
    name for name, motor in MOTOR_TYPES.items() if motor.controller in _CONTROLLERS
)
"""The motor ``type`` strings of a phoenix6 Talon FX or FXS (krakenx60, falcon, talonfxs_neo...)."""

_ROLES: Final = ("drive", "angle")
_FIELDS: Final = tuple(f"inverted.{role}" for role in _ROLES)


def talonfx_inversion_steps(file: str, data: Any) -> list[MigrationStep]:
    """One step per Talon FX/FXS motor of the module file ``file`` (its parsed JSON ``data``, or
    MISSING / UNREADABLE): its ``inverted.<role>`` flipped, or why it is not."""
    if not isinstance(data, dict):
        why = (
            "the file is missing" if data is MISSING else "the file cannot be read as a JSON object"
        )
        return [
            MigrationStep(
                file,
                "inverted",
                f"not checked for Talon FX/FXS motors ({TALONFX_FLAG}): {why} (the loader "
                "reports it); flip its Talon FX/FXS inverted flags by hand once it is fixed",
            )
        ]
    inverted = data.get("inverted", MISSING)
    steps = []
    for role, field in zip(_ROLES, _FIELDS, strict=True):
        motor = data.get(role)
        kind = motor.get("type") if isinstance(motor, dict) else None
        if not isinstance(kind, str) or kind not in TALONFX_TYPES:
            continue
        if inverted is MISSING:
            value: Any = MISSING
        elif isinstance(inverted, dict):
            value = inverted.get(role, MISSING)
        else:
            steps.append(
                _not_flipped(file, field, f"inverted is {_shown(inverted)}, not an object")
            )
            continue
        if value is not MISSING and not isinstance(value, bool):
            steps.append(_not_flipped(file, field, f"{_shown(value)} is not true or false"))
            continue
        new = value is not True
        was = "missing (false)" if value is MISSING else shown(value)
        name = _CONTROLLERS[MOTOR_TYPES[kind].controller]
        steps.append(
            MigrationStep(
                file,
                field,
                f"{was} → {shown(new)} ({TALONFX_FLAG}): YAGSL 2025+ reads a {name}'s inverted "
                f"the other way round (false = clockwise positive there); the {role} motor "
                f"({kind}) turns the way it did on YAGSL",
                (Edit("set", file, field, new),),
            )
        )
    return steps


def _not_flipped(file: str, field: str, why: str) -> MigrationStep:
    return MigrationStep(
        file,
        field,
        f"not flipped ({TALONFX_FLAG}): {why} (the loader reports it); set it by hand to the "
        "opposite of what drove correctly on YAGSL 2025+",
    )


def _shown(value: Any) -> str:
    return f"the text {shown(value)}" if isinstance(value, str) else shown(value)


def is_flip(step: MigrationStep) -> bool:
    """Whether ``step`` writes a flipped ``inverted.drive`` or ``inverted.angle``."""
    return step.changes and step.field in _FIELDS


def earlier_flips(directory: Path, what: str) -> list[Path]:
    """The complete backup folders of ``directory`` whose edit was ``what`` (oldest first)."""
    try:
        entries = sorted(os.scandir(directory / BACKUP_DIR), key=lambda entry: entry.name)
    except OSError:
        return []
    found = []
    for entry in entries:
        if entry.name.startswith(INCOMPLETE_PREFIX):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
        except OSError:
            continue
        if backup_what(Path(entry.path)) == what:
            found.append(Path(entry.path))
    return found


def second_flip_refusal(directory: Path, what: str) -> str | None:
    """Why ``migrate`` with the flag must not run on ``directory`` (a backup shows that a run with
    the flag already flipped its flags), or None."""
    found = earlier_flips(directory, what)
    if not found:
        return None
    latest = shown_path(found[-1])
    earlier = len(found) - 1
    also = f" and {earlier} earlier one{'s' if earlier != 1 else ''}" if earlier else ""
    them = "those backup folders" if earlier else "that backup folder"
    return (
        f"refusing {TALONFX_FLAG}: a migrate run with it already flipped this folder's Talon "
        f"FX/FXS inverted flags (its backup: {latest}{also}), and a second run would flip them "
        f"back; nothing was changed. To go back to the files from before that run, copy them back "
        f"from {latest}; to flip them again anyway (after such a restore, say), delete {them} "
        f"first. Without {TALONFX_FLAG}, migrate makes its other upgrades"
    )
