"""The original CTRE Pigeon IMU (phoenix5 ``PigeonIMU``), on CAN or through a Talon SRX ribbon cable.

* ``pigeon``: ``PigeonIMU(id)`` on the CAN bus.
* ``pigeon_via_talonsrx``: ``PigeonIMU(TalonSRX(id))``, the Pigeon plugged into the gadgeteer port
  of the Talon SRX with that CAN id (the Talon may also be one of the drive's motors).

Yaw is ``getYaw()`` (counter-clockwise positive, as the Pigeon reports it, not wrapped); the yaw rate
is the z axis of ``getRawGyro()`` in degrees per second. ``ImuSettings.inverted`` negates both.

Pitch and roll (on demand) are ``getYawPitchRoll()``'s, as the Pigeon reports them, taken to follow
the convention CTRE documents for the Pigeon 2.0 (X forward, Y left, Z up; pitch positive nose down,
roll positive left side up: WPILib's NWU). We found no statement of the original Pigeon's own signs
(CTRE's API gives only their ranges, ±90°; docs/device-types.md lists what we looked at): check them
on the robot (docs/device-types.md says how). The phoenix5 simulator cannot set them: the sim
hook's ``set_tilt`` raises NotImplementedError, and a simulated Pigeon reads level.

Simulation: the Pigeon sim collection integrates the *changes* of its raw heading input, and it
takes the very first input as the reference; the hook therefore primes it with 0 so the yaw then
follows the raw heading given. The phoenix5 simulator never fills the raw gyro rates (they read 0),
so in simulation the yaw rate comes from the rate given to the sim hook (bare frame), and goes
through the same inversion as the real gyro reading.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

import phoenix5
import wpilib
from phoenix5.sensors import PigeonIMU, PigeonIMU_StatusFrame

from swervelib.devices.ctre5 import (
    CONFIG_TIMEOUT_MS,
    FAULT_READ_EVERY,
    Debounce,
    is_ok,
    read_failed,
)
from swervelib.devices.faults import ConfigCalls, FaultAlert
from swervelib.devices.interfaces import Imu, ImuSim, UsableFlag
from swervelib.devices.settings import ImuSettings

# Status frames read every loop, sped up so the readings are fresh (and never seen as stale).
_FRAMES: Final = (
    (PigeonIMU_StatusFrame.PigeonIMU_CondStatus_9_SixDeg_YPR, 10),  # yaw
    (PigeonIMU_StatusFrame.PigeonIMU_BiasedStatus_2_Gyro, 10),  # raw gyro rates
    (PigeonIMU_StatusFrame.PigeonIMU_CondStatus_1_General, 20),  # state
)

_KINDS: Final = ("pigeon", "pigeon_via_talonsrx")


class PigeonImu(UsableFlag, Imu):
    """A phoenix5 Pigeon IMU on CAN (``pigeon``) or on a Talon SRX (``pigeon_via_talonsrx``).

    :attr:`usable` is whether no fault is reported (set by :meth:`refresh`, the only place the
    reported fault changes)."""

    # What the loop reads lives in the object (the set-up state in its instance dict).
    __slots__ = (
        "_debounce",
        "_rate",
        "_read",
        "_read_error",
        "_refreshes",
        "_sign",
        "_sim_rate",
        "_state_problem",
        "_yaw",
        "pigeon",
        "usable",
    )

    def __init__(self, settings: ImuSettings) -> None:
        self.usable = True
        kind = settings.imu_type.kind
        if kind not in _KINDS:
            raise ValueError(
                f"{settings.label}: PigeonImu handles {', '.join(_KINDS)}, not `{settings.device.type}`"
            )
        self.settings = settings
        self.label = settings.label
        self._alert = FaultAlert(settings.label)
        self.config_calls = ConfigCalls(settings.label)  # what did not apply, on an Alert
        device = settings.device
        # kept: an Alert shows only while its object lives
        self._canbus_alert = FaultAlert(settings.label, wpilib.Alert.AlertType.kWarning)
        if device.canbus:
            self._canbus_alert.update(
                f"canbus `{device.canbus}` ignored: phoenix5 Pigeon IMUs are on the roboRIO bus"
            )
        self.talon: phoenix5.TalonSRX | None = None
        if kind == "pigeon_via_talonsrx":
            self.talon = phoenix5.TalonSRX(device.id)
            self.pigeon = PigeonIMU(self.talon)
        else:
            self.pigeon = PigeonIMU(device.id)
        self._debounce = Debounce()
        self._sign = -1.0 if settings.inverted else 1.0  # invertedIMU
        self._yaw = 0.0  # last good raw (un-inverted) yaw
        self._rate = 0.0  # last good raw (un-inverted) yaw rate
        self._sim_rate: float | None = None
        self._read = False  # yaw read since the last refresh()
        self._refreshes = 0
        self._state_problem: str | None = None  # the last rate and state check's answer
        self._read_error: str | None = None
        self._sim: PigeonSim | None = None
        self._configure()

    def _configure(self) -> None:
        pigeon = self.pigeon
        t = CONFIG_TIMEOUT_MS
        calls = self.config_calls
        if not calls.apply("factory defaults", lambda: is_ok(pigeon.configFactoryDefault(t))):
            return  # not answering: the reads will report it; don't wait out every retry

        def set_period(frame: PigeonIMU_StatusFrame, period: int) -> Callable[[], bool]:
            return lambda: is_ok(pigeon.setStatusFramePeriod(frame, period, t))

        for frame, period in _FRAMES:
            calls.apply(f"status frame {frame.name}", set_period(frame, period))

    def _checked(self, code: Any, value: float, what: str) -> bool:
        if not is_ok(code):
            self._read_error = read_failed(what, code)
            return False
        if not math.isfinite(value):
            self._read_error = f"{what} reads NaN"
            return False
        return True

    def get_raw_yaw_degrees(self) -> float:
        self._read = True
        pigeon = self.pigeon
        yaw = pigeon.getYaw()
        code = pigeon.getLastError()
        # _checked's test, inline (every loop): OK (is_ok without int()) and finite
        if not code.value and yaw - yaw == 0.0:
            self._yaw = yaw
        else:
            self._checked(code, yaw, "yaw")  # says why
        return self._sign * self._yaw

    def get_yaw_rate_dps(self) -> float:
        if self._sim_rate is not None:
            self._rate = self._sim_rate  # the phoenix5 simulator has no gyro rates (see above)
        else:
            code, xyz = self.pigeon.getRawGyro()
            if self._checked(code, xyz[2], "gyro"):
                self._rate = xyz[2]
        return self._sign * self._rate

    def get_pitch_roll_degrees(self) -> tuple[float, float] | None:
        try:
            code, ypr = self.pigeon.getYawPitchRoll()
        except Exception:  # a vendor error must not stop the caller's loop
            return None
        if not is_ok(code):
            return None
        pitch, roll = float(ypr[1]), float(ypr[2])
        return (pitch, roll) if math.isfinite(pitch + roll) else None

    def refresh(self) -> None:
        """Judge the yaw readings taken since the last refresh (read now if there were none),
        and every :data:`FAULT_READ_EVERY` refreshes the rate and the state (the answer kept in
        between); a fault is reported after a few bad samples."""
        if not self._read:
            self.get_raw_yaw_degrees()
        problem = self._read_error
        self._read_error = None
        self._read = False
        count = self._refreshes
        self._refreshes = count + 1
        if count % FAULT_READ_EVERY == 0:
            self._state_problem = self._check_state()
        problem = problem or self._state_problem
        debounce = self._debounce
        if problem is not None or not debounce.quiet:  # (a healthy, quiet loop makes no call)
            debounce.report(problem, self._alert)
            self.usable = debounce.reported is None

    def _check_state(self) -> str | None:
        """The gyro rate's read and the Pigeon's state: None when both are fine."""
        self.get_yaw_rate_dps()
        problem, self._read_error = self._read_error, None
        if problem is not None:
            return problem
        state = self.pigeon.getState()
        code = self.pigeon.getLastError()
        if not is_ok(code):
            return read_failed("state", code)
        if state != PigeonIMU.PigeonState.Ready:
            return f"not ready (state {state.name})"
        return None

    def fault(self) -> str | None:
        return self._debounce.reported

    @property
    def alert(self) -> FaultAlert:
        """The WPILib Alert showing this IMU's fault."""
        return self._alert

    @property
    def sim(self) -> PigeonSim:
        if self._sim is None:
            self._sim = PigeonSim(self)
        return self._sim


class PigeonSim(ImuSim):
    """The Pigeon IMU sim collection, in the bare device's frame."""

    def __init__(self, imu: PigeonImu) -> None:
        self._imu = imu
        self._collection: Any = imu.pigeon.getSimCollection()
        # The simulator takes its first raw heading as the reference: make that 0.
        self._collection.setRawHeading(0.0)

    def set_raw_yaw(self, degrees: float, rate_dps: float) -> None:
        self._collection.setRawHeading(degrees)
        self._imu._sim_rate = rate_dps

    def set_tilt(self, pitch_deg: float, roll_deg: float) -> None:
        raise NotImplementedError(
            "the phoenix5 simulator cannot tilt a Pigeon IMU (its sim collection has only the "
            "heading): a simulated Pigeon IMU always reads level"
        )
