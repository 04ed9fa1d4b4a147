"""SwerveDrive.get_pitch / get_roll / get_rotation3d on a simulated robot with a navX.

The robot runs its loop (``periodic()``, the command, physics, time); the navX's own SimDevice is
tilted in the navX's convention (pitch positive front up, roll positive left side down) and the
drive reports WPILib's (pitch positive front down, roll positive left side up). The tilt is read
only when asked: the loop never reads it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from wpilib.simulation import SimDeviceSim
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from tests.drive.harness import simulated

NAVX_SIM = "navX-Sensor[4]"  # the MXP SPI port of deploy/vortex_throughbore_navx's navx_spi
NAVX_TAKES_S = 0.1  # the navX library takes its SimDevice values in on its own updates


@contextmanager
def navx_tilt() -> Iterator[tuple[Any, Any]]:
    """The navX's Pitch and Roll SimDevice values (the drive must exist: it opens the navX), level
    again afterwards (the navX is the session's: every drive test in this process shares it)."""
    device = SimDeviceSim(NAVX_SIM)
    pitch, roll = device.getDouble("Pitch"), device.getDouble("Roll")
    assert pitch and roll, f"no {NAVX_SIM}"
    try:
        yield pitch, roll
    finally:
        pitch.set(0.0)
        roll.set(0.0)


def turning(drive: SwerveDrive) -> None:
    drive.drive(ChassisSpeeds(0.5, 0.0, 1.0), field_relative=False)


def test_drive_reports_the_navx_tilt_in_wpilib_convention() -> None:
    with simulated() as h, navx_tilt() as (pitch, roll):
        h.run(0.3, turning)  # a yaw away from 0, so the 3-D rotation's yaw is checked too
        assert h.drive.get_pitch() is not None
        assert h.drive.get_pitch().degrees() == pytest.approx(0.0, abs=1e-6)  # level
        pitch.set(6.0)  # navX: the front went up 6°
        roll.set(3.0)  # navX: the left side went down 3°
        h.run(NAVX_TAKES_S, turning)
        drive = h.drive
        front_down, left_up = drive.get_pitch(), drive.get_roll()
        assert front_down is not None and left_up is not None
        assert front_down.degrees() == pytest.approx(-6.0, abs=1e-4)
        assert left_up.degrees() == pytest.approx(-3.0, abs=1e-4)
        rotation = drive.get_rotation3d()
        assert rotation is not None
        yaw = drive.get_raw_yaw()
        assert abs(yaw.degrees()) > 5.0
        assert math.degrees(rotation.x) == pytest.approx(-3.0, abs=1e-4)
        assert math.degrees(rotation.y) == pytest.approx(-6.0, abs=1e-4)
        assert math.degrees(rotation.z) == pytest.approx(
            math.degrees(math.remainder(yaw.radians(), math.tau)), abs=1e-4
        )
        # the robot tipping forward: the front goes down, pitch goes up
        pitch.set(-10.0)
        h.run(NAVX_TAKES_S, turning)
        assert drive.get_pitch().degrees() == pytest.approx(10.0, abs=1e-4)


def test_a_bad_tilt_reading_gives_none_and_the_loop_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with simulated() as h, navx_tilt() as (pitch, _roll):
        pitch.set(math.nan)
        h.run(NAVX_TAKES_S, turning)
        drive = h.drive
        assert drive.get_pitch() is None
        assert drive.get_roll() is None
        assert drive.get_rotation3d() is None
        assert drive.yaw.imu_ok  # the yaw is not concerned
        pitch.set(2.0)
        h.run(NAVX_TAKES_S, turning)
        assert drive.get_pitch().degrees() == pytest.approx(-2.0, abs=1e-4)

        def broken() -> tuple[float, float] | None:
            raise RuntimeError("adapter bug")

        monkeypatch.setattr(drive.imu, "get_pitch_roll_degrees", broken)
        assert drive.get_pitch() is None and drive.get_rotation3d() is None  # never raises
        h.run(NAVX_TAKES_S, turning)


def test_the_loop_never_reads_the_tilt(monkeypatch: pytest.MonkeyPatch) -> None:
    with simulated() as h:
        drive = h.drive
        reads = []
        read = drive.imu.get_pitch_roll_degrees

        def counted() -> tuple[float, float] | None:
            reads.append(1)
            return read()

        monkeypatch.setattr(drive.imu, "get_pitch_roll_degrees", counted)
        h.run(0.5, turning)  # 25 loops of periodic() and drive()
        assert reads == []
        drive.get_rotation3d()
        assert len(reads) == 1
