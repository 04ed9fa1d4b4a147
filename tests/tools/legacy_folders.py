"""Older YAGSL folders for the migrate tests, made from deploy/swerve (the current format).

``deploy/swerve`` gives every module a 6.75:1 drive with 4 in wheels and a 21.43:1 steering
(``conversionFactors`` in physicalproperties.json); each builder rewrites that in an older format
with the same numbers, so a correct migration loads to the same conversions.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from tests.tools import DEPLOY

PHYSICAL = "modules/physicalproperties.json"
DRIVE = "swervedrive.json"
MODULES = ("frontleft", "frontright", "backleft", "backright")
ANGLE_RATIO = 21.428571428571427
DRIVE_RATIO = 6.75
DIAMETER_IN = 4
ANGLE_FACTOR = 360 / ANGLE_RATIO  # degrees per angle-motor rotation
DRIVE_FACTOR = math.pi * DIAMETER_IN * 0.0254 / DRIVE_RATIO  # metres per drive-motor rotation

Files = dict[str, Any]


def current() -> Files:
    """deploy/swerve's JSON files, parsed (relative path → value, keys in file order)."""
    base = DEPLOY / "swerve"
    return {
        p.relative_to(base).as_posix(): json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(base.rglob("*.json"))
    }


def module(name: str) -> str:
    return f"modules/{name}.json"


def replace_key(data: dict[str, Any], old: str, new: dict[str, Any]) -> dict[str, Any]:
    """``data`` with the member ``old`` replaced, in its place, by the members of ``new``."""
    result: dict[str, Any] = {}
    for key, value in data.items():
        if key == old:
            result.update(new)
        else:
            result[key] = value
    return result


def write(directory: Path, files: Files, *, indent: int | str = 2) -> Path:
    """Write ``files`` (relative path → value; None leaves a file out) as a folder."""
    directory.mkdir(parents=True, exist_ok=True)
    for relative, value in files.items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if value is not None:
            path.write_text(json.dumps(value, indent=indent) + "\n", encoding="utf-8")
    return directory


def season_2024(drive: Any = DRIVE_FACTOR, angle: Any = ANGLE_FACTOR) -> Files:
    """The 2024 format: physicalproperties.json's ``conversionFactor: {drive, angle}``."""
    files = current()
    files[PHYSICAL] = replace_key(
        files[PHYSICAL], "conversionFactors", {"conversionFactor": {"drive": drive, "angle": angle}}
    )
    return files


def season_2023() -> Files:
    """The 2023 format: wheelDiameter/gearRatio/encoderPulsePerRotation/moduleFeedForwardClosedLoop
    in physicalproperties.json (no optimalVoltage there), maxSpeed in ft/s and optimalVoltage in
    swervedrive.json, location.x/y in the module files."""
    files = current()
    physical = replace_key(
        files[PHYSICAL],
        "conversionFactors",
        {
            "wheelDiameter": DIAMETER_IN,
            "gearRatio": {"drive": DRIVE_RATIO, "angle": ANGLE_RATIO},
            "encoderPulsePerRotation": {"drive": 1, "angle": 1},
            "moduleFeedForwardClosedLoop": 0,
        },
    )
    del physical["optimalVoltage"]
    files[PHYSICAL] = physical
    files[DRIVE] = {**files[DRIVE], "maxSpeed": 14.5, "optimalVoltage": 11.5}
    for name in MODULES:
        data = files[module(name)]
        location = data["location"]
        data["location"] = {"x": location["front"], "y": location["left"]}
    return files
