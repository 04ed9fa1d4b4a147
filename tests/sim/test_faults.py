"""Faults at run time never stop the loop (issue 8 item 1), in simulation."""

from __future__ import annotations

import math
from typing import Any

import pytest
from wpimath.kinematics import ChassisSpeeds

from tests.drive.harness import simulated
from tests.sim import alert_texts


def forward(drive: Any) -> None:
    drive.drive(ChassisSpeeds(1.0, 0.0, 0.0), field_relative=True)


def finite_pose(drive: Any) -> bool:
    pose = drive.get_pose()
    return all(math.isfinite(v) for v in (pose.X(), pose.Y(), pose.rotation().radians()))


def silence_spark(monkeypatch: pytest.MonkeyPatch, motor: Any) -> float:
    """Make a simulated Spark behave as one that stopped answering (REV's simulator cannot
    disconnect one): REVLib goes on answering its last frame, so the position freezes where it
    is, and the Spark's last error, read by its health check, says it did not answer. Undone by
    ``monkeypatch.undo()``. Returns the frozen position."""
    from swervelib.devices.rev import motor as rev_motor

    frozen: float = motor.get_position()
    real_answer = rev_motor.answer_problem

    def not_answering(spark: Any, problems: dict[str, str]) -> None:
        if spark is motor.spark:
            problems[rev_motor.ANSWER] = "not answering (kCANTimeout)"
        else:
            real_answer(spark, problems)

    monkeypatch.setattr(rev_motor, "answer_problem", not_answering)
    monkeypatch.setattr(motor, "_read_position", lambda: frozen)
    return frozen


def test_motor_that_raises_is_reported_and_the_loop_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with simulated() as h:
        motor = h.drive.modules[0].drive_motor

        def dead() -> float:
            raise RuntimeError("CAN frame not received")

        monkeypatch.setattr(motor, "get_position", dead)
        monkeypatch.setattr(motor, "set_velocity", lambda *_: (_ for _ in ()).throw(OSError("bus")))
        h.run(1.0, forward)
        assert finite_pose(h.drive)
        assert h.drive.get_pose().X() > 0.4  # the other three modules keep the odometry going
        texts = alert_texts()
        assert any(
            "frontleft module" in t and "drive position raised RuntimeError" in t for t in texts
        )
        assert any("drive command raised OSError" in t for t in texts), texts
        monkeypatch.undo()
        h.run(0.2, forward)
        assert not any("frontleft module: drive" in t for t in alert_texts())


def test_nan_readings_never_reach_the_pose_or_the_motors(monkeypatch: pytest.MonkeyPatch) -> None:
    with simulated() as h:
        module = h.drive.modules[1]
        commands: list[tuple[float, float]] = []
        real = module.drive_motor.set_velocity
        monkeypatch.setattr(module.drive_motor, "get_velocity", lambda: math.nan)
        monkeypatch.setattr(module.angle_motor, "get_position", lambda: math.inf)
        monkeypatch.setattr(module.encoder, "get_absolute_degrees", lambda: math.nan)

        def record(speed: float, volts: float) -> None:
            commands.append((speed, volts))
            real(speed, volts)

        monkeypatch.setattr(module.drive_motor, "set_velocity", record)
        h.run(1.0, forward)
        assert finite_pose(h.drive)
        assert commands and all(math.isfinite(a) and math.isfinite(b) for a, b in commands)
        assert module.absolute_read_issue  # a NaN absolute reading is a fault


def test_absolute_encoder_fault_falls_back_without_a_jump(monkeypatch: pytest.MonkeyPatch) -> None:
    with simulated() as h:
        module = h.drive.modules[2]
        h.run(0.5, lambda d: d.drive(ChassisSpeeds(0.0, 0.5, 0.0)))
        before = module.angle_deg
        # The sensor breaks: the Spark reports garbage for the encoder on its data port. (A REV
        # sensor-fault bit cannot stand in: REV's simulator then stops the whole Spark.)
        encoder_sim = module.encoder.sim

        def broken(rotations: float, rotations_per_second: float) -> None:
            encoder_sim.vendor_sim.setPosition(math.nan)

        monkeypatch.setattr(encoder_sim, "set_raw", broken)
        h.run(0.04, lambda d: d.drive(ChassisSpeeds(0.0, 0.5, 0.0)))
        assert module.absolute_read_issue
        assert abs((module.angle_deg - before + 180) % 360 - 180) < 2.0  # no jump
        h.run(1.5, lambda d: d.drive(ChassisSpeeds(0.5, 0.0, 0.0)))  # keeps steering on relative
        true = h.sim.true_module_angles[module.name].degrees()
        assert abs((module.angle_deg - true + 180) % 360 - 180) < 3.0
        assert abs((true + 180) % 360 - 180) < 5.0 or abs(abs(true) - 180) < 5.0
        assert any("absolute encoder unusable" in t for t in alert_texts())
        # The encoder's own Alert says why, from its fault check (one device per loop, in turn).
        assert any(module.encoder.label in t and "nan" in t for t in alert_texts())
        monkeypatch.undo()
        h.run(0.1)
        assert not module.absolute_read_issue
        assert not any("backleft module: absolute encoder unusable" in t for t in alert_texts())


