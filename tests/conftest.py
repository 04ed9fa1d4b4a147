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

from tests.config.corpus import ACCEPTED, CORPUS_GROUP_PREFIX

_WORKDIR = pytest.StashKey[str]()
REPO = pathlib.Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"


def pytest_configure(config: pytest.Config) -> None:
    """Work in a fresh temporary directory (after pytest has resolved its own paths): phoenix6's
    simulator keeps device configuration in ``./ctre_sim/``, which must not land in the checkout."""
    workdir = tempfile.mkdtemp(prefix="swervelib-tests-")
    config.stash[_WORKDIR] = workdir
    os.chdir(workdir)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the temporary working directory. The process stays in it (now gone): a vendor
    library writing ``./ctre_sim/`` at exit then fails instead of writing into the checkout."""
    workdir = config.stash.get(_WORKDIR, None)
    if workdir is not None:
        shutil.rmtree(workdir, ignore_errors=True)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Each isolated group's own result, one line per group (see tests/test_isolated.py)."""
    if _GROUP:  # inside a group: its own summary is the result
        return
    from tests.test_isolated import RESULTS

    if not RESULTS:
        return
    terminalreporter.section("isolated groups")
    width = max(len(group) for group in RESULTS)
    for group, (summary, seconds) in sorted(RESULTS.items()):
        terminalreporter.write_line(f"{group:<{width}}  {summary}  ({seconds:.1f} s)")


# Vendor simulators keep per-process state that one test file cannot share with another: REVLib
# allows one Spark object per CAN id and cannot simulate a second one (the REV device tests alone
# use 50 ids), phoenix6 test devices are destroyed to simulate disconnects, and a process can hold
# one navX. Each of these groups therefore runs in its own Python process, driven by
# tests/test_isolated.py; inside that process SWERVELIB_TEST_GROUP names the group.
ISOLATED_GROUPS = {
    "rev": ["devices/test_rev.py"],
    "rev_yagsl_2026": ["devices/test_rev_yagsl_2026.py"],
    "rev_brushed": ["devices/test_rev_brushed.py"],
    "ctre5": ["devices/test_ctre5.py"],
    "ctre5_drive": ["devices/test_ctre5_drive.py"],
    "ctre6": ["devices/test_ctre6.py"],
    "ctre6_drive": ["devices/test_ctre6_drive.py"],
    "navx_wpilib": ["devices/test_navx_wpilib.py"],
    "drive_and_sim": ["drive", "sim"],
    "calibrate": ["calibrate"],
}
# Every real team folder of the corpus (tests/corpus) drives in a process of its own: teams reuse
# the same CAN ids, and REVLib allows one Spark per id and process.
ISOLATED_GROUPS.update(
    {f"{CORPUS_GROUP_PREFIX}{name}": ["corpus_drive/test_corpus_drive.py"] for name in ACCEPTED}
)
_GROUP = os.environ.get("SWERVELIB_TEST_GROUP")
collect_ignore = [] if _GROUP else [p for paths in ISOLATED_GROUPS.values() for p in paths]


@pytest.fixture(scope="session")
def repo() -> pathlib.Path:
    return REPO


@pytest.fixture(scope="session")
def deploy_dir() -> Iterator[pathlib.Path]:
    yield DEPLOY
