"""SwerveInput.drive_to's heading in the simulated robot, run as a robot runs (periodic() once a
loop, then the command, then time passes): the turn rate it expects of the robot (which its
turn's braking counts on, see swervelib.pose_profile.turn_still_to_come) follows what the robot
was commanded in loops without a usable target too."""

from __future__ import annotations

import math
from typing import Any

from wpimath.geometry import Pose2d, Rotation2d

from swervelib.input_stream import SwerveInput
from tests.drive.harness import LOOP, simulated
from tests.sim.test_drive_to_pose import recorded_commands

START = Pose2d(2.0, 4.0, Rotation2d())
# 2 m ahead and 90° round: translating and turning at once (the robot's turn trails its command)
TURNING = Pose2d(4.0, 4.0, Rotation2d.fromDegrees(90.0))
# The target is lost from the 20th loop (turning at about 2.4 rad/s) for 30 loops, long enough for
# the command to brake to rest within the limits (2.4 rad/s at 2π rad/s²: 20 loops).
LOST_FROM, LOST_LOOPS = 20, 30
BACK_SHORT_DEG = 3.0  # the target back: its heading this much round from the robot's


def test_drive_to_turns_towards_a_target_back_after_loops_without_one(monkeypatch: Any) -> None:
    """Translating and turning at once, the target lost (NaN) for 30 loops: drive_to brakes the
    robot to rest meanwhile. The target back, 3° round from the robot's heading, its first turn
    command goes towards it. Before, the turn expected of the robot stayed at the 2.07 rad/s it
    had when the target was lost (it was not advanced in loops without one), so the turn's
    braking counted on the robot, at rest, still turning 3.6° on its own: the first command
    turned it away from the heading (-0.126 rad/s), for the next to turn it back."""
    with simulated(initial_pose=START) as h:
        drive = h.drive
        loops = [0]
        back: list[Pose2d] = []

        def target() -> Pose2d:
            loops[0] += 1
            if LOST_FROM <= loops[0] < LOST_FROM + LOST_LOOPS:
                return Pose2d(math.nan, math.nan, Rotation2d())
            if loops[0] < LOST_FROM:
                return TURNING
            if not back:  # (where the robot is when the target comes back)
                heading = drive.get_pose().rotation()
                back.append(
                    Pose2d(TURNING.translation(), heading + Rotation2d.fromDegrees(BACK_SHORT_DEG))
                )
            return back[0]

        to_pose = SwerveInput.of(lambda: 0.0, lambda: 0.0).drive_to(target)
        sent = recorded_commands(monkeypatch, drive)
        for _ in range(round(3.0 / LOOP)):
            h.loop(to_pose.apply)
            h.observe()
        returned = LOST_FROM + LOST_LOOPS - 1  # (the command of the loop it came back in)
        lost_turn = sent[LOST_FROM - 2][2]
        heading_miss = abs((drive.get_pose().rotation() - back[0].rotation()).degrees())
        print(
            f"\n[drive to pose, target lost while turning at {lost_turn:.2f} rad/s] at rest when it "
            f"came back: {sent[returned - 1] == (0.0, 0.0, 0.0)}; turn commands after: "
            f"{', '.join(f'{s[2]:+.3f}' for s in sent[returned : returned + 4])} rad/s; at the "
            f"end {heading_miss:.2f}° from its heading"
        )
        assert lost_turn > 2.0  # (turning fast when the target was lost)
        assert sent[returned - 1] == (0.0, 0.0, 0.0)  # braked to rest meanwhile
        # towards the heading 3° anticlockwise (before: -0.126 rad/s, away from it)
        assert sent[returned][2] > 0.0
        assert to_pose.at_target
        assert heading_miss <= math.degrees(to_pose.pose_tolerance[1])
