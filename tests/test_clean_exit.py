"""Ctrl-C on ``robotpy sim`` ends the example robot without a traceback, C++ stack dumps or loop
overrun noise, with exit code 0 (``swervelib.interrupt.end_on_ctrl_c``)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from tests.conftest import REPO, ROBOTPY_SIM
from tests.processes import copy_example, start_sim
from tests.waits import PATIENCE_S

STARTED = "Robot program startup complete"
NOISE = ("Traceback", "Watchdog not fed", "overrun", "Unexpected return", "Error at", "Warning at")


def run_and_interrupt(project: Path, loops_after_start: int = 25) -> tuple[int, str]:
    """Start ``robotpy sim`` on ``project``, wait until the robot is running (and a few of its
    loops have printed), press Ctrl-C, and return the exit code and everything it printed."""
    env = dict(os.environ, SWERVELIB_DEMO="1", PYTHONUNBUFFERED="1")
    process = start_sim(project, env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    running = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if STARTED in line:
                running.set()
        running.set()  # the output ended: nothing more to wait for

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert running.wait(PATIENCE_S), "the robot never started"
        # a little robot time (real time: robotpy sim runs on the wall clock) before Ctrl-C
        threading.Event().wait(loops_after_start * 0.02)
        process.send_signal(signal.SIGINT)
        code = process.wait(PATIENCE_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    reader.join(PATIENCE_S)
    return code, "".join(lines)


def readme_robot() -> str:
    """The robot-code snippet of the README (its Python block that defines ``Robot``)."""
    text = (REPO / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    [robot] = [block for block in blocks if "class Robot" in block]
    return robot


@ROBOTPY_SIM
@pytest.mark.parametrize("which", ["robot_example", "README snippet"])
def test_ctrl_c_ends_the_robot_cleanly(tmp_path: Path, which: str) -> None:
    """The example robot, and the README's snippet on the reference configuration (driving its
    own simulation): Ctrl-C while it runs ends it with exit code 0 and nothing alarming."""
    project = tmp_path / "robot"
    copy_example(project)
    if which == "README snippet":
        (project / "physics.py").unlink()
        shutil.rmtree(project / "tests")
        (project / "robot.py").write_text(readme_robot())
    code, output = run_and_interrupt(project)
    assert STARTED in output, output[-3000:]
    noise = [line for line in output.splitlines() if any(word in line for word in NOISE)]
    assert noise == [], output[-3000:]
    assert "Robot code exited" in output, output[-3000:]
    assert code == 0, output[-3000:]
