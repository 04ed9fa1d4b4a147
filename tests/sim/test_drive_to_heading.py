"""SwerveInput.drive_to's heading in the simulated robot, run as a robot runs (periodic() once a
loop, then the command, then time passes). Translating and turning at once without the setpoint
generator, the turn ends shortly before the translation (TURN_ENDS_BEFORE_S), so what the
modules' steering leaves of its last changes turns the robot on for little of the move: it stops
within 0.2° of the heading without turning back, no later than before. The turn rate drive_to
expects of the robot (which its turn's braking counts on, see
swervelib.pose_profile.turn_still_to_come) follows what the robot was commanded in loops without
a usable target too."""

from __future__ import annotations

import math
from typing import Any

import pytest
from wpimath.geometry import Pose2d, Rotation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib import pose_follower
from swervelib.input_stream import SwerveInput
from swervelib.pose_profile import remaining_time, unhurried_rate
from tests.drive.harness import LOOP, simulated
from tests.sim.test_drive_to_pose import (
    entered_then_driven_to,
    fastest,
    overshoot,
    recorded_commands,
)

START = Pose2d(2.0, 4.0, Rotation2d())
# 2 m ahead and 170° round: translating and turning at once (the robot's turn trails its command),
# a turn long enough to go at its full rate
TURNING = Pose2d(4.0, 4.0, Rotation2d.fromDegrees(170.0))
# The target is lost from the 20th loop (turning at about 2.4 rad/s) for 30 loops, long enough for
# the command to brake to rest within the limits (2.4 rad/s at 2π rad/s²: 20 loops).
LOST_FROM, LOST_LOOPS = 20, 30
BACK_SHORT_DEG = 3.0  # the target back: its heading this much round from the robot's

TURNED_PAST_DEG = 0.2
# name: (entry (field m/s, rad/s; None: from rest), the pose from where drive_to takes over (m, m,
# degrees), when it was at the pose before the turn ended shortly before the translation (s), and
# how far past the heading it turned then (degrees, two runs))
MOVES = {
    "turning at 2 rad/s towards 90°, 2 m ahead": (
        ChassisSpeeds(0.0, 0.0, 2.0),
        (2.0, 0.0, 90.0),
        1.68,
        0.565,
    ),
    "from rest, 3 m ahead and 90°": (None, (3.0, 0.0, 90.0), 2.18, 0.53),
    "from rest, 2 m sideways and -120°": (None, (0.0, 2.0, -120.0), 1.70, 0.33),
    "from rest, 2 m back and 45°": (None, (-2.0, 0.0, 45.0), 1.66, 0.555),
}


@pytest.mark.parametrize(
    ("distance", "speed"), [(3.0, 0.0), (3.0, 1.5), (0.5, 0.0), (1.0, -2.0), (0.2, 1.0)]
)
def test_remaining_time_is_the_time_optimal_trapezoid(distance: float, speed: float) -> None:
    """The translation's time to go, which the turn ends shortly before: the trapezoid at the
    limits (and, above its braking curve, the time to brake)."""
    top, acceleration = 2.0, 3.0
    below = speed * speed <= 2.0 * acceleration * distance
    expected = fastest(distance, speed, top, acceleration) if below else speed / acceleration
    assert math.isclose(remaining_time(distance, speed, top, acceleration), expected)


@pytest.mark.parametrize(("remaining", "seconds"), [(math.pi / 2, 1.5), (0.1, 2.0), (2.0, 0.5)])
def test_unhurried_rate_ends_the_turn_in_the_time_given(remaining: float, seconds: float) -> None:
    """At the slowest top rate that ends it in time, a turn from rest (up at the acceleration,
    on at that rate, down at the acceleration) takes just that time; infinite where none does
    (2 rad in 0.5 s at 2π rad/s²) or no time is left."""
    acceleration = 2.0 * math.pi
    rate = unhurried_rate(remaining, seconds, acceleration)
    if acceleration * seconds * seconds < 4.0 * remaining:
        assert rate == math.inf
    else:
        assert math.isclose(remaining / rate + rate / acceleration, seconds)
        assert rate * rate <= acceleration * remaining + 1e-12  # (a trapezoid: it has a cruise)
    assert unhurried_rate(remaining, 0.0, acceleration) == math.inf


@pytest.mark.parametrize("name", list(MOVES))
def test_drive_to_translating_and_turning_stops_on_the_heading(name: str, monkeypatch: Any) -> None:
    """Without the setpoint generator, at drive_to's own 3 m/s² and 2π rad/s², translating and
    turning at once: the robot's modules steer the turn's changes, and the simulated robot's
    steering (P-only, 0.24 V a degree, against 0.3 V of static friction) stops up to about 1.3°
    short of its targets. Ended as soon as it could, the turn's command at rest, what they left
    of its last changes turned the robot on while it went on translating at 2 m/s (0.05 rad/s),
    0.33-0.57° past the heading, and drive_to turned it back once it was out of the tolerance.
    Ended shortly before the translation, at most 0.2° past, never turned back, and at the pose
    no later than before (+1 %)."""
    entry, offset, before, turned_before = MOVES[name]
    with simulated(initial_pose=START) as h:
        drive = h.drive
        to_pose, goal = entered_then_driven_to(h, entry, offset)
        sent = recorded_commands(monkeypatch, drive)
        truths: list[Pose2d] = []
        arrived = None
        for loop in range(round(4.0 / LOOP)):
            h.loop(to_pose.apply)
            h.observe()
            truths.append(h.sim.true_pose)
            if to_pose.at_target and arrived is None:
                arrived = (loop + 1) * LOOP
        passed, turned_past = overshoot(truths, goal)
        way = math.copysign(1.0, offset[2])
        turned_back = max(0.0, *(-way * command[2] for command in sent))
        truth = truths[-1]
        heading_miss = abs((truth.rotation() - goal.rotation()).degrees())
        print(
            f"\n[drive to pose without the generator, {name}] turned {turned_past:.3f}° past the "
            f"heading (before: {turned_before}°), passed the pose by {passed * 100:.2f} cm; turned "
            f"back at up to {turned_back:.3f} rad/s; at the pose after "
            f"{'never' if arrived is None else f'{arrived:.2f}'} s (before: "
            f"{before} s); {heading_miss:.2f}° from the heading at the end"
        )
        assert turned_past <= TURNED_PAST_DEG  # before: 0.33-0.57°
        assert turned_back < 1e-6  # before: 0.126-0.251 rad/s, out of the tolerance
        assert passed < 0.005
        assert to_pose.at_target and arrived is not None
        assert arrived <= 1.01 * before + 1e-9
        assert heading_miss <= math.degrees(to_pose.pose_tolerance[1])


