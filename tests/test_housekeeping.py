"""The drive's round-robin of slow checks (pure Python)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from swervelib.drive.housekeeping import RoundRobin


@given(st.integers(min_value=1, max_value=20), st.integers(min_value=0, max_value=200))
def test_each_check_runs_in_turn_once_per_round(count: int, calls: int) -> None:
    ran: list[int] = []
    checks = RoundRobin([lambda i=i: ran.append(i) for i in range(count)])  # type: ignore[misc]
    assert len(checks) == count
    for _ in range(calls):
        checks.run_next()
    assert ran == [k % count for k in range(calls)]  # in order, one per call, wrapping round
    ran.clear()
    checks.run_all()
    assert ran == list(range(count))


def test_no_checks_is_fine() -> None:
    checks = RoundRobin([])
    checks.run_next()
    checks.run_all()
    assert len(checks) == 0
