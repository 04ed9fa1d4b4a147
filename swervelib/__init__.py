"""swervelib: a JSON-configured swerve drive library for RobotPy.

``import swervelib`` is cheap: it imports neither wpilib nor any vendor package. ``SwerveDrive`` is
loaded on first use (``from swervelib import SwerveDrive``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from swervelib.config import ConfigError, SwerveConfig, load_directory

if TYPE_CHECKING:
    from swervelib.drive.swerve_drive import SwerveDrive

__version__ = "0.1.0"
__all__ = ["ConfigError", "SwerveConfig", "SwerveDrive", "__version__", "load_directory"]


def __getattr__(name: str) -> Any:
    if name == "SwerveDrive":
        from swervelib.drive.swerve_drive import SwerveDrive

        return SwerveDrive
    raise AttributeError(f"module 'swervelib' has no attribute {name!r}")
