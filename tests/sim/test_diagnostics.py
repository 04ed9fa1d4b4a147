"""Misconfiguration detected while driving (issue 8 item 2), in simulation."""

from __future__ import annotations

import math
import random
from dataclasses import replace

from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from swervelib.sim import HardwareTruth
from tests.drive.harness import simulated
from tests.sim import alert_texts


def spin(drive: SwerveDrive) -> None:
    drive.drive(ChassisSpeeds(0.0, 0.0, 2.0))


def test_reversed_imu_is_reported_while_spinning() -> None:
    with simulated(truth=lambda t: replace(t, imu_reversed=True)) as h:
        h.run(2.0, spin)
        assert h.drive.diagnostics.imu_disagrees
        assert any("IMU yaw turns opposite to the wheels" in a for a in alert_texts(("errors",))), (
            alert_texts(("errors",))
        )


def test_reversed_imu_is_reported_with_nothing_published() -> None:
    """At telemetry NONE the heading check works out the wheels' rotation by itself (no loop
    snapshot is built): the same verdict."""
    with simulated(truth=lambda t: replace(t, imu_reversed=True)) as h:
        publishes = h.drive._publishes
        h.drive._publishes = False  # as at NONE (the shared drive publishes at HIGH)
        try:
            h.run(2.0, spin)
        finally:
            h.drive._publishes = publishes
        assert h.drive.diagnostics.imu_disagrees


def test_reversed_drive_motors_are_reported_while_spinning() -> None:
    def reversed_drives(truth: HardwareTruth) -> HardwareTruth:
        return replace(truth, corners=tuple(replace(c, drive_reversed=True) for c in truth.corners))

    with simulated(truth=reversed_drives) as h:
        h.run(2.0, spin)
        assert h.drive.diagnostics.imu_disagrees


def test_runaway_angle_motor_is_named() -> None:
    clock = [0.0]

    def circle(drive: SwerveDrive) -> None:
        clock[0] += 0.02
        drive.drive(ChassisSpeeds(0.5 * math.cos(clock[0]), 0.5 * math.sin(clock[0]), 0.0))

    with simulated(truth=lambda t: t.with_corner("backright", angle_reversed=True)) as h:
        h.run(4.0, circle)
        assert h.drive.diagnostics.runaway == {"backright"}
        (text,) = [a for a in alert_texts(("errors",)) if "backright angle is running away" in a]
        # Every flag that can cause it, the hint the raw readings give, and the tool that decides.
        for named in ("inverted.angle", "absoluteEncoderInverted", "conversionFactors.angle"):
            assert named in text, text
        assert "turn opposite ways" in text, text
        assert "python -m swervelib calibrate" in text, text
        h.drive.stop()
        h.run(3.0)  # not commanded: the alert clears
        assert h.drive.diagnostics.runaway == set()


def test_protective_stop_holds_point_wheels_at_too() -> None:
    """point_wheels_at turns the modules as drive() does, so a module running away spins on
    under it: with the protective stop on, it stops the drive as drive() does."""
    with simulated(truth=lambda t: t.with_corner("frontleft", angle_reversed=True)) as h:
        drive = h.drive
        drive.diagnostics.protective_stop = True
        point = Rotation2d.fromDegrees(60.0)
        counts = {"reported": 0, "steered": 0}

        def pointing(d: SwerveDrive) -> None:
            reported = bool(d.diagnostics.runaway)
            d.point_wheels_at(point)
            if reported:
                counts["reported"] += 1
                counts["steered"] += any(m.is_commanded for m in d.modules)

        try:
            turned = 0.0
            before = h.sim.true_module_angles["frontleft"]
            for _ in range(200):  # 4 s
                h.loop(pointing)
                now = h.sim.true_module_angles["frontleft"]
                turned += abs((now - before).degrees())
                before = now
            print(
                f"\n[protective stop, point_wheels_at] runaway reported in {counts['reported']} "
                f"loops, modules steered in {counts['steered']} of them; frontleft turned "
                f"{turned:.0f}° in 4 s"
            )
            assert counts["reported"] > 0
            assert counts["steered"] == 0  # before: every loop (the runaway spun on: 1310° in 4 s)
        finally:
            drive.diagnostics.protective_stop = False


def test_protective_stop_is_off_by_default_and_stops_when_on() -> None:
    with simulated(truth=lambda t: t.with_corner("frontleft", angle_reversed=True)) as h:
        assert h.drive.diagnostics.protective_stop is False
        h.drive.diagnostics.protective_stop = True
        try:
            h.run(3.0, lambda d: d.drive(ChassisSpeeds(0.5, 0.3, 0.0)))
            assert h.drive.diagnostics.runaway == {"frontleft"}
            assert all(m.speed_setpoint_mps == 0.0 for m in h.drive.modules)
        finally:
            h.drive.diagnostics.protective_stop = False


def test_no_false_alarm_on_a_correct_robot_driven_hard() -> None:
    rng = random.Random(20261123)
    command = [ChassisSpeeds()]

    def random_driving(drive: SwerveDrive) -> None:
        if rng.random() < 0.05:  # a new stick position every ~0.4 s on average
            top = drive.max_speed
            command[0] = ChassisSpeeds(
                rng.uniform(-top, top), rng.uniform(-top, top), rng.uniform(-6.0, 6.0)
            )
        drive.drive(command[0], field_relative=rng.random() < 0.5)

    with simulated() as h:
        for _ in range(30):  # 30 s of aggressive driving
            h.run(1.0, random_driving)
            assert not h.drive.diagnostics.imu_disagrees
            assert h.drive.diagnostics.runaway == set(), h.drive.diagnostics.runaway
            assert h.drive.diagnostics.stalled == set(), h.drive.diagnostics.stalled


def test_weak_angle_pid_under_scrub_is_reported_as_tuning() -> None:
    """Spec §1.8: the wheels turn the right way but stall short of their angle on the ground."""
    clock = [0.0]

    def zigzag(drive: SwerveDrive) -> None:  # the direction changes every second
        clock[0] += 0.02
        direction = 1.0 if int(clock[0]) % 2 == 0 else -1.0
        drive.drive(ChassisSpeeds(0.6, 0.6 * direction, 0.0))

    with simulated(steer_scrub_volts=4.0) as h:
        h.run(4.0, zigzag)
        assert h.drive.diagnostics.stalled, "no module reported as stalling under load"
        assert h.drive.diagnostics.runaway == set()  # it turns the right way: not an inversion
        assert any("tune the angle PID rather than invert" in a for a in alert_texts())
    with simulated() as h:  # the same driving on blocks (no scrub): nothing to report
        clock[0] = 0.0
        h.run(4.0, zigzag)
        assert h.drive.diagnostics.stalled == set()
