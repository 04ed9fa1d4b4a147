"""A phoenix5 drive (``deploy/talonsrx_pigeon``: Talon SRX, pulse-width encoders, Pigeon IMU) run
in simulation on the wall clock, as phoenix5's simulated status frames are."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import phoenix5
import pytest
from wpilib.simulation import DriverStationSim
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive, TelemetryVerbosity
from swervelib.angles import module_angle
from swervelib.devices.ctre5.talonsrx import TalonSRXMotor
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


class _Silent:
    """A Talon SRX that does not answer, seen through phoenix5: each read gives the last frame's
    value and ``getLastError()`` says ``RxTimeout``; commands go nowhere. (phoenix5's simulator
    cannot unplug a Talon: its slowest feedback frame, 255 ms, is still read as fresh.)"""

    def __init__(self, talon: phoenix5.TalonSRX) -> None:
        self._talon = talon
        self._position = talon.getSelectedSensorPosition(0)
        self._velocity = talon.getSelectedSensorVelocity(0)

    def getSelectedSensorPosition(self, *_: Any) -> float:
        return self._position

    def getSelectedSensorVelocity(self, *_: Any) -> float:
        return self._velocity

    def getLastError(self) -> phoenix5.ErrorCode:
        return phoenix5.ErrorCode.RxTimeout

    def getFaults(self, _: Any) -> phoenix5.ErrorCode:
        return phoenix5.ErrorCode.RxTimeout

    def set(self, *_: Any) -> None:
        pass

    def neutralOutput(self) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._talon, name)


class _RealTime:
    """Robot loops on the wall clock, as phoenix5's frames are: periodic(), the command, then the
    rest of the 20 ms (the drive steps its own simulated robot by the time that passed)."""

    def __init__(self, drive: SwerveDrive) -> None:
        self.drive = drive
        self._tick = self._start = time.monotonic()

    def loop(self, command: Callable[[SwerveDrive], None] | None = None) -> bool:
        """One loop; False when it began more than 1.5 loops after the last one did (the machine
        stalled the process: the drive's simulated robot took a longer step, which phoenix5's
        frames, on the wall clock, had not all shown yet)."""
        start = time.monotonic()
        on_time = start - self._start < 1.5 * LOOP_S
        self._start = start
        self.drive.periodic()
        if command is not None:
            command(self.drive)
        self._tick = max(self._tick + LOOP_S, time.monotonic())
        time.sleep(max(0.0, self._tick - time.monotonic()))
        return on_time

    def pose_error(self) -> float:
        sim = self.drive.simulation
        assert sim is not None
        return self.drive.get_pose().translation().distance(sim.true_pose.translation())


def _forward_turning(drive: SwerveDrive) -> None:
    drive.drive(ChassisSpeeds(1.0, 0.0, 0.6), field_relative=True)


@pytest.fixture
def driving() -> Iterator[_RealTime]:
    """A phoenix5 drive, enabled, placed where its simulated robot is, driving for a second."""
    DriverStationSim.setEnabled(True)
    DriverStationSim.notifyNewData()
    drive = SwerveDrive.from_directory(
        DEPLOY / "talonsrx_pigeon", verbosity=TelemetryVerbosity.NONE
    )
    robot = _RealTime(drive)
    try:
        for _ in range(25):
            robot.loop()
        assert drive.simulation is not None
        drive.reset_pose(drive.simulation.true_pose)
        for _ in range(50):
            robot.loop(_forward_turning)
        yield robot
    finally:
        drive.stop()
        DriverStationSim.setEnabled(False)
        DriverStationSim.notifyNewData()


def test_a_dead_talonsrx_drive_motor_is_estimated_and_comes_back_without_a_jump(
    driving: _RealTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Talon SRX drive motor that stops answering (its reads fail, its wheel rolls unpowered)
    while the robot drives and turns: its frozen reading made odometry 0.35 m short of 1.7 m; the
    drive estimates the wheel from the other three and the Pigeon (about 0.01 m off), names it on
    the Alert, and when the Talon answers again (its reading ahead by all the wheel rolled) the
    pose does not jump (it did, 0.35 m more than the robot moved in that loop)."""
    drive = driving.drive
    module = drive.modules[0]
    motor = module.drive_motor
    assert isinstance(motor, TalonSRXMotor)
    talon = motor.talon
    monkeypatch.setattr(motor, "talon", _Silent(talon))
    monkeypatch.setattr(motor.sim, "applied_voltage", lambda: 0.0)  # a dead Talon drives nothing
    for _ in range(100):
        driving.loop(_forward_turning)
    frozen = module.raw_drive_m
    error = driving.pose_error()
    alert = drive.stand_in.alert.active
    assert error < 0.06, error
    assert alert is not None and alert.startswith("drive reading not live on frontleft"), alert
    assert drive.get_state().module_positions[0].distance == frozen  # shown as read
    monkeypatch.undo()  # it answers again
    sim = drive.simulation
    assert sim is not None
    steps = []  # how far each loop's pose step is from the simulated robot's, as it answers
    for loop in range(100):
        before, truth_before = drive.get_pose(), sim.true_pose
        on_time = driving.loop(_forward_turning)
        step = drive.get_pose().translation() - before.translation()
        truth_step = sim.true_pose.translation() - truth_before.translation()
        if loop < 10 and on_time:
            steps.append(step.distance(truth_step))
    assert len(steps) >= 5, steps
    back_error = driving.pose_error()
    print(
        f"\n[dead talonsrx] pose error {error:.3f} m; back: {back_error:.3f} m, step {max(steps):.3f}"
    )
    assert module.raw_drive_m > frozen + 0.3  # its reading took up what the wheel rolled
    assert max(steps) < 0.05, max(steps)  # (a frame late for a loop: 0.02 m, 1 m/s)
    assert back_error < 0.08, back_error
    assert drive.stand_in.alert.active is None
    assert not drive.stand_in.estimated


def test_one_late_feedback_frame_is_not_a_dead_drive_wheel(driving: _RealTime) -> None:
    """phoenix5 answers a read whose frame is late with ``RxTimeout`` (in the simulator under CPU
    load: every drive Talon at once, twice in 40 s). That loop's frozen readings are estimated,
    but from the next loop, whose reads are good again, the wheels are their own. They were
    estimated, and the warning shown, until each one's health check came round (41 more loops
    with all four late; the pose 0.09 m off, from 0.02). Now 0 more loops; the 0.04 m of that
    loop and the next (no wheel live, the next one's jump taken up) the wheels' readings bring
    back once live (0.021 m off; 0.058 m while the offsets stayed until a pose reset)."""
    drive = driving.drive
    motors = [m.drive_motor for m in drive.modules]
    talons = []
    for motor in motors:
        assert isinstance(motor, TalonSRXMotor)
        talons.append(motor.talon)
        motor.talon = _Silent(motor.talon)
    error_before = driving.pose_error()
    driving.loop(_forward_turning)  # every feedback frame late for this loop
    assert drive.stand_in.estimated == {0, 1, 2, 3}
    for motor, talon in zip(motors, talons, strict=True):
        motor.talon = talon
    estimated_loops = 0
    for _ in range(75):
        driving.loop(_forward_turning)
        estimated_loops += bool(drive.stand_in.estimated)
    error = driving.pose_error()
    print(
        f"\n[late frame] estimated {estimated_loops} loops more; error {error_before:.3f} -> {error:.3f} m"
    )
    assert estimated_loops == 0, estimated_loops
    assert error < error_before + 0.02, (error_before, error)
    assert drive.stand_in.alert.active is None
