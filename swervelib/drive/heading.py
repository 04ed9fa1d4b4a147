"""The robot's yaw for odometry: the IMU's while it can be trusted, the wheels' in between.

The drive hands over the IMU and a way to ask the wheels how far the robot turned since the last
loop (once, when it builds the tracker), then this loop's wheel readings every loop. The yaw the
pose estimator gets is ``raw IMU yaw + offset``:

* **a reading that cannot be used** (the IMU raises, reads NaN, says it is not answering): the
  yaw carries on with the wheels' turn, and an Alert says so at once;
* **a stale reading** (exactly the same value as last loop while the wheels turned more than
  :data:`STALE_TURN_DEG`: a frame that did not arrive, or a device whose last value is still
  reported as fine after it stopped answering): the wheels' turn, too; the Alert only after
  :data:`STALE_ALERT_LOOPS` such loops in a row, since a late frame now and then is normal;
* **back again**: an IMU that only went stale, that was away for less than
  :data:`REBOOT_MIN_LOOPS` (no IMU reboots that fast), or that agrees with the wheels (within
  :data:`REJOIN_DEG`, or a quarter of the turn the wheels measured while it was away) kept
  counting while it was away: its own offset stays, so no rotation is lost, however many readings
  were missed. The wheels' estimate is not the judge of a short outage: with a module on its
  fallback encoder it can be far off, and the IMU is right. One that was away longer and jumped
  (a reboot resets the yaw) is re-anchored where the wheels got to, this loop's turn included; so
  is any IMU that returns after the pose was reset while it was away (the reset defined the
  heading on the wheels' estimate).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import wpilib

from swervelib.devices.faults import FaultAlert
from swervelib.devices.interfaces import Imu

STALE_TURN_DEG = 0.25  # per loop (12.5°/s at 50 Hz): far above any IMU's resolution
STALE_ALERT_LOOPS = 25  # half a second of stale readings before the Alert
REJOIN_DEG = 5.0
REJOIN_FRACTION = 0.25
REBOOT_MIN_LOOPS = 50  # one second: a Pigeon, navX or ADIS takes longer than that to boot

# Degrees the wheels say the robot turned since the last loop, from this loop's wheel distances
# (metres) and module angles (degrees), module by module.
WheelTurn = Callable[[Sequence[float], Sequence[float]], float]


class YawTracker:
    """The yaw (degrees, continuous) the pose estimator uses, and the raw IMU yaw."""

    __slots__ = (
        "__dict__",
        "_alert",
        "_outage_faulted",
        "_outage_loops",
        "_outage_reset",
        "_outage_turn_deg",
        "_stale_loops",
        "imu",
        "imu_ok",
        "offset_deg",
        "raw_yaw_deg",
        "wheel_turn",
        "yaw_deg",
    )

    def __init__(self, imu: Imu, wheel_turn: WheelTurn) -> None:
        self.imu = imu
        # held once (not handed over every loop: a bound method and a tuple made per loop)
        self.wheel_turn = wheel_turn
        self._alert = FaultAlert("Swerve heading", wpilib.Alert.AlertType.kWarning)
        try:
            raw = imu.get_raw_yaw_degrees()
        except Exception:
            raw = math.nan
        self.raw_yaw_deg = raw
        self.imu_ok = math.isfinite(raw)
        self.yaw_deg = raw if self.imu_ok else 0.0
        self.offset_deg = 0.0  # added to the raw yaw after an IMU outage
        # What happened while the IMU was away.
        self._outage_turn_deg = 0.0
        self._outage_faulted = False
        self._outage_reset = False
        self._stale_loops = 0
        self._outage_loops = 0
        if not self.imu_ok:
            self._begin_outage("IMU unusable at start-up")

    def update(self, distances: Sequence[float], angles: Sequence[float]) -> None:
        """Once per loop, after the modules were read: this loop's wheel ``distances`` (m) and
        module ``angles`` (degrees), for the wheels' turn (asked for only when needed)."""
        imu = self.imu
        wheel_turn = self.wheel_turn  # (a function in a slot: loaded, then called, is quicker)
        reason = ""
        turn: float | None = None
        try:
            raw = imu.get_raw_yaw_degrees()
            usable = imu.usable if raw - raw == 0.0 else False  # finite, and the IMU answers
        except Exception as error:  # an IMU that raises is an IMU that is not answering
            raw, usable, reason = math.nan, False, f" (reading raised {error!r})"
        stale = False
        if usable and raw == self.raw_yaw_deg:  # the very same reading as last loop
            turn = wheel_turn(distances, angles)
            # Frozen while the wheels turn; once frozen, until the reading changes (an IMU back
            # from a fault with the reading it had is believed while the wheels stand still).
            usable = (self.imu_ok or self._outage_faulted) if abs(turn) <= STALE_TURN_DEG else False
            stale = not usable
        if usable:
            if not self.imu_ok:
                self._rejoin(raw, wheel_turn(distances, angles) if turn is None else turn)
            self.raw_yaw_deg = raw
            self.yaw_deg = raw + self.offset_deg
            return
        if turn is None:
            turn = wheel_turn(distances, angles)
        if self.imu_ok:
            self.imu_ok = False
            self._outage_turn_deg = 0.0
            self._outage_faulted = self._outage_reset = False
            self._stale_loops = self._outage_loops = 0
        self._outage_loops += 1
        if stale:
            self._stale_loops += 1
            if self._stale_loops == STALE_ALERT_LOOPS and not self._outage_faulted:
                self._alert.update("IMU reading frozen while the wheels turn, heading from wheels")
        elif not self._outage_faulted:
            self._begin_outage(f"IMU unusable{reason}")
        self._outage_turn_deg += turn
        self.yaw_deg += turn

    def _begin_outage(self, why: str) -> None:
        self._outage_faulted = True
        self._alert.update(f"{why}, heading from wheel odometry")

    def _rejoin(self, raw: float, turn_deg: float) -> None:
        expected = self.yaw_deg + turn_deg
        if self._outage_reset:
            keep = False
        elif not self._outage_faulted or self._outage_loops < REBOOT_MIN_LOOPS:
            keep = True  # it only went stale, or was not away long enough to have rebooted
        else:
            difference = (raw + self.offset_deg - expected + 180.0) % 360.0 - 180.0
            tolerance = max(REJOIN_DEG, REJOIN_FRACTION * abs(self._outage_turn_deg))
            keep = abs(difference) <= tolerance
        if not keep:
            self.offset_deg = expected - raw
        self.imu_ok = True
        self._alert.update(None)

    def note_reset(self) -> None:
        """The pose was reset: if the IMU is away, the heading was defined on the wheels' yaw."""
        if not self.imu_ok:
            self._outage_reset = True

    def resync(self) -> None:
        """Start again from the IMU's reading as it is now (after a simulator moved it)."""
        try:
            raw = self.imu.get_raw_yaw_degrees()
        except Exception:
            return
        if math.isfinite(raw):
            self.raw_yaw_deg = self.yaw_deg = raw
            self.offset_deg = 0.0