def test_imu_disconnect_keeps_a_heading_from_the_wheels() -> None:
    with simulated() as h:
        h.drive.imu.sim.set_connected(False)
        h.run(1.5, lambda d: d.drive(ChassisSpeeds(0.0, 0.0, 1.0)))
        true_yaw = h.sim.true_yaw_deg
        heading = h.drive.get_heading().degrees()
        assert true_yaw > 45.0
        assert abs((heading - true_yaw + 180) % 360 - 180) < 8.0, (heading, true_yaw)
        assert any("heading from wheel odometry" in t for t in alert_texts())
        h.drive.imu.sim.set_connected(True)
        h.run(0.5, lambda d: d.drive(ChassisSpeeds()))
        heading_after = h.drive.get_heading().degrees()
        assert abs((heading_after - h.sim.true_yaw_deg + 180) % 360 - 180) < 8.0
        assert not any("heading from wheel odometry" in t for t in alert_texts())


def test_absolute_encoder_that_raises_hands_over_to_the_relative_encoder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with simulated() as h:
        module = h.drive.modules[3]
        h.run(0.3, lambda d: d.drive(ChassisSpeeds(0.5, 0.0, 0.0)))

        def dead() -> float:
            raise RuntimeError("no frame")

        monkeypatch.setattr(module.encoder, "get_absolute_degrees", dead)
        h.run(0.5, lambda d: d.drive(ChassisSpeeds(0.5, 0.0, 0.0)))
        assert module.absolute_read_issue
        assert math.isfinite(module.angle_deg) and finite_pose(h.drive)
        true = h.sim.true_module_angles[module.name].degrees()
        assert abs((module.angle_deg - true + 180) % 360 - 180) < 3.0
        assert any("absolute encoder raised RuntimeError" in t for t in alert_texts())
        monkeypatch.undo()
        h.run(0.1, lambda d: d.drive(ChassisSpeeds(0.5, 0.0, 0.0)))
        assert not module.absolute_read_issue
        assert not any("absolute encoder raised" in t for t in alert_texts())


def test_an_angle_motor_that_stops_on_a_fault_is_not_blamed_on_the_pid() -> None:
    """An angle Spark that reports a fault (REV's simulator then stops it, as the controller
    does) cannot steer: its own Alert names it, and the drive's diagnostics do not tell the team to
    tune the angle PID (they did, within a second of driving at an angle)."""
    import rev

    with simulated() as h:
        module = h.drive.modules[0]
        faults = module.angle_motor.sim.vendor_sim.getFaultManager()
        h.run(0.3, forward)
        faults.setFaults(rev.SparkBase.Faults(0x20))  # gate driver
        try:
            at_an_angle = ChassisSpeeds(math.cos(0.6), math.sin(0.6), 0.0)
            h.run(2.0, lambda d: d.drive(at_an_angle))
            texts = alert_texts()
            assert any("frontleft angle motor" in t and "faults: gateDriver" in t for t in texts), (
                texts
            )
            assert module.name not in h.drive.diagnostics.stalled
            assert not any("frontleft module tuning" in t for t in texts), texts
            assert module.name not in h.drive.diagnostics.runaway
            assert finite_pose(h.drive)
            assert module.angle_motor_fault == "faults: gateDriver"
        finally:
            faults.setFaults(rev.SparkBase.Faults(0))
        h.run(1.5, lambda d: d.drive(at_an_angle))
        assert module.angle_motor_fault is None
        assert not any("frontleft angle motor" in t for t in alert_texts())
        assert abs(module.angle_deg - math.degrees(0.6)) < 3.0


