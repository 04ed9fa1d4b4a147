"""The three small interfaces every vendor adapter implements, and their simulation hooks.

Conventions (the spec's: counter-clockwise positive seen from above):

* Angle motors work in **degrees of module rotation** (after inversion and gear ratio).
* Drive motors work in **metres of wheel travel** (after inversion and conversion), m/s for speed.
* Absolute encoders report **degrees in [0, 360)** after ``absoluteEncoderInverted``, before the offset.
* IMUs report **yaw in degrees** after ``invertedIMU``, before any zeroing, not wrapped; the yaw rate
  goes through the inversion too. Pitch and roll (on demand, where the device has them) are in
  degrees, WPILib's NWU convention, and not inverted.

Simulation hooks speak the **physical frame** of the device: what the un-inverted hardware would
see or do. A physics model writes the rotor position of the motor *as the bare motor turns* and the
reading the bare sensor would give; the adapter (or the vendor simulator) then applies the
configured inversion, exactly as the real device would. So a wrong flag misbehaves in simulation as
it would on the robot.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any


class MotorSim(ABC):
    """Simulation access to one motor controller, in the bare motor's frame."""

    @abstractmethod
    def applied_voltage(self) -> float:
        """Volts the controller applies to the motor, positive = the bare motor's positive way."""

    @abstractmethod
    def set_rotor(self, rotations: float, rotations_per_second: float, dt: float) -> None:
        """Tell the controller where the bare rotor is (before gearing, before inversion)."""


class EncoderSim(ABC):
    """Simulation access to one absolute encoder, in the bare sensor's frame."""

    @abstractmethod
    def set_raw(self, rotations: float, rotations_per_second: float) -> None:
        """The reading the bare (un-inverted) sensor would give, in rotations (any value; it wraps)."""

    def set_connected(self, connected: bool) -> None:
        """Simulate an unplugged or dead sensor (not every sensor supports this)."""
        raise NotImplementedError(f"{type(self).__name__} cannot simulate a disconnect")

    def set_magnet_fault(self, bad: bool) -> None:
        """Simulate a bad magnet (only sensors that report magnet health)."""
        raise NotImplementedError(f"{type(self).__name__} cannot simulate a magnet fault")


class ImuSim(ABC):
    """Simulation access to one IMU, in the bare device's frame."""

    @abstractmethod
    def set_raw_yaw(self, degrees: float, rate_dps: float) -> None:
        """The yaw the bare (un-inverted) device would report, and its rate."""

    def set_connected(self, connected: bool) -> None:
        """Simulate a disconnected IMU (not every IMU supports this)."""
        raise NotImplementedError(f"{type(self).__name__} cannot simulate a disconnect")

    def set_tilt(self, pitch_deg: float, roll_deg: float) -> None:
        """Tilt the bare device: ``pitch_deg`` and ``roll_deg`` in WPILib's convention (pitch
        positive with the device's front down, roll positive with its left side up), written as
        the device itself would report them, so the adapter's conversion reads them back. A gyro
        that measures one axis has nothing to show and ignores it; a device whose simulator
        cannot be told raises NotImplementedError (this default)."""
        raise NotImplementedError(f"{type(self).__name__} cannot simulate a tilt")

    def report_at_once(self) -> None:  # noqa: B027 - optional hook
        """Make the yaw just written what the IMU reports from now on, for a device that takes a
        written value in only on its own next update (a new simulator starts with it: an IMU kept
        from an earlier model in the process must not report that model's yaw first)."""


class Device(ABC):
    """What every adapter has: a label for messages, a refresh, and a fault report."""

    label: str

    def refresh(self) -> None:  # noqa: B027 - optional hook
        """Fetch fresh readings from the device (no-op where reads are always fresh)."""

    def status_signals(self) -> Sequence[Any]:
        """phoenix6 status signals, so the drive can refresh a whole vendor in one call."""
        return ()

    def fault(self) -> str | None:
        """A short description of what is wrong with the device now, or None; also shows it on
        the device's Alert.

        The drive calls this for one device every few loops, in turn (each device about once a
        second), so it may make slower checks (fault bits, error codes) that the getters leave
        out, unless the adapter leaves ``usable`` to its default, which calls it every loop.
        """
        return None


