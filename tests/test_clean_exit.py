"""Ctrl-C on ``robotpy sim`` ends the example robot without a traceback or error, with exit code 0
(``swervelib.interrupt.end_on_ctrl_c``).

WPILib's loop watchdog ("Watchdog not fed", "Loop time of 0.020000s overrun" and its epoch report) is
not counted here: it measures the wall clock, and on a shared CI machine the robot's process can wait
longer than a loop for a CPU (the example's physics step, 2 ms on an idle machine, once took 27 ms
there). Loop cost is measured by ``benchmarks/``. The noise an unhandled Ctrl-C makes does not
depend on timing: a ``KeyboardInterrupt`` traceback. Both are checked against real transcripts in
``tests/fixtures/transcripts`` (an unhandled Ctrl-C is not started here: under load it once left
the robot running for a minute after the signal)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, REPO, ROBOTPY_SIM
from tests.processes import copy_example, running_sim
from tests.waits import PATIENCE_S

STARTED = "Robot program startup complete"
NOISE = ("Traceback", "KeyboardInterrupt", "Unexpected return", "Error at", "Warning at")
# WPILib's loop watchdog: lines about time on the wall clock, not about the program's state
LOOP_TIMING = ("Watchdog not fed", "Loop time of", "PrintEpochs")
TRANSCRIPTS = FIXTURES / "transcripts"


def run_and_interrupt(project: Path, loops_after_start: int = 25) -> tuple[int, str]:
    """Start ``robotpy sim`` on ``project``, wait until the robot is running (and a few of its
    loops have printed), press Ctrl-C, and return the exit code and everything it printed."""
    env = dict(os.environ, SWERVELIB_DEMO="1", PYTHONUNBUFFERED="1")
    output = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
    with running_sim(project, env, **output) as process:
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
        assert running.wait(PATIENCE_S), "the robot never started"
        # a little robot time (real time: robotpy sim runs on the wall clock) before Ctrl-C
        threading.Event().wait(loops_after_start * 0.02)
        process.send_signal(signal.SIGINT)
        code = process.wait(PATIENCE_S)  # (running_sim kills it if it is still running)
    reader.join(PATIENCE_S)
    return code, "".join(lines)


def readme_robot() -> str:
    """The robot-code snippet of the README (its Python block that defines ``Robot``)."""
    text = (REPO / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    [robot] = [block for block in blocks if "class Robot" in block]
    return robot


def noise_in(output: str) -> list[str]:
    """The lines of ``output`` that report an error or a traceback (the loop watchdog's apart)."""
    return [
        line
        for line in output.splitlines()
        if any(word in line for word in NOISE) and not any(word in line for word in LOOP_TIMING)
    ]


# The example robot with every loop overrunning its 20 ms, as a loop does on a machine whose CPUs
# are all busy: WPILib's loop watchdog fires in its own thread every loop.
OVERRUNNING_ROBOT = """import time

import example_robot


class Robot(example_robot.Robot):
    def robotPeriodic(self) -> None:
        super().robotPeriodic()
        time.sleep(0.03)
"""


@ROBOTPY_SIM
@pytest.mark.parametrize("which", ["robot_example", "README snippet", "overrunning loops"])
def test_ctrl_c_ends_the_robot_cleanly(tmp_path: Path, which: str) -> None:
    """The example robot, the README's snippet on the reference configuration (driving its own
    simulation), and the example with every loop overrunning (a loaded machine's loops, without
    depending on the load): Ctrl-C while it runs ends it with exit code 0 and nothing alarming."""
    project = tmp_path / "robot"
    copy_example(project)
    if which == "README snippet":
        (project / "physics.py").unlink()
        shutil.rmtree(project / "tests")
        (project / "robot.py").write_text(readme_robot())
    if which == "overrunning loops":
        (project / "robot.py").rename(project / "example_robot.py")
        (project / "robot.py").write_text(OVERRUNNING_ROBOT)
    code, output = run_and_interrupt(project)
    assert STARTED in output, output[-3000:]
    if which == "overrunning loops":
        assert "Loop time of" in output, output[-3000:]  # (the loop overran: WPILib said so)
    assert noise_in(output) == [], output[-3000:]
    assert "Robot code exited" in output, output[-3000:]
    assert code == 0, output[-3000:]


def test_an_unhandled_ctrl_c_is_noise() -> None:
    """The check above can fail: the example without ``end_on_ctrl_c``, stopped with Ctrl-C,
    printed a ``KeyboardInterrupt`` traceback (and the watchdog's lines, which are not counted)."""
    output = (TRANSCRIPTS / "ctrl_c_unhandled.txt").read_text()
    noise = noise_in(output)
    assert any(line.startswith("Traceback") for line in noise), noise
    assert "KeyboardInterrupt" in noise, noise


def test_the_loop_watchdog_on_a_busy_machine_is_not_noise() -> None:
    """CI's transcript of a clean Ctrl-C whose first loop overran: the watchdog's three reports
    are there, and nothing else that counts."""
    output = (TRANSCRIPTS / "loop_overrun_on_ci.txt").read_text()
    for report in LOOP_TIMING:
        assert report in output
    assert noise_in(output) == []
    assert "Robot code exited" in output
