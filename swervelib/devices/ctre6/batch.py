"""Refreshing many phoenix6 status signals at once.

``BaseStatusSignal.refresh_all`` refuses signals from different CAN buses (it marks *all* of them
INVALID_NETWORK), so signals are grouped by bus once and each group is refreshed with one call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from phoenix6 import BaseStatusSignal, StatusCode


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


class _GroupCache:
    """The bus grouping of the last signal set seen (the drive passes the same set every loop)."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] = ()
        self.groups: list[list[Any]] = []


_cache = _GroupCache()


def refresh_all(signals: Sequence[Any]) -> bool:
    """Refresh ``signals`` with one ``BaseStatusSignal.refresh_all`` call (one per CAN bus when they
    span several buses); True when every signal is OK.

    An empty sequence is fine (nothing to do, True). The grouping by bus is remembered for the
    last set of signals, so calling this every loop with the same signals costs one tuple compare.
    """
    if not signals:
        return True
    key = tuple(signals)
    cache = _cache
    if key != cache.key:
        cache.groups = group_by_bus(key)
        cache.key = key
    ok = True
    for group in cache.groups:
        if BaseStatusSignal.refresh_all(group) is not StatusCode.OK:
            ok = False
    return ok


refresh_signals = refresh_all


class SignalBatch:
    """A fixed set of phoenix6 signals refreshed together every loop (grouped by bus once)."""

    def __init__(self, signals: Iterable[Any] = ()) -> None:
        self._groups = group_by_bus(signals)

    def __len__(self) -> int:
        return sum(len(group) for group in self._groups)

    def refresh(self) -> bool:
        """Refresh every signal; True when all of them are OK (also when there are none)."""
        ok = True
        for group in self._groups:
            if BaseStatusSignal.refresh_all(group) is not StatusCode.OK:
                ok = False
        return ok
