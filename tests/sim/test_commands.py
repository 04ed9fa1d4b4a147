"""swervelib.commands: the drive as a commands2 subsystem, run by the scheduler the way a
command-based robot runs (the scheduler runs the subsystem's periodic(), then the commands; then
time passes), judged on the simulated truth."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from wpimath.geometry import Rotation2d

from swervelib.commands import SwerveSubsystem
from tests.drive.harness import Harness, simulated
from tests.sim.scheduled import run, subsystem_for


@pytest.fixture
def robot() -> Iterator[tuple[Harness, SwerveSubsystem]]:
    with simulated() as h, subsystem_for(h) as subsystem:
        yield h, subsystem


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


@pytest.mark.parametrize("held_s", [6.0, 0.3])
def test_wheel_radius_command_measures_worn_wheels_while_held(
    held_s: float, capsys: pytest.CaptureFixture[str]
) -> None:
    worn = 0.0745  # metres: the configuration says 3 in (0.0762)
    with simulated(true_wheel_diameter_m=worn) as h, subsystem_for(h) as subsystem:
        command = subsystem.wheel_radius_command()
        command.schedule()
        run(h, held_s)
        spun = h.sim.true_pose.rotation().radians()
        command.cancel()  # the button is let go
        run(h, 0.5)
        out = capsys.readouterr().out
        result = subsystem.last_wheel_diameter
        if held_s < 1.0:  # not a quarter turn: nothing measured, and it says why
            assert result is None and "wheel diameter not measured" in out
            return
        assert abs(spun) > 0.5  # it did spin
        assert result is not None and abs(result.diameter_m - worn) < 0.0015, result
        assert f"wheel diameter {result.diameter_in:.3f} in" in out and "configured 3.000 in" in out
        assert all(abs(m.get_state().speed) < 0.05 for m in h.drive.modules)  # stopped
