"""Pitch and roll of the Pigeon 2.0 through CTRE's own simulator.

The sim state's ``set_pitch`` / ``set_roll`` write the Pigeon's own Euler angles, which CTRE defines
as WPILib's (pitch positive nose down, roll positive left side up), so the adapter passes them on
unchanged, whatever ``invertedIMU`` says; the sim hook's ``set_tilt`` (what ``SwerveSim.set_tilt``
calls) writes them the same way. A Pigeon that stops answering gives None.

This file runs in the ctre6 group's process after test_ctre6.py, whose Pigeon 2.0s use CAN ids 56
to 62: these use ids from 30 down (a destroyed simulated device stays destroyed in the process).
"""

from __future__ import annotations

import itertools

import pytest

from swervelib.config.catalog import IMU_TYPES
from swervelib.config.model import DeviceConfig
from swervelib.devices.ctre6.pigeon2 import Pigeon2Imu
from swervelib.devices.settings import ImuSettings
from tests.waits import until

_IDS = itertools.count(30, -1)
TOLERANCE_DEG = 0.1  # the Pigeon's pitch and roll signals resolve about 0.04°


def pigeon(inverted: bool) -> Pigeon2Imu:
    can_id = next(_IDS)
    return Pigeon2Imu(
        ImuSettings(
            label=f"tilt pigeon2 {can_id}",
            device=DeviceConfig("pigeon2", can_id, None),
            imu_type=IMU_TYPES["pigeon2"],
            inverted=inverted,
        )
    )


def reads(imu: Pigeon2Imu, pitch: float, roll: float) -> bool:
    tilt = imu.get_pitch_roll_degrees()
    return (
        tilt is not None
        and abs(tilt[0] - pitch) <= TOLERANCE_DEG
        and abs(tilt[1] - roll) <= TOLERANCE_DEG
    )


def test_pigeon2_pitch_and_roll_pass_through_whatever_the_flag() -> None:
    right, flipped = pigeon(False), pigeon(True)
    for imu in (right, flipped):
        imu.device.sim_state.set_pitch(12.0)  # the front down 12°
        imu.device.sim_state.set_roll(-8.0)  # the left side down 8°
    assert until(lambda: reads(right, 12.0, -8.0) and reads(flipped, 12.0, -8.0)), (
        right.get_pitch_roll_degrees(),
        flipped.get_pitch_roll_degrees(),
    )
    for imu in (right, flipped):
        imu.device.sim_state.set_pitch(-30.0)
        imu.device.sim_state.set_roll(45.0)
        imu.sim.set_raw_yaw(20.0, 0.0)
    assert until(lambda: reads(right, -30.0, 45.0) and reads(flipped, -30.0, 45.0))
    # the yaw is still the yaw, inverted by the flag; the tilt is the device's own
    assert until(lambda: abs(flipped.get_raw_yaw_degrees() + 20.0) <= 0.05, flipped.refresh)
    assert right.get_pitch_roll_degrees() == pytest.approx((-30.0, 45.0), abs=TOLERANCE_DEG)


def test_pigeon2_not_answering_gives_none() -> None:
    imu = pigeon(False)
    imu.device.sim_state.set_pitch(5.0)
    imu.device.sim_state.set_roll(6.0)
    assert until(lambda: reads(imu, 5.0, 6.0))
    imu.sim.set_connected(False)  # destroys the simulated device: its frames stop
    assert until(lambda: imu.get_pitch_roll_degrees() is None)


def test_pigeon2_sim_hook_tilts_it_as_the_adapter_reads_it() -> None:
    right, flipped = pigeon(False), pigeon(True)
    for imu in (right, flipped):
        imu.sim.set_tilt(9.0, -4.5)  # the front down 9°, the left side down 4.5°
    assert until(lambda: reads(right, 9.0, -4.5) and reads(flipped, 9.0, -4.5)), (
        right.get_pitch_roll_degrees(),
        flipped.get_pitch_roll_degrees(),
    )
    right.sim.set_tilt(-20.0, 170.0)
    assert until(lambda: reads(right, -20.0, 170.0)), right.get_pitch_roll_degrees()
