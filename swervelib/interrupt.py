"""Ctrl-C in ``robotpy sim`` ends the robot program cleanly.

By default Ctrl-C raises ``KeyboardInterrupt`` inside whatever robot loop is running. The loop
never finishes, so WPILib's loop watchdog, armed at its start, fires 20 ms later from its own
thread: "Watchdog not fed" and "Loop time overrun" messages with C++ stack traces follow the
interrupt. :func:`end_on_ctrl_c` makes the first Ctrl-C ask the robot to end instead
(``endCompetition()``): the current loop finishes normally and the program exits without noise. A
second Ctrl-C interrupts at once, as usual, for a robot that does not stop.

The handler runs in Python, so the robot must run Python code every loop: override one periodic
method of each mode, or ``robotPeriodic`` (which runs in every mode).
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any


def end_on_ctrl_c(robot: Any) -> bool:
    """Make Ctrl-C end ``robot`` (a ``wpilib.RobotBase``) cleanly; call it in ``robotInit``.

    Does nothing (False) where no Ctrl-C can arrive for it: outside the main thread (pyfrc's tests
    run the robot in another thread) or on a robot that is not a simulation."""
    import wpilib

    if threading.current_thread() is not threading.main_thread():
        return False
    if not wpilib.RobotBase.isSimulation():
        return False

    def first(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C: at once
        _expect_the_end(frame)
        robot.endCompetition()

    signal.signal(signal.SIGINT, first)
    return True


def _expect_the_end(frame: FrameType | None) -> None:
    """Tell RobotPy's starter (``wpilib._impl.start.RobotStarter``, further up this thread's
    stack) that ``startCompetition()`` is about to return on purpose, so it reports "Robot code
    exited" and exit code 0 rather than an unexpected return."""
    while frame is not None:
        starter: Any = frame.f_locals.get("self")
        if type(starter).__name__ == "RobotStarter" and hasattr(starter, "suppressExitWarning"):
            starter.suppressExitWarning = True
            return
        frame = frame.f_back
