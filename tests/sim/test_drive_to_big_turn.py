"""SwerveInput.drive_to to a near pose with a large turn, without the setpoint generator, in the
simulated all-REV robot, run as a robot runs (periodic() once a loop, then the command, then time
passes). Where the turn makes most of the modules' velocity, the translation's direction and its
changes are steered rather than driven, and steering lags its targets: the robot's velocity was
turned off the line to the pose (7° at 3 rad/s) and trailed a braking command (0.1 m/s faster
than it at 3 m/s²), and the robot passed the pose by 4.8 cm from rest 1 m away with 170° to turn,
10.3 cm entered at 1 m/s. drive_to now commands the translation turned back by the steering's
lag, feeds the frame's turn forward, and brakes the translation from where the robot will have
gone (swervelib.pose_profile.steered_fraction, translation_still_to_come)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from wpimath.kinematics import ChassisSpeeds

from swervelib.pose_profile import steered_fraction, translation_still_to_come
from tests.drive.harness import simulated
from tests.sim.test_drive_to_pose import START, under_the_generator

# Four modules at the corners of a 0.6 m square (m from the centre), for the pure functions
CORNERS = [(0.3, 0.3), (0.3, -0.3), (-0.3, 0.3), (-0.3, -0.3)]

PASSED_M = 0.01  # reached: at most 0.86 cm over the mapped moves (before: up to 10.3 cm)
TURNED_PAST_DEG = 0.2  # as tests/sim/test_drive_to_heading.py holds drive_to without the generator
ENTRY = ChassisSpeeds(1.0, 0.0, 0.0)  # towards the pose, driven for GENERATOR_ENTRY_S first
# name: (entered at ENTRY, the pose from where drive_to takes over (m, m, degrees), how far it
# passed the pose before (cm), and when it was at the pose before (s))
MOVES = {
    "from rest, 1 m and 170°": (False, (1.0, 0.0, 170.0), 4.77, 1.70),
    "from rest, 0.5 m and 180°": (False, (0.5, 0.0, 180.0), 7.24, 1.74),
    "from rest, 0.5 m and 120°": (False, (0.5, 0.0, 120.0), 6.12, 1.42),
    "entered at 1 m/s, 1 m and 170°": (True, (1.0, 0.0, 170.0), 10.26, 1.70),
    "entered at 1 m/s, 1 m and 180°": (True, (1.0, 0.0, 180.0), 10.32, 1.76),
    "entered at 1 m/s, 0.5 m and 150°": (True, (0.5, 0.0, 150.0), 6.49, 1.56),
}


def test_steered_fraction_is_none_without_a_turn_and_half_when_the_turn_dominates() -> None:
    """Without a turn every module rolls along the velocity: none of a change of it is steered.
    Where the turn makes most of the modules' speed, four corner modules steer half of it; where
    the translation does, little; at rest, none. Either way round the same."""
    assert steered_fraction((2.0, 0.0), 0.0, CORNERS) == 0.0
    assert steered_fraction((0.0, 0.0), 3.0, CORNERS) == 0.0
    dominated = steered_fraction((0.01, 0.0), 3.0, CORNERS)
    assert math.isclose(dominated, 0.5, abs_tol=1e-3)
    translating = steered_fraction((3.0, 0.0), 1.0, CORNERS)
    assert 0.0 < translating < 0.05
    assert math.isclose(translating, steered_fraction((3.0, 0.0), -1.0, CORNERS))


def test_translation_still_to_come_is_the_lag_times_the_speed_towards_the_goal() -> None:
    """A first-order lag goes on beyond its command by the lag times its velocity; nothing going
    away from the goal."""
    assert math.isclose(translation_still_to_come(1.5, 0.06), 0.09)
    assert translation_still_to_come(-1.0, 0.06) == 0.0


@pytest.mark.parametrize("name", list(MOVES))
def test_drive_to_a_near_pose_with_a_large_turn_does_not_pass_it(
    name: str, monkeypatch: Any
) -> None:
    """Without the setpoint generator, at drive_to's own 3 m/s² and 2π rad/s²: from rest or
    entered at 1 m/s towards it, a pose 0.5-1 m away with 120-180° to turn. Before, the robot
    passed it by 4.8-10.3 cm (the steering's lag turned the robot's velocity off the line to the
    pose and held it above its braking curve) and came back; now by less than 1 cm, with the
    heading turned past by at most 0.2°, each command within the limits, and no later than
    before (+2 %)."""
    entered, offset, passed_before, before = MOVES[name]
    with simulated(initial_pose=START) as h:
        entry = ENTRY if entered else None
        to_pose, run = under_the_generator(h, monkeypatch, entry, offset, 4.0, generator=False)
        print(
            f"\n[drive to pose without the generator, {name}] {run} (before: passed by "
            f"{passed_before} cm, at the pose after {before} s)"
        )
        assert run.passed < PASSED_M  # before: 4.8-10.3 cm
        assert run.turned_past <= TURNED_PAST_DEG
        assert run.at_target and run.arrived is not None
        assert run.arrived <= 1.02 * before + 1e-9
        assert run.miss < 0.02 and run.heading_miss < 1.0
        # (float rounding only)
        assert run.linear_step <= to_pose.pose_max_acceleration + 1e-6
        assert run.turn_step <= to_pose.pose_max_turn_acceleration + 1e-6
