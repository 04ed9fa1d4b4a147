"""The drive-quality options, each measured in the simulated truth against the same robot without
it: heading correction against the drift of a miscalibrated module, angular-velocity compensation
against the skew of a spinning robot, acceleration limits and the setpoint generator against
steps, drive-to-pose stopping at its pose; a command that is not renewed expires."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest
from wpilib.simulation import DriverStationSim
from wpimath.geometry import Pose2d, Rotation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from swervelib.drive.options import DriveOptions, SetpointLimits
from swervelib.input_stream import SwerveInput
from swervelib.sim import HardwareTruth
from tests.drive.harness import LOOP, Harness, simulated
from tests.sim import alert_texts

START = Pose2d(2.0, 4.0, Rotation2d())


def misaligned(truth: HardwareTruth) -> HardwareTruth:
    """The front-left module's absolute encoder reads 4° off: its wheel points 4° wrong."""
    return replace(
        truth,
        corners=tuple(
            replace(c, encoder_zero_deg=c.encoder_zero_deg + 4.0) if c.name == "frontleft" else c
            for c in truth.corners
        ),
    )


def heading_drift(correction: bool) -> float:
    """Degrees the truth turned over 5 s of driving straight at 1.5 m/s with no rotation asked."""
    with simulated(truth=misaligned, initial_pose=START) as h:
        h.drive.set_heading_correction(correction)
        h.run(5.0, lambda d: d.drive(ChassisSpeeds(1.5, 0.0, 0.0), field_relative=True))
        return abs(h.sim.true_pose.rotation().degrees())


def test_heading_correction_holds_the_heading_a_miscalibrated_module_turns() -> None:
    without, with_ = heading_drift(False), heading_drift(True)
    print(f"\n[heading correction] drift over 5 s: {without:.2f}° without, {with_:.2f}° with")
    assert without > 5.0  # the disturbance is real
    assert with_ < 2.0 and with_ < without / 10  # what is left: the heading PID's P-only offset


def skew(compensation: float | None) -> float:
    """Metres the truth ended off the commanded line after 2 s of driving field-relative +x at
    1.5 m/s while spinning at 3 rad/s (the perpendicular distance from y = START.y)."""
    with simulated(initial_pose=START) as h:
        if compensation is not None:
            h.drive.set_angular_velocity_compensation(True, coefficient=compensation)
        h.run(2.0, lambda d: d.drive(ChassisSpeeds(1.5, 0.0, 3.0), field_relative=True))
        return abs(h.sim.true_pose.Y() - START.Y())


def test_angular_velocity_compensation_keeps_a_spinning_robot_on_its_line() -> None:
    without, with_ = skew(None), skew(0.05)  # this simulated robot's modules lag about 50 ms
    print(
        f"\n[skew] off the line after 2 s at 3 rad/s: {without * 100:.1f} cm without, {with_ * 100:.1f} cm with"
    )
    assert without > 0.15  # the skew is real
    assert with_ < without / 4


def wheel_steps(limits: DriveOptions) -> tuple[float, float]:
    """Full speed asked from rest, then full speed the other way: the largest change of any
    module's target speed from one loop to the next (m/s), and of the truth's speed (m/s)."""
    with simulated(initial_pose=START) as h:
        h.drive.options = limits
        targets: list[list[float]] = []
        truth: list[float] = []

        def step(speed: float):
            def command(d: SwerveDrive) -> None:
                d.drive(ChassisSpeeds(speed, 0.0, 0.0), field_relative=True)
                targets.append([s.speed for s in d.get_state().module_targets])
                truth.append(h.sim.true_speeds.vx)

            return command

        h.run(1.5, step(3.0))
        h.run(2.5, step(-3.0))
        target_steps = [
            abs(now - before)
            for a, b in itertools.pairwise(targets)
            for now, before in zip(b, a, strict=True)
        ]
        truth_steps = [abs(b - a) for a, b in itertools.pairwise(truth)]
        return max(target_steps), max(truth_steps)


def test_acceleration_limits_bound_every_wheel_speed_step() -> None:
    limit = 4.0  # m/s²
    free_target, free_truth = wheel_steps(DriveOptions())
    target, truth = wheel_steps(DriveOptions(max_linear_acceleration=limit))
    print(
        f"\n[acceleration limits] largest step per loop: target {free_target:.2f} -> {target:.3f} "
        f"m/s, truth {free_truth:.3f} -> {truth:.3f} m/s (limit {limit * LOOP:.3f})"
    )
    assert free_target > 1.0  # without limits the targets jump
    assert target <= limit * LOOP + 1e-6
    assert truth <= limit * LOOP * 1.25  # the robot follows: no step the tyres would have to take


