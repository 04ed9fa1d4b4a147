"""robot_example/tests/conftest.py: `robotpy test` waits for a killed robot process until it has gone.

A CI run on a loaded 2-core machine ended with pyfrc's INTERNALERROR "Cannot close a process while
it is still running" after every robot test had passed: pyfrc kills each robot process, waits one
second for it and closes it. These tests run pyfrc's own clean-up on a process that takes longer
than that second to go (simulated time, no sleeping)."""

from __future__ import annotations

import importlib.util
import math
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from pyfrc.test_support.pytest_isolated_tests_plugin import IsolatedTestJob, IsolatedTestsPlugin

from tests.conftest import REPO

GOES_AFTER_S = 1.5  # longer than pyfrc's join(timeout=1)


class SlowToGo:
    """A ``multiprocessing.Process`` that, once killed, is gone only after ``GOES_AFTER_S`` of
    joining; ``close()`` refuses a running process as the real one does."""

    def __init__(self) -> None:
        self.killed = False
        self.waited_s = 0.0
        self.closed = False

    def is_alive(self) -> bool:
        return not (self.killed and self.waited_s >= GOES_AFTER_S)

    def kill(self) -> None:
        self.killed = True

    def join(self, timeout: float | None = None) -> None:
        if self.is_alive():
            self.waited_s += math.inf if timeout is None else timeout

    @property
    def exitcode(self) -> int | None:
        return None if self.is_alive() else -9

    def close(self) -> None:
        if self.is_alive():
            raise ValueError("Cannot close a process while it is still running.")
        self.closed = True


def example_conftest() -> ModuleType:
    path = REPO / "robot_example" / "tests" / "conftest.py"
    spec = importlib.util.spec_from_file_location("robot_example_tests_conftest", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def plugin_and_job() -> tuple[IsolatedTestsPlugin, IsolatedTestJob, SlowToGo]:
    plugin = IsolatedTestsPlugin(
        robot_class=object,  # type: ignore[arg-type]  # the clean-up never uses it
        robot_file=REPO,
        builtin_tests=False,
        verbose=False,
        parallelism=1,
        init_timeout=1.0,
    )
    process = SlowToGo()
    job = IsolatedTestJob(
        item=None,  # type: ignore[arg-type]
        conn=SimpleNamespace(close=lambda: None),  # type: ignore[arg-type]
        process=process,  # type: ignore[arg-type]
        start_time=0.0,
    )
    return plugin, job, process


def configured(plugin: Any) -> None:
    config = SimpleNamespace(pluginmanager=SimpleNamespace(get_plugins=lambda: [plugin]))
    example_conftest().pytest_configure(config)


def test_pyfrcs_own_clean_up_fails_on_a_process_slow_to_go() -> None:
    """What the example's conftest is for: pyfrc 2026's clean-up alone raises here."""
    plugin, job, process = plugin_and_job()
    with pytest.raises(ValueError, match="still running"):
        plugin._cleanup_job(job)
    assert process.killed and not process.closed


def test_the_example_waits_for_a_killed_process_until_it_has_gone() -> None:
    plugin, job, process = plugin_and_job()
    configured(plugin)
    plugin._cleanup_job(job)
    assert process.killed and process.closed
    assert job.exit_code == -9


def test_the_example_leaves_other_plugins_alone() -> None:
    other = SimpleNamespace(_cleanup_job=print)
    configured(other)
    assert other._cleanup_job is print
