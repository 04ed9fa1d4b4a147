"""PathPlanner's settings.json from the swerve JSON: what PathPlanner reads back from it is the
robot ``swervelib.pathplanner.robot_config`` builds; writing it keeps the GUI's own settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pathplannerlib import config as pp_config
from pathplannerlib.config import RobotConfig

from swervelib.cli.main import main
from swervelib.config import load_directory
from swervelib.pathplanner import robot_config
from swervelib.tools.pathplanner_settings import gui_settings, write_gui_settings
from tests.json_files import edit_json
from tests.tools import BACKUP_NAME, DEPLOY, VARIANTS, copy_config

GUI_SETTINGS = {  # a file as PathPlanner's GUI saves it, with a key it added after our time
    "robotWidth": 0.9,
    "robotLength": 0.9,
    "holonomicMode": True,
    "pathFolders": ["Scoring"],
    "autoFolders": [],
    "defaultMaxVel": 4.2,
    "defaultMaxAccel": 3.0,
    "defaultMaxAngVel": 540.0,
    "defaultMaxAngAccel": 720.0,
    "defaultNominalVoltage": 12.0,
    "robotMass": 74.088,
    "robotMOI": 6.883,
    "robotTrackwidth": 0.546,
    "driveWheelRadius": 0.048,
    "driveGearing": 5.143,
    "maxDriveSpeed": 5.45,
    "driveMotorType": "krakenX60",
    "driveCurrentLimit": 60.0,
    "wheelCOF": 1.2,
    "flModuleX": 0.273,
    "flModuleY": 0.273,
    "frModuleX": 0.273,
    "frModuleY": -0.273,
    "blModuleX": -0.273,
    "blModuleY": 0.273,
    "brModuleX": -0.273,
    "brModuleY": -0.273,
    "bumperOffsetX": 0.0,
    "bumperOffsetY": 0.0,
    "robotFeatures": [{"type": "rounded_rect", "name": "Intake"}],
    "futureSetting": "kept",
}


def read_back(folder: Path, monkeypatch: pytest.MonkeyPatch) -> RobotConfig:
    """``RobotConfig.fromGUISettings()`` reading ``folder/pathplanner/settings.json``."""
    monkeypatch.setattr(pp_config, "getDeployDirectory", lambda: str(folder))
    return RobotConfig.fromGUISettings()


@pytest.mark.parametrize("variant", VARIANTS)
def test_pathplanner_reads_back_the_robot_of_each_reference_configuration(
    variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_directory(DEPLOY / variant)
    (tmp_path / "pathplanner").mkdir()
    write_gui_settings(config, tmp_path / "pathplanner")
    gui = read_back(tmp_path, monkeypatch)
    ours = robot_config(config)
    assert gui.massKG == pytest.approx(ours.massKG, abs=1e-3)
    gui_moi, our_moi = gui.MOI, ours.MOI
    assert gui_moi == pytest.approx(our_moi, abs=1e-3)
    for field in ("wheelRadiusMeters", "maxDriveVelocityMPS", "wheelCOF", "driveCurrentLimit"):
        assert getattr(gui.moduleConfig, field) == pytest.approx(
            getattr(ours.moduleConfig, field), rel=1e-3
        ), field
    gui_motor, our_motor = gui.moduleConfig.driveMotor, ours.moduleConfig.driveMotor
    assert gui_motor.freeSpeed == pytest.approx(our_motor.freeSpeed, rel=1e-4)  # gearing too
    assert gui_motor.stallTorque == pytest.approx(our_motor.stallTorque, rel=1e-4)
    # these configurations list their modules in the GUI's order
    for theirs, mine in zip(gui.moduleLocations, ours.moduleLocations, strict=True):
        assert theirs.distance(mine) < 1e-4


def test_writing_changes_only_the_robot_and_keeps_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "pathplanner"
    folder.mkdir()
    settings = folder / "settings.json"
    settings.write_text(json.dumps(GUI_SETTINGS, indent=2) + "\n", encoding="utf-8")
    config = load_directory(DEPLOY / "swerve")
    result = write_gui_settings(config, folder)
    assert result.written and result.backup is not None and BACKUP_NAME.match(result.backup.name)
    written = json.loads(settings.read_text(encoding="utf-8"))
    assert list(written) == list(GUI_SETTINGS)  # key order, unknown keys
    robot = gui_settings(config)
    for key, value in GUI_SETTINGS.items():
        assert written[key] == robot.get(key, value), key
    assert written["robotMass"] != GUI_SETTINGS["robotMass"]  # something did change
    saved = result.backup / "settings.json"
    assert json.loads(saved.read_text(encoding="utf-8")) == GUI_SETTINGS
    again = write_gui_settings(config, folder)
    assert not again.written and "nothing to change" in again.summary


def test_a_drive_the_gui_cannot_describe_is_refused_with_the_reason(tmp_path: Path) -> None:
    neo550 = copy_config(tmp_path, "swerve", "neo550")
    for module in ("frontleft", "frontright", "backleft", "backright"):
        edit_json(
            neo550 / "modules" / f"{module}.json",
            lambda d: d["drive"].update(type="sparkmax_neo550"),
        )
    with pytest.raises(ValueError, match=r"no NEO550 drive motor.*robot_config"):
        gui_settings(load_directory(neo550))
    crowded = copy_config(tmp_path, "swerve", "crowded")
    edit_json(crowded / "modules" / "backleft.json", lambda d: d["location"].update(front=5.0))
    with pytest.raises(ValueError, match="one module in each corner; the fl corner has 2"):
        gui_settings(load_directory(crowded))


def test_a_refused_command_leaves_no_pathplanner_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A drive the GUI cannot describe is refused before the pathplanner folder is made."""
    crowded = copy_config(tmp_path, "swerve")
    edit_json(crowded / "modules" / "backleft.json", lambda d: d["location"].update(front=5.0))
    assert main(["pathplanner-settings", str(crowded)]) == 1
    assert "one module in each corner" in capsys.readouterr().err
    assert not (tmp_path / "pathplanner").exists()


def test_the_command_creates_then_updates_then_reports_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    swerve = copy_config(tmp_path, "swerve")
    target = tmp_path / "pathplanner" / "settings.json"
    assert main(["pathplanner-settings", str(swerve), "--dry-run"]) == 0
    assert "would create" in capsys.readouterr().out and not target.exists()
    assert main(["pathplanner-settings", str(swerve)]) == 0
    assert "created" in capsys.readouterr().out
    created = json.loads(target.read_text(encoding="utf-8"))
    assert (
        created["defaultMaxVel"] == 3.0
        and created["robotMass"] == gui_settings(load_directory(swerve))["robotMass"]
    )
    edit_json(swerve / "modules" / "physicalproperties.json", lambda d: d.update(robotMass=120))
    assert main(["pathplanner-settings", str(swerve), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert '+  "robotMass": 54.431' in out and "dry run" in out
    assert main(["pathplanner-settings", str(swerve)]) == 0
    assert json.loads(target.read_text(encoding="utf-8"))["robotMass"] == pytest.approx(
        54.431, abs=1e-3
    )
    assert main(["pathplanner-settings", str(tmp_path / "missing")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error:") and "missing" in err and "Traceback" not in err
