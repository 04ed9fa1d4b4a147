"""The pose at a past time: which timestamps the drive's pose history can answer for.

WPILib's pose estimator keeps each loop's pose for 1.5 s (with the vision corrections made since)
and its ``sampleAt`` interpolates between them; a pose reset empties that history. Asked for a time
it does not hold, ``sampleAt`` still answers: with its oldest pose for an older time (a pose reset
since: a pose in the new frame for a time before the reset), with its newest for a later one, and
with its oldest for NaN. So :meth:`~swervelib.drive.swerve_drive.SwerveDrive.sample_pose_at` asks it
only for a time that :func:`holds` says the history covers, and answers None otherwise.
"""

from __future__ import annotations

import math
from numbers import Real

from swervelib.drive.vision import MAX_AGE_S, MAX_LEAD_S


def holds(timestamp: object, *, start: float, newest: float, now: float) -> bool:
    """Whether the pose history answers for ``timestamp`` (FPGA seconds): a finite real number,
    not before ``start`` (the last pose reset, or the drive's creation), not more than
    :data:`~swervelib.drive.vision.MAX_AGE_S` before ``newest`` (the latest pose it holds), and
    not more than :data:`~swervelib.drive.vision.MAX_LEAD_S` after ``now`` (the robot's clock):
    the timestamps ``add_vision_measurement`` takes. A time after ``newest`` and up to that lead
    is answered with the newest pose."""
    if not isinstance(timestamp, Real):
        return False
    try:
        value = float(timestamp)
    except (OverflowError, ValueError):  # an int beyond any float (10**400)
        return False
    return (
        math.isfinite(value)
        and value >= start
        and value >= newest - MAX_AGE_S
        and value <= now + MAX_LEAD_S
    )
