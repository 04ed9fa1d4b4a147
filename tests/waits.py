"""Waiting on simulated devices the way a loaded machine needs: until they are ready.

phoenix6 and phoenix5 simulators send their frames on the wall clock, so a reading, a status or a
configuration read-back arrives when the simulator thread gets the CPU. On a shared 2-core machine
under load that can be much later than usual. Every wait here therefore ends as soon as its
condition holds; :data:`PATIENCE_S` only ends a wait that will never succeed (so a broken test
fails instead of hanging), and is far longer than any normal delay: it is not a time budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

PATIENCE_S = 60.0
POLL_S = 0.005


def until(check: Callable[[], bool], each: Callable[[], None] | None = None) -> bool:
    """Call ``each`` then ``check`` until ``check()`` holds (True), or give up after
    :data:`PATIENCE_S` (False)."""
    give_up = time.monotonic() + PATIENCE_S
    while True:
        if each is not None:
            each()
        if check():
            return True
        if time.monotonic() > give_up:
            return False
        time.sleep(POLL_S)


def until_ok(call: Callable[[], Any]) -> Any:
    """``call()`` (a phoenix6 call returning a ``StatusCode``) until its status is OK; the last
    status."""
    status: Any = None

    def answered() -> bool:
        nonlocal status
        status = call()
        return bool(status.is_ok())

    until(answered)
    return status


def read_config(configurator: Any, config: Any) -> Any:
    """``configurator.refresh(config)`` until the device answers; the last status."""
    return until_ok(lambda: configurator.refresh(config, 1.0))


def fresh_frames(signals: Iterable[Any]) -> None:
    """Wait until every phoenix6 status signal has received two new frames (so the second was
    sent after this call: a simulator state written before it is in it)."""
    for signal in signals:
        for _ in range(2):
            until(lambda signal=signal: bool(signal.wait_for_update(1.0).status.is_ok()))
