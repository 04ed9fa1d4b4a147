"""A phoenix6 drive (``deploy/kraken_cancoder_pigeon2``: Kraken X60s, CANcoders, a Pigeon 2) stepped
like a pyfrc test, with loops that take longer in wall-clock time than on an idle machine."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

import ntcore
import pytest
import wpilib
from phoenix6 import unmanaged
from wpilib.simulation import stepTiming
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from tests.conftest import DEPLOY, REPO
from tests.drive.harness import LOOP, forget_drive, simulated
from tests.waits import PATIENCE_S

KRAKEN = DEPLOY / "kraken_cancoder_pigeon2"
# Longer than phoenix6's own enable feed lasts from a step (100 ms of wall-clock time): measured,
# a Talon stopped applying its output after a pause of 0.3 s, not yet after 0.15 s.
SLOW_LOOP_S = 0.3
FORWARD = ChassisSpeeds(1.0, 0.0, 0.0)


def drive_forward(directory: Path, seconds: float, pause_s: float) -> tuple[float, list[bool]]:
    """Drive forward for ``seconds`` of stepped time, each loop taking ``pause_s`` more of wall
    time before it commands the drive; how far the robot went, and whether phoenix6 had its
    devices enabled in each loop when the physics read them.

    The pause comes before the command, as in a robot loop whose code is slow. The Talons get
    one-shot control frames (``swervelib.devices.ctre6.talonfx``), which lapse about 100 ms after
    they are sent, on a robot as here: a Talon with a closed-loop ramp then starts again from
    0 V. ``directory`` has no ramp, so what this checks is that each command is taken and the
    enable held, not the ramp."""
    enabled: list[bool] = []

    def forward(drive: SwerveDrive) -> None:
        time.sleep(pause_s)  # a busy machine, since the last step
        drive.drive(FORWARD)
        enabled.append(unmanaged.get_enable_state())

    with simulated(directory) as h:
        h.run(seconds, forward)
        return h.sim.true_pose.X(), enabled


@pytest.fixture(scope="module")
def no_ramp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``deploy/kraken_cancoder_pigeon2`` without its closed-loop ramps. Its devices have the
    same CAN ids as the ones ``KRAKEN``'s drive configures with its ramps: a test run after one
    and measuring the drive without them builds this drive anew first (``forget_drive``)."""
    directory = tmp_path_factory.mktemp("kraken") / "no_ramp"
    shutil.copytree(KRAKEN, directory)
    physical = directory / "modules" / "physicalproperties.json"
    properties = json.loads(physical.read_text())
    properties["rampRate"] = {"drive": 0.0, "angle": 0.0}
    physical.write_text(json.dumps(properties, indent=2))
    return directory


def test_a_slow_stepped_loop_keeps_the_talons_powered(no_ramp: Path) -> None:
    """phoenix6 feeds its enable on simulated time, for 100 ms of wall-clock time: a stepped loop
    that takes longer (a loaded CI machine) used to leave every Talon unpowered when the physics
    read it, and the robot short of where it drove (a corpus test turned 22° of a quarter turn).
    ``SwerveSim.wait_for_readings`` holds the enable while the Driver Station is enabled."""
    quick, quick_enabled = drive_forward(no_ramp, 0.3, 0.0)
    slow, slow_enabled = drive_forward(no_ramp, 0.3, SLOW_LOOP_S)
    assert quick > 0.15, quick  # 1 m/s for 0.3 s, from standing
    assert slow > 0.5 * quick, (slow, quick, slow_enabled)
    assert all(quick_enabled) and all(slow_enabled), (quick_enabled, slow_enabled)


def test_a_command_given_once_holds_while_it_lasts(no_ramp: Path) -> None:
    """The Talons' one-shot control frames lapse about 100 ms after the last: a command that
    lasts (``command_timeout`` None: until the next) is applied again by ``periodic()`` in each
    loop that robot code does not renew it, so the robot drives on as when it is renewed."""
    with simulated(no_ramp) as h:
        drive = h.drive
        drive.command_timeout = None
        try:
            h.run(0.02, lambda d: d.drive(FORWARD))  # one command
            h.run(1.0)  # and no other
            once = h.sim.true_pose.X()
            assert any(m.speed_setpoint_mps > 0.5 for m in drive.modules)
        finally:
            drive.command_timeout = 0.1
    with simulated(no_ramp) as h:
        h.run(1.02, lambda d: d.drive(FORWARD))  # renewed every loop
        renewed = h.sim.true_pose.X()
    assert renewed > 0.5, renewed  # 1 m/s for 1 s, from standing
    assert once > 0.9 * renewed, (once, renewed)


