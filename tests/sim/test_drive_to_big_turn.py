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
from pathlib import Path
from typing import Any

import pytest
from wpimath.kinematics import ChassisSpeeds

from swervelib.input_stream import SwerveInput
from swervelib.pose_profile import (
    steered_fraction,
    steering_lag_samples,
    translation_still_to_come,
)
from tests.drive.harness import REV_NAVX, simulated
from tests.sim import KRAKEN, SWERVE, example_robots
from tests.sim.test_drive_to_pose import START, Run, under_the_generator

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


def assert_held(run: Run, to_pose: SwerveInput, passed_m: float, before: float) -> None:
    """What each big-turn move is held to: past the pose by less than ``passed_m``, past the
    heading by at most TURNED_PAST_DEG, at the pose no more than 2 % later than ``before`` (s),
    within the tolerances at the end, and never stepping the command beyond its limits."""
    assert run.passed < passed_m
    assert run.turned_past <= TURNED_PAST_DEG
    assert run.at_target and run.arrived is not None
    assert run.arrived <= 1.02 * before + 1e-9
    assert run.miss < 0.02 and run.heading_miss < 1.0
    # (float rounding only)
    assert run.linear_step <= to_pose.pose_max_acceleration + 1e-6
    assert run.turn_step <= to_pose.pose_max_turn_acceleration + 1e-6


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
        assert_held(run, to_pose, PASSED_M, before)  # passed before: 4.8-10.3 cm


def test_steering_lag_samples_are_the_angle_short_of_the_target_over_its_rate() -> None:
    """A module 4° short of a target turning at 100°/s trails it by 40 ms; whichever way round
    (reversed targets, targets turning the other way) the same. A module too slow, a target
    turning too slowly, one the module is ahead of, or one that jumped gives nothing."""
    before = [(1.0, 10.0), (1.0, 10.0), (-1.0, 190.0), (1.0, 10.0)]
    targets = [(1.0, 12.0), (1.0, 8.0), (-1.0, 192.0), (1.0, 12.0)]
    angles = [8.0, 12.0, 8.0, 13.0]  # (the third module's 188° target, reversed)
    samples = steering_lag_samples(before, targets, angles, 0.02, 0.2, 0.5)
    assert [round(s, 6) for s in samples] == [0.04, 0.04, 0.04]
    assert steering_lag_samples(before, targets, angles, 0.02, 2.0, 0.5) == []  # too slow
    assert steering_lag_samples(before, targets, angles, 0.02, 0.2, 2.0) == []  # 1.7 rad/s
    jumped = steering_lag_samples([(1.0, 10.0)], [(1.0, 12.0)], [-50.0], 0.02, 0.2, 0.5)
    assert jumped == []  # (62° short at 100°/s: 0.62 s)
    assert steering_lag_samples(before, targets, angles, 0.0, 0.2, 0.5) == []


