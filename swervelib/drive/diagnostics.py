"""Misconfiguration detected while driving: what the robot was told against what its sensors say.

Two checks run every loop, each a leaky timer so a brief disagreement (a bump, a collision, a wheel
slipping) never raises an alarm, and each clears itself once things agree again:

* **IMU against the wheels.** While the wheels say the robot is turning (|ω| above a threshold), the
  IMU must turn the same way. If they keep disagreeing, ``invertedIMU`` or every module's
  ``inverted.drive`` is wrong (spec §3.1/§3.2).
* **A module running away from its setpoint.** A healthy module may lag a fast-moving setpoint, but
  it always turns *towards* it. One that keeps turning *away* from a setpoint it is far from is being
  driven the wrong way: ``inverted.angle`` is wrong for that module (spec §1.7).

* **A module that cannot reach its angle while driving.** It turns the right way but stays far
  from its setpoint for long stretches, held back by the tire scrubbing on the floor: the angle
  PID (or its current limit) is too weak for the load (spec §1.8 — grinding on the ground but not
  on blocks: tune PID, do not invert). Reported as a warning.

All report through WPILib Alerts, in the spec's words. An optional protective stop (off by default:
``SwerveDrive.diagnostics.protective_stop = True``) stops the drive while a runaway is reported.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import wpilib

from swervelib.angles import wrap_180
from swervelib.devices.faults import FaultAlert
from swervelib.drive.module import SwerveModule

TURNING_RAD_S = 0.6  # the wheels must say at least this much rotation before the IMU is judged
IMU_PERSIST_S = 0.5
ANGLE_ERROR_DEG = 20.0
AWAY_RATE_DPS = 20.0  # turning away from the setpoint at least this fast
ANGLE_PERSIST_S = 0.4
STALL_ERROR_DEG = 15.0  # a module this far from its angle, turning towards it only slowly,
STALL_RATE_DPS = 90.0  # for this long: a healthy module turns 90° in about 0.2 s and chases a
STALL_PERSIST_S = 0.8  # moving setpoint at hundreds of degrees per second
RECOVERY_RATE = 0.5  # the timers drain at half the speed they fill


class _LeakyTimer:
    """Fills while a condition holds, drains (more slowly) while it does not."""

    def __init__(self, limit: float, recovery: float = RECOVERY_RATE) -> None:
        self.limit = limit
        self.recovery = recovery
        self.value = 0.0

    def update(self, condition: bool, dt: float) -> bool | None:
        """True when the limit is reached, False when fully drained, None in between."""
        if condition:
            self.value = min(self.value + dt, 2 * self.limit)
        else:
            self.value = max(self.value - self.recovery * dt, 0.0)
        if self.value >= self.limit:
            return True
        return False if self.value == 0.0 else None


class DriveDiagnostics:
    """Watches a drive's modules and heading each loop (called by ``SwerveDrive.periodic``)."""

    def __init__(self, modules: Sequence[SwerveModule]) -> None:
        self.modules = tuple(modules)
        self.protective_stop = False
        self._imu_timer = _LeakyTimer(IMU_PERSIST_S)
        self._imu_alert = FaultAlert("Swerve configuration", wpilib.Alert.AlertType.kError)
        self._angle_timers = [_LeakyTimer(ANGLE_PERSIST_S) for _ in self.modules]
        self._angle_alerts = [
            FaultAlert(f"{m.name} module", wpilib.Alert.AlertType.kError) for m in self.modules
        ]
        self._stall_timers = [_LeakyTimer(STALL_PERSIST_S, recovery=1.0) for _ in self.modules]
        self._stall_alerts = [
            FaultAlert(f"{m.name} module tuning", wpilib.Alert.AlertType.kWarning)
            for m in self.modules
        ]
        self.stalled: set[str] = set()
        self._last_yaw: float | None = None
        self._last_angles = [m.angle_deg for m in self.modules]
        self.imu_disagrees = False
        self.runaway: set[str] = set()

    def update_heading(
        self, yaw_deg: float, wheel_omega: float, imu_ok: bool, dt: float, *, judge: bool = True
    ) -> None:
        """The IMU check: ``yaw_deg`` from the IMU (unwrapped), ``wheel_omega`` (rad/s) from the
        module states, ``dt`` the time since the previous call. With ``judge`` False (robot
        disabled) only the reading is remembered."""
        if dt <= 0:
            return
        if not judge:
            self._last_yaw = yaw_deg if imu_ok else None
            return
        self._check_imu(yaw_deg, wheel_omega, imu_ok, dt)

    def update_modules(self, dt: float, *, judge: bool = True) -> None:
        """The runaway check, every loop (a module's direction of travel is judged loop by loop)."""
        if dt <= 0:
            return
        if not judge:
            self._last_angles = [m.angle_deg for m in self.modules]
            return
        self._check_angles(dt)

    def _check_imu(self, yaw_deg: float, wheel_omega: float, imu_ok: bool, dt: float) -> None:
        last, self._last_yaw = self._last_yaw, yaw_deg if imu_ok else None
        if last is None or not imu_ok:
            return
        imu_omega = math.radians(yaw_deg - last) / dt
        turning = abs(wheel_omega) > TURNING_RAD_S
        opposite = (
            turning and imu_omega * wheel_omega < 0 and abs(imu_omega) > 0.3 * abs(wheel_omega)
        )
        verdict = self._imu_timer.update(opposite, dt)
        if verdict is not None and verdict != self.imu_disagrees:
            self.imu_disagrees = verdict
            self._imu_alert.update(
                "IMU yaw turns opposite to the wheels: check invertedIMU / inverted.drive "
                "(eight-step procedure)"
                if verdict
                else None
            )

    def _check_angles(self, dt: float) -> None:
        for index, module in enumerate(self.modules):
            rate = wrap_180(module.angle_deg - self._last_angles[index]) / dt
            self._last_angles[index] = module.angle_deg
            error = wrap_180(module.angle_setpoint_deg - module.angle_deg)
            commanded = module.is_commanded
            away = error * rate < 0 and abs(rate) > AWAY_RATE_DPS
            far = abs(error) > ANGLE_ERROR_DEG
            self._judge(
                module.name,
                self.runaway,
                self._angle_timers[index],
                self._angle_alerts[index],
                commanded and far and away,
                f"{module.name} angle is running away from its setpoint: check inverted.angle",
                dt,
            )
            stuck = abs(error) > STALL_ERROR_DEG and not away and abs(rate) < STALL_RATE_DPS
            self._judge(
                module.name,
                self.stalled,
                self._stall_timers[index],
                self._stall_alerts[index],
                commanded and stuck and module.speed_setpoint_mps != 0.0,
                f"{module.name} turns the right way but cannot reach its angle under load: "
                "tune the angle PID rather than invert (spec §1.8: grinding on the ground but "
                "not on blocks)",
                dt,
            )

    @staticmethod
    def _judge(
        name: str,
        flagged: set[str],
        timer: _LeakyTimer,
        alert: FaultAlert,
        condition: bool,
        text: str,
        dt: float,
    ) -> None:
        verdict = timer.update(condition, dt)
        if verdict is True and name not in flagged:
            flagged.add(name)
            alert.update(text)
        elif verdict is False and name in flagged:
            flagged.discard(name)
            alert.update(None)

    @property
    def should_stop(self) -> bool:
        """True when the protective stop is on and a module is running away."""
        return self.protective_stop and bool(self.runaway)
