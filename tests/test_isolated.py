"""Run each simulator-heavy test group in its own Python process (see conftest.ISOLATED_GROUPS)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import (
    GROUP_RESULT,
    GROUPS_WITH_ROBOTPY_SIM,
    ISOLATED_GROUPS,
    REPO,
    ROBOTPY_SIM,
)
from tests.processes import copy_example

if os.environ.get("SWERVELIB_TEST_GROUP"):
    pytest.skip("already inside an isolated group", allow_module_level=True)


FAILURE_REPORT_CHARS = 6000  # the child's failures section, which names each failure first
GROUPS = [
    pytest.param(group, marks=ROBOTPY_SIM) if group in GROUPS_WITH_ROBOTPY_SIM else group
    for group in sorted(ISOLATED_GROUPS)
]


@pytest.mark.parametrize("group", GROUPS)
def test_group(group: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """The group's tests pass in a process of their own, and leave nothing in the temp folder
    (the child's TMPDIR is this test's own folder, so anything left there is the group's). The
    group's tests run one after the other in that process (``-n 0``): they share its simulators."""
    paths = [str(REPO / "tests" / p) for p in ISOLATED_GROUPS[group]]
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    # PYTHONFAULTHANDLER: a crash after pytest has finished (at interpreter exit) still prints
    # where it happened
    env = dict(os.environ, SWERVELIB_TEST_GROUP=group, TMPDIR=str(scratch), PYTHONFAULTHANDLER="1")
    start = time.monotonic()
    result = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider"),
            "--tb=short",
            f"--basetemp={tmp_path / 'basetemp'}",
            *paths,
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=900,
        check=False,
    )
    summary = [
        line.strip("= ")
        for line in result.stdout.splitlines()
        if re.search(r"\d+ (passed|failed|error)", line)
    ]
    last = summary[-1] if summary else "no summary"
    # for the terminal summary (tests/conftest.py), from whichever worker runs this
    request.node.user_properties.append((GROUP_RESULT, (group, last, time.monotonic() - start)))
    if result.returncode != 0 or " failed" in last or "error" in last:
        # the exit code too: a child whose tests all passed can still end badly (a crash at exit)
        pytest.fail(
            f"[{group}] {last} (exit code {result.returncode})\n"
            f"{_failures(result.stdout, result.stderr)}",
            pytrace=False,
        )
    assert "passed" in last, last
    left = sorted(p.name for p in scratch.iterdir())
    assert left == [], f"[{group}] left in the temp folder: {left}"


def _failures(stdout: str, stderr: str) -> str:
    """The child's failure report, short: the summary of what failed, then the tracebacks."""
    short = (
        stdout[stdout.find("short test summary info") :] if "short test summary" in stdout else ""
    )
    details = stdout[stdout.find("= FAILURES =") :] if "= FAILURES =" in stdout else stdout
    text = short + "\n" + details[: FAILURE_REPORT_CHARS - len(short)]
    if stderr.strip():
        text += "\n--- stderr (end) ---\n" + stderr[-1500:]
    return text


def test_example_robot_passes_robotpy_test(tmp_path: object) -> None:
    """`python -m robotpy test` on a copy of robot_example (pyfrc's built-in tests, each auto on
    each alliance, the test-mode SysId controller, the chooser)."""
    from pathlib import Path

    target = Path(str(tmp_path)) / "robot_example"
    copy_example(target)
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
    assert summary and "14 passed" in summary[-1]  # every example test ran (none skipped)
