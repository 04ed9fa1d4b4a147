"""PathPlanner's robot settings (``deploy/pathplanner/settings.json``) from the swerve JSON.

The GUI generates paths with the robot it is told about, and ``RobotConfig.fromGUISettings()``
reads the same file on the robot. :func:`robot_properties` reads what PathPlanner needs from a
loaded configuration (pure Python: no pathplannerlib, no wpilib), :func:`gui_settings` turns it into
the file's keys, and :func:`write_gui_settings` puts them in ``settings.json`` through the
safe-write tools: only those keys change; the GUI's own settings, key order and unknown keys stay,
and a backup of the replaced file is kept.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from swervelib.config.catalog import Motor
from swervelib.sim.chassis import bumper_box, moment_of_inertia

if TYPE_CHECKING:
    from swervelib.config.model import ModuleConfig, SwerveConfig
    from swervelib.tools.edit import EditResult

SETTINGS_FILE = "settings.json"
DEFAULT_WHEEL_DIAMETER_M = 0.1016  # when the configuration gives only a conversion factor
# settings.json's driveMotorType: the motors PathPlanner's RobotConfig.fromGUISettings() knows
GUI_MOTOR_NAMES: Final = {
    Motor.KRAKEN_X60: "krakenX60",
    Motor.KRAKEN_X60_FOC: "krakenX60FOC",
    Motor.FALCON500: "falcon500",
    Motor.FALCON500_FOC: "falcon500FOC",
    Motor.VORTEX: "vortex",
    Motor.NEO: "NEO",
    Motor.CIM: "CIM",
}
# the GUI's positional module keys, and where each module sits (front > 0, left > 0)
GUI_MODULES: Final = (
    ("fl", True, True),
    ("fr", True, False),
    ("bl", False, True),
    ("br", False, False),
)
# what a new settings.json holds besides the robot (the GUI's defaults)
NEW_FILE_DEFAULTS: Final = {
    "holonomicMode": True,
    "pathFolders": [],
    "autoFolders": [],
    "defaultMaxVel": 3.0,
    "defaultMaxAccel": 3.0,
    "defaultMaxAngVel": 540.0,
    "defaultMaxAngAccel": 720.0,
    "defaultNominalVoltage": 12.0,
}


@dataclass(frozen=True)
class RobotProperties:
    """What PathPlanner (and Choreo) need to know about the robot, SI units. ``modules``:
    each module's (front, left) position in metres, in the configuration's module order."""

    mass_kg: float
    moment_of_inertia: float
    wheel_radius_m: float
    drive_gearing: float  # motor turns per wheel turn
    max_drive_speed_mps: float
    drive_motor: Motor
    drive_current_limit_a: float
    wheel_cof: float
    modules: tuple[tuple[float, float], ...]
    bumper_length_m: float
    bumper_width_m: float


def wheel_radius_m(module: ModuleConfig) -> float:
    """The drive wheel's radius, from ``conversionFactors.drive.diameter`` (4 in when only a
    conversion factor is given)."""
    return (module.conversion.wheel_diameter_m or DEFAULT_WHEEL_DIAMETER_M) / 2


def drive_gearing(module: ModuleConfig) -> float:
    """Motor turns per wheel turn: the gear ratio, or what a factor-only conversion implies."""
    conversion = module.conversion
    ratio = conversion.drive_gear_ratio
    return ratio or 2 * math.pi * wheel_radius_m(module) / conversion.drive_m_per_rotation


def robot_properties(config: SwerveConfig) -> RobotProperties:
    """The robot as ``physicalproperties.json`` and the module files describe it (the moment of
    inertia is ``robotMomentOfInertia``, else a bumper-sized slab's, as the simulation uses)."""
    physical = config.physical_or_default
    module = config.modules[0]
    wheels = tuple((m.location.front_m, m.location.left_m) for m in config.modules)
    mass = physical.robot_mass_kg
    length, width = bumper_box(wheels)
    return RobotProperties(
        mass_kg=mass,
        moment_of_inertia=moment_of_inertia(mass, physical.robot_moment_of_inertia, wheels),
        wheel_radius_m=wheel_radius_m(module),
        drive_gearing=drive_gearing(module),
        max_drive_speed_mps=min(m.max_drive_speed_mps for m in config.modules),
        drive_motor=module.drive_motor_type.motor,
        drive_current_limit_a=float(physical.current_limit.drive),
        wheel_cof=physical.wheel_grip_coefficient_of_friction,
        modules=wheels,
        bumper_length_m=length,
        bumper_width_m=width,
    )


def gui_settings(config: SwerveConfig) -> dict[str, Any]:
    """The robot keys of PathPlanner's ``settings.json`` (each module placed by where it sits,
    as the GUI lists them). ``ValueError`` when PathPlanner's GUI cannot describe the drive."""
    robot = robot_properties(config)
    motor = GUI_MOTOR_NAMES.get(robot.drive_motor)
    if motor is None:
        known = ", ".join(sorted(GUI_MOTOR_NAMES.values()))
        raise ValueError(
            f"PathPlanner's GUI has no {robot.drive_motor.value} drive motor (it knows {known}); "
            "build the RobotConfig in code with swervelib.pathplanner.robot_config(drive)"
        )
    if len(robot.modules) != 4:
        raise ValueError(
            f"PathPlanner's GUI describes 4 modules; this drive has {len(robot.modules)}"
        )
    settings: dict[str, Any] = {
        "robotWidth": round(robot.bumper_width_m, 4),
        "robotLength": round(robot.bumper_length_m, 4),
        "robotMass": round(robot.mass_kg, 4),
        "robotMOI": round(robot.moment_of_inertia, 4),
        "robotTrackwidth": round(
            max(y for _, y in robot.modules) - min(y for _, y in robot.modules), 4
        ),
        "driveWheelRadius": round(robot.wheel_radius_m, 5),
        "driveGearing": round(robot.drive_gearing, 5),
        "maxDriveSpeed": round(robot.max_drive_speed_mps, 4),
        "driveMotorType": motor,
        "driveCurrentLimit": robot.drive_current_limit_a,
        "wheelCOF": robot.wheel_cof,
    }
    for key, front, left in GUI_MODULES:
        found = [
            (x, y)
            for (x, y) in robot.modules
            if (x > 0) == front and (y > 0) == left and x != 0 and y != 0
        ]
        if len(found) != 1:
            raise ValueError(
                f"PathPlanner's GUI needs one module in each corner; the {key} corner has "
                f"{len(found)} (module locations {list(robot.modules)} m)"
            )
        settings[f"{key}ModuleX"] = round(found[0][0], 5)
        settings[f"{key}ModuleY"] = round(found[0][1], 5)
    return settings


def write_gui_settings(
    config: SwerveConfig, pathplanner_dir: str | os.PathLike[str], *, dry_run: bool = False
) -> EditResult:
    """Put :func:`gui_settings` in ``pathplanner_dir/settings.json`` (created with the GUI's
    defaults when missing; the folder must exist)."""
    from swervelib.tools.edit import ConfigEditor

    settings = gui_settings(config)
    with ConfigEditor(Path(pathplanner_dir), dry_run=dry_run) as editor:
        if editor.has_file(SETTINGS_FILE):
            for key, value in settings.items():
                if editor.get(SETTINGS_FILE, key, None) != value:
                    editor.set(SETTINGS_FILE, key, value)
        else:
            new = {**settings, **NEW_FILE_DEFAULTS}
            editor.stage_raw(SETTINGS_FILE, (json.dumps(new, indent=2) + "\n").encode())
        return editor.commit("PathPlanner settings from the swerve JSON", validate=False)
