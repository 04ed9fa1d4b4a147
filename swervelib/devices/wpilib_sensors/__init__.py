"""Sensors read through WPILib itself: roboRIO DIO/analog absolute encoders and WPILib gyroscopes.

Also home of :class:`PortPool`, which opens each roboRIO port once per process. The HAL refuses a
second handle on a DIO or analog channel, and a second SPI gyro on the same port silently reads
nothing in simulation (and corrupted the heap at interpreter exit in our trials). Building a drive
twice in one process (tests, or robot code re-creating its subsystem) therefore shares the device
instead of opening it again; ``close()`` on the last adapter using it frees the port.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from swervelib.devices.faults import FaultAlert


class PortPool:
    """Opened devices by port, shared by every adapter on that port, reference counted."""

    def __init__(self) -> None:
        self._open: dict[Hashable, tuple[Any, int]] = {}

    def acquire(self, key: Hashable, factory: Callable[[], Any]) -> Any:
        """The device on ``key``, opened with ``factory`` unless an adapter already holds it."""
        entry = self._open.get(key)
        if entry is None:
            entry = (factory(), 0)
        device, users = entry
        self._open[key] = (device, users + 1)
        return device

    def release(self, key: Hashable) -> None:
        """One user is done with ``key``; the last one drops the pool's reference."""
        entry = self._open.get(key)
        if entry is None:
            return
        device, users = entry
        if users <= 1:
            del self._open[key]
        else:
            self._open[key] = (device, users - 1)

    def is_open(self, key: Hashable) -> bool:
        return key in self._open


PORTS = PortPool()


class PooledDevice:
    """An adapter holding a device from :data:`PORTS` (``_device``), its sim hook (``_sim``)."""

    _device: Any
    _sim: Any
    _key: Hashable

    def _open(self) -> Any:
        """Open the device (called only when no adapter holds the port yet)."""
        raise NotImplementedError

    def _take_port(self, settings: Any, key: Hashable) -> None:
        """The state every pooled adapter starts from: label, channel, inversion sign, Alert, and
        the device on ``key`` (``settings`` is an EncoderSettings or ImuSettings)."""
        self.label: str = settings.label
        self.channel: int = settings.device.id
        self._sign = -1.0 if settings.inverted else 1.0
        self._key = key
        self.alert = FaultAlert(settings.label)
        self._device = PORTS.acquire(key, self._open)
        self._sim = None

    def close(self) -> None:
        """Give the port back (the last adapter on it frees the HAL handle)."""
        if self._device is not None:
            self._device = None
            self._sim = None
            PORTS.release(self._key)
