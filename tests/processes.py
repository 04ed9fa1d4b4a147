"""Stopping a robot program a test started (``robotpy sim`` in a subprocess)."""

from __future__ import annotations

import signal
import subprocess
from typing import Any

STOP_WAIT_S = 10.0


def interrupt(process: subprocess.Popen[Any]) -> None:
    """Ctrl-C, as a person stops ``robotpy sim``; killed if it has not ended after
    :data:`STOP_WAIT_S`."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=STOP_WAIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
