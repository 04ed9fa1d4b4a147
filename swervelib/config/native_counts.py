"""The unit YAGSL reads a ``conversionFactors`` ``factor`` in: a Talon SRX's native counts.

YAGSL applies a Talon SRX's conversion factor to the Talon's native position and velocity
(``TalonSRXSwerve``: ``getSelectedSensorPosition() * factor``), so a YAGSL folder with a Talon SRX
writes its ``factor`` per native count: degrees (angle) or metres (drive) per count, 360 /
(gearRatio × 4096) for an SRX Mag Encoder. Every other controller YAGSL builds takes the factor
per motor rotation. swervelib's Talon SRX counts 4096 native units per motor rotation (see
:mod:`swervelib.devices.ctre5.talonsrx`), so such a factor is read × 4096, into degrees or metres
per motor rotation like every other. A ``gearRatio`` (and ``diameter``) means the same for every
controller. Pure Python.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from swervelib.config.bounds import Range
from swervelib.config.catalog import MOTOR_TYPES

TALONSRX_COUNTS_PER_ROTATION: Final = 4096
"""Native counts per motor rotation of a Talon SRX's sensor (an SRX Mag Encoder, or any 1024 CPR
encoder decoded 4x)."""


@dataclass(frozen=True, slots=True)
class FactorUnits:
    """Native counts per motor rotation that the angle and drive ``factor`` are written per: 1
    (per motor rotation) unless that motor is a Talon SRX."""

    angle: int = 1
    drive: int = 1


PER_ROTATION: Final = FactorUnits()
"""Both factors per motor rotation (no Talon SRX)."""


def counts_per_rotation(motor_type: object) -> int:
    """The counts per motor rotation a ``factor`` for a motor of ``motor_type`` is written per."""
    entry = MOTOR_TYPES.get(motor_type) if isinstance(motor_type, str) else None
    if entry is not None and entry.controller == "talonsrx":
        return TALONSRX_COUNTS_PER_ROTATION
    return 1


def units_for(angle_type: object, drive_type: object) -> FactorUnits:
    """The units of a module's factors, from its angle and drive motor types."""
    return FactorUnits(counts_per_rotation(angle_type), counts_per_rotation(drive_type))


def module_units(module: object) -> FactorUnits:
    """The units of a module file's factors, from its parsed JSON: the ``type`` its ``angle`` and
    ``drive`` motors are written with (anything unreadable: per motor rotation)."""

    def motor_type(key: str) -> object:
        device = module.get(key) if isinstance(module, dict) else None
        return device.get("type") if isinstance(device, dict) else None

    return units_for(motor_type("angle"), motor_type("drive"))


def shared_units(modules: list[FactorUnits]) -> FactorUnits:
    """The units of physicalproperties.json's factors, which every module shares: per native count
    for an axis only when every module's motor on it is a Talon SRX."""
    angle = {m.angle for m in modules}
    drive = {m.drive for m in modules}
    return FactorUnits(
        angle.pop() if len(angle) == 1 else 1,
        drive.pop() if len(drive) == 1 else 1,
    )


def per_count(within: Range, counts: int) -> Range:
    """``within`` (a range per motor rotation) for a factor written per native count."""
    if counts == 1:
        return within

    def scaled(value: float | None) -> float | None:
        return None if value is None else value / counts

    unit = within.unit.replace("per motor rotation", "per Talon SRX native count")
    # The reasons speak of the factor per motor rotation, which is this one x counts.
    scale = f"; the factor per motor rotation is this one x {counts}"
    return replace(
        within,
        low=within.low / counts,
        high=within.high / counts,
        warn_low=scaled(within.warn_low),
        warn_high=scaled(within.warn_high),
        unit=f"{unit} (YAGSL's unit for a Talon SRX, {counts} per motor rotation)",
        too_low=within.too_low + scale,
        too_high=within.too_high + scale,
    )
