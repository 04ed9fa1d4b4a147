"""End to end: calibrate a miswired `robotpy sim` robot over a real NetworkTables connection.

The example robot runs in its own process (`python -m robotpy sim --nogui`) on a hardware truth
that disagrees with its configuration; this test plays the person, through the robot's SimHands
bridge, and follows the guided session's steps. Afterwards the written configuration describes the
hardware.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from swervelib.config import load_directory
from swervelib.sim.hands import HandsClient
from swervelib.sim.truth import HardwareTruth
from swervelib.tools.calibrate import CalibrationSession, StepKind, Verdict
from swervelib.tools.telemetry_client import (
    RAW_ABSOLUTE,
    RAW_DRIVE,
    RAW_IMU_YAW,
    NetworkTablesTelemetry,
    Signal,
)
from tests.calibrate import assert_config_describes
from tests.processes import copy_example, running_sim
from tests.waits import until

STILL_READS = 4  # readings unchanged over this many reads, 50 ms apart (several robot loops)


def settled(
    source: NetworkTablesTelemetry, before: Any = None, moved: Signal | None = None
) -> None:
    """Wait until the robot's telemetry shows what the hands did (``moved`` away from its value
    ``before``), then until every reading holds still: the robot's loop, CTRE's wall-clock
    signals and NetworkTables have all caught up, however loaded the machine is."""
    if moved is not None:
        old = before.values[moved]

        def shows_it() -> bool:
            new = source.read().values.get(moved)
            return new is not None and abs(new - old) > 1e-3

        assert until(shows_it), f"the robot's telemetry never showed {moved.label} move"
    last: list[Any] = [None]
    still = [0]

    def holds_still() -> bool:
        values = dict(source.read().values)
        still[0] = still[0] + 1 if values == last[0] else 0
        last[0] = values
        if still[0] < STILL_READS:
            time.sleep(0.05)
            return False
        return True

    assert until(holds_still), "the robot's telemetry never held still"


def miswired(truth: HardwareTruth) -> HardwareTruth:
    changed = (
        truth.with_corner("frontleft", angle_reversed=True, encoder_zero_deg=250.0)
        .with_corner("frontright", encoder_reversed=True, encoder_zero_deg=40.0)
        .with_corner("backleft", drive_reversed=True)
        .with_corner("backright", encoder_zero_deg=123.4)
    )
    return replace(changed, imu_reversed=True)


@pytest.fixture
def robot(tmp_path: Path) -> Iterator[tuple[Path, HardwareTruth]]:
    project = tmp_path / "robot"
    copy_example(project, "tests")
    directory = project / "deploy" / "swerve"
    truth = miswired(HardwareTruth.matching(load_directory(directory)))
    truth.save(project / "sim_hardware.json")
    env = {k: v for k, v in os.environ.items() if k != "SWERVELIB_DEMO"}
    with running_sim(project, env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True):
        yield directory, truth


def test_guided_session_against_robotpy_sim(robot: tuple[Path, HardwareTruth]) -> None:
    directory, truth = robot
    hands = HandsClient("localhost")
    try:
        with NetworkTablesTelemetry("localhost", timeout_s=30.0) as source:
            session = CalibrationSession(directory, source)
            while (step := session.next_step()) is not None:
                if step.kind in (
                    StepKind.FACE_BEVELS_LEFT,
                    StepKind.CAPTURE_OFFSETS,
                ) or step.kind in (StepKind.TURN_MODULE, StepKind.SPIN_WHEEL):
                    hands.point_wheels_forward()
                settled(source)
                session.begin(step)
                before = source.read()
                moved: Signal | None = None
                if step.kind is StepKind.TURN_MODULE:
                    hands.turn_module(step.module or "", 90.0)
                    moved = Signal(step.module, RAW_ABSOLUTE)
                elif step.kind is StepKind.SPIN_WHEEL:
                    hands.roll_wheel(step.module or "", 0.2)
                    moved = Signal(step.module, RAW_DRIVE)
                elif step.kind is StepKind.ROTATE_ROBOT:
                    hands.rotate_robot(90.0)
                    moved = Signal(None, RAW_IMU_YAW)
                settled(source, before, moved)
                observation = session.finish(step)
                assert observation.accepted, observation.explanation
                assert observation.verdict is not Verdict.TOO_SMALL
            result = session.apply(confirm=True)
    finally:
        hands.close()
    assert result is not None and result.written
    assert_config_describes(directory, truth, tolerance_deg=1.5)
    assert truth.imu_reversed is True