@pytest.fixture(scope="module")
def robots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The other example configurations (see tests.sim.example_robots)."""
    return example_robots(tmp_path_factory.mktemp("big_turn"))


# How far drive_to may pass the pose on each robot: the Kraken robot passes it by 1.0-1.5 cm
# with no turn at all (1-3 m, from rest and entered at 1 m/s: its translation's own, not its
# steering's; the Spark MAX robot 0.4-1.1 cm, the all-REV robot none), and the turning moves
# below by 0.6-1.1 cm: no further than those.
PASSED_ON = {SWERVE: PASSED_M, KRAKEN: 0.015}
# On these the steering trails its targets by 72 ms (the all-REV robot's 41 ms): with the
# all-REV robot's lags the robot passed these poses by 0.4-5.7 cm (before those: 2.5-10.6 cm),
# and on the Kraken robot turned 0.7° past the heading 2 m away. name: (configuration, entered
# at ENTRY, the pose from where drive_to takes over (m, m, degrees), how far it passed the pose
# with the all-REV robot's lags (cm), and when it was at the pose before any (s))
OTHER_ROBOTS = {
    "Spark MAX, from rest, 1 m and 170°": (SWERVE, False, (1.0, 0.0, 170.0), 2.91, 1.78),
    "Spark MAX, from rest, 2 m and 170°": (SWERVE, False, (2.0, 0.0, 170.0), 0.37, 1.72),
    "Kraken, from rest, 1 m and 170°": (KRAKEN, False, (1.0, 0.0, 170.0), 5.65, 1.88),
    "Kraken, from rest, 2 m and 150°": (KRAKEN, False, (2.0, 0.0, 150.0), 5.68, 2.24),
    "Kraken, from rest, 0.5 m and 170°": (KRAKEN, False, (0.5, 0.0, 170.0), 3.57, 1.80),
}


@pytest.mark.parametrize("name", list(OTHER_ROBOTS))
def test_the_steering_lag_is_the_robots_own(
    name: str, robots: dict[str, Path], monkeypatch: Any
) -> None:
    """The steering's lag is measured on the robot while drive_to drives it (each rolling
    module's angle short of its target over the rate its target turns at), not taken from one
    simulated robot: on the Spark MAX and Kraken robots, whose steering trails by 72 ms, the
    all-REV robot's 40 ms passed these poses by 0.4-5.7 cm (up to 0.7° past the heading); now
    by less than 1 cm (the Kraken robot: no further than it passes with no turn, 1.5 cm), the
    heading not passed by more than 0.2°, and no later than before any of it (+2 %). (The turn's lag, TRANSLATING_TURN_LAG_S, goes with the square root of the lag:
    in proportion, the Spark MAX robot 2 m away arrived 15 % later; not scaled, it turned 0.59°
    past the heading.)"""
    robot, entered, offset, passed_with_one_lag, before = OTHER_ROBOTS[name]
    with simulated(robots[robot], initial_pose=START) as h:
        entry = ENTRY if entered else None
        to_pose, run = under_the_generator(h, monkeypatch, entry, offset, 4.0, generator=False)
        print(
            f"\n[drive to pose without the generator, {name}] {run} (with the all-REV robot's "
            f"lags: passed by {passed_with_one_lag} cm; at the pose before after {before} s)"
        )
        assert_held(run, to_pose, PASSED_ON[robot], before)


# name: (entered at ENTRY, the pose (m, m, degrees), how far it passed the pose compensated twice
# (cm), and when it was at the pose before (s))
SKEW_MOVES = {
    "from rest, 1 m and 170°": (False, (1.0, 0.0, 170.0), 8.20, 1.72),
    "entered at 1 m/s, 1 m and 120°": (True, (1.0, 0.0, 120.0), 5.45, 1.40),
    "entered at 1 m/s, 2 m and 180°": (True, (2.0, 0.0, 180.0), 4.12, 1.80),
}


@pytest.mark.parametrize("name", list(SKEW_MOVES))
def test_with_the_drives_skew_compensation_the_translation_is_turned_back_once(
    name: str, monkeypatch: Any
) -> None:
    """With the drive's own angular-velocity (skew) compensation on (0.1 s, YAGSL's suggested
    start), which turns the request back by the measured yaw rate times its coefficient,
    drive_to turned it back by its own lag too: twice, and the robot passed these poses by
    4.1-8.2 cm (without drive_to's: 4.0-8.7 cm) and arrived up to 6.7 % later. Now drive_to turns it back by what the drive's
    leaves of the lag measured, and feeds forward in the frame the drive turns the request into:
    less than 1 cm, the heading not passed by more than 0.2°, no later than before (+2 %)."""
    entered, offset, passed_twice, before = SKEW_MOVES[name]
    with simulated(REV_NAVX, initial_pose=START) as h:
        h.drive.set_angular_velocity_compensation(True, True, 0.1)
        entry = ENTRY if entered else None
        to_pose, run = under_the_generator(h, monkeypatch, entry, offset, 4.0, generator=False)
        print(
            f"\n[drive to pose with skew compensation 0.1 s, {name}] {run} (compensated twice: "
            f"passed by {passed_twice} cm; at the pose before after {before} s)"
        )
        assert_held(run, to_pose, PASSED_M, before)
