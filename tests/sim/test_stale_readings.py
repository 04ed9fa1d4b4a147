"""Readings that stop changing while they should (issue 12 items 3 and 8 of the soak): a device
whose last value is still reported as fine after it stopped answering (phoenix6 keeps an OK status
for a few hundred milliseconds after a device drops off the bus), or a late frame."""

from __future__ import annotations

import math
from typing import Any

import pytest
from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModuleState

from tests.drive.harness import Harness, ImuOutage, simulated
from tests.sim import alert_texts


def heading_error_deg(h: Harness, zero_deg: float = 0.0) -> float:
    estimate = h.drive.get_heading().degrees()
    return abs((estimate - (h.sim.true_yaw_deg - zero_deg) + 180.0) % 360.0 - 180.0)


class Frozen:
    """Makes a getter return the value it had when frozen, until thawed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
        self.read = getattr(owner, name)
        self.value: float | None = None
        monkeypatch.setattr(owner, name, self)

    def __call__(self) -> float:
        return self.read() if self.value is None else self.value

    def freeze(self) -> None:
        self.value = self.read()

    def thaw(self) -> None:
        self.value = None


def spin(drive: Any) -> None:
    drive.drive(ChassisSpeeds(0.5, 0.0, 2.0), field_relative=True)


def test_a_frozen_imu_reading_is_not_believed_while_the_wheels_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with simulated() as h:
        frozen = Frozen(monkeypatch, h.drive.imu, "get_raw_yaw_degrees")
        h.run(0.5, spin)
        frozen.freeze()
        worst = 0.0

        def watch(drive: Any) -> None:
            nonlocal worst
            worst = max(worst, heading_error_deg(h))
            spin(drive)

        h.run(1.0, watch)  # 115° of turn with the IMU's reading stuck
        assert worst < 3.0, worst
        assert any("IMU reading frozen" in t for t in alert_texts(("warnings",)))
        frozen.thaw()
        h.run(0.5, spin)
        assert heading_error_deg(h) < 0.5  # back on the IMU, which kept counting
        assert not any("IMU reading frozen" in t for t in alert_texts(("warnings",)))
        monkeypatch.undo()


def test_a_frozen_imu_that_stays_frozen_after_the_robot_stops_is_still_not_believed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with simulated() as h:
        frozen = Frozen(monkeypatch, h.drive.imu, "get_raw_yaw_degrees")
        h.run(0.2, spin)
        frozen.freeze()
        h.run(1.0, spin)
        h.run(1.0, lambda d: d.drive(ChassisSpeeds()))
        assert heading_error_deg(h) < 3.0
        monkeypatch.undo()


def test_zero_heading_while_the_imu_is_away_holds_after_it_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reset defines the heading on the wheels' yaw: the IMU must not shift it on return."""
    with simulated() as h:
        h.run(0.5, spin)
        ImuOutage(h.drive, monkeypatch, loops=155)
        h.run(3.0, spin)  # the wheels alone: they drift a little
        h.drive.zero_heading()
        zero = h.sim.true_yaw_deg
        h.run(1.1, spin)  # back after 0.1 s more
        assert heading_error_deg(h, zero) < 0.5
        monkeypatch.undo()


def test_a_frozen_absolute_encoder_hands_over_to_the_angle_motor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with simulated() as h:
        module = h.drive.modules[1]
        frozen = Frozen(monkeypatch, module.encoder, "get_absolute_degrees")
        h.run(0.5, lambda d: d.set_module_states([SwerveModuleState(0.5, Rotation2d())] * 4))
        frozen.freeze()
        turned = Rotation2d.fromDegrees(120.0)
        h.run(1.0, lambda d: d.set_module_states([SwerveModuleState(0.5, turned)] * 4))
        true_angle = h.sim.true_module_angles[module.name].degrees()
        error = abs((module.angle_deg - true_angle + 180.0) % 360.0 - 180.0)
        assert error < 3.0, (module.angle_deg, true_angle)
        assert abs(math.remainder(true_angle - 120.0, 180.0)) < 5.0  # it did turn (or to -60°)
        assert module.absolute_read_issue
        assert any("reading frozen" in t for t in alert_texts(("warnings",)))
        h.run(1.0, lambda d: d.set_module_states([SwerveModuleState(0.0, turned)] * 4))
        assert module.absolute_read_issue  # still frozen: not believed while stopped either
        frozen.thaw()
        h.run(0.2, lambda d: d.set_module_states([SwerveModuleState(0.5, turned)] * 4))
        assert not module.absolute_read_issue
        assert math.isfinite(module.angle_deg)
        monkeypatch.undo()


@pytest.mark.parametrize("dt", [math.nan, math.inf, -1.0, 1e308])
def test_the_simulation_takes_no_poison_from_its_time_step(dt: float) -> None:
    with simulated() as h:
        h.sim.step(dt)
        h.run(0.2, spin)
        pose = h.sim.true_pose
        assert math.isfinite(pose.X()) and math.isfinite(pose.rotation().radians())
        assert math.isfinite(h.sim.true_yaw_deg)
