"""Shared test set-up.

The whole session runs in a fresh temporary working directory, so phoenix6's ``ctre_sim/`` config
store and NetworkTables' ``networktables.json`` never leak between runs (toolchain notes §3.2).
Tests therefore use absolute paths (``REPO``, ``DEPLOY``).
"""

from __future__ import annotations

import os
import pathlib
import tempfile
from collections.abc import Iterator

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"

_SESSION_DIR = tempfile.mkdtemp(prefix="swervelib-tests-")
os.chdir(_SESSION_DIR)


@pytest.fixture(scope="session")
def repo() -> pathlib.Path:
    return REPO


@pytest.fixture(scope="session")
def deploy_dir() -> Iterator[pathlib.Path]:
    yield DEPLOY
