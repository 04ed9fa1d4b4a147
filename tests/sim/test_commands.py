"""swervelib.commands: the drive as a commands2 subsystem, run by the scheduler the way a
command-based robot runs (the scheduler runs the subsystem's periodic(), then the commands; then
time passes), judged on the simulated truth."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import commands2
import pytest
from hal import AllianceStationID
from wpilib.simulation import DriverStationSim
from wpimath.geometry import Rotation2d

from swervelib.commands import SwerveSubsystem
from tests.drive.harness import Harness, polygon_config, simulated
from tests.sim import alert_texts
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


def test_point_wheels_command_turns_the_wheels_while_it_runs(
    robot: tuple[Harness, SwerveSubsystem],
) -> None:
    h, subsystem = robot
    direction = [Rotation2d.fromDegrees(45.0)]
    command = subsystem.point_wheels_command(lambda: direction[0])
    assert command.getName() == "swerve point wheels"
    command.schedule()
    run(h, 0.5)
    direction[0] = Rotation2d.fromDegrees(-60.0)  # read every loop
    run(h, 0.5)
    for module in h.drive.modules:
        error = (module.get_angle().degrees() + 60.0 + 90.0) % 180.0 - 90.0
        assert abs(error) < 3.0, (module.name, module.get_angle())
    assert h.sim.true_pose.translation().norm() < 0.01
    command.cancel()
    fixed = subsystem.point_wheels_command(Rotation2d.fromDegrees(10.0))  # a plain direction
    fixed.schedule()
    run(h, 0.5)
    for module in h.drive.modules:
        error = (module.get_angle().degrees() - 10.0 + 90.0) % 180.0 - 90.0
        assert abs(error) < 3.0, (module.name, module.get_angle())


@pytest.mark.parametrize(
    ("station", "alliance_relative", "expected_deg"),
    [
        (AllianceStationID.kRed1, True, 180.0),
        (AllianceStationID.kBlue1, True, 0.0),
        (AllianceStationID.kRed1, False, 0.0),  # YAGSL's zeroGyro: 0 whatever the alliance
    ],
    ids=["red", "blue", "red-field"],
)
def test_zero_heading_faces_away_from_the_driver_on_either_alliance(
    robot: tuple[Harness, SwerveSubsystem],
    station: AllianceStationID,
    alliance_relative: bool,
    expected_deg: float,
) -> None:
    h, subsystem = robot
    h.sim.rotate_robot_by_hand(30.0)
    run(h, 0.1)
    before = DriverStationSim.getAllianceStationId()
    DriverStationSim.setAllianceStationId(station)
    DriverStationSim.notifyNewData()
    try:
        subsystem.zero_heading_command(alliance_relative=alliance_relative).schedule()
        run(h, 0.1)
        heading = h.drive.get_heading().degrees()
    finally:
        DriverStationSim.setAllianceStationId(before)
        DriverStationSim.notifyNewData()
    assert abs((heading - expected_deg + 180.0) % 360.0 - 180.0) < 0.5, heading


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


@pytest.mark.parametrize(
    "dead",
    [("frontleft",), ("frontleft", "frontright", "backleft", "backright")],
    ids=["frontleft", "all-four"],
)
def test_wheel_radius_command_leaves_out_a_drive_encoder_that_stops_answering(
    dead: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its reading stays where it was (the module keeps its last good one): that wheel did not
    roll as far as the command can tell. The measurement goes on without it, saying so; with no
    wheel left, nothing is measured, and it says why. Never an exception out of the scheduler."""
    worn = 0.0745

    def not_answering() -> float:
        raise RuntimeError("CAN frame not received")

    with simulated(true_wheel_diameter_m=worn) as h, subsystem_for(h) as subsystem:
        for module in h.drive.modules:
            if module.name in dead:
                monkeypatch.setattr(module.drive_motor, "get_position", not_answering)
        command = subsystem.wheel_radius_command()
        command.schedule()
        run(h, 6.0)
        command.cancel()  # the button is let go
        run(h, 0.5)
        out = capsys.readouterr().out
        alerts = [t for t in alert_texts(("warnings",)) if "wheel" in t]
        result = subsystem.last_wheel_diameter
        if len(dead) == len(h.drive.modules):
            assert result is None and "wheel diameter not measured: no wheel rolled" in out, out
            assert any("no wheel rolled" in t for t in alerts), alerts
            return
        assert result is not None and abs(result.diameter_m - worn) < 0.0015, result
        assert result.left_out == dead
        assert f"wheel diameter {result.diameter_in:.3f} in" in out
        assert "without frontleft" in out and any("without frontleft" in t for t in alerts), (
            out,
            alerts,
        )
        assert all(abs(m.get_state().speed) < 0.05 for m in h.drive.modules)  # stopped


def test_wheel_radius_command_says_why_it_cannot_run_on_a_drive_factor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``conversionFactors.drive`` given as a factor (valid: it has no wheel diameter to correct):
    pressed in test mode, the command says why it cannot measure, does nothing and ends."""
    # Two modules on the Spark ids no other drive of the session uses (REVLib simulates one
    # Spark per id and process): 60 to 62, and 9.
    directory = polygon_config(tmp_path / "swerve", 2, first_id=60)
    path = directory / "modules" / "module1.json"
    data = json.loads(path.read_text())
    data["angle"]["id"] = 9
    path.write_text(json.dumps(data))
    path = directory / "modules" / "physicalproperties.json"
    data = json.loads(path.read_text())
    drive = data["conversionFactors"]["drive"]
    factor = math.pi * drive["diameter"] * 0.0254 / drive["gearRatio"]
    data["conversionFactors"]["drive"] = {"factor": factor}  # the same robot, as a factor
    path.write_text(json.dumps(data))
    with simulated(directory) as h, subsystem_for(h) as subsystem:
        assert h.drive.config.modules[0].conversion.wheel_diameter_m is None
        command = subsystem.wheel_radius_command()
        command.schedule()  # the driver presses Start
        run(h, 1.0)  # held for a second
        assert not command.isScheduled()  # it ended: nothing to run
        command.cancel()
        run(h, 0.1)
        out = capsys.readouterr().out
        assert "wheel diameter cannot be measured" in out and "conversionFactors.drive" in out, out
        alerts = [t for t in alert_texts(("warnings",)) if "wheel diameter cannot" in t]
        assert alerts and "gearRatio and diameter" in alerts[0], alerts
        assert subsystem.last_wheel_diameter is None
        assert abs(h.sim.true_pose.rotation().degrees()) < 1.0  # it did not spin
        assert commands2.CommandScheduler.getInstance().requiring(subsystem) is None
