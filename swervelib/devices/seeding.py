"""A seeded encoder position that the device's readings do not show yet.

Motor controllers show a seeded position only in their next status frame, up to a frame period
after the call: CTRE's (phoenix5 Talon SRX, phoenix6 TalonFX/FXS) and REV's Spark MAX/FLEX, whose
``getPosition`` answers the last frame received. Until then an adapter answers the seed
instead of the reading from before it: the encoder must not seem to jump back, since a module
would take the jump for a turn of its angle motor and its still absolute encoder for a frozen one.
No vendor import here.
"""

from __future__ import annotations

import time
from typing import Final

# How long a seed is answered at most, whatever the readings say (seconds).
SEED_WAIT_S: Final = 1.0


class PendingSeed:
    """A seed (in the device's raw units) and the raw reading from before it."""

    __slots__ = ("before", "match", "seeded", "since")

    def __init__(self, seeded: float, before: float, match: float) -> None:
        self.seeded = seeded
        self.before = before
        self.match = match  # a reading this close to the seed shows it
        self.since = time.monotonic()

    def shown_by(self, raw: float) -> bool:
        """Whether ``raw`` is past the seed: it shows it, differs from the reading before it (a
        new frame, or the mechanism moved), or :data:`SEED_WAIT_S` have passed."""
        return (
            abs(raw - self.seeded) <= self.match
            or raw != self.before
            or time.monotonic() - self.since > SEED_WAIT_S
        )
