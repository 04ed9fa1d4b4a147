"""What the drive refuses at its public entry points, and how it says so.

The drive's promise: no value that is not a finite number ever reaches a motor or the pose. Each
public command checks its own inputs here before doing anything with them; a refused command stops
the drive and shows a warning Alert naming the call and the value (the motor adapters check once
more, just before every vendor call: :mod:`swervelib.devices.guard`).

The field area bounds the poses the drive accepts from vision: a measurement off the field is a
bad tag solve, never where the robot is. ``reset_pose`` takes any pose within 1 km (a practice
floor is not a field); neither takes one that is not finite.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import wpilib
from wpimath.geometry import Pose2d, Rotation2d, Translation2d

from swervelib.devices.faults import FaultAlert
from swervelib.text import shown_number

# The 2026 FRC field (REBUILT) inside its walls, in metres.
FIELD_LENGTH_M = 16.541
FIELD_WIDTH_M = 8.069
FIELD_MARGIN_M = 1.0
# A centre of rotation further than this from the robot is not a centre of rotation.
MAX_CENTER_OF_ROTATION_M = 1000.0
MAX_ANGLE_RAD = 1e6
# No pose is further than this from the origin, on a field or off it.
MAX_DISTANCE_M = 1000.0


@dataclass(frozen=True, slots=True)
class FieldArea:
    """Where a pose given to the drive may be: the field, blue-origin, plus ``margin_m`` around it.

    ``SwerveDrive.field`` holds the one in use; set it to a bigger area (a practice space) or to
    None to accept any finite pose.
    """

    length_m: float = FIELD_LENGTH_M
    width_m: float = FIELD_WIDTH_M
    margin_m: float = FIELD_MARGIN_M

    def contains(self, pose: Pose2d) -> bool:
        margin = self.margin_m
        return (
            -margin <= pose.X() <= self.length_m + margin
            and -margin <= pose.Y() <= self.width_m + margin
        )


def usable_rotation(rotation: Rotation2d) -> bool:
    """Finite, and an angle: ``Rotation2d(1e308)`` is finite, but its direction is rounding noise
    (a double has no digits left below 2π at that size), so more than a million radians is not
    taken as a direction either."""
    radians = rotation.radians()
    return (
        -MAX_ANGLE_RAD <= radians <= MAX_ANGLE_RAD
        and math.isfinite(rotation.cos())
        and math.isfinite(rotation.sin())
    )


def pose_problem(pose: Pose2d, field: FieldArea | None) -> tuple[str, str] | None:
    """``(reason, explanation)`` when ``pose`` cannot be used, else None."""
    x, y = pose.X(), pose.Y()
    if not (math.isfinite(x) and math.isfinite(y) and usable_rotation(pose.rotation())):
        angle = shown_number(pose.rotation().radians())
        return (
            "pose not finite",
            f"pose ({shown_number(x)}, {shown_number(y)}, {angle} rad) is not finite (angles within ±1e6 rad)",
        )
    if not (-MAX_DISTANCE_M <= x <= MAX_DISTANCE_M and -MAX_DISTANCE_M <= y <= MAX_DISTANCE_M):
        return "off the field", f"pose ({x:g}, {y:g}) m is more than {MAX_DISTANCE_M:g} m away"
    if field is not None and not field.contains(pose):
        return "off the field", (
            f"pose ({x:.2f} m, {y:.2f} m) is off the field "
            f"({field.length_m:g} × {field.width_m:g} m, ±{field.margin_m:g} m)"
        )
    return None


def center_problem(center: Translation2d) -> str | None:
    """Why a centre of rotation cannot be used, or None."""
    x, y = center.X(), center.Y()
    if not (math.isfinite(x) and math.isfinite(y)):
        return f"center_of_rotation ({shown_number(x)}, {shown_number(y)}) is not finite"
    if abs(x) > MAX_CENTER_OF_ROTATION_M or abs(y) > MAX_CENTER_OF_ROTATION_M:
        return (
            f"center_of_rotation ({x:g}, {y:g}) m is more than {MAX_CENTER_OF_ROTATION_M:g} m away"
        )
    return None


class Refusals:
    """Counts the calls the drive refused and shows the latest on one warning Alert.

    The Alert stays up once shown: a refused call is a bug in the code that made it, and the
    count says how often it happened.
    """

    def __init__(self, label: str) -> None:
        self.count = 0
        self.last: str | None = None
        self._alert = FaultAlert(label, wpilib.Alert.AlertType.kWarning)

    def refuse(self, call: str, why: str, action: str) -> None:
        self.count += 1
        self.last = f"{call}: {why}"
        self._alert.update(f"refused {call}: {why}; {action} ({self.count} refused so far)")
