"""Layout lint: things that load but are probably mistakes (reported as warnings).

* a ``location`` whose signs contradict the module's name (``frontright`` with a positive ``left``);
* modules not symmetric about the robot centre (their locations do not add up to zero);
* one CAN id used by devices of different kinds on one bus (legal, but easy to mix up);
* an ``absoluteEncoderOffset`` outside ±360°;
* CAN ids above 40 (YAGSL's warning: some devices behave oddly at high ids);
* one module whose gear ratio, wheel diameter or conversion differs wildly from the others' (a lost
  or doubled digit in a per-module override).
"""

from __future__ import annotations

from collections.abc import Sequence

from swervelib.config.catalog import ENCODER_TYPES, IMU_TYPES, MOTOR_TYPES, Bus
from swervelib.config.errors import Problem, Severity
from swervelib.config.model import DeviceConfig, DriveConfig, ModuleConfig

HIGH_CAN_ID = 40
OUTLIER_RATIO = 1.5  # a module's value this many times the others' median (or below 1/this)
SYMMETRY_TOLERANCE_IN = 0.5


def _warn(file: str, field: str, message: str) -> Problem:
    return Problem(file, field, message, severity=Severity.WARNING)


def _name_signs(name: str) -> tuple[int, int]:
    """(+1 front / −1 back / 0, +1 left / −1 right / 0) that the module's name claims."""
    lowered = name.lower()
    front = 1 if "front" in lowered else -1 if "back" in lowered or "rear" in lowered else 0
    left = 1 if "left" in lowered else -1 if "right" in lowered else 0
    return front, left


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def layout_warnings(drive: DriveConfig, modules: Sequence[ModuleConfig]) -> list[Problem]:
    problems: list[Problem] = []
    for module in modules:
        front, left = _name_signs(module.name)
        loc = module.location
        for claimed, value, axis, words in (
            (front, loc.front_in, "front", ("front", "back")),
            (left, loc.left_in, "left", ("left", "right")),
        ):
            if claimed and _sign(value) != claimed:
                side = words[0] if claimed > 0 else words[1]
                problems.append(
                    _warn(
                        module.file,
                        f"location.{axis}",
                        f"`{module.name}` is named {side} but location.{axis} is {value:g} "
                        f"({axis} positive means {words[0]})",
                    )
                )
        if abs(module.absolute_encoder_offset_deg) > 360.0:
            problems.append(
                _warn(
                    module.file,
                    "absoluteEncoderOffset",
                    f"offset {module.absolute_encoder_offset_deg:g}° is outside ±360°",
                )
            )
    if len(modules) >= 2:
        front_sum = sum(m.location.front_in for m in modules)
        left_sum = sum(m.location.left_in for m in modules)
        if abs(front_sum) > SYMMETRY_TOLERANCE_IN or abs(left_sum) > SYMMETRY_TOLERANCE_IN:
            problems.append(
                _warn(
                    "swervedrive.json",
                    "modules",
                    f"the modules are not symmetric about the robot centre (locations add up "
                    f"to front {front_sum:g} in, left {left_sum:g} in)",
                )
            )
    problems += _id_warnings(drive, modules)
    problems += _outliers(modules)
    return problems


_COMPARED: tuple[tuple[str, str, str], ...] = (
    ("angle_gear_ratio", "conversionFactors.angle", "angle gear ratio"),
    ("drive_gear_ratio", "conversionFactors.drive", "drive gear ratio"),
    ("wheel_diameter_m", "conversionFactors.drive.diameter", "wheel diameter"),
    ("drive_m_per_rotation", "conversionFactors.drive", "drive conversion"),
)


def _outliers(modules: Sequence[ModuleConfig]) -> list[Problem]:
    """A module whose conversion is far from the others' (swerve modules of one robot match)."""
    problems: list[Problem] = []
    if len(modules) < 3:
        return problems
    flagged: set[str] = set()  # one warning per module is enough
    for attribute, field, what in _COMPARED:
        values = [getattr(m.conversion, attribute) for m in modules]
        for index, module in enumerate(modules):
            value = values[index]
            others = sorted(v for i, v in enumerate(values) if i != index and v)
            if not value or not others or module.name in flagged:
                continue
            median = others[len(others) // 2]
            if max(value / median, median / value) >= OUTLIER_RATIO:
                problems.append(
                    _warn(
                        module.file,
                        field,
                        f"`{module.name}` has a {what} of {value:.4g} while the other modules "
                        f"have {median:.4g}: a lost or extra digit?",
                    )
                )
                flagged.add(module.name)
    return problems


def _id_warnings(drive: DriveConfig, modules: Sequence[ModuleConfig]) -> list[Problem]:
    placed: list[tuple[str, str, str, DeviceConfig]] = [
        ("swervedrive.json", "imu", "IMU", drive.imu)
    ]
    for module in modules:
        placed += [
            (module.file, "drive", "motor controller", module.drive),
            (module.file, "angle", "motor controller", module.angle),
            (module.file, "encoder", "absolute encoder", module.encoder),
        ]
    problems: list[Problem] = []
    owners: dict[tuple[str, int], tuple[str, str, str]] = {}
    for file, field, kind, device in placed:
        if field == "imu":
            bus = IMU_TYPES[device.type].bus
        elif field == "encoder":
            bus = ENCODER_TYPES[device.type].bus
        else:
            bus = MOTOR_TYPES[device.type].bus
        if bus is not Bus.CAN:
            continue
        if device.id > HIGH_CAN_ID:
            problems.append(
                _warn(
                    file,
                    f"{field}.id",
                    f"CAN id {device.id} is above {HIGH_CAN_ID}; some devices misbehave at high "
                    "ids, prefer lower ones",
                )
            )
        slot = (device.canbus or "rio", device.id)
        other = owners.setdefault(slot, (file, field, kind))
        # Another device on this id and bus: of another kind, or (the loader refuses two of one
        # maker's kind) a motor controller of another maker, a Spark beside a Talon.
        if other != (file, field, kind):
            problems.append(
                _warn(
                    file,
                    f"{field}.id",
                    f"CAN id {device.id} is also used by the {other[2]} in {other[0]} `{other[1]}` "
                    "(allowed for different device kinds, but easy to mix up)",
                )
            )
    return problems
