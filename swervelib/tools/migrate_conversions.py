"""``migrate``'s rules for the conversion factors' older formats.

* ``conversionFactor: {drive, angle}`` (before YAGSL 2024.5, in physicalproperties.json or a
  module file): drive in metres and angle in degrees per motor rotation (per native count for a
  Talon SRX, as YAGSL reads it: :mod:`swervelib.config.native_counts`), which is what
  ``conversionFactors.{drive,angle}.factor`` holds now. Copied as they are, never computed.
* the 2023 physicalproperties.json keys ``wheelDiameter`` (inches) and ``gearRatio{drive,angle}``
  (motor rotations per wheel / module rotation), now ``conversionFactors.drive.{diameter,gearRatio}``
  and ``conversionFactors.angle.gearRatio``.

An older value goes only into an empty place of a conversion ``conversionFactors`` does not give
yet (never over a value); 0, null and missing are never written, and a value the loader would
refuse is not copied: the step says what is still missing instead. Once moved, the older keys are
removed; beside a ``conversionFactors`` that already gives both conversions they are removed as
stale. Members of an older object other than ``angle`` and ``drive`` (a team's ``note``, say:
unknown keys, which YAGSL ignores) are never dropped: they are kept, in order, in
``conversionFactors`` (where the loader ignores them with a warning), and when they cannot go
there (the name is taken, or ``conversionFactors`` is not an object) the older keys are left alone
and the step says why. Pure: parsed JSON in, steps out.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any, Final

from swervelib.config import bounds
from swervelib.config.jsonpos import LongInteger
from swervelib.config.native_counts import PER_ROTATION, FactorUnits, per_count
from swervelib.config.steering import YAGSL_FACTOR
from swervelib.tools.edit_result import MISSING
from swervelib.tools.migrate_steps import (
    PHYSICAL_FILE,
    Edit,
    MigrationStep,
    empty,
    positive,
    refusal,
    shown,
)

LEGACY_KEY: Final = "conversionFactor"
MODULE_LEGACY_KEYS: Final = (LEGACY_KEY,)
PHYSICAL_LEGACY_KEYS: Final = (LEGACY_KEY, "wheelDiameter", "gearRatio")
_SLOTS: Final = (  # older key, its member (None: the key itself), new axis and name, range, unit
    (LEGACY_KEY, "angle", "angle", "factor", bounds.ANGLE_FACTOR, "°/motor rotation"),
    (LEGACY_KEY, "drive", "drive", "factor", bounds.DRIVE_METRES_PER_ROTATION, " m/motor rotation"),
    ("gearRatio", "angle", "angle", "gearRatio", bounds.ANGLE_GEAR_RATIO, ":1"),
    ("gearRatio", "drive", "drive", "gearRatio", bounds.DRIVE_GEAR_RATIO, ":1"),
    ("wheelDiameter", None, "drive", "diameter", bounds.WHEEL_DIAMETER, " in"),
)
_FORMAT_OF: Final = {
    LEGACY_KEY: "the pre-2024.5 format, which YAGSL 2025+ and swervelib ignore",
    "wheelDiameter": "the 2023 format, which YAGSL 2024+ and swervelib ignore",
    "gearRatio": "the 2023 format, which YAGSL 2024+ and swervelib ignore",
}
_BLOCKED: Final = object()  # a conversionFactors part that is there but is not an object
_AXES: Final = ("angle", "drive")

Extra = tuple[str, str, Any]
"""A member of an older object other than angle/drive: (older key, member name, value)."""


def _axis(factors: Any, axis: str) -> Any:
    """``factors[axis]`` (MISSING when absent or null, _BLOCKED when it cannot hold members)."""
    if factors is MISSING or factors is None:
        return MISSING
    if not isinstance(factors, dict):
        return _BLOCKED
    part = factors.get(axis, MISSING)
    if part is MISSING or part is None:
        return MISSING
    return part if isinstance(part, dict) else _BLOCKED


def _slot(factors: Any, axis: str, name: str) -> Any:
    part = _axis(factors, axis)
    if part is MISSING or part is _BLOCKED:
        return part
    return part.get(name, MISSING)


def _gives(factors: Any) -> tuple[bool, bool]:
    """Whether ``conversionFactors`` gives the angle and the drive conversion, each on its own
    (the loader's ``angle_given`` / ``drive_given``: a factor, or the gear ratio, and for the
    drive the gear ratio and diameter). Giving both is not always an override YAGSL accepts in a
    module file: see :func:`_works`."""
    angle = any(positive(_slot(factors, "angle", n)) for n in ("factor", "gearRatio"))
    drive = positive(_slot(factors, "drive", "factor")) is not None or all(
        positive(_slot(factors, "drive", n)) for n in ("gearRatio", "diameter")
    )
    return angle, drive


def _works(factors: Any) -> bool:
    """YAGSL's ``works()`` (the loader's ``works``): both factors, or all of drive gearRatio and
    diameter and angle gearRatio. A module's ``conversionFactors`` that gives both conversions in
    a mix of the two forms does not work, and is ignored beside physical properties that do."""
    factors_given = all(positive(_slot(factors, axis, "factor")) for axis in _AXES)
    return factors_given or all(
        positive(_slot(factors, axis, name))
        for axis, name in (("drive", "gearRatio"), ("drive", "diameter"), ("angle", "gearRatio"))
    )


_MIXED_NOTE: Final = (
    "this module's conversionFactors mixes factor with gearRatio/diameter, which YAGSL 2025+ and "
    f"the loader ignore beside a {PHYSICAL_FILE} conversionFactors that works: a module's "
    "override needs both factors, or all of drive gearRatio and diameter and angle gearRatio"
)


ABSOLUTE_STEERING_NOTE: Final = (
    "check angle.factor 360: it means steering on the absolute encoder only with an encoder on the "
    "angle Spark's data port; beside any other encoder it is read as a 1:1 steering gear (a "
    "21.43:1 module, for example, wants 16.8, or angle.gearRatio 21.43)"
)
_MISSING_HINT: Final = {
    "angle": "the angle conversion (conversionFactors.angle.gearRatio: motor rotations per module "
    "rotation)",
    "drive": "the drive conversion (conversionFactors.drive.gearRatio and diameter in inches)",
}


@dataclass(slots=True)
class _Taken:
    """What the older keys of one file give: ``copies`` to write (by axis and name), ``moved``
    saying them, ``said`` for what is not copied, ``given`` whether any was other than 0/null."""

    copies: dict[tuple[str, str], Any]
    moved: list[str]
    said: list[str]
    given: bool = False


def _take(data: dict[str, Any], present: list[str], factors: Any, units: FactorUnits) -> _Taken:
    """The older values of ``present`` keys that go into ``conversionFactors``: only into an empty
    place of a conversion it does not give yet, and only values the loader accepts (a ``factor``
    in ``units``, as the loader reads it)."""
    taken = _Taken({}, [], [])
    gives = dict(zip(("angle", "drive"), _gives(factors), strict=True))
    for key, member, axis, name, within, unit in _SLOTS:
        if name == "factor":
            counts = units.angle if axis == "angle" else units.drive
            if counts != 1:
                within = per_count(within, counts)
                unit = unit.replace("motor rotation", "native count")
        if key not in present:
            continue
        raw = data[key]
        if member is not None and not isinstance(raw, dict):
            note = f"`{key}` is {shown(raw)}, not an object: nothing taken from it"
            if note not in taken.said:
                taken.said.append(note)
            continue
        value = raw.get(member, MISSING) if member is not None else raw
        label = f"{key}.{member}" if member is not None else key
        if empty(value):
            continue
        taken.given = True
        why = refusal(value, within)
        existing = _slot(factors, axis, name)
        if why is not None:
            taken.said.append(f"{label} {shown(value)} not copied: {why}")
        elif gives[axis]:
            taken.said.append(
                f"{label} {shown(value)} not copied: conversionFactors already gives the {axis} "
                "conversion"
            )
        elif existing is _BLOCKED:
            taken.said.append(f"{label} not copied: conversionFactors.{axis} is not an object")
        elif not empty(existing):
            if existing != value:
                taken.said.append(
                    f"conversionFactors.{axis}.{name} {shown(existing)} kept "
                    f"({label} said {shown(value)})"
                )
        else:
            taken.copies[(axis, name)] = value
            taken.moved.append(f"{axis}.{name} {shown(value)}{unit}")
    if taken.copies.get(("angle", "factor")) == YAGSL_FACTOR:
        taken.said.append(ABSOLUTE_STEERING_NOTE)
    return taken


def _extras(data: dict[str, Any], present: list[str]) -> list[Extra]:
    """The members of the ``present`` older objects other than ``angle``/``drive``, in order."""
    return [
        (key, name, item)
        for key in present
        if isinstance(data[key], dict)
        for name, item in data[key].items()
        if name not in _AXES
    ]


def _clash(extras: list[Extra], factors: Any) -> str | None:
    """Why ``extras`` cannot be kept in ``conversionFactors`` (None when they can)."""
    if not extras:
        return None
    if factors is not MISSING and factors is not None and not isinstance(factors, dict):
        names = ", ".join(f"{key}.{name}" for key, name, _ in extras)
        return f"{names} cannot be kept in conversionFactors, which is {shown(factors)}"
    if isinstance(factors, dict) and not _writable(factors):
        return (
            "conversionFactors holds a value that cannot be written back exactly (NaN, Infinity "
            "or a huge integer), so nothing can be added to it"
        )
    taken = set(factors) if isinstance(factors, dict) else set()
    for key, name, value in extras:
        if name in taken:
            return f"{key}.{name} cannot be kept in conversionFactors, which already has a `{name}`"
        if not _writable(value):
            return f"{key}.{name} cannot be written back exactly (NaN, Infinity or a huge integer)"
        taken.add(name)
    return None


def _writable(value: Any) -> bool:
    """Whether ``value`` can be written as JSON with the same value (no NaN, ±Infinity or
    integer of hundreds of digits, which the parser only stands in for)."""
    if isinstance(value, LongInteger):
        return False
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_writable(item) for item in value.values())
    if isinstance(value, list):
        return all(_writable(item) for item in value)
    return True


def _kept(extras: list[Extra]) -> str:
    names = ", ".join(f"{key}.{name}" for key, name, _ in extras)
    them = "them" if len(extras) != 1 else "it"
    return f"{names} kept in conversionFactors (unknown to YAGSL, which ignores {them} there too)"


def gives_both(data: Any) -> bool:
    """Whether a file's parsed JSON has a ``conversionFactors`` giving both conversions."""
    return isinstance(data, dict) and all(_gives(data.get("conversionFactors", MISSING)))


