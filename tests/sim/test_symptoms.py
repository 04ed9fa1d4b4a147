"""The spec's symptoms (§1.7, §3.1, §7), reproduced by hardware that disagrees with its config.

Each test keeps the configuration and changes the *hardware truth*: a configuration flag that is
wrong for the hardware is the same physical situation as hardware that differs from what a correct
configuration describes.
"""

from __future__ import annotations

import math
from dataclasses import replace

from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from swervelib.sim import HardwareTruth
from tests.drive.harness import simulated


def reverse_all(**flags: bool):
    def change(truth: HardwareTruth) -> HardwareTruth:
        return replace(truth, corners=tuple(replace(c, **flags) for c in truth.corners))

    return change


def test_wrong_angle_inversion_makes_that_module_thrash() -> None:
    """With its angle motor reversed, a module runs away from every setpoint it is given."""
    clock = [0.0]

    def circle(drive: SwerveDrive) -> None:  # the wheels' target direction turns steadily
        clock[0] += 0.02
        drive.drive(ChassisSpeeds(0.5 * math.cos(clock[0]), 0.5 * math.sin(clock[0]), 0.0))

    truth = lambda t: t.with_corner("frontleft", angle_reversed=True)  # noqa: E731
    errors: dict[str, list[float]] = {}
    with simulated(truth=truth) as h:
        for _ in range(40):
            h.run(0.1, circle)
            target = math.degrees(clock[0])
            for name, rotation in h.sim.true_module_angles.items():
                error = (
                    rotation.degrees() - target + 90.0
                ) % 180.0 - 90.0  # either wheel direction
                errors.setdefault(name, []).append(abs(error))
    mean = {name: sum(e[10:]) / len(e[10:]) for name, e in errors.items()}
    assert mean["frontleft"] > 20.0, mean
    for name in ("frontright", "backleft", "backright"):
        assert mean[name] < 3.0, mean


def test_wrong_imu_inversion_with_heading_hold_turns_the_robot_away() -> None:
    """The heading loop becomes positive feedback: the robot turns away from its target."""
    with simulated(truth=lambda t: replace(t, imu_reversed=True)) as h:
        h.sim.rotate_robot_by_hand(5.0)  # any small disturbance
        h.run(4.0, lambda d: d.drive_facing(0.0, 0.0, Rotation2d()))
        yaw = h.sim.true_yaw_deg
    assert abs(yaw) > 150.0, yaw


def test_correct_robot_holds_its_heading() -> None:
    with simulated() as h:
        h.sim.rotate_robot_by_hand(5.0)
        h.run(3.0, lambda d: d.drive_facing(0.0, 0.0, Rotation2d()))
        yaw = h.sim.true_yaw_deg
    assert abs(yaw) < 2.0, yaw


def test_wrong_drive_inversion_on_all_modules_reverses_translation() -> None:
    with simulated(truth=reverse_all(drive_reversed=True)) as h:
        h.run(1.5, lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 0.0), field_relative=True))
        true_x = h.sim.true_pose.X()
        odometry_x = h.drive.get_pose().X()
    assert true_x < -0.8  # the robot goes the other way
    assert odometry_x > 0.8  # while its wheel encoders (in the motors) say it went forward


def test_offsets_180_off_make_odometry_move_backwards() -> None:
    def half_turn(truth: HardwareTruth) -> HardwareTruth:
        return replace(
            truth,
            corners=tuple(
                replace(c, encoder_zero_deg=c.encoder_zero_deg + 180.0) for c in truth.corners
            ),
        )

    with simulated(truth=half_turn) as h:
        h.run(1.5, lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 0.0)))
        true_x = h.sim.true_pose.X()
        odometry_x = h.drive.get_pose().X()
    assert true_x < -0.8 and odometry_x > 0.8  # opposite directions
    assert abs(h.sim.true_yaw_deg) < 5.0  # spinning in place still works


def test_ids_at_the_wrong_corners_break_a_counter_clockwise_spin() -> None:
    def swap_front(truth: HardwareTruth) -> HardwareTruth:
        fl, fr = truth.corner("frontleft"), truth.corner("frontright")
        return truth.with_corner("frontleft", front=fr.front, left=fr.left).with_corner(
            "frontright", front=fl.front, left=fl.left
        )

    with simulated() as h:
        h.run(2.0, lambda d: d.drive(ChassisSpeeds(0.0, 0.0, 1.0)))
        good_yaw, good_drift = h.sim.true_yaw_deg, h.sim.true_pose.translation().norm()
    with simulated(truth=swap_front) as h:
        h.run(2.0, lambda d: d.drive(ChassisSpeeds(0.0, 0.0, 1.0)))
        bad_yaw, bad_drift = h.sim.true_yaw_deg, h.sim.true_pose.translation().norm()
    assert good_yaw > 80.0 and good_drift < 0.05  # 115° asked; the robot spins up
    assert bad_drift > 0.3 or bad_yaw < 0.5 * good_yaw, (bad_yaw, bad_drift)


# -- the eight-step procedure (spec §3.2) --------------------------------------------------------
# Relative to the hardware, a configuration is wrong (or not) in three ways: IMU inversion, drive
# inversion on every module, and module flip. The eight steps visit all eight combinations.
EIGHT_STEPS = [  # (invertIMU wrong, inverted.drive wrong, flipped wrong) at each step, for a robot
    (False, False, False),  # whose correct configuration is the step-1 one
    (True, False, False),
    (True, True, False),
    (False, True, False),
    (False, True, True),
    (False, False, True),
    (True, False, True),
    (True, True, True),
]


def mismatched(imu: bool, drive: bool, flip: bool):
    def change(truth: HardwareTruth) -> HardwareTruth:
        corners = tuple(
            replace(
                c,
                drive_reversed=c.drive_reversed != drive,
                front=-c.front if flip else c.front,
                left=-c.left if flip else c.left,
            )
            for c in truth.corners
        )
        return replace(truth, corners=corners, imu_reversed=truth.imu_reversed != imu)

    return change


def classify(imu: bool, drive: bool, flip: bool) -> str:
    """Zero the heading facing +x, turn the robot, then drive field-oriented +x holding heading."""
    directions = []
    for heading in (0.0, 90.0):
        with simulated(truth=mismatched(imu, drive, flip)) as h:
            h.sim.rotate_robot_by_hand(heading)
            h.run(0.1)
            target = h.drive.get_heading() + Rotation2d.fromDegrees(10.0)  # a small heading change
            h.run(2.0, lambda d, t=target: d.drive_facing(0.6, 0.0, t))
            turned = h.sim.true_yaw_deg - heading
            moved = h.sim.true_pose.translation()
        if abs(turned) > 60.0:
            return "spins"
        directions.append(math.degrees(math.atan2(moved.Y(), moved.X())))
    first, second = directions
    if abs((first - second + 180) % 360 - 180) > 30.0:
        return "translation depends on heading"
    if abs(abs(first) - 180.0) < 30.0:
        return "reversed"
    assert abs(first) < 30.0, directions
    return "correct"


def test_eight_states_classify_with_exactly_one_correct() -> None:
    table = [classify(*state) for state in EIGHT_STEPS]
    assert table == [
        "correct",
        "spins",
        "translation depends on heading",
        "spins",
        "reversed",
        "spins",
        "translation depends on heading",
        "spins",
    ], table
    assert table.count("correct") == 1
