"""The drive feedforward: configured in pidfproperties.json (``drive.feedforward``) or derived from
the motors, replaceable at run time, and applied with PathPlanner-style module accelerations whose
sign follows optimisation and whose size follows the cosine compensation."""

from __future__ import annotations

import math
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModuleState
from wpimath.system.plant import DCMotor

from swervelib.config import ConfigError, DriveFeedforward, load_directory
from tests.drive.harness import REV_NAVX, shared_drive, simulated
from tests.json_files import edit_json


def with_feedforward(tmp_path: Path, feedforward: Any) -> Path:
    directory = tmp_path / "swerve"
    shutil.copytree(REV_NAVX, directory)
    edit_json(
        directory / "modules" / "pidfproperties.json",
        lambda data: data["drive"].__setitem__("feedforward", feedforward),
    )
    return directory


def test_a_configured_feedforward_is_read_in_si_units(tmp_path: Path) -> None:
    config = load_directory(with_feedforward(tmp_path, {"kS": 0.12, "kV": 2.3, "kA": 0.4}))
    assert config.pidf is not None
    assert config.pidf.drive_feedforward == DriveFeedforward(0.12, 2.3, 0.4)
    assert not [w for w in config.warnings if "feedforward" in w.field]


@pytest.mark.parametrize(
    ("feedforward", "field"),
    [
        ({"kS": 0.1}, "drive.feedforward.kV"),
        ({"kV": -2.0}, "drive.feedforward.kV"),
        ({"kV": 2.0, "kA": math.inf}, "drive.feedforward.kA"),
        ({"kV": 2.0, "kS": "0.1"}, "drive.feedforward.kS"),
    ],
)
def test_a_wrong_feedforward_names_its_field(
    tmp_path: Path, feedforward: dict[str, Any], field: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_directory(with_feedforward(tmp_path, feedforward))
    assert [p.field for p in caught.value.problems] == [field]


def test_the_derived_feedforward_comes_from_the_motors() -> None:
    """Without one in the file: kS 0, kV 12 V over the free speed, kA from the motor's
    resistance and torque constant pushing its share of the robot's mass."""
    with simulated() as h:
        drive = h.drive
        module = drive.config.modules[0]
        vortex = DCMotor.neoVortex(1)
        share = drive.config.physical_or_default.robot_mass_kg / len(drive.modules)
        metres = module.conversion.drive_m_per_rotation
        expected_ka = share * metres / (2 * math.pi) * vortex.R / vortex.Kt
        for feedforward in drive.drive_feedforward:
            assert feedforward.ks == 0.0
            assert feedforward.kv == pytest.approx(12.0 / module.max_drive_speed_mps)
            assert feedforward.ka == pytest.approx(expected_ka)
            assert 0.05 < feedforward.ka < 1.0


@pytest.fixture(autouse=True)
def restore_feedforward() -> Iterator[None]:
    """The tests change the session's shared drive's feedforward: put it back afterwards."""
    drive = shared_drive(REV_NAVX)
    saved = [m.feedforward for m in drive.modules]
    yield
    for module, feedforward in zip(drive.modules, saved, strict=True):
        module.feedforward = feedforward


class Sent:
    """Records the drive motor's set_velocity calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[float, float]] = []

    def __call__(self, speed: float, feedforward_volts: float) -> None:
        self.calls.append((speed, feedforward_volts))


def test_accelerations_follow_optimisation_and_cosine_compensation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with simulated() as h:
        h.drive.set_drive_feedforward(0.2, 2.0, 0.5)
        module = h.drive.modules[0]
        sent = Sent()
        monkeypatch.setattr(module.drive_motor, "set_velocity", sent)
        facing = module.get_angle().degrees()
        # the wheel faces `facing`; asked to go the opposite way it reverses instead of turning
        module.set_desired_state(
            SwerveModuleState(1.0, Rotation2d.fromDegrees(facing + 180.0)), acceleration_mps2=3.0
        )
        speed, sent_volts = sent.calls[-1]
        assert speed == pytest.approx(-1.0, abs=1e-6)
        assert sent_volts == pytest.approx(-0.2 - 2.0 - 0.5 * 3.0, abs=1e-6)
        # 60° off where it points: speed and acceleration both scaled by cos 60°
        module.set_desired_state(
            SwerveModuleState(1.0, Rotation2d.fromDegrees(facing + 60.0)), acceleration_mps2=2.0
        )
        speed, sent_volts = sent.calls[-1]
        assert speed == pytest.approx(0.5, abs=1e-3)
        assert sent_volts == pytest.approx(0.2 + 2.0 * 0.5 + 0.5 * 1.0, 1e-3)  # kS + kV·v + kA·a


def test_drive_takes_pathplanner_feedforwards_and_refuses_a_wrong_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pathplannerlib.path import DriveFeedforwards

    with simulated() as h:
        drive = h.drive
        drive.set_drive_feedforward(0.0, 2.0, 1.0)
        sents = []
        for module in drive.modules:
            sent = Sent()
            monkeypatch.setattr(module.drive_motor, "set_velocity", sent)
            sents.append(sent)
        for module in drive.modules:  # point every wheel forward first
            module.set_desired_state(SwerveModuleState(0.0, Rotation2d()), force_angle=True)
        feedforwards = DriveFeedforwards(accelerationsMPS=[1.0, 2.0, 3.0, 4.0])
        drive.drive(ChassisSpeeds(1e-9, 0.0, 0.0), feedforwards=feedforwards)
        for sent, acceleration in zip(sents, [1.0, 2.0, 3.0, 4.0], strict=True):
            assert sent.calls[-1][1] == pytest.approx(1.0 * acceleration, abs=1e-3)
        refused = drive.refusals.count
        drive.drive(ChassisSpeeds(1.0, 0.0, 0.0), feedforwards=[1.0, 2.0])
        assert drive.refusals.count == refused + 1


@pytest.mark.parametrize(
    ("ks", "kv", "ka"), [(-0.1, 2.0, 0.0), (0.1, 0.0, 0.0), (0.1, math.nan, 0.0), (0, 2, -1)]
)
def test_set_drive_feedforward_refuses_nonsense(ks: float, kv: float, ka: float) -> None:
    with simulated() as h:
        before = h.drive.drive_feedforward
        with pytest.raises(ValueError):
            h.drive.set_drive_feedforward(ks, kv, ka)
        assert h.drive.drive_feedforward == before
