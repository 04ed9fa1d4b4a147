"""The example robot's deploy/swerve is the reference configuration, byte for byte, and its
autonomous files are generated from it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import DEPLOY, REPO
from tests.json_files import edit_json


def test_example_robot_config_matches_the_reference() -> None:
    example = REPO / "robot_example" / "deploy" / "swerve"
    reference = DEPLOY / "swerve"
    names = sorted(p.relative_to(reference) for p in reference.rglob("*.json"))
    assert names == sorted(p.relative_to(example) for p in example.rglob("*.json"))
    for name in names:
        assert (example / name).read_bytes() == (reference / name).read_bytes(), name
    assert not any(
        p.is_symlink() for p in (REPO / "robot_example").rglob("*")
    )  # deploy skips links


def test_the_example_autonomous_files_are_generated_from_its_swerve_json(tmp_path: Path) -> None:
    """PathPlanner's settings, the path, the auto and the Choreo trajectory are what
    scripts/example_autos.py makes from deploy/swerve; a changed robot makes them stale."""
    script = [sys.executable, str(REPO / "scripts" / "example_autos.py")]
    fresh = subprocess.run([*script, "--check"], capture_output=True, text=True, check=False)
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    deploy = tmp_path / "deploy"
    shutil.copytree(REPO / "robot_example" / "deploy", deploy)
    edit_json(
        deploy / "swerve" / "modules" / "physicalproperties.json", lambda d: d.update(robotMass=140)
    )
    check = [*script, "--check", "--deploy", str(deploy)]
    stale = subprocess.run(check, capture_output=True, text=True, check=False)
    assert stale.returncode == 1
    assert "settings.json" in stale.stdout and "Arc.traj" in stale.stdout
    assert "Curve.path" not in stale.stdout  # the path's shape does not depend on the robot
    written = subprocess.run(
        [*script, "--deploy", str(deploy)], capture_output=True, text=True, check=False
    )
    assert written.returncode == 0, written.stdout + written.stderr
    assert subprocess.run(check, capture_output=True, check=False).returncode == 0
