"""Misconfiguration detected while driving: what the robot was told against what its sensors say.

The checks are spread over the loops by ``SwerveDrive.periodic``, each a leaky timer so a brief
disagreement (a bump, a collision, a wheel slipping) never raises an alarm, and each clears itself
once things agree again:

* **IMU against the wheels.** While the wheels say the robot is turning (|ω| above a threshold), the
  IMU must turn the same way. If they keep disagreeing, ``invertedIMU`` or every module's
  ``inverted.drive`` is wrong (see the calibration docs).
* **A module running away from its setpoint.** A healthy module may lag a fast-moving setpoint, but
  it always turns *towards* it. One that keeps turning *away* from a setpoint it is far from is being
  driven the wrong way. Three settings can do that: ``inverted.angle``, ``absoluteEncoderInverted``
  (when the absolute encoder is what the module steers by) and the sign or size of the angle
  conversion. The Alert names all three and says whether the absolute encoder and the angle
  motor's encoder turned the same way while it ran away (if not, one of the two inversions is
  wrong); ``python -m swervelib calibrate`` tells which by watching the raw readings.

* **A module that cannot reach its angle while driving.** It turns the right way but stays far
  from its setpoint for long stretches, held back by the tire scrubbing on the floor: the angle
  PID (or its current limit) is too weak for the load (grinding on the ground but not
  on blocks: tune PID, do not invert). Reported as a warning.

A module whose angle motor's last fault check reported a fault (``SwerveModule.angle_motor_fault``:
a controller that does not answer, or a fault such as a Spark's gate driver, which stops it) is
not judged stalled: its own Alert says why it cannot reach its angle, and the PID is not to blame.
It is still judged for running away (turning away from its setpoint takes a motor that drives,
and a Talon SRX reporting its sensor out of phase may well be one).

All report through WPILib Alerts, in the spec's words. An optional protective stop (off by default:
``SwerveDrive.diagnostics.protective_stop = True``) stops the drive while a runaway is reported.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial

import wpilib

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
ENCODER_MOVE_DEG = 0.2  # a raw reading must move this much in a loop to count as turning
# A module within STALL_ERROR_DEG of its setpoint is neither stalled nor (ANGLE_ERROR_DEG being
# larger) running away: the observation's "near", which costs nothing more.
assert ANGLE_ERROR_DEG >= STALL_ERROR_DEG


class _LeakyTimer:
    """Fills while a condition holds, drains (more slowly) while it does not."""

    def __init__(self, limit: float, recovery: float = RECOVERY_RATE) -> None:
        self.limit = limit
        self.recovery = recovery
        self.value = 0.0

    def update(self, condition: bool, dt: float) -> bool | None:
        """True when the limit is reached, False when fully drained, None in between."""
        return self.update_window(dt, 0.0) if condition else self.update_window(0.0, dt)

    def update_window(self, held: float, not_held: float) -> bool | None:
        """:meth:`update` for a stretch of time in which the condition held for ``held`` seconds
        and did not for ``not_held``."""
        value = self.value + held - self.recovery * not_held
        if value <= 0.0:
            self.value = 0.0
            return False
        limit = self.limit
        if value < limit:
            self.value = value
            return None
        self.value = value if value < 2.0 * limit else 2.0 * limit
        return True


class DriveDiagnostics:
    """Watches a drive's modules and heading each loop (called by ``SwerveDrive.periodic``)."""

    # The attributes the every-loop paths read, in slots; the rest in the instance's dict.
    __slots__ = (
        "__dict__",
        "_away_s",
        "_indexed",
        "_loops",
        "_observed_s",
        "_stuck_s",
        "modules",
        "runaway",
    )

    def __init__(self, modules: Sequence[SwerveModule]) -> None:
        self.modules = tuple(modules)
        # (index, module) pairs, built once: the loops iterate a tuple, with no enumerate object
        self._indexed = tuple(enumerate(self.modules))
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
        count = len(self.modules)
        self._away_s = [0.0] * count  # time each module moved away from a far setpoint ...
        self._stuck_s = [0.0] * count  # ... or crept towards it, since the last judgement
        # While running away: time the absolute encoder and the angle motor's encoder turned
        # opposite ways, and the same way (a hint at which inversion is wrong).
        self._opposed_s = [0.0] * count
        self._agreed_s = [0.0] * count
        # Each module's raw readings (absolute, angle motor) at the last loop it ran away, with
        # that loop's number: only a running-away module keeps them, so a module near its
        # setpoint costs nothing more than the distance to it.
        self._last_raw: list[tuple[int, float, float] | None] = [None] * count
        self._loops = 0  # loops observed
        self._observed_s = 0.0  # time observed since the last judgement
        self._last_yaw: float | None = None
        self.imu_disagrees = False
        self.runaway: set[str] = set()

    def update_heading(
        self, yaw_deg: float, wheel_omega: float, imu_ok: bool, dt: float, *, judge: bool = True
    ) -> None:
        """The IMU check: ``yaw_deg`` from the IMU (unwrapped), ``wheel_omega`` (rad/s) from the
        module states, ``dt`` the time since the previous call. With ``judge`` False (robot
        disabled) only the reading is remembered."""
        if dt <= 0.0:
            return
        if not judge:
            self._last_yaw = yaw_deg if imu_ok else None
            return
        self._check_imu(yaw_deg, wheel_omega, imu_ok, dt)

    def observe_modules(self, dt: float) -> None:
        """Every loop, cheaply: whether each commanded module turned away from a setpoint it is far
        from during this loop (``SwerveModule.last_turn_deg`` over ``dt``), or crept towards it.
        A direction of travel is judged loop by loop; :meth:`judge_modules` weighs the totals."""
        if dt <= 0.0:
            return
        self._observed_s += dt
        self._loops = loop = self._loops + 1
        # the turns in this loop at the runaway and stall rates (one product a loop, not a
        # division a module)
        away = AWAY_RATE_DPS * dt
        slow = STALL_RATE_DPS * dt
        for index, module in self._indexed:
            if not module.is_commanded:
                continue
            error = (module.angle_setpoint_deg - module.angle_deg + 180.0) % 360.0 - 180.0
            # Near (within STALL_ERROR_DEG, the nearer of the two bounds): nothing to note.
            if -STALL_ERROR_DEG <= error <= STALL_ERROR_DEG:
                continue
            turn = module.last_turn_deg
            # (comparisons on both sides rather than abs(): no call, the same answer for NaN)
            if error * turn < 0.0 and (turn > away or turn < -away):
                if error > ANGLE_ERROR_DEG or error < -ANGLE_ERROR_DEG:
                    self._away_s[index] += dt
                    self._compare_encoders(index, module, loop, dt)
            elif (
                -slow < turn < slow
                and module.speed_setpoint_mps != 0.0
                # an angle motor that reports a fault or does not answer: its own Alert says why
                and module.angle_motor_fault is None
            ):
                self._stuck_s[index] += dt

    def judge_modules(self, *, judge: bool = True) -> None:
        """The runaway and stall verdicts from what :meth:`observe_modules` saw since the last
        call (the drive calls this every few loops). With ``judge`` False (robot disabled) the
        observations are dropped."""
        observed, self._observed_s = self._observed_s, 0.0
        for index, module in self._indexed:
            away, stuck = self._away_s[index], self._stuck_s[index]
            self._away_s[index] = self._stuck_s[index] = 0.0
            # which way the two encoders turned, over this stretch only
            opposed = self._opposed_s[index] > self._agreed_s[index]
            self._opposed_s[index] = self._agreed_s[index] = 0.0
            if not judge or observed <= 0.0:
                continue
            name = module.name
            verdict = self._angle_timers[index].update_window(away, observed - away)
            if verdict is not None and verdict is not (name in self.runaway):  # a change
                self._judge(
                    name,
                    self.runaway,
                    verdict,
                    self._angle_alerts[index],
                    partial(_runaway_text, name, opposed),
                )
            verdict = self._stall_timers[index].update_window(stuck, observed - stuck)
            if verdict is not None and verdict is not (name in self.stalled):
                self._judge(
                    name,
                    self.stalled,
                    verdict,
                    self._stall_alerts[index],
                    partial(_stall_text, name),
                )

    def _compare_encoders(self, index: int, module: SwerveModule, loop: int, dt: float) -> None:
        """While running away: did the absolute encoder and the angle motor's encoder turn the same
        way since the previous loop (compared only when that loop ran away too)?"""
        absolute, relative = module.raw_absolute_deg, module.raw_angle_deg
        last = self._last_raw[index]
        self._last_raw[index] = (loop, absolute, relative)
        if last is None or last[0] != loop - 1:
            return
        turned_abs = (absolute - last[1] + 180.0) % 360.0 - 180.0
        turned_rel = relative - last[2]
        if abs(turned_abs) < ENCODER_MOVE_DEG or abs(turned_rel) < ENCODER_MOVE_DEG:
            return
        if turned_abs * turned_rel < 0.0:
            self._opposed_s[index] += dt
        else:
            self._agreed_s[index] += dt

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

    @staticmethod
    def _judge(
        name: str, flagged: set[str], verdict: bool, alert: FaultAlert, text: Callable[[], str]
    ) -> None:
        if verdict and name not in flagged:
            flagged.add(name)
            alert.update(text())
        elif not verdict and name in flagged:
            flagged.discard(name)
            alert.update(None)

    @property
    def should_stop(self) -> bool:
        """True when the protective stop is on and a module is running away."""
        return self.protective_stop and bool(self.runaway)


def _runaway_text(name: str, encoders_opposed: bool) -> str:
    text = (
        f"{name} angle is running away from its setpoint: inverted.angle, "
        "absoluteEncoderInverted or the angle conversion (conversionFactors.angle) is wrong"
    )
    if encoders_opposed:
        text += (
            "; its absolute encoder and angle motor encoder turn opposite ways, so one of "
            "the two inversions is wrong"
        )
    return text + "; run `python -m swervelib calibrate` to find which"


def _stall_text(name: str) -> str:
    return (
        f"{name} turns the right way but cannot reach its angle under load: tune the angle PID "
        "rather than invert (grinding on the ground but not on blocks)"
    )