def conversion_steps(
    file: str,
    data: dict[str, Any],
    *,
    module: bool,
    needed: bool = True,
    physical_works: bool = False,
    units: FactorUnits = PER_ROTATION,
) -> tuple[list[MigrationStep], bool]:
    """The step for the older conversion keys of ``data`` (moved into ``conversionFactors``, then
    removed), and whether its ``conversionFactors`` gives both conversions afterwards.
    ``needed``: physicalproperties.json's conversion is used by some module (one without a
    complete conversion of its own), so what it still lacks is worth saying. ``physical_works``:
    physicalproperties.json's ``conversionFactors`` gives both conversions, so a module's older
    key is stale (YAGSL 2025+ and the loader ignore it there; the loader's warning says migrate
    removes it). ``units``: what a ``factor`` is written per (a Talon SRX's native counts, as the
    loader reads it)."""
    keys = MODULE_LEGACY_KEYS if module else PHYSICAL_LEGACY_KEYS
    present = [key for key in data if key in keys]  # in the file's order
    factors = data.get("conversionFactors", MISSING)
    if not present:
        return [], all(_gives(factors))
    extras = _extras(data, present)
    clash = _clash(extras, factors)
    if clash is not None:
        text = (
            f"left alone: {clash}, and nothing of {' or '.join(present)} is dropped; rename or "
            "move it by hand, then run migrate again"
        )
        return [MigrationStep(file, ", ".join(present), text)], all(_gives(factors))
    if all(_gives(factors)):
        stale = [_stale(file, key, mixed=module and not _works(factors)) for key in present]
        return _keeping(stale, file, factors, extras), True
    if module and physical_works:
        stale = [_stale_beside_physical(file, key, data[key]) for key in present]
        return _keeping(stale, file, factors, extras), False
    taken = _take(data, present, factors, units)
    formats = "; ".join(sorted({_FORMAT_OF[key] for key in present}))
    if taken.moved:
        text = f"moved to conversionFactors ({', '.join(taken.moved)}): {formats}"
    elif module and not taken.given:
        text = f"removed: all 0, which meant 'use physicalproperties.json'; {formats}"
    else:
        text = f"removed, nothing to move: {formats}"
    said = list(taken.said)
    if extras:
        said.append(_kept(extras))
    angle, drive = _gives(_merged(factors, taken.copies))
    missing = [axis for axis, ok in (("angle", angle), ("drive", drive)) if not ok]
    if missing and module and (angle or drive):
        said.append(
            f"{' and '.join(missing)} still missing here: a module's conversionFactors must give "
            "both conversions or it is ignored, as YAGSL 2025+ ignores it (copy the rest from "
            "physicalproperties.json to keep this override)"
        )
    elif missing and not module and needed:
        said.append("still missing: " + " and ".join(_MISSING_HINT[a] for a in missing))
    elif module and not missing and not _works(_merged(factors, taken.copies)):
        said.append(_MIXED_NOTE)
    edits = _conversion_edits(file, present, factors, taken.copies, extras)
    step = MigrationStep(file, ", ".join(present), "; ".join([text, *said]), edits)
    return [step], angle and drive


