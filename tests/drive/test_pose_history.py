"""SwerveDrive.sample_pose_at, reset_translation and reset_rotation, in simulation (REV + navX).

Each test runs the drive as a robot does: ``periodic()`` once per loop, then the command, then
time passes. What a loop records (its FPGA time and ``get_pose()``) is recorded right after its
``periodic()``, as robot code sees it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise

import pytest
import wpilib
from wpimath.geometry import Pose2d, Rotation2d, Translation2d, Twist2d
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from tests.drive.harness import Harness, simulated
from tests.hostile import HOSTILE
from tests.sim import alert_texts

# The pose the estimator gives is the one it keeps: the same numbers, but a sample is rebuilt
# (interpolated, compensated) in C++, so compare to well under a micrometre.
EXACT = 1e-9

Loop = tuple[float, Pose2d]  # a loop's FPGA time and its pose


def curving(d: SwerveDrive) -> None:
    """Field-relative, sideways and turning: every loop's pose differs in x, y and heading."""
    d.drive(ChassisSpeeds(1.0, 0.5, 1.0), field_relative=True)


def record(h: Harness, seconds: float, command: Callable[[SwerveDrive], None]) -> list[Loop]:
    """Robot loops for ``seconds``, each loop's time and pose recorded after its periodic()
    (before the command), the last one being the loop ``h.run`` ends on."""
    loops: list[Loop] = []

    def step(d: SwerveDrive) -> None:
        loops.append((wpilib.Timer.getFPGATimestamp(), d.get_pose()))
        command(d)

    h.run(seconds, step)
    loops.append((wpilib.Timer.getFPGATimestamp(), h.drive.get_pose()))
    return loops


def same(a: Pose2d | None, b: Pose2d) -> bool:
    assert a is not None
    return (
        abs(a.X() - b.X()) < EXACT
        and abs(a.Y() - b.Y()) < EXACT
        and abs(math.remainder(a.rotation().radians() - b.rotation().radians(), math.tau)) < EXACT
    )


def between(a: Pose2d, b: Pose2d, fraction: float) -> Pose2d:
    """``fraction`` of the way from ``a`` to ``b`` along the twist that joins them."""
    twist = a.log(b)
    return a.exp(Twist2d(twist.dx * fraction, twist.dy * fraction, twist.dtheta * fraction))


def test_a_past_loop_time_gives_that_loops_pose_and_between_loops_it_is_interpolated() -> None:
    """The estimator is given each loop's FPGA time (``Timer.getFPGATimestamp()``, the time base
    of camera timestamps): sampled at it, the pose is the one the loop had."""
    with simulated() as h:
        loops = record(h, 1.0, curving)
        drive = h.drive
        moved = loops[0][1].translation().distance(loops[-1][1].translation())
        turned = abs((loops[-1][1].rotation() - loops[0][1].rotation()).radians())
        assert moved > 0.5 and turned > 0.5, (moved, turned)
        for time, pose in loops:
            assert same(drive.sample_pose_at(time), pose), time
        for (time_a, pose_a), (time_b, pose_b) in pairwise(loops):
            for fraction in (0.25, 0.5, 0.75):
                sample = drive.sample_pose_at(time_a + fraction * (time_b - time_a))
                assert sample is not None
                assert same(sample, between(pose_a, pose_b, fraction)), (time_a, fraction)
                # not one of the two loops' poses (a clamped sample would be)
                step = pose_a.translation().distance(pose_b.translation())
                for end in (pose_a, pose_b):
                    assert sample.translation().distance(end.translation()) > 0.2 * step > 0.0


