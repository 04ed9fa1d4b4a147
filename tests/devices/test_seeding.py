"""The seed rule the CTRE adapters share (swervelib.devices.seeding): pure Python."""

from __future__ import annotations

import pytest

from swervelib.devices import seeding
from swervelib.devices.seeding import ARRIVAL_MARGIN_S, SEED_WAIT_S, PendingSeed, StampedSeed


def test_a_seed_is_answered_until_a_reading_shows_it_moves_on_or_it_is_old(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [50.0]
    monkeypatch.setattr(seeding.time, "monotonic", lambda: now[0])
    seed = PendingSeed(seeded=1000.0, before=200.0, match=4.0)
    assert not seed.shown_by(200.0)  # the frame from before the seed: still answered
    assert seed.shown_by(1003.0)  # within the match of the seed
    assert seed.shown_by(201.0)  # any change from the old reading: a new frame, or it moved
    stuck = PendingSeed(seeded=1000.0, before=1002.0, match=4.0)
    assert stuck.shown_by(1002.0)  # a seed next to the old reading: nothing to wait for
    now[0] += SEED_WAIT_S + 0.01
    assert seed.shown_by(200.0)  # too old: the readings are believed again


def test_a_stamped_seed_is_shown_by_a_frame_that_arrived_after_it_was_acknowledged() -> None:
    """phoenix6's rule: the frame's arrival time, not its value or the wall clock, says whether it
    is from before the seed (pure: no clock is read)."""
    seed = StampedSeed(seeded=1000.0, match=4.0, acknowledged=20.0)
    assert not seed.shown_by(200.0, arrived=19.99)  # from before the seed
    assert not seed.shown_by(200.0, arrived=20.0 + ARRIVAL_MARGIN_S / 2)  # may have been queued
    assert seed.shown_by(1003.0, arrived=19.99)  # it shows the seed already
    assert seed.shown_by(200.0, arrived=20.0 + 2 * ARRIVAL_MARGIN_S)  # after: whatever it reads
