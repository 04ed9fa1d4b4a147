"""REV type strings YAGSL 2026 reads that the first REV group has no CAN ids left for: the Minion
motor on a Spark MAX / FLEX, and a Redux Canandmag / Canandcoder on the Spark's data port (read as
YAGSL reads it, like any duty-cycle encoder there). Same checks as ``test_rev.py``, through
robotpy-rev's simulator, in an isolated group of its own (REV allows one Spark per CAN id and
process)."""

from __future__ import annotations

import pytest
import rev

from swervelib.devices import registry
from swervelib.devices.rev.encoders import SparkAttachedEncoder
from tests.devices.test_rev import check_encoder_type, check_motor_type
from tests.devices.test_rev import enabled_driver_station as enabled_driver_station  # autouse

MOTORS: dict[str, tuple[type, str]] = {
    "sparkmax_minion": (rev.SparkMax, "minion"),
    "sparkflex_minion": (rev.SparkFlex, "minion"),
}
ENCODERS: dict[str, tuple[type, str]] = {
    "canandmag": (SparkAttachedEncoder, "sparkmax"),
    "canandcoder": (SparkAttachedEncoder, "sparkmax"),
    "sparkflex_canandmag": (SparkAttachedEncoder, "sparkflex"),
    "sparkflex_canandcoder": (SparkAttachedEncoder, "sparkflex"),
}


@pytest.mark.parametrize("type_name", sorted(MOTORS))
def test_minion_motor_type(type_name: str) -> None:
    check_motor_type(type_name, *MOTORS[type_name])


@pytest.mark.parametrize("type_name", sorted(ENCODERS))
def test_redux_encoder_on_the_data_port(type_name: str) -> None:
    assert registry.encoder_adapter(type_name) is SparkAttachedEncoder
    check_encoder_type(type_name, *ENCODERS[type_name])
