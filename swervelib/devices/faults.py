"""Device faults reported through WPILib Alerts, and bounded retries of configuration calls."""

from __future__ import annotations

import math
from collections.abc import Callable

import wpilib

ALERT_GROUP = "Swerve Alerts"


class FaultAlert:
    """One WPILib Alert for one device: shown while a fault lasts, cleared when it recovers."""

    def __init__(self, label: str, level: wpilib.Alert.AlertType = wpilib.Alert.AlertType.kError):
        self.label = label
        self._alert = wpilib.Alert(ALERT_GROUP, label, level)
        self._current: str | None = None

    @property
    def active(self) -> str | None:
        """The fault text being shown, or None."""
        return self._current

    def update(self, fault: str | None) -> None:
        """Show ``fault`` (None clears). Cheap when nothing changes."""
        if fault == self._current:
            return
        self._current = fault
        if fault is not None:
            self._alert.setText(f"{self.label}: {fault}")
        self._alert.set(fault is not None)


def with_retries(action: Callable[[], bool], attempts: int = 5) -> bool:
    """Run ``action`` until it returns True, at most ``attempts`` times; return whether it did."""
    return any(action() for _ in range(attempts))


def apply_config(label: str, what: str, action: Callable[[], bool], attempts: int = 5) -> bool:
    """Apply a configuration call with retries; on failure raise a persistent error Alert."""
    if with_retries(action, attempts):
        return True
    FaultAlert(label).update(f"failed to apply {what} after {attempts} attempts")
    return False


NOT_A_NUMBER = "reading is not a number"


def checked(value: float, last: float, sign: float = 1.0) -> tuple[float, str | None]:
    """``(sign · value, None)`` for a finite reading, else ``(last, NOT_A_NUMBER)``."""
    if math.isfinite(value):
        return sign * value, None
    return last, NOT_A_NUMBER
