"""phoenix6 Talons kept on their commands while a test steps time faster than real time.

A Talon takes its control frames, runs its control loop and sends its status frames on the wall
clock, and drops a one-shot command (:mod:`swervelib.devices.ctre6.talonfx`) about 100 ms of wall
time after its frame, as a robot's Talon does after 100 ms without one. On a robot those 100 ms are
the robot's own time. In stepped time they are not: a loop that waits for frames, or a process
that a loaded machine leaves without the CPU, can take longer than that between the command and
the physics step that reads the Talon's output, while no simulated time passes at all. The Talon
then applied nothing for that step (a Kraken robot driven at 1 m/s for 1 s in 20 ms steps went
0.668 m where it goes 0.853 m, with a 0.15 s pause after the command in every fifth loop; a
loaded CI machine once saw 0.71 m).

So before each step :class:`TalonCommands` sends each Talon its last command again, unchanged,
while that command is younger than :data:`COMMAND_LIFETIME_S` of simulated time, and waits until
the Talons have taken it and no more than :data:`FRESH_S` of wall time has passed since: whatever
the machine does, the physics reads what each Talon applies for the command in force. A command
that simulated time has outlived is not sent again: the Talon drops it, as on a robot, so a drive
that stops renewing its commands still stops.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from swervelib.devices.interfaces import SwerveMotor

# How long a Talon holds a one-shot command without another frame (its simulated time here).
COMMAND_LIFETIME_S = 0.1
# The most wall time from sending the commands to the physics reading the Talons' outputs: half
# the 100 ms after which a Talon drops a command, the other half left for reading them.
FRESH_S = 0.05
# How long one wait for a Talon's frames lasts at most (ten frames).
COMMAND_WAIT_S = 0.1
# While waiting for frames, the commands are sent again this often (wall time).
RESEND_EVERY_S = 0.025
# Sending and waiting again ends after this long (a Talon that stopped answering: the step goes on).
GIVE_UP_S = 10.0


class TalonCommands:
    """The phoenix6 motors of a simulated robot, kept on their commands in stepped time."""

    def __init__(self, motors: Sequence[SwerveMotor]) -> None:
        self._motors = list(motors)
        self._commands_awaited = -1  # the motors' commands_sent the last wait was for
        self._command_age_s = 0.0  # simulated time since the newest command
        self._sent_at = -GIVE_UP_S  # wall time (time.perf_counter) the commands were last sent

    def before_step(self, dt: float) -> None:
        """Before a step of ``dt`` seconds of simulated time: :meth:`hold`, and the newest
        command is ``dt`` older."""
        try:
            self.hold()
        finally:
            self._command_age_s += dt

    def _live(self) -> list[SwerveMotor]:
        return [motor for motor in self._motors if getattr(motor.sim, "connected", True)]

    def _young(self) -> bool:
        """Time is stepped and the newest command younger than a Talon holds one."""
        from wpilib.simulation import isTimingPaused

        return isTimingPaused() and self._command_age_s < COMMAND_LIFETIME_S

    def keep(self) -> None:
        """Send each connected Talon its command again while simulated time has not outlived
        it (stepped time only)."""
        if self._young():
            self._send(self._live())

    def _send(self, live: Sequence[SwerveMotor]) -> None:
        self._sent_at = time.perf_counter()
        for motor in live:
            _resend(motor.sim)

    def wait_for_frames(self, groups: Sequence[list[Any]], timeout_s: float) -> bool:
        """``swervelib.devices.ctre6.batch.wait_for_frames``, sending the commands again
        (:meth:`keep`) every :data:`RESEND_EVERY_S` of the wait: a wait that a loaded machine
        stretches past 100 ms does not let a Talon drop its command meanwhile."""
        from swervelib.devices.ctre6.batch import wait_for_frame

        give_up = time.perf_counter() + timeout_s
        for group in groups:
            for _ in range(2):  # a frame already on its way when this is called has older data
                while not wait_for_frame(group, RESEND_EVERY_S):
                    if time.perf_counter() > give_up:
                        return False
                    self.keep()
        return True

    def hold(self) -> None:
        """In stepped time, let every connected Talon take its command before the physics reads
        its output, sent again while simulated time has not outlived it (module docstring).

        A new command (sent since the last step) is waited for: two status frames of each Talon,
        the second sent after the command (a frame already on its way was made before the Talon
        took it), until the Talons report themselves enabled with the command sent within the
        last :data:`FRESH_S`. The steps after the first in one robot loop (physics stepped in
        parts of it) wait only when more than :data:`FRESH_S` of wall time passed since the
        commands were last sent: waiting at each of them (some 10 ms of real time a frame) once
        held the commands up until the Talons dropped them, and a Kraken robot driven in ten 2 ms
        steps per loop covered 1.29 m of the 3.33 m it covers in one 20 ms step. In real time
        (``robotpy sim``) the Talons run alongside the loop: nothing to do."""
        from wpilib.simulation import isTimingPaused

        if not isTimingPaused():
            return
        sent = sum(getattr(motor, "commands_sent", 0) for motor in self._motors)
        new = sent != self._commands_awaited
        if new:
            self._commands_awaited = sent
            self._command_age_s = 0.0
        elif self._command_age_s >= COMMAND_LIFETIME_S:
            return  # the Talons drop it by now, as on a robot
        live = self._live()
        if not live:
            return
        from wpilib import DriverStation

        from swervelib.devices.ctre6 import hold_enable
        from swervelib.devices.ctre6.batch import group_by_bus

        hold_enable()  # phoenix6's own enable may have lapsed too (wait_for_readings)
        sims = [motor.sim for motor in live]
        groups = group_by_bus(
            [signal for motor in live for signal in motor.status_signals()]
            + [signal for sim in sims if (signal := getattr(sim, "enable_signal", None))]
        )
        # a new command, or one a Talon may have dropped since it was last sent: wait for it
        wait = new or time.perf_counter() - self._sent_at > FRESH_S
        give_up = time.perf_counter() + GIVE_UP_S
        while True:
            self._send(live)
            if not wait:
                return
            self.wait_for_frames(groups, COMMAND_WAIT_S)
            fresh = time.perf_counter() - self._sent_at <= FRESH_S
            taken = not DriverStation.isEnabled() or all(_takes_commands(sim) for sim in sims)
            if (fresh and taken) or time.perf_counter() > give_up:
                return


def _resend(sim: Any) -> None:
    resend = getattr(sim, "resend_command", None)
    if resend is not None:
        resend()


def _takes_commands(sim: Any) -> bool:
    takes = getattr(sim, "takes_commands", None)
    return True if takes is None else bool(takes())
