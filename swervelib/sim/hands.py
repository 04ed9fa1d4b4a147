"""A simulated person's hands over NetworkTables, for calibrating a `robotpy sim` robot.

The calibration procedures (spec §3.1) need someone to turn modules, roll wheels and rotate the
robot by hand. In ``robotpy sim`` the robot runs in its own process, so the actions travel over
NetworkTables: the robot's physics runs a :class:`SimHands` bridge (the example's ``physics.py``
does), and a person-simulating program uses :class:`HandsClient`::

    hands = HandsClient("localhost")
    hands.turn_module("frontleft", 30.0)      # degrees, counter-clockwise seen from above
    hands.roll_wheel("frontleft", 0.2)        # metres, the way the wheel faces
    hands.rotate_robot(45.0)                  # degrees, counter-clockwise
    hands.point_wheels_forward()              # every wheel back to facing the robot's front

Each call waits until the robot has done it. Commands are JSON strings on
``/swervelib/sim/hands/command`` (``{"id": 7, "action": "turn_module", "corner": ..., "amount": ...}``);
the robot answers with the id on ``/swervelib/sim/hands/done``. Only simulations listen.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import ntcore

if TYPE_CHECKING:
    from swervelib.sim.swerve_sim import SwerveSim

COMMAND_TOPIC = "/swervelib/sim/hands/command"
DONE_TOPIC = "/swervelib/sim/hands/done"
ACTIONS = ("turn_module", "roll_wheel", "rotate_robot", "point_wheels_forward")


class SimHands:
    """Robot side: applies hand actions received over NetworkTables to a :class:`SwerveSim`."""

    def __init__(self, sim: SwerveSim, nt: ntcore.NetworkTableInstance | None = None) -> None:
        self.sim = sim
        nt = nt or ntcore.NetworkTableInstance.getDefault()
        self._commands = nt.getStringTopic(COMMAND_TOPIC).subscribe("")
        self._done = nt.getIntegerTopic(DONE_TOPIC).publish()
        self._done.set(0)
        self._last_id = 0
        self.errors: list[str] = []

    def poll(self) -> None:
        """Apply the newest command if it has not been applied yet (call every physics step)."""
        text = self._commands.get()
        if not text:
            return
        try:
            command: dict[str, Any] = json.loads(text)
            command_id = int(command["id"])
        except (ValueError, KeyError, TypeError):
            self.errors.append(f"unreadable hands command {text[:80]!r}")
            return
        if command_id == self._last_id:
            return
        self._last_id = command_id
        try:
            self._apply(command)
        except (KeyError, ValueError, TypeError) as error:
            self.errors.append(f"hands command {command_id} refused: {error}")
        self._done.set(command_id)

    def _apply(self, command: dict[str, Any]) -> None:
        action = command["action"]
        sim = self.sim
        if action == "turn_module":
            sim.turn_module_by_hand(str(command["corner"]), float(command["amount"]))
        elif action == "roll_wheel":
            sim.roll_wheel_by_hand(str(command["corner"]), float(command["amount"]))
        elif action == "rotate_robot":
            sim.rotate_robot_by_hand(float(command["amount"]))
        elif action == "point_wheels_forward":
            for corner, angle in sim.true_module_angles.items():
                sim.turn_module_by_hand(corner, -angle.degrees())
        else:
            raise ValueError(f"unknown action {action!r}; expected one of {ACTIONS}")


class HandsClient:
    """Person side: sends hand actions to a simulated robot and waits until they are done."""

    def __init__(self, server: str = "localhost", *, port: int | None = None) -> None:
        self.nt = ntcore.NetworkTableInstance.create()
        self.nt.setServer(server, port or ntcore.NetworkTableInstance.kDefaultPort4)
        self.nt.startClient4("swervelib-hands")
        self._command = self.nt.getStringTopic(COMMAND_TOPIC).publish()
        self._done = self.nt.getIntegerTopic(DONE_TOPIC).subscribe(0)
        self._next_id = int(time.time() * 1000) % 1_000_000_000

    def close(self) -> None:
        ntcore.NetworkTableInstance.destroy(self.nt)

    def _send(self, timeout: float, **command: Any) -> None:
        self._next_id += 1
        command_id = self._next_id
        self._command.set(json.dumps({"id": command_id, **command}))
        self.nt.flush()
        deadline = time.monotonic() + timeout
        while self._done.get() != command_id:
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"the simulated robot did not do {command['action']} within {timeout} s "
                    "(is robotpy sim running with swervelib's SimHands in physics.py?)"
                )
            time.sleep(0.01)

    def turn_module(self, corner: str, degrees: float, timeout: float = 5.0) -> None:
        self._send(timeout, action="turn_module", corner=corner, amount=degrees)

    def roll_wheel(self, corner: str, metres: float, timeout: float = 5.0) -> None:
        self._send(timeout, action="roll_wheel", corner=corner, amount=metres)

    def rotate_robot(self, degrees: float, timeout: float = 5.0) -> None:
        self._send(timeout, action="rotate_robot", amount=degrees)

    def point_wheels_forward(self, timeout: float = 5.0) -> None:
        self._send(timeout, action="point_wheels_forward")
