"""Hostile numbers for property tests: NaN, infinities, the largest and smallest floats."""

from __future__ import annotations

import math

from hypothesis import strategies as st

HOSTILE = [
    math.nan,
    math.inf,
    -math.inf,
    1e308,
    -1e308,
    1e300,
    -1e300,
    5e-324,
    -5e-324,
    2.2250738585072014e-308,
    0.0,
    -0.0,
]

# Any float at all, with the hostile ones and everyday magnitudes drawn often.
numbers = st.one_of(
    st.sampled_from(HOSTILE), st.floats(), st.floats(min_value=-10.0, max_value=10.0)
)
