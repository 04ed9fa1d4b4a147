"""swervelib: a JSON-configured swerve drive library for RobotPy.

``import swervelib`` is cheap: it imports neither wpilib nor any vendor package. ``SwerveDrive`` is
loaded on first use (``from swervelib import SwerveDrive``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from swervelib.config import ConfigError, SwerveConfig, load_directory

if TYPE_CHECKING:
    from swervelib.drive.safety import FieldArea
    from swervelib.drive.swerve_drive import SwerveDrive
    from swervelib.drive.telemetry import TelemetryVerbosity

__version__ = "0.1.0"
__all__ = [
    "ConfigError",
    "FieldArea",
    "SwerveConfig",
    "SwerveDrive",
    "TelemetryVerbosity",
    "__version__",
    "load_directory",
]


def __getattr__(name: str) -> Any:
    """Load the wpilib-dependent parts on first use, so ``import swervelib`` stays cheap."""
    if name == "SwerveDrive":
        from swervelib.drive.swerve_drive import SwerveDrive

        return SwerveDrive
    if name == "FieldArea":
        from swervelib.drive.safety import FieldArea

        return FieldArea
    if name == "TelemetryVerbosity":
        from swervelib.drive.telemetry import TelemetryVerbosity

        return TelemetryVerbosity
    raise AttributeError(f"module 'swervelib' has no attribute {name!r}")
