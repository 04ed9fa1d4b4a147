"""Every real team folder of the corpus that YAGSL accepts builds and drives in simulation.

Each folder (``tests/corpus/<name>``, sources in ``tests/corpus/SOURCES.md``) is built with
``SwerveDrive.from_directory`` on the real vendor simulators, put on a simulated robot built as its
configuration says (so the steering and drive conversions are the ones the loader chose, YAGSL's),
and driven the way a robot runs: a field-relative line, then a turn in place. Odometry must stay
within 10 cm and 3° of the simulated physics. Each folder runs in its own isolated group,
``corpus-<name>`` (tests/conftest.py).

The folder's own PIDF gains run on the simulated controllers, read as YAGSL reads them. Real
teams' gains differ a lot (steer kP from 0.0012 to 50 in its units, a drive `f` added on top of
the feedforward), so some robots steer slowly or drive faster than asked, here as under YAGSL on
the robot. The test therefore asserts the direction of each motion (forward and to the left,
counter-clockwise) and odometry against the physics, not how closely the robot follows the
command.
"""

from __future__ import annotations

import math
import os

import pytest
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from tests.config.corpus import ACCEPTED, CORPUS, CORPUS_GROUP_PREFIX
from tests.drive.harness import simulated

_GROUP = os.environ.get("SWERVELIB_TEST_GROUP", "")
# In its group `corpus-<name>` only that folder; run by hand in any other group, all of them.
NAMES = (
    [_GROUP.removeprefix(CORPUS_GROUP_PREFIX)]
    if _GROUP.startswith(CORPUS_GROUP_PREFIX)
    else ACCEPTED
)
TOLERANCE_M = 0.10
TOLERANCE_DEG = 3.0


def _error(h: object) -> tuple[float, float]:
    drive, sim = h.drive, h.sim  # type: ignore[attr-defined]
    pose, truth = drive.get_pose(), sim.true_pose
    distance = pose.translation().distance(truth.translation())
    heading = abs((pose.rotation() - truth.rotation()).degrees())
    return distance, heading


@pytest.mark.parametrize("name", NAMES)
def test_drives_a_field_relative_line_and_a_turn(name: str) -> None:
    with simulated(CORPUS / name, traction=False) as h:
        drive: SwerveDrive = h.drive
        speed = min(1.5, 0.5 * drive.max_speed)  # every robot can do this, whatever its gearing

        def line(d: SwerveDrive) -> None:
            d.drive(ChassisSpeeds(speed, 0.5 * speed, 0.0), field_relative=True)

        h.run(2.0, line)
        # stepped time: a phoenix6 frame's wall-clock age says nothing of the simulated robot,
        # so latency compensation must be off (on a robot, and in real time, it is on)
        batch = drive._batch
        assert batch is None or not batch.live_ages
        h.run(0.5, lambda d: d.stop())
        distance, heading = _error(h)
        truth = h.sim.true_pose
        assert truth.X() > 1.0 * speed and truth.Y() > 0.0, (name, truth)  # forward and left
        assert distance < TOLERANCE_M and heading < TOLERANCE_DEG, (name, distance, heading)

        turn = min(2.0, 0.5 * drive.max_angular_velocity)
        h.run(0.5 * math.pi / turn, lambda d: d.drive(ChassisSpeeds(0.0, 0.0, turn)))
        h.run(0.5, lambda d: d.stop())
        distance, heading = _error(h)
        turned = (h.sim.true_pose.rotation() - truth.rotation()).degrees()
        assert turned > 30.0, (name, turned)  # asked for a quarter turn, counter-clockwise
        assert distance < TOLERANCE_M and heading < TOLERANCE_DEG, (name, distance, heading)
