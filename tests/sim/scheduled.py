"""A simulated drive run by commands2's scheduler the way a command-based robot runs it: the
scheduler runs the subsystem's periodic() (the drive's), then the commands; then time passes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import commands2
from wpilib.simulation import stepTiming

from swervelib.commands import SwerveSubsystem
from tests.drive.harness import LOOP, Harness
from tests.waits import PATIENCE_S


@contextmanager
def subsystem_for(h: Harness) -> Iterator[SwerveSubsystem]:
    """A SwerveSubsystem owning ``h.drive``, forgotten by the scheduler afterwards."""
    subsystem = SwerveSubsystem(h.drive)
    try:
        yield subsystem
    finally:
        scheduler = commands2.CommandScheduler.getInstance()
        scheduler.cancelAll()
        scheduler.unregisterAllSubsystems()


def run(h: Harness, seconds: float) -> None:
    """Robot loops for ``seconds``: the scheduler, the physics, then 20 ms of time."""
    scheduler = commands2.CommandScheduler.getInstance()
    for _ in range(round(seconds / LOOP)):
        scheduler.run()
        h.sim.step(LOOP)
        stepTiming(LOOP)
        assert h.sim.wait_for_readings(PATIENCE_S)