def test_a_drive_reading_lost_and_back_keeps_the_pose_on_track_without_a_jump(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Spark that stops answering: REVLib goes on answering its last frame (the position
    freezes) and the Spark's last error says it did not answer, which its health check (about
    once a second) reads. From then until the health check finds it answering again, the drive
    estimates the wheel from the other modules and the gyro; when its reading comes back, two
    metres ahead of the frozen one, the pose goes on from where it was (largest step 0.024 m in
    a loop, at 1 m/s). Before, the estimator took that whole distance in one loop: the pose
    jumped 0.30 m forward (having fallen 0.28 m behind meanwhile). What was lost before the
    health check found the Spark silent (0.11 m here) is made up once it answers, 0.02 m of the
    wheel's distance a loop at most."""
    with simulated() as h:
        drive = h.drive
        motor = drive.modules[0].drive_motor
        h.run(0.5, forward)
        silence_spark(monkeypatch, motor)
        h.run(1.2, forward)  # its health check runs about once a second

        def error() -> float:
            return drive.get_pose().translation().distance(h.sim.true_pose.translation())

        error_before = error()
        steps: list[float] = []
        last = drive.get_pose().X()
        monkeypatch.undo()  # the Spark answers again: its reading jumps to where the wheel is
        for _ in range(100):
            h.loop(forward)
            steps.append(drive.get_pose().X() - last)
            last = drive.get_pose().X()
        h.observe()
        print(
            f"\n[reading back] largest step {max(steps):.4f} m, error {error_before:.3f} m "
            f"before, {error():.3f} m after"
        )
        assert max(steps) < 0.03, max(steps)  # 1 m/s: 0.02 m per loop
        assert error() < error_before + 0.03, (error(), error_before)
        assert not drive.stand_in.estimated
        assert not any(t.startswith("Swerve odometry") for t in alert_texts(("warnings",)))


def _turning(drive: Any) -> None:
    drive.drive(ChassisSpeeds(1.0, 0.3, 0.6), field_relative=True)


def _worst_step(h: Any, loops: int) -> float:
    """Robot loops; the largest difference between a loop's pose step and the robot's."""
    worst = 0.0
    for _ in range(loops):
        before, truth = h.drive.get_pose().translation(), h.sim.true_pose.translation()
        h.loop(_turning)
        h.observe()
        step = h.drive.get_pose().translation() - before
        worst = max(worst, step.distance(h.sim.true_pose.translation() - truth))
    return worst


def _until_settled(h: Any, most: int) -> float:
    """Robot loops until every drive reading is live again and every offset is back to zero (the
    health checks' rotation decides when a Spark is found answering again: up to 52 loops after
    it answers, depending on where the rotation stands), at most ``most`` loops; the worst step
    (:func:`_worst_step`) meanwhile."""
    stand_in = h.drive.stand_in
    worst = 0.0
    for _ in range(most):
        if not stand_in.estimated and not any(stand_in.offsets):
            return worst
        worst = max(worst, _worst_step(h, 1))
    raise AssertionError(f"not settled in {most} loops: {stand_in.estimated} {stand_in.offsets}")


def _pose_error(h: Any) -> float:
    return float(h.drive.get_pose().translation().distance(h.sim.true_pose.translation()))


