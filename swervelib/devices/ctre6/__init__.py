"""CTRE phoenix6 adapters: TalonFX / TalonFXS motors, CANcoder, Pigeon2.

Shared helpers for the adapters of this package. Everything phoenix6-specific stays inside this
package. Readings are phoenix6 status signals: they update on the device's own (wall-clock) schedule,
and the drive refreshes them all at once with :func:`swervelib.devices.ctre6.batch.refresh_signals`
(or each adapter's ``refresh()``); getters only read the last refreshed values.
"""

from __future__ import annotations

import atexit
import math
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import wpilib
from phoenix6 import BaseStatusSignal, CANBus, StatusCode, unmanaged

from swervelib.devices.faults import ConfigCalls

OK = StatusCode.OK


def _stop_auto_feed_enable() -> None:
    """Stop phoenix6's AutoFeedEnable notifier before the interpreter finalizes.

    Every phoenix6 device starts a wpilib Notifier that calls into Python every 10 ms. A call that
    arrives while Python 3.11-3.13 is finalizing makes that C++ thread ``pthread_exit`` through
    noexcept frames: ``terminate called without an active exception`` and exit code 134 (seen in
    most short pytest runs). atexit handlers run before finalization, so stop the notifier here and
    give a callback already in flight a moment to finish.
    """
    try:
        from phoenix6.wpiutils.auto_feed_enable import AutoFeedEnable

        instance = getattr(AutoFeedEnable, "_AutoFeedEnable__instance", None)
        notifier = getattr(instance, "_AutoFeedEnable__enable_notifier", None)
        if notifier is not None:
            notifier.stop()
            time.sleep(0.02)
    except Exception:  # never fail at exit
        pass


atexit.register(_stop_auto_feed_enable)


# How long :func:`hold_enable` keeps phoenix6's simulated devices enabled: a loaded machine can
# take far longer than phoenix6's own 100 ms over one stepped loop.
ENABLE_HOLD_S = 2.0


def hold_enable() -> None:
    """In a simulation whose time is stepped, keep phoenix6's devices enabled while the Driver
    Station is enabled, for :data:`ENABLE_HOLD_S` of wall-clock time.

    phoenix6 feeds its devices' enable from a WPILib Notifier on simulated time, for 100 ms of
    wall-clock time. When a test steps time and one loop takes longer than that (a busy machine),
    every Talon drops its output until the next step, and the physics in between runs unpowered
    motors; on a robot the enable does not depend on how long a loop takes. A disabled Driver
    Station is left to phoenix6, which disables the devices at its next feed."""
    if wpilib.DriverStation.isEnabled():
        unmanaged.feed_enable(ENABLE_HOLD_S)


# In simulation, a start-up configuration frame that phoenix6 could not even send (TX_FAILED,
# "Could not transmit CAN Frame": the simulator's threads starved of CPU, as on a loaded CI machine)
# is sent again after these pauses, 4.15 s at most for one configuration call however many times
# it is tried. Measured with 124 simulated devices on one core beside three busy processes, such an
# outage lasted 0.6-1.5 s, once 3.1 s, and each try that failed took about 0.1 s itself; the 0.63 s
# of pauses this had before gave up within about 1.8 s, with the device's five tries. A device that
# does not answer (a timeout) is not waited for any longer. On a robot a TX_FAILED means the bus is
# off (unplugged, shorted), which no pause mends: no pause there, so a robot with a broken bus
# starts as fast as before.
TX_BACKOFF_S = (0.01, 0.02, 0.04, 0.08, 0.16) + (0.32,) * 12


def tx_pauses() -> Iterator[float]:
    """The pauses one configuration call may spend on frames that could not be sent, shared by
    all its tries (:func:`sent`): :data:`TX_BACKOFF_S` in simulation, none on a robot."""
    return iter(TX_BACKOFF_S if wpilib.RobotBase.isSimulation() else ())


def sent(call: Callable[[], StatusCode], pauses: Iterator[float]) -> bool:
    """``call()`` (a phoenix6 configuration call made at start-up) is OK, sent again after each of
    ``pauses`` left (:func:`tx_pauses`) while phoenix6 could not transmit it. Not for the robot
    loop: it sleeps."""
    status = call()
    while status is StatusCode.TX_FAILED:
        pause = next(pauses, None)
        if pause is None:
            break
        time.sleep(pause)
        status = call()
    return status.is_ok()


def apply_at_start(config_calls: ConfigCalls, what: str, configurator: Any, config: Any) -> bool:
    """A device's start-up ``configurator.apply(config)`` through ``config_calls`` (its tries and
    Alert, under ``what``): a frame phoenix6 could not send is sent again (:func:`sent`), the
    pauses of :func:`tx_pauses` shared by all the tries. Whether it applied."""
    pauses = tx_pauses()
    return config_calls.apply(what, lambda: sent(lambda: configurator.apply(config), pauses))


def can_bus(name: str) -> CANBus:
    """The phoenix6 bus object for a configured bus name (``""`` = the roboRIO's own bus)."""
    return CANBus(name)


class SignalDevice:
    """For an adapter read through phoenix6 status signals: ``_signals`` are the ones the drive
    refreshes every loop in its batch, or :meth:`refresh` on their own. Put it before the
    interface (``class X(SignalDevice, Imu)``)."""

    _signals: list[Any]

    def status_signals(self) -> Sequence[Any]:
        return self._signals

    def refresh(self) -> None:
        BaseStatusSignal.refresh_all(self._signals)


def signal_fault(signals: Sequence[Any]) -> str | None:
    """Why the last refresh of ``signals`` gave no usable data, or None when all are fine.

    A status other than OK (RX timeout, stale frame: the device is not answering) or a NaN value.
    """
    for signal in signals:
        status = signal.status
        if status is not OK:
            return f"not answering ({status.name})"
        if math.isnan(signal.value_as_double):
            return f"reading NaN ({signal.name})"
    return None


def sim_disconnect(device_type: str, device_id: int) -> None:
    """Make a simulated phoenix6 device stop answering, as if unplugged (simulation only).

    Uses the phoenix6 sim platform's own ``sim_destroy``: the device's frames stop and its status
    signals go stale after about 0.3 s. phoenix6 cannot re-create a destroyed simulated device in
    the same process, so this is one-way (a dead device).
    """
    try:
        from phoenix6.phoenix_native import Native
        from phoenix6.sim.device_type import DeviceType

        destroy = Native.instance().c_ctre_phoenix6_platform_sim_destroy
        type_value = DeviceType[device_type].value
    except (ImportError, AttributeError, KeyError) as error:  # pragma: no cover - API drift
        raise NotImplementedError("this phoenix6 version cannot simulate a disconnect") from error
    destroy(type_value, device_id)


class SimDisconnect:
    """``set_connected`` for phoenix6 sim hooks (one-way, see :func:`sim_disconnect`)."""

    _device_type: str
    _device_id: int
    _destroyed: bool = False

    @property
    def connected(self) -> bool:
        """False once :meth:`set_connected` disconnected the device (it sends nothing more)."""
        return not self._destroyed

    def set_connected(self, connected: bool) -> None:
        if connected:
            if self._destroyed:
                raise NotImplementedError(
                    "phoenix6 simulation cannot reconnect a device once it was disconnected"
                )
            return
        if not self._destroyed:
            sim_disconnect(self._device_type, self._device_id)
            self._destroyed = True
