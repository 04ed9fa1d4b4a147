"""A swervelib wheel built from this checkout, and a roboRIO download cache in a temp folder.

robotpy_installer keeps its roboRIO cache at ``~/wpilib/2026/robotpy`` (``RobotpyInstaller.
cache_root``, from ``Path.home()``), so pointing ``HOME`` at a temp folder moves it there, for this
process and for the ``python -m robotpy`` processes the tests start. pip is kept offline
(``PIP_NO_INDEX``, no config files): it sees only the folders a test names with ``--find-links``,
so neither PyPI nor wpilib's artifactory (which robotpy_installer adds with ``--extra-index-url``)
is asked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from robotpy_installer.installer import RobotpyInstaller

from tests.conftest import REPO


@pytest.fixture(scope="session")
def swervelib_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``python -m build --wheel`` of a copy of the package (nothing is written to the checkout).

    The build backend comes from PyPI or pip's cache (the build is isolated, as for a release)."""
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, src / name)
    shutil.copytree(
        REPO / "swervelib", src / "swervelib", ignore=shutil.ignore_patterns("__pycache__")
    )
    out = tmp_path_factory.mktemp("wheels")
    build = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(src)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    (wheel,) = out.glob("swervelib-*-py3-none-any.whl")
    return wheel


@pytest.fixture
def installer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[RobotpyInstaller]:
    """A RobotpyInstaller whose cache is under tmp_path, with pip offline (see the module doc)."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("USERPROFILE", str(tmp_path / "home"))  # Path.home() on Windows
    for key in [k for k in os.environ if k.startswith("PIP_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    rio = RobotpyInstaller(log_startup=False)
    assert rio.cache_root.is_relative_to(tmp_path)
    yield rio
