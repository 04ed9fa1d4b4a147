"""The set-point contract every motor adapter keeps, whoever calls it: what reaches the vendor
object is finite and within the motor's physical range (free speed through the gearing, the
configured voltage); a value that is not finite stops the motor and is counted.

Each vendor's test file records what its adapter hands to the vendor object (a spy on the vendor
call) into a :class:`Sent` and runs :func:`check_setpoints` with hypothesis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from swervelib.config.catalog import MOTOR_FREE_SPEED_RPS
from swervelib.devices.settings import MotorSettings
from tests.hostile import numbers


@dataclass
class Sent:
    """What reached the vendor object: ``(kind, value, feedforward volts)`` per call, ``kind``
    one of ``volts``, ``velocity`` (adapter units/s), ``position`` (any finite), ``seed``."""

    calls: list[tuple[str, float, float]] = field(default_factory=list)

    def add(self, kind: str, value: float, feedforward: float = 0.0) -> None:
        self.calls.append((kind, value, feedforward))


def physical_range(settings: MotorSettings) -> tuple[float, float]:
    """(top speed in adapter units/s, volts) from the configuration alone."""
    rps = MOTOR_FREE_SPEED_RPS[settings.motor_type.motor]
    return abs(rps * settings.units_per_rotation), settings.optimal_voltage


def violations(settings: MotorSettings, sent: Sent) -> list[str]:
    top, volts = physical_range(settings)
    tolerance = 1e-9 * max(top, 1.0)
    bad = []
    for kind, value, feedforward in sent.calls:
        ok = math.isfinite(value) and math.isfinite(feedforward) and abs(feedforward) <= volts
        if kind == "volts":
            ok = ok and abs(value) <= volts
        elif kind == "velocity":
            ok = ok and abs(value) <= top + tolerance
        if not ok:
            bad.append(f"{kind}({value}, ff={feedforward})")
    return bad


def command(motor: Any, call: str, a: float, b: float) -> None:
    """One public adapter call with hostile arguments."""
    if call == "set_voltage":
        motor.set_voltage(a)
    elif call == "set_velocity":
        motor.set_velocity(a, b)
    elif call == "set_angle":
        motor.set_angle(a)
    else:
        motor.set_position(a)


CALLS = ("set_voltage", "set_velocity", "set_angle", "set_position")


def is_refused(call: str, a: float, b: float) -> bool:
    """Whether the adapter must refuse this call (a set-point refused also stops the motor; a
    refused ``set_position`` leaves the encoder as it was). Positions beyond ±1e9 are refused."""
    if call in ("set_angle", "set_position"):
        return not -1e9 <= a <= 1e9
    return not math.isfinite(a) or (call == "set_velocity" and not math.isfinite(b))


# A few calls in a row, each with two arbitrary numbers (the second is set_velocity's volts).
call_lists = st.lists(st.tuples(st.sampled_from(CALLS), numbers, numbers), min_size=1, max_size=6)


def make_calls_and_check(
    motor: Any, sent: Sent, calls: list[tuple[str, float, float]], *, after_each: Any = None
) -> None:
    """Make ``calls`` on the adapter (its vendor object spied on into ``sent``), then check the
    contract: nothing out of range reached the vendor, each hostile call was refused and counted,
    and each refused set-point stopped the motor."""
    refused = motor.guard.refused
    for call, a, b in calls:
        command(motor, call, a, b)
        if after_each is not None:
            after_each()
    assert not violations(motor.settings, sent), violations(motor.settings, sent)[:5]
    assert motor.guard.refused - refused == sum(is_refused(*c) for c in calls)
    stops = [c for c in sent.calls if c[0] == "volts" and c[1] == 0.0]
    assert len(stops) >= sum(is_refused(*c) for c in calls if c[0] != "set_position")
