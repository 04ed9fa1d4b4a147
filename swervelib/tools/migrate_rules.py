"""``migrate``'s rules for the older formats' other keys, file by file.

* physicalproperties.json: the 2023 ``encoderPulsePerRotation`` and
  ``moduleFeedForwardClosedLoop``, which nothing reads any more, are removed.
* module files: the 2023 ``location.x`` / ``location.y`` become ``location.front`` /
  ``location.left`` (the same inches), or are removed where those are set.
* swervedrive.json: the 2023 ``maxSpeed`` was in feet per second (swervelib reads metres per
  second): one above :data:`FEET_THRESHOLD_MPS` is flagged, and converted only when the person
  confirms it; the 2023 ``optimalVoltage`` moves to physicalproperties.json.

Pure: parsed JSON in, steps out (the conversion factors' rules are in
:mod:`.migrate_conversions`).
"""

from __future__ import annotations

from typing import Any, Final

from swervelib.config import bounds
from swervelib.config.combined import FOOT
from swervelib.tools.edit_result import MISSING
from swervelib.tools.migrate_steps import (
    FEET_THRESHOLD_MPS,
    MAX_SPEED_FLAG,
    PHYSICAL_FILE,
    UNREADABLE,
    Edit,
    MigrationStep,
    positive,
    refusal,
    shown,
)

_IGNORED_2023: Final = {
    "encoderPulsePerRotation": "conversions count motor rotations now, which each motor "
    "controller reports itself",
    "moduleFeedForwardClosedLoop": "the drive gains are in pidfproperties.json",
}


def ignored_key_steps(file: str, data: dict[str, Any]) -> list[MigrationStep]:
    """The 2023 physicalproperties.json keys that nothing reads any more: removed."""
    return [
        MigrationStep(
            file,
            key,
            f"removed: a 2023 key that YAGSL 2024+ and swervelib ignore ({why})",
            (Edit("delete", file, key),),
        )
        for key, why in _IGNORED_2023.items()
        if key in data
    ]


# -- module files ------------------------------------------------------------------------------------

_LOCATION_NAMES: Final = (("x", "front", "forward"), ("y", "left", "to the left"))


def location_steps(file: str, data: dict[str, Any]) -> list[MigrationStep]:
    """2023 ``location.x``/``y``: renamed to ``front``/``left`` (same inches) where those are
    absent, removed as stale where they are there."""
    location = data.get("location")
    if not isinstance(location, dict):
        return []
    steps = []
    for old, new, direction in _LOCATION_NAMES:
        if old not in location:
            continue
        field = f"location.{old}"
        if new in location:
            steps.append(
                MigrationStep(
                    file,
                    field,
                    f"removed: the 2023 name, ignored since location.{new} is set ({old} was "
                    f"{shown(location[old])}, {new} is {shown(location[new])})",
                    (Edit("delete", file, field),),
                )
            )
        else:
            steps.append(
                MigrationStep(
                    file,
                    field,
                    f"renamed to {new} (the same inches {direction}): {old} is the 2023 name, "
                    f"which YAGSL 2025.3+ and swervelib ignore",
                    (Edit("rename", file, field, new),),
                )
            )
    return steps


# -- swervedrive.json --------------------------------------------------------------------------------


def max_speed_steps(file: str, data: dict[str, Any], *, in_feet: bool) -> list[MigrationStep]:
    """A 2023 ``maxSpeed`` in feet per second: converted when ``in_feet`` confirms it, else
    flagged. Only a value above :data:`FEET_THRESHOLD_MPS` is taken for feet per second."""
    speed = positive(data.get("maxSpeed"))
    if speed is None:
        return []
    metres = round(float(speed) * FOOT, 4)
    written = shown(speed)
    if speed <= FEET_THRESHOLD_MPS:
        if not in_feet:
            return []
        why = (
            f"{written} is a plausible speed in metres per second (at most {FEET_THRESHOLD_MPS:g})"
        )
        return [MigrationStep(file, "maxSpeed", f"left alone: {why}, so it is not converted")]
    if not in_feet:
        return [
            MigrationStep(
                file,
                "maxSpeed",
                f"left alone: swervelib reads metres per second and {written} m/s is faster than "
                f"any swerve drive (over {FEET_THRESHOLD_MPS:g}), so it is probably the 2023 "
                f"format's feet per second ({metres:g} m/s); rerun with {MAX_SPEED_FLAG} to "
                "convert it",
            )
        ]
    if metres > FEET_THRESHOLD_MPS:
        return [
            MigrationStep(
                file,
                "maxSpeed",
                f"left alone: even in feet per second {written} is {metres:g} m/s, faster than any "
                "swerve drive; set it by hand in metres per second",
            )
        ]
    return [
        MigrationStep(
            file,
            "maxSpeed",
            f"{written} ft/s converted to {metres:g} m/s ({MAX_SPEED_FLAG}): the 2023 format gave "
            "it in feet per second, swervelib reads metres per second",
            (Edit("set", file, "maxSpeed", metres),),
        )
    ]


def optimal_voltage_steps(file: str, data: dict[str, Any], physical: Any) -> list[MigrationStep]:
    """The 2023 swervedrive.json ``optimalVoltage``: moved to physicalproperties.json when that
    has none, else removed as stale."""
    if "optimalVoltage" not in data:
        return []
    value = data["optimalVoltage"]
    only_there = "YAGSL 2024+ and swervelib read it only from physicalproperties.json"
    if physical is UNREADABLE or (physical is not MISSING and not isinstance(physical, dict)):
        return [
            MigrationStep(
                file,
                "optimalVoltage",
                f"left alone: {PHYSICAL_FILE} cannot be read, so it cannot be moved there yet "
                f"({only_there})",
            )
        ]
    remove = Edit("delete", file, "optimalVoltage")
    if isinstance(physical, dict) and "optimalVoltage" in physical:
        there = shown(physical["optimalVoltage"])
        return [
            MigrationStep(
                file,
                "optimalVoltage",
                f"removed: stale ({only_there}, which sets {there} V; this one said "
                f"{shown(value)})",
                (remove,),
            )
        ]
    why = refusal(value, bounds.OPTIMAL_VOLTAGE)
    if why is not None:
        return [
            MigrationStep(
                file,
                "optimalVoltage",
                f"removed, not moved: {shown(value)} is {why} ({only_there}; the default "
                "12 V applies)",
                (remove,),
            )
        ]
    if physical is MISSING:
        move = Edit("create", PHYSICAL_FILE, "", {"optimalVoltage": value})
        new = ", a new file"
    else:
        move = Edit("set", PHYSICAL_FILE, "optimalVoltage", value)
        new = ""
    return [
        MigrationStep(
            file,
            "optimalVoltage",
            f"moved to {PHYSICAL_FILE} ({shown(value)} V{new}): {only_there}",
            (move, remove),
        )
    ]
