"""swervelib.commands: the drive as a commands2 subsystem, run by the scheduler the way a
command-based robot runs (the scheduler runs the subsystem's periodic(), then the commands; then
time passes), judged on the simulated truth."""

from __future__ import annotations

from collections.abc import Iterator

import commands2
import pytest
from wpilib.simulation import stepTiming
from wpimath.geometry import Rotation2d

from swervelib.commands import SwerveSubsystem
from tests.drive.harness import LOOP, Harness, simulated
from tests.waits import PATIENCE_S


@pytest.fixture
def robot() -> Iterator[tuple[Harness, SwerveSubsystem]]:
    with simulated() as h:
        subsystem = SwerveSubsystem(h.drive)
        try:
            yield h, subsystem
        finally:
            scheduler = commands2.CommandScheduler.getInstance()
            scheduler.cancelAll()
            scheduler.unregisterAllSubsystems()


def run(h: Harness, seconds: float) -> None:
    scheduler = commands2.CommandScheduler.getInstance()
    for _ in range(round(seconds / LOOP)):
        scheduler.run()
        h.sim.step(LOOP)
        stepTiming(LOOP)
        assert h.sim.wait_for_readings(PATIENCE_S)


def test_drive_command_drives_field_relative(robot: tuple[Harness, SwerveSubsystem]) -> None:
    h, subsystem = robot
    h.sim.rotate_robot_by_hand(90.0)  # facing left: field-relative forward is still +x
    run(h, 0.1)
    subsystem.drive_command(lambda: 1.0, lambda: 0.0, lambda: 0.0).schedule()
    run(h, 1.5)
    truth = h.sim.true_pose
    assert truth.X() > 0.9 and abs(truth.Y()) < 0.1, truth


def test_heading_command_holds_a_heading(robot: tuple[Harness, SwerveSubsystem]) -> None:
    h, subsystem = robot
    subsystem.heading_command(
        lambda: 0.0, lambda: 0.0, lambda: Rotation2d.fromDegrees(90)
    ).schedule()
    run(h, 2.0)
    assert abs(h.sim.true_pose.rotation().degrees() - 90.0) < 2.0


def test_lock_and_zero_heading(robot: tuple[Harness, SwerveSubsystem]) -> None:
    h, subsystem = robot
    subsystem.lock_command().schedule()
    run(h, 0.6)
    for module in h.drive.modules:
        toward_centre = module.location.angle().degrees()
        error = (module.get_angle().degrees() - toward_centre + 90.0) % 180.0 - 90.0
        assert abs(error) < 3.0, (module.name, module.get_angle())
    h.sim.rotate_robot_by_hand(30.0)
    run(h, 0.1)
    subsystem.zero_heading_command().schedule()
    run(h, 0.1)
    assert abs(h.drive.get_heading().degrees()) < 0.5


def test_the_sysid_commands_come_in_sysids_order(robot: tuple[Harness, SwerveSubsystem]) -> None:
    _, subsystem = robot
    commands = subsystem.sysid_commands(subsystem.sysid_drive())
    assert len(commands) == 4
    assert all(subsystem in c.getRequirements() for c in commands)
    assert subsystem.sysid_drive() is subsystem.sysid_drive()
