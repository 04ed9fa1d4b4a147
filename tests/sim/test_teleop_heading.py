"""SwerveInput (and HeadingDriveInput) on the simulated robot, once per loop as a robot runs it:
what the robot does when the driver resets the heading, toggles robot-relative driving on the red
alliance, or hands the drive to another command or mode and back."""

from __future__ import annotations

import math

from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib.input import HeadingDriveInput
from swervelib.input_stream import SwerveInput
from swervelib.pose_follower import MIN_POSE_FRACTION
from tests.drive.harness import simulated
from tests.sim import Pad


def test_zero_heading_in_heading_mode_keeps_the_robot_where_it_faces() -> None:
    pad = Pad()
    heading = SwerveInput.from_xbox(pad).with_deadband(0.1).heading_mode()
    with simulated() as h:
        pad.rx = -1.0  # heading stick left: face +90°
        h.run(2.0, heading.apply)
        pad.rx = 0.0  # released: hold it
        h.run(0.5, heading.apply)
        before = h.sim.true_pose.rotation().degrees()
        assert abs(before - 90.0) < 3.0
        h.drive.zero_heading()  # the driver says: the robot now faces 0
        h.run(2.0, heading.apply)
        turned = h.sim.true_pose.rotation().degrees() - before
        print(f"\n[zero heading] the robot turned {turned:.2f}° after zero_heading()")
        assert abs(turned) < 2.0  # before: 89.0°, back to the old target in the new frame
        assert abs(h.drive.get_heading().degrees()) < 2.0


def test_robot_relative_toggle_on_red_does_not_turn_the_robot_round() -> None:
    pad = Pad()
    heading = (
        SwerveInput.from_xbox(pad)
        .with_deadband(0.1)
        .alliance_relative_mode(is_red=lambda: True)
        .heading_mode()
    )
    with simulated() as h:
        pad.ry = -1.0  # heading stick away from the red driver: face π
        h.run(3.0, heading.apply)
        before = h.sim.true_pose.rotation().degrees()
        assert abs(abs(before) - 180.0) < 3.0
        # the driver holds the robot-relative button (robot_example's left bumper) to line up
        h.run(2.0, lambda drive: heading.robot_relative_mode().apply(drive))
        turned = abs(math.remainder(h.sim.true_pose.rotation().degrees() - before, 360.0))
        print(f"\n[robot-relative on red] the robot turned {turned:.2f}°")
        assert turned < 2.0  # before: 179.1°, the heading stick read as the blue driver's


def test_heading_mode_resumed_after_another_command_holds_where_that_left_the_robot() -> None:
    pad = Pad()
    heading = SwerveInput.from_xbox(pad).with_deadband(0.1).heading_mode()
    aligned = Rotation2d.fromDegrees(60.0)
    with simulated() as h:
        h.run(0.5, heading.apply)  # the driver holds the robot's heading (0°), sticks released
        # an alignment command (a PathPlanner path, a turn-to-target) takes the drive: 60°
        h.run(2.0, lambda drive: drive.drive_facing(0.0, 0.0, aligned))
        before = h.sim.true_pose.rotation().degrees()
        assert abs(before - 60.0) < 3.0
        h.run(2.0, heading.apply)  # the default command again, the heading stick untouched
        turned = h.sim.true_pose.rotation().degrees() - before
        print(f"\n[heading mode resumed] the robot turned {turned:.2f}°")
        assert abs(turned) < 2.0  # before: back to the heading held before the alignment


def test_zero_heading_with_the_test_drive_routine_keeps_the_robot_where_it_faces() -> None:
    pad = Pad()
    with simulated() as h:
        sticks = HeadingDriveInput.for_drive(
            h.drive, pad.getLeftX, pad.getLeftY, pad.getRightX, pad.getRightY
        )
        pad.rx = -1.0  # heading stick left: face +90°
        h.run(2.0, sticks.apply)
        pad.rx = 0.0
        h.run(0.5, sticks.apply)
        before = h.sim.true_pose.rotation().degrees()
        assert abs(before - 90.0) < 3.0
        h.drive.zero_heading()  # as YAGSL's zeroGyro, no reset_heading(0.0) by the robot code
        h.run(2.0, sticks.apply)
        turned = h.sim.true_pose.rotation().degrees() - before
        print(f"\n[zero heading, HeadingDriveInput] the robot turned {turned:.2f}°")
        assert abs(turned) < 2.0


def test_drive_to_pose_entered_again_turns_up_from_the_robots_rate() -> None:
    pad = Pad()
    rate = SwerveInput.from_xbox(pad)
    to_pose = rate.drive_to(Pose2d(0.0, 0.0, Rotation2d.fromDegrees(170.0)))
    with simulated() as h:
        h.run(0.6, to_pose.apply)  # turning at its top rate when the driver lets go the button
        assert abs(h.drive.get_state().desired[2]) > 2.0
        h.run(1.0, rate.apply)  # sticks released: the robot stops turning
        assert abs(h.drive.get_robot_relative_speeds().omega) < 0.05
        h.loop(to_pose.apply)  # the button again
        h.observe()  # the next loop's snapshot: what that loop commanded
        first = abs(h.drive.get_state().desired[2])
        step = to_pose.pose_max_turn_acceleration * h.drive.loop_period
        floor = MIN_POSE_FRACTION * h.drive.max_angular_velocity  # (static friction's floor)
        print(f"\n[drive to pose again] first turn rate {first:.3f} rad/s, one step {step:.3f}")
        assert first <= max(step, floor) + 0.01  # before: 3.14 rad/s at once, from rest


