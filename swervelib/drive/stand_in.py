"""A stand-in distance for a drive wheel whose reading is not live, so odometry keeps working.

A drive motor that stops answering (CAN unplugged, a dead controller) keeps reporting its last good
position: the pose estimator would integrate a wheel standing still while the robot moves (about a
quarter short with one of four wheels frozen). Its adapter says so
(:meth:`~swervelib.devices.interfaces.SwerveMotor.watch_reading`), and while it does the estimator
gets, for that module, the distance the *other* modules and the gyro say it rolled:

* the chassis translation over the loop, ``(dx, dy)`` in the robot's frame, is solved by least
  squares from the live modules' distance deltas, each the projection of the chassis motion at its
  location on the direction it rolled, with the rotation ``dθ`` the gyro measured (the yaw the
  estimator gets: the IMU's, or the wheels' while the IMU is out);
* the dead module's delta is that motion projected on its own angle at its location:
  ``dx·cos a + dy·sin a + dθ·(x·sin a − y·cos a)``.

The direction the live wheels cannot see (all of them parallel: driving straight) is taken as no
motion (the least-norm solution), which is right for a dead wheel pointing the same way. With two
or more dead drive modules the same holds on the live ones; with none live the pose only turns with
the gyro (no translation can be measured). While the IMU is out as well, the heading's wheel turn
comes from the live modules alone (:meth:`WheelStandIn.turn`), not the frozen wheel, whenever they
determine it (two side by side pointing the same way do); otherwise from all of them, the frozen
one included.

The distance the estimator sees is the reading plus an offset, which the stand-in keeps: while the
reading is frozen the offset grows by each loop's estimate, and the loop the reading comes back
(whatever the wheel rolled meanwhile) it absorbs the jump, so the distance the estimator sees never
jumps. Once live again the module's own reading goes on from there, and the offset goes back to
zero by at most :data:`RETURN_M_PER_LOOP` a loop: the reading holds all the wheel rolled, what
it rolled before the loss was noticed (up to a health check's second for a Spark) included, which
comes back into odometry without a jump. A pose reset (:meth:`WheelStandIn.forget_offsets`)
starts the estimator again from the readings as they are; a module estimated across it keeps the
offset it has when it answers (its catch-up is partly from before the reset). ``DriveState`` and
the telemetry always show the readings as read.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import wpilib
from wpimath.kinematics import SwerveModulePosition

from swervelib.devices.faults import FaultAlert

# A direction of the live wheels' normal matrix with less than this fraction of its trace is one
# they do not see (all parallel, or within about 2°): it gets no motion. Seen through so small a
# share of a wheel's roll, it would take that wheel's every millimetre of error thirty-fold.
_UNSEEN = 1e-3

# Once a module's reading is live again, its offset goes back to zero by at most this much per
# loop (metres): the reading holds all the wheel rolled, before the loss was noticed included.
RETURN_M_PER_LOOP = 0.02


def chassis_motion(
    live: Sequence[tuple[float, float, float, float]], turn_rad: float
) -> tuple[float, float]:
    """The chassis translation ``(dx, dy)`` (metres, robot frame) that best explains the
    ``live`` modules' ``(x, y, angle_rad, rolled_m)`` (location, direction rolled, distance
    rolled) given the rotation ``turn_rad``; least norm in a direction none of them sees, (0, 0)
    when there is none."""
    a11 = a12 = a22 = b1 = b2 = 0.0
    for x, y, angle, rolled in live:
        c, s = math.cos(angle), math.sin(angle)
        along = rolled - turn_rad * (x * s - y * c)  # the translation's share of the roll
        a11 += c * c
        a12 += c * s
        a22 += s * s
        b1 += c * along
        b2 += s * along
    return _pseudo_solve(a11, a12, a22, b1, b2)


def _pseudo_solve(a11: float, a12: float, a22: float, b1: float, b2: float) -> tuple[float, float]:
    """``x`` with ``[[a11, a12], [a12, a22]]·x = (b1, b2)`` for a symmetric matrix ≥ 0, through
    its pseudo-inverse: nothing along an eigenvector with (next to) no weight (:data:`_UNSEEN`)."""
    trace = a11 + a22
    if not trace > 0.0:
        return 0.0, 0.0
    half_gap = math.hypot(0.5 * (a11 - a22), a12)
    phi = 0.5 * math.atan2(2.0 * a12, a11 - a22)  # the larger eigenvalue's eigenvector
    x1 = x2 = 0.0
    for eigenvalue, angle in (
        (0.5 * trace + half_gap, phi),
        (0.5 * trace - half_gap, phi + 0.5 * math.pi),
    ):
        if eigenvalue > _UNSEEN * trace:
            c, s = math.cos(angle), math.sin(angle)
            share = (c * b1 + s * b2) / eigenvalue
            x1 += share * c
            x2 += share * s
    return x1, x2


def live_turn(live: Sequence[tuple[float, float, float, float]]) -> float | None:
    """The chassis rotation (radians) that, with some translation, best explains the ``live``
    modules' ``(x, y, angle_rad, rolled_m)`` (least squares): the wheels' turn without the dead
    ones, for a heading the IMU cannot give. None when they cannot tell it apart from a
    translation (fewer than two live modules, or two pointing different ways)."""
    # the normal equations N·(dx, dy, dθ) = b, translation first
    t00 = t01 = t11 = r0 = r1 = r2 = b0 = b1 = b2 = 0.0
    for x, y, angle, rolled in live:
        c, s = math.cos(angle), math.sin(angle)
        lever = x * s - y * c
        t00 += c * c
        t01 += c * s
        t11 += s * s
        r0 += c * lever
        r1 += s * lever
        r2 += lever * lever
        b0 += c * rolled
        b1 += s * rolled
        b2 += lever * rolled
    # the rotation's column beyond what a translation explains (its Schur complement), with the
    # translation's pseudo-inverse: one the wheels do not see (all parallel) is taken as none
    u0, u1 = _pseudo_solve(t00, t01, t11, r0, r1)
    beyond = r2 - (r0 * u0 + r1 * u1)
    if not beyond > _UNSEEN * r2:
        return None
    w0, w1 = _pseudo_solve(t00, t01, t11, b0, b1)
    return (b2 - (r0 * w0 + r1 * w1)) / beyond


def wheel_roll(
    motion: tuple[float, float], turn_rad: float, x: float, y: float, angle_rad: float
) -> float:
    """How far a wheel at ``(x, y)`` pointing ``angle_rad`` rolls when the chassis moves by
    ``motion`` (metres, robot frame) and turns by ``turn_rad``."""
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    return motion[0] * c + motion[1] * s + turn_rad * (x * s - y * c)


class WheelStandIn:
    """Which modules' drive readings are not live, and the offsets of the distances the estimator
    sees. ``on_active(True)`` is called when the drive must adjust its positions (a module is
    estimated or keeps an offset), ``on_active(False)`` when it no longer must."""

    def __init__(
        self,
        names: Sequence[str],
        locations: Sequence[tuple[float, float]],
        on_active: Callable[[bool], None],
    ) -> None:
        self.names = tuple(names)
        self.locations = tuple(locations)
        self.offsets = [0.0] * len(self.names)
        # The offset each module's distance settles to once its reading is live again: 0 (its
        # reading holds all the wheel rolled), or, for a module estimated across a pose reset
        # (``_kept``), the offset it has then (its catch-up is partly from before the reset)
        self.settle_to = [0.0] * len(self.names)
        self._kept: set[int] = set()
        self.estimated: set[int] = set()  # modules whose wheel is estimated
        # Modules found live again since the last loop: stood in for one loop more, since the
        # reading this loop may still be the frozen one, and the jump come a loop later (a
        # fault read may be answered before the next position frame comes in): either way the
        # loop's change is taken up by the offset, never put into the pose.
        self._returning: set[int] = set()
        self._on_active = on_active
        self._active = False
        self.alert = FaultAlert("Swerve odometry", wpilib.Alert.AlertType.kWarning)

    def watcher(self, index: int) -> Callable[[bool], None]:
        """The callback for module ``index``'s drive motor (see ``watch_reading``)."""

        def changed(live: bool) -> None:
            if live:
                if index in self.estimated:
                    self.estimated.discard(index)
                    self._returning.add(index)
                if index in self._kept:  # estimated across a pose reset: its offset stays
                    self._kept.discard(index)
                    self.settle_to[index] = self.offsets[index]
            else:
                self.estimated.add(index)
            self._update()

        return changed

    def _update(self) -> None:
        dead = sorted(self.estimated)
        if not dead:
            text = None
        else:
            names = ", ".join(self.names[i] for i in dead)
            if len(dead) == len(self.names):
                text = f"drive reading not live on {names} (every module): the pose only turns"
            else:
                text = (
                    f"drive reading not live on {names}: "
                    "wheel distance estimated from the other modules and the gyro"
                )
        self.alert.update(text)
        active = bool(dead) or bool(self._returning) or any(self.offsets)
        if active != self._active:
            self._active = active
            self._on_active(active)

    def turn(
        self, before: Sequence[float], now: Sequence[float], angles_deg: Sequence[float]
    ) -> float | None:
        """How far the live modules say the robot turned (radians) from their readings
        ``before`` and ``now`` (metres) and ``angles_deg``: the wheels' turn while the IMU is
        out, without a frozen wheel's; None when the live ones cannot tell (see
        :func:`live_turn`)."""
        estimated = self.estimated
        return live_turn(
            self._live_rolls([math.radians(a) for a in angles_deg], before, now, estimated)
        )

    def _live_rolls(
        self,
        angles_rad: Sequence[float],
        before: Sequence[float],
        now: Sequence[float],
        estimated: set[int],
    ) -> list[tuple[float, float, float, float]]:
        """Each module not in ``estimated`` as ``(x, y, angle_rad, rolled_m)``: its location,
        direction and the distance its reading rolled since the last loop."""
        return [
            (*self.locations[i], angles_rad[i], now[i] - before[i])
            for i in range(len(now))
            if i not in estimated
        ]

    def forget_offsets(self) -> None:
        """The estimator starts again from the readings (a pose reset): no offsets from here. A
        module still estimated will catch up, once live, on what it rolled before the reset too:
        its offset then stays as it is (what it rolled since is what was estimated)."""
        self.settle_to = [0.0] * len(self.names)
        self._kept = set(self.estimated)
        self.offsets = [0.0] * len(self.names)
        self._update()

    def adjust(
        self,
        positions: Sequence[SwerveModulePosition],
        before: Sequence[float],
        now: Sequence[float],
        turn_rad: float,
    ) -> tuple[SwerveModulePosition, ...]:
        """The ``positions`` for the estimator (each module's reading, with the direction it
        rolled), with the estimated modules' distances replaced and every offset added.
        ``before`` and ``now``: each module's reading last loop and this loop (metres);
        ``turn_rad``: the rotation the estimator gets for this loop."""
        estimated = self.estimated
        offsets = self.offsets
        returning = self._returning
        if returning:  # (see __init__: one loop more)
            estimated = estimated | returning
            returning.clear()
            settled = True  # (nothing may be left to adjust after this loop)
        else:
            settled = False
        if estimated:
            angles = [p.angle.radians() for p in positions]
            motion = chassis_motion(self._live_rolls(angles, before, now, estimated), turn_rad)
            for i in estimated:
                roll = wheel_roll(motion, turn_rad, *self.locations[i], angles[i])
                offsets[i] += roll - (now[i] - before[i])  # the reading's own change is not used
        settle_to = self.settle_to
        for i, offset in enumerate(offsets):
            gap = offset - settle_to[i]
            if gap and i not in estimated:  # live again: back to its own reading, gently
                if -RETURN_M_PER_LOOP <= gap <= RETURN_M_PER_LOOP:
                    offsets[i] = settle_to[i]
                    settled = True
                else:
                    offsets[i] = offset - math.copysign(RETURN_M_PER_LOOP, gap)
        adjusted = tuple(
            [
                SwerveModulePosition(p.distance + offset, p.angle) if offset else p
                for p, offset in zip(positions, offsets, strict=True)
            ]
        )
        if settled:  # an offset settled (to zero, mostly): maybe nothing is left to adjust
            self._update()
        return adjusted
