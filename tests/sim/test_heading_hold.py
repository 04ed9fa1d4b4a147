"""drive_facing (and heading mode, which drives through it) settles on its heading.

The heading PID's output falls with the error; with the example configurations' P (0.4) and no
drive kS, it fell below the wheel speed that overcomes the drive motors' static friction about
2° short of the heading, and the robot stood there (``swervelib.drive.shaping``). Each test runs
as a robot does: periodic() once a loop, then the command, then time passes."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from wpimath.geometry import Rotation2d

from swervelib import SwerveDrive
from swervelib.config.model import DriveFeedforward
from swervelib.drive import shaping
from swervelib.drive.module import ANTI_JITTER_FRACTION
from swervelib.drive.shaping import RequestShaper
from swervelib.input_stream import SwerveInput
from tests.drive.harness import LOOP, Harness, simulated
from tests.sim import KRAKEN, SWERVE, Pad, example_robots

SETTLED = 0.5  # degrees: where a heading lock must come to rest


@pytest.fixture(scope="module")
def configs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return example_robots(tmp_path_factory.mktemp("heading_hold"))


def _error_deg(h: Harness, target_deg: float) -> tuple[float, float]:
    """The heading's error (degrees) in the simulated truth and by odometry."""
    truth = math.remainder(h.sim.true_pose.rotation().degrees() - target_deg, 360.0)
    estimate = math.remainder(h.drive.get_heading().degrees() - target_deg, 360.0)
    return truth, estimate


def _hold_rate(drive: SwerveDrive) -> float:
    """The turn rate (rad/s) below which no wheel is asked for more than the anti-jitter hold."""
    return ANTI_JITTER_FRACTION * drive.max_angular_velocity


def _settle(
    h: Harness, target_deg: float, vx: float, seconds: float
) -> list[tuple[float, float, float]]:
    """drive_facing(vx, 0, target) every loop for ``seconds``: each loop's (truth error,
    odometry error, commanded rotation)."""
    target = Rotation2d.fromDegrees(target_deg)
    rows = []
    for _ in range(round(seconds / LOOP)):
        h.loop(lambda drive: drive.drive_facing(vx, 0.0, target))
        h.observe()
        rows.append((*_error_deg(h, target_deg), h.drive.get_state().desired[2]))
    return rows


def _worst_and_spread(rows: list[tuple[float, float, float]]) -> tuple[float, float]:
    """Over ``rows`` (``_settle``'s): the largest true heading error and how far it moved (°)."""
    errors = [row[0] for row in rows]
    return max(abs(e) for e in errors), max(errors) - min(errors)


@pytest.mark.parametrize("name", [SWERVE, KRAKEN])
def test_drive_facing_standing_still_settles_on_the_heading(
    configs: dict[str, Path], name: str
) -> None:
    directory = configs[name]
    with simulated(directory) as h:
        rows = _settle(h, 90.0, 0.0, 4.0)
        drive = h.drive
        last = rows[-50:]  # the last second
        truth, spread = _worst_and_spread(last)
        estimate = max(abs(row[1]) for row in last)
        print(
            f"\n[{directory.name}] drive_facing(0, 0, 90°) standing: after 3-4 s the error is "
            f"{truth:.3f}° (truth), {estimate:.3f}° (odometry), moving {spread:.4f}°"
        )
        # before: 1.32° (swerve, creeping 0.07°/s) and 2.53° (kraken), held by static friction
        assert truth < SETTLED
        assert estimate < SETTLED
        assert spread < 0.05  # at rest, not hunting round the heading
        # Settled, the command asks for less than the anti-jitter hold: the wheels stay put.
        assert all(abs(row[2]) < _hold_rate(drive) for row in last)


@pytest.mark.parametrize("name", [SWERVE, KRAKEN])
def test_drive_facing_small_turn_standing_still_settles(
    configs: dict[str, Path], name: str
) -> None:
    """A turn smaller than the error the PID left: the PID alone never moved the robot enough."""
    directory = configs[name]
    with simulated(directory) as h:
        rows = _settle(h, 3.0, 0.0, 3.0)
        last = rows[-25:]
        truth, _ = _worst_and_spread(last)
        print(f"\n[{directory.name}] drive_facing(0, 0, 3°) standing: error {truth:.3f}°")
        assert truth < SETTLED  # before: 2.34° (swerve), 2.56° (kraken)
        # The command over time: once within the tolerance it never turns back at the floor's
        # rate (a limit cycle round the heading would).
        entered = next(i for i, row in enumerate(rows) if abs(row[0]) < SETTLED)
        floor = shaping.MIN_TURN_FRACTION * h.drive.max_angular_velocity
        late = rows[entered + 10 :]
        assert all(abs(row[2]) < 0.5 * floor for row in late)


@pytest.mark.parametrize(("name", "speed"), [(SWERVE, 0.5), (KRAKEN, 1.0)])
def test_drive_facing_while_translating_settles(
    configs: dict[str, Path], name: str, speed: float
) -> None:
    """Translating, the wheels roll: the PID alone turns the robot (no floor), and it settles.

    What is left here is the steering's: a turn while translating needs each module a little
    off the line, and the Spark Max angle loop (P 0.01) leaves a module's last fraction of a
    degree to the angle motor's friction, where it creeps: that robot ends 0.00-0.37° off at
    0.5 m/s, run to run (REV's simulated velocity noise), some runs still creeping after 5 s. The
    Krakens' (angle P 50) end within 0.25° and at rest."""
    directory = configs[name]
    with simulated(directory) as h:
        rows = _settle(h, 90.0, speed, 6.0)
        truth, spread = _worst_and_spread(rows[-50:])
        print(
            f"\n[{directory.name}] drive_facing({speed} m/s, 0, 90°): error {truth:.3f}°, "
            f"moving {spread:.3f}° in the last second"
        )
        assert truth < SETTLED
        if name == KRAKEN:
            assert spread < 0.1