def test_only_the_last_one_and_a_half_seconds_up_to_a_tenth_ahead_are_held() -> None:
    with simulated() as h:
        loops = record(h, 2.0, curving)
        drive = h.drive
        newest, latest_pose = loops[-1]
        assert same(drive.get_pose(), latest_pose)
        old_time, old_pose = next((t, p) for t, p in loops if newest - t < 1.45)
        assert same(drive.sample_pose_at(old_time), old_pose)
        assert drive.sample_pose_at(newest - 1.52) is None  # the estimator no longer has it
        assert drive.sample_pose_at(loops[0][0]) is None
        # a frame after the latest loop (a camera's clock ahead of the loop's): the latest pose
        assert same(drive.sample_pose_at(newest + 0.05), latest_pose)
        assert drive.sample_pose_at(newest + 0.2) is None  # not this robot's clock


def test_a_timestamp_that_is_not_a_usable_number_gives_none() -> None:
    with simulated() as h:
        record(h, 0.3, curving)
        drive = h.drive
        hostile: list[object] = [*HOSTILE, 10**400, -(10**400), None, "1.0", [1.0]]
        for timestamp in hostile:
            assert drive.sample_pose_at(timestamp) is None, timestamp  # type: ignore[arg-type]
        now = wpilib.Timer.getFPGATimestamp()
        assert same(drive.sample_pose_at(now), drive.get_pose())  # and it still answers


RESETS: dict[str, Callable[[SwerveDrive], None]] = {
    "reset_pose": lambda d: d.reset_pose(Pose2d(5.0, 3.0, Rotation2d.fromDegrees(90.0))),
    "zero_heading": lambda d: d.zero_heading(Rotation2d(math.pi)),
    "reset_translation": lambda d: d.reset_translation(Translation2d(5.0, 3.0)),
    "reset_rotation": lambda d: d.reset_rotation(Rotation2d.fromDegrees(-60.0)),
}


@pytest.mark.parametrize("reset", list(RESETS))
def test_a_time_before_a_reset_gives_none_not_a_pose_in_either_frame(reset: str) -> None:
    """WPILib's estimator empties its history on a reset and then answers a time before it with
    its oldest pose, which is in the new frame; the drive answers None. From the reset on the
    history is the new frame's, at once (before the next loop) and after it."""
    with simulated() as h:
        before = record(h, 0.5, curving)
        drive = h.drive
        resets = drive.pose_resets
        at_reset: list[Loop] = []

        def reset_then_drive(d: SwerveDrive) -> None:  # the command of a loop: after periodic()
            RESETS[reset](d)
            at_reset.append((wpilib.Timer.getFPGATimestamp(), d.get_pose()))
            assert same(d.sample_pose_at(at_reset[0][0]), at_reset[0][1])  # before the next loop
            for time, _ in before[:-1]:
                assert d.sample_pose_at(time) is None, time
            curving(d)

        h.loop(reset_then_drive)
        assert drive.pose_resets == resets + 1
        [(reset_time, reset_pose)] = at_reset
        after = record(h, 0.3, curving)
        assert same(drive.sample_pose_at(reset_time), reset_pose)
        halfway = drive.sample_pose_at(reset_time + 0.5 * (after[0][0] - reset_time))
        assert halfway is not None
        assert same(halfway, between(reset_pose, after[0][1], 0.5))
        for time, pose in after:
            assert same(drive.sample_pose_at(time), pose), time
        assert drive.sample_pose_at(before[-2][0]) is None


def test_a_vision_measurement_corrects_the_history_from_its_timestamp_on() -> None:
    """WPILib's ``sampleAt``: a pose before the measurement's timestamp is odometry's; from it
    on, odometry's motion since that timestamp added to the corrected pose there."""
    with simulated() as h:
        loops = record(h, 1.0, curving)
        drive = h.drive
        index = len(loops) - 11  # a frame 0.2 s old
        frame_time, frame_pose = loops[index]
        seen = frame_pose.transformBy(Pose2d(0.3, -0.2, Rotation2d()) - Pose2d())
        assert drive.add_vision_measurement(seen, frame_time, (0.01, 0.01, 0.01))
        for time, pose in loops[:index]:
            assert same(drive.sample_pose_at(time), pose), time
        corrected = drive.sample_pose_at(frame_time)
        assert corrected is not None
        gap = frame_pose.translation().distance(seen.translation())
        assert corrected.translation().distance(seen.translation()) < 0.2 * gap
        for (time, pose), (next_time, next_pose) in pairwise(loops[index:]):
            assert same(drive.sample_pose_at(time), corrected + (pose - frame_pose)), time
            middle = between(pose, next_pose, 0.5)
            assert same(
                drive.sample_pose_at(0.5 * (time + next_time)), corrected + (middle - frame_pose)
            )
        newest = loops[-1][0]
        assert same(drive.sample_pose_at(newest), drive.estimator.getEstimatedPosition())
        h.loop(curving)
        h.observe()
        now = wpilib.Timer.getFPGATimestamp()
        assert same(drive.sample_pose_at(now), drive.get_pose())


