"""Swerve kinematics in plain floats, for the per-loop paths.

The same arithmetic as WPILib's ``ChassisSpeeds.discretize``, ``SwerveDriveKinematics``'s
``toSwerveModuleStates``, ``desaturateWheelSpeeds`` and ``toChassisSpeeds`` (property-tested
against them), without building a ``ChassisSpeeds``, a ``SwerveModuleState`` and two ``Rotation2d``
objects per module per loop. Speeds are m/s and rad/s; module angles are degrees, as the modules
take them. No wpilib import.

One difference is on purpose: for a module whose velocity is 1e-6 m/s or less (every module, for a
request of exactly zero), WPILib's kinematics answers with that module's heading from an earlier
request, which it keeps in the kinematics object. Here the angle is ``None`` and the caller decides:
the drive keeps the module's own angle set-point, the same wheel direction.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from swervelib.angles import DEGREES_PER_RADIAN, RADIANS_PER_DEGREE

_hypot = math.hypot
_atan2 = math.atan2
_cos = math.cos
_sin = math.sin
# WPILib keeps a module's previous heading for a velocity this small (m/s): no direction to tell.
TINY_SPEED = 1e-6
# (speed m/s, angle degrees or None) per module
Targets = list[tuple[float, float | None]]


def discretize(vx: float, vy: float, omega: float, dt: float) -> tuple[float, float, float]:
    """The constant robot-frame speeds that, held for ``dt``, end where translating at (vx, vy)
    while turning at ``omega`` would (WPILib's ``ChassisSpeeds.discretize``: the twist of the
    pose ``(vx·dt, vy·dt, omega·dt)``, over ``dt``)."""
    turn = omega * dt
    cos_turn = _cos(turn)
    sin_turn = _sin(turn)
    dtheta = _atan2(sin_turn, cos_turn)  # a Rotation2d's radians: wrapped to [-π, π]
    half = dtheta / 2.0
    cos_minus_one = cos_turn - 1.0
    if abs(cos_minus_one) < 1e-9:
        by_tan = 1.0 - dtheta * dtheta / 12.0
    else:
        by_tan = -(half * sin_turn) / cos_minus_one
    # translation rotated by the unit vector along (by_tan, -half), times that vector's length
    x, y = vx * dt, vy * dt
    length = _hypot(by_tan, half)  # about 1: by_tan is 1 - dtheta²/12 + ...
    c, s = by_tan / length, -half / length
    return (
        (x * c - y * s) * length / dt,
        (x * s + y * c) * length / dt,
        dtheta / dt,
    )


class WheelKinematics:
    """Each module's velocity vector for a chassis speed, and back, from the modules' locations
    (metres, robot frame)."""

    # The per-loop methods index their per-module inputs rather than zip(..., strict=True): that
    # keyword costs a dict and an argument parse every call. Inputs have one entry per module.
    __slots__ = ("_forward", "_points")

    def __init__(self, locations: Sequence[tuple[float, float]]) -> None:
        self._points = tuple((float(x), float(y)) for x, y in locations)
        self._forward = _forward_rows([x for x, _ in self._points], [y for _, y in self._points])

    def chassis_speeds(
        self,
        speeds: Sequence[float],
        angles_deg: Sequence[float],
        flat: list[float] | None = None,
    ) -> tuple[float, float, float]:
        """The robot-frame (vx, vy, omega) that best fits the modules' velocities (least squares,
        as WPILib's ``toChassisSpeeds``); ``angles_deg`` in degrees. Given ``flat``, each module's
        speed and angle in radians are appended to it in turn on the way (the numbers of a
        ``SwerveModuleState[]`` struct, for telemetry, without a second pass)."""
        vx = vy = omega = 0.0
        for i, (ax, bx, ay, by, aw, bw) in enumerate(self._forward):
            speed = speeds[i]
            radians = angles_deg[i] * RADIANS_PER_DEGREE
            if flat is not None:
                flat += (speed, radians)
            x = speed * _cos(radians)
            y = speed * _sin(radians)
            vx += ax * x + bx * y
            vy += ay * x + by * y
            omega += aw * x + bw * y
        return vx, vy, omega

    def rotation(self, speeds: Sequence[float], angles_deg: Sequence[float]) -> float:
        """Only the omega of :meth:`chassis_speeds` (rad/s, or radians for distances)."""
        omega = 0.0
        for i, row in enumerate(self._forward):
            radians = angles_deg[i] * RADIANS_PER_DEGREE
            omega += speeds[i] * (row[4] * _cos(radians) + row[5] * _sin(radians))
        return omega

    def module_targets(
        self, vx: float, vy: float, omega: float, top: float, cx: float = 0.0, cy: float = 0.0
    ) -> Targets:
        """(speed m/s, angle degrees) per module for robot-frame speeds about (cx, cy), every
        speed scaled alike so none exceeds ``top`` (WPILib's ``toSwerveModuleStates`` then
        ``desaturateWheelSpeeds``). The angle is ``None`` where the speed is :data:`TINY_SPEED` or
        less (the module keeps its angle)."""
        if vx == 0.0 and vy == 0.0 and omega == 0.0:
            return [(0.0, None)] * len(self._points)
        out: Targets = []
        fastest = 0.0
        for x, y in self._points:
            mx = vx - omega * (y - cy)
            my = vy + omega * (x - cx)
            speed = _hypot(mx, my)
            if speed > fastest:
                fastest = speed
            out.append((speed, _atan2(my, mx) * DEGREES_PER_RADIAN if speed > TINY_SPEED else None))
        if fastest > top:  # (a plain loop: a comprehension here would put two locals in cells)
            for i, (speed, angle) in enumerate(out):
                out[i] = (speed / fastest * top, angle)
        return out


def _forward_rows(
    xs: Sequence[float], ys: Sequence[float]
) -> tuple[tuple[float, float, float, float, float, float], ...]:
    """Per module, the weights of its (x, y) velocity in (vx, vy, omega): the pseudo-inverse
    (AᵀA)⁻¹Aᵀ of the inverse kinematics A, whose rows are [1, 0, -y] and [0, 1, x]."""
    n = float(len(xs))
    sx, sy = sum(xs), sum(ys)
    sr = sum(x * x + y * y for x, y in zip(xs, ys, strict=True))
    # AᵀA = [[n, 0, -sy], [0, n, sx], [-sy, sx, sr]] (symmetric); its inverse by cofactors
    c00 = n * sr - sx * sx
    c01 = -sx * sy
    c02 = n * sy
    c11 = n * sr - sy * sy
    c12 = -n * sx
    c22 = n * n
    det = n * c00 + (-sy) * c02
    if det == 0.0:  # all modules at one point (the configuration check refuses that)
        raise ValueError("module locations do not determine a rotation")
    inv = [[c00, c01, c02], [c01, c11, c12], [c02, c12, c22]]
    rows = []
    for x, y in zip(xs, ys, strict=True):
        # the columns of Aᵀ for this module: (1, 0, -y) for x, (0, 1, x) for y
        rows.append(
            (
                (inv[0][0] - inv[0][2] * y) / det,
                (inv[0][1] + inv[0][2] * x) / det,
                (inv[1][0] - inv[1][2] * y) / det,
                (inv[1][1] + inv[1][2] * x) / det,
                (inv[2][0] - inv[2][2] * y) / det,
                (inv[2][1] + inv[2][2] * x) / det,
            )
        )
    return tuple(rows)
