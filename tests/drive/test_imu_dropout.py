"""A flaky IMU costs (almost) nothing; a rebooted one does not make the heading jump (issue 12 item 3).

Run through the robot's own loop order: ``periodic()``, then the command, then the physics, then
time passes. (A harness that calls an extra ``periodic()`` without a time step hides the bug this
guards against: the rotation of the loop in which the IMU came back was dropped.)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from tests.drive.harness import Harness, ImuOutage, simulated


def heading_error_deg(h: Harness) -> float:
    estimate = h.drive.get_heading().degrees()
    return abs((estimate - h.sim.true_yaw_deg + 180.0) % 360.0 - 180.0)


def random_driving(seed: int) -> Callable[[SwerveDrive], None]:
    """Field-relative driving that changes every second: up to 2 m/s and 3 rad/s."""
    rng = random.Random(seed)
    state = {"loops": 0, "speeds": ChassisSpeeds()}

    def command(drive: SwerveDrive) -> None:
        if state["loops"] % 50 == 0:
            state["speeds"] = ChassisSpeeds(
                rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0), rng.uniform(-3.0, 3.0)
            )
        state["loops"] += 1  # type: ignore[operator]
        drive.drive(state["speeds"], field_relative=True)  # type: ignore[arg-type]

    return command


class Watch:
    """A command that also notes the worst heading error seen before each loop's command."""

    def __init__(self, h: Harness, command: Callable[[SwerveDrive], None]) -> None:
        self.h = h
        self.command = command
        self.worst = 0.0

    def __call__(self, drive: SwerveDrive) -> None:
        self.worst = max(self.worst, heading_error_deg(self.h))
        self.command(drive)


def flaky(drive: SwerveDrive, monkeypatch: pytest.MonkeyPatch, failing: float, seed: int) -> None:
    """A fraction ``failing`` of the IMU's readings fail (the read raises, as a lost CAN frame)."""
    rng = random.Random(seed)
    read = drive.imu.get_raw_yaw_degrees

    def reading() -> float:
        if rng.random() < failing:
            raise RuntimeError("IMU frame not received")
        return read()

    monkeypatch.setattr(drive.imu, "get_raw_yaw_degrees", reading)


@pytest.mark.parametrize("failing", [0.01, 0.05, 0.20])
def test_failing_imu_reads_cost_almost_nothing(
    failing: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ideal wheels: this measures the library's fallback on wheel odometry, not tyre slip
    with simulated(traction=False) as h:
        flaky(h.drive, monkeypatch, failing, seed=12)
        watch = Watch(h, random_driving(7))
        h.run(60.0, watch)
        worst = watch.worst
        monkeypatch.undo()
        print(f"[imu dropout] {failing:.0%} failing reads: worst heading error {worst:.3f}°")
        assert worst < 2.0, f"heading {worst:.2f}° off the truth with {failing:.0%} failing reads"
        assert heading_error_deg(h) < 2.0


def test_an_imu_that_rebooted_does_not_make_the_heading_jump(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Away for two seconds (rebooting), back with its yaw reset: the heading carries on from
    the wheels."""
    with simulated() as h:
        h.run(2.0, random_driving(3))
        # After the reboot it reads about 3° where it read its old yaw.
        jump = -h.drive.imu.get_raw_yaw_degrees() + 3.0
        ImuOutage(h.drive, monkeypatch, loops=100, jump=jump)
        watch = Watch(h, random_driving(4))
        h.run(5.0, watch)
        worst = watch.worst
        monkeypatch.undo()
        print(f"[imu reboot] worst heading error {worst:.3f}°")
        assert worst < 3.0, f"heading {worst:.2f}° off after the IMU came back reset"
        assert math.isfinite(h.drive.get_heading().radians())


def test_imu_back_after_a_long_outage_agrees_with_the_wheels_and_keeps_its_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two seconds without the IMU while spinning: the wheels drift a little; when the IMU
    answers again it is believed (it kept counting), so the heading is exact again."""
    with simulated() as h:
        ImuOutage(h.drive, monkeypatch, loops=100)
        h.run(3.0, lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 2.0), field_relative=True))
        monkeypatch.undo()
        assert heading_error_deg(h) < 0.5


def test_a_short_outage_believes_the_imu_even_when_the_wheels_are_wrong(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Half a second away cannot be a reboot: the IMU is right, whatever the wheels say (a module
    on its fallback encoder can make their estimate far off)."""
    with simulated() as h:
        wheel_turn = h.drive.yaw.wheel_turn
        monkeypatch.setattr(h.drive.yaw, "wheel_turn", lambda d, a: 3.0 * wheel_turn(d, a))
        ImuOutage(h.drive, monkeypatch, loops=25)
        h.run(1.0, lambda d: d.drive(ChassisSpeeds(0.0, 0.0, 2.0)))
        monkeypatch.undo()
        assert heading_error_deg(h) < 0.5