def test_a_vision_measurement_given_between_a_reset_and_the_next_loop_is_used() -> None:
    """WPILib's estimator drops a measurement given while its history is empty, as it is right
    after a reset, and ``add_vision_measurement`` said True all the same: the history now starts
    at the reset, so the measurement is used."""
    with simulated() as h:
        record(h, 0.2, curving)
        drive = h.drive
        start = Pose2d(3.0, 2.0, Rotation2d())
        seen = Pose2d(3.5, 2.0, Rotation2d())
        moved: list[float] = []

        def reset_then_see(d: SwerveDrive) -> None:
            d.reset_pose(start)
            now = wpilib.Timer.getFPGATimestamp()
            assert d.add_vision_measurement(seen, now, (0.01, 0.01, 0.01))
            moved.append(d.estimator.getEstimatedPosition().X() - start.X())
            sample = d.sample_pose_at(now)
            assert sample is not None
            moved.append(sample.X() - start.X())

        h.loop(reset_then_see)
        h.observe()
        moved.append(drive.get_pose().X() - start.X())
        assert all(0.4 < x < 0.55 for x in moved), moved


@pytest.mark.parametrize("reset", list(RESETS))
def test_a_vision_frame_taken_before_a_reset_is_refused(reset: str) -> None:
    """A frame taken before a reset saw the robot before it; WPILib's estimator, its history
    emptied, would fuse it against the reset pose as if the robot had not moved since the frame
    (0.5 s of driving here). It is refused on the Alert, and a frame taken at the reset is used."""
    with simulated() as h:
        loops = record(h, 0.5, curving)
        drive = h.drive
        frame_time, frame_pose = loops[-6]  # 0.1 s old when the reset comes
        refused = drive.vision.refused["taken before the pose reset"]  # the drive is shared
        moved: list[float] = []

        def reset_then_see(d: SwerveDrive) -> None:
            RESETS[reset](d)
            kept = d.get_pose()
            assert not d.add_vision_measurement(frame_pose, frame_time, (0.01, 0.01, 0.01))
            moved.append(
                d.estimator.getEstimatedPosition().translation().distance(kept.translation())
            )
            now = wpilib.Timer.getFPGATimestamp()
            assert d.add_vision_measurement(kept, now, (0.01, 0.01, 0.01))  # at the reset: used

        h.loop(reset_then_see)
        assert moved == [0.0]
        assert drive.vision.refused["taken before the pose reset"] == refused + 1
        h.observe()
        assert any("before the pose was last set" in text for text in alert_texts()), alert_texts()


def test_reset_translation_keeps_the_heading_and_the_simulated_robot_its_own() -> None:
    with simulated() as h:
        record(h, 0.6, curving)
        drive = h.drive
        heading = drive.get_heading()
        true_heading = h.sim.true_pose.rotation()
        assert abs(heading.degrees()) > 20.0
        drive.reset_translation(Translation2d(4.0, 2.0))
        pose = drive.get_pose()
        assert pose.translation() == Translation2d(4.0, 2.0)
        assert abs((pose.rotation() - heading).radians()) < EXACT
        true = h.sim.true_pose
        assert true.translation().distance(Translation2d(4.0, 2.0)) < EXACT
        assert abs((true.rotation() - true_heading).radians()) < EXACT
        h.run(1.0, lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 0.0), field_relative=True))
        estimate, true = drive.get_pose(), h.sim.true_pose
        assert estimate.translation().distance(true.translation()) < 0.05, (estimate, true)
        assert estimate.X() > 4.5


