"""Which vision measurements the pose estimator may have.

A camera pipeline can hand over anything: a pose from a bad tag solve far off the field, NaN from
a division by zero, a timestamp from another clock. One bad measurement fused into WPILib's pose
estimator stays in the pose for good (a NaN never leaves it), so each measurement is checked
first and refused with a reason; the drive counts refusals per reason and shows the latest on an
Alert.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from wpimath.geometry import Pose2d

from swervelib.drive.safety import FieldArea, Refusals, pose_problem
from swervelib.text import shown_number

# WPILib's pose estimators keep 1.5 s of odometry to replay a late measurement against; an older
# one is dropped by WPILib anyway, silently.
MAX_AGE_S = 1.5
# A timestamp this far ahead of the robot's clock is from another clock, not from the future.
MAX_LEAD_S = 0.1


class VisionGate:
    """The checks, and the counts of what they refused (:attr:`refused`, by reason)."""

    def __init__(self) -> None:
        self.accepted = 0
        self.refused: Counter[str] = Counter()
        self._refusals = Refusals("Swerve vision")

    def problem(
        self,
        pose: Pose2d,
        timestamp: float,
        std_devs: Sequence[float] | None,
        now: float,
        field: FieldArea | None,
        start: float,
    ) -> tuple[str, str] | None:
        """``(reason, explanation)`` when the measurement must be refused, else None. ``start``
        is when the pose was last set (a pose reset, or the drive's creation): a frame taken
        before it was seen from a pose in the old frame, which the estimator no longer holds."""
        problem = pose_problem(pose, field)
        if problem is not None:
            return problem
        if not math.isfinite(timestamp):
            return "bad timestamp", f"timestamp {shown_number(timestamp)} is not finite"
        if timestamp > now + MAX_LEAD_S:
            return "timestamp in the future", f"timestamp {timestamp - now:.3f} s in the future"
        if timestamp < now - MAX_AGE_S:
            return "timestamp too old", f"timestamp {now - timestamp:.3f} s old (max {MAX_AGE_S} s)"
        if timestamp < start:
            return "taken before the pose reset", (
                f"timestamp {start - timestamp:.3f} s before the pose was last set"
                " (a pose reset, or the drive's start)"
            )
        if std_devs is not None:
            if len(std_devs) != 3:
                return "bad std devs", f"{len(std_devs)} std devs, expected 3 (x, y, heading)"
            if not all(math.isfinite(s) and s >= 0.0 for s in std_devs):
                shown_devs = ", ".join(shown_number(s) for s in std_devs)
                return "bad std devs", f"std devs ({shown_devs}) must be finite and ≥ 0"
        return None

    def refuse(self, reason: str, why: str) -> None:
        self.refused[reason] += 1
        self._refusals.refuse("add_vision_measurement()", why, "measurement not used")
