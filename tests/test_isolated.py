"""Run each simulator-heavy test group in its own Python process (see conftest.ISOLATED_GROUPS)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ISOLATED_GROUPS, REPO

if os.environ.get("SWERVELIB_TEST_GROUP"):
    pytest.skip("already inside an isolated group", allow_module_level=True)


@pytest.mark.parametrize("group", sorted(ISOLATED_GROUPS))
def test_group(group: str) -> None:
    paths = [str(REPO / "tests" / p) for p in ISOLATED_GROUPS[group]]
    env = dict(os.environ, SWERVELIB_TEST_GROUP=group)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *paths],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=600,
        check=False,
    )
    summary = [
        line for line in result.stdout.splitlines() if re.search(r"\d+ (passed|failed)", line)
    ]
    print(f"[{group}] {summary[-1] if summary else 'no summary'}")
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-5000:]
    assert summary and " failed" not in summary[-1] and "passed" in summary[-1]


def test_example_robot_passes_robotpy_test(tmp_path: object) -> None:
    """`python -m robotpy test` on a copy of robot_example (pyfrc's built-in tests + the square)."""
    import shutil
    from pathlib import Path

    target = Path(str(tmp_path)) / "robot_example"
    shutil.copytree(
        REPO / "robot_example",
        target,
        ignore=shutil.ignore_patterns("ctre_sim", "networktables.json", "__pycache__"),
    )
    result = subprocess.run(
        [sys.executable, "-m", "robotpy", "test", "--", "-q", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        cwd=target,
        timeout=600,
        check=False,
    )
    summary = [line for line in result.stdout.splitlines() if re.search(r"\d+ passed", line)]
    print(f"[robot_example] {summary[-1] if summary else 'no summary'}")
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-5000:]
    assert summary and "5 passed" in summary[-1]
