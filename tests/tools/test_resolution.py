"""The absolute encoders' resolution table (swervelib.tools.resolution)."""

from __future__ import annotations

import pytest

from swervelib.config.catalog import ENCODER_TYPES
from swervelib.tools.resolution import COUNTS_PER_TURN, UNKNOWN_COUNTS_PER_TURN, resolution_deg


def test_every_encoder_type_has_a_resolution() -> None:
    encoders = {name for name, kind in ENCODER_TYPES.items() if kind.kind != "none"}
    assert set(COUNTS_PER_TURN) == encoders
    assert min(COUNTS_PER_TURN.values()) == UNKNOWN_COUNTS_PER_TURN  # the coarsest


@pytest.mark.parametrize(
    ("encoder", "degrees"),
    [
        ("cancoder", 360 / 4096),  # 12 bits
        ("talonsrx_pwm", 360 / 4096),  # CTRE Mag Encoder, absolute
        ("throughbore", 360 / 1024),  # REV Through Bore, 10 bits
        ("sparkflex_attached", 360 / 1024),
        ("talonsrx_analog", 360 / 1024),  # the Talon SRX's 10-bit analog input
        ("no_such_type", 360 / 1024),
    ],
)
def test_resolution_in_degrees(encoder: str, degrees: float) -> None:
    assert resolution_deg(encoder) == pytest.approx(degrees)
