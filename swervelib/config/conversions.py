"""``conversionFactors``: reading them, and resolving each module's from its own and
physicalproperties.json's as YAGSL does (a module override that does not work on its own, a
partial or mixed one, is dropped beside physical properties that work, with a warning; one that
works is used axis by axis, each axis whole from one file).

A missing, zero or out-of-range conversion is an error naming what to set, never a silent Infinity
or NaN; the pre-2024.5 ``conversionFactor`` is a warning when it is stale and an error pointing to
``migrate`` when it is all there is. Pure Python.
"""

from __future__ import annotations

import math

from swervelib.config import bounds, combined
from swervelib.config.combined import Reporter, Source
from swervelib.config.fields import FileContext, ObjectView, describe
from swervelib.config.model import (
    INCH,
    AngleConversion,
    ConversionFactors,
    DriveConversion,
    ResolvedConversion,
)
from swervelib.config.native_counts import PER_ROTATION, FactorUnits, per_count

PHYSICAL_FILE = "modules/physicalproperties.json"


LEGACY_KEY = "conversionFactor"
# Keys of older formats that held the conversion: pre-2024.5 `conversionFactor` (module files and
# physicalproperties.json) and the 2023 physicalproperties `gearRatio` / `wheelDiameter`.
MODULE_LEGACY_KEYS = (LEGACY_KEY,)
PHYSICAL_LEGACY_KEYS = (LEGACY_KEY, "gearRatio", "wheelDiameter")
MIGRATE_HINT = "run `python -m swervelib migrate DIRECTORY` to convert it"


def has_legacy(parent: ObjectView, keys: tuple[str, ...] = MODULE_LEGACY_KEYS) -> str | None:
    """The first of the older formats' conversion ``keys`` the object holds, or None (the key is
    accepted here; what it means is decided once the conversions are resolved)."""
    found = [key for key in keys if parent.has(key)]
    parent.ignore(*found)
    return found[0] if found else None


def warn_stale_legacy(parent: ObjectView, key: str) -> None:
    """An older format's conversion beside conversions that work: ignored, as YAGSL 2025+ does."""
    parent.warn(
        key,
        f"`{key}` (an older YAGSL format) is ignored, as YAGSL 2025+ ignores it: "
        "`conversionFactors` is used; `python -m swervelib migrate DIRECTORY` removes the stale "
        "key",
        found=describe(parent.data[key]),
    )


def read_conversion_factors(
    parent: ObjectView, units: FactorUnits = PER_ROTATION
) -> ConversionFactors:
    """``conversionFactors`` of a module file or physicalproperties.json (each field checked
    against its range; problems go to the file). A ``factor`` written per native count (``units``:
    YAGSL's unit for a Talon SRX, :mod:`swervelib.config.native_counts`) is returned per motor
    rotation, as every other is."""
    view = parent.obj("conversionFactors", required=False)
    if view is None:
        return ConversionFactors()
    angle = AngleConversion()
    drive = DriveConversion()
    angle_view = view.obj("angle", required=False)
    if angle_view is not None:
        angle_range = per_count(bounds.ANGLE_FACTOR, units.angle)
        angle = AngleConversion(
            gear_ratio=angle_view.number(
                "gearRatio", 0.0, minimum=0, within=bounds.ANGLE_GEAR_RATIO
            ),
            factor=angle_view.number("factor", 0.0, minimum=0, within=angle_range) * units.angle,
        )
        angle_view.finish()
    drive_view = view.obj("drive", required=False)
    if drive_view is not None:
        drive_range = per_count(bounds.DRIVE_METRES_PER_ROTATION, units.drive)
        drive = DriveConversion(
            gear_ratio=drive_view.number(
                "gearRatio", 0.0, minimum=0, within=bounds.DRIVE_GEAR_RATIO
            ),
            diameter_in=drive_view.number("diameter", 0.0, minimum=0, within=bounds.WHEEL_DIAMETER),
            factor=drive_view.number("factor", 0.0, minimum=0, within=drive_range) * units.drive,
            factor_counts=units.drive,
        )
        drive_view.finish()
    view.finish()
    return ConversionFactors(angle, drive)


def angle_given(factors: ConversionFactors) -> bool:
    """Whether ``factors`` gives the angle conversion (YAGSL: the angle is not "empty")."""
    return factors.angle.factor != 0 or factors.angle.gear_ratio != 0


