"""``conversionFactors``: reading them, and resolving each module's from its own and
physicalproperties.json's, field by field (YAGSL drops a partial module override; swervelib merges).

A missing, zero or out-of-range conversion is an error naming what to set, never a silent Infinity
or NaN. Pure Python.
"""

from __future__ import annotations

import math
from typing import Any

from swervelib.config import bounds, combined
from swervelib.config.combined import Reporter, Source
from swervelib.config.fields import FileContext, ObjectView, describe, number_text
from swervelib.config.model import (
    INCH,
    AngleConversion,
    ConversionFactors,
    DriveConversion,
    ResolvedConversion,
)

PHYSICAL_FILE = "modules/physicalproperties.json"


def read_conversion_factors(parent: ObjectView) -> ConversionFactors:
    """``conversionFactors`` of a module file or physicalproperties.json, as written (each field
    checked against its range; problems go to the file)."""
    if parent.has("conversionFactor"):
        parent.ignore("conversionFactor")
        legacy = parent.data["conversionFactor"]
        hint = ""
        if isinstance(legacy, dict):
            old_drive, old_angle = (_plain_number(legacy.get(k, 0)) for k in ("drive", "angle"))
            hint = (
                f': write "conversionFactors": {{"drive": {{"factor": '
                f'{old_drive}}}, "angle": {{"factor": {old_angle}}}}}'
            )
        parent.error(
            "conversionFactor",
            "`conversionFactor` is the pre-2024 format and is not read" + hint,
            expected="conversionFactors",
            found=describe(legacy),
        )
    view = parent.obj("conversionFactors", required=False)
    if view is None:
        return ConversionFactors()
    angle = AngleConversion()
    drive = DriveConversion()
    angle_view = view.obj("angle", required=False)
    if angle_view is not None:
        angle = AngleConversion(
            gear_ratio=angle_view.number(
                "gearRatio", 0.0, minimum=0, within=bounds.ANGLE_GEAR_RATIO
            ),
            factor=angle_view.number("factor", 0.0, minimum=0, within=bounds.ANGLE_FACTOR),
        )
        angle_view.finish()
    drive_view = view.obj("drive", required=False)
    if drive_view is not None:
        drive = DriveConversion(
            gear_ratio=drive_view.number(
                "gearRatio", 0.0, minimum=0, within=bounds.DRIVE_GEAR_RATIO
            ),
            diameter_in=drive_view.number("diameter", 0.0, minimum=0, within=bounds.WHEEL_DIAMETER),
            factor=drive_view.number(
                "factor", 0.0, minimum=0, within=bounds.DRIVE_METRES_PER_ROTATION
            ),
        )
        drive_view.finish()
    view.finish()
    return ConversionFactors(angle, drive)


def resolve_conversion(
    module: ObjectView,
    own: ConversionFactors,
    physical: ConversionFactors,
    drive_type: str | None,
    reporter: Reporter,
    physical_file: FileContext | None,
) -> ResolvedConversion | None:
    """One module's conversion: its own fields win over physicalproperties', field by field. A
    drive conversion out of range is reported where it was written (once for physicalproperties)."""

    def pick(mine: float, theirs: float) -> float:
        return mine if mine != 0 else theirs

    angle_factor = pick(own.angle.factor, physical.angle.factor)
    angle_ratio = pick(own.angle.gear_ratio, physical.angle.gear_ratio)
    drive_factor = pick(own.drive.factor, physical.drive.factor)
    drive_ratio = pick(own.drive.gear_ratio, physical.drive.gear_ratio)
    diameter = pick(own.drive.diameter_in, physical.drive.diameter_in)
    where = f"{PHYSICAL_FILE} or this module file"
    ok = True
    if angle_factor == 0 and angle_ratio == 0:
        module.error(
            "conversionFactors.angle",
            f"no angle conversion: set conversionFactors.angle.gearRatio in {where}",
            expected="gearRatio (motor rotations per module rotation) or factor",
        )
        ok = False
    if drive_factor == 0 and (drive_ratio == 0 or diameter == 0):
        missing = [n for n, v in (("gearRatio", drive_ratio), ("diameter", diameter)) if v == 0]
        module.error(
            "conversionFactors.drive",
            f"no drive conversion: set conversionFactors.drive.{' and '.join(missing)} in {where}",
            expected="gearRatio and diameter (inches), or factor (metres per rotation)",
        )
        ok = False
    if not ok:
        return None
    angle_deg = angle_factor if angle_factor != 0 else 360.0 / angle_ratio
    if drive_factor != 0:
        drive_m = drive_factor
        how = f"factor {drive_factor:g}"
        mine = own.drive.factor != 0
    else:
        drive_m = math.pi * diameter * INCH / drive_ratio
        how = f"gearRatio {drive_ratio:g} and diameter {diameter:g} in"
        mine = own.drive.gear_ratio != 0 or own.drive.diameter_in != 0
    source = Source(module.context, ("conversionFactors", "drive"))
    if not mine and physical_file is not None:
        source = Source(physical_file, ("conversionFactors", "drive"))
    if not combined.drive_conversion_ok(reporter, source, drive_m, drive_type, how):
        return None
    return ResolvedConversion(
        angle_deg_per_rotation=angle_deg,
        drive_m_per_rotation=drive_m,
        angle_gear_ratio=angle_ratio if angle_ratio != 0 else 360.0 / angle_factor,
        drive_gear_ratio=drive_ratio if drive_ratio != 0 else None,
        wheel_diameter_m=diameter * INCH if diameter != 0 else None,
    )


def _plain_number(value: Any) -> str:
    """A number to quote in a suggested spelling (``...`` for anything else or anything huge)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) < 1e15:
        return number_text(value)
    return "..."
