"""Measuring the wheels' real diameter: spin the robot in place and compare the gyro's rotation
with how far the wheels say they rolled.

Spinning in place, each wheel's contact point travels rotation × its distance from the centre.
Odometry turns wheel rotations into metres through the configured diameter, so the real diameter
is each module's configured one times (gyro rotation × distance from the centre) / (distance
odometry counted), averaged over the modules. A module whose drive conversion is given by a
``factor`` has no diameter to correct (a ``diameter`` written beside a non-zero ``factor`` is not
the one odometry uses): such a configuration cannot be measured. Tread wear changes it by a few percent, which odometry
otherwise carries into every metre driven.

A wheel whose drive encoder counted less than a quarter of the distance the rotation took it
(:data:`ROLLED_FRACTION`) did not roll as far as the measurement can tell: its encoder stopped
answering (the module keeps its last reading) or is not counting. It is left out, and
:attr:`WheelDiameter.left_out` names it; with no wheel left there is nothing to measure.

Use: ``WheelRadiusCharacterization(drive)``, then every loop ``step()`` (it drives the spin and
takes the readings, after the drive's ``periodic()``), then ``result()`` after a few turns; on a
robot, on carpet. :func:`write_wheel_diameter` puts the result in
``conversionFactors.drive.diameter`` (inches) where each module's drive conversion comes from
(``physicalproperties.json``, or a module file's own ``conversionFactors``) through the safe-write
tools (one atomic transaction, key order kept, a backup of what it replaces), and refuses a drive
conversion given by ``factor``, which has no diameter to correct.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from wpimath.kinematics import ChassisSpeeds

from swervelib.config.conversions import drive_decided_by
from swervelib.config.model import (
    INCH,
    AngleConversion,
    ConversionFactors,
    DriveConversion,
    ResolvedConversion,
)

if TYPE_CHECKING:
    from swervelib.drive.swerve_drive import SwerveDrive
    from swervelib.tools.edit import EditResult

PHYSICAL_FILE = "modules/physicalproperties.json"
DIAMETER_FIELD = "conversionFactors.drive.diameter"
# A wheel that counted less than this fraction of its travel did not roll (a frozen or dead
# encoder): a measured diameter 4 times the configured one is not wear. A radius written as the
# diameter (half the real one) still measures.
ROLLED_FRACTION = 0.25


@dataclass(frozen=True)
class WheelDiameter:
    """A measurement: the wheel diameter (metres and inches), from ``turned_rad`` of robot
    rotation over ``rolled_m`` of mean counted wheel travel; ``left_out`` names the modules whose
    wheel did not roll (their drive encoder counted less than :data:`ROLLED_FRACTION` of the
    travel), measured without."""

    diameter_m: float
    turned_rad: float
    rolled_m: float
    left_out: tuple[str, ...] = ()

    @property
    def diameter_in(self) -> float:
        return self.diameter_m / INCH


class WheelRadiusCharacterization:
    """Spin ``drive`` in place at ``omega`` rad/s and measure its wheels' real diameter."""

    def __init__(self, drive: SwerveDrive, omega: float = 1.5) -> None:
        configured: dict[str, float] = {}
        by_factor = []
        for module in drive.config.modules:
            diameter = module.conversion.wheel_diameter_m
            if diameter is None or not _uses_diameter(module.conversion, diameter / INCH):
                by_factor.append(module.name)
            else:
                configured[module.name] = diameter
        if by_factor:
            raise ValueError(
                f"the configuration gives the drive conversion of {', '.join(by_factor)} as a "
                "factor, with no wheel diameter to correct: give conversionFactors.drive as "
                "gearRatio and diameter"
            )
        self.drive = drive
        self.omega = omega
        self.configured = configured
        """Each module's configured wheel diameter (metres), by module name."""
        self._heading = drive.get_raw_yaw().radians()
        self._start = [m.get_position().distance for m in drive.modules]
        self.turned_rad = 0.0

    @property
    def configured_m(self) -> float:
        """The modules' configured wheel diameter (metres; their mean if they differ)."""
        return sum(self.configured.values()) / len(self.configured)

    def step(self) -> None:
        """Read this loop's rotation, then command the spin (call after ``periodic()``)."""
        heading = self.drive.get_raw_yaw().radians()
        self.turned_rad += math.remainder(heading - self._heading, math.tau)
        self._heading = heading
        self.drive.drive(ChassisSpeeds(0.0, 0.0, self.omega))

    def result(self) -> WheelDiameter:
        """The diameter measured so far (needs at least a quarter turn), from the wheels that
        rolled. ValueError if the robot has not turned enough, or no wheel rolled."""
        turned = abs(self.turned_rad)
        if turned < math.pi / 2:
            raise ValueError(f"the robot turned {math.degrees(self.turned_rad):.0f}°: spin longer")
        measured = []
        rolled = []
        left_out = []
        for module, start in zip(self.drive.modules, self._start, strict=True):
            counted = abs(module.get_position().distance - start)
            arc = turned * module.location.norm()
            if not counted > ROLLED_FRACTION * arc:  # (not >: a NaN did not roll either)
                left_out.append(module.name)
                continue
            measured.append(self.configured[module.name] * arc / counted)
            rolled.append(counted)
        if not measured:
            raise ValueError(
                f"no wheel rolled: the robot turned {math.degrees(turned):.0f}° but no drive "
                "encoder counted a quarter of its wheel's travel (not answering?)"
            )
        diameter = sum(measured) / len(measured)
        return WheelDiameter(diameter, self.turned_rad, sum(rolled) / len(rolled), tuple(left_out))


