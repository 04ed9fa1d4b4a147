"""Hostile input over NetworkTables (issue 12, part 8).

The robot side is a SimHands bridge on a real SwerveSim of a REV + navX configuration (CAN ids 21 to
28, so that no other drive of this test process shares them), listening on a NetworkTables server
instance on a free localhost port. Each hostile command comes from a separate NetworkTables client
instance over TCP, as any program on the network could send it. Every one must be refused with a
short printable reason, answered (``-id`` on the done topic when an id can be read, the reason on
the error topic), leave the simulated robot exactly where it was, and never raise out of ``poll()``
(which would end ``robotpy sim``). The same holds for ``tilt_robot``, whose refusals include a
tilt the robot's IMU cannot show (a phoenix5 Pigeon IMU, on a second robot: REV ids 31 to 38,
Pigeon 30); a valid tilt is what the drive then reads from its IMU.

The calibration front end gets the same treatment from a hostile *robot*: module names, values and
strings it publishes are printed by ``python -m swervelib calibrate`` only escaped and cut short.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ntcore
import pytest

from swervelib.cli import calibrate as calibrate_cli
from swervelib.sim.hands import (
    COMMAND_TOPIC,
    DONE_TOPIC,
    ERROR_TOPIC,
    MAX_COMMAND_CHARS,
    MAX_ERROR_CHARS,
    MAX_ERRORS,
    HandsClient,
    HandsRefused,
    SimHands,
)
from swervelib.sim.swerve_sim import MAX_HAND_ROLL_M, MAX_HAND_TURN_DEG
from swervelib.text import printable
from swervelib.tools import telemetry_client
from swervelib.tools.telemetry_client import (
    MODULE_SIGNALS,
    RAW_ABSOLUTE,
    RAW_IMU_YAW,
    ROOT,
    NetworkTablesTelemetry,
    Signal,
    TelemetryError,
)
from tests.conftest import DEPLOY
from tests.drive.harness import Harness, polygon_config, simulated
from tests.ports import listening_server

TIMEOUT_S = 10.0  # a failure guard only: every wait ends as soon as its condition holds
CORNERS = ("module0", "module1", "module2", "module3")
CONFIG_NAMES = ("frontleft", "frontright", "backleft", "backright")  # vortex_throughbore_navx
# what may never reach a terminal: escape, bell, bidi override, a lone surrogate
UNSAFE = ("\x1b", "\x07", "\u202e", "\ud800", "\r")


def wait_for(
    condition: Callable[[], bool], what: str, step: Callable[[], None] | None = None
) -> None:
    """Until ``condition()`` holds (calling ``step`` in between), or fail after TIMEOUT_S."""
    deadline = time.monotonic() + TIMEOUT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        if step is not None:
            step()
        time.sleep(0.002)


def assert_printable(message: str, limit: int = MAX_ERROR_CHARS + 40) -> None:
    assert printable(message, None) == message, message
    assert len(message) <= limit, len(message)
    assert not any(char in message for char in UNSAFE), message
    message.encode("utf-8")  # no lone surrogate


# -- the robot and a hostile client --------------------------------------------------------------
@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Any, int]]:
    """A new NetworkTables server instance (the robot's) on a free localhost port, listening.

    One per test: ntcore 2026.2.2's server stops serving later clients after some publishers of
    its own are closed and made again, so no test inherits another's server. Every handle on it is
    closed before it is destroyed (a handle closed afterwards would close a newer instance's).
    """
    with listening_server(tmp_path / "networktables.json", TIMEOUT_S) as served:
        yield served


@pytest.fixture(scope="module")
def rev_navx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A REV + navX configuration with CAN ids 21..28 (one Spark per id per process)."""
    return polygon_config(tmp_path_factory.mktemp("hands") / "swerve", 4, first_id=21)


@dataclass
class Robot:
    h: Harness
    hands: SimHands
    nt: Any  # the server instance

    def poll(self) -> None:
        """One physics step's poll, and the answers sent at once (not at the next 100 ms)."""
        self.hands.poll()
        self.nt.flush()

    @property
    def handled(self) -> int:
        hands = self.hands
        return hands.applied + len(hands.errors) + hands.errors_dropped

    def state(self) -> list[float]:
        """Everything a hand can move: pose, heading, module angles, wheel distances."""
        h = self.h
        h.run(0.02)  # the drive reads the sensors (disabled: nothing moves by itself)
        pose = h.sim.true_pose
        values = [pose.X(), pose.Y(), pose.rotation().degrees(), h.sim.true_yaw_deg]
        values += [angle.degrees() for angle in h.sim.true_module_angles.values()]
        values += [position.distance for position in h.drive.get_module_positions()]
        assert all(math.isfinite(v) for v in values), values
        return values


@pytest.fixture
def robot(server: tuple[Any, int], rev_navx: Path) -> Iterator[Robot]:
    instance, _ = server
    with simulated(rev_navx, enabled=False) as h:
        hands = SimHands(h.sim, instance)
        yield Robot(h, hands, instance)
        hands.close()


class Hostile:
    """Any program on the network: publishes raw text on the command topic."""

    def __init__(self, port: int) -> None:
        self.nt = ntcore.NetworkTableInstance.create()
        self.nt.setServer("127.0.0.1", port)
        self.nt.startClient4("hostile")
        self.command = self.nt.getStringTopic(COMMAND_TOPIC).publish()
        self.done = self.nt.getIntegerTopic(DONE_TOPIC).subscribe(-1)
        self.error = self.nt.getStringTopic(ERROR_TOPIC).subscribe("<nothing>")
        wait_for(self.nt.isConnected, "the hostile client to connect")
        # the robot's current answers, as a fresh SimHands publishes them
        wait_for(lambda: self.done.get() == 0 and self.error.get() == "", "the initial answers")

    def close(self) -> None:
        # handles before the instance: one closed later would close a newer instance's handle
        for handle in (self.command, self.done, self.error):
            handle.close()
        ntcore.NetworkTableInstance.destroy(self.nt)


@pytest.fixture
def hostile(server: tuple[Any, int], robot: Robot) -> Iterator[Hostile]:
    client = Hostile(server[1])
    yield client
    client.close()


def send(robot: Robot, hostile: Hostile, text: str) -> str:
    """Publish ``text``, poll the robot until it has handled it, and return the reason it gave
    (after checking that the hostile client received that reason)."""
    before = robot.handled
    hostile.command.set(text)
    hostile.nt.flush()
    wait_for(lambda: robot.handled > before, "the robot to handle the command", robot.poll)
    assert robot.handled == before + 1
    assert robot.hands.applied == 0, "the hostile command was applied"
    message = robot.hands.errors[-1]
    assert_printable(message)
    wait_for(lambda: hostile.error.get() == message, "the reason on the error topic")
    return message


def assert_refused(robot: Robot, hostile: Hostile, text: str, command_id: int | None) -> str:
    """``text`` is refused, answered (``-id`` when it has one) and moves nothing."""
    before = robot.state()
    message = send(robot, hostile, text)
    if command_id is None:
        assert message.startswith("hands command refused: "), message
        assert hostile.done.get() == 0  # nothing to answer on done
    else:
        assert message.startswith(f"hands command {command_id} refused: "), message
        wait_for(lambda: hostile.done.get() == -command_id, "the -id answer on the done topic")
    for _ in range(5):  # still there on the topic: refused once, not once per poll
        robot.poll()
    assert len(robot.hands.errors) == 1
    assert robot.state() == pytest.approx(before, abs=1e-9)
    return message


def command(command_id: object, action: str = "rotate_robot", **fields: object) -> str:
    return json.dumps({"id": command_id, "action": action, **fields})


# -- SimHands: one test per hostile case ---------------------------------------------------------
def test_a_megabyte_command_is_refused_unparsed_and_answered_by_its_leading_id(
    robot: Robot, hostile: Hostile
) -> None:
    text = command(501, amount=10.0, pad="x" * 1_000_000)
    message = assert_refused(robot, hostile, text, 501)
    assert f"more than {MAX_COMMAND_CHARS}" in message


def test_a_megabyte_of_escape_sequences_is_refused_and_never_echoed(
    robot: Robot, hostile: Hostile
) -> None:
    text = "\x1b]0;pwned\x07\x1b[2J\u202e" * 80_000
    message = assert_refused(robot, hostile, text, None)
    assert "characters long" in message


def test_json_nested_100_000_deep_is_refused(robot: Robot, hostile: Hostile) -> None:
    assert_refused(robot, hostile, "[" * 100_000 + "]" * 100_000, None)


def test_json_nested_as_deep_as_the_size_limit_allows_is_refused(
    robot: Robot, hostile: Hostile
) -> None:
    prefix = '{"id": 502, "amount": '
    text = prefix + "[" * (MAX_COMMAND_CHARS - len(prefix))
    assert len(text) == MAX_COMMAND_CHARS
    assert_refused(robot, hostile, text, 502)


def test_a_400_digit_amount_is_refused(robot: Robot, hostile: Hostile) -> None:
    text = '{"id": 503, "action": "rotate_robot", "amount": 1' + "0" * 400 + "}"
    message = assert_refused(robot, hostile, text, 503)
    assert "too large for a float" in message


@pytest.mark.parametrize(
    ("literal", "command_id"),
    [("1e400", 504), ("-1e400", 505), ("NaN", 506), ("Infinity", 507), ("-Infinity", 508)],
)
def test_a_non_finite_amount_is_refused(
    robot: Robot, hostile: Hostile, literal: str, command_id: int
) -> None:
    text = (
        f'{{"id": {command_id}, "action": "turn_module", "corner": "module1", "amount": {literal}}}'
    )
    message = assert_refused(robot, hostile, text, command_id)
    assert "finite" in message


@pytest.mark.parametrize(
    ("action", "fields", "command_id"),
    [
        ("turn_module", {"corner": "module0", "amount": 1e300}, 509),
        ("roll_wheel", {"corner": "module2", "amount": 1e300}, 510),
        ("rotate_robot", {"amount": -1e300}, 511),
        ("turn_module", {"corner": "module0", "amount": MAX_HAND_TURN_DEG + 0.5}, 512),
        ("roll_wheel", {"corner": "module3", "amount": -(MAX_HAND_ROLL_M + 0.5)}, 513),
        ("rotate_robot", {"amount": MAX_HAND_TURN_DEG * 1.001}, 514),
    ],
)
def test_an_absurd_finite_amount_is_refused(
    robot: Robot, hostile: Hostile, action: str, fields: dict[str, object], command_id: int
) -> None:
    message = assert_refused(robot, hostile, command(command_id, action, **fields), command_id)
    assert "beyond the ±" in message


def test_the_bounds_are_exact_and_point_wheels_forward_stays_within_them(
    robot: Robot, hostile: Hostile
) -> None:
    """At the bound: done. Just beyond: refused. Twenty turns later, pointing the wheels forward
    is still done (the short way round, not unwinding 7200° past the bound)."""

    def answer(text: str, expected: int) -> None:
        hostile.command.set(text)
        hostile.nt.flush()
        wait_for(lambda: hostile.done.get() == expected, f"the answer {expected}", robot.poll)

    before = robot.h.sim.true_module_angles["module0"].degrees()
    answer(command(515, "turn_module", corner="module0", amount=MAX_HAND_TURN_DEG), 515)
    answer(command(516, "roll_wheel", corner="module0", amount=-MAX_HAND_ROLL_M), 516)
    answer(command(517, amount=-MAX_HAND_TURN_DEG), 517)
    assert robot.hands.applied == 3 and not robot.hands.errors
    after = robot.h.sim.true_module_angles["module0"].degrees()
    assert after - before == pytest.approx(MAX_HAND_TURN_DEG)  # ten whole turns, unwrapped
    assert robot.h.sim.true_yaw_deg == pytest.approx(-MAX_HAND_TURN_DEG)
    state = robot.state()
    answer(command(518, "turn_module", corner="module0", amount=MAX_HAND_TURN_DEG + 1e-9), -518)
    answer(command(519, "roll_wheel", corner="module0", amount=MAX_HAND_ROLL_M * 1.0001), -519)
    answer(command(520, amount=-MAX_HAND_TURN_DEG - 0.001), -520)
    assert len(robot.hands.errors) == 3 and robot.state() == pytest.approx(state, abs=1e-9)
    answer(command(521, "turn_module", corner="module0", amount=MAX_HAND_TURN_DEG), 521)
    answer(command(522, "point_wheels_forward"), 522)
    for angle in robot.h.sim.true_module_angles.values():
        assert math.remainder(angle.degrees(), 360.0) == pytest.approx(0.0, abs=1e-6)


def test_a_boolean_amount_is_refused(robot: Robot, hostile: Hostile) -> None:
    message = assert_refused(robot, hostile, command(518, amount=True), 518)
    assert "must be a number, not bool" in message


def test_a_boolean_id_is_refused(robot: Robot, hostile: Hostile) -> None:
    message = assert_refused(robot, hostile, command(True, amount=5.0), None)
    assert "its id True is not a whole number" in message


@pytest.mark.parametrize(
    "bad_id",
    [10**400, -519, 0, 2**53, 519.0, "519", None],
    ids=["400 digits", "negative", "zero", "2**53", "float", "string", "null"],
)
def test_an_id_that_is_not_a_small_whole_number_is_refused(
    robot: Robot, hostile: Hostile, bad_id: object
) -> None:
    text = command(bad_id, amount=5.0)
    message = assert_refused(robot, hostile, text, None)
    assert "is not a whole number from 1 to" in message


@pytest.mark.parametrize(
    "text",
    ['[520, "rotate_robot", 5.0]', '"rotate_robot"', "520", "null", '{"action": "rotate_robot"}'],
    ids=["array", "string", "number", "null", "no id"],
)
def test_json_that_is_not_a_command_object_is_refused(
    robot: Robot, hostile: Hostile, text: str
) -> None:
    assert_refused(robot, hostile, text, None)


def test_text_that_is_not_json_is_refused(robot: Robot, hostile: Hostile) -> None:
    message = assert_refused(robot, hostile, "turn \x1b[31mmodule0\x1b[0m by 30°", None)
    assert "not JSON" in message


@pytest.mark.parametrize(
    ("corner", "command_id"),
    [
        ("middle", 521),
        ("\x1b[2J\x1b[H\u202emodule0", 522),
        ("\ud800", 523),  # a lone surrogate (JSON can carry it as \ud800)
        ("m" * 500, 524),
        (7, 525),
    ],
    ids=["unknown", "escapes and bidi", "lone surrogate", "500 characters", "a number"],
)
def test_an_unknown_corner_is_refused(
    robot: Robot, hostile: Hostile, corner: object, command_id: int
) -> None:
    text = command(command_id, "turn_module", corner=corner, amount=30.0)
    message = assert_refused(robot, hostile, text, command_id)
    assert "no corner named" in message and "module0, module1" in message


def test_an_unknown_action_is_refused(robot: Robot, hostile: Hostile) -> None:
    message = assert_refused(robot, hostile, command(526, "explode\x1b[5m", amount=1.0), 526)
    assert "unknown action 'explode\\x1b[5m'" in message


def test_an_unknown_field_is_refused(robot: Robot, hostile: Hostile) -> None:
    text = command(527, "turn_module", corner="module0", amount=30.0, force=1e300)
    message = assert_refused(robot, hostile, text, 527)
    assert "takes no field 'force'" in message


def test_a_missing_field_is_refused(robot: Robot, hostile: Hostile) -> None:
    message = assert_refused(robot, hostile, command(528, "roll_wheel", amount=0.2), 528)
    assert "roll_wheel needs corner" in message


def test_a_command_the_simulation_fails_at_is_answered_by_its_id(
    robot: Robot, hostile: Hostile, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception the simulation raises while doing a valid command (a bug, not a bad
    command) is refused with the command's id, so the sender learns of it at once instead of
    waiting out its time-out; poll() still never raises."""

    def broken(amount: float) -> None:
        raise RuntimeError("simulator fault\x1b[5m")

    monkeypatch.setattr(robot.h.sim, "rotate_robot_by_hand", broken)
    message = assert_refused(robot, hostile, command(529, amount=10.0), 529)
    assert "internal error (RuntimeError: simulator fault\\x1b[5m)" in message, message


def test_a_flood_of_refusals_keeps_only_the_last_reasons(robot: Robot, hostile: Hostile) -> None:
    hands = robot.hands
    for index in range(MAX_ERRORS + 7):
        send(robot, hostile, command(f"flood{index}", amount=1.0))
    assert len(hands.errors) == MAX_ERRORS and hands.errors_dropped == 7
    for index, error in enumerate(hands.errors, start=7):
        assert f"its id 'flood{index}' is not" in error, error
    assert hostile.error.get() == hands.errors[-1]


def test_the_hands_client_is_told_of_a_refusal_and_valid_commands_still_work(
    server: tuple[Any, int], robot: Robot
) -> None:
    client = HandsClient("127.0.0.1", port=server[1])
    refusals: list[str] = []
    failures: list[BaseException] = []

    def person() -> None:
        try:
            client.turn_module("module1", 30.0)
            for amount in (math.nan, 1e300, 10**400):
                try:
                    client.rotate_robot(amount)
                except HandsRefused as refusal:
                    refusals.append(str(refusal))
            client.roll_wheel("module1", 0.2)
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    before = robot.h.sim.true_module_angles["module1"].degrees()
    thread = threading.Thread(target=person)
    thread.start()
    wait_for(lambda: not thread.is_alive(), "the person to finish", robot.poll)
    client.close()
    assert not failures, failures
    assert len(refusals) == 3, refusals
    assert "finite" in refusals[0] and "beyond" in refusals[1] and "too large" in refusals[2]
    for refusal in refusals:
        assert_printable(refusal)
    after = robot.h.sim.true_module_angles["module1"].degrees()
    assert after - before == pytest.approx(30.0, abs=1e-6)
    assert robot.hands.applied == 2 and robot.h.sim.true_yaw_deg == 0.0


# -- tilt_robot: a ramp under the robot, from outside --------------------------------------------
def as_person(robot: Robot, actions: Callable[[], None]) -> None:
    """Run ``actions`` (a person's HandsClient calls) in a thread while the robot polls, as
    ``robotpy sim``'s physics does; raise here whatever the person met."""
    failures: list[BaseException] = []

    def person() -> None:
        try:
            actions()
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    thread = threading.Thread(target=person)
    thread.start()
    wait_for(lambda: not thread.is_alive(), "the person to finish", robot.poll)
    if failures:
        raise failures[0]


def tilt_read(robot: Robot) -> tuple[float, float]:
    """The (pitch, roll) the drive reads from its IMU after a robot loop (a navX takes a tilt in
    on its next update)."""
    robot.h.run(0.02)
    pitch, roll = robot.h.drive.get_pitch(), robot.h.drive.get_roll()
    assert pitch is not None and roll is not None
    return pitch.degrees(), roll.degrees()


def answered(robot: Robot, hostile: Hostile, text: str, expected: int) -> None:
    """Publish ``text`` and poll the robot until the done topic says ``expected``."""
    hostile.command.set(text)
    hostile.nt.flush()
    wait_for(lambda: hostile.done.get() == expected, f"the answer {expected}", robot.poll)


def test_the_hands_client_tilts_the_robot_and_the_drive_reads_it(
    server: tuple[Any, int], robot: Robot
) -> None:
    client = HandsClient("127.0.0.1", port=server[1])
    try:
        as_person(robot, lambda: client.tilt_robot(12.0, -5.0))  # onto a ramp
        assert robot.h.sim.true_tilt_deg == (12.0, -5.0)
        on_the_ramp = tilt_read(robot)
        as_person(robot, lambda: client.tilt_robot(0.0, 0.0))  # and off it
        assert robot.h.sim.true_tilt_deg == (0.0, 0.0)
        level = tilt_read(robot)
    finally:
        client.close()
    assert on_the_ramp == pytest.approx((12.0, -5.0), abs=1e-4)
    assert level == pytest.approx((0.0, 0.0), abs=1e-4)
    assert robot.hands.applied == 2 and not robot.hands.errors


@pytest.mark.parametrize(
    ("fields", "says", "command_id"),
    [
        ({"pitch": math.nan, "roll": 0.0}, "a pitch must be a finite number", 601),
        ({"pitch": 0.0, "roll": -math.inf}, "a roll must be a finite number", 602),
        ({"pitch": 1e300, "roll": 0.0}, "within ±90°, not 1e+300", 603),
        ({"pitch": 0.0, "roll": 10**400}, "a roll must be a finite number", 604),
        (
            {"pitch": 90.001, "roll": 0.0},
            "a pitch must be a finite number of degrees within ±90°",
            605,
        ),
        (
            {"pitch": 0.0, "roll": -180.5},
            "a roll must be a finite number of degrees within ±180°",
            606,
        ),
        ({"pitch": True, "roll": 0.0}, "not bool", 607),
        ({"pitch": 5.0, "roll": "3"}, "not str", 608),
        ({"pitch": [5.0], "roll": 1.0}, "not list", 609),
        ({"pitch": 5.0}, "tilt_robot needs roll", 610),
        ({"pitch": 5.0, "roll": 1.0, "amount": 3.0}, "tilt_robot takes no field 'amount'", 611),
    ],
    ids=[
        "NaN",
        "-Infinity",
        "1e300",
        "400 digits",
        "pitch beyond 90",
        "roll beyond 180",
        "boolean",
        "string",
        "array",
        "missing roll",
        "unknown field",
    ],
)
def test_a_bad_tilt_is_refused_and_the_robot_stays_as_tilted(
    robot: Robot, hostile: Hostile, fields: dict[str, object], says: str, command_id: int
) -> None:
    robot.h.sim.set_tilt(3.0, -4.0)  # already on a ramp: a refused tilt leaves it there
    before = tilt_read(robot)
    text = command(command_id, "tilt_robot", **fields)
    message = assert_refused(robot, hostile, text, command_id)
    assert says in message, message
    assert robot.h.sim.true_tilt_deg == (3.0, -4.0)
    assert tilt_read(robot) == before == pytest.approx((3.0, -4.0), abs=1e-4)


def test_the_tilt_bounds_are_exact(robot: Robot, hostile: Hostile) -> None:
    """Pitch ±90° and roll ±180° (the Euler angles' ranges) are done; just beyond, refused."""
    answered(robot, hostile, command(612, "tilt_robot", pitch=90.0, roll=180.0), 612)
    answered(robot, hostile, command(613, "tilt_robot", pitch=-90.0, roll=-180.0), 613)
    assert robot.hands.applied == 2 and robot.h.sim.true_tilt_deg == (-90.0, -180.0)
    answered(robot, hostile, command(614, "tilt_robot", pitch=90.0 + 1e-9, roll=0.0), -614)
    answered(robot, hostile, command(615, "tilt_robot", pitch=0.0, roll=-180.0 - 1e-9), -615)
    assert len(robot.hands.errors) == 2 and robot.h.sim.true_tilt_deg == (-90.0, -180.0)


@pytest.fixture(scope="module")
def rev_pigeon(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """REV modules (CAN ids 31..38) on the original Pigeon IMU (phoenix5, CAN id 30), whose
    simulator cannot be tilted."""
    directory = polygon_config(tmp_path_factory.mktemp("pigeon") / "swerve", 4, first_id=31)
    path = directory / "swervedrive.json"
    drive = json.loads(path.read_text())
    drive["imu"] = {"type": "pigeon", "id": 30, "canbus": None}
    path.write_text(json.dumps(drive, indent=2))
    return directory


def test_a_tilt_the_phoenix5_pigeon_cannot_show_is_refused_and_the_robot_keeps_going(
    server: tuple[Any, int], rev_pigeon: Path
) -> None:
    instance, port = server
    refusals: list[str] = []
    with simulated(rev_pigeon, enabled=False) as h:
        hands = SimHands(h.sim, instance)
        robot = Robot(h, hands, instance)
        client = HandsClient("127.0.0.1", port=port)

        def person() -> None:
            try:
                client.tilt_robot(10.0, 0.0)
            except HandsRefused as refusal:
                refusals.append(str(refusal))
            client.rotate_robot(30.0)  # the hands still work

        try:
            as_person(robot, person)
            level = (h.drive.get_pitch(), h.drive.get_roll())
        finally:
            client.close()
            hands.close()
    assert len(refusals) == 1, refusals
    assert_printable(refusals[0])
    assert refusals[0].startswith("hands command ") and " refused: " in refusals[0]
    assert "the phoenix5 simulator cannot tilt a Pigeon IMU" in refusals[0], refusals[0]
    assert list(hands.errors) == refusals
    assert hands.applied == 1 and h.sim.true_yaw_deg == pytest.approx(30.0)
    assert h.sim.true_tilt_deg == (0.0, 0.0)
    pitch, roll = level  # the Pigeon reads level
    assert pitch is not None and roll is not None
    assert (pitch.degrees(), roll.degrees()) == (0.0, 0.0)


# -- SwerveSim: the by-hand methods guard their inputs -------------------------------------------
@pytest.mark.parametrize(
    ("call", "error", "says"),
    [
        (lambda sim: sim.turn_module_by_hand("module0", math.nan), ValueError, "finite"),
        (lambda sim: sim.turn_module_by_hand("module0", math.inf), ValueError, "finite"),
        (lambda sim: sim.turn_module_by_hand("module0", 1e300), ValueError, "beyond"),
        (lambda sim: sim.turn_module_by_hand("module0", 10**400), ValueError, "too large"),
        (lambda sim: sim.turn_module_by_hand("module0", True), TypeError, "not bool"),
        (lambda sim: sim.turn_module_by_hand("module0", "30"), TypeError, "not str"),
        (lambda sim: sim.turn_module_by_hand(7, 30.0), TypeError, "must be a string"),
        (lambda sim: sim.turn_module_by_hand("\x1b[2Jx", 30.0), KeyError, "the corners are"),
        (lambda sim: sim.roll_wheel_by_hand("module0", -math.inf), ValueError, "finite"),
        (lambda sim: sim.roll_wheel_by_hand("module0", 1e300), ValueError, "beyond"),
        (lambda sim: sim.roll_wheel_by_hand("module0", False), TypeError, "not bool"),
        (lambda sim: sim.rotate_robot_by_hand(math.nan), ValueError, "finite"),
        (lambda sim: sim.rotate_robot_by_hand(-1e300), ValueError, "beyond"),
        (lambda sim: sim.rotate_robot_by_hand(-(10**400)), ValueError, "too large"),
    ],
)
def test_the_by_hand_methods_refuse_bad_amounts_and_move_nothing(
    robot: Robot, call: Callable[[Any], None], error: type[Exception], says: str
) -> None:
    before = robot.state()
    with pytest.raises(error) as raised:
        call(robot.h.sim)
    message = str(raised.value.args[0])
    assert_printable(message)
    assert says in message, message
    assert robot.state() == pytest.approx(before, abs=1e-9)


# -- the calibration tools read a hostile robot ----------------------------------------------------
class RobotTelemetry:
    """The robot's side of the raw telemetry, published on the server instance."""

    def __init__(self, instance: Any, names: object, overrides: dict[Signal, object]) -> None:
        self.publishers: list[Any] = []
        if names is not None:
            self._publish(instance, f"{ROOT}/moduleNames", names)
        signals = [Signal(m, s) for m in CONFIG_NAMES for s in MODULE_SIGNALS]
        for signal in [*signals, Signal(None, RAW_IMU_YAW)]:
            self._publish(instance, signal.topic, overrides.get(signal, 10.0))
        instance.flush()

    def _publish(self, instance: Any, topic: str, value: object) -> None:
        if isinstance(value, str):
            publisher = instance.getStringTopic(topic).publish()
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            publisher = instance.getStringArrayTopic(topic).publish()
        else:
            publisher = instance.getDoubleTopic(topic).publish()
        publisher.set(value)
        self.publishers.append(publisher)

    def close(self) -> None:
        for publisher in self.publishers:
            publisher.close()


@pytest.fixture
def publish(server: tuple[Any, int]) -> Iterator[Callable[..., RobotTelemetry]]:
    made: list[RobotTelemetry] = []

    def make(names: object, overrides: dict[Signal, object] | None = None) -> RobotTelemetry:
        telemetry = RobotTelemetry(server[0], names, overrides or {})
        made.append(telemetry)
        return telemetry

    yield make
    for telemetry in made:
        telemetry.close()


def run_cli(port: int, answers: list[str]) -> tuple[int, str]:
    """``python -m swervelib calibrate`` reading the robot on the server through a real client
    (connected, and holding the robot's moduleNames, first), answering the prompts in order, then
    quitting; returns the exit code and everything printed."""
    args = argparse.Namespace(
        directory=str(DEPLOY / "vortex_throughbore_navx"),
        server="127.0.0.1",
        port=port,
        timeout=TIMEOUT_S,
        dry_run=True,
        yes=False,
    )
    out, err = io.StringIO(), io.StringIO()
    replies = iter(answers)
    with NetworkTablesTelemetry(
        "127.0.0.1", port=port, modules=CONFIG_NAMES, timeout_s=TIMEOUT_S
    ) as source:

        def names_arrived() -> bool:
            try:
                return source.module_names() is not None
            except TelemetryError:
                return True

        wait_for(names_arrived, "the robot's moduleNames")
        code = calibrate_cli.run(
            args,
            out,
            err,
            input_fn=lambda prompt: next(replies, "q"),
            source=source,
            sleep=lambda s: None,
        )
    return code, out.getvalue() + err.getvalue()


def assert_terminal_safe(printed: str, limit: int) -> None:
    assert len(printed) < limit, len(printed)
    for line in printed.split("\n"):
        assert printable(line, None) == line, line[:200]


def test_ten_thousand_module_names_are_refused_in_one_short_line(
    server: tuple[Any, int], publish: Callable[..., RobotTelemetry]
) -> None:
    names = [f"\x1b[31mmodule{i}\u202e" for i in range(10_000)]
    publish(names)
    code, printed = run_cli(server[1], [])
    assert code == 1
    assert_terminal_safe(printed, 2_000)
    words = " ".join(printed.split())
    assert "moduleNames" in words and "10000 names, more than 16" in words


def test_module_names_with_control_characters_are_refused(
    server: tuple[Any, int], publish: Callable[..., RobotTelemetry]
) -> None:
    publish(["frontleft", "frontright\x1b[2J", "backleft", "backright"])
    code, printed = run_cli(server[1], [])
    assert code == 1
    assert_terminal_safe(printed, 2_000)
    words = " ".join(printed.split())
    assert "entry 1 ('frontright\\x1b[2J') holds control or invisible characters" in words


def test_a_megabyte_string_value_is_printed_escaped_and_cut(
    server: tuple[Any, int], publish: Callable[..., RobotTelemetry]
) -> None:
    hostile = Signal("frontleft", RAW_ABSOLUTE)
    publish(list(CONFIG_NAMES), {hostile: "\x1b[2J\u202e" + "9" * 1_000_000})
    code, printed = run_cli(server[1], ["", "q"])  # the lift step, refused, then quit
    assert code == 1 and "Stopped: nothing written." in printed
    assert_terminal_safe(printed, 10_000)
    words = " ".join(printed.split())  # as wrapped for the terminal
    assert "frontleft Raw Absolute Encoder: wrong type" in words
    assert "'\\x1b[2J\\u202e999" in words and "(1000005 characters)" in words


def test_a_20_000_entry_array_value_is_described_in_a_few_characters(
    server: tuple[Any, int], publish: Callable[..., RobotTelemetry]
) -> None:
    hostile = Signal(None, RAW_IMU_YAW)
    # (20 000: a robot's own ntcore queues no more than 2 MB of values for the network at once)
    publish(list(CONFIG_NAMES), {hostile: ["\x1b[5m"] * 20_000})
    with NetworkTablesTelemetry(
        "127.0.0.1", port=server[1], modules=CONFIG_NAMES, timeout_s=TIMEOUT_S
    ) as client:
        problem = client.read().problem(hostile)
    assert problem is not None and "wrong type" in problem
    assert_printable(problem, 400)
    assert "(20000 items)" in problem


def test_telemetry_client_refuses_hostile_module_names_when_it_reads_them(
    server: tuple[Any, int], publish: Callable[..., RobotTelemetry]
) -> None:
    publish(["a" * 101, "b"])
    with pytest.raises(TelemetryError) as raised:
        NetworkTablesTelemetry("127.0.0.1", port=server[1], timeout_s=TIMEOUT_S)
    assert "entry 0 is 101 characters long" in str(raised.value)
    assert_printable(str(raised.value), 400)


class StuckFirstClient:
    """A NetworkTables instance whose first client never connects (a client that stays
    unconnected); a client started again connects."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.starts = 0

    def startClient4(self, identity: str) -> None:
        self.starts += 1
        self.real.startClient4(identity)

    def isConnected(self) -> bool:
        return self.starts > 1 and bool(self.real.isConnected())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_a_client_that_does_not_connect_is_started_again(
    server: tuple[Any, int],
    publish: Callable[..., RobotTelemetry],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    publish(list(CONFIG_NAMES))
    made: list[StuckFirstClient] = []
    create, destroy = ntcore.NetworkTableInstance.create, ntcore.NetworkTableInstance.destroy

    def stuck() -> StuckFirstClient:
        made.append(StuckFirstClient(create()))
        return made[-1]

    def destroy_real(instance: Any) -> None:
        destroy(instance.real if isinstance(instance, StuckFirstClient) else instance)

    monkeypatch.setattr(ntcore.NetworkTableInstance, "create", staticmethod(stuck))
    monkeypatch.setattr(ntcore.NetworkTableInstance, "destroy", staticmethod(destroy_real))
    monkeypatch.setattr(telemetry_client, "RESTART_CLIENT_S", 0.2)
    with NetworkTablesTelemetry("127.0.0.1", port=server[1], timeout_s=TIMEOUT_S) as client:
        assert client.modules == CONFIG_NAMES
        assert client.read().problem(Signal(None, RAW_IMU_YAW)) is None
    assert [instance.starts for instance in made] == [2]


# -- closing a client leaves the process's later NetworkTables instances alone --------------------
def test_closed_clients_leave_later_instances_working(
    server: tuple[Any, int], publish: Callable[..., RobotTelemetry]
) -> None:
    """A handle released after its instance is destroyed (when the Python object is collected)
    would close whatever a newer instance, reusing the index, has under the same handle number."""
    publish(list(CONFIG_NAMES))
    hands = HandsClient("127.0.0.1", port=server[1])
    hands.close()
    telemetry = NetworkTablesTelemetry(
        "127.0.0.1", port=server[1], modules=CONFIG_NAMES, timeout_s=TIMEOUT_S
    )
    telemetry.close()
    later = [ntcore.NetworkTableInstance.create() for _ in range(2)]  # reusing their indexes
    handles: list[Any] = []
    try:
        for instance in later:
            handles.append(instance.getIntegerTopic("/later").publish())
            handles += [instance.getTopic(f"/later{i}").genericSubscribe() for i in range(20)]
            handles.append(instance.getIntegerTopic("/later").subscribe(-1))
        del hands, telemetry
        gc.collect()  # the closed clients' Python objects go now
        for index, instance in enumerate(later):
            publisher, subscriber = handles[22 * index], handles[22 * index + 21]
            publisher.set(index + 5)
            assert subscriber.get() == index + 5, instance
    finally:
        for handle in handles:
            close = getattr(handle, "close", None)
            if close is not None:
                close()
        handles.clear()  # generic subscribers have no close(): released here
        for instance in later:
            ntcore.NetworkTableInstance.destroy(instance)
