"""The example robot as a program a test runs: copied to a temporary project, started in
``robotpy sim``, stopped with Ctrl-C."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import REPO

STOP_WAIT_S = 10.0
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


def start_sim(project: Path, env: dict[str, str], **streams: Any) -> subprocess.Popen[Any]:
    """``python -m robotpy --main robot.py sim --nogui`` in ``project``; ``streams`` are
    Popen's (stdin, stdout, stderr, text)."""
    return subprocess.Popen(
        [sys.executable, "-m", "robotpy", "--main", str(project / "robot.py"), "sim", "--nogui"],
        cwd=project,
        env=env,
        **streams,
    )


def interrupt(process: subprocess.Popen[Any]) -> None:
    """Ctrl-C, as a person stops ``robotpy sim``; killed if it has not ended after
    :data:`STOP_WAIT_S`."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=STOP_WAIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
