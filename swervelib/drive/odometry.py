"""What the pose estimator is told each loop: each module's distance, and the direction it rolled.

WPILib's odometry takes the distance a wheel rolled since the last update as rolled along the
angle the module has *now*. A wheel whose direction changes while it rolls (every wheel of a robot
that turns while it translates: field-relative, its wheels turn against the robot's rotation) did
not roll that way: on average it rolled along the angle it had half-way through the loop. At 50 Hz
the difference is half a loop's turn on every step, always to the same side, and the estimate drifts
sideways by about ``distance × omega × dt / 2``: 4.7 cm over 4.5 m at 1.5 m/s while turning at
1.5 rad/s, with wheels that never slip. So the estimator gets each module's distance with the angle
half-way between the last loop's reading and this one (the readings themselves are left as read:
``DriveState.module_positions``, the telemetry).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from wpimath.geometry import Rotation2d
from wpimath.kinematics import SwerveModulePosition

_from_degrees = Rotation2d.fromDegrees

MAX_ROLLING_TURN_DEG: Final = 90.0
"""A module that turned more than this in one loop did not roll through the turn: its angle jumped
(a fall-back to the angle motor's encoder, a new seed), and its end angle is kept. Steering turns a
module by a few tens of degrees per loop at most."""


def odometry_positions(
    positions: Sequence[SwerveModulePosition],
    distances: Sequence[float],
    angles_deg: Sequence[float],
    turns_deg: Sequence[float],
) -> tuple[SwerveModulePosition, ...]:
    """Each module's distance with its angle turned back by half of ``turns_deg`` (degrees it
    turned since the last reading, shortest way): the direction it rolled in over the loop.
    ``positions``, ``distances`` and ``angles_deg`` are this loop's readings, one per module; a
    module that did not turn (or jumped, see :data:`MAX_ROLLING_TURN_DEG`) keeps its ``position``
    (the same object)."""
    return tuple(
        [
            position
            if turn == 0.0 or not -MAX_ROLLING_TURN_DEG < turn < MAX_ROLLING_TURN_DEG
            else SwerveModulePosition(distance, _from_degrees(angle - 0.5 * turn))
            for position, distance, angle, turn in zip(
                positions, distances, angles_deg, turns_deg, strict=True
            )
        ]
    )