def turn_lags(
    monkeypatch: Any, entry: ChassisSpeeds | None, offset: tuple[float, float, float]
) -> tuple[list[float], list[float], float | None]:
    """Drive to the pose ``offset`` from START (entered at ``entry``, as the moves above) for 3
    s: the steering lag drive_to has measured after each loop, the lags its turn's braking
    counted on while translating (pose_profile.turn_still_to_come's), and when it was at the
    pose (s; None: never)."""
    lags: list[float] = []
    real = pose_follower.turn_still_to_come

    def recording(
        turn_rate: float, expected: float, yaw: float, lag: float, braking: float
    ) -> float:
        lags.append(lag)
        return real(turn_rate, expected, yaw, lag, braking)

    monkeypatch.setattr(pose_follower, "turn_still_to_come", recording)
    measured: list[float] = []
    arrived = None
    with simulated(initial_pose=START) as h:
        to_pose, _ = entered_then_driven_to(h, entry, offset)
        for loop in range(round(3.0 / LOOP)):
            h.loop(to_pose.apply)
            h.observe()
            measured.append(to_pose._running.follower.steering_lag)
            if to_pose.at_target and arrived is None:
                arrived = (loop + 1) * LOOP
    return measured, [lag for lag in lags if lag > 0.0], arrived


def test_a_steering_lag_measured_short_does_not_shorten_the_turns_lag(monkeypatch: Any) -> None:
    """Without the setpoint generator drive_to turns the translation back by the steering's lag,
    so the robot goes straight along the line to the pose: the approach's corrections no longer
    sweep the modules round at the end of the move, and what their steering leaves of the turn's
    last changes turns the robot on further than before (~0.3° after the turn's command is at
    rest; ~0.15° before). At the end of the slow turn from rest with 3 m and 90° to go the
    steering lag measured falls to 29-36 ms, and the turn's braking counted on the turn trailing
    its command by the 50 ms scaled down to 43-48 ms: it turned 0.17-0.22° past the heading
    (0.0° before the turn-back). The turn's braking now counts on at least STEERED_TURN_LAG_S
    (55 ms) throughout (the translation ends after the turn), however short the lag measured."""
    entry, offset, _, _ = MOVES["from rest, 3 m ahead and 90°"]
    measured, translating, arrived = turn_lags(monkeypatch, entry, offset)
    print(
        f"\n[drive to pose without the generator, 3 m and 90°] steering lag measured "
        f"{min(measured) * 1000:.1f}-{max(measured) * 1000:.1f} ms; the turn's braking counted "
        f"on {min(translating) * 1000:.1f}-{max(translating) * 1000:.1f} ms; at the pose after "
        f"{arrived} s"
    )
    assert arrived is not None
    assert min(measured) < pose_follower.STEERING_LAG_S  # (measured short here)
    # STEERED_TURN_LAG_S (before: down to 43-48 ms)
    assert min(translating) >= 0.055 - 1e-12


def test_where_the_turn_ends_last_its_lag_is_the_measured_ones(monkeypatch: Any) -> None:
    """Entered at 1 m/s with 2 m and 170° to go the turn ends after the translation: nothing
    translates after it to turn the robot on, and counting on 55 ms there only braked the turn
    early (at the pose after 1.72-1.74 s; 1.68-1.70 s before the big-turn fix). Its braking
    counts on the 50 ms scaled by the lag measured, below 55 ms where that is under 48 ms."""
    measured, translating, arrived = turn_lags(
        monkeypatch, ChassisSpeeds(1.0, 0.0, 0.0), (2.0, 0.0, 170.0)
    )
    print(
        f"\n[drive to pose without the generator, entered at 1 m/s, 2 m and 170°] steering lag "
        f"measured {min(measured) * 1000:.1f}-{max(measured) * 1000:.1f} ms; the turn's braking "
        f"counted on {min(translating) * 1000:.1f}-{max(translating) * 1000:.1f} ms; at the "
        f"pose after {arrived} s"
    )
    assert arrived is not None
    assert min(translating) < 0.055


def test_drive_to_turns_towards_a_target_back_after_loops_without_one(monkeypatch: Any) -> None:
    """Translating and turning at once, the target lost (NaN) for 30 loops: drive_to brakes the
    robot to rest meanwhile. The target back, 3° round from the robot's heading, its first turn
    command goes towards it. Before, the turn expected of the robot stayed at about the rate it
    had when the target was lost (it was not advanced in loops without one), so the turn's
    braking counted on the robot, at rest, still turning a few degrees on its own: the first
    command turned it away from the heading (-0.126 rad/s), for the next to turn it back."""
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
        heading_miss = abs((h.sim.true_pose.rotation() - back[0].rotation()).degrees())
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
