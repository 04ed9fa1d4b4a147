"""Work a drive must do regularly but not every loop, spread thin over the loops.

A robot loop on a roboRIO has 20 ms for everything a team writes, and Python there runs some 25
times slower than on a desktop. Reading a device's fault bits or error code costs as much as reading
its position, so doing it for every device every loop would make fault reporting cost more than
driving. Instead every fourth loop runs *one* device check, in turn: with 13 devices (four modules
and an IMU) every device is checked every 52 loops, about once a second, which is plenty for an
Alert a person reads. What has to react within a loop (a NaN reading, a device whose status says it did
not answer, an absolute encoder that cannot be used) is decided from the readings themselves, in
the per-loop path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


class RoundRobin:
    """Runs one of a fixed list of checks per call, in turn."""

    def __init__(self, checks: Sequence[Callable[[], None]]) -> None:
        self._checks = tuple(checks)
        self._next = 0

    def __len__(self) -> int:
        return len(self._checks)

    def run_next(self) -> None:
        """Run the next check (nothing when there are none)."""
        checks = self._checks
        if not checks:
            return
        index = self._next
        self._next = index + 1 if index + 1 < len(checks) else 0
        checks[index]()

    def run_all(self) -> None:
        """Run every check once now (start-up, or a test that wants fresh Alerts)."""
        for check in self._checks:
            check()
