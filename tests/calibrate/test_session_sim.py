"""End to end: a simulated person calibrates a miswired simulated robot over real NetworkTables.

The robot is a SwerveDrive + SwerveSim built from a copy of ``deploy/vortex_throughbore_navx``
whose hardware truth disagrees with the files (an angle motor, an absolute encoder, a drive motor
and the IMU reversed; every encoder zero different from the configured offset). It publishes on
this process's default NetworkTables instance, started as a server on a free localhost port. The
session reads through a separate NetworkTables client instance connected over TCP. The person
performs each step's instructions on the SwerveSim, steps the robot loop so the telemetry updates,
and flushes NetworkTables; one movement is deliberately too small and must be asked again.

Afterwards the written files must describe the truth, and a fresh process (REV allows one Spark
per CAN id per process) must drive the robot field-relative 1 m forward while holding its heading
with the new files, and fail to with the old ones.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ntcore
import pytest

from swervelib.cli.main import main
from swervelib.config import load_directory
from swervelib.sim import HardwareTruth
from swervelib.tools.calibrate import CalibrationSession, Step, StepKind, Verdict
from swervelib.tools.capture import capture_offsets
from swervelib.tools.telemetry_client import (
    RAW_ABSOLUTE,
    RAW_ANGLE,
    RAW_DRIVE,
    RAW_IMU_YAW,
    NetworkTablesTelemetry,
    Signal,
    TelemetryConnectionError,
)
from tests.calibrate import assert_config_describes
from tests.conftest import DEPLOY, REPO
from tests.drive.harness import Harness, simulated
from tests.json_files import edit_json
from tests.ports import free_ports, server_ports
from tests.waits import until

NAMES = ("frontleft", "frontright", "backleft", "backright")
ZEROS = {"frontleft": 33.3, "frontright": 200.0, "backleft": 95.5, "backright": 310.25}


def miswire(truth: HardwareTruth) -> HardwareTruth:
    """Hardware that the copied files describe wrongly in every way the session can see."""
    for name, zero in ZEROS.items():
        truth = truth.with_corner(name, encoder_zero_deg=zero)
    truth = truth.with_corner("frontleft", angle_reversed=True)
    truth = truth.with_corner("frontright", encoder_reversed=True)
    truth = truth.with_corner("backleft", drive_reversed=True)
    return HardwareTruth(truth.corners, imu_reversed=True)


@pytest.fixture(scope="module")
def nt_server() -> Iterator[int]:
    """This process's default NetworkTables instance as a server on a free localhost port."""
    server = ntcore.NetworkTableInstance.getDefault()
    nt3_port, port = server_ports()
    server.startServer("networktables.json", "127.0.0.1", nt3_port, port)
    yield port
    server.stopServer()


class Person:
    """Follows the session's instructions on the simulated robot."""

    def __init__(self, h: Harness, client: NetworkTablesTelemetry) -> None:
        self.h = h
        self.client = client
        self.nudged = False  # the first module turn is deliberately too small
        # what the robot publishes, read locally on the server side
        server = ntcore.NetworkTableInstance.getDefault()
        signals = [Signal(None, RAW_IMU_YAW)]
        signals += [Signal(m, n) for m in NAMES for n in (RAW_ABSOLUTE, RAW_ANGLE, RAW_DRIVE)]
        self.published = {s: server.getDoubleTopic(s.topic).subscribe(math.nan) for s in signals}

    def sync(self) -> None:
        """Run the robot loop, flush NetworkTables, and wait until the client sees the values."""
        self.h.run(0.1)
        ntcore.NetworkTableInstance.getDefault().flush()
        expected = {s: sub.get() for s, sub in self.published.items()}

        def seen() -> bool:
            values = self.client.read().values
            return all(values.get(s) == v for s, v in expected.items())

        assert until(seen), "the NetworkTables client never saw the robot's values"

    def point_forward(self, *names: str) -> None:
        for name in names or NAMES:
            angle = self.h.sim.true_module_angles[name].degrees()
            self.h.sim.turn_module_by_hand(name, -angle)

    def setup(self, step: Step) -> None:
        if step.kind in (StepKind.TURN_MODULE, StepKind.SPIN_WHEEL):
            self.point_forward(step.module or "")
        elif step.kind is StepKind.CAPTURE_OFFSETS:
            self.point_forward()
        self.sync()

    def act(self, step: Step) -> None:
        sim = self.h.sim
        if step.kind is StepKind.FACE_BEVELS_LEFT:
            self.point_forward()
        elif step.kind is StepKind.TURN_MODULE:
            if not self.nudged:
                self.nudged = True
                sim.turn_module_by_hand(step.module or "", 3.0)  # too small to judge
            else:
                sim.turn_module_by_hand(step.module or "", 90.0)
        elif step.kind is StepKind.SPIN_WHEEL:
            sim.roll_wheel_by_hand(step.module or "", 0.2)
        elif step.kind is StepKind.ROTATE_ROBOT:
            sim.rotate_robot_by_hand(90.0)
        self.sync()


