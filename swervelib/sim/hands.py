"""A simulated person's hands over NetworkTables, for calibrating or tilting a `robotpy sim` robot.

The calibration procedures need someone to turn modules, roll wheels and rotate the
robot by hand; code that acts on the robot's tilt needs it put on a ramp. In ``robotpy sim`` the
robot runs in its own process, so the actions travel over NetworkTables: the robot's physics runs
a :class:`SimHands` bridge (the example's ``physics.py`` does), and a person-simulating program
uses :class:`HandsClient`::

    hands = HandsClient("localhost")
    hands.turn_module("frontleft", 30.0)      # degrees, counter-clockwise seen from above
    hands.roll_wheel("frontleft", 0.2)        # metres, the way the wheel faces
    hands.rotate_robot(45.0)                  # degrees, counter-clockwise
    hands.point_wheels_forward()              # every wheel back to facing the robot's front
                                              # (each turned the short way round)
    hands.tilt_robot(12.0, -5.0)              # degrees: pitch (front down), roll (left side up),
                                              # held until tilted again; (0, 0) stands it level

Each call waits until the robot has done it, and raises :class:`HandsRefused` (with the robot's
reason) if the robot refused it. Only simulations listen.

The protocol. A command is a JSON object on the string topic ``/swervelib/sim/hands/command``::

    {"id": 7, "action": "turn_module", "corner": "frontleft", "amount": 30.0}

``id`` is a whole number from 1 to 2**53 − 1, new for each command (a command whose id equals the
previous one is the same command sent again, and is ignored). ``action`` is one of
:data:`ACTIONS`; ``turn_module`` and ``roll_wheel`` need ``corner`` and ``amount``,
``rotate_robot`` needs ``amount``, ``point_wheels_forward`` nothing, ``tilt_robot`` ``pitch`` and
``roll`` (degrees, :meth:`~swervelib.sim.swerve_sim.SwerveSim.set_tilt`'s: the tilt itself, not a
change of it); any other field is refused.
The robot answers on the integer topic ``/swervelib/sim/hands/done``:

* ``id`` — done;
* ``-id`` — refused, nothing moved; the reason is on the string topic
  ``/swervelib/sim/hands/error`` (``hands command 7 refused: ...``), written before the answer.

A command so broken that no id can be read from it (not JSON, not an object, no valid id) cannot be
answered on ``done``; its reason goes to the error topic alone (``hands command refused: ...``).
When unreadable text still starts with ``{"id": N,`` (as :class:`HandsClient` writes it), ``-N``
is answered all the same.

Anything may arrive on the command topic (any program on the network can publish), so the robot
refuses, with a short printable reason and without raising out of :meth:`SimHands.poll` (an
exception in ``physics.py`` ends ``robotpy sim``): text over :data:`MAX_COMMAND_CHARS` characters
(before parsing it), JSON nested too deeply, NaN, infinities and numbers too large for a float,
booleans where numbers are expected, unknown actions, corners and fields, and amounts beyond what a
hand does at once — ±:data:`~swervelib.sim.swerve_sim.MAX_HAND_TURN_DEG` degrees (ten turns) for a
module or the robot, ±:data:`~swervelib.sim.swerve_sim.MAX_HAND_ROLL_M` metres for a wheel — so
the simulated robot's pose, module angles and wheel positions stay finite and sensible; pitches
beyond ±:data:`~swervelib.sim.swerve_sim.MAX_PITCH_DEG` and rolls beyond
±:data:`~swervelib.sim.swerve_sim.MAX_ROLL_DEG` degrees (the Euler angles' ranges); and any tilt
when the IMU's simulator cannot show one (the phoenix5 Pigeon IMU's). An exception the simulation
itself raises while doing a valid command is answered too, with the command's id, as an
``internal error``.
:attr:`SimHands.errors` keeps the last :data:`MAX_ERRORS` reasons and
:attr:`SimHands.errors_dropped` counts the older ones.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Final

import ntcore

from swervelib.sim.swerve_sim import MAX_HAND_ROLL_M, MAX_HAND_TURN_DEG, hand_amount
from swervelib.text import printable, printable_repr, shown_number

if TYPE_CHECKING:
    from swervelib.sim.swerve_sim import SwerveSim

COMMAND_TOPIC: Final = "/swervelib/sim/hands/command"
DONE_TOPIC: Final = "/swervelib/sim/hands/done"
ERROR_TOPIC: Final = "/swervelib/sim/hands/error"
ACTIONS: Final = (
    "turn_module",
    "roll_wheel",
    "rotate_robot",
    "point_wheels_forward",
    "tilt_robot",
)
# the fields each action takes besides "id" and "action"
FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "turn_module": ("corner", "amount"),
    "roll_wheel": ("corner", "amount"),
    "rotate_robot": ("amount",),
    "point_wheels_forward": (),
    "tilt_robot": ("pitch", "roll"),
}
MAX_COMMAND_CHARS: Final = 1000  # a real command is under 300 (a corner name is at most 100)
MAX_ID: Final = 2**53 - 1  # exact in every JSON implementation; -id fits the integer topic
MAX_ERRORS: Final = 100  # reasons kept in SimHands.errors
MAX_ERROR_CHARS: Final = 300  # one reason, as published and kept

_LEADING_ID = re.compile(r'\s*\{\s*"id"\s*:\s*([1-9][0-9]{0,15})\s*[,}]')


class HandsRefused(Exception):
    """The simulated robot refused a hand action (nothing moved); the message says why."""


def _leading_id(text: str) -> int | None:
    """The id of unreadable text that still starts like a command (``{"id": 7, ...``)."""
    match = _LEADING_ID.match(text[:40])
    if match is None:
        return None
    command_id = int(match.group(1))
    return command_id if command_id <= MAX_ID else None


def _describe(value: object) -> str:
    """A short, printable description of a JSON value."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return shown_number(value)


def _error_text(error: Exception) -> str:
    try:
        return printable(f"{type(error).__name__}: {error}", 120)
    except Exception:  # a message that cannot even be made into text
        return type(error).__name__


def _valid_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ID


class SimHands:
    """Robot side: applies hand actions received over NetworkTables to a :class:`SwerveSim`.

    Call :meth:`poll` every physics step; it never raises. ``errors`` holds the last
    ``max_errors`` reasons for refusing a command (oldest first), ``errors_dropped`` how many older
    ones were let go, ``applied`` how many commands were done.
    """

    def __init__(
        self,
        sim: SwerveSim,
        nt: ntcore.NetworkTableInstance | None = None,
        *,
        max_errors: int = MAX_ERRORS,
    ) -> None:
        self.sim = sim
        nt = nt or ntcore.NetworkTableInstance.getDefault()
        self._commands = nt.getStringTopic(COMMAND_TOPIC).subscribe("")
        self._done = nt.getIntegerTopic(DONE_TOPIC).publish()
        self._error = nt.getStringTopic(ERROR_TOPIC).publish()
        self._done.set(0)
        self._error.set("")
        self._last_id = 0
        self.errors: deque[str] = deque(maxlen=max(1, max_errors))
        self.errors_dropped = 0
        self.applied = 0
        self._closed = False

    def close(self) -> None:
        """Stop listening and answering (the topics stay as they are); poll() then does nothing."""
        if self._closed:
            return
        self._closed = True
        for handle in (self._commands, self._done, self._error):
            handle.close()

    def poll(self) -> None:
        """Apply the commands that arrived since the last call; refuse the ones that cannot be
        applied (see the module docstring). Never raises an Exception."""
        if self._closed:
            return
        try:
            for update in self._commands.readQueue():
                self._handle(update.value)
        except Exception as error:  # physics.py must never see one: it would end robotpy sim
            self._refuse(None, f"internal error ({_error_text(error)})")

    # -- reading and judging -------------------------------------------------------------------------
    def _handle(self, text: str) -> None:
        if not text:
            return  # the topic's value before any command
        command_id, problem, command = self._read(text)
        if command_id is not None:
            if command_id == self._last_id:
                return  # sent again (e.g. republished on reconnect): already answered
            self._last_id = command_id
        if problem is None and command is not None:
            problem = self._apply(command)
        if problem is not None:
            self._refuse(command_id, problem)
            return
        self.applied += 1
        if command_id is not None:
            self._done.set(command_id)

    @staticmethod
    def _read(text: str) -> tuple[int | None, str | None, dict[str, Any] | None]:
        """``(id, None, command)`` for a readable command, else ``(id or None, problem, None)``."""
        if len(text) > MAX_COMMAND_CHARS:
            return (
                _leading_id(text),
                f"{len(text)} characters long, more than {MAX_COMMAND_CHARS}",
                None,
            )
        try:
            value = json.loads(text)
        except RecursionError:
            return _leading_id(text), "JSON nested too deeply", None
        except ValueError as error:  # JSONDecodeError, or an integer of over 4300 digits
            return _leading_id(text), f"not JSON ({printable(str(error), 80)})", None
        if not isinstance(value, dict):
            return None, f"not a JSON object but {_describe(value)}", None
        if "id" not in value:
            return None, "it has no id", None
        command_id = value["id"]
        if not _valid_id(command_id):
            return (
                None,
                f"its id {_describe(command_id)} is not a whole number from 1 to {MAX_ID}",
                None,
            )
        return command_id, None, value

    def _apply(self, command: dict[str, Any]) -> str | None:
        """Check every field of ``command``, then do it; the problem when refused, else None."""
        action = command.get("action")
        if not isinstance(action, str) or action not in FIELDS:
            return f"unknown action {_describe(action)}, expected one of {', '.join(ACTIONS)}"
        fields = FIELDS[action]
        extra = [key for key in command if key not in ("id", "action", *fields)]
        if extra:
            shown = ", ".join(printable_repr(key, 30) for key in extra[:3])
            more = f" and {len(extra) - 3} more" if len(extra) > 3 else ""
            return f"{action} takes no field {shown}{more}"
        missing = [name for name in fields if name not in command]
        if missing:
            return f"{action} needs {' and '.join(missing)}"
        sim = self.sim
        corners = [corner.name for corner in sim.truth.corners]
        corner = command.get("corner")
        if "corner" in fields and (not isinstance(corner, str) or corner not in corners):
            return f"no corner named {_describe(corner)} (the corners are {', '.join(corners)})"
        name = corner if isinstance(corner, str) else ""
        try:
            if action == "turn_module":
                sim.turn_module_by_hand(name, self._amount(command, action))
            elif action == "roll_wheel":
                sim.roll_wheel_by_hand(name, self._amount(command, action))
            elif action == "rotate_robot":
                sim.rotate_robot_by_hand(self._amount(command, action))
            elif action == "tilt_robot":  # set_tilt checks both angles before anything changes
                sim.set_tilt(command["pitch"], command["roll"])
            else:
                for each, angle in sim.true_module_angles.items():  # the short way round
                    sim.turn_module_by_hand(each, -math.remainder(angle.degrees(), 360.0))
        except KeyError as error:
            return printable(str(error.args[0] if error.args else error), 200)
        except (TypeError, ValueError, NotImplementedError) as error:  # NotImplementedError:
            return printable(str(error), 200)  # a tilt the IMU's simulator cannot show
        except Exception as error:  # answered with the command's id: the sender is not left waiting
            return f"internal error ({_error_text(error)})"
        return None

    @staticmethod
    def _amount(command: dict[str, Any], action: str) -> float:
        """The command's amount, checked before anything moves (TypeError, ValueError)."""
        if action == "roll_wheel":
            return hand_amount(command["amount"], MAX_HAND_ROLL_M, " m", "amount")
        return hand_amount(command["amount"], MAX_HAND_TURN_DEG, "°", "amount")

    def _refuse(self, command_id: int | None, problem: str) -> None:
        """Record the reason, publish it, then answer ``-id`` (when there is an id)."""
        who = "hands command" if command_id is None else f"hands command {command_id}"
        message = printable(f"{who} refused: {problem}", MAX_ERROR_CHARS)
        if len(self.errors) == self.errors.maxlen:
            self.errors_dropped += 1
        self.errors.append(message)
        try:
            self._error.set(message)
            if command_id is not None:
                self._done.set(-command_id)
        except Exception:  # the reason is kept in self.errors; poll() must not raise
            pass


class HandsClient:
    """Person side: sends hand actions to a simulated robot and waits until they are done."""

    def __init__(self, server: str = "localhost", *, port: int | None = None) -> None:
        self.nt = ntcore.NetworkTableInstance.create()
        self.nt.setServer(server, port or ntcore.NetworkTableInstance.kDefaultPort4)
        self.nt.startClient4("swervelib-hands")
        self._command = self.nt.getStringTopic(COMMAND_TOPIC).publish()
        self._done = self.nt.getIntegerTopic(DONE_TOPIC).subscribe(0)
        self._error = self.nt.getStringTopic(ERROR_TOPIC).subscribe("")
        self._next_id = int(time.time() * 1000) % 1_000_000_000

    def close(self) -> None:
        # the handles first: closed after the instance (when collected), they would close what a
        # newer instance, reusing this one's index, has under the same handles
        for handle in (self._command, self._done, self._error):
            handle.close()
        ntcore.NetworkTableInstance.destroy(self.nt)

    def _send(self, timeout: float, **command: Any) -> None:
        self._next_id += 1
        command_id = self._next_id
        text = json.dumps({"id": command_id, **command})
        if len(text) > MAX_COMMAND_CHARS:
            raise ValueError(
                f"the {command['action']} command is {len(text)} characters long; the robot "
                f"accepts at most {MAX_COMMAND_CHARS}"
            )
        self._command.set(text)
        self.nt.flush()
        deadline = time.monotonic() + timeout
        while (done := self._done.get()) != command_id:
            if done == -command_id:
                raise HandsRefused(self._reason(command_id))
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"the simulated robot did not do {command['action']} within {timeout} s "
                    "(is robotpy sim running with swervelib's SimHands in physics.py?)"
                )
            time.sleep(0.01)

    def _reason(self, command_id: int, wait_s: float = 2.0) -> str:
        """The robot's reason for refusing ``command_id`` (published just before the answer)."""
        prefix = f"hands command {command_id} refused: "
        deadline = time.monotonic() + wait_s
        while not (message := self._error.get()).startswith(prefix):
            if time.monotonic() > deadline:
                return f"{prefix}(no reason arrived on {ERROR_TOPIC})"
            time.sleep(0.01)
        return printable(message, MAX_ERROR_CHARS)

    def turn_module(self, corner: str, degrees: float, timeout: float = 5.0) -> None:
        self._send(timeout, action="turn_module", corner=corner, amount=degrees)

    def roll_wheel(self, corner: str, metres: float, timeout: float = 5.0) -> None:
        self._send(timeout, action="roll_wheel", corner=corner, amount=metres)

    def rotate_robot(self, degrees: float, timeout: float = 5.0) -> None:
        self._send(timeout, action="rotate_robot", amount=degrees)

    def point_wheels_forward(self, timeout: float = 5.0) -> None:
        self._send(timeout, action="point_wheels_forward")

    def tilt_robot(self, pitch_deg: float, roll_deg: float, timeout: float = 5.0) -> None:
        """Tilt the robot to ``pitch_deg`` (positive with the front down) and ``roll_deg``
        (positive with the left side up), held until tilted again: ``(0, 0)`` stands it level."""
        self._send(timeout, action="tilt_robot", pitch=pitch_deg, roll=roll_deg)
