"""swervelib.choreo: a Choreo trajectory followed sample by sample ends at its end in the simulated
truth, and tracks better with the samples' accelerations as feedforwards; as a command it is
flipped for the red alliance, starts from a pose reset and ends stopped."""

from __future__ import annotations

import math

import pytest
from choreo.trajectory import SwerveSample, SwerveTrajectory

from swervelib import SwerveDrive
from swervelib.choreo import ChoreoFollower, follow_command
from tests.drive.harness import LOOP, simulated
from tests.sim.scheduled import run, subsystem_for

START = (1.5, 2.0, 0.0)
MOVE = (3.5, 2.0, math.pi / 2)  # metres, metres, radians
DURATION = 2.8


def trajectory() -> SwerveTrajectory:
    """A minimum-jerk move from START by MOVE in DURATION s, sampled every 20 ms."""
    samples = []
    steps = round(DURATION / LOOP)
    for step in range(steps + 1):
        t = step * LOOP
        u = t / DURATION
        s = 10 * u**3 - 15 * u**4 + 6 * u**5  # position along the move, 0..1
        ds = (30 * u**2 - 60 * u**3 + 30 * u**4) / DURATION
        dds = (60 * u - 180 * u**2 + 120 * u**3) / DURATION**2
        x, y, heading = (start + move * s for start, move in zip(START, MOVE, strict=True))
        vx, vy, omega = (move * ds for move in MOVE)
        ax, ay, alpha = (move * dds for move in MOVE)
        samples.append(
            SwerveSample(t, x, y, heading, vx, vy, omega, ax, ay, alpha, [0.0] * 4, [0.0] * 4)
        )
    return SwerveTrajectory("minimum jerk", samples, [], [])


def follow(feedforwards: bool) -> tuple[float, float, float, float]:
    """The largest and mean truth-to-sample distance (m) on the way, and the end's distance (m)
    and heading error (deg)."""
    path = trajectory()
    with simulated() as h:
        drive: SwerveDrive = h.drive
        follower = ChoreoFollower(drive, feedforwards=feedforwards)
        drive.reset_pose(path.get_initial_pose())
        elapsed, errors = [0.0], []

        def step(_: SwerveDrive) -> None:
            sample = path.sample_at(elapsed[0])
            assert sample is not None
            truth = h.sim.true_pose
            errors.append(math.hypot(truth.X() - sample.x, truth.Y() - sample.y))
            follower(sample)
            elapsed[0] += LOOP

        h.run(path.get_total_time() + 0.5, step)
        end = path.get_final_pose()
        assert end is not None
        heading = abs((h.sim.true_pose.rotation() - end.rotation()).degrees())
        distance = h.sim.true_pose.translation().distance(end.translation())
    return max(errors), sum(errors) / len(errors), distance, heading


def test_a_choreo_trajectory_ends_at_its_end_and_feedforwards_help() -> None:
    worst, mean, end, heading = follow(True)
    without_worst, without_mean, _, _ = follow(False)
    print(
        f"\n[choreo] on the way {worst * 100:.1f} cm worst, {mean * 100:.1f} cm mean; end "
        f"{end * 100:.1f} cm / {heading:.2f}° (feedforwards); without: {without_worst * 100:.1f} "
        f"cm worst, {without_mean * 100:.1f} cm mean"
    )
    assert end < 0.05 and heading < 2.0
    assert worst < 0.8 * without_worst and mean < 0.8 * without_mean


def test_follow_command_flips_for_red_resets_the_pose_and_stops_at_the_end() -> None:
    path = trajectory()
    with simulated() as h, subsystem_for(h) as subsystem:
        command = follow_command(subsystem, path, should_flip=lambda: True)
        assert command.getName() == "Choreo minimum jerk"
        assert subsystem in command.getRequirements()
        command.schedule()
        run(h, LOOP)
        start = path.get_initial_pose(True)
        assert start is not None and start.X() > 10.0  # on the red side
        assert h.drive.get_pose().translation().distance(start.translation()) < 0.05
        run(h, path.get_total_time() + 0.1)
        assert not command.isScheduled()
        run(h, 0.5)
        end = path.get_final_pose(True)
        assert end is not None
        truth = h.sim.true_pose
        assert truth.translation().distance(end.translation()) < 0.05, (truth, end)
        assert abs((truth.rotation() - end.rotation()).degrees()) < 2.0


def test_follow_command_refuses_an_empty_trajectory() -> None:
    with (
        simulated() as h,
        subsystem_for(h) as subsystem,
        pytest.raises(ValueError, match="has no samples"),
    ):
        follow_command(subsystem, SwerveTrajectory("empty", [], [], []))