def test_heading_mode_released_stick_holds_still(configs: dict[str, Path]) -> None:
    """Heading mode: the stick points the robot, then the driver lets go. The robot settles on
    the heading, and then nothing moves: the modules' angle set-points stay, every wheel is asked
    for less than the anti-jitter hold (no twitching modules while the driver is idle)."""
    pad = Pad()
    sticks = SwerveInput.from_xbox(pad).with_deadband(0.1).heading_mode()
    with simulated(configs[SWERVE]) as h:
        pad.rx = -1.0  # heading stick left: face +90°
        h.run(1.0, sticks.apply)
        pad.rx = 0.0  # released: hold it
        h.run(2.0, sticks.apply)
        truth, _ = _error_deg(h, 90.0)
        print(f"\n[heading mode] released, the error is {truth:.3f}°")
        assert abs(truth) < SETTLED  # before: 1.46°
        drive = h.drive
        angles = [m.angle_setpoint_deg for m in drive.modules]
        top = max(m.free_speed_mps for m in drive.modules)
        for _ in range(50):
            h.loop(sticks.apply)
            h.observe()
            assert [m.angle_setpoint_deg for m in drive.modules] == angles
            assert all(
                abs(speed) < ANTI_JITTER_FRACTION * top for speed, _ in drive.get_state().targets
            )
        assert abs(_error_deg(h, 90.0)[0] - truth) < 0.01


# -- the floor's rules, on their own -----------------------------------------------------------
TOP = 4.5  # m/s
TURN = 11.0  # rad/s


def _floor() -> float:
    return float(shaping.MIN_TURN_FRACTION * TURN)


def _call(shaper: RequestShaper, omega: float, error_deg: float, yaw_rate: float = 0.0) -> float:
    return shaper.facing_rotation(omega, math.radians(error_deg), 0.0, yaw_rate, LOOP, TOP, TURN)


def test_floor_is_taken_up_only_once_the_robot_is_stuck() -> None:
    shaper = RequestShaper()
    # a robot at rest before a turn, asked for more than the floor: the PID's own output
    assert _call(shaper, 1.0, 10.0) == 1.0
    # asked for less than the floor, at rest: stuck after FACING_STUCK_LOOPS calls in a row
    for _ in range(shaping.FACING_STUCK_LOOPS - 1):
        assert _call(shaper, 0.05, 2.0) == 0.05
    assert _call(shaper, 0.05, 2.0) == pytest.approx(_floor())
    # taken up, it stays while the robot turns, both ways round
    assert _call(shaper, 0.05, 1.0, yaw_rate=0.2) == pytest.approx(_floor())
    # within the release tolerance plus one loop's turn: let go
    assert _call(shaper, 0.01, 0.3, yaw_rate=0.2) == 0.01
    # and not taken up again within the engage tolerance, however long the robot stands
    for _ in range(3 * shaping.FACING_STUCK_LOOPS):
        assert _call(shaper, -0.02, -math.degrees(shaping.FACING_ENGAGE_RAD) * 0.9) == -0.02


def test_floor_waits_for_a_robot_still_turning() -> None:
    """At the end of a swing past the heading the robot is slow for a loop or two, not stuck."""
    shaper = RequestShaper()
    for yaw_rate in (0.004, -0.003, 0.02, 0.001, 0.002, 0.003, 0.004, 0.03):
        assert _call(shaper, -0.04, -1.0, yaw_rate) == -0.04


def test_floor_leaves_braking_and_rolling_wheels_alone() -> None:
    shaper = RequestShaper()
    for _ in range(shaping.FACING_STUCK_LOOPS):
        _call(shaper, -0.01, -2.0)
    assert shaper.facing_floor
    assert _call(shaper, -0.01, -2.0) == pytest.approx(-_floor())
    assert _call(shaper, 0.01, -2.0) == 0.01  # turning the other way (the PID's D braking)
    # rolling at least at the floor's wheel speed (translation, or what kS gives): no floor
    rolling = shaping.MIN_TURN_FRACTION * TOP
    assert shaper.facing_rotation(-0.01, -0.03, rolling, 0.0, LOOP, TOP, TURN) == -0.01
    assert not shaper.facing_floor
    # half of it: half the floor
    shaper.facing_floor = True
    half = shaper.facing_rotation(-0.01, -0.03, rolling / 2, 0.0, LOOP, TOP, TURN)
    assert half == pytest.approx(-_floor() / 2)


def test_release_tolerance_is_inside_the_engage_tolerance() -> None:
    assert 0.0 < shaping.FACING_RELEASE_RAD < shaping.FACING_ENGAGE_RAD < math.radians(SETTLED)


def test_a_module_feedforward_without_kv_does_not_stop_drive_facing(
    configs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The push subtracts what each module's kS gives by itself (kS / kV): a feedforward set by
    hand with kV 0 (the configuration and ``set_drive_feedforward`` refuse one) is left out
    rather than dividing by zero inside ``drive_facing``."""
    with simulated(configs[KRAKEN]) as h:
        module = h.drive.modules[0]
        monkeypatch.setattr(module, "feedforward", DriveFeedforward(ks=0.1, kv=0.0))
        rows = _settle(h, 20.0, 0.0, 1.0)
        assert all(math.isfinite(row[2]) for row in rows)
        assert abs(rows[-1][0]) < 10.0  # it turns towards the heading
