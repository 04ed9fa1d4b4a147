"""The error for an optional integration whose package is not installed."""

from __future__ import annotations


def missing(module: str, requirement: str, extra: str) -> ImportError:
    """``module`` (e.g. ``swervelib.sysid``) needs ``requirement``, swervelib's ``extra``."""
    return ImportError(
        f"{module} needs {requirement}: add it to [tool.robotpy] requires in pyproject.toml "
        f"(or pip install 'swervelib[{extra}]')"
    )
