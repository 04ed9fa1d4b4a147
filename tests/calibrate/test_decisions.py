"""The calibration session's decisions, driven through an in-memory telemetry source (fast, pure).

Every reading the session sees goes through ``MemoryTelemetry`` (the same validation as the
NetworkTables client); a simulated person changes those readings the way the robot's would move.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest

from swervelib.cli import calibrate as calibrate_cli
from swervelib.cli.main import build_parser
from swervelib.config import load_directory
from swervelib.tools.calibrate import (
    CalibrationError,
    CalibrationSession,
    Decision,
    Observation,
    Step,
    StepKind,
    Thresholds,
    Verdict,
    circular_mean_deg,
    converted_offset_decision,
    inverted_reading,
    offset_decision,
)
from swervelib.tools.capture import capture_offsets
from swervelib.tools.telemetry_client import (
    RAW_ABSOLUTE,
    RAW_ANGLE,
    RAW_DRIVE,
    RAW_IMU_YAW,
    MemoryTelemetry,
    Signal,
    Snapshot,
    TelemetryError,
    validate,
)
from tests.conftest import DEPLOY, FIXTURES
from tests.json_files import edit_json

REV_NAVX = DEPLOY / "vortex_throughbore_navx"
NAMES = ("frontleft", "frontright", "backleft", "backright")


def copy(source: Path, tmp_path: Path) -> Path:
    target = tmp_path / source.name
    shutil.copytree(source, target)
    return target


def no_sleep(_: float) -> None:
    pass


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    return copy(REV_NAVX, tmp_path)


@pytest.fixture
def robot() -> MemoryTelemetry:
    return new_robot()


def new_robot(names: tuple[str, ...] = NAMES) -> MemoryTelemetry:
    """A robot whose modules ``names`` give steady readings (each module's absolute encoder
    50 degrees past the previous one's)."""
    source = MemoryTelemetry(names)
    for i, name in enumerate(names):
        source.set(name, RAW_ABSOLUTE, 100.0 + 50 * i)
        source.set(name, RAW_ANGLE, 12.0)
        source.set(name, RAW_DRIVE, 1.0)
    source.set(None, RAW_IMU_YAW, 170.0)
    return source


def make(
    directory: Path, source: MemoryTelemetry, thresholds: Thresholds | None = None
) -> CalibrationSession:
    return CalibrationSession(
        directory, source, thresholds=thresholds, settle_samples=2, sleep=no_sleep
    )


def turn(
    robot: MemoryTelemetry, module: str, degrees: float, absolute: float | None = None
) -> None:
    """The module turns: its angle encoder by ``degrees``, its absolute encoder by ``absolute``
    (default the same), wrapped to [0°, 360°) like a real one."""
    robot.add(module, RAW_ANGLE, degrees)
    current = robot.value(module, RAW_ABSOLUTE)
    assert isinstance(current, float)
    robot.set(module, RAW_ABSOLUTE, (current + (degrees if absolute is None else absolute)) % 360)


def attempt(
    session: CalibrationSession, step: Step, move: Callable[[], None], *, samples: int = 0
) -> Observation:
    session.begin(step)
    move()
    for _ in range(samples):
        session.sample()
    return session.finish(step)


def advance_to(session: CalibrationSession, kind: StepKind, module: str | None = None) -> Step:
    """Accept (skip) every step before the first of ``kind`` (for ``module``)."""
    while True:
        step = session.next_step()
        assert step is not None
        if step.kind is kind and step.module == module:
            return step
        session.skip(step)


# -- the steps are data ----------------------------------------------------------------------------
def test_steps_are_data_in_the_documented_order(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot)
    kinds = [(s.kind.value, s.module) for s in session.steps]
    expected: list[tuple[str, str | None]] = [("lift", None), ("face_bevels_left", None)]
    for name in NAMES:
        expected += [("turn_module", name), ("spin_wheel", name)]
    expected += [("rotate_robot", None), ("capture_offsets", None)]
    assert kinds == expected
    turn = session.steps[2]
    assert turn.watches == (Signal("frontleft", RAW_ANGLE), Signal("frontleft", RAW_ABSOLUTE))
    assert Signal("backleft", RAW_ANGLE) in turn.still
    assert turn.decides == ("inverted.angle", "absoluteEncoderInverted")
    assert "counter-clockwise" in turn.text and turn.minimum == 10.0
    spin = session.steps[3]
    assert spin.watches == (Signal("frontleft", RAW_DRIVE),) and spin.minimum == 0.05
    assert "forward" in spin.setup and "bevel" in spin.setup
    assert session.steps[-2].watches == (Signal(None, RAW_IMU_YAW),)
    assert session.steps[-1].decides == ("absoluteEncoderOffset",)


def test_steps_must_be_done_in_order(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot)
    with pytest.raises(CalibrationError, match="not the next step"):
        session.begin(session.steps[3])
    with pytest.raises(CalibrationError, match="without begin"):
        session.finish(session.steps[0])


def test_lift_checks_every_value_is_published(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot)
    lift = session.steps[0]
    robot.set("backright", RAW_DRIVE, None)
    refused = attempt(session, lift, lambda: None)
    assert refused.verdict is Verdict.NO_DATA and not refused.accepted
    assert "backright Raw Drive Encoder: not published" in refused.explanation
    assert session.next_step() == lift  # asked again
    robot.set("backright", RAW_DRIVE, 0.0)
    assert attempt(session, lift, lambda: None).verdict is Verdict.DONE
    assert session.next_step() == session.steps[1]


# -- turn a module: inverted.angle and absoluteEncoderInverted ------------------------------------
def test_angle_decreasing_sets_inverted_angle(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")

    def turn() -> None:
        robot.add("frontleft", RAW_ANGLE, -90.0)  # reversed angle motor
        robot.add("frontleft", RAW_ABSOLUTE, 90.0)  # encoder right

    obs = attempt(session, step, turn)
    assert obs.verdict is Verdict.DECIDED and obs.accepted
    angle, absolute = obs.decisions
    assert (angle.file, angle.field, angle.old, angle.new) == (
        "modules/frontleft.json",
        "inverted.angle",
        False,
        True,
    )
    assert (absolute.field, absolute.old, absolute.new) == ("absoluteEncoderInverted", False, False)
    assert obs.explanation.splitlines()[0] == (
        "frontleft Raw Angle Encoder went 12.0° → −78.0° while turned counter-clockwise: "
        "setting inverted.angle = true"
    )
    assert "absoluteEncoderInverted stays false" in obs.explanation
    movement = obs.movements[0]
    assert (movement.before, movement.after, movement.change) == (12.0, -78.0, -90.0)


def test_flag_already_true_and_decreasing_goes_back_to_false(tmp_path: Path) -> None:
    directory = copy(REV_NAVX, tmp_path)
    path = directory / "modules" / "frontright.json"
    data = json.loads(path.read_text())
    data["inverted"]["angle"] = True
    path.write_text(json.dumps(data, indent=2))
    source = MemoryTelemetry(NAMES)
    session = make(directory, source)
    step = advance_to(session, StepKind.TURN_MODULE, "frontright")
    source.set("frontright", RAW_ABSOLUTE, 40.0)

    def turn() -> None:
        source.add("frontright", RAW_ANGLE, -45.0)
        source.add("frontright", RAW_ABSOLUTE, 45.0)

    obs = attempt(session, step, turn)
    assert obs.decisions[0].old is True and obs.decisions[0].new is False
    assert "setting inverted.angle = false (it was true)" in obs.explanation


@pytest.mark.parametrize(
    ("start", "end", "inverted"),
    [
        (350.0, 80.0, False),  # +90 through 360 -> 0: increasing
        (20.0, 290.0, True),  # −90 through 0 -> 360: decreasing
        (100.0, 190.0, False),
        (190.0, 100.0, True),
    ],
)
def test_absolute_reading_uses_the_shortest_signed_change(
    config_dir: Path, robot: MemoryTelemetry, start: float, end: float, inverted: bool
) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")
    robot.set("frontleft", RAW_ABSOLUTE, start)

    def turn() -> None:
        robot.add("frontleft", RAW_ANGLE, 90.0)
        robot.set("frontleft", RAW_ABSOLUTE, end)

    obs = attempt(session, step, turn)
    assert obs.verdict is Verdict.DECIDED, obs.explanation
    assert obs.decisions[1].new is inverted
    if start == 350.0:
        assert "(+90.0°, through 0°/360°)" in obs.explanation


def test_sampling_follows_the_absolute_encoder_through_more_than_half_a_turn(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    """200° counter-clockwise read only before and after looks like −160°: refused as
    inconsistent with the angle encoder; followed by samples, it is +200° and accepted."""
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")
    robot.set("frontleft", RAW_ABSOLUTE, 10.0)

    def big_turn() -> None:
        robot.add("frontleft", RAW_ANGLE, 200.0)
        robot.add("frontleft", RAW_ABSOLUTE, 200.0)

    refused = attempt(session, step, big_turn)
    assert refused.verdict is Verdict.INCONSISTENT, refused.explanation
    robot.set("frontleft", RAW_ABSOLUTE, 10.0)
    session.begin(step)
    for _ in range(4):  # 50° at a time, sampled
        turn(robot, "frontleft", 50.0)
        session.sample()
    obs = session.finish(step)
    assert obs.verdict is Verdict.DECIDED, obs.explanation
    assert obs.movements[1].change == pytest.approx(200.0)
    assert obs.decisions[1].new is False


def test_a_jump_too_big_to_judge_through_the_wrap_is_refused(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")

    def turn() -> None:  # 170° between two readings: the direction through 0/360 is ambiguous
        robot.add("frontleft", RAW_ANGLE, 170.0)
        robot.add("frontleft", RAW_ABSOLUTE, 170.0)

    obs = attempt(session, step, turn)
    assert obs.verdict is Verdict.INCONSISTENT
    assert "too far to tell its direction" in obs.explanation


def test_too_small_a_turn_is_refused_and_asked_again(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "backleft")

    def nudge() -> None:
        robot.add("backleft", RAW_ANGLE, 4.0)
        robot.add("backleft", RAW_ABSOLUTE, 4.0)

    refused = attempt(session, step, nudge)
    assert refused.verdict is Verdict.TOO_SMALL and not refused.decisions
    assert "too small to judge" in refused.explanation and "Do it again" in refused.explanation
    assert session.next_step() == step

    def turn() -> None:
        robot.add("backleft", RAW_ANGLE, 80.0)
        robot.add("backleft", RAW_ABSOLUTE, -80.0)

    obs = attempt(session, step, turn)
    assert obs.accepted and obs.attempt == 2
    assert obs.decisions[1].new is True  # absolute decreased
    assert session.next_step() != step


def test_back_and_forth_is_noisy(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")
    session.begin(step)
    for delta in (60.0, -60.0, 60.0, -60.0, 30.0):
        robot.add("frontleft", RAW_ANGLE, delta)
        robot.add("frontleft", RAW_ABSOLUTE, delta)
        session.sample()
    obs = session.finish(step)
    assert obs.verdict is Verdict.NOISY and "back and forth" in obs.explanation


def test_still_moving_at_the_end_is_noisy(config_dir: Path) -> None:
    class Drifting(MemoryTelemetry):
        moving = False

        def read(self) -> Snapshot:
            self.add("frontleft", RAW_ANGLE, 5.0 if self.moving else 0.0)
            self.add("frontleft", RAW_ABSOLUTE, 5.0 if self.moving else 0.0)
            return super().read()

    source = Drifting(NAMES)
    session = make(config_dir, source)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")
    session.begin(step)
    source.add("frontleft", RAW_ANGLE, 60.0)
    source.add("frontleft", RAW_ABSOLUTE, 60.0)
    source.moving = True
    obs = session.finish(step)
    assert obs.verdict is Verdict.NOISY and "still changing" in obs.explanation


def test_another_module_moving_is_refused(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")

    def wrong() -> None:  # the person turned backright (or frontleft's ids are backright's)
        robot.add("backright", RAW_ANGLE, 90.0)
        robot.add("backright", RAW_ABSOLUTE, 90.0)

    obs = attempt(session, step, wrong)
    assert obs.verdict is Verdict.WRONG_MODULE
    assert "frontleft did not move, but backright Raw Angle Encoder moved +90.0°" in obs.explanation
    assert "belong to another corner" in obs.explanation


def test_ids_at_another_corner_are_told_how_to_fix(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    """Turned again and again, a module whose file names another corner's devices is refused
    forever: the refusal says which file names the devices that moved, and what to do, with the
    command that swaps them (the session cannot go on until the files are fixed and the robot
    code restarted)."""
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")

    def turned() -> None:  # frontleft turned; the devices there are the ones frontright.json names
        robot.add("frontright", RAW_ANGLE, 90.0)
        robot.add("frontright", RAW_ABSOLUTE, 90.0)

    obs = attempt(session, step, turned)
    assert obs.verdict is Verdict.WRONG_MODULE
    text = " ".join(obs.explanation.split())
    assert "the devices there are the ones modules/frontright.json names" in text
    assert "quit (q)" in text and "restart the robot code and calibrate again" in text
    # the command that swaps the two files' devices, ready to paste, on a line of its own
    # (tests/calibrate/test_session_sim.py runs it on a simulated robot whose two modules' ids are
    # swapped; tests/tools/test_reassign_quoting.py checks names and directories of every kind)
    swap = f"python -m swervelib reassign {config_dir} frontright=frontleft frontleft=frontright"
    assert obs.commands == (swap,) and swap in obs.explanation.split("\n")
    assert text.endswith("If you moved another module: Do it again.")


def test_absolute_encoder_that_does_not_move_is_inconsistent(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")
    obs = attempt(session, step, lambda: robot.add("frontleft", RAW_ANGLE, 90.0))
    assert obs.verdict is Verdict.INCONSISTENT and "hardly moving" in obs.explanation


def test_module_without_absolute_encoder_decides_only_the_angle(tmp_path: Path) -> None:
    directory = copy(FIXTURES / "valid" / "no_encoder", tmp_path)
    source = MemoryTelemetry(NAMES)
    session = make(directory, source)
    step = advance_to(session, StepKind.TURN_MODULE, "backright")
    assert step.decides == ("inverted.angle",)
    obs = attempt(session, step, lambda: source.add("backright", RAW_ANGLE, 30.0))
    assert obs.verdict is Verdict.DECIDED and len(obs.decisions) == 1
    capture = session.steps[-1]
    assert Signal("backright", RAW_ABSOLUTE) not in capture.watches


def brushed_angle(directory: Path, *names: str, own_encoder: str | None = None) -> Path:
    """``names``' angle motors become brushed Spark MAXes (``own_encoder``: the encoder named in
    their ``canbus``; None: none, steering on the absolute encoder on the data port) with an
    encoder on the data port (``attached``)."""
    for name in names:

        def change(data: dict[str, object]) -> None:
            angle = data["angle"]
            assert isinstance(angle, dict)
            data["angle"] = {"type": "sparkmax_brushed", "id": angle["id"], "canbus": own_encoder}
            data["encoder"] = {"type": "attached", "id": 0}

        edit_json(directory / "modules" / f"{name}.json", change)
    return directory


def test_a_brushed_angle_motor_without_an_encoder_has_its_inverted_angle_not_judged(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    """frontleft steers on its absolute encoder (a brushed Spark MAX with no encoder of its own):
    its Raw Angle Encoder is that encoder, after absoluteEncoderInverted. Turned by hand with the
    encoder reversed, both readings go down; only absoluteEncoderInverted may change, and the
    person is told how to check inverted.angle instead."""
    brushed_angle(config_dir, "frontleft")
    assert load_directory(config_dir).module("frontleft").angle_encoder_is_absolute
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")
    assert step.watches == (Signal("frontleft", RAW_ABSOLUTE),)
    assert step.decides == ("absoluteEncoderInverted",)
    assert Signal("frontright", RAW_ANGLE) in step.still
    assert "frontleft's angle motor (a brushed Spark MAX with no encoder of its own)" in step.text
    assert "inverted.angle cannot be judged by hand" in step.text
    obs = attempt(session, step, partial(turn, robot, "frontleft", -90.0))  # the encoder, reversed
    assert obs.verdict is Verdict.DECIDED, obs.explanation
    (decision,) = obs.decisions
    assert (decision.field, decision.old, decision.new) == ("absoluteEncoderInverted", False, True)
    assert obs.explanation.splitlines()[1] == (
        "frontleft inverted.angle: not judged (its Raw Angle Encoder is its absolute encoder); "
        "the summary says how to check it."
    )
    # the other modules are judged as before
    other = advance_to(session, StepKind.TURN_MODULE, "frontright")
    assert other.decides == ("inverted.angle", "absoluteEncoderInverted")
    assert "cannot be judged" not in other.text
    full_run(session, robot, encoder_flip="")
    assert all(c.field != "inverted.angle" for c in session.changes())
    assert all(
        d.field != "inverted.angle" or d.file != "modules/frontleft.json"
        for d in session.decisions()
    )
    (check,) = session.manual_checks()
    assert check.startswith("Not judged: inverted.angle of frontleft. The angle motor of this ")
    assert "small steering command" in check and "turn towards its set-point" in check
    assert '"<module> angle is running away from its setpoint"' in check
    # frontleft's absoluteEncoderInverted changes: its motor must now turn the other way
    assert "if frontleft steered well before" in check
    summary = session.summary()
    flat = " ".join(summary.split())
    assert "modules/frontleft.json absoluteEncoderInverted: false → true" in flat
    assert summary.endswith(check)


def test_the_manual_check_is_shown_when_nothing_changes(tmp_path: Path) -> None:
    directory = brushed_angle(copy(REV_NAVX, tmp_path), "frontright", "backleft")
    robot = new_robot()
    session = make(directory, robot)
    for step in iter_steps(session):
        session.skip(step)
    assert session.changes() == ()
    summary = session.summary()
    assert summary.startswith("Nothing to change")
    assert "Not judged: inverted.angle of frontright, backleft. The angle motor of each of " in (
        summary
    )
    assert "steered well before" not in summary  # no absoluteEncoderInverted changed


def test_a_brushed_angle_motor_with_its_own_encoder_is_judged(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    """One that names its encoder (here on the encoder port) reads it: judged as any other."""
    brushed_angle(config_dir, "frontleft", own_encoder="srx_mag_encoder")
    assert not load_directory(config_dir).module("frontleft").angle_encoder_is_absolute
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")
    assert step.decides == ("inverted.angle", "absoluteEncoderInverted")
    assert session.manual_checks() == ()


def test_a_module_steering_on_its_absolute_encoder_still_refuses_wrong_moves(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    """The turn of a module whose angle encoder is its absolute encoder: another module moving
    (its Raw Angle Encoder) is the wrong module, too small is too small, and a jump too big to
    follow through 0°/360° is refused."""
    brushed_angle(config_dir, "frontleft", "backright")
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")
    wrong = attempt(session, step, partial(turn, robot, "backright", 90.0))
    assert wrong.verdict is Verdict.WRONG_MODULE
    assert "frontleft did not move, but backright Raw Angle Encoder moved +90.0°" in (
        wrong.explanation
    )

    def turn_two() -> None:
        turn(robot, "frontleft", 60.0)
        turn(robot, "frontright", 60.0)

    both = attempt(session, step, turn_two)
    assert both.verdict is Verdict.WRONG_MODULE and "move only frontleft" in both.explanation
    small = attempt(session, step, partial(turn, robot, "frontleft", 4.0))
    assert small.verdict is Verdict.TOO_SMALL
    jump = attempt(session, step, partial(turn, robot, "frontleft", 170.0))
    assert jump.verdict is Verdict.INCONSISTENT and "too far to tell" in jump.explanation
    obs = attempt(session, step, partial(turn, robot, "frontleft", 60.0))
    assert obs.verdict is Verdict.DECIDED and obs.decisions[0].new is False
    # frontright's turn: frontleft's and backright's Raw Angle Encoders must stay still
    session.skip(session.steps[step.index + 1])
    other = session.next_step()
    assert other is not None and other.module == "frontright"
    moved = attempt(session, other, partial(turn, robot, "backright", -45.0))
    assert moved.verdict is Verdict.WRONG_MODULE


# -- the wheel and the robot -----------------------------------------------------------------------
def test_wheel_decreasing_sets_inverted_drive(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.SPIN_WHEEL, "backleft")
    small = attempt(session, step, lambda: robot.add("backleft", RAW_DRIVE, -0.02))
    assert small.verdict is Verdict.TOO_SMALL
    obs = attempt(session, step, lambda: robot.add("backleft", RAW_DRIVE, -0.2))
    assert obs.verdict is Verdict.DECIDED
    (decision,) = obs.decisions
    assert (decision.field, decision.old, decision.new) == ("inverted.drive", False, True)
    assert obs.explanation == (
        "backleft Raw Drive Encoder went 0.980 m → 0.780 m while rolled forward: "
        "setting inverted.drive = true"
    )


def test_wheel_increasing_keeps_inverted_drive(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.SPIN_WHEEL, "frontleft")
    obs = attempt(session, step, lambda: robot.add("frontleft", RAW_DRIVE, 0.15))
    assert obs.decisions[0].new is False and not obs.decisions[0].changed


@pytest.mark.parametrize(("delta", "inverted"), [(90.0, False), (-90.0, True), (200.0, False)])
def test_robot_rotation_decides_inverted_imu_from_the_unwrapped_yaw(
    config_dir: Path, robot: MemoryTelemetry, delta: float, inverted: bool
) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.ROTATE_ROBOT)
    obs = attempt(session, step, lambda: robot.add(None, RAW_IMU_YAW, delta))
    assert obs.verdict is Verdict.DECIDED
    assert obs.decisions[0].field == "invertedIMU" and obs.decisions[0].new is inverted
    assert obs.movements[0].change == pytest.approx(delta)  # 170 -> 370 is +200, not −160


def test_robot_rotation_too_small(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.ROTATE_ROBOT)
    assert attempt(session, step, lambda: robot.add(None, RAW_IMU_YAW, 5.0)).verdict is (
        Verdict.TOO_SMALL
    )


def test_invert_imu_spelling_is_kept(tmp_path: Path) -> None:
    directory = copy(FIXTURES / "valid" / "invert_imu_spelling", tmp_path)  # invertIMU: true
    source = MemoryTelemetry(NAMES)
    session = make(directory, source)
    step = advance_to(session, StepKind.ROTATE_ROBOT)
    obs = attempt(session, step, lambda: source.add(None, RAW_IMU_YAW, -45.0))
    (decision,) = obs.decisions
    assert (decision.file, decision.field, decision.old, decision.new) == (
        "swervedrive.json",
        "invertIMU",
        True,
        False,
    )


def test_both_imu_spellings_are_both_changed(tmp_path: Path) -> None:
    directory = copy(FIXTURES / "valid" / "both_imu_spellings_agree", tmp_path)
    source = MemoryTelemetry(NAMES)
    session = make(directory, source)
    step = advance_to(session, StepKind.ROTATE_ROBOT)
    attempt(session, step, lambda: source.add(None, RAW_IMU_YAW, -45.0))
    fields = sorted(c.field for c in session.changes())
    assert fields == ["invertIMU", "invertedIMU"]


# -- offsets ---------------------------------------------------------------------------------------
def test_inverted_reading_and_circular_mean() -> None:
    assert inverted_reading(0.0) == 0.0
    assert inverted_reading(90.0) == 270.0
    assert inverted_reading(359.5) == pytest.approx(0.5)
    assert abs((circular_mean_deg([359.0, 1.0]) + 180.0) % 360.0 - 180.0) < 1e-9
    assert circular_mean_deg([10.0, 20.0]) == pytest.approx(15.0)


def test_offset_decision_converts_when_the_encoder_inversion_flips() -> None:
    same = offset_decision(
        "m.json", "m", 123.456, old_offset=270.0, old_inverted=False, new_inverted=False
    )
    assert same.new == 123.46 and same.changed
    flipped = offset_decision(
        "m.json", "m", 123.456, old_offset=270.0, old_inverted=False, new_inverted=True
    )
    assert flipped.new == pytest.approx(236.54)
    assert "in the old direction" in flipped.reason
    back = offset_decision(
        "m.json", "m", 0.0, old_offset=5.0, old_inverted=True, new_inverted=False
    )
    assert back.new == 0.0
    unchanged = offset_decision(
        "m.json", "m", 270.001, old_offset=270.0, old_inverted=False, new_inverted=False
    )
    assert not unchanged.changed and unchanged.new == 270.0 and "stays 270" in unchanged.reason


def full_run(
    session: CalibrationSession,
    robot: MemoryTelemetry,
    *,
    encoder_flip: str,
    skip_capture: bool = False,
) -> None:
    """Every step, by a person on a robot whose ``encoder_flip`` module's encoder is reversed
    (``skip_capture``: skipping the offset capture)."""
    while (step := session.next_step()) is not None:
        module = step.module
        if skip_capture and step.kind is StepKind.CAPTURE_OFFSETS:
            obs = session.skip(step)
            assert obs.verdict is Verdict.SKIPPED
            continue
        if step.kind is StepKind.TURN_MODULE and module is not None:
            absolute = -90.0 if module == encoder_flip else 90.0
            obs = attempt(session, step, partial(turn, robot, module, 90.0, absolute))
        elif step.kind is StepKind.SPIN_WHEEL and module is not None:
            obs = attempt(session, step, partial(robot.add, module, RAW_DRIVE, 0.2))
        elif step.kind is StepKind.ROTATE_ROBOT:
            obs = attempt(session, step, lambda: robot.add(None, RAW_IMU_YAW, 90.0))
        elif step.kind is StepKind.CAPTURE_OFFSETS:

            def point_forward() -> None:
                for i, name in enumerate(NAMES):
                    robot.set(name, RAW_ABSOLUTE, 10.0 + i)

            point_forward()  # the step's setup, before begin
            obs = attempt(session, step, lambda: None)
        else:
            obs = attempt(session, step, lambda: None)
        assert obs.accepted, obs.explanation


def test_captured_offset_is_converted_when_the_session_flips_the_encoder(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    session = make(config_dir, robot)
    full_run(session, robot, encoder_flip="frontright")
    capture = session.accepted(session.steps[-1])
    assert capture is not None
    offsets = {d.file: d.new for d in capture.decisions}
    assert offsets["modules/frontleft.json"] == 10.0
    assert offsets["modules/frontright.json"] == 349.0  # 11° in the old direction
    assert offsets["modules/backleft.json"] == 12.0
    assert "with absoluteEncoderInverted = true that is 349.0°" in capture.explanation


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (160.0, 200.0),
        (270.0, 90.0),
        (123.456, 236.54),  # rounded to 0.01° like a captured offset
        (359.99, 0.01),
        (-20.0, 20.0),  # an offset written in (−180°, 180°]: written in [0°, 360°)
        (0.0, 0.0),  # the same position in either direction
        (180.0, 180.0),
    ],
)
def test_converted_offset_decision(old: float, new: float) -> None:
    decision = converted_offset_decision("m.json", "m", old, new_inverted=True)
    assert (decision.file, decision.field, decision.old) == ("m.json", "absoluteEncoderOffset", old)
    assert decision.new == pytest.approx(new, abs=1e-9)
    assert "no offset captured, and absoluteEncoderInverted becomes true" in decision.reason
    if old in (0.0, 180.0):
        assert not decision.changed and decision.new == old
        assert f"absoluteEncoderOffset stays {old:g} (the same in either direction)" in (
            decision.reason
        )
    else:
        assert decision.changed and "read in the new direction" in decision.reason


def test_skipped_capture_converts_the_offset_of_a_flipped_encoder(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    """frontleft's encoder is reversed and its offset (270°, a wheel-forward reading in the old
    direction) is not captured: 90°, the same position read in the new direction, is written with
    the flag, so the module keeps pointing where it did (not 360° − 2 × 270° off)."""
    before = snapshot_files(config_dir)
    session = make(config_dir, robot)
    full_run(session, robot, encoder_flip="frontleft", skip_capture=True)
    capture = session.accepted(session.steps[-1])
    assert capture is not None and capture.verdict is Verdict.SKIPPED
    assert "frontleft: no offset captured" in capture.explanation
    changes = {(c.file, c.field): (c.old, c.new) for c in session.changes()}
    assert changes == {
        ("modules/frontleft.json", "absoluteEncoderInverted"): (False, True),
        ("modules/frontleft.json", "absoluteEncoderOffset"): (270.0, 90.0),
    }
    summary = session.summary()
    assert "modules/frontleft.json  absoluteEncoderOffset: 270 → 90" in summary
    assert (
        "frontleft: no offset captured, and absoluteEncoderInverted becomes true: "
        "absoluteEncoderOffset 270 → 90"
    ) in summary
    dry = session.apply(confirm=True, dry_run=True)
    assert dry is not None and not dry.written
    assert '+  "absoluteEncoderOffset": 90.0,' in dry.diff
    assert '+  "absoluteEncoderInverted": true' in dry.diff
    assert snapshot_files(config_dir) == before
    result = session.apply(confirm=True)
    assert result is not None and result.written
    frontleft = load_directory(config_dir).module("frontleft")
    assert frontleft.absolute_encoder_inverted is True
    assert frontleft.absolute_encoder_offset_deg == 90.0
    others = {m.name: m.absolute_encoder_offset_deg for m in load_directory(config_dir).modules}
    assert others == {"frontleft": 90.0, "frontright": 0.0, "backleft": 180.0, "backright": 90.0}


def test_skipped_capture_keeps_an_offset_of_zero(config_dir: Path, robot: MemoryTelemetry) -> None:
    """frontright's offset is 0°, the same in either direction: only its flag changes."""
    session = make(config_dir, robot)
    full_run(session, robot, encoder_flip="frontright", skip_capture=True)
    assert [(c.file, c.field) for c in session.changes()] == [
        ("modules/frontright.json", "absoluteEncoderInverted")
    ]
    kept = [d for d in session.decisions() if d.field == "absoluteEncoderOffset"]
    assert [(d.file, d.old, d.new, d.changed) for d in kept] == [
        ("modules/frontright.json", 0.0, 0.0, False)
    ]
    assert "no offset captured" not in session.summary()  # nothing converted to show


def test_offsets_are_not_converted_before_the_capture_step(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    """While the capture may still read the offset, nothing is converted."""
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")
    obs = attempt(session, step, partial(turn, robot, "frontleft", 90.0, -90.0))
    assert obs.decisions[1].new is True
    assert all(d.field != "absoluteEncoderOffset" for d in session.decisions())


def test_capture_refuses_moving_wheels(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.CAPTURE_OFFSETS)
    obs = attempt(session, step, lambda: robot.add("backleft", RAW_ABSOLUTE, 5.0))
    assert obs.verdict is Verdict.NOISY and "backleft Raw Absolute Encoder" in obs.explanation


def test_capture_refuses_a_module_with_a_read_issue(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    """The robot keeps publishing the last good Raw Absolute Encoder of an encoder it cannot read
    (a bad magnet): capturing it would write where the wheel pointed then."""
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.CAPTURE_OFFSETS)
    robot.set_read_issue("backleft", True)
    obs = attempt(session, step, lambda: None)
    assert obs.verdict is Verdict.NO_DATA
    assert "backleft: the robot reports an Absolute Encoder Read Issue" in obs.explanation
    robot.set_read_issue("backleft", False)
    assert attempt(session, step, lambda: None).accepted


# -- applying (through the real ConfigEditor) ----------------------------------------------------
def snapshot_files(directory: Path) -> dict[str, bytes]:
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in directory.rglob("*.json")
        if ".swervelib" not in p.as_posix()
    }


def test_apply_writes_nothing_until_confirmed(config_dir: Path, robot: MemoryTelemetry) -> None:
    before = snapshot_files(config_dir)
    session = make(config_dir, robot)
    with pytest.raises(CalibrationError, match=r"12 steps not done yet \(the next: Lift the robot"):
        session.apply(confirm=True)
    full_run(session, robot, encoder_flip="frontright")
    shown: list[str] = []

    def decline(summary: str) -> bool:
        shown.append(summary)
        return False

    assert session.apply(confirm=decline) is None
    assert snapshot_files(config_dir) == before
    summary = shown[0]
    assert "modules/frontright.json  absoluteEncoderInverted: false → true" in summary
    assert "absoluteEncoderOffset: 0 → 349" in summary
    assert len(session.changes()) == 5  # 1 flag + 4 offsets

    dry = session.apply(confirm=True, dry_run=True)
    assert dry is not None and not dry.written and dry.backup is None
    assert '+  "absoluteEncoderInverted": true' in dry.diff
    assert snapshot_files(config_dir) == before

    result = session.apply(confirm=True)
    assert result is not None and result.written and result.backup is not None
    assert (
        result.summary.startswith("calibrate: 5 fields in 4 files") and "\n" not in result.summary
    )
    after = load_directory(config_dir)
    modules = {m.name: m for m in after.modules}
    assert modules["frontright"].absolute_encoder_inverted is True
    assert modules["frontright"].absolute_encoder_offset_deg == 349.0
    assert modules["frontleft"].absolute_encoder_offset_deg == 10.0
    assert modules["backright"].absolute_encoder_offset_deg == 13.0
    assert modules["frontleft"].inverted.angle is False  # increasing: kept
    for name in ("frontleft.json", "backleft.json", "backright.json"):  # only the offset changed
        old = json.loads(before[f"modules/{name}"])
        new = json.loads((config_dir / "modules" / name).read_text())
        old.pop("absoluteEncoderOffset"), new.pop("absoluteEncoderOffset")
        assert old == new
    assert (config_dir / "swervedrive.json").read_bytes() == before["swervedrive.json"]


def test_apply_refuses_when_a_file_changed_meanwhile(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    session = make(config_dir, robot)
    full_run(session, robot, encoder_flip="frontright")
    path = config_dir / "modules" / "frontright.json"
    data = json.loads(path.read_text())
    data["absoluteEncoderInverted"] = True
    path.write_text(json.dumps(data))
    edited = snapshot_files(config_dir)
    with pytest.raises(CalibrationError, match="changed meanwhile"):
        session.apply(confirm=True)
    assert snapshot_files(config_dir) == edited


def test_nothing_to_change_returns_none(config_dir: Path, robot: MemoryTelemetry) -> None:
    for config in load_directory(config_dir).modules:  # forward reads the configured offset
        robot.set(config.name, RAW_ABSOLUTE, config.absolute_encoder_offset_deg)
    session = make(config_dir, robot)
    while (step := session.next_step()) is not None:
        module = step.module or ""
        if step.kind is StepKind.TURN_MODULE:
            obs = attempt(session, step, partial(turn, robot, module, 30.0))
            turn(robot, module, -30.0)  # back to forward
        elif step.kind is StepKind.SPIN_WHEEL:
            obs = attempt(session, step, partial(robot.add, module, RAW_DRIVE, 0.1))
        elif step.kind is StepKind.ROTATE_ROBOT:
            obs = attempt(session, step, lambda: robot.add(None, RAW_IMU_YAW, 30.0))
        else:
            obs = attempt(session, step, lambda: None)
        assert obs.accepted, obs.explanation
    assert session.changes() == ()
    assert "Nothing to change" in session.summary()
    assert session.apply(confirm=True) is None


def test_module_names_must_match_the_robot(config_dir: Path) -> None:
    with pytest.raises(CalibrationError, match="publishes modules"):
        make(config_dir, MemoryTelemetry(("a", "b")))


# -- validation ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "message"),
    [
        (float("nan"), "not a finite number"),
        (float("inf"), "not a finite number"),
        ("12", "wrong type"),
        (True, "wrong type"),
        (None, "not published"),
        (1.0e9, "implausible value"),
        (-800.0, "implausible value"),
    ],
)
def test_invalid_values_are_refused(value: object, message: str) -> None:
    number, problem = validate(Signal("frontleft", RAW_ABSOLUTE), value)
    assert number is None and problem is not None and message in problem
    source = MemoryTelemetry(NAMES)
    source.set("frontleft", RAW_ABSOLUTE, value)
    snapshot = source.read()
    with pytest.raises(TelemetryError, match=message):
        snapshot.get(Signal("frontleft", RAW_ABSOLUTE))


def test_invalid_reading_during_a_step_is_no_data(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.SPIN_WHEEL, "frontleft")
    obs = attempt(session, step, lambda: robot.set("frontleft", RAW_DRIVE, float("nan")))
    assert obs.verdict is Verdict.NO_DATA
    assert "frontleft Raw Drive Encoder: not a finite number" in obs.explanation


def test_thresholds_are_configurable(config_dir: Path, robot: MemoryTelemetry) -> None:
    session = make(config_dir, robot, Thresholds(min_roll_m=0.5))
    step = advance_to(session, StepKind.SPIN_WHEEL, "frontleft")
    assert "at least 50 cm" in step.text
    assert attempt(session, step, lambda: robot.add("frontleft", RAW_DRIVE, 0.3)).verdict is (
        Verdict.TOO_SMALL
    )


def test_decision_changed_uses_a_small_tolerance_for_offsets() -> None:
    assert not Decision("f", "absoluteEncoderOffset", 0.0, 359.999, "").changed
    assert Decision("f", "absoluteEncoderOffset", 0.0, 0.5, "").changed
    assert Decision("f", "inverted.drive", False, True, "").changed


def iter_steps(session: CalibrationSession) -> Iterator[Step]:
    while (step := session.next_step()) is not None:
        yield step


# -- offsets only: capture_offsets -----------------------------------------------------------------
def test_capture_offsets_writes_the_current_readings(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    before = snapshot_files(config_dir)
    robot.set("frontleft", RAW_ABSOLUTE, 359.996)  # rounds to 360.00 -> written as 0
    preview = capture_offsets(config_dir, source=robot, sleep=no_sleep, dry_run=True)
    assert not preview.written and snapshot_files(config_dir) == before
    result = capture_offsets(config_dir, source=robot, sleep=no_sleep)
    assert result.written and result.summary.startswith("offsets --capture: 4 fields in 4 files")
    offsets = {m.name: m.absolute_encoder_offset_deg for m in load_directory(config_dir).modules}
    assert offsets == {"frontleft": 0.0, "frontright": 150.0, "backleft": 200.0, "backright": 250.0}
    again = capture_offsets(config_dir, source=robot, sleep=no_sleep)
    assert not again.written and again.changes == ()


def test_capture_offsets_skips_modules_without_an_encoder(tmp_path: Path) -> None:
    directory = copy(FIXTURES / "valid" / "no_encoder", tmp_path)
    source = MemoryTelemetry(NAMES)
    for name in NAMES:
        source.set(name, RAW_ABSOLUTE, 42.0)
    result = capture_offsets(directory, source=source, sleep=no_sleep)
    assert sorted(c.file for c in result.changes) == [
        "modules/backleft.json",
        "modules/frontleft.json",
        "modules/frontright.json",
    ]


def test_capture_offsets_refuses_bad_readings(config_dir: Path) -> None:
    class Moving(MemoryTelemetry):
        def read(self) -> Snapshot:
            self.add("backleft", RAW_ABSOLUTE, 3.0)
            return super().read()

    before = snapshot_files(config_dir)
    with pytest.raises(CalibrationError, match="backleft Raw Absolute Encoder changed by"):
        capture_offsets(config_dir, source=Moving(NAMES), sleep=no_sleep)
    missing = MemoryTelemetry(NAMES)
    missing.set("frontright", RAW_ABSOLUTE, float("nan"))
    with pytest.raises(CalibrationError, match="frontright Raw Absolute Encoder: not a finite"):
        capture_offsets(config_dir, source=missing, sleep=no_sleep)
    with pytest.raises(CalibrationError, match="publishes modules"):
        capture_offsets(config_dir, source=MemoryTelemetry(("a", "b")), sleep=no_sleep)
    assert snapshot_files(config_dir) == before


# -- the terminal front end ------------------------------------------------------------------------
class TerminalPerson:
    """Answers the CLI's prompts, moving the fake robot's readings as each step asks."""

    def __init__(
        self, out: io.StringIO, robot: MemoryTelemetry, steps: tuple[Step, ...], *, write: str
    ) -> None:
        self.out = out
        self.robot = robot
        self.steps = steps
        self.write = write
        self.prompts: list[str] = []
        self.nudged = False

    def current(self) -> tuple[str, str | None]:
        """The step on the screen, from its header ``Step N of M: <title>``."""
        number = re.findall(r"^Step (\d+) of \d+: ", self.out.getvalue(), re.M)[-1]
        step = self.steps[int(number) - 1]
        return step.kind.value, step.module

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("Write these changes"):
            return self.write
        kind, module = self.current()
        if prompt.startswith("Press Enter when done"):
            r = self.robot
            if kind == "turn_module" and module:
                turn(r, module, 90.0 if self.nudged else 4.0)
                self.nudged = True
            elif kind == "spin_wheel" and module:
                r.add(module, RAW_DRIVE, -0.3 if module == "backright" else 0.3)
            elif kind == "rotate_robot":
                r.add(None, RAW_IMU_YAW, 45.0)
        return ""


def run_cli(
    directory: Path, robot: MemoryTelemetry, *flags: str, write: str = "y"
) -> tuple[int, str, TerminalPerson]:
    out, err = io.StringIO(), io.StringIO()
    person = TerminalPerson(out, robot, make(directory, robot).steps, write=write)
    args = build_parser().parse_args(["calibrate", str(directory), *flags])
    code = calibrate_cli.run(args, out, err, input_fn=person, source=robot, sleep=no_sleep)
    return code, out.getvalue() + err.getvalue(), person


def test_cli_guides_a_person_and_writes_after_confirmation(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    before = snapshot_files(config_dir)
    code, text, person = run_cli(config_dir, robot, "--dry-run")
    assert code == 0, text
    assert "\nStep 3 of 12: Turn the frontleft module counter-clockwise\n" in text
    assert "turn_module" not in text and "spin_wheel" not in text  # no internal names
    flat = " ".join(text.split())  # instructions and explanations are wrapped for a terminal
    assert "too small to judge" in flat and "Do it again." in flat
    assert (
        "backright Raw Drive Encoder went 1.000 m → 0.700 m while rolled forward: "
        "setting inverted.drive = true"
    ) in flat
    assert "Changes to write in" in text and "Write these changes? [y/N] " in person.prompts
    assert '-    "drive": false,' in text and "(dry run, nothing written)" in text
    assert "Restart the robot code" not in text  # nothing was written
    assert snapshot_files(config_dir) == before

    code, text, _ = run_cli(config_dir, robot, write="n")
    assert code == 0 and "Nothing written." in text
    assert snapshot_files(config_dir) == before

    code, text, _ = run_cli(config_dir, robot)
    assert code == 0 and "calibrate: " in text and "(backup: " in text
    assert "Restart the robot code now" in text  # it reads the JSON files at start-up
    modules = {m.name: m for m in load_directory(config_dir).modules}
    assert modules["backright"].inverted.drive is True


def test_cli_quit_writes_nothing(config_dir: Path, robot: MemoryTelemetry) -> None:
    out, err = io.StringIO(), io.StringIO()
    args = build_parser().parse_args(["calibrate", str(config_dir)])
    code = calibrate_cli.run(args, out, err, input_fn=lambda _: "q", source=robot)
    assert code == 1 and "Stopped: nothing written." in out.getvalue()


def test_cli_reports_an_invalid_directory(tmp_path: Path, robot: MemoryTelemetry) -> None:
    directory = copy(REV_NAVX, tmp_path)
    (directory / "swervedrive.json").write_text('{"imu": 3}')
    out, err = io.StringIO(), io.StringIO()
    args = build_parser().parse_args(["calibrate", str(directory)])
    assert calibrate_cli.run(args, out, err, input_fn=lambda _: "", source=robot) == 1
    assert "not a valid configuration" in err.getvalue()
    assert err.getvalue().startswith(f"{directory}/swervedrive.json:1:")  # a path to click


# -- words for people ------------------------------------------------------------------------------
def test_steps_have_titles_for_people(config_dir: Path, robot: MemoryTelemetry) -> None:
    titles = [step.title for step in make(config_dir, robot).steps]
    assert titles[:4] == [
        "Lift the robot",
        "Point every wheel forward",
        "Turn the frontleft module counter-clockwise",
        "Roll the frontleft wheel forward",
    ]
    assert titles[-2:] == [
        "Rotate the whole robot counter-clockwise",
        "Capture the absolute encoder offsets",
    ]
    assert not any("_" in title for title in titles)


def test_rolling_wheels_by_hand_warns_of_the_drive_motors_brake_mode(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    """The session only reads telemetry (it cannot put the motors in coast): it says so."""
    steps = make(config_dir, robot).steps
    rolls = [s for s in steps if s.kind is StepKind.SPIN_WHEEL]
    assert "brake mode, even disabled" in rolls[0].setup and "coast" in rolls[0].setup
    assert "put them back in brake" in rolls[0].setup
    assert all("brake mode" in s.setup for s in rolls[1:])
    rotate = next(s for s in steps if s.kind is StepKind.ROTATE_ROBOT)
    assert "brake mode" in rotate.setup


def cli_text(directory: Path, columns: int, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    code, text, _ = run_cli(directory, new_robot(), "--dry-run")
    assert code == 0, text
    return text


@pytest.mark.parametrize("columns", [80, 60, 40])
def test_cli_text_fits_the_terminal_without_splitting_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    monkeypatch.chdir(tmp_path)  # a short relative directory name, as a person types it
    copy(REV_NAVX, tmp_path)
    directory = Path(REV_NAVX.name)
    text = cli_text(directory, columns, monkeypatch)
    too_long = [line for line in text.splitlines() if len(line) > columns]
    assert too_long == [], too_long
    wide = cli_text(directory, 10_000, monkeypatch)
    assert max(len(line) for line in wide.splitlines()) > 100  # the wide run did not wrap
    assert text.split() == wide.split()  # the same words: none was cut in two


def test_the_live_line_fits_in_one_terminal_line(
    config_dir: Path, robot: MemoryTelemetry, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = make(config_dir, robot)
    step = advance_to(session, StepKind.TURN_MODULE, "frontleft")
    session.begin(step)
    assert len(session.live()) > 60
    for columns in (60, 80):
        monkeypatch.setenv("COLUMNS", str(columns))
        out = io.StringIO()
        live = calibrate_cli._Live(session, out)
        live.show()
        live.show()
        for line in out.getvalue().split("\r")[1:]:
            assert len(line) <= columns - 1 and line.endswith(("…", " ")), line


# -- the encoder's resolution ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("encoder", "reading", "written"),
    [
        ("cancoder", 12.35, 12.3),  # 0.05° < one count of 4096 (0.088°): noise
        ("cancoder", 12.25, 12.3),
        ("cancoder", 12.4, 12.4),  # 0.1°: a real change
        ("throughbore", 12.6, 12.3),  # 0.3° < one count of 1024 (0.352°)
        ("throughbore", 12.7, 12.7),
        ("throughbore", 360.0 + 12.0, 12.3),  # through 0°/360°
        (None, 12.35, 12.35),  # no encoder named: every change of 0.01° counts
    ],
)
def test_offsets_closer_than_one_encoder_count_are_not_rewritten(
    encoder: str | None, reading: float, written: float
) -> None:
    decision = offset_decision(
        "m.json",
        "m",
        reading,
        old_offset=12.3,
        old_inverted=False,
        new_inverted=False,
        encoder_type=encoder,
    )
    assert decision.new == written and decision.changed is (written != 12.3)
    if not decision.changed:
        assert f"stays 12.3 (less than one count of its {encoder} encoder" in decision.reason


def test_capture_ignores_changes_smaller_than_the_encoder_resolution(
    config_dir: Path, robot: MemoryTelemetry
) -> None:
    """vortex_throughbore_navx: Through Bore encoders (1024 counts, 0.35°), offsets 270, 0, 180,
    90: readings 0.2° away are noise, 0.5° away a change."""
    before = snapshot_files(config_dir)
    for name, reading in zip(NAMES, (270.2, 359.8, 180.5, 90.0), strict=True):
        robot.set(name, RAW_ABSOLUTE, reading)
    result = capture_offsets(config_dir, source=robot, sleep=no_sleep)
    assert [(c.file, c.new) for c in result.changes] == [("modules/backleft.json", 180.5)]
    after = snapshot_files(config_dir)
    assert {f for f in after if after[f] != before[f]} == {"modules/backleft.json"}
