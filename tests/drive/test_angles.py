"""Angle wrapping and the module-angle formula (property tests)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from swervelib.angles import module_angle, nearest_equivalent, wrap_180, wrap_360

angles = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


def same_direction(a: float, b: float) -> bool:
    return abs(math.remainder(a - b, 360.0)) < 1e-6


@given(angles)
def test_wrap_360_range_and_equivalence(x: float) -> None:
    wrapped = wrap_360(x)
    assert 0.0 <= wrapped < 360.0
    assert same_direction(wrapped, x)


@given(angles)
def test_wrap_180_range_and_equivalence(x: float) -> None:
    wrapped = wrap_180(x)
    assert -180.0 <= wrapped < 180.0
    assert same_direction(wrapped, x)


def test_wrap_edges() -> None:
    assert wrap_360(360.0) == 0.0
    assert wrap_360(-1e-18) == 0.0
    assert wrap_360(-90.0) == 270.0
    assert wrap_180(180.0) == -180.0
    assert wrap_180(190.0) == -170.0


@given(angles, angles)
def test_module_angle_is_reading_minus_offset_wrapped(raw: float, offset: float) -> None:
    angle = module_angle(raw, offset)
    assert 0.0 <= angle < 360.0
    assert same_direction(angle, raw - offset)


def test_module_angle_examples() -> None:
    assert module_angle(12.3, 12.3) == 0.0
    assert math.isclose(module_angle(10.0, 350.0), 20.0)
    assert math.isclose(module_angle(100.0, 280.0), 180.0)
    # the spec's +180 fix turns the module angle half a turn
    assert math.isclose(module_angle(100.0, 280.0 + 180.0), 0.0)


@given(angles, angles)
def test_nearest_equivalent_is_within_half_a_turn(target: float, current: float) -> None:
    result = nearest_equivalent(target, current)
    assert abs(result - current) <= 180.0 + 1e-6
    assert same_direction(result, target)