def test_the_setpoint_generator_bounds_wheel_acceleration_and_steering() -> None:
    limits = SetpointLimits(
        max_module_speed=4.0, max_steer_velocity=8.0, max_drive_acceleration=5.0
    )
    with simulated(initial_pose=START) as h:
        h.drive.set_setpoint_limits(limits)
        states: list[list[tuple[float, float]]] = []

        def command(vx: float, vy: float):
            def run(d: SwerveDrive) -> None:
                d.drive(ChassisSpeeds(vx, vy, 0.0), field_relative=True)
                states.append([(s.speed, s.angle.radians()) for s in d.get_state().module_targets])

            return run

        h.run(1.0, command(2.5, 0.0))  # from rest to 2.5 m/s forward
        h.run(1.0, command(0.0, 2.5))  # then a right-angle turn of the direction of travel
        speed_steps, turns = [], []
        for before, now in itertools.pairwise(states):
            for (v0, a0), (v1, a1) in zip(before, now, strict=True):
                reverse = abs(math.remainder(a1 - a0, math.tau)) > math.pi / 2
                speed_steps.append(abs((-v1 if reverse else v1) - v0))
                if abs(v0) > limits.max_drive_acceleration * LOOP and abs(v1) > 1e-3:
                    turns.append(abs(math.remainder(a1 - a0, math.pi)))
        end = h.drive.get_state().speeds
    print(
        f"\n[setpoint generator] largest speed step {max(speed_steps):.3f} m/s, turn {max(turns):.3f} rad per loop"
    )
    assert max(speed_steps) <= limits.max_drive_acceleration * LOOP + 1e-6
    assert max(turns) <= limits.max_steer_velocity * LOOP + 1e-6
    assert abs(end.vx) < 0.2 and end.vy > 2.0  # it got there


def test_drive_to_pose_stops_at_the_pose() -> None:
    goal = Pose2d(4.5, 5.2, Rotation2d.fromDegrees(90.0))
    with simulated(initial_pose=START) as h:
        sticks = SwerveInput.of(lambda: 0.0, lambda: 0.0).drive_to(goal)
        h.run(5.0, sticks.apply)
        truth = h.sim.true_pose
        distance = truth.translation().distance(goal.translation())
        heading = abs((truth.rotation() - goal.rotation()).degrees())
        print(f"\n[drive to pose] truth {distance * 100:.2f} cm / {heading:.2f}° from the goal")
        assert sticks.at_target
        assert distance < 0.02 and heading < 1.0
        speeds = h.drive.get_state().speeds
        assert math.hypot(speeds.vx, speeds.vy) < 0.02 and abs(speeds.omega) < 0.05


def test_a_command_that_is_not_renewed_expires_with_an_alert() -> None:
    with simulated(initial_pose=START) as h:
        drive = h.drive
        h.run(0.5, lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 0.0)))
        moving = drive.get_state().speeds.vx
        h.run(0.06)  # three loops without a command: still in force
        assert all(abs(m.speed_setpoint_mps) > 0.5 for m in drive.modules)
        h.run(0.1)  # past 0.1 s: stopped
        assert all(m.speed_setpoint_mps == 0.0 for m in drive.modules)
        alerts = alert_texts(("warnings",))
        assert any("Swerve command expired: no drive command for" in a for a in alerts), alerts
        h.run(1.0)
        # Moving, then stopped. The measured speed after 0.5 s at 1 m/s is about 0.915 m/s and
        # varies from run to run (0.900-0.925, sd 0.005: REV's simulated velocity, see REV_NAVX in
        # tests/drive/harness.py), so "moving" is judged with a wide margin.
        assert moving > 0.8 and abs(drive.get_state().speeds.vx) < 0.05
        h.run(0.1, lambda d: d.drive(ChassisSpeeds(0.5, 0.0, 0.0)))  # a new command: alert gone
        alerts = alert_texts(("warnings",))
        assert not any("Swerve command expired" in a for a in alerts), alerts
        h.run(0.3, lambda d: d.drive(ChassisSpeeds()))  # a zero request, then none: stops quietly
        h.run(0.3)
        assert all(m.speed_setpoint_mps == 0.0 for m in drive.modules)
        assert not any("Swerve command expired" in a for a in alert_texts(("warnings",)))