def shifted_ids(tmp_path_factory: pytest.TempPathFactory, shift: int) -> Path:
    """``deploy/kraken_cancoder_pigeon2`` with every CAN id ``shift`` higher: devices of its own,
    which a test may disconnect for good (phoenix6's simulator cannot bring one back in the
    process)."""
    directory = tmp_path_factory.mktemp("kraken") / f"ids_{shift}"
    shutil.copytree(KRAKEN, directory)
    paths = [directory / "swervedrive.json", *(directory / "modules").glob("*.json")]
    for path in paths:
        data = json.loads(path.read_text())
        for key in ("drive", "angle", "encoder", "imu"):
            if isinstance(data.get(key), dict) and "id" in data[key]:
                data[key]["id"] += shift
        path.write_text(json.dumps(data, indent=2))
    return directory


@pytest.fixture(scope="module")
def own_ids(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Devices with ids 40 higher (see :func:`shifted_ids`)."""
    return shifted_ids(tmp_path_factory, 40)


@pytest.fixture(scope="module")
def dead_drive_ids(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Devices with ids 20 higher, for the test that kills a drive motor (see :func:`shifted_ids`)."""
    return shifted_ids(tmp_path_factory, 20)


def test_a_disconnected_cancoder_is_not_waited_for_and_its_module_steers_on(
    own_ids: Path,
) -> None:
    """``SwerveSim.wait_for_readings`` waits for the devices that still answer, not for one
    disconnected through its sim hook: it waited out its whole timeout for the dead CANcoder in
    every loop (10 s by default) and returned False, so a stepped test of a dead sensor could not
    run. Meanwhile the module steers on its angle motor's encoder and the Alerts name both."""
    from tests.sim import alert_texts

    sideways = ChassisSpeeds(0.0, 1.0, 0.0)
    with simulated(own_ids) as h:
        module = h.drive.modules[1]
        h.run(0.2, lambda d: d.drive(FORWARD))
        module.encoder.sim.set_connected(False)
        assert h.sim.wait_for_readings(5.0)  # the other twelve devices answered
        h.run(1.5, lambda d: d.drive(sideways))  # each device's fault check: about once a second
        assert module.absolute_read_issue
        true = h.sim.true_module_angles[module.name].degrees()
        assert abs((module.angle_deg - true + 180.0) % 360.0 - 180.0) < 3.0
        assert abs((true - 90.0 + 180.0) % 360.0 - 180.0) < 5.0 or abs(true + 90.0) < 5.0
        texts = alert_texts()
        assert any(
            t.startswith("frontright absolute encoder (cancoder 50)") and "not answering" in t
            for t in texts
        ), texts
        assert any(t.startswith("frontright module: absolute encoder unusable") for t in texts)


# A device's label, as docs/telemetry.md describes ``<device>``: module, role, type and id.
DEVICE_LABEL = r"(?:\S+ (?:drive motor|angle motor|absolute encoder)|IMU) \([^)]*\)"


def documented_alerts() -> list[re.Pattern[str]]:
    """The Alerts docs/telemetry.md lists (its Alerts table's first column), as patterns:
    ``<device>`` a device's label, another ``<...>`` any name, ``...`` any text, ``N`` a count."""
    lines = (REPO / "docs" / "telemetry.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("| Alert | when |") + 2
    patterns = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        for text in re.findall(r"`([^`]+)`", line.split("|")[1]):
            pattern = re.escape(text)
            pattern = pattern.replace("<device>", DEVICE_LABEL)
            pattern = re.sub(r"<[^>]*>", ".+", pattern)  # <module>
            pattern = pattern.replace(re.escape("..."), ".*").replace(re.escape(" N "), r" \d+ ")
            patterns.append(re.compile(pattern))
    assert len(patterns) > 10, patterns
    return patterns


def active_alerts() -> list[str]:
    wpilib.SmartDashboard.updateValues()
    nt = ntcore.NetworkTableInstance.getDefault()
    texts: list[str] = []
    for level in ("errors", "warnings", "infos"):
        value = nt.getEntry(f"/SmartDashboard/Swerve Alerts/{level}").getValue()
        texts += value.value() if value.isValid() else []
    return [text.replace("`", "") for text in texts]


def test_the_alerts_of_a_bad_magnet_are_the_ones_the_telemetry_page_lists() -> None:
    """A CANcoder reporting a bad magnet raises its own error Alert (its device label) and the
    module's warning that it carries on with the angle motor's encoder: docs/telemetry.md lists
    each by its text (it used to say a device fault is shown as ``<module> module: ...``)."""
    patterns = documented_alerts()
    with simulated(KRAKEN) as h:
        encoder = h.drive.modules[0].encoder
        assert encoder is not None
        try:
            encoder.sim.set_magnet_fault(True)
            h.run(1.0, lambda d: d.drive(FORWARD))
            shown = active_alerts()
            assert "frontleft absolute encoder (cancoder 9): bad magnet (MAGNET_RED)" in shown
            assert any(text.startswith("frontleft module: ") for text in shown), shown
            for text in shown:
                assert any(p.fullmatch(text) for p in patterns), f"{text!r} is not documented"
        finally:
            encoder.sim.set_magnet_fault(False)
            h.run(1.0, lambda d: d.drive(ChassisSpeeds()))
        assert not any(text.startswith("frontleft") for text in active_alerts())


def drive_in_parts(
    directory: Path, seconds: float, parts: int, pause_s: float = 0.0, pause_before: int = 0
) -> float:
    """How far the robot goes driving forward for ``seconds``, its physics stepped in ``parts``
    steps per robot loop (the readings awaited once per loop, before the next ``periodic()``).

    With ``pause_s``, every fifth loop stops that long in wall-clock time (a loaded machine
    leaving the process without the CPU) before its step number ``pause_before`` (0: between the
    command and the loop's first step); no simulated time passes meanwhile."""
    with simulated(directory) as h:
        for loop in range(round(seconds / LOOP)):
            h.begin_loop()
            h.drive.drive(FORWARD)
            for part in range(parts):
                if pause_s and loop % 5 == 0 and part == pause_before:
                    time.sleep(pause_s)
                h.sim.step(LOOP / parts)
                stepTiming(LOOP / parts)
            assert h.sim.wait_for_readings(PATIENCE_S)
        return h.sim.true_pose.X()


def test_physics_stepped_in_parts_of_a_loop_drives_as_far(no_ramp: Path) -> None:
    """Each step used to wait for a status frame of every Talon (some 10 ms of real time) even
    when no command had been sent since the last: twenty 1 ms steps a loop held the commands up
    past the 100 ms after which a Talon drops one, and the robot went 0.35 m where it goes
    0.85 m in one 20 ms step a loop. Only a new command is waited for."""
    forget_drive(no_ramp)  # its Talons configured without the ramp again (see no_ramp)
    whole = drive_in_parts(no_ramp, 1.0, 1)
    parts = drive_in_parts(no_ramp, 1.0, 20)
    print(f"\n[parts] {whole:.3f} m in 20 ms steps, {parts:.3f} m in twenty 1 ms steps")
    assert whole > 0.5, whole
    assert parts == pytest.approx(whole, rel=0.05)


def test_a_process_paused_within_a_loop_drives_as_far(no_ramp: Path) -> None:
    """A Talon drops a one-shot command 100 ms of wall-clock time after its frame, and phoenix6's
    enable lapses 100 ms after the last stepped time: a process left without the CPU that long
    between the command and the physics step (a loaded CI machine) had the physics read Talons
    that applied nothing, though no simulated time had passed. Driven in 20 ms steps with a
    0.15 s pause after the command in every fifth loop, the robot went 0.668 m where it goes
    0.853 m (once, on a loaded machine with no pause injected, 0.71 m); in 1 ms steps with a
    0.3 s pause halfway through those loops, 0.575 m. ``SwerveSim.step`` sends each Talon its
    command again, while simulated time has not outlived it, and waits until the Talons are
    enabled and took it within the last 50 ms of wall time (``swervelib.sim.talon_commands``)."""
    forget_drive(no_ramp)  # its Talons configured without the ramp again (see no_ramp)
    steady = drive_in_parts(no_ramp, 1.0, 1)
    after_command = drive_in_parts(no_ramp, 1.0, 1, pause_s=0.15)
    between_steps = drive_in_parts(no_ramp, 1.0, 20, pause_s=0.3, pause_before=10)
    print(
        f"\n[paused] {steady:.3f} m steady, {after_command:.3f} m paused after the command, "
        f"{between_steps:.3f} m paused between 1 ms steps"
    )
    assert steady > 0.5, steady
    assert after_command == pytest.approx(steady, rel=0.05)
    assert between_steps == pytest.approx(steady, rel=0.05)


class LateFrames:
    """phoenix6's ``wait_for_frame`` as on a loaded machine: once armed, no frame arrives for
    ``late_s`` of wall-clock time from the next wait (the simulator's threads without the CPU),
    then frames come as usual."""

    def __init__(self, wait_for_frame: Any, late_s: float) -> None:
        self.wait_for_frame = wait_for_frame
        self.late_s = late_s
        self.armed = False
        self.until = 0.0

    def __call__(self, group: list[Any], timeout_s: float) -> bool:
        now = time.monotonic()
        if self.armed:
            self.armed = False
            self.until = now + self.late_s
        late = self.until - now
        if late <= 0.0:
            return bool(self.wait_for_frame(group, timeout_s))
        if timeout_s <= late:
            time.sleep(timeout_s)
            return False
        time.sleep(late)
        return bool(self.wait_for_frame(group, timeout_s - late))


def test_frames_late_after_a_command_lose_no_distance(
    no_ramp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a loaded machine a Talon's status frames can come late while the Talon's own clock
    runs on: a step that waited for them past 100 ms after the command read Talons that had
    dropped it. With no frame for 0.15 s after the command in every fifth loop, the robot went
    0.672 m where it goes 0.853 m (0.547 m with the configuration's 0.25 s ramps). The Talons
    are sent their command again every 25 ms of such a wait."""
    from swervelib.devices.ctre6 import batch

    forget_drive(no_ramp)  # its Talons configured without the ramp again (see no_ramp)
    steady = drive_in_parts(no_ramp, 1.0, 1)
    late = LateFrames(batch.wait_for_frame, 0.15)
    monkeypatch.setattr(batch, "wait_for_frame", late)

    loops = 0

    def forward(drive: SwerveDrive) -> None:
        nonlocal loops
        drive.drive(FORWARD)
        late.armed = loops % 5 == 0  # the frames after this command come late
        loops += 1

    with simulated(no_ramp) as h:
        h.run(1.0, forward)
        delayed = h.sim.true_pose.X()
    print(f"\n[late frames] {steady:.3f} m steady, {delayed:.3f} m with frames 0.15 s late")
    assert steady > 0.5, steady
    assert delayed == pytest.approx(steady, rel=0.05)


def test_odometry_keeps_working_when_a_drive_motor_stops_answering(dead_drive_ids: Path) -> None:
    """A Kraken whose CAN frames stop (phoenix6's sim_destroy) keeps reporting its last position:
    odometry integrated a frozen wheel, 1.46 m for 1.84 m driven (0.38 m off the true pose). The
    Talon's signal goes stale (``CAN_MESSAGE_STALE``, about 0.3 s later), its adapter says so,
    and the drive estimates that wheel's distance from the other three and the gyro: 0.03 m off
    (the wheel stood still in odometry until the signal went stale). The Alert names the module,
    and the module's reading stays the frozen one, as read."""
    from tests.sim import alert_texts

    def forward_turning(drive: SwerveDrive) -> None:
        drive.drive(ChassisSpeeds(1.0, 0.0, 0.3), field_relative=True)

    with simulated(dead_drive_ids) as h:
        module = h.drive.modules[0]
        h.run(1.0, forward_turning)
        module.drive_motor.sim.set_connected(False)
        start = h.sim.true_pose.translation()
        estimated_start = h.drive.get_pose().translation()
        frozen = module.raw_drive_m
        h.run(2.5, forward_turning)
        travelled = h.sim.true_pose.translation().distance(start)
        estimated = h.drive.get_pose().translation().distance(estimated_start)
        error = h.drive.get_pose().translation().distance(h.sim.true_pose.translation())
        print(
            f"\n[dead drive] travelled {travelled:.3f} m, odometry {estimated:.3f} m, "
            f"pose error {error:.3f} m"
        )
        assert travelled > 1.2, travelled
        assert error < 0.08, (error, travelled, estimated)
        assert module.raw_drive_m == pytest.approx(frozen, abs=0.01)  # shown as read
        state = h.drive.get_state()
        assert state.module_positions[0].distance == module.raw_drive_m
        texts = alert_texts()
        assert any(
            t.startswith("Swerve odometry: drive reading not live on frontleft") for t in texts
        ), texts
    # (last in this file: the dead Talon's Alert stays while its object lives)
    forget_drive(dead_drive_ids)