def _keeping(
    steps: list[MigrationStep], file: str, factors: Any, extras: list[Extra]
) -> list[MigrationStep]:
    """The stale-key steps, the first of them also keeping ``extras`` in conversionFactors."""
    if not extras:
        return steps
    first = steps[0]
    edits, renamed = _placing(file, first.field, factors, {}, extras)
    if not renamed:
        edits.append(Edit("delete", file, first.field))
    kept = MigrationStep(file, first.field, f"{first.explanation}; {_kept(extras)}", tuple(edits))
    return [kept, *steps[1:]]


def _stale(file: str, key: str, *, mixed: bool = False) -> MigrationStep:
    """``mixed``: a module file whose conversionFactors gives both conversions in a mix of the
    two forms (see :func:`_works`), said since it may not be used."""
    text = f"removed: stale, conversionFactors already gives both conversions ({_FORMAT_OF[key]})"
    return MigrationStep(
        file,
        key,
        f"{text}; {_MIXED_NOTE}" if mixed else text,
        (Edit("delete", file, key),),
    )


def _stale_beside_physical(file: str, key: str, value: Any) -> MigrationStep:
    if isinstance(value, dict):
        given = ", ".join(
            f"{k} {shown(v)}" for k, v in value.items() if k in _AXES and not empty(v)
        )
    else:
        given = "" if empty(value) else shown(value)
    keep = (
        f"; it said {given}: to keep that as this module's own, set it in this file's "
        "conversionFactors (angle and drive)"
        if given
        else ""
    )
    return MigrationStep(
        file,
        key,
        f"removed: stale, {PHYSICAL_FILE}'s conversionFactors gives this module's conversions "
        f"({_FORMAT_OF[key]}){keep}",
        (Edit("delete", file, key),),
    )


