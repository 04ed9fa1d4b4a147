"""PathPlanner for a swervelib drive (optional: robotpy-pathplannerlib, swervelib's ``pathplanner``
extra; the rest of swervelib never imports it).

* :func:`robot_config` builds PathPlanner's ``RobotConfig`` from the swerve JSON, in the drive's own
  module order (so PathPlanner's per-module feedforwards line up with the drive's modules);
* :func:`configure_auto_builder` does the whole ``AutoBuilder`` set-up: pose, pose reset (which
  also moves the simulated robot), measured speeds, driving with PathPlanner's feedforwards, a
  holonomic controller, and flipping paths for the red alliance;
* :func:`module_order_problem` says when the drive's modules are not in the order PathPlanner's
  GUI lists them (front-left, front-right, back-left, back-right), which a ``RobotConfig`` read from
  the GUI's settings assumes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from swervelib.optional import missing

try:
    from pathplannerlib.config import ModuleConfig, PIDConstants, RobotConfig
    from pathplannerlib.controller import PPHolonomicDriveController
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing(__name__, "robotpy-pathplannerlib", "pathplanner") from error
from wpimath.geometry import Translation2d
from wpimath.system.plant import DCMotor

from swervelib.alliance import red_alliance
from swervelib.config.model import SwerveConfig
from swervelib.tools.pathplanner_settings import robot_properties

if TYPE_CHECKING:
    from swervelib.drive.swerve_drive import SwerveDrive

__all__ = [
    "configure_auto_builder",
    "max_module_steer_speed",
    "module_order_problem",
    "red_alliance",
    "robot_config",
]

GUI_ORDER = ("front-left", "front-right", "back-left", "back-right")


def robot_config(drive: SwerveDrive | SwerveConfig) -> RobotConfig:
    """PathPlanner's description of the robot, from the drive's configuration (or from a
    configuration loaded with ``load_directory``): mass (``robotMass``), moment of inertia
    (``robotMomentOfInertia``, else the simulation's bumper-sized slab), wheel radius and drive
    gearing (``conversionFactors.drive``), the drive motor model and its current limit, the
    wheel's coefficient of friction, and the module offsets in the drive's own module order."""
    config = drive if isinstance(drive, SwerveConfig) else drive.config
    robot = robot_properties(config)
    motor: DCMotor = getattr(DCMotor, robot.drive_motor.value)(1)
    return RobotConfig(
        robot.mass_kg,
        robot.moment_of_inertia,
        ModuleConfig(
            robot.wheel_radius_m,
            robot.max_drive_speed_mps,
            robot.wheel_cof,
            motor.withReduction(robot.drive_gearing),  # the motor as the wheel sees it
            robot.drive_current_limit_a,
            1,
        ),
        [Translation2d(front, left) for front, left in robot.modules],
    )


def max_module_steer_speed(drive: SwerveDrive) -> float:
    """How fast the slowest module can turn (rad/s): its angle motor's free speed through the
    steering gear. For PathPlanner's setpoint generator."""
    from swervelib.devices.settings import steer_gear_ratio

    speeds = []
    for module in drive.config.modules:
        motor: DCMotor = getattr(DCMotor, module.angle_motor_type.motor.value)(1)
        speeds.append(motor.freeSpeed / steer_gear_ratio(module))
    return min(speeds)


def module_order_problem(drive: SwerveDrive) -> str | None:
    """None when the drive's modules are in PathPlanner's GUI order (front-left, front-right,
    back-left, back-right, by their locations); else what the order is. A ``RobotConfig`` from
    :func:`robot_config` follows the drive's order and needs no such check."""
    if len(drive.modules) != 4:
        return f"PathPlanner's GUI describes 4 modules; this drive has {len(drive.modules)}"
    seen = []
    for module in drive.modules:
        front = "front" if module.location.X() > 0 else "back"
        left = "left" if module.location.Y() > 0 else "right"
        seen.append(f"{front}-{left}")
    if tuple(seen) == GUI_ORDER:
        return None
    names = ", ".join(f"{m.name} ({place})" for m, place in zip(drive.modules, seen, strict=True))
    return (
        f"the drive's modules are {names}; PathPlanner's GUI settings list "
        f"{', '.join(GUI_ORDER)}: use robot_config(drive), not RobotConfig.fromGUISettings()"
    )


def configure_auto_builder(
    drive: SwerveDrive,
    subsystem: Any,
    *,
    translation: PIDConstants | None = None,
    rotation: PIDConstants | None = None,
    config: RobotConfig | None = None,
    should_flip: Callable[[], bool] = red_alliance,
) -> RobotConfig:
    """Configure PathPlanner's ``AutoBuilder`` for ``drive`` (``subsystem``: the commands2
    subsystem that owns the drive). Paths are followed with a holonomic controller (PID 5, 0, 0
    on translation and on rotation unless given) and PathPlanner's feedforwards, and are flipped
    for the red alliance. Returns the ``RobotConfig`` used."""
    from pathplannerlib.auto import AutoBuilder

    robot = config or robot_config(drive)
    AutoBuilder.configure(
        drive.get_pose,
        drive.reset_pose,
        drive.get_robot_relative_speeds,
        lambda speeds, feedforwards: drive.drive(speeds, feedforwards=feedforwards),
        PPHolonomicDriveController(
            translation or PIDConstants(5.0, 0.0, 0.0),
            rotation or PIDConstants(5.0, 0.0, 0.0),
            drive.loop_period,
        ),
        robot,
        should_flip,
        subsystem,
    )
    return robot