def test_drive_to_pose_entered_while_driving_away_turns_round_within_its_acceleration() -> None:
    pad = Pad()
    to_pose = SwerveInput.from_xbox(pad).drive_to(Pose2d(3.0, 4.0, Rotation2d()))
    with simulated(initial_pose=Pose2d(4.0, 4.0, Rotation2d())) as h:
        # driving away from the goal at 3 m/s when the driver presses the align button
        h.run(1.0, lambda drive: drive.drive(ChassisSpeeds(3.0, 0.0, 0.0), field_relative=True))
        previous = h.drive.get_field_relative_speeds().vx
        largest = 0.0
        for loop in range(250):  # 5 s: 1 s to stop, 1.5 m further away, then back
            h.loop(to_pose.apply)
            h.observe()
            commanded = h.drive.get_state().desired[0]  # (robot-relative; the robot faces 0)
            if loop < 75:  # turning round, and on the way back up to speed
                largest = max(largest, abs(commanded - previous))
            previous = commanded
        step = to_pose.pose_max_acceleration * h.drive.loop_period
        miss = h.drive.get_pose().translation().distance(Translation2d(3.0, 4.0))
        print(
            f"\n[drive to pose from 3 m/s away] largest step {largest:.3f} m/s, miss {miss:.4f} m"
        )
        assert largest <= step + 0.06  # before: 5.0 m/s in one loop (+3 to -2)
        assert to_pose.at_target and miss < 0.02


def test_aiming_while_strafing_past_the_point_keeps_facing_it() -> None:
    pad = Pad()
    point = Translation2d(6.0, 4.0)
    aim = SwerveInput.from_xbox(pad).with_deadband(0.0).aim_at(point)
    with simulated(initial_pose=Pose2d(4.0, 1.0, Rotation2d.fromDegrees(90.0))) as h:
        h.run(1.0, aim.apply)  # facing the point, at rest
        pad.lx = -0.5  # half stick left: +y on the field, past the point 2 m to its side
        worst = 0.0
        for _ in range(125):
            h.loop(aim.apply)
            h.observe()
            truth = h.sim.true_pose
            bearing = (point - truth.translation()).angle().radians()
            error = math.remainder(bearing - truth.rotation().radians(), math.tau)
            worst = max(worst, abs(math.degrees(error)))
        speed = math.hypot(*h.drive.get_state().measured[:2])
        print(f"\n[aim while strafing at {speed:.2f} m/s] largest aim error {worst:.2f}°")
        assert speed > 2.0 and h.sim.true_pose.Y() > 6.0  # it went past the point
        assert worst < 4.0  # before: 16.4°, the heading PID trailing the bearing


def test_heading_mode_entered_mid_spin_holds_where_the_spin_stops() -> None:
    """The driver spins the robot in rate mode while driving, lets go of the rotation stick and
    switches to heading mode at once (robot_example's right bumper let go): the heading held is
    the one the robot stops at, not the one it had at the switch, which it overshot and swung
    back to."""
    pad = Pad()
    rate = SwerveInput.from_xbox(pad).with_deadband(0.1)
    heading = rate.heading_mode()
    with simulated() as h:
        pad.ly, pad.rx = -0.3, -1.0  # forward, spinning counter-clockwise at full rate
        h.run(0.6, rate.apply)
        pad.rx = 0.0
        yaws = [h.sim.true_yaw_deg]
        for _ in range(100):  # 2 s in heading mode, heading stick released
            h.run(0.02, heading.apply)
            yaws.append(h.sim.true_yaw_deg)
    back = max(yaws) - yaws[-1]
    print(f"\n[mid-spin switch] went {max(yaws) - yaws[0]:.1f}° on, swung back {back:.1f}°")
    assert back < 3.0, (max(yaws), yaws[-1])
    assert abs(yaws[-1] - yaws[-10]) < 0.5  # and holds it


def test_a_driver_at_the_side_of_the_field_drives_the_robot_away_from_them() -> None:
    """A translation heading offset of 90° (the driver beside the wall at y = 0, facing +y): the
    stick pushed away drives the robot towards +y, in rate mode and in heading mode, whose
    heading stick is not turned; alliance-relative on red, the same stick drives it to -y."""
    pad = Pad()
    side = (
        SwerveInput.from_xbox(pad)
        .with_deadband(0.1)
        .with_translation_heading_offset(Rotation2d.fromDegrees(90.0))
    )
    with simulated() as h:
        pad.ly = -0.4  # pushed away from the driver
        h.run(1.5, side.apply)
        truth = h.sim.true_pose
        print(f"\n[side driver] rate mode: {truth}")
        assert truth.Y() > 0.8 and abs(truth.X()) < 0.05, truth
        assert abs(truth.rotation().degrees()) < 2.0
        pad.rx = -1.0  # heading stick left: face +90°, the stick's own direction
        start = truth.translation()
        h.run(2.0, side.heading_mode().apply)
        truth = h.sim.true_pose
        print(f"[side driver] heading mode: {truth}")
        moved = truth.translation() - start
        # towards +y (within the skew of a quarter turn made while translating: 2.5°)
        assert moved.Y() > 1.0 and abs(math.degrees(math.atan2(moved.X(), moved.Y()))) < 5.0
        assert abs(truth.rotation().degrees() - 90.0) < 3.0, truth
        pad.rx, pad.ly = 0.0, 0.0
        h.run(0.5, side.apply)
        start = h.sim.true_pose.translation()
        red = side.alliance_relative_mode(is_red=lambda: True)
        pad.ly = -0.4
        h.run(1.5, red.apply)
        moved = h.sim.true_pose.translation() - start
        print(f"[side driver] alliance-relative on red: moved {moved}")
        assert moved.Y() < -0.8 and abs(moved.X()) < 0.05, moved