@pytest.mark.parametrize("timeout", [None, 0.5])
def test_the_command_timeout_can_be_longer_or_off(timeout: float | None) -> None:
    with simulated(initial_pose=START) as h:
        drive = h.drive
        drive.command_timeout = timeout
        try:
            h.run(0.2, lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 0.0)))
            h.run(0.3)
            assert all(abs(m.speed_setpoint_mps) > 0.5 for m in drive.modules)
            h.run(0.3)
            stopped = all(m.speed_setpoint_mps == 0.0 for m in drive.modules)
            assert stopped is (timeout is not None)
        finally:
            drive.command_timeout = 0.1


def test_heading_correction_holds_where_a_released_spin_stops_without_swinging_back() -> None:
    """Spinning at 6 rad/s while driving, the driver lets go of the rotation stick: heading
    correction holds the heading the robot stops at once the spin has died out, instead of the
    one it had when the stick was released, which it overshot and then swung back to."""
    with simulated(initial_pose=START) as h:
        h.drive.set_heading_correction(True)
        h.run(0.6, lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 6.0), field_relative=True))
        unwrapped = [h.sim.true_yaw_deg]

        def translate(d: SwerveDrive) -> None:
            d.drive(ChassisSpeeds(1.0, 0.0, 0.0), field_relative=True)

        for _ in range(100):  # 2 s, one loop at a time
            h.run(LOOP, translate)
            unwrapped.append(h.sim.true_yaw_deg)
    furthest = max(unwrapped)
    back = furthest - unwrapped[-1]
    print(f"\n[released spin] turned {furthest - unwrapped[0]:.1f}° on, swung back {back:.1f}°")
    assert back < 3.0, (furthest, unwrapped[-1])
    assert abs(unwrapped[-1] - unwrapped[-10]) < 0.5  # and holds it


GAP_LIMITS = SetpointLimits(
    max_module_speed=4.0, max_steer_velocity=8.0, max_drive_acceleration=3.0
)


@contextmanager
def enabled_after_a_disable() -> Iterator[Harness]:
    """Under the setpoint generator with ``command_timeout=None`` (a command lasts through a
    disable): driven at 2 m/s, disabled for 1 s (the robot coasts to rest), enabled again."""
    with simulated(initial_pose=START) as h:
        drive = h.drive
        drive.set_setpoint_limits(GAP_LIMITS)
        drive.command_timeout = None
        try:
            h.run(1.5, lambda d: d.drive(ChassisSpeeds(2.0, 0.0, 0.0)))
            assert h.sim.true_speeds.vx > 1.8
            DriverStationSim.setEnabled(False)
            DriverStationSim.notifyNewData()
            h.run(1.0)
            assert abs(h.sim.true_speeds.vx) < 0.05  # at rest
            DriverStationSim.setEnabled(True)
            DriverStationSim.notifyNewData()
            yield h
        finally:
            drive.command_timeout = 0.1
            drive.set_setpoint_limits(None)


def test_the_setpoint_generator_starts_again_after_a_gap_in_commands() -> None:
    """The setpoint generator went on from its last setpoint when commands came again after a
    disable: asked to stand still, the modules were ramped down from 2 m/s and the robot lurched
    to 1.1 m/s. After a gap it starts from the modules."""
    with enabled_after_a_disable() as h:
        fastest = 0.0
        for _ in range(25):
            h.run(LOOP, lambda d: d.drive(ChassisSpeeds()))
            fastest = max(fastest, abs(h.sim.true_speeds.vx))
        print(f"\n[setpoint generator after a disable] fastest {fastest:.3f} m/s")
        assert fastest < 0.05


def test_drive_to_under_the_generator_starts_from_rest_after_a_disable() -> None:
    """The same gap for ``drive_to``: it starts from the generator's setpoint, and checks how
    far the generator can go from it. After the disable both start from the modules at rest:
    the robot speeds up within the generator's acceleration, from 0 (before: 2.0 m/s at once)."""
    with enabled_after_a_disable() as h:
        goal = Pose2d(h.sim.true_pose.X() + 2.0, h.sim.true_pose.Y(), Rotation2d())
        sticks = SwerveInput.of(lambda: 0.0, lambda: 0.0).drive_to(goal)
        commands = []
        for _ in range(10):
            h.run(LOOP, sticks.apply)
            commands.append(h.drive.get_state().desired[0])
        print(f"\n[drive_to after a disable] first commands {commands[:3]}")
        # from rest (the measured speed, a few mm/s), at most 3 m/s² (0.06 m/s a loop), not
        # from the stale 2 m/s
        step = GAP_LIMITS.max_drive_acceleration * LOOP
        assert all(c <= (i + 1) * step + 0.005 for i, c in enumerate(commands)), commands
        assert abs(h.sim.true_speeds.vx) < 0.7
