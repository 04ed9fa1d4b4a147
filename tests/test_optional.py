"""The optional integrations say what to install when their package is missing, and the core of
swervelib imports none of them."""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = [
    ("swervelib.commands", "commands2", "robotpy-commands-v2", "commands"),
    ("swervelib.sysid", "commands2", "robotpy-commands-v2", "commands"),
    ("swervelib.pathplanner", "pathplannerlib", "robotpy-pathplannerlib", "pathplanner"),
    ("swervelib.choreo", "choreo", "sleipnirgroup-choreolib", "choreo"),
]


@pytest.mark.parametrize(("module", "package", "requirement", "extra"), CASES)
def test_a_missing_package_is_named(
    module: str, package: str, requirement: str, extra: str
) -> None:
    """Imported in a fresh process where the package cannot be found."""
    code = (
        f"import sys; sys.modules[{package!r}] = None\n"
        f"try:\n    import {module}\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert f"{module} needs {requirement}" in out.stdout
    assert f"swervelib[{extra}]" in out.stdout and "[tool.robotpy] requires" in out.stdout


def test_the_core_imports_no_integration() -> None:
    code = (
        "import sys, swervelib, swervelib.sim, swervelib.drive.swerve_drive\n"
        "print(sorted(m for m in ('commands2', 'pathplannerlib', 'photonlibpy', 'choreo') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
