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


# The end of the Alert of a setting a device did not take and that its health check tries again.
RETRY_NOTE = ", tried again at each health check"


class ConfigCalls:
    """One device's configuration calls, each tried a few times (:func:`with_retries`).

    What did not apply is shown on one error Alert, ``<label>: failed to apply <what> after <n>
    attempts``, for as long as the device lives or until a later call of the same ``what``
    succeeds. The device keeps this object: an Alert exists only while its object does.
    """

    def __init__(self, label: str) -> None:
        self._alert = FaultAlert(label)
        self._failed: dict[str, str] = {}

    @property
    def failed(self) -> tuple[str, ...]:
        """The ``what`` of each call that did not apply (and has not since), oldest first."""
        return tuple(self._failed)

    def apply(
        self, what: str, action: Callable[[], bool], attempts: int = 5, note: str = ""
    ) -> bool:
        """Run ``action`` until it returns True, at most ``attempts`` times; return whether it did.
        ``note`` ends the Alert's text on failure (e.g. that the call will be tried again)."""
        if with_retries(action, attempts):
            if what in self._failed:
                del self._failed[what]
                self._show()
            return True
        tries = f" after {attempts} attempts" if attempts > 1 else ""
        self._failed[what] = f"failed to apply {what}{tries}{note}"
        self._show()
        return False

    def _show(self) -> None:
        self._alert.update("; ".join(self._failed.values()) or None)


NOT_A_NUMBER = "reading is not a number"


def checked(value: float, last: float, sign: float = 1.0) -> tuple[float, str | None]:
    """``(sign · value, None)`` for a finite reading, else ``(last, NOT_A_NUMBER)``."""
    if math.isfinite(value):
        return sign * value, None
    return last, NOT_A_NUMBER
