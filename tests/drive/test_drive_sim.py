"""SwerveDrive in simulation: odometry, driving modes, lock, module counts (REV + navX sims)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from tests.drive.harness import REV_NAVX, polygon_config, simulated
from tests.sim import alert_texts


def drive_forward(speed: float = 1.0, field_relative: bool = True):
    return lambda d: d.drive(ChassisSpeeds(speed, 0.0, 0.0), field_relative=field_relative)


@pytest.mark.parametrize("start_deg", [0.0, 90.0, -135.0])
def test_field_relative_drive_moves_two_metres_in_the_field_direction(start_deg: float) -> None:
    start = Pose2d(0.0, 0.0, Rotation2d.fromDegrees(start_deg))
    with simulated(initial_pose=start, initial_yaw_deg=start_deg) as h:
        h.run(2.0, drive_forward())
        h.run(0.6, lambda d: d.drive(ChassisSpeeds()))
        pose = h.drive.get_pose()
        true = h.sim.true_pose
    # ~2 m along the field's x axis whatever the robot's heading (closed-loop lag costs a little)
    assert 1.6 < pose.X() < 2.2, pose
    assert abs(pose.Y()) < 0.1, pose
    assert abs(true.X() - pose.X()) < 0.03 and abs(true.Y() - pose.Y()) < 0.03
    assert abs((pose.rotation() - start.rotation()).degrees()) < 2.0


def test_robot_relative_drive_follows_the_robot_heading() -> None:
    start = Pose2d(0.0, 0.0, Rotation2d.fromDegrees(90.0))
    with simulated(initial_pose=start, initial_yaw_deg=90.0) as h:
        h.run(1.5, drive_forward(field_relative=False))
        pose = h.drive.get_pose()
    assert pose.Y() > 1.0 and abs(pose.X()) < 0.1, pose


def test_drive_facing_settles_on_the_target_heading() -> None:
    target = Rotation2d.fromDegrees(120.0)
    with simulated() as h:
        h.run(4.0, lambda d: d.drive_facing(0.0, 0.0, target))
        heading = h.drive.get_heading()
        true_deg = h.sim.true_yaw_deg
    assert abs((heading - target).degrees()) < 3.0, heading
    assert abs(true_deg - 120.0) < 4.0


def test_drive_facing_while_translating_field_relative() -> None:
    with simulated() as h:
        h.run(3.0, lambda d: d.drive_facing(0.0, 0.8, Rotation2d.fromDegrees(-90.0)))
        pose = h.drive.get_pose()
    assert pose.Y() > 1.5 and abs(pose.X()) < 0.25, pose
    assert abs(pose.rotation().degrees() + 90.0) < 5.0


def test_lock_points_the_wheels_in_an_x() -> None:
    with simulated() as h:
        h.run(1.0, lambda d: d.lock())
        drive, sim = h.drive, h.sim
        for module in drive.modules:
            toward_centre = module.location.angle().degrees()
            error = (module.get_angle().degrees() - toward_centre + 90.0) % 180.0 - 90.0
            assert abs(error) < 3.0, (module.name, module.get_angle())
            true = sim.true_module_angles[module.name].degrees()
            assert abs((true - toward_centre + 90.0) % 180.0 - 90.0) < 3.0
        assert sim.true_pose.translation().norm() < 0.02


def _off_line(angle_deg: float, direction_deg: float) -> float:
    """How far (degrees) a wheel at ``angle_deg`` is from the line of ``direction_deg``: a wheel
    facing the opposite way, reversed by optimisation, is on the line."""
    return abs((angle_deg - direction_deg + 90.0) % 180.0 - 90.0)


@pytest.mark.parametrize("direction_deg", [30.0, 150.0, -100.0])
def test_point_wheels_at_turns_every_wheel_the_short_way_without_moving(
    direction_deg: float,
) -> None:
    """phoenix6's PointWheelsAt: from every wheel forward, each turns at most 90° (150° is -30°
    with the drive reversed), at speed 0, and the robot stays where it was."""
    direction = Rotation2d.fromDegrees(direction_deg)
    with simulated() as h:
        h.run(0.5, lambda d: d.point_wheels_at(Rotation2d()))  # every wheel forward first
        drive, sim = h.drive, h.sim
        start = sim.true_pose
        starts = {m.name: m.get_angle().degrees() for m in drive.modules}
        assert all(abs(math.remainder(a, 360.0)) < 3.0 for a in starts.values()), starts
        commands = drive.command_count
        h.run(0.6, lambda d: d.point_wheels_at(direction))
        assert drive.command_count >= commands + 30  # one command per loop, as lock()
        for module in drive.modules:
            measured = module.get_angle().degrees()
            assert _off_line(measured, direction_deg) < 3.0, (module.name, measured)
            true = sim.true_module_angles[module.name].degrees()
            assert _off_line(true, direction_deg) < 3.0, (module.name, true)
            turned = abs(math.remainder(measured - starts[module.name], 360.0))
            assert turned < 90.0 + 3.0, (module.name, turned)  # the short way round
            assert module.speed_setpoint_mps == 0.0
        assert drive.get_state().desired == (0.0, 0.0, 0.0)
        moved = sim.true_pose.translation().distance(start.translation())
        turned_robot = abs((sim.true_pose.rotation() - start.rotation()).degrees())
        assert moved < 0.01 and turned_robot < 0.5, (moved, turned_robot)


def test_point_wheels_at_lasts_as_a_command_and_expires_quietly() -> None:
    """The command timeout as for lock(): held while renewed, then the modules stop with no
    expiry Alert (nothing was moving); the wheels stay pointed."""
    direction = Rotation2d.fromDegrees(60.0)
    with simulated() as h:
        h.run(0.6, lambda d: d.point_wheels_at(direction))
        drive = h.drive
        assert all(m.is_commanded for m in drive.modules)
        h.run(0.06)  # not renewed, within the timeout: held
        assert all(m.is_commanded for m in drive.modules)
        h.run(0.5)  # no command: expired after 0.1 s
        assert not any(m.is_commanded for m in drive.modules)  # stopped
        assert not any("Swerve command expired" in t for t in alert_texts(("warnings",)))
        for module in drive.modules:
            assert _off_line(module.get_angle().degrees(), 60.0) < 3.0, module.name
        assert h.sim.true_pose.translation().norm() < 0.01


@pytest.mark.parametrize("count", [2, 3, 4, 6])
def test_module_counts(tmp_path: Path, count: int) -> None:
    first_id = {2: 10, 3: 14, 4: 20, 6: 28}[count]  # CAN ids unique in the test session
    directory = polygon_config(tmp_path / "swerve", count, first_id=first_id)
    with simulated(directory) as h:
        assert len(h.drive.modules) == count
        h.run(1.5, drive_forward(0.8))
        pose = h.drive.get_pose()
        true = h.sim.true_pose
    assert 0.8 < pose.X() < 1.4, pose
    assert abs(pose.Y()) < 0.1 and abs(pose.rotation().degrees()) < 3.0
    assert pose.translation().distance(true.translation()) < 0.05


def test_unsupported_module_count_is_a_config_error(tmp_path: Path) -> None:
    from swervelib import ConfigError

    directory = polygon_config(tmp_path / "swerve", 5, first_id=40)
    with pytest.raises(ConfigError, match="2, 3, 4 or 6"):
        SwerveDrive.from_directory(directory)


def test_reset_pose_and_zero_heading_keep_odometry_consistent() -> None:
    with simulated(initial_yaw_deg=37.0) as h:
        drive = h.drive
        h.run(0.1)
        # The raw yaw is the IMU's own reading, never zeroed. The simulated navX is one device for
        # the whole process and keeps counting the whole turns earlier tests' robots made, as a
        # real navX counts until it is power-cycled: so 37° give or take whole turns.
        raw_start = drive.get_raw_yaw().degrees()
        assert abs(math.remainder(raw_start - 37.0, 360.0)) < 0.5
        assert abs(drive.get_heading().degrees()) < 0.5  # the pose starts facing 0
        drive.reset_pose(Pose2d(3.0, 2.0, Rotation2d.fromDegrees(45.0)))
        h.run(0.2)
        assert drive.get_pose().translation().distance(Translation2d(3.0, 2.0)) < 0.01
        assert abs(drive.get_heading().degrees() - 45.0) < 0.5
        h.sim.rotate_robot_by_hand(30.0)
        h.run(0.1)
        assert abs(drive.get_heading().degrees() - 75.0) < 0.5
        drive.zero_heading()
        h.run(0.1)
        assert abs(drive.get_heading().degrees()) < 0.5
        assert abs(drive.get_raw_yaw().degrees() - (raw_start + 30.0)) < 0.5  # still not zeroed


def test_measured_speeds_and_states() -> None:
    with simulated() as h:
        # the distances count on from earlier tests' driving (the drive is shared): this test's
        # roll is the difference
        start = [p.distance for p in h.drive.get_module_positions()]
        h.run(1.5, drive_forward(1.0, field_relative=False))
        robot = h.drive.get_robot_relative_speeds()
        field = h.drive.get_field_relative_speeds()
        states = h.drive.get_module_states()
        positions = h.drive.get_module_positions()
    assert 0.8 < robot.vx < 1.1 and abs(robot.vy) < 0.05
    assert math.isclose(field.vx, robot.vx, abs_tol=0.05)
    assert all(0.8 < s.speed < 1.1 for s in states)
    assert all(p.distance - s > 0.8 for p, s in zip(positions, start, strict=True))


def test_desaturation_caps_module_speed() -> None:
    with simulated() as h:
        h.run(0.5, lambda d: d.drive(ChassisSpeeds(50.0, 0.0, 20.0)))
        speeds = [m.speed_setpoint_mps for m in h.drive.modules]
        top = h.drive.max_speed
    assert max(abs(s) for s in speeds) <= top + 1e-6


def test_nan_command_stops_instead_of_reaching_the_motors() -> None:
    with simulated() as h:
        h.run(0.5, lambda d: d.drive(ChassisSpeeds(math.nan, 1.0, math.inf)))
        assert all(m.speed_setpoint_mps == 0.0 for m in h.drive.modules)
        assert h.sim.true_pose.translation().norm() < 0.01
        assert all(math.isfinite(v) for v in (h.drive.get_pose().X(), h.drive.get_pose().Y()))


def test_from_directory_default_max_speed_and_override() -> None:
    with simulated() as h:
        assert h.drive.max_speed == pytest.approx(h.drive.config.max_speed_mps)
    config = h.drive.config
    assert config.directory == str(REV_NAVX)


def test_vision_measurement_pulls_the_pose_towards_it() -> None:
    import wpilib

    with simulated() as h:
        h.run(0.2)
        now = wpilib.Timer.getFPGATimestamp()
        target = Pose2d(2.0, 1.0, Rotation2d())
        for _ in range(20):
            h.drive.add_vision_measurement(target, now, (0.01, 0.01, 0.01))
            h.run(0.02)
            now = wpilib.Timer.getFPGATimestamp()
        pose = h.drive.get_pose()
    assert pose.translation().distance(target.translation()) < 0.3, pose


def test_the_loop_state_is_in_slots_and_a_program_may_add_its_own_attributes() -> None:
    """Everything the drive and its modules set lives in their ``__slots__`` (an instance dict of
    more than 30 names is not CPython's compact shared-key dict, and every loop would search it),
    after loops that drive, turn and publish, and so does what the loop reads of the device
    adapters, the yaw tracker and the diagnostics (in the object itself, not in a values array
    elsewhere in memory); a robot program may still keep its own attributes on the drive, and
    the drive keeps working with them."""
    with simulated() as h:
        h.run(0.3, lambda d: d.drive(ChassisSpeeds(1.0, 0.5, 1.0), field_relative=True))
        drive = h.drive
        assert vars(drive) == {}, f"set outside __slots__: {sorted(vars(drive))}"
        for module in drive.modules:
            assert not hasattr(module, "__dict__"), module.name
            # the adapters keep what the loop reads in slots too (their set-up state in a dict)
            for adapter, loop_names in (
                (module.drive_motor, {"_last_position", "_last_velocity", "_read_position"}),
                (module.angle_motor, {"_problems", "_seed", "_set_setpoint"}),
                (module.encoder, {"_last_degrees", "_read_position", "usable"}),
            ):
                assert not loop_names & set(vars(adapter)), (module.name, adapter)
        assert not {"_last_yaw", "usable"} & set(vars(drive.imu))
        assert vars(drive.yaw) == {}, sorted(vars(drive.yaw))
        assert not {"_away_s", "_loops", "_observed_s"} & set(vars(drive.diagnostics))
        drive.team_note = "ours"  # type: ignore[attr-defined]
        h.run(0.1, drive_forward())
        assert drive.team_note == "ours"  # type: ignore[attr-defined]
        del drive.team_note  # type: ignore[attr-defined]
    assert h.drive.get_pose().X() > 0.05
