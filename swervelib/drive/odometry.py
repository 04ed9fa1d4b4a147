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

from wpimath.geometry import Rotation2d
from wpimath.kinematics import SwerveModulePosition

_from_degrees = Rotation2d.fromDegrees


def odometry_positions(
    positions: Sequence[SwerveModulePosition], turns_deg: Sequence[float]
) -> tuple[SwerveModulePosition, ...]:
    """Each module's ``position`` (this loop's reading) with its angle turned back by half of
    ``turns_deg`` (degrees the module turned since the last reading, shortest way): the direction
    it rolled in over the loop. A module that did not turn keeps its reading (the same object)."""
    out: list[SwerveModulePosition] = []
    for index, position in enumerate(positions):
        turn = turns_deg[index]
        if turn == 0.0:
            out.append(position)
        else:
            angle = position.angle.degrees() - 0.5 * turn
            out.append(SwerveModulePosition(position.distance, _from_degrees(angle)))
    return tuple(out)
