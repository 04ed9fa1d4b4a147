"""What `check` accepts, the drive builds: every bounded number at the edge of its accepted range,
on each vendor set of the reference configurations, gives a drive that builds in simulation,
drives 50 loops with finite outputs, and whose vendors keep every value as given.

Each drive is built in a process of its own (tests/config/bounds_drive.py): this process must not
create vendor devices (see tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from swervelib.config import load_directory
from tests.config.bounds_drive import VARIANTS, at_bounds, set_max_speed
from tests.conftest import DEPLOY, REPO

BASES = sorted(p.name for p in DEPLOY.iterdir() if p.is_dir())
# What the controllers must hold at each edge: at_bounds sets the steering ratio to 1000 or 0.1
# and the drive to 1 or 0.001 m per motor rotation. phoenix6's SensorToMechanismRatio is motor
# rotations per module rotation or per metre; REV's position factor is degrees or metres per
# motor rotation.
RATIOS = {"high": {"angle": 1000.0, "drive": 1.0}, "low": {"angle": 0.1, "drive": 1000.0}}
FACTORS = {"high": {"angle": 0.36, "drive": 1.0}, "low": {"angle": 3600.0, "drive": 0.001}}
KS = {"high": {"drive": 100.0, "angle": -100.0}, "low": {"drive": 1e-9, "angle": -1e-9}}


def build(directory: Path) -> dict[str, object]:
    """The report of tests/config/bounds_drive.py on ``directory``."""
    result = subprocess.run(
        [sys.executable, "-m", "tests.config.bounds_drive", str(directory)],
        capture_output=True,
        text=True,
        cwd=directory.parent,  # phoenix6 writes ctre_sim/ here, not in the repository
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=300,
        check=False,
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith("REPORT ")]
    assert lines, result.stdout[-3000:] + result.stderr[-3000:]
    report: dict[str, object] = json.loads(lines[-1][len("REPORT ") :])
    return report


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("base", BASES)
def test_configuration_at_the_bounds_builds_and_drives(
    base: str, variant: str, tmp_path: Path
) -> None:
    directory = tmp_path / base
    shutil.copytree(DEPLOY / base, directory)
    at_bounds(directory, variant)
    fastest = max(m.max_drive_speed_mps for m in load_directory(directory).modules)
    set_max_speed(directory, variant, fastest)
    config = load_directory(directory)  # accepted, with warnings for the unusual values
    assert config.warnings
    report = build(directory)
    assert report["built"], report
    assert "error" not in report, report  # (e.g. a configuration read-back never answered)
    assert report.get("finite") is True, report
    assert report["bad_alerts"] == [], report
    stored = report["stored"]
    assert isinstance(stored, list)
    assert len(stored) == 2 * len(config.modules) or base == "talonsrx_pigeon"
    limit = 500.0 if variant == "high" else 1.0
    for held in stored:  # no vendor capped, rounded away or zeroed an accepted value
        assert held["current"] == limit, held
        if "current_lower" in held:
            assert held["current_lower"] == limit, held
        if "ratio" in held:  # phoenix6 SensorToMechanismRatio (≤ 1000) and kS: kept as given
            assert held["ratio"] == pytest.approx(RATIOS[variant][held["role"]], rel=1e-6), held
            # kS is fixed point in 1/1024 V steps (1e-9 V is kept as 0 V, which is the same)
            assert held["kS"] == pytest.approx(KS[variant][held["role"]], abs=1 / 1024), held
        if "position_factor" in held:  # REV: kept as given in a 32-bit float
            factor = FACTORS[variant][held["role"]]
            assert held["position_factor"] == pytest.approx(factor, rel=1e-6), held