@pytest.mark.parametrize(
    "translation",
    [Translation2d(math.nan, 0.0), Translation2d(0.0, math.inf), Translation2d(1e300, 0.0)],
)
def test_reset_translation_refuses_what_reset_pose_refuses(translation: Translation2d) -> None:
    with simulated(initial_pose=Pose2d(2.0, 1.0, Rotation2d())) as h:
        drive = h.drive
        count, resets, pose = drive.refusals.count, drive.pose_resets, drive.get_pose()
        true = h.sim.true_pose
        drive.reset_translation(translation)
        assert drive.refusals.count == count + 1 and drive.pose_resets == resets
        assert drive.get_pose() == pose and h.sim.true_pose == true
        assert any("refused reset_translation()" in t for t in alert_texts(("warnings",)))


def test_reset_rotation_is_zero_heading_by_phoenix6s_and_wpilibs_name() -> None:
    with simulated() as h:
        record(h, 0.4, curving)
        drive = h.drive
        here, true = drive.get_pose().translation(), h.sim.true_pose
        drive.zero_heading(Rotation2d.fromDegrees(30.0))
        by_zero_heading = drive.get_pose()
        drive.reset_rotation(Rotation2d.fromDegrees(30.0))
        assert drive.get_pose() == by_zero_heading
        assert by_zero_heading.translation() == here
        assert abs(by_zero_heading.rotation().degrees() - 30.0) < EXACT
        assert h.sim.true_pose == true  # the robot did not turn
        count = drive.refusals.count
        drive.reset_rotation(Rotation2d(math.nan))
        assert drive.refusals.count == count + 1 and drive.get_pose() == by_zero_heading
        assert any("refused reset_rotation()" in t for t in alert_texts(("warnings",)))


# A reset and something of the wrong type for it.
WRONG_TYPES: list[tuple[str, object]] = [
    ("reset_translation", None),
    ("reset_translation", (1.0, 2.0)),
    ("reset_translation", Pose2d(1.0, 2.0, Rotation2d())),
    ("reset_rotation", None),
    ("reset_rotation", 0.5),
    ("reset_pose", "origin"),
    ("zero_heading", 90.0),
]


@pytest.mark.parametrize(("call", "value"), WRONG_TYPES)
def test_a_reset_given_the_wrong_type_is_refused_and_the_loop_goes_on(
    call: str, value: object
) -> None:
    """A reset called with something that is not a pose, translation or rotation (a tuple, a
    float of degrees, None) is refused as a NaN one is: the pose kept, the ``Swerve commands``
    Alert naming the call and what it was given; no exception from inside the library stops
    the robot loop. Before, each raised from wpimath or from the checks (TypeError,
    AttributeError)."""
    with simulated(initial_pose=Pose2d(2.0, 1.0, Rotation2d())) as h:
        record(h, 0.2, curving)
        drive = h.drive
        count, resets = drive.refusals.count, drive.pose_resets
        poses: list[Pose2d] = []

        def reset_then_drive(d: SwerveDrive) -> None:  # the command of a loop
            poses.extend((d.get_pose(), h.sim.true_pose))
            getattr(d, call)(value)
            poses.extend((d.get_pose(), h.sim.true_pose))
            curving(d)

        h.loop(reset_then_drive)
        assert drive.refusals.count == count + 1 and drive.pose_resets == resets
        pose, true, pose_after, true_after = poses
        assert pose_after == pose and true_after == true
        texts = alert_texts(("warnings",))
        assert any(f"refused {call}()" in t and type(value).__name__ in t for t in texts), texts
        h.observe()
        record(h, 0.1, curving)  # the robot loop goes on
