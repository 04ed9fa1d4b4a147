"""Device faults reported through WPILib Alerts, and bounded retries of configuration calls."""

from __future__ import annotations

import math
from collections.abc import Callable

import wpilib

ALERT_GROUP = "Swerve Alerts"


class FaultAlert:
    """One WPILib Alert for one device: shown while a fault lasts, cleared when it recovers.

    ``active`` is the fault text being shown, or None. Read it; only :meth:`update` sets it (a
    plain attribute, not a property: the drive reads one every loop)."""

    def __init__(self, label: str, level: wpilib.Alert.AlertType = wpilib.Alert.AlertType.kError):
        self.label = label
        self._alert = wpilib.Alert(ALERT_GROUP, label, level)
        self.active: str | None = None

    def update(self, fault: str | None) -> None:
        """Show ``fault`` (None clears). Cheap when nothing changes."""
        if fault is self.active or fault == self.active:  # (None, the usual case: no compare)
            return
        self.active = fault
        if fault is not None:
            self._alert.setText(f"{self.label}: {fault}")
        self._alert.set(fault is not None)


def with_retries(action: Callable[[], bool], attempts: int = 5) -> bool:
    """Run ``action`` until it returns True, at most ``attempts`` times; return whether it did."""
    return any(action() for _ in range(attempts))


# The end of the Alert of a call kept for :meth:`ConfigCalls.retry_pending`.
_RETRY_NOTE = ", tried again at each health check"


class ConfigCalls:
    """One device's configuration calls, each tried a few times (:func:`with_retries`).

    What did not apply is shown on one error Alert, ``<label>: failed to apply <what> after <n>
    attempts``, for as long as the device lives or until a later call of the same ``what``
    succeeds. The device keeps this object: an Alert exists only while its object does.

    A call made with ``retry`` (a setting asked for while the robot runs, such as brake or coast)
    that did not apply is kept, and :meth:`retry_pending`, which the device's health check calls,
    tries it again until it applies.
    """

    def __init__(self, label: str) -> None:
        self._alert = FaultAlert(label)
        self._failed: dict[str, str] = {}
        self._pending: dict[str, Callable[[], bool]] = {}

    @property
    def failed(self) -> tuple[str, ...]:
        """The ``what`` of each call that did not apply (and has not since), oldest first."""
        return tuple(self._failed)

    def apply(
        self, what: str, action: Callable[[], bool], attempts: int = 5, *, retry: bool = False
    ) -> bool:
        """Run ``action`` until it returns True, at most ``attempts`` times; return whether it did.
        With ``retry``, an ``action`` that did not apply is kept for :meth:`retry_pending`; any
        later call of the same ``what`` replaces it."""
        self._pending.pop(what, None)
        if with_retries(action, attempts):
            if what in self._failed:
                del self._failed[what]
                self._show()
            return True
        tries = f" after {attempts} attempts" if attempts > 1 else ""
        self._failed[what] = f"failed to apply {what}{tries}{_RETRY_NOTE if retry else ''}"
        if retry:
            self._pending[what] = action
        self._show()
        return False

    def retry_pending(self) -> None:
        """Try each call kept by ``apply(..., retry=True)`` once more. For a device's health check,
        only while the device answers: a try on a silent device waits out its timeout."""
        if self._pending:
            for what, action in list(self._pending.items()):
                self.apply(what, action, 1, retry=True)

    def _show(self) -> None:
        self._alert.update("; ".join(self._failed.values()) or None)


NOT_A_NUMBER = "reading is not a number"


def checked(value: float, last: float, sign: float = 1.0) -> tuple[float, str | None]:
    """``(sign · value, None)`` for a finite reading, else ``(last, NOT_A_NUMBER)``."""
    if math.isfinite(value):
        return sign * value, None
    return last, NOT_A_NUMBER
