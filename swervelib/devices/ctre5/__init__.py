"""CTRE Phoenix 5 devices (``robotpy-ctre``, module ``phoenix5``): Talon SRX, its attached sensors,
and the original Pigeon IMU.

Shared helpers for the three adapter modules:

* :data:`ENABLE_FEED` — phoenix5 has no automatic enable feed in simulation (phoenix6 devices
  start one, phoenix5 devices do not), so in simulation every adapter command calls
  ``ENABLE_FEED.feed()`` when one is due (written ``if SIMULATION and monotonic() >=
  ENABLE_FEED.next_s: ENABLE_FEED.feed()``, so a real robot makes no call at all, and a simulated
  one calls only when a renewal is due); it feeds 100 ms of enable while the Driver Station is
  enabled (renewed at most every 20 ms).
* Reading: the per-loop ``refresh()`` judges the readings the drive took since the previous
  ``refresh()`` (and reads only if there were none), so no value is read twice in a loop; a Talon's
  fault flags, and the Pigeon's gyro rate and state, are read every :data:`FAULT_READ_EVERY`
  refreshes. A Talon's velocity read right after its position read is covered by the position's
  error check (both come from status frame 2).
* :func:`read_failed` — the fault text of a read that failed, with :func:`code_name`'s name.
* :func:`is_ok` — phoenix5 returns an ``ErrorCode`` (or a bare ``int``) from most calls; 0 is OK.
* :class:`Debounce` — phoenix5 status frames arrive on a wall-clock schedule, and a single late
  frame reads as ``RxTimeout``; a fault is reported only once it was seen on
  :data:`FAULT_SAMPLES` consecutive ``refresh()`` calls spanning :data:`FAULT_SECONDS` of wall-clock
  time (the frames' own clock); it clears on the first healthy sample. The refreshes call
  :meth:`Debounce.report` only when it has something to do (``problem is not None or not
  debounce.quiet``): a healthy loop makes no call.
"""

from __future__ import annotations

import time
from typing import Any, Final

import phoenix5
import wpilib

from swervelib.devices.faults import FaultAlert

# Timeout for configuration calls: wait for the device to acknowledge, so a failure is seen.
CONFIG_TIMEOUT_MS: Final = 50
# How long one enable feed lasts in simulation (the adapters feed it on every command).
SIM_ENABLE_FEED_MS: Final = 100
# A fault is reported once seen on this many consecutive refresh() samples ...
FAULT_SAMPLES: Final = 3
# ... spanning at least this many wall-clock seconds.
FAULT_SECONDS: Final = 0.1
# A Talon's fault flags (and a Pigeon's rate and state) are read every this many refresh() calls
# (100 ms at 50 Hz), the answer kept in between: they describe conditions (under-voltage, a sensor
# out of phase, a Pigeon not ready) that last.
FAULT_READ_EVERY: Final = 5
# Whether this process simulates the robot (fixed at start-up; asked on every command otherwise).
SIMULATION: Final = wpilib.RobotBase.isSimulation()
# The enable feed's clock (a module-level name: every command of every Talon reads it in simulation).
monotonic: Final = time.monotonic


# A feed lasts SIM_ENABLE_FEED_MS; renewing it more often than this (wall-clock seconds, as the
# feed's own clock) changes nothing, and every command of every Talon asks.
SIM_FEED_EVERY_S: Final = 0.02


class _EnableFeed:
    """The simulator's enable feed (one for the process, as phoenix5's own), renewed at most every
    :data:`SIM_FEED_EVERY_S` while the Driver Station is enabled."""

    def __init__(self) -> None:
        self.next_s = 0.0  # when the next renewal is due (``monotonic()`` seconds)

    def feed(self) -> None:
        now = monotonic()
        if now >= self.next_s and wpilib.DriverStation.isEnabled():
            phoenix5.Unmanaged.feedEnable(SIM_ENABLE_FEED_MS)
            self.next_s = now + SIM_FEED_EVERY_S


# The process's feed, renewed before a phoenix5 command when due (see the module docstring).
ENABLE_FEED: Final = _EnableFeed()


def is_ok(code: Any) -> bool:
    """Whether a phoenix5 ``ErrorCode`` (or the ``int`` some calls return) means success."""
    return int(code) == 0


def code_name(code: Any) -> str:
    """A readable name for a phoenix5 error code (``RxTimeout``) or its number."""
    try:
        return str(phoenix5.ErrorCode(int(code)).name)
    except (ValueError, TypeError):
        return f"error {int(code)}"


def read_failed(what: str, code: Any) -> str:
    """The fault text of a read the device did not answer (``code`` not OK)."""
    return f"not answering: {what} read failed ({code_name(code)})"


class Debounce:
    """Report a fault text only once it has lasted ``samples`` samples and ``seconds`` seconds."""

    def __init__(self, samples: int = FAULT_SAMPLES, seconds: float = FAULT_SECONDS) -> None:
        self._samples = samples
        self._seconds = seconds
        self._count = 0
        self._since = 0.0
        self.reported: str | None = None
        # Nothing reported and no fault pending: a healthy sample would change nothing, so
        # report() skips it (and the Alert's update) while this is True.
        self.quiet = True

    def report(self, fault: str | None, alert: FaultAlert) -> None:
        """:meth:`sample` ``fault`` and show the result on ``alert`` (each refresh calls this;
        a healthy sample while quiet changes nothing and costs nothing more)."""
        if fault is not None or not self.quiet:
            alert.update(self.sample(fault))

    def sample(self, fault: str | None) -> str | None:
        """Feed this refresh's raw fault (None = healthy); return the fault to report."""
        if fault is None:
            self._count = 0
            self.reported = None
            self.quiet = True
            return None
        self.quiet = False
        now = time.monotonic()
        if self._count == 0:
            self._since = now
        self._count += 1
        if self._count >= self._samples and now - self._since >= self._seconds:
            self.reported = fault
        return self.reported
