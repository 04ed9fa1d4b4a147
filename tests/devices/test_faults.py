"""ConfigCalls: configuration calls with retries, what did not apply kept on one Alert."""

from __future__ import annotations

import gc

from swervelib.devices.faults import ConfigCalls
from tests.sim import alert_texts


def errors() -> list[str]:
    return alert_texts(("errors",))


class Answers:
    """An action that answers False ``refusals`` times, then True; counts its calls."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.calls = 0

    def __call__(self) -> bool:
        self.calls += 1
        if self.refusals:
            self.refusals -= 1
            return False
        return True


def test_a_call_that_applies_within_its_attempts_shows_nothing() -> None:
    calls = ConfigCalls("faults test device 1")
    action = Answers(refusals=2)
    assert calls.apply("gains", action, attempts=3)
    assert action.calls == 3
    assert calls.failed == ()
    assert not any(e.startswith("faults test device 1:") for e in errors())


def test_what_did_not_apply_stays_on_the_alert_until_it_does() -> None:
    """The Alert outlives the call (it used to be dropped, and vanish, at once) and names every
    call that did not apply; a later success of one takes only that one off."""
    calls = ConfigCalls("faults test device 2")
    gains, mode = Answers(refusals=5), Answers(refusals=2)
    assert not calls.apply("gains", gains, attempts=5)
    assert gains.calls == 5
    assert not calls.apply("neutral mode", mode, attempts=2, retry=True)
    gc.collect()
    mine = [e for e in errors() if e.startswith("faults test device 2:")]
    assert mine == [
        "faults test device 2: failed to apply gains after 5 attempts; failed to apply neutral "
        "mode after 2 attempts, tried again at each health check"
    ]
    assert calls.failed == ("gains", "neutral mode")

    calls.retry_pending()  # the kept call, once more: it applies now (gains was not kept)
    assert (mode.calls, gains.calls) == (3, 5)
    assert calls.failed == ("gains",)
    mine = [e for e in errors() if e.startswith("faults test device 2:")]
    assert mine == ["faults test device 2: failed to apply gains after 5 attempts"]

    assert calls.apply("gains", gains)
    assert calls.failed == ()
    assert not any(e.startswith("faults test device 2:") for e in errors())


def test_one_attempt_is_not_counted_in_the_text() -> None:
    calls = ConfigCalls("faults test device 3")
    assert not calls.apply("idle mode", Answers(refusals=1), attempts=1, retry=True)
    mine = [e for e in errors() if e.startswith("faults test device 3:")]
    assert mine == [
        "faults test device 3: failed to apply idle mode, tried again at each health check"
    ]


def test_retry_pending_tries_each_kept_call_once_until_it_applies() -> None:
    """Only calls made with ``retry`` are kept; each is tried once per :meth:`retry_pending`,
    then forgotten once it applies; a later call of the same kind replaces the kept one."""
    calls = ConfigCalls("faults test device 4")
    first, mode = Answers(refusals=9), Answers(refusals=3)
    assert not calls.apply("idle mode", first, attempts=1, retry=True)
    assert not calls.apply("idle mode", mode, attempts=2, retry=True)  # the newer wish
    calls.retry_pending()  # the third refusal
    assert (first.calls, mode.calls) == (1, 3)
    assert calls.failed == ("idle mode",)
    calls.retry_pending()  # applies
    assert mode.calls == 4
    assert calls.failed == ()
    calls.retry_pending()  # nothing kept
    assert (first.calls, mode.calls) == (1, 4)
