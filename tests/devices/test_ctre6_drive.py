"""A phoenix6 drive (``deploy/kraken_cancoder_pigeon2``: Kraken X60s, CANcoders, a Pigeon 2) stepped
like a pyfrc test, with loops that take longer in wall-clock time than on an idle machine."""

from __future__ import annotations

import time

from phoenix6 import unmanaged
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from tests.conftest import DEPLOY
from tests.drive.harness import simulated

KRAKEN = DEPLOY / "kraken_cancoder_pigeon2"
# Longer than phoenix6's own enable feed lasts from a step (100 ms of wall-clock time): measured,
# a Talon stopped applying its output after a pause of 0.3 s, not yet after 0.15 s.
SLOW_LOOP_S = 0.3
FORWARD = ChassisSpeeds(1.0, 0.0, 0.0)


def drive_forward(seconds: float, pause_s: float) -> tuple[float, list[bool]]:
    """Drive forward for ``seconds`` of stepped time, each loop taking ``pause_s`` more of wall
    time before the physics reads the motors; how far the robot went, and whether phoenix6 had
    its devices enabled in each loop when the physics read them."""
    enabled: list[bool] = []

    def forward(drive: SwerveDrive) -> None:
        drive.drive(FORWARD)
        time.sleep(pause_s)  # a busy machine, between the command and the physics
        enabled.append(unmanaged.get_enable_state())

    with simulated(KRAKEN) as h:
        h.run(seconds, forward)
        return h.sim.true_pose.X(), enabled


def test_a_slow_stepped_loop_keeps_the_talons_powered() -> None:
    """phoenix6 feeds its enable on simulated time, for 100 ms of wall-clock time: a stepped loop
    that takes longer (a loaded CI machine) used to leave every Talon unpowered when the physics
    read it, and the robot short of where it drove (a corpus test turned 22° of a quarter turn).
    ``SwerveSim.wait_for_readings`` holds the enable while the Driver Station is enabled."""
    quick, quick_enabled = drive_forward(0.3, 0.0)
    slow, slow_enabled = drive_forward(0.3, SLOW_LOOP_S)
    assert quick > 0.15, quick  # 1 m/s for 0.3 s, from standing
    assert slow > 0.5 * quick, (slow, quick, slow_enabled)
    assert all(quick_enabled) and all(slow_enabled), (quick_enabled, slow_enabled)
