"""One DriveState per loop: taken in periodic(), the same object for every getter until the next
periodic(), handed to registered callbacks; and the drive switches YAGSL teams know."""

from __future__ import annotations

import math

import pytest
from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModuleState

from swervelib import SwerveDrive
from swervelib.drive.options import DriveOptions, SetpointLimits
from swervelib.drive.swerve_drive import DIAGNOSTICS_EVERY
from tests.drive.harness import LOOP, simulated
from tests.sim import alert_texts


def test_one_snapshot_per_loop_shared_by_every_getter() -> None:
    with simulated() as h:
        drive = h.drive
        h.run(0.4, lambda d: d.drive(ChassisSpeeds(1.0, 0.5, 0.3)))
        state = drive.get_state()
        assert drive.get_state() is state
        assert state.pose is drive.get_pose()
        assert drive.get_robot_relative_speeds() is state.speeds
        assert drive.get_module_states() == list(state.module_states)
        assert drive.get_module_positions() == list(state.module_positions)
        assert state.speeds.vx > 0.8 and state.module_states[0].speed != 0.0
        assert state.desired_speeds.vx == pytest.approx(1.0, abs=0.05)  # discretised
        assert len(state.module_targets) == 4
        assert state.raw_heading.degrees() == pytest.approx(drive.get_raw_yaw().degrees())
        before = state.timestamp
        drive.drive(ChassisSpeeds(0.0, 0.0, 0.0))
        assert drive.get_state() is state  # a command changes nothing already taken
        assert state.desired_speeds.vx == pytest.approx(1.0, abs=0.05)
        h.run(LOOP)  # one loop (and the final periodic)
        later = drive.get_state()
        assert later is not state and later.timestamp > before
        assert later.desired_speeds.vx == 0.0 and later.odometry_period == pytest.approx(LOOP)


def test_a_snapshot_first_asked_for_after_a_command_says_what_its_loop_read() -> None:
    """With nothing published and no callback (telemetry NONE), periodic() builds no DriveState;
    one first asked for later in the loop, after a new command, still holds that loop's values."""
    with simulated() as h:
        drive = h.drive
        publishes = drive._publishes
        drive._publishes = False  # as at NONE (the shared drive publishes at HIGH)
        try:

            def forward(d: SwerveDrive) -> None:
                d.drive(ChassisSpeeds(1.0, 0.0, 0.0))

            h.run(0.4, forward)
            for _ in range(DIAGNOSTICS_EVERY):  # every phase, the heading judgement's included
                h.run(LOOP, forward)
                assert drive._state is None  # periodic() built none
            pose, positions = drive.get_pose(), drive._positions
            drive.drive(ChassisSpeeds(0.0, 0.0, 0.0))  # a new command, then the first request
            state = drive.get_state()
            assert drive.get_state() is state
            assert state.desired_speeds.vx == pytest.approx(1.0, abs=0.05)  # the loop's command
            assert state.pose is pose and state.module_positions is positions
            assert state.speeds.vx > 0.8
            h.run(LOOP)
            assert drive.get_state() is not state
            assert drive.get_state().desired_speeds.vx == 0.0
        finally:
            drive._publishes = publishes


def test_callbacks_get_each_loops_state_and_a_failing_one_does_not_stop_the_loop() -> None:
    with simulated() as h:
        drive = h.drive
        seen: list[object] = []

        def broken(_: object) -> None:
            raise RuntimeError("logger bug")

        drive.register_telemetry(seen.append)
        drive.register_telemetry(broken)
        try:
            h.run(0.1, lambda d: d.drive(ChassisSpeeds(0.5, 0.0, 0.0)))
            # 5 loops, the first one's periodic() run before the callbacks were registered (the
            # harness ran it when the robot was set up), then the next loop's (Harness.observe)
            assert len(seen) == 5 and seen[-1] is drive.get_state()
            assert len({id(s) for s in seen}) == 5
            texts = alert_texts(("warnings",))
            assert any("Swerve telemetry callback: broken raised RuntimeError" in t for t in texts)
        finally:
            drive._telemetry_callbacks.clear()  # the drive is shared by the session's tests


def test_set_module_states_leaves_the_callers_states_alone() -> None:
    with simulated() as h:
        mine = [SwerveModuleState(1.0, Rotation2d.fromDegrees(170.0)) for _ in range(4)]
        h.drive.set_module_states(mine)  # the modules optimise their copies (reverse, -10°)
        assert all(s.speed == 1.0 and s.angle.degrees() == pytest.approx(170.0) for s in mine)


def test_the_switches_change_the_options_and_the_modules() -> None:
    with simulated() as h:
        drive = h.drive
        drive.set_heading_correction(True, 0.05)
        drive.set_angular_velocity_compensation(True, True, 0.07)
        drive.set_acceleration_limits(3.0, 6.0)
        drive.set_chassis_discretization(False, 0.01)
        limits = SetpointLimits(4.0, 10.0, 8.0)
        drive.set_setpoint_limits(limits)
        assert drive.options == DriveOptions(
            heading_correction=True,
            heading_correction_deadband=0.05,
            angular_velocity_compensation_teleop=True,
            angular_velocity_compensation_auto=True,
            angular_velocity_coefficient=0.07,
            max_linear_acceleration=3.0,
            max_angular_acceleration=6.0,
            discretize=False,
            setpoint_limits=limits,
        )
        assert drive.loop_period == 0.01
        drive.loop_period = LOOP
        drive.set_module_state_optimization(False)
        drive.set_anti_jitter(True, 0.2)
        assert all(m._hold_below_mps == 0.2 for m in drive.modules)
        with pytest.raises(ValueError, match="below_mps"):
            drive.set_anti_jitter(True, -1.0)
        drive.set_anti_jitter(False)
        assert not any(m.optimize or m.anti_jitter for m in drive.modules)
        h.run(
            0.3,
            lambda d: d.set_module_states(
                [SwerveModuleState(0.0, Rotation2d.fromDegrees(170.0))] * 4
            ),
        )
        # not optimised: the wheels really turn to 170° (optimised, they would stop at -10°)
        assert all(abs(m.get_angle().degrees() - 170.0) < 3.0 for m in drive.modules)
        with pytest.raises(TypeError):
            drive.options = {"heading_correction": True}  # type: ignore[assignment]
        with pytest.raises(ValueError, match="max_linear_acceleration"):
            drive.set_acceleration_limits(-1.0)
        for bad in (math.nan, math.inf, 1e308 * 10, 0.0):
            with pytest.raises(ValueError, match="dt must be"):
                drive.set_chassis_discretization(True, bad)
        assert drive.loop_period == LOOP
        with pytest.raises(ValueError, match="max_steer_velocity"):
            SetpointLimits(4.0, 0.0, 8.0)


def test_a_state_kept_for_later_still_says_what_its_loop_read() -> None:
    with simulated() as h:
        drive = h.drive
        h.run(0.3, lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 0.0)))
        kept = drive.get_state()  # not asked for its module states yet
        h.run(1.0, lambda d: d.drive(ChassisSpeeds(-1.0, 0.0, 0.0)))
        assert all(s.speed > 0.5 for s in kept.module_states)  # forward then, backward now
        assert kept.speeds.vx > 0.5 and drive.get_state().speeds.vx < -0.5
