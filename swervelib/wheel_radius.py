"""Measuring the wheels' real diameter: spin the robot in place and compare the gyro's rotation
with how far the wheels say they rolled.

Spinning in place, each wheel's contact point travels rotation × its distance from the centre.
Odometry turns wheel rotations into metres through the configured diameter, so the real diameter
is the configured one times (gyro rotation × distance from the centre) / (distance odometry
counted), averaged over the modules. Tread wear changes it by a few percent, which odometry
otherwise carries into every metre driven.

A wheel whose drive encoder counted less than a quarter of the distance the rotation took it
(:data:`ROLLED_FRACTION`) did not roll as far as the measurement can tell: its encoder stopped
answering (the module keeps its last reading) or is not counting. It is left out, and
:attr:`WheelDiameter.left_out` names it; with no wheel left there is nothing to measure.

Use: ``WheelRadiusCharacterization(drive)``, then every loop ``step()`` (it drives the spin and
takes the readings, after the drive's ``periodic()``), then ``result()`` after a few turns; on a
robot, on carpet. :func:`write_wheel_diameter` puts the result in ``physicalproperties.json``
(``conversionFactors.drive.diameter``, inches) through the safe-write tools (atomic, key order
kept, a backup of what it replaces).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wpimath.kinematics import ChassisSpeeds

from swervelib.config.model import INCH

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
        diameter = drive.config.modules[0].conversion.wheel_diameter_m
        if diameter is None:
            raise ValueError(
                "the configuration gives the drive conversion as a factor, with no wheel diameter "
                "to correct: give conversionFactors.drive as gearRatio and diameter"
            )
        self.drive = drive
        self.omega = omega
        self.configured_m = diameter
        self._heading = drive.get_raw_yaw().radians()
        self._start = [m.get_position().distance for m in drive.modules]
        self.turned_rad = 0.0

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
        ratios = []
        rolled = []
        left_out = []
        for module, start in zip(self.drive.modules, self._start, strict=True):
            counted = abs(module.get_position().distance - start)
            arc = turned * module.location.norm()
            if not counted > ROLLED_FRACTION * arc:  # (not >: a NaN did not roll either)
                left_out.append(module.name)
                continue
            ratios.append(arc / counted)
            rolled.append(counted)
        if not ratios:
            raise ValueError(
                f"no wheel rolled: the robot turned {math.degrees(turned):.0f}° but no drive "
                "encoder counted a quarter of its wheel's travel (not answering?)"
            )
        diameter = self.configured_m * sum(ratios) / len(ratios)
        return WheelDiameter(diameter, self.turned_rad, sum(rolled) / len(rolled), tuple(left_out))


def write_wheel_diameter(
    directory: str | os.PathLike[str], diameter_in: float, *, dry_run: bool = False
) -> EditResult:
    """Write ``diameter_in`` (inches, rounded to 0.001) as ``conversionFactors.drive.diameter``
    in ``physicalproperties.json``, through the safe-write tools."""
    from swervelib.tools.edit import ConfigEditor

    if not (math.isfinite(diameter_in) and 0.5 < diameter_in < 20.0):
        raise ValueError(f"a wheel diameter of {diameter_in!r} in is not believable")
    with ConfigEditor(directory, dry_run=dry_run) as editor:
        editor.set(PHYSICAL_FILE, DIAMETER_FIELD, round(diameter_in, 3))
        return editor.commit(f"wheel diameter {diameter_in:.3f} in")
