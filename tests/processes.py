"""The example robot as a program a test runs: copied to a temporary project, started in
``robotpy sim``, stopped with Ctrl-C."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from tests.conftest import REPO, SIM_LOCK_ENV

STOP_WAIT_S = 10.0
# How long a test waits for another's `robotpy sim` to end before it fails (a guard against a
# holder that never lets go, not a readiness wait: the longest holder, test_docs.py's sim, holds
# the lock while the rest of that file's tests run on its worker).
SIM_LOCK_WAIT_S = 600.0
# Files a run of the example leaves in its folder, never copied into a test's project.
RUN_LEFTOVERS = ("ctre_sim", "networktables.json", "__pycache__")


def copy_example(target: Path, *also_leave_out: str) -> Path:
    """A copy of ``robot_example`` at ``target`` (without what earlier runs left there, nor
    ``also_leave_out``, e.g. ``"tests"``)."""
    shutil.copytree(
        REPO / "robot_example",
        target,
        ignore=shutil.ignore_patterns(*RUN_LEFTOVERS, *also_leave_out),
    )
    return target


@contextmanager
def one_sim_at_a_time() -> Iterator[None]:
    """Hold the test run's `robotpy sim` lock (the file conftest names in ``SWERVELIB_SIM_LOCK``).

    Every `robotpy sim` listens on NetworkTables' default ports, and its clients connect to
    "localhost": with two at once the second cannot listen and its clients talk to the first (a
    calibration rehearsal then waits in vain for its robot to move). The xdist group
    ``ROBOTPY_SIM`` should keep these tests on one worker, but pytest-xdist 3.8's ``loadgroup``
    stopped grouping under pytest 9.2 (pytest-xdist issue #1386), and an isolated group's tests
    run in a process of their own. The lock holds whatever the scheduler does; the operating
    system releases it if its holder dies."""
    lock = FileLock(os.environ[SIM_LOCK_ENV])
    try:
        lock.acquire(timeout=SIM_LOCK_WAIT_S)
    except Timeout:
        raise AssertionError(
            f"another test's robotpy sim held {lock.lock_file} for {SIM_LOCK_WAIT_S:g} s"
        ) from None
    try:
        yield
    finally:
        lock.release()


@contextmanager
def running_sim(
    project: Path, env: dict[str, str], **streams: Any
) -> Iterator[subprocess.Popen[Any]]:
    """``python -m robotpy --main robot.py sim --nogui`` in ``project`` for the ``with`` block,
    inside :func:`one_sim_at_a_time`, stopped at its end with :func:`interrupt` (nothing to stop
    if the block has ended it); ``streams`` are Popen's (stdin, stdout, stderr, text)."""
    robot = str(project / "robot.py")
    command = [sys.executable, "-m", "robotpy", "--main", robot, "sim", "--nogui"]
    with one_sim_at_a_time():
        process = subprocess.Popen(command, cwd=project, env=env, **streams)
        try:
            yield process
        finally:
            interrupt(process)


def interrupt(process: subprocess.Popen[Any]) -> None:
    """Ctrl-C, as a person stops ``robotpy sim``; killed if it has not ended after
    :data:`STOP_WAIT_S`."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=STOP_WAIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
