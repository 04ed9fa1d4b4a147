"""HardwareTruth: what is physically on the robot, independent of any configuration.

A configuration *claims* which devices sit at which corner and which way each turns; the truth says
what is really there. Simulating a truth with a configuration that disagrees with it reproduces the
symptoms the spec describes (a module spinning out of control, field-oriented drive that changes
with heading, odometry moving backwards, ...).

JSON form (``HardwareTruth.save`` / ``load``)::

    {
      "imu_reversed": false,
      "corners": {
        "frontleft": {"front": 10.75, "left": 10.75, "drive_id": 1, "angle_id": 2,
                       "encoder_id": 9, "drive_reversed": false, "angle_reversed": false,
                       "encoder_reversed": false, "encoder_zero_deg": 12.3},
        ...
      }
    }

Locations are inches (as in module files). For each corner:

* ``drive_reversed``: the un-inverted drive motor, given positive output, rolls the wheel backwards.
* ``angle_reversed``: the un-inverted angle motor, given positive output, turns the module clockwise
  seen from above.
* ``encoder_reversed``: the un-inverted absolute encoder's reading decreases as the module turns
  counter-clockwise.
* ``encoder_zero_deg``: the encoder's reading, after the correct inversion, when the wheel faces
  the robot's front.
* ``angle_gear_ratio``: angle-motor rotations per module rotation, or ``null``: the ratio the
  configuration gives, or, for a module steered on its absolute encoder whose configuration gives
  none (YAGSL's ``conversionFactors.angle.factor: 360``), REV MAXSwerve's 9424:203 (about 46.42:1,
  ``swervelib.devices.settings.DEFAULT_STEER_GEAR_RATIO``).

``imu_reversed``: the un-inverted IMU's yaw decreases as the robot turns counter-clockwise.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from swervelib.config.model import SwerveConfig


@dataclass(frozen=True, slots=True)
class CornerTruth:
    """One physical corner of the robot and the devices really mounted there."""

    name: str
    front: float  # inches
    left: float  # inches
    drive_id: int
    angle_id: int
    encoder_id: int
    drive_reversed: bool = False
    angle_reversed: bool = False
    encoder_reversed: bool = False
    encoder_zero_deg: float = 0.0
    angle_gear_ratio: float | None = None  # None: the configured one (see the module docstring)


@dataclass(frozen=True, slots=True)
class HardwareTruth:
    """The physical robot: its corners and whether its IMU is mounted reversed."""

    corners: tuple[CornerTruth, ...]
    imu_reversed: bool = False

    @classmethod
    def matching(cls, config: SwerveConfig) -> HardwareTruth:
        """The hardware that ``config`` describes correctly."""
        corners = tuple(
            CornerTruth(
                name=m.name,
                front=m.location.front_in,
                left=m.location.left_in,
                drive_id=m.drive.id,
                angle_id=m.angle.id,
                encoder_id=m.encoder.id,
                drive_reversed=m.inverted.drive,
                angle_reversed=m.inverted.angle,
                encoder_reversed=m.absolute_encoder_inverted,
                encoder_zero_deg=m.absolute_encoder_offset_deg,
            )
            for m in config.modules
        )
        return cls(corners, imu_reversed=config.drive.imu_inverted)

    def corner(self, name: str) -> CornerTruth:
        for corner in self.corners:
            if corner.name == name:
                return corner
        raise KeyError(f"no corner named {name!r}; corners: {[c.name for c in self.corners]}")

    def with_corner(self, name: str, **changes: Any) -> HardwareTruth:
        """A copy with one corner changed, e.g. ``truth.with_corner("frontleft", angle_reversed=True)``."""
        corners = tuple(replace(c, **changes) if c.name == name else c for c in self.corners)
        self.corner(name)
        return replace(self, corners=corners)

    def to_json(self) -> dict[str, Any]:
        corners = {}
        for corner in self.corners:
            fields = asdict(corner)
            del fields["name"]
            corners[corner.name] = fields
        return {"imu_reversed": self.imu_reversed, "corners": corners}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HardwareTruth:
        corners = tuple(
            CornerTruth(
                name=name,
                front=float(fields["front"]),
                left=float(fields["left"]),
                drive_id=int(fields["drive_id"]),
                angle_id=int(fields["angle_id"]),
                encoder_id=int(fields["encoder_id"]),
                drive_reversed=bool(fields.get("drive_reversed", False)),
                angle_reversed=bool(fields.get("angle_reversed", False)),
                encoder_reversed=bool(fields.get("encoder_reversed", False)),
                encoder_zero_deg=float(fields.get("encoder_zero_deg", 0.0)),
                angle_gear_ratio=_optional_float(fields.get("angle_gear_ratio")),
            )
            for name, fields in data["corners"].items()
        )
        return cls(corners, imu_reversed=bool(data.get("imu_reversed", False)))

    def save(self, path: str | os.PathLike[str]) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> HardwareTruth:
        return cls.from_json(json.loads(Path(path).read_text()))


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)