def drive_given(factors: ConversionFactors) -> bool:
    """Whether ``factors`` gives the drive conversion (YAGSL: the drive is not "empty")."""
    drive = factors.drive
    return drive.factor != 0 or (drive.gear_ratio != 0 and drive.diameter_in != 0)


def works(factors: ConversionFactors) -> bool:
    """YAGSL's ``ConversionFactorsJson.works()``: both ``factor``s, or all of drive ``gearRatio``,
    ``diameter`` and angle ``gearRatio``. A mixed form (angle by ``factor``, drive by
    ``gearRatio`` and ``diameter``, or the reverse) gives both conversions but does not work."""
    angle, drive = factors.angle, factors.drive
    return (angle.factor != 0 and drive.factor != 0) or (
        drive.gear_ratio != 0 and drive.diameter_in != 0 and angle.gear_ratio != 0
    )


def _written(factors: ConversionFactors) -> bool:
    angle, drive = factors.angle, factors.drive
    return any(
        v != 0 for v in (angle.factor, angle.gear_ratio, drive.factor, drive.gear_ratio)
    ) or (drive.diameter_in != 0)


def _pick(mine: float, theirs: float) -> float:
    return mine if mine != 0 else theirs


def effective_factors(own: ConversionFactors, physical: ConversionFactors) -> ConversionFactors:
    """The ``conversionFactors`` a module uses, each axis whole from the file it is taken from.

    As YAGSL's ``ModuleJson.createModuleConfiguration``: a module's own that work are used, axis
    by axis, where they give that axis, else physicalproperties.json's (so each axis's factor, gear
    ratio and diameter come from one file; a module's own that work give both axes, so in practice
    they are used whole); a module's own that do not work beside physical ones that do are
    dropped for the physical ones. Where neither works on its own (YAGSL would end with an
    Infinity or NaN factor), the two are merged field by field instead."""
    if works(own):
        return ConversionFactors(
            own.angle if angle_given(own) else physical.angle,
            own.drive if drive_given(own) else physical.drive,
        )
    if works(physical):
        return physical
    angle = AngleConversion(
        gear_ratio=_pick(own.angle.gear_ratio, physical.angle.gear_ratio),
        factor=_pick(own.angle.factor, physical.angle.factor),
    )
    drive = DriveConversion(
        gear_ratio=_pick(own.drive.gear_ratio, physical.drive.gear_ratio),
        diameter_in=_pick(own.drive.diameter_in, physical.drive.diameter_in),
        factor=_pick(own.drive.factor, physical.drive.factor),
        factor_counts=(own if own.drive.factor != 0 else physical).drive.factor_counts,
    )
    return ConversionFactors(angle, drive)


def _drive_is_own(own: ConversionFactors, physical: ConversionFactors) -> bool:
    """Whether the drive conversion :func:`effective_factors` gives comes from the module file."""
    if works(own):
        return drive_given(own)
    if works(physical):
        return False
    # Merged field by field: the drive is the module's when the field that decides it is.
    if own.drive.factor != 0 or physical.drive.factor != 0:
        return own.drive.factor != 0
    return own.drive.gear_ratio != 0 or own.drive.diameter_in != 0


def drive_decided_by(own: ConversionFactors, physical: ConversionFactors) -> tuple[bool, str]:
    """Which file and field decide the drive conversion :func:`effective_factors` gives: whether
    the module file (else physicalproperties.json), and ``"factor"`` when a non-zero ``factor``
    gives it (it wins over ``gearRatio`` and ``diameter``), else ``"diameter"`` (the wheel
    diameter, with a ``gearRatio``). Where neither file works on its own (merged field by field),
    the field is the file's that gives it."""
    if works(own) or works(physical):
        own_file = _drive_is_own(own, physical)
        drive = own.drive if own_file else physical.drive
        return own_file, "factor" if drive.factor != 0 else "diameter"
    if own.drive.factor != 0 or physical.drive.factor != 0:
        return own.drive.factor != 0, "factor"
    return own.drive.diameter_in != 0, "diameter"


def _ignored_override(own: ConversionFactors) -> str:
    """The warning for a module's ``conversionFactors`` that YAGSL drops (it does not work)."""
    if angle_given(own) and drive_given(own):
        angle = "`factor`" if own.angle.factor != 0 else "`gearRatio`"
        drive = "`factor`" if own.drive.factor != 0 else "`gearRatio` and `diameter`"
        what = (
            f"gives the angle by {angle} and the drive by {drive}, a mix YAGSL does not accept "
            "as an override"
        )
    else:
        what = "gives only part of the conversion"
    return (
        f"this module's `conversionFactors` {what}, so it is ignored and {PHYSICAL_FILE}'s is "
        "used, as YAGSL does; to override here, YAGSL needs both `factor`s, or all of drive "
        "`gearRatio` and `diameter` and angle `gearRatio`, in this module file"
    )


