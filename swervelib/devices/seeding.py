"""A seeded encoder position that the device's readings do not show yet.

Motor controllers show a seeded position only in their next status frame, up to a frame period
after the call: CTRE's (phoenix5 Talon SRX, phoenix6 TalonFX/FXS) and REV's Spark MAX/FLEX, whose
``getPosition`` answers the last frame received. Until then an adapter answers the seed
instead of the reading from before it: the encoder must not seem to jump back, since a module
would take the jump for a turn of its angle motor and its still absolute encoder for a frozen one.

Where frames carry no time (REV, phoenix5), :class:`PendingSeed` guesses from the readings: one
that differs from the reading before the seed is new, and after :data:`SEED_WAIT_S` any is.
phoenix6 stamps each frame with when it arrived, so :class:`StampedSeed` knows: a frame that
arrived after the seed was acknowledged shows it, and one from before never does, however late
it is read. (Under a CPU hog a simulated Talon's first reading after a seed was once the old one,
which the guesses can let through.) No vendor import here.
"""

from __future__ import annotations

import time
from typing import Final

# How long a seed is answered at most, whatever the readings say (seconds).
SEED_WAIT_S: Final = 1.0
# A frame the device queued before it took the seed may follow its answer onto the bus: a stamped
# frame shows the seed only if it arrived this much after the answer (seconds; a frame period at
# 100 Hz is 10 ms, so this holds a seed at most one frame longer).
ARRIVAL_MARGIN_S: Final = 0.002


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


class StampedSeed:
    """A seed (in the device's raw units) on a device that stamps its frames with their arrival
    time, and the time it was acknowledged, on the same clock."""

    __slots__ = ("acknowledged", "match", "seeded")

    def __init__(self, seeded: float, match: float, acknowledged: float) -> None:
        self.seeded = seeded
        self.match = match  # a reading this close to the seed shows it
        self.acknowledged = acknowledged

    def shown_by(self, raw: float, arrived: float) -> bool:
        """Whether a frame reading ``raw`` that arrived at ``arrived`` is past the seed: it shows
        the seed, or it arrived after the seed was acknowledged (the device took the seed before
        it answered; a device reset since then reads what it reads)."""
        return (
            arrived > self.acknowledged + ARRIVAL_MARGIN_S or abs(raw - self.seeded) <= self.match
        )