DRIVE_CHECK = r"""
import json, sys
from pathlib import Path
from wpimath.geometry import Rotation2d
from swervelib.sim import HardwareTruth
from tests.drive.harness import simulated

directory, truth = Path(sys.argv[1]), HardwareTruth.load(sys.argv[2])
heading = Rotation2d.fromDegrees(90.0)
with simulated(directory, truth) as h:
    h.sim.rotate_robot_by_hand(90.0)  # facing left; the driver's forward is still field +x
    h.run(0.2)
    for _ in range(300):  # drive field-relative forward until odometry says 1 m (6 s at most)
        h.run(0.02, lambda d: d.drive_facing(0.8, 0.0, heading))
        if h.drive.get_pose().X() >= 1.0:
            break
    pose, odometry = h.sim.true_pose, h.drive.get_pose()
    print(json.dumps({"x": pose.X(), "y": pose.Y(), "yaw": h.sim.true_yaw_deg,
                      "odo_x": odometry.X(), "odo_y": odometry.Y()}))
"""


def start_check(script: str, directory: Path, truth_file: Path, cwd: Path) -> subprocess.Popen[str]:
    """``script`` (DRIVE_CHECK, STEER_CHECK) on ``directory`` and the saved truth, in a process of
    its own (a fresh REVLib and phoenix6), from ``cwd``."""
    cwd.mkdir()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("SWERVELIB_TEST_GROUP", None)
    return subprocess.Popen(
        [sys.executable, "-c", script, str(directory), str(truth_file)],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def check_result(process: subprocess.Popen[str]) -> dict[str, Any]:
    """The JSON the check's script printed last."""
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr[-5000:]
    result: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    return result


def drives_correctly(result: dict[str, Any]) -> bool:
    return (
        abs(result["x"] - 1.0) < 0.15
        and abs(result["y"]) < 0.15
        and abs(result["yaw"] - 90.0) < 5.0
        and math.hypot(result["x"] - result["odo_x"], result["y"] - result["odo_y"]) < 0.1
    )


def test_guided_session_fixes_a_miswired_robot(nt_server: int, tmp_path: Path) -> None:
    directory = tmp_path / "swerve"
    shutil.copytree(DEPLOY / "vortex_throughbore_navx", directory)
    original = tmp_path / "original"
    shutil.copytree(directory, original)
    with simulated(directory, miswire, enabled=False) as h:
        truth = h.sim.truth
        with NetworkTablesTelemetry("localhost", port=nt_server, timeout_s=10.0) as client:
            assert client.module_names() == NAMES
            person = Person(h, client)
            session = CalibrationSession(directory, client)
            verdicts: list[tuple[str, Verdict]] = []
            while (step := session.next_step()) is not None:
                person.setup(step)
                session.begin(step)
                person.act(step)
                observation = session.finish(step)
                verdicts.append((step.title, observation.verdict))
                assert observation.accepted or observation.verdict is Verdict.TOO_SMALL, (
                    observation.explanation
                )
            explanations = "\n".join(o.explanation for o in session.observations)

            # the too-small movement was refused and the same step asked again
            turn = "Turn the frontleft module counter-clockwise"
            assert verdicts[2] == (turn, Verdict.TOO_SMALL)
            assert verdicts[3] == (turn, Verdict.DECIDED)
            assert "frontleft Raw Angle Encoder went" in explanations
            assert "while turned counter-clockwise: setting inverted.angle = true" in explanations
            changed = {(c.file, c.field): c.new for c in session.changes()}
            assert changed["modules/frontleft.json", "inverted.angle"] is True
            assert changed["modules/frontright.json", "absoluteEncoderInverted"] is True
            assert changed["modules/backleft.json", "inverted.drive"] is True
            assert changed["swervedrive.json", "invertedIMU"] is True
            assert ("modules/backright.json", "inverted.drive") not in changed

            # capture_offsets (offsets only) reads the same robot: wheels still facing forward,
            # in the robot's current encoder direction (frontright not yet inverted), dry run
            preview = capture_offsets(directory, "localhost", port=nt_server, dry_run=True)
            assert not preview.written
            captured = {c.file: c.new for c in preview.changes}
            assert captured["modules/frontright.json"] == pytest.approx(360.0 - 200.0, abs=1.0)
            assert captured["modules/frontleft.json"] == pytest.approx(33.3, abs=1.0)

        shown: list[str] = []

        def confirm(summary: str) -> bool:
            shown.append(summary)
            return True

        dry = session.apply(confirm=confirm, dry_run=True)
        assert dry is not None and not dry.written and "absoluteEncoderOffset" in dry.diff
        assert (directory / "swervedrive.json").read_bytes() == (
            original / "swervedrive.json"
        ).read_bytes()
        result = session.apply(confirm=confirm)
        assert result is not None and result.written and result.backup is not None
        assert "\n" not in result.summary
        assert "inverted.angle: false → true" in shown[0]

    # the written files describe the hardware
    assert_config_describes(directory, truth, tolerance_deg=1.0)

    # a fresh process drives the robot with the new files, another with the old ones
    truth_file = tmp_path / "truth.json"
    truth.save(truth_file)
    new = start_check(DRIVE_CHECK, directory, truth_file, tmp_path / "run-new")
    old = start_check(DRIVE_CHECK, original, truth_file, tmp_path / "run-old")
    fixed, broken = check_result(new), check_result(old)
    assert drives_correctly(fixed), fixed
    assert not drives_correctly(broken), broken


# -- a brushed Spark MAX angle motor with no encoder of its own --------------------------------------
BRUSHED_FIRST_ID = 40  # CAN ids 40-47: the other robot of this group uses 1-8
BRUSHED_DRIVE_ENCODERS = {
    "frontleft": "throughbore",
    "frontright": "srx_mag_encoder_dataport",
    "backleft": "greyhill_63r256",
    "backright": "throughbore_dataport",
}
BRUSHED_OFFSETS = {"frontleft": 0.0, "frontright": 287.1, "backleft": 184.6, "backright": 33.3}


def brushed_robot(target: Path) -> Path:
    """``deploy/swerve`` on brushed Spark MAXes (a CIM each, as in tests/devices/test_rev_brushed):
    drive motors reading the encoder their ``canbus`` names, angle motors with none, steering on
    the absolute encoder on their data port (``attached``); a navX; gains a CIM can steer with."""
    shutil.copytree(DEPLOY / "swerve", target)
    edit_json(target / "swervedrive.json", lambda d: d.__setitem__("imu", {"type": "navx_spi"}))
    for index, name in enumerate(NAMES):

        def change(data: dict[str, Any], index: int = index, name: str = name) -> None:
            first = BRUSHED_FIRST_ID + 2 * index
            data["drive"] = {"type": "sparkmax_brushed", "id": first}
            data["drive"]["canbus"] = BRUSHED_DRIVE_ENCODERS[name]
            data["angle"] = {"type": "sparkmax_brushed", "id": first + 1, "canbus": None}
            data["encoder"] = {"type": "attached", "id": 0}
            data["absoluteEncoderOffset"] = BRUSHED_OFFSETS[name]
            data["absoluteEncoderInverted"] = False

        edit_json(target / "modules" / f"{name}.json", change)
    edit_json(
        target / "modules" / "pidfproperties.json", lambda d: d["angle"].__setitem__("p", 0.02)
    )
    return target


def brushed_miswire(truth: HardwareTruth) -> HardwareTruth:
    """frontleft's absolute encoder is reversed (its motor is fine); frontright's angle motor is
    reversed (its encoder is fine)."""
    truth = truth.with_corner("frontleft", encoder_reversed=True)
    return truth.with_corner("frontright", angle_reversed=True)


STEER_CHECK = r"""
import json, sys
from pathlib import Path
from wpimath.geometry import Rotation2d
from wpimath.kinematics import SwerveModuleState
from swervelib.sim import HardwareTruth
from tests.drive.harness import simulated

directory, truth = Path(sys.argv[1]), HardwareTruth.load(sys.argv[2])
state = SwerveModuleState(0.0, Rotation2d.fromDegrees(45.0))
with simulated(directory, truth) as h:  # enabled, on blocks: a small steering command
    h.run(1.5, lambda d: [m.set_desired_state(state, force_angle=True) for m in d.modules])
    angles = {n: a.degrees() for n, a in h.sim.true_module_angles.items()}
    print(json.dumps({"angles": angles, "runaway": sorted(h.drive.diagnostics.runaway)}))
"""


def test_a_module_steering_on_its_absolute_encoder_is_told_to_check_inverted_angle_enabled(
    nt_server: int, tmp_path: Path
) -> None:
    """Brushed Spark MAX angle motors with no encoder of their own: their Raw Angle Encoder is
    the absolute encoder, so the turn decides absoluteEncoderInverted only (frontleft's), never
    inverted.angle, and the person is told how to check it enabled. Then, on the simulated
    hardware, frontleft steers; frontright (its motor reversed, which no hand turn can show)
    turns away and the runaway Alert names it, as the session said; with its inverted.angle
    changed as the session says, every module steers."""
    directory = brushed_robot(tmp_path / "swerve")
    with simulated(directory, brushed_miswire, enabled=False) as h:
        truth = h.sim.truth
        with NetworkTablesTelemetry("localhost", port=nt_server, timeout_s=10.0) as client:
            person = Person(h, client)
            session = CalibrationSession(directory, client)
            turns = [s for s in session.steps if s.kind is StepKind.TURN_MODULE]
            assert [s.watches for s in turns] == [(Signal(n, RAW_ABSOLUTE),) for n in NAMES]
            assert all("inverted.angle cannot be judged by hand" in s.text for s in turns)
            while (step := session.next_step()) is not None:
                person.setup(step)
                session.begin(step)
                person.act(step)
                observation = session.finish(step)
                assert observation.accepted or observation.verdict is Verdict.TOO_SMALL, (
                    observation.explanation
                )
        changed = {(c.file, c.field): c.new for c in session.changes()}
        assert changed == {("modules/frontleft.json", "absoluteEncoderInverted"): True}
        summary = session.summary()
        assert "Not judged: inverted.angle of frontleft, frontright, backleft, backright." in (
            summary
        )
        assert "turn towards its set-point" in summary and "running away" in summary
        result = session.apply(confirm=True)
        assert result is not None and result.written

    written = {m.name: m for m in load_directory(directory).modules}
    assert written["frontleft"].absolute_encoder_inverted is True
    assert not any(m.inverted.angle for m in written.values())  # none decided by hand

    # following the summary's check: frontright turns away; its inverted.angle changed, it steers
    followed = tmp_path / "followed"
    shutil.copytree(directory, followed)
    edit_json(followed / "modules" / "frontright.json", lambda d: d["inverted"].update(angle=True))
    truth_file = tmp_path / "truth.json"
    truth.save(truth_file)
    calibrated = start_check(STEER_CHECK, directory, truth_file, tmp_path / "run-calibrated")
    checked = start_check(STEER_CHECK, followed, truth_file, tmp_path / "run-followed")
    before, after = check_result(calibrated), check_result(checked)
    for name in ("frontleft", "backleft", "backright"):
        assert abs(before["angles"][name] - 45.0) < 3.0, before
    assert abs(before["angles"]["frontright"] - 45.0) > 20.0, before
    assert before["runaway"] == ["frontright"], before
    assert all(abs(a - 45.0) < 3.0 for a in after["angles"].values()), after
    assert after["runaway"] == [], after


# -- two modules' ids swapped (spec §2.5) ------------------------------------------------------
SWAPPED_FIRST_ID = 20  # CAN ids 20-27: the other REV robots of this group use 1-8 and 40-47
PHYSICAL = ("drive_id", "angle_id", "encoder_id", "drive_reversed", "angle_reversed")
PHYSICAL += ("encoder_reversed", "encoder_zero_deg")

SPIN_CHECK = r"""
import json, sys
from pathlib import Path
from wpimath.kinematics import ChassisSpeeds
from swervelib.sim import HardwareTruth
from tests.drive.harness import simulated

directory, truth = Path(sys.argv[1]), HardwareTruth.load(sys.argv[2])
with simulated(directory, truth) as h:  # spun counter-clockwise with powered wheels
    start = h.sim.true_yaw_deg
    h.run(1.5, lambda d: d.drive(ChassisSpeeds(0.0, 0.0, 2.0), field_relative=False))
    pose = h.sim.true_pose
    print(json.dumps({"turned": h.sim.true_yaw_deg - start, "x": pose.X(), "y": pose.Y()}))
"""


def renumbered_robot(target: Path) -> Path:
    """``deploy/vortex_throughbore_navx`` on CAN ids of its own (REVLib simulates one Spark per
    id per process)."""
    shutil.copytree(DEPLOY / "vortex_throughbore_navx", target)
    for index, name in enumerate(NAMES):

        def change(data: dict[str, Any], first: int = SWAPPED_FIRST_ID + 2 * index) -> None:
            data["drive"]["id"], data["angle"]["id"] = first, first + 1

        edit_json(target / "modules" / f"{name}.json", change)
    return target


def swapped_modules(truth: HardwareTruth) -> HardwareTruth:
    """The physical modules at the front-left and front-right corners swapped: each file is right
    about its module's flags and offset, but names the devices at the other corner."""
    left, right = truth.corner("frontleft"), truth.corner("frontright")
    truth = truth.with_corner("frontleft", **{k: getattr(right, k) for k in PHYSICAL})
    return truth.with_corner("frontright", **{k: getattr(left, k) for k in PHYSICAL})


def test_swapped_module_ids_are_found_and_reassigned_by_the_command_calibrate_gives(
    nt_server: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Spec §2.5: with two modules' ids swapped, the robot spun counter-clockwise with powered
    wheels hardly turns. In the guided session, turning the front-left module moves frontright's
    readings: the refusal gives the command that swaps the two files' devices. Run as given, it
    makes the files describe the robot, and a fresh process spins the robot as commanded; the old
    files still do not."""
    directory = renumbered_robot(tmp_path / "swerve")
    original = tmp_path / "original"
    shutil.copytree(directory, original)
    with simulated(directory, swapped_modules, enabled=False) as h:
        truth = h.sim.truth
        with NetworkTablesTelemetry("localhost", port=nt_server, timeout_s=10.0) as client:
            person = Person(h, client)
            person.nudged = True  # no deliberately small turn here
            session = CalibrationSession(directory, client)
            step = session.next_step()
            while step is not None and step.kind is not StepKind.TURN_MODULE:
                person.setup(step)
                session.begin(step)
                person.act(step)
                assert session.finish(step).accepted
                step = session.next_step()
            assert step is not None and step.module == "frontleft"
            person.setup(step)
            session.begin(step)
            person.act(step)  # the person turns the module at the front-left corner
            refused = session.finish(step)
    assert refused.verdict is Verdict.WRONG_MODULE, refused.explanation
    text = " ".join(refused.explanation.split())
    assert "the devices there are the ones modules/frontright.json names" in text
    commands = [line for line in refused.explanation.split("\n") if line in refused.commands]
    assert commands == [
        f"python -m swervelib reassign {directory} frontright=frontleft frontleft=frontright"
    ]
    assert main(shlex.split(commands[0])[3:]) == 0
    assert capsys.readouterr().out.startswith("reassign (frontleft↔frontright): 6 fields")
    assert_config_describes(directory, truth, tolerance_deg=0.01)
    written = load_directory(directory)
    for corner in truth.corners:
        module = written.module(corner.name)
        assert (module.drive.id, module.angle.id) == (corner.drive_id, corner.angle_id)

    truth_file = tmp_path / "truth.json"
    truth.save(truth_file)
    new = start_check(SPIN_CHECK, directory, truth_file, tmp_path / "run-new")
    old = start_check(SPIN_CHECK, original, truth_file, tmp_path / "run-old")
    fixed, broken = check_result(new), check_result(old)
    # 2 rad/s for 1.5 s is 172°; the correct robot gets up to speed and turns in place
    assert 130.0 < fixed["turned"] < 175.0, fixed
    assert math.hypot(fixed["x"], fixed["y"]) < 0.02, fixed
    assert broken["turned"] < 60.0, broken


def test_no_robot_is_a_clear_error() -> None:
    (port,) = free_ports(1)  # nothing listens there
    with pytest.raises(TelemetryConnectionError, match=r"no robot answered at localhost:\d+"):
        NetworkTablesTelemetry("localhost", port=port, timeout_s=0.5)


def test_values_of_the_wrong_type_over_networktables_are_refused(nt_server: int) -> None:
    server = ntcore.NetworkTableInstance.getDefault()
    root = "/SmartDashboard/swerve/modules/testmodule"
    text = server.getStringTopic(f"{root}/Raw Absolute Encoder").publish()
    angle = server.getDoubleTopic(f"{root}/Raw Angle Encoder").publish()
    drive = server.getDoubleTopic(f"{root}/Raw Drive Encoder").publish()
    text.set("12.5")
    angle.set(math.nan)
    drive.set(2.5)
    server.flush()
    with NetworkTablesTelemetry(
        "127.0.0.1", port=nt_server, modules=["testmodule"], timeout_s=2.0
    ) as client:
        snapshot = client.read()
    assert snapshot.values[Signal("testmodule", RAW_DRIVE)] == 2.5
    assert "wrong type" in (snapshot.problem(Signal("testmodule", RAW_ABSOLUTE)) or "")
    assert "not a finite number" in (snapshot.problem(Signal("testmodule", RAW_ANGLE)) or "")
    for publisher in (text, angle, drive):
        publisher.close()