def resolve_conversion(
    module: ObjectView,
    own: ConversionFactors,
    physical: ConversionFactors,
    drive_type: str | None,
    reporter: Reporter,
    physical_file: FileContext | None,
    legacy: tuple[str | None, str | None] = (None, None),
) -> ResolvedConversion | None:
    """One module's conversion, chosen as YAGSL chooses it (:func:`effective_factors`): a
    module's own ``conversionFactors`` that work win, axis by axis, over physicalproperties';
    an override that does not work (a partial one, or the mixed form: angle by ``factor`` and
    drive by ``gearRatio`` and ``diameter``, or the reverse) beside working physical properties
    is dropped, with a warning. Where YAGSL would end with an Infinity or NaN factor (neither
    file works on its own), swervelib merges field by field instead, or reports what is missing.
    The gear ratios and wheel diameter come from the same file as their axis's conversion.
    ``legacy`` says whether the module file and physicalproperties.json hold a pre-2024.5
    ``conversionFactor``."""
    if works(physical) and not works(own) and _written(own):
        module.warn("conversionFactors", _ignored_override(own))
    factors = effective_factors(own, physical)
    angle_factor, angle_ratio = factors.angle.factor, factors.angle.gear_ratio
    drive_factor = factors.drive.factor
    drive_ratio, diameter = factors.drive.gear_ratio, factors.drive.diameter_in
    where = f"{PHYSICAL_FILE} or this module file"
    angle_missing = not angle_given(factors)
    drive_missing = not drive_given(factors)
    if (angle_missing or drive_missing) and any(legacy):
        _legacy_only(module, legacy, reporter, physical_file)
        return None
    if angle_missing:
        module.error(
            "conversionFactors.angle",
            f"no angle conversion: set conversionFactors.angle.gearRatio in {where}",
            expected="gearRatio (motor rotations per module rotation) or factor",
        )
    if drive_missing:
        missing = [n for n, v in (("gearRatio", drive_ratio), ("diameter", diameter)) if v == 0]
        module.error(
            "conversionFactors.drive",
            f"no drive conversion: set conversionFactors.drive.{' and '.join(missing)} in {where}",
            expected="gearRatio and diameter (inches), or factor (metres per rotation)",
        )
    if angle_missing or drive_missing:
        return None
    if legacy[0] is not None:
        warn_stale_legacy(module, legacy[0])
    angle_deg = angle_factor if angle_factor != 0 else 360.0 / angle_ratio
    if drive_factor != 0:
        drive_m = drive_factor
        counts = factors.drive.factor_counts
        how = f"factor {drive_factor:g}"
        if counts != 1:
            written = drive_factor / counts
            how = (
                f"factor {written:g} m per Talon SRX native count, {drive_factor:g} m per rotation"
            )
    else:
        drive_m = math.pi * diameter * INCH / drive_ratio
        how = f"gearRatio {drive_ratio:g} and diameter {diameter:g} in"
    source = Source(module.context, ("conversionFactors", "drive"))
    if not _drive_is_own(own, physical) and physical_file is not None:
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


def _legacy_only(
    module: ObjectView,
    legacy: tuple[str | None, str | None],
    reporter: Reporter,
    physical_file: FileContext | None,
) -> None:
    """The error for a conversion that only the old ``conversionFactor`` gives, where that key is
    (once for physicalproperties.json). It never proposes the old numbers as new ones: an angle of
    360 meant "steer on the attached encoder" only beside such an encoder, and read as degrees per
    motor rotation it turns a 46:1 module 46 times too far."""
    own_key, physical_key = legacy
    key = own_key or physical_key or LEGACY_KEY
    whose = "this module's conversion" if own_key else "the modules' conversions"
    message = (
        f"only `{key}` (an older YAGSL format) gives {whose}, and YAGSL 2025+ and swervelib "
        f"do not read it: {MIGRATE_HINT}"
    )
    expected = "conversionFactors (angle gearRatio; drive gearRatio and diameter)"
    if own_key is not None:
        module.error(own_key, message, expected=expected, found=describe(module.data[own_key]))
    elif physical_file is not None:
        value = physical_file.document.value
        found = describe(value.get(key) if isinstance(value, dict) else None)
        reporter.error(Source(physical_file, (key,)), message, expected, found)
