"""Shared test set-up.

The whole session runs in a fresh temporary working directory, so phoenix6's ``ctre_sim/`` config
store and NetworkTables' ``networktables.json`` never leak between runs (toolchain notes §3.2).
Tests therefore use absolute paths (``REPO``, ``DEPLOY``).
"""

from __future__ import annotations

import os
import pathlib
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

from tests.config.corpus import CORPUS_GROUP_PREFIX, DRIVEN

# No time limit per hypothesis example (its default is 200 ms): a test checks behaviour, and speed
# is the benchmarks' business. On a loaded two-core machine an example can wait that long for the
# CPU, and hypothesis would call the test flaky.
settings.register_profile("swervelib", deadline=None)
settings.load_profile("swervelib")

_WORKDIR = pytest.StashKey[str]()
SIM_LOCK_ENV = "SWERVELIB_SIM_LOCK"  # the `robotpy sim` lock file (tests/processes.py)
REPO = pathlib.Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"


def _hands_out_tests(config: pytest.Config) -> bool:
    """Whether this is pytest-xdist's controller, which runs no test itself and starts its workers
    in its own working directory (they resolve the command line's paths from there)."""
    return (
        not hasattr(config, "workerinput")
        and config.getoption("dist", "no") != "no"
        and bool(config.getoption("tx", None))
        and not config.getoption("collectonly")
    )


def pytest_configure(config: pytest.Config) -> None:
    """Work in a fresh temporary directory (after pytest has resolved its own paths): phoenix6's
    simulator keeps device configuration in ``./ctre_sim/``, which must not land in the checkout.
    Each xdist worker has its own; the controller stays where it was started.

    The first process of a run also names the `robotpy sim` lock file (``tests/processes.py``)
    for the processes it starts: xdist workers and isolated groups, whose TMPDIR differs. The
    name is the same for every run on the machine, because two runs at once would compete for the
    same ports too."""
    os.environ.setdefault(
        SIM_LOCK_ENV, str(pathlib.Path(tempfile.gettempdir()) / "swervelib-robotpy-sim.lock")
    )
    if _hands_out_tests(config):
        return
    workdir = tempfile.mkdtemp(prefix="swervelib-tests-")
    config.stash[_WORKDIR] = workdir
    os.chdir(workdir)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the temporary working directory. The process stays in it (now gone): a vendor
    library writing ``./ctre_sim/`` at exit then fails instead of writing into the checkout."""
    workdir = config.stash.get(_WORKDIR, None)
    if workdir is not None:
        shutil.rmtree(workdir, ignore_errors=True)


# The README's test command runs the suite on two pytest-xdist workers (`-n 2`). Tests that start
# the example robot in `robotpy sim` all listen on NetworkTables' default port and connect to
# "localhost", so they carry this xdist group: one worker runs them one after the other. What
# keeps them apart is tests/processes.py's lock (the group alone does not: see
# one_sim_at_a_time); the group keeps the other worker from waiting on it.
ROBOTPY_SIM = pytest.mark.xdist_group("robotpy_sim")
# What tests/test_isolated.py records of each group (a user property of its test, which reaches
# this process from whichever worker ran it): group -> (the group's own summary, seconds).
GROUP_RESULT = "isolated_group"
_GROUP_RESULTS: dict[str, tuple[str, float]] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call":
        return
    for name, value in report.user_properties:
        if name == GROUP_RESULT:
            group, summary, seconds = value
            _GROUP_RESULTS[group] = (summary, seconds)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Each isolated group's own result, one line per group (see tests/test_isolated.py)."""
    if _GROUP or not _GROUP_RESULTS:  # inside a group its own summary is the result
        return
    terminalreporter.section("isolated groups")
    width = max(len(group) for group in _GROUP_RESULTS)
    for group, (summary, seconds) in sorted(_GROUP_RESULTS.items()):
        terminalreporter.write_line(f"{group:<{width}}  {summary}  ({seconds:.1f} s)")


# Vendor simulators keep per-process state that one test file cannot share with another: REVLib
# allows one Spark object per CAN id and cannot simulate a second one (the REV device tests alone
# use 50 ids), phoenix6 test devices are destroyed to simulate disconnects, and a process can hold
# one navX. Each of these groups therefore runs in its own Python process, driven by
# tests/test_isolated.py; inside that process SWERVELIB_TEST_GROUP names the group. (The ctre6
# group's test_ctre6.py uses every Talon CAN id; phoenix6's simulator has one device per id
# whatever the bus, so further Talon tests need a process of their own.)
ISOLATED_GROUPS = {
    "rev": ["devices/test_rev.py"],
    "rev_yagsl_2026": ["devices/test_rev_yagsl_2026.py"],
    "rev_brushed": ["devices/test_rev_brushed.py"],
    "ctre5": ["devices/test_ctre5.py", "devices/test_tilt_ctre5.py"],
    "ctre5_drive": ["devices/test_ctre5_drive.py"],
    "ctre6": ["devices/test_ctre6.py", "devices/test_tilt_ctre6.py"],
    "ctre6_drive": ["devices/test_ctre6_drive.py"],
    "ctre6_angle_ks": ["devices/test_ctre6_angle_ks.py"],
    "navx_wpilib": ["devices/test_navx_wpilib.py", "devices/test_tilt_navx_wpilib.py"],
    "drive_and_sim": ["drive", "sim"],
    "calibrate": ["calibrate"],
}
# Groups with a test that runs the example robot in `robotpy sim` (see ROBOTPY_SIM).
GROUPS_WITH_ROBOTPY_SIM = {"calibrate"}
# Every real team folder of the corpus (tests/corpus) that drives (accepted, or once migrated)
# drives in a process of its own: teams reuse the same CAN ids, and REVLib allows one Spark per id
# and process.
ISOLATED_GROUPS.update(
    {f"{CORPUS_GROUP_PREFIX}{name}": ["corpus_drive/test_corpus_drive.py"] for name in DRIVEN}
)
_GROUP = os.environ.get("SWERVELIB_TEST_GROUP")
collect_ignore = [] if _GROUP else [p for paths in ISOLATED_GROUPS.values() for p in paths]


@pytest.fixture(scope="session")
def repo() -> pathlib.Path:
    return REPO


@pytest.fixture(scope="session")
def deploy_dir() -> Iterator[pathlib.Path]:
    yield DEPLOY
