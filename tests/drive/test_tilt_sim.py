"""SwerveSim.set_tilt: a simulated robot that tilts, seen through its navX's own simulator.

The robot runs its loop (``periodic()``, the command, physics, time). ``set_tilt`` takes WPILib's
pitch (front down positive) and roll (left side up positive); the navX's SimDevice is written in
the navX's convention (both the other way round) and the drive reads WPILib's back, from the
navX's next update. The tilt holds while the robot drives, a new SwerveSim stands level, bad
angles are refused, and an anti-tip rule (the one docs/driving.md shows) can be tried on it.
"""

from __future__ import annotations

import math

import pytest
from wpilib.simulation import SimDeviceSim
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from tests.drive.harness import simulated
from tests.drive.test_tilt_navx import NAVX_SIM, NAVX_TAKES_S, turning


def tilt(drive: SwerveDrive) -> tuple[float, float]:
    pitch, roll = drive.get_pitch(), drive.get_roll()
    assert pitch is not None and roll is not None
    return pitch.degrees(), roll.degrees()


def navx_values() -> tuple[float, float]:
    """The navX SimDevice's Pitch and Roll: the navX's own convention."""
    device = SimDeviceSim(NAVX_SIM)
    return device.getDouble("Pitch").get(), device.getDouble("Roll").get()


def test_set_tilt_reaches_the_drive_through_the_navx_and_holds_while_driving() -> None:
    with simulated() as h:
        sim, drive = h.sim, h.drive
        assert sim.true_tilt_deg == (0.0, 0.0)
        sim.set_tilt(8.0, -3.0)  # the front down 8°, the left side down 3°
        assert sim.true_tilt_deg == (8.0, -3.0)
        assert navx_values() == (-8.0, 3.0)  # the navX: front up negative, left down positive
        h.run(NAVX_TAKES_S, turning)
        assert tilt(drive) == pytest.approx((8.0, -3.0), abs=1e-4)
        rotation = drive.get_rotation3d()
        assert rotation is not None
        assert math.degrees(rotation.y) == pytest.approx(8.0, abs=1e-4)
        assert math.degrees(rotation.x) == pytest.approx(-3.0, abs=1e-4)
        h.run(1.0, turning)  # a second of driving and turning: the tilt stays
        assert abs(sim.true_yaw_deg) > 20.0
        assert tilt(drive) == pytest.approx((8.0, -3.0), abs=1e-4)
        sim.set_tilt(-25.0, 40.5)
        h.run(NAVX_TAKES_S, turning)
        assert tilt(drive) == pytest.approx((-25.0, 40.5), abs=1e-4)


def test_a_new_simulation_stands_level() -> None:
    with simulated() as h:
        h.sim.set_tilt(12.0, 6.0)
        h.run(NAVX_TAKES_S)
        assert tilt(h.drive) == pytest.approx((12.0, 6.0), abs=1e-4)
    with simulated() as h:  # another robot on the same drive and navX
        assert h.sim.true_tilt_deg == (0.0, 0.0)
        assert tilt(h.drive) == pytest.approx((0.0, 0.0), abs=1e-6)


@pytest.mark.parametrize(
    ("pitch", "roll", "error"),
    [
        (90.5, 0.0, ValueError),
        (0.0, -180.5, ValueError),
        (math.nan, 0.0, ValueError),
        (0.0, math.inf, ValueError),
        (10**400, 0.0, ValueError),
        (True, 0.0, TypeError),
        (0.0, "5", TypeError),
    ],
    ids=["pitch-beyond-90", "roll-beyond-180", "nan", "infinite", "huge", "bool", "text"],
)
def test_a_bad_tilt_is_refused_and_nothing_changes(
    pitch: object, roll: object, error: type
) -> None:
    with simulated() as h:
        h.sim.set_tilt(4.0, -2.0)
        with pytest.raises(error, match=r"a (pitch|roll) must be a"):
            h.sim.set_tilt(pitch, roll)  # type: ignore[arg-type]
        assert h.sim.true_tilt_deg == (4.0, -2.0)
        h.run(NAVX_TAKES_S)
        assert tilt(h.drive) == pytest.approx((4.0, -2.0), abs=1e-4)


def test_the_extreme_angles_are_accepted() -> None:
    with simulated() as h:
        h.sim.set_tilt(-90.0, 180.0)
        assert h.sim.true_tilt_deg == (-90.0, 180.0)


TIP_DEG = 8.0  # as docs/driving.md's example: tilted further, the translation slows down


def tilt_scale(drive: SwerveDrive) -> float:
    orientation = drive.get_rotation3d()
    if orientation is None:
        return 1.0
    tilted = math.degrees(max(abs(orientation.x), abs(orientation.y)))
    return 1.0 if tilted <= TIP_DEG else max(0.25, TIP_DEG / tilted)


def anti_tip_forward(drive: SwerveDrive) -> None:
    drive.drive(ChassisSpeeds(2.0 * tilt_scale(drive), 0.0, 0.0), field_relative=False)


def test_anti_tip_code_slows_the_simulated_robot_when_it_tilts() -> None:
    with simulated() as h:
        h.run(1.0, anti_tip_forward)
        level_speed = h.sim.true_speeds.vx
        assert level_speed == pytest.approx(2.0, abs=0.1)
        h.sim.set_tilt(16.0, 0.0)  # front down 16°: half speed
        h.run(1.0, anti_tip_forward)
        assert h.sim.true_speeds.vx == pytest.approx(1.0, abs=0.1)
        h.sim.set_tilt(0.0, -4.0)  # a little roll: full speed again
        h.run(1.0, anti_tip_forward)
        assert h.sim.true_speeds.vx == pytest.approx(2.0, abs=0.1)
