"""Checks that need more than one field: where the wheels are, what a module's conversion works
out to, and ``maxSpeed`` against the modules' free speeds.

Each problem points at a field of a file (line and column), like the single-field checks. A value
that every module takes from ``physicalproperties.json`` is reported once, there, rather than once
per module. Pure Python.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from swervelib.config.bounds import (
    DRIVE_METRES_PER_ROTATION,
    FREE_SPEED,
    MIN_MAX_SPEED_FRACTION,
    MIN_MODULE_SPACING_IN,
)
from swervelib.config.catalog import MOTOR_FREE_SPEED_RPS, MOTOR_TYPES
from swervelib.config.fields import FileContext
from swervelib.config.jsonpos import PathKey
from swervelib.config.model import ModuleConfig

FOOT = 0.3048  # metres per foot
FEET_TOLERANCE = 1.1  # a maxSpeed in ft/s converts to at most about the modules' free speed
FEET_THRESHOLD_MPS = 7.0
"""The fastest plausible swerve drive in metres per second: only a ``maxSpeed`` above it is taken
for the 2023 format's feet per second (here and by ``migrate``)."""


@dataclass(frozen=True, slots=True)
class Source:
    """Where a resolved value was written: a file and the path of the object holding it."""

    file: FileContext
    path: PathKey


class Reporter:
    """Reports each (file, field, message) once, however many modules run into it."""

    def __init__(self) -> None:
        self._done: set[tuple[str, PathKey, str]] = set()

    def error(self, source: Source, message: str, expected: str, found: str) -> None:
        self._report(source, message, expected, found, warning=False)

    def warn(self, source: Source, message: str, expected: str, found: str) -> None:
        self._report(source, message, expected, found, warning=True)

    def _report(
        self, source: Source, message: str, expected: str, found: str, *, warning: bool
    ) -> None:
        key = (source.file.file, source.path, message)
        if key in self._done:
            return
        self._done.add(key)
        if warning:
            source.file.warn(source.path, message, expected=expected, found=found)
        else:
            source.file.report(source.path, message, expected=expected, found=found)


def drive_conversion_ok(
    reporter: Reporter, source: Source, metres: float, motor_type: str | None, how: str
) -> bool:
    """Error if ``metres`` per drive-motor rotation is out of range (``how`` says where it came
    from); otherwise warn if the wheel's free speed with ``motor_type`` (when known) is unusual.
    True when usable."""
    if not DRIVE_METRES_PER_ROTATION.accepts(metres):
        why = DRIVE_METRES_PER_ROTATION.error(metres) or "not a finite number"
        reporter.error(
            source,
            f"the drive conversion ({how}) is out of range: {why}",
            DRIVE_METRES_PER_ROTATION.expected(),
            f"{metres:.4g} metres per motor rotation",
        )
        return False
    if motor_type is None:
        return True
    motor = MOTOR_TYPES[motor_type].motor
    speed = MOTOR_FREE_SPEED_RPS[motor] * metres
    oddity = FREE_SPEED.warning(speed)
    if oddity is not None:
        reporter.warn(
            source,
            f"unusual wheel free speed with a {motor.value} ({how}): {oddity}",
            FREE_SPEED.usual(),
            f"{speed:.3g} m/s",
        )
    return True


def location_spacing(
    reporter: Reporter, modules: Sequence[tuple[ModuleConfig, FileContext]]
) -> None:
    """Error for two wheels closer than :data:`MIN_MODULE_SPACING_IN` (WPILib's kinematics are
    singular for two wheels at one place, and no two modules fit that close)."""
    for index, (module, file) in enumerate(modules):
        here = module.location
        for other, _ in modules[:index]:
            there = other.location
            gap = math.hypot(here.front_in - there.front_in, here.left_in - there.left_in)
            if gap >= MIN_MODULE_SPACING_IN:
                continue
            if gap == 0:
                message = f"same location as {other.file}; two wheels cannot share a place"
            else:
                message = (
                    f"{gap:.3g} in from the wheel of {other.file}; two wheels cannot be closer "
                    f"than {MIN_MODULE_SPACING_IN:g} in"
                )
            reporter.error(
                Source(file, ("location",)),
                message,
                f"at least {MIN_MODULE_SPACING_IN:g} in between module locations",
                f"front {here.front_in:g}, left {here.left_in:g}",
            )
            break


def max_speed(
    reporter: Reporter, source: Source, speed: float, modules: Sequence[ModuleConfig]
) -> None:
    """``maxSpeed`` (m/s) against the modules: an error when the wheels would never steer, a
    warning when the drive cannot reach it."""
    if not modules:
        return
    fastest = max(module.max_drive_speed_mps for module in modules)
    slowest = min(module.max_drive_speed_mps for module in modules)
    floor = MIN_MAX_SPEED_FRACTION * fastest
    if speed < floor:
        reporter.error(
            source,
            "out of range: below 1 % of their free speed the modules hold their angle instead "
            f"of steering, so maxSpeed must be at least {MIN_MAX_SPEED_FRACTION:.0%} of the "
            f"fastest module's free speed ({fastest:.3g} m/s)",
            f"at least {floor:.3g} m/s",
            f"{speed:.4g} m/s",
        )
    elif speed > slowest:
        feet = speed > FEET_THRESHOLD_MPS and speed * FOOT <= slowest * FEET_TOLERANCE
        reporter.warn(
            source,
            "above the slowest module's free speed: the drive is capped at it"
            + (
                f"; {speed:g} looks like the 2023 YAGSL format's feet per second "
                f"({speed * FOOT:.3g} m/s), which YAGSL 2024+ ignores: "
                "`python -m swervelib migrate --max-speed-in-feet DIRECTORY` converts it"
                if feet
                else ""
            ),
            f"at most {slowest:.3g} m/s",
            f"{speed:.4g} m/s",
        )