def write_wheel_diameter(
    directory: str | os.PathLike[str], diameter_in: float, *, dry_run: bool = False
) -> EditResult:
    """Write ``diameter_in`` (inches, rounded to 0.001) as ``conversionFactors.drive.diameter``
    where each module's drive conversion comes from, as the loader resolves it
    (:func:`swervelib.config.conversions.effective_factors`): ``physicalproperties.json`` for the
    modules that use it, and the module files whose own ``conversionFactors`` give their drive
    conversion; all in one transaction of the safe-write tools.

    ValueError when the diameter is not believable, or when a module's drive conversion is given
    by a non-zero ``conversionFactors.drive.factor`` (which wins over ``gearRatio`` and
    ``diameter``, so there is no diameter to correct; the message names the file). Before writing,
    the result is loaded: :class:`~swervelib.tools.edit.EditError` if it would not load, or if a
    module's drive conversion would not then come from the new diameter. Nothing is written
    unless every module's does."""
    from swervelib.tools.edit import ConfigEditor, EditError

    if not (math.isfinite(diameter_in) and 0.5 < diameter_in < 20.0):
        raise ValueError(f"a wheel diameter of {diameter_in!r} in is not believable")
    value = round(diameter_in, 3)
    with ConfigEditor(directory, dry_run=dry_run) as editor:
        physical = ConversionFactors()
        if editor.has_file(PHYSICAL_FILE):
            physical = _written_factors(editor.get(PHYSICAL_FILE, "conversionFactors", None))
        targets: dict[str, list[str]] = {}  # file → the modules whose diameter it gives
        by_factor: dict[str, list[str]] = {}  # file → the modules whose drive its factor gives
        for file in editor.module_files():
            own = _written_factors(editor.get(file, "conversionFactors", None))
            own_file, field = drive_decided_by(own, physical)
            where = file if own_file else PHYSICAL_FILE
            name = PurePosixPath(file).stem
            (by_factor if field == "factor" else targets).setdefault(where, []).append(name)
        if by_factor:
            raise ValueError(
                "no wheel diameter to correct: "
                + "; ".join(
                    f"{file}: conversionFactors.drive.factor gives the drive conversion of "
                    f"{', '.join(names)} (a non-zero factor wins over gearRatio and diameter)"
                    for file, names in by_factor.items()
                )
                + "; give conversionFactors.drive as gearRatio and diameter there instead"
            )
        for file in targets:
            editor.set(file, DIAMETER_FIELD, value)
        wrong = [
            module.name
            for module in editor.staged_config().modules
            if not _uses_diameter(module.conversion, value)
        ]
        if wrong:
            raise EditError(
                f"refusing to write: with {DIAMETER_FIELD} {value:g} in written in "
                f"{', '.join(targets)}, the drive conversion of {', '.join(wrong)} would still "
                "not come from it"
            )
        return editor.commit(f"wheel diameter {diameter_in:.3f} in")


def _written_factors(value: Any) -> ConversionFactors:
    """``conversionFactors`` as written (parsed JSON): what is not a number reads as 0 here (the
    loader refuses it, and so does the write)."""

    def part(key: str) -> dict[str, Any]:
        found = value.get(key) if isinstance(value, dict) else None
        return found if isinstance(found, dict) else {}

    def number(values: dict[str, Any], key: str) -> float:
        found = values.get(key)
        if isinstance(found, bool) or not isinstance(found, int | float):
            return 0.0
        try:
            return float(found)
        except OverflowError:  # an integer of hundreds of digits: out of range, but not 0
            return math.inf

    angle, drive = part("angle"), part("drive")
    return ConversionFactors(
        AngleConversion(number(angle, "gearRatio"), number(angle, "factor")),
        DriveConversion(
            number(drive, "gearRatio"), number(drive, "diameter"), number(drive, "factor")
        ),
    )


def _uses_diameter(conversion: ResolvedConversion, diameter_in: float) -> bool:
    """Whether ``conversion``'s drive is worked out from a wheel of ``diameter_in`` inches."""
    ratio, diameter = conversion.drive_gear_ratio, conversion.wheel_diameter_m
    if ratio is None or diameter is None or not math.isclose(diameter, diameter_in * INCH):
        return False
    return math.isclose(conversion.drive_m_per_rotation, math.pi * diameter / ratio)
