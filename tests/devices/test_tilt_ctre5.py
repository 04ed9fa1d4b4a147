"""Pitch and roll of the original Pigeon IMU (phoenix5).

The phoenix5 simulator cannot set a Pigeon's pitch or roll (its sim collection has only the
heading), so the conversion is checked with a stand-in for the vendor object; the real simulator
shows that a Pigeon answering reads level (0, 0) and that one whose frames go stale gives None. Its
sim hook refuses a tilt (NotImplementedError, which ``SwerveSim.set_tilt`` passes on).

This file runs in the ctre5 group's process after test_ctre5.py, whose Pigeons count CAN ids up
from 1: these use ids from 60 down.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import phoenix5
import pytest
from phoenix5.sensors import PigeonIMU_StatusFrame

from swervelib.config.catalog import IMU_TYPES
from swervelib.config.model import DeviceConfig
from swervelib.devices.ctre5.pigeon import PigeonImu
from swervelib.devices.settings import ImuSettings
from tests.waits import until

_IDS = itertools.count(60, -1)


def pigeon(inverted: bool) -> PigeonImu:
    device_id = next(_IDS)
    return PigeonImu(
        ImuSettings(
            label=f"tilt pigeon {device_id}",
            device=DeviceConfig("pigeon", device_id),
            imu_type=IMU_TYPES["pigeon"],
            inverted=inverted,
        )
    )


class FakePigeon:
    """What ``getYawPitchRoll()`` of a phoenix5 ``PigeonIMU`` returns: (error code, [y, p, r])."""

    def __init__(self, code: Any, ypr: list[float]) -> None:
        self.code = code
        self.ypr = ypr

    def getYawPitchRoll(self) -> tuple[Any, list[float]]:
        return self.code, list(self.ypr)


class BrokenPigeon:
    def getYawPitchRoll(self) -> tuple[Any, list[float]]:
        raise RuntimeError("CAN bus error")


@pytest.mark.parametrize("inverted", [False, True])
def test_pitch_and_roll_are_the_pigeons_own_whatever_the_flag(inverted: bool) -> None:
    imu = pigeon(inverted)
    real = imu.pigeon
    try:
        imu.pigeon = FakePigeon(phoenix5.ErrorCode.OK, [123.0, 9.5, -4.25])  # type: ignore[assignment]
        assert imu.get_pitch_roll_degrees() == (9.5, -4.25)
        imu.pigeon = FakePigeon(phoenix5.ErrorCode.OK, [0.0, -60.0, 88.0])  # type: ignore[assignment]
        assert imu.get_pitch_roll_degrees() == (-60.0, 88.0)
    finally:
        imu.pigeon = real


@pytest.mark.parametrize(
    "vendor",
    [
        FakePigeon(phoenix5.ErrorCode.RxTimeout, [0.0, 0.0, 0.0]),  # not answering
        FakePigeon(phoenix5.ErrorCode.OK, [0.0, math.nan, 1.0]),
        FakePigeon(phoenix5.ErrorCode.OK, [0.0, 1.0, math.inf]),
        BrokenPigeon(),
    ],
    ids=["timeout", "nan", "infinite", "raises"],
)
def test_a_failed_read_gives_none(vendor: Any) -> None:
    imu = pigeon(False)
    real = imu.pigeon
    try:
        imu.pigeon = vendor
        assert imu.get_pitch_roll_degrees() is None
    finally:
        imu.pigeon = real


def test_simulated_pigeon_reads_level_then_none_when_its_frames_go_stale() -> None:
    imu = pigeon(False)
    assert until(lambda: imu.get_pitch_roll_degrees() == (0.0, 0.0)), imu.get_pitch_roll_degrees()
    # As test_ctre5's not-answering test: the longest frame period makes the frame stale.
    imu.pigeon.setStatusFramePeriod(
        PigeonIMU_StatusFrame.PigeonIMU_CondStatus_9_SixDeg_YPR, 255, 50
    )
    try:
        assert until(lambda: imu.get_pitch_roll_degrees() is None)
    finally:
        imu.pigeon.setStatusFramePeriod(
            PigeonIMU_StatusFrame.PigeonIMU_CondStatus_9_SixDeg_YPR, 10, 50
        )


def test_the_sim_hook_refuses_a_tilt_and_the_pigeon_stays_level() -> None:
    imu = pigeon(False)
    with pytest.raises(NotImplementedError, match="cannot tilt a Pigeon IMU"):
        imu.sim.set_tilt(5.0, -3.0)
    assert until(lambda: imu.get_pitch_roll_degrees() == (0.0, 0.0)), imu.get_pitch_roll_degrees()
