"""Refreshing many phoenix6 status signals at once, cheaply enough to do every loop.

``BaseStatusSignal.refresh_all`` refuses signals from different CAN buses (it marks *all* of them
INVALID_NETWORK), so :class:`SignalBatch` groups its signals by bus once and refreshes each group
with one native call.

phoenix6's own ``refresh_all`` is written in Python around one native call: per call it checks every
signal's bus, builds two ctypes arrays, then converts each result into a ``StatusCode``, three
timestamps and a units string. For the 17 signals of a four-module TalonFX drive that is about
65 µs on a desktop core, several times the native call itself, and a roboRIO runs Python some 25
times slower. A batch builds the arrays once and, each refresh, makes the same native call
(``c_ctre_phoenix6_get_signal``, non-blocking) and copies back only what the library reads: each
signal's value and status. Timestamps and units are **not** written back to the signals; a signal
whose age matters (latency compensation) is tracked with :meth:`SignalBatch.track_age`, whose
:class:`SignalAge` holds, after each refresh, how long before it the signal's frame arrived.

That fast path depends on phoenix6 internals (the ctypes structures and two private attributes of
``BaseStatusSignal``). When they are not as expected (another phoenix6 version) the batch falls
back to ``BaseStatusSignal.refresh_all``; tests compare both paths on the simulator.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterable, Sequence
from typing import Any

from phoenix6 import BaseStatusSignal, StatusCode

_OK_CODE = StatusCode.OK.value


def _network(signal: Any) -> str:
    """The CAN bus name a signal lives on ("" when it cannot be told)."""
    identifier = getattr(signal, "_BaseStatusSignal__device_identifier", None)
    network = getattr(identifier, "network", None)
    name = getattr(network, "name", "")
    return name if isinstance(name, str) else ""


def group_by_bus(signals: Iterable[Any]) -> list[list[Any]]:
    """Split signals into one list per CAN bus, keeping their order; duplicates are dropped."""
    groups: dict[str, list[Any]] = {}
    seen: set[int] = set()
    for signal in signals:
        if id(signal) in seen:
            continue
        seen.add(id(signal))
        groups.setdefault(_network(signal), []).append(signal)
    return list(groups.values())


def wait_for_frame(group: list[Any], timeout_s: float) -> bool:
    """Wait until every signal of ``group`` (one CAN bus) has received a new frame; False when
    one did not within ``timeout_s``."""
    return BaseStatusSignal.wait_for_all(timeout_s, group).is_ok()


def wait_for_frames(groups: Sequence[list[Any]], timeout_s: float) -> bool:
    """Wait until every signal of each group (one CAN bus each) has received two new frames, the
    second sent after this call; False when a group did not within ``timeout_s``."""
    for group in groups:
        for _ in range(2):  # a frame already on its way when this is called has older data
            if not wait_for_frame(group, timeout_s):
                return False
    return True


def refresh_all(signals: Sequence[Any]) -> bool:
    """Refresh ``signals`` with phoenix6's ``BaseStatusSignal.refresh_all``, one call per CAN bus;
    True when every signal is OK (also for an empty sequence)."""
    ok = True
    for group in group_by_bus(signals):
        if BaseStatusSignal.refresh_all(group) is not StatusCode.OK:
            ok = False
    return ok


refresh_signals = refresh_all


class _StatusCodes(dict[int, StatusCode]):
    """``StatusCode`` by integer value, built on first use (the enum call is slow in Python)."""

    def __missing__(self, code: int) -> StatusCode:
        try:
            status = StatusCode(code)
        except ValueError:  # a code this phoenix6 version does not name: an error all the same
            return StatusCode.GENERAL_ERROR
        self[code] = status
        return status


_STATUS_CODES = _StatusCodes()


MAX_AGE_S = 0.1  # an older frame is not extrapolated further: the signal is late, not moving


class SignalAge:
    """How old a batched signal's value was at the batch's last refresh (seconds, 0..0.1)."""

    __slots__ = ("age_s",)

    def __init__(self) -> None:
        self.age_s = 0.0


class _PublicGroup:
    """One bus's signals, refreshed through phoenix6's public ``refresh_all``."""

    fast = False

    def __init__(self, signals: list[Any]) -> None:
        self.signals = signals
        self.ages: list[tuple[int, SignalAge]] = []

    def refresh(self) -> bool:
        ok = BaseStatusSignal.refresh_all(self.signals) is StatusCode.OK
        for index, age in self.ages:
            latency = self.signals[index].all_timestamps.get_system_timestamp().get_latency()
            age.age_s = min(max(latency, 0.0), MAX_AGE_S)
        return ok


class _NativeGroup:
    """One bus's signals, refreshed by phoenix6's native call on arrays built once."""

    fast = True

    def __init__(self, signals: list[Any], native: Any, structures: Any) -> None:
        signal_values, return_values = structures
        count = len(signals)
        self.signals = signals
        self._count = count
        self._requests = (signal_values * count)()
        self._results = (return_values * count)()
        for request, signal in zip(self._requests, signals, strict=True):
            request.devicehash = signal._BaseStatusSignal__device_identifier.device_hash
            request.spn = signal._BaseStatusSignal__spn
        self._network = ctypes.c_char_p(_network(signals[0]).encode("utf-8"))
        self._get_signal = native.c_ctre_phoenix6_get_signal
        # Views of the results' value and error fields, one element per signal.
        size = ctypes.sizeof(return_values)
        value_offset = return_values.outValue.offset
        error_offset = return_values.error.offset
        raw = memoryview(self._results).cast("B")
        self._values = raw.cast("d")[value_offset // 8 :: size // 8]
        self._errors = raw.cast("i")[error_offset // 4 :: size // 4]
        # when each frame arrived, on phoenix6's clock (``Utils.get_current_time_seconds``)
        stamp_offset = return_values.swtimestampseconds.offset
        self._stamps = raw.cast("d")[stamp_offset // 8 :: size // 8]
        self.ages: list[tuple[int, SignalAge]] = []
        self._now = native.c_ctre_phoenix6_get_current_time_seconds

    def refresh(self) -> bool:
        status = self._get_signal(
            self._count, self._requests, self._results, self._network, True, 0.0
        )
        codes = _STATUS_CODES
        for signal, value, error in zip(
            self.signals, self._values.tolist(), self._errors.tolist(), strict=True
        ):
            signal._value = value
            signal._status = codes[error]
        if self.ages:
            now, stamps = self._now(), self._stamps
            for index, age in self.ages:
                latency = now - stamps[index]
                age.age_s = MAX_AGE_S if latency > MAX_AGE_S else max(latency, 0.0)
        return bool(status == _OK_CODE)


def _native_access() -> tuple[Any, Any] | None:
    """phoenix6's native library and result structures, when they look as this module expects."""
    try:
        from phoenix6.phoenix_native import Native, ReturnValues, SignalValues

        native = Native.instance()
        native.c_ctre_phoenix6_get_signal  # noqa: B018 - presence check
        size = ctypes.sizeof(ReturnValues)
        if (
            size % 8
            or ReturnValues.outValue.offset % 8
            or ReturnValues.error.offset % 4
            or ReturnValues.outValue.size != 8
            or ReturnValues.error.size != 4
        ):
            return None
    except (ImportError, AttributeError):
        return None
    return native, (SignalValues, ReturnValues)


