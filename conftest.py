"""pytest set-up at the checkout's root, for robot projects inside it.

``python -m robotpy --main robot_example test`` runs pytest from this folder with no paths, so
pytest would read this project's ``testpaths`` and collect the library's own test suite beside the
robot's. When pyfrc runs a robot project's tests, only that project's files are collected.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def _robot_project(config: pytest.Config) -> Path | None:
    """The folder of the robot whose tests pyfrc is running, if it is running any."""
    for plugin in config.pluginmanager.get_plugins():
        robot_file = getattr(plugin, "_robot_file", None)
        if isinstance(robot_file, Path) and type(plugin).__module__.startswith("pyfrc."):
            return robot_file.resolve().parent
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Collect the robot project's ``tests`` folder instead of this project's ``testpaths``."""
    project = _robot_project(config)
    if project is not None and config.args_source is pytest.Config.ArgsSource.TESTPATHS:
        config.args[:] = [str(project / "tests")]