class SwerveMotor(Device):
    """A drive motor (metres) or an angle motor (degrees of module rotation)."""

    @abstractmethod
    def set_voltage(self, volts: float) -> None:
        """Open-loop output."""

    @abstractmethod
    def set_velocity(self, units_per_second: float, feedforward_volts: float) -> None:
        """Closed-loop velocity on the controller (drive motors: m/s), with an added feedforward."""

    @abstractmethod
    def set_angle(self, degrees: float) -> None:
        """Closed-loop position with continuous wrap (angle motors: module degrees)."""

    @abstractmethod
    def get_position(self) -> float:
        """Metres (drive) or degrees (angle), after inversion and conversion; not wrapped.

        Getters are called every loop: they never raise for a bad value and never return NaN (they
        keep the last good value; :meth:`fault` says why).
        """

    @abstractmethod
    def get_velocity(self) -> float:
        """m/s (drive) or degrees/s (angle), after inversion and conversion."""

    @abstractmethod
    def set_position(self, value: float) -> None:
        """Seed the relative encoder (metres or degrees)."""

    @abstractmethod
    def get_applied_volts(self) -> float:
        """The voltage the controller applies now, in volts, signed as the motor's output after
        inversion (positive: the mechanism turns its positive way). Read on demand, not every loop
        (SysId and diagnostics ask for it); NaN when the controller cannot tell."""

    @abstractmethod
    def get_current_amps(self) -> float:
        """The motor's current now, in amperes: the controller's stator (or output) current, with
        the sign the vendor gives it (REV: never negative; CTRE: the direction of the torque);
        NaN when the controller cannot tell."""

    @abstractmethod
    def set_brake(self, brake: bool) -> None:
        """Idle mode: brake (True) or coast (False)."""

    def use_latency_compensation(self, batch: Any) -> bool:
        """Read the position as it is at the batch's refresh, not when its frame was sent
        (position + velocity × the frame's age), where the device's signals carry timestamps
        (phoenix6). ``batch``: the drive's signal batch. Returns whether it will; this default
        (devices read fresh, or without timestamps) does not."""
        return False

    def watch_reading(self, callback: Callable[[bool], None]) -> bool:
        """Have ``callback(False)`` called when :meth:`get_position` stops being live (the device
        does not answer: the reading is its last good value, frozen) and ``callback(True)`` when it
        is again; the drive estimates a drive wheel's distance meanwhile. Returns whether the
        adapter can tell; this default cannot (its readings are always believed)."""
        return False

    def recheck_reading(self) -> None:
        """Called by the drive once per loop, after its odometry, while :meth:`get_position` is
        not live: an adapter whose getter can tell that this loop's reading was good calls
        ``callback(True)`` now, so a frame late for a loop or two is not a dead wheel until the
        next health check. This default (and a Spark's: only its health check can tell) does
        nothing."""

    @property
    @abstractmethod
    def sim(self) -> MotorSim:
        """The simulation hook."""


class AbsoluteEncoder(Device):
    """An absolute angle sensor on a module."""

    @abstractmethod
    def get_absolute_degrees(self) -> float:
        """Degrees in [0, 360), after ``absoluteEncoderInverted``, before the offset.

        A reading that cannot be used (device not answering, bad magnet, NaN) returns the last
        good value and makes :attr:`usable` False until a good one arrives.
        """

    @property
    def usable(self) -> bool:
        """Whether the last :meth:`get_absolute_degrees` was a good reading. Read every loop by
        the module (which falls back to the angle motor's encoder when it is False). This default
        asks :meth:`fault`, for adapters whose fault check is as cheap as a reading; adapters with
        a costlier one keep a flag set by the getter."""
        return self.fault() is None

    @abstractmethod
    def get_velocity_dps(self) -> float:
        """Degrees per second, after inversion (0 where the sensor cannot tell)."""

    @property
    @abstractmethod
    def sim(self) -> EncoderSim:
        """The simulation hook."""


class Imu(Device):
    """A gyroscope giving the robot's yaw."""

    @abstractmethod
    def get_raw_yaw_degrees(self) -> float:
        """Yaw in degrees after ``invertedIMU``, before zeroing, not wrapped. A reading that cannot
        be used returns the last good value and makes :attr:`usable` False."""

    @property
    def usable(self) -> bool:
        """Whether the last :meth:`get_raw_yaw_degrees` was a good reading (read every loop by the
        drive, which turns to the wheels' rotation when it is False; the default asks
        :meth:`fault`, as for :attr:`AbsoluteEncoder.usable`)."""
        return self.fault() is None

    @abstractmethod
    def get_yaw_rate_dps(self) -> float:
        """Yaw rate in degrees per second, after ``invertedIMU``."""

    def get_pitch_roll_degrees(self) -> tuple[float, float] | None:
        """The robot's ``(pitch, roll)`` now, in degrees, read from the device when called (the
        drive's loop never calls it). WPILib's NWU convention (``Rotation3d``: x forward, y left,
        z up, each angle counter-clockwise about its axis, right-hand rule): roll positive when
        the left side goes up, pitch positive when the front goes *down*. The device's own axes
        are taken as the robot's; ``invertedIMU`` does not change them (it is the yaw's fix).

        None where the device cannot tell (single-axis gyros: this default) and when a read
        fails or is not finite; never raises for a bad reading."""
        return None

    @property
    @abstractmethod
    def sim(self) -> ImuSim:
        """The simulation hook."""


class ReadingWatch:
    """For a motor adapter that can tell its position reading is not live: the
    :meth:`SwerveMotor.watch_reading` it offers. The getter's failure branch (already there, so
    a healthy reading pays nothing) calls :meth:`_lose_reading`; :meth:`~Device.fault`, the health
    check run about once a second, calls :meth:`_regain_reading` when the device answers (or
    :meth:`_lose_reading` for an adapter whose getter cannot tell), and so does
    :meth:`SwerveMotor.recheck_reading` of an adapter that knows this loop's read was good (the
    drive's call each loop while the reading is not live). Each change is told once.
    Put it before the interface (``class X(ReadingWatch, SwerveMotor)``)."""

    reading_lost: bool = False
    _reading_watcher: Callable[[bool], None] | None = None

    def watch_reading(self, callback: Callable[[bool], None]) -> bool:
        self._reading_watcher = callback
        if self.reading_lost:  # lost before anyone watched (at start-up)
            callback(False)
        return True

    def _lose_reading(self) -> None:
        if not self.reading_lost:
            self.reading_lost = True
            if self._reading_watcher is not None:
                self._reading_watcher(False)

    def _regain_reading(self) -> None:
        if self.reading_lost:
            self.reading_lost = False
            if self._reading_watcher is not None:
                self._reading_watcher(True)


class UsableFlag:
    """For an adapter whose getter decides, reading by reading, whether the value is usable: the
    flag it sets, a plain attribute, so the module's per-loop read of :attr:`usable` is no call.
    Put it before the interface (``class X(UsableFlag, AbsoluteEncoder)``)."""

    usable: bool = True
