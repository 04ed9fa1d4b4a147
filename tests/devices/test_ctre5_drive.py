"""A phoenix5 drive (``deploy/talonsrx_pigeon``: Talon SRX, pulse-width encoders, Pigeon IMU) run
in simulation on the wall clock, as phoenix5's simulated status frames are."""

from __future__ import annotations

import time

import pytest

from swervelib import SwerveDrive, TelemetryVerbosity
from swervelib.angles import module_angle
from tests.conftest import DEPLOY

LOOP_S = 0.02


def test_a_standing_phoenix5_drive_keeps_its_absolute_encoders() -> None:
    """Seeding a Talon's encoder shows only in its next status frames. The drive must not take
    the wait for a turn of the angle motor, and the still absolute encoder for a frozen one (it
    did: every module fell back to its relative encoder at start-up, for good)."""
    drive = SwerveDrive.from_directory(
        DEPLOY / "talonsrx_pigeon", verbosity=TelemetryVerbosity.NONE
    )
    try:
        for _ in range(50):  # a second of robot loops, the robot standing still
            drive.periodic()
            assert [m.absolute_read_issue for m in drive.modules] == [False] * 4
            time.sleep(LOOP_S)
        for module in drive.modules:
            expected = module_angle(
                module.raw_absolute_deg, module.config.absolute_encoder_offset_deg
            )
            assert module.angle_deg == pytest.approx(expected, abs=1e-9), module.name
            # the relative encoder was seeded to the module angle, and reads it (to a count)
            difference = (module.raw_angle_deg - module.angle_deg + 180.0) % 360.0 - 180.0
            assert abs(difference) < 0.05, module.name
    finally:
        drive.stop()


def test_what_the_phoenix5_loop_reads_is_in_slots() -> None:
    """The phoenix5 adapters keep what the loop reads in ``__slots__`` (in the object, not in an
    instance dict's values array elsewhere in memory), as the REV and navX adapters do; their
    set-up state stays in a dict, so a program may still add attributes, and the drive keeps
    reading its absolute encoders after loops that read and refresh every device."""
    drive = SwerveDrive.from_directory(
        DEPLOY / "talonsrx_pigeon", verbosity=TelemetryVerbosity.NONE
    )
    try:
        for _ in range(10):
            drive.periodic()
            time.sleep(LOOP_S)
        for module in drive.modules:
            for adapter, loop_names in (
                (module.drive_motor, {"_position", "_velocity", "_read", "talon", "_unit"}),
                (module.angle_motor, {"_frame_checked", "_seed", "_debounce", "guard"}),
                (module.encoder, {"_counts", "_sensors", "_inverted", "usable", "talon"}),
            ):
                assert not loop_names & set(vars(adapter)), (module.name, adapter)
            assert module.encoder.usable, module.name
        imu = drive.imu
        assert not {"_yaw", "_sign", "pigeon", "usable", "_refreshes"} & set(vars(imu))
        imu.team_note = "ours"  # type: ignore[attr-defined]
        for _ in range(5):
            drive.periodic()
            time.sleep(LOOP_S)
        assert imu.team_note == "ours"  # type: ignore[attr-defined]
        assert [m.absolute_read_issue for m in drive.modules] == [False] * 4
    finally:
        drive.stop()