def _merged(factors: Any, copies: dict[tuple[str, str], Any]) -> dict[str, dict[str, Any]]:
    """``conversionFactors`` after the copies (only what can count towards a conversion)."""
    result: dict[str, dict[str, Any]] = {}
    for axis in ("angle", "drive"):
        part = _axis(factors, axis)
        result[axis] = dict(part) if isinstance(part, dict) else {}
    for (axis, name), value in copies.items():
        result[axis][name] = value
    return result


def _conversion_edits(
    file: str,
    present: list[str],
    factors: Any,
    copies: dict[tuple[str, str], Any],
    extras: list[Extra],
) -> tuple[Edit, ...]:
    """Copy into ``conversionFactors`` (in the first older key's place when it is new), keeping
    ``extras`` there, then remove the older keys."""
    whole: dict[str, dict[str, Any]] = {"angle": {}, "drive": {}}
    for (axis, name), value in copies.items():  # in _SLOTS' order: factor, gearRatio, diameter
        whole[axis][name] = value
    whole = {axis: names for axis, names in whole.items() if names}
    edits, renamed = _placing(file, present[0], factors, whole, extras)
    removed = present[1:] if renamed else present
    edits.extend(Edit("delete", file, key) for key in removed)
    return tuple(edits)


def _placing(
    file: str,
    first: str,
    factors: Any,
    whole: dict[str, dict[str, Any]],
    extras: list[Extra],
) -> tuple[list[Edit], bool]:
    """The edits writing ``whole`` (by axis) and ``extras`` into ``conversionFactors``, and
    whether the older key ``first`` became ``conversionFactors`` (in its place) for it."""
    if not whole and not extras:
        return [], False
    if factors is MISSING:
        value = _new_factors(None, whole, extras)
        return [
            Edit("rename", file, first, "conversionFactors"),
            Edit("set", file, "conversionFactors", value),
        ], True
    if not isinstance(factors, dict) or extras:  # null: replaced whole; else merged member-wise
        return [Edit("set", file, "conversionFactors", _new_factors(factors, whole, extras))], False
    edits: list[Edit] = []
    for axis, names in whole.items():
        if _axis(factors, axis) is MISSING and axis in factors:  # null: replaced whole
            edits.append(Edit("set", file, f"conversionFactors.{axis}", names))
            continue
        for name, value in names.items():
            edits.append(Edit("set", file, f"conversionFactors.{axis}.{name}", value))
    return edits, False


def _new_factors(
    factors: Any, whole: dict[str, dict[str, Any]], extras: list[Extra]
) -> dict[str, Any]:
    """``conversionFactors`` as it will be: ``factors`` (None: new) with the copies of ``whole``
    and the ``extras`` after its members (setting it changes only what differs)."""
    result: dict[str, Any] = copy.deepcopy(factors) if isinstance(factors, dict) else {}
    for axis, names in whole.items():
        part = result.get(axis)
        result[axis] = {**part, **names} if isinstance(part, dict) else names
    result.update((name, value) for _, name, value in extras)
    return result