def test_a_drive_reading_lost_and_back_many_times_does_not_drift(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Spark silent for 1.2 s, then answering for 1.2 s, fifteen times, while the robot drives
    and turns. Each time, what it rolled before its health check found it silent was counted as
    standing still, and the stand-in's offset then took up its reading's catch-up for good: the
    pose drifted 2.1 m from the robot (the offset at -8.4 m). Once live, the offset now goes
    back to zero (0.02 m a loop at most): 0.16 m, and still no jump."""
    with simulated() as h:
        h.run(0.5, _turning)
        motor = h.drive.modules[1].drive_motor
        worst = 0.0
        for _ in range(15):
            silence_spark(monkeypatch, motor)
            worst = max(worst, _worst_step(h, 60))
            monkeypatch.undo()
            worst = max(worst, _worst_step(h, 60))
        worst = max(worst, _until_settled(h, 200))
        error = _pose_error(h)
        print(f"\n[lost and back x15] pose error {error:.3f} m, worst step {worst:.3f} m")
        assert error < 0.3, error
        assert worst < 0.03, worst  # 0.02 m a loop at most


def test_three_dead_drive_readings_back_bring_the_pose_back() -> None:
    """Three Sparks silent for 2 s: the pose, from the last wheel and the gyro, is 0.20 m off
    (mostly what they rolled before their health checks found them silent); when they answer,
    the distance their readings caught up on now comes back into odometry (it stayed out: 0.21 m
    off 2 s later, 0.02 m now)."""
    with simulated() as h, pytest.MonkeyPatch.context() as patch:
        h.run(0.5, _turning)
        # The health checks run when this test says, not where their rotation happens to stand
        # (which earlier tests decide): the Sparks go unnoticed for half a second, then are found
        # silent, and found answering as soon as they answer.
        checks = h.drive.health_checks
        patch.setitem(vars(checks), "run_next", lambda: None)  # (undone: deleted)
        for module in h.drive.modules[:3]:
            silence_spark(patch, module.drive_motor)
        _worst_step(h, 25)
        checks.run_all()
        assert h.drive.stand_in.estimated == {0, 1, 2}
        _worst_step(h, 75)
        while_dead = _pose_error(h)
        patch.undo()
        checks.run_all()
        assert not h.drive.stand_in.estimated
        worst = _until_settled(h, 200)
        error = _pose_error(h)
        print(f"\n[three back] pose error {while_dead:.3f} m dead, {error:.3f} m back")
        assert error < 0.05, (while_dead, error)
        assert worst < 0.03, worst


def test_a_pose_reset_while_a_wheel_is_estimated_is_kept_when_it_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """reset_pose while a Spark is silent: its catch-up, when it answers, is partly from before
    the reset, so its offset stays (0.009 m off 2 s later, as before the offset went back to zero
    after a loss; with it going back to zero, 0.056 m)."""
    with simulated() as h:
        h.run(0.5, _turning)
        silence_spark(monkeypatch, h.drive.modules[0].drive_motor)
        h.run(1.5, _turning)
        h.drive.reset_pose(h.sim.true_pose)
        _worst_step(h, 50)
        monkeypatch.undo()
        worst = _worst_step(h, 100)
        error = _pose_error(h)
        print(f"\n[reset while estimated] pose error {error:.3f} m")
        assert error < 0.03, error
        assert worst < 0.03, worst


def test_a_frozen_drive_reading_is_named_on_an_alert_and_estimated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While a Spark does not answer, the warning Alert names the module whose wheel distance is
    estimated, and the pose keeps up with the robot after its health check found it: 1.880 m
    for 1.880 m driven in 2 s (before: 1.410 m, the frozen wheel a quarter of the odometry)."""
    with simulated() as h:
        drive = h.drive
        motor = drive.modules[2].drive_motor
        h.run(0.5, forward)
        frozen = silence_spark(monkeypatch, motor)

        h.run(1.2, forward)  # its health check runs about once a second
        start_true, start_pose = h.sim.true_pose.X(), drive.get_pose().X()
        h.run(2.0, forward)
        moved_true, moved_pose = h.sim.true_pose.X() - start_true, drive.get_pose().X() - start_pose
        print(f"\n[frozen reading] 2 s: robot {moved_true:.3f} m, odometry {moved_pose:.3f} m")
        assert moved_true > 1.5, moved_true
        assert moved_pose == pytest.approx(moved_true, abs=0.02)
        assert drive.modules[2].raw_drive_m == frozen  # shown as read
        texts = alert_texts(("warnings",))
        assert any(
            t.startswith("Swerve odometry: drive reading not live on backleft") for t in texts
        ), texts
        monkeypatch.undo()  # it answers again: its health check finds it (the drive is shared)
        h.run(1.2, forward)
        assert not drive.stand_in.estimated


def test_with_the_imu_out_too_the_heading_comes_from_the_live_wheels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Spark silent (its reading frozen) and then the IMU out as well, driving at 1 m/s while
    turning at 0.6 rad/s: the heading follows the wheels' turn, worked out from the three live
    modules. From all four, the frozen wheel included, it drifted 6.3° in 3 s and the position
    0.57 m; now 0.01° and nothing."""

    def turning(drive: Any) -> None:
        drive.drive(ChassisSpeeds(1.0, 0.0, 0.6), field_relative=True)

    with simulated() as h:
        drive = h.drive
        motor = drive.modules[0].drive_motor
        h.run(0.5, turning)
        silence_spark(monkeypatch, motor)

        def imu_out() -> float:
            raise RuntimeError("IMU not answering")

        h.run(1.2, turning)  # its health check runs about once a second
        assert drive.stand_in.estimated == {0}
        monkeypatch.setattr(drive.imu, "get_raw_yaw_degrees", imu_out)

        def errors() -> tuple[float, float]:
            pose, true = drive.get_pose(), h.sim.true_pose
            turn = (pose.rotation() - true.rotation()).degrees()
            return pose.translation().distance(true.translation()), abs(turn)

        position_before, _ = errors()
        h.run(3.0, turning)
        position, heading = errors()
        print(
            f"\n[imu out too] heading {heading:.2f}°, position {position_before:.3f} -> "
            f"{position:.3f} m"
        )
        assert not drive.yaw.imu_ok
        assert heading < 0.5, heading
        assert position < position_before + 0.03, (position, position_before)
        monkeypatch.undo()  # both answer again (the drive is shared by the session's tests)
        h.run(1.2, turning)
        assert not drive.stand_in.estimated and drive.yaw.imu_ok