def _usable_natively(signals: Sequence[Any]) -> bool:
    return all(
        hasattr(s, "_BaseStatusSignal__device_identifier")
        and hasattr(s, "_BaseStatusSignal__spn")
        and hasattr(s, "_value")
        and hasattr(s, "_status")
        for s in signals
    )


class SignalBatch:
    """A fixed set of phoenix6 signals refreshed together every loop (grouped by bus once).

    ``fast=False`` uses phoenix6's public ``refresh_all`` only (timestamps updated too).
    """

    def __init__(self, signals: Iterable[Any] = (), *, fast: bool = True) -> None:
        groups = group_by_bus(signals)
        access = _native_access() if fast else None
        self._groups: list[_PublicGroup | _NativeGroup] = []
        for group in groups:
            # The first refresh goes through phoenix6 itself: it reports outdated firmware and
            # sets every signal's units; later refreshes only change values and statuses.
            BaseStatusSignal.refresh_all(group)
            if access is not None and _usable_natively(group):
                self._groups.append(_NativeGroup(group, *access))
            else:
                self._groups.append(_PublicGroup(group))

    def __len__(self) -> int:
        return sum(len(group.signals) for group in self._groups)

    @property
    def fast(self) -> bool:
        """True when every group is refreshed through the native fast path."""
        return all(group.fast for group in self._groups)

    live_ages = True
    """False: tracked ages read 0 (a simulation stepped faster than real time, where a frame's
    wall-clock age says nothing about how far the simulated robot moved)."""

    def track_age(self, signal: Any) -> SignalAge | None:
        """A :class:`SignalAge` for ``signal`` (one of the batch's), updated by every refresh;
        None when the batch does not hold it."""
        for group in self._groups:
            for index, member in enumerate(group.signals):
                if member is signal:
                    age = SignalAge()
                    group.ages.append((index, age))
                    return age
        return None

    def refresh(self) -> bool:
        """Refresh every signal; True when all of them are OK (also when there are none)."""
        ok = True
        for group in self._groups:
            if not group.refresh():
                ok = False
            if not self.live_ages:
                for _, age in group.ages:
                    age.age_s = 0.0
        return ok
