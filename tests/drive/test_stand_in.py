"""The stand-in distance of a drive wheel whose reading is not live (swervelib.drive.stand_in)."""

from __future__ import annotations

import math

from hypothesis import assume, given
from hypothesis import strategies as st
from wpimath.geometry import Rotation2d
from wpimath.kinematics import SwerveModulePosition

from swervelib.drive.stand_in import WheelStandIn, chassis_motion, live_turn, wheel_roll

SQUARE = [(0.27, 0.27), (0.27, -0.27), (-0.27, 0.27), (-0.27, -0.27)]
NAMES = ["frontleft", "frontright", "backleft", "backright"]
metres = st.floats(-0.1, 0.1)
angles = st.floats(-math.pi, math.pi)


def conditioning(live_angles: list[float]) -> float:
    """The smallest eigenvalue of the live wheels' normal matrix (0: all parallel)."""
    a11 = sum(math.cos(a) ** 2 for a in live_angles)
    a22 = sum(math.sin(a) ** 2 for a in live_angles)
    a12 = sum(math.cos(a) * math.sin(a) for a in live_angles)
    mean, det = (a11 + a22) / 2, a11 * a22 - a12 * a12
    return mean - math.sqrt(max(mean * mean - det, 0.0))


# A chassis motion (dx, dy metres, turn radians), the four modules' angles, and a dead module.
chassis_moves = given(
    metres,
    metres,
    st.floats(-0.2, 0.2),
    st.lists(angles, min_size=4, max_size=4),
    st.integers(0, 3),
)


@chassis_moves
def test_a_dead_wheel_rolls_what_the_other_wheels_say(
    dx: float, dy: float, turn: float, module_angles: list[float], dead: int
) -> None:
    """Any chassis motion the live wheels can see (not all parallel) gives the dead wheel exactly
    the roll it had: the live wheels' rolls determine the translation, the gyro the rotation."""
    live = [i for i in range(4) if i != dead]
    assume(conditioning([module_angles[i] for i in live]) > 0.05)
    rolls = [wheel_roll((dx, dy), turn, *SQUARE[i], module_angles[i]) for i in range(4)]
    motion = chassis_motion([(*SQUARE[i], module_angles[i], rolls[i]) for i in live], turn)
    estimate = wheel_roll(motion, turn, *SQUARE[dead], module_angles[dead])
    assert estimate == pmx(rolls[dead])


def pmx(value: float) -> object:
    import pytest

    return pytest.approx(value, abs=1e-9)


@given(metres, st.floats(-0.2, 0.2), angles, st.sets(st.integers(0, 3), min_size=1, max_size=3))
def test_wheels_all_parallel_still_give_the_dead_ones_their_roll(
    along: float, turn: float, angle: float, dead: set[int]
) -> None:
    """Driving with every wheel pointing one way (the live ones cannot see sideways motion), one
    to three dead wheels pointing that way too get their roll: the unseen direction is none."""
    c, s = math.cos(angle), math.sin(angle)
    rolls = [wheel_roll((along * c, along * s), turn, *SQUARE[i], angle) for i in range(4)]
    live = [(*SQUARE[i], angle, rolls[i]) for i in range(4) if i not in dead]
    motion = chassis_motion(live, turn)
    for i in dead:
        assert wheel_roll(motion, turn, *SQUARE[i], angle) == pmx(rolls[i])


def test_no_live_wheel_leaves_only_the_gyro_turn() -> None:
    assert chassis_motion([], 0.3) == (0.0, 0.0)


def positions(distances: list[float], angle: float = 0.0) -> list[SwerveModulePosition]:
    return [SwerveModulePosition(d, Rotation2d(angle)) for d in distances]


@given(st.floats(0.5, 3.0), st.integers(1, 100), st.integers(0, 3))
def test_the_distance_the_estimator_sees_never_jumps(
    speed: float, dead_loops: int, dead: int
) -> None:
    """Driving straight at ``speed`` (m/s, 20 ms loops): a wheel whose reading freezes for
    ``dead_loops`` loops, then comes back where the wheel really is (a jump of what it rolled
    meanwhile), is seen by the estimator rolling its 20 ms worth every loop, before, during,
    at the return and after; the Alert names it while it is estimated."""
    active: list[bool] = []
    stand_in = WheelStandIn(NAMES, SQUARE, active.append)
    watch = stand_in.watcher(dead)
    step = speed * 0.02
    truth = [0.0] * 4
    reading = [0.0] * 4
    seen_before = [0.0] * 4
    for loop in range(dead_loops + 20):
        before = list(reading)
        truth = [d + step for d in truth]
        reading = list(truth)
        if loop == 5:
            watch(False)
            assert active == [True]
            assert stand_in.alert.active is not None and NAMES[dead] in stand_in.alert.active
        if 5 <= loop < 5 + dead_loops:
            reading[dead] = before[dead]  # frozen
        seen = stand_in.adjust(positions(reading), before, reading, 0.0)
        for i in range(4):
            assert seen[i].distance - seen_before[i] == pmx(step), (loop, i)
        seen_before = [p.distance for p in seen]
        if loop == 5 + dead_loops:  # the health check sees it answer again, after the loop
            watch(True)
            assert stand_in.alert.active is None
    # (the offset is what the estimates missed: none here, where they were exact)
    assert stand_in.offsets[dead] == pmx(0.0)
    stand_in.forget_offsets()  # a pose reset: the estimator goes on from the readings
    assert active[0] and not active[-1]


def test_with_every_drive_reading_dead_the_wheels_only_turn_with_the_gyro() -> None:
    """No live module: no translation can be measured, so each wheel gets the roll of the
    gyro's turn alone (the pose turns in place), and the Alert says every module is out."""
    stand_in = WheelStandIn(NAMES, SQUARE, lambda _active: None)
    for index in range(4):
        stand_in.watcher(index)(False)
    assert stand_in.alert.active is not None and "(every module)" in stand_in.alert.active
    turn = 0.1
    module_angles = [math.atan2(x, -y) for x, y in SQUARE]  # each wheel square to its radius
    now_angles = [SwerveModulePosition(0.0, Rotation2d(a)) for a in module_angles]
    seen = stand_in.adjust(now_angles, [0.0] * 4, [0.0] * 4, turn)
    radius = math.hypot(*SQUARE[0])
    for i, p in enumerate(seen):
        assert p.distance == pmx(wheel_roll((0.0, 0.0), turn, *SQUARE[i], module_angles[i]))
        assert abs(p.distance) == pmx(turn * radius)


@chassis_moves
def test_three_live_wheels_give_the_turn_without_the_dead_one(
    dx: float, dy: float, turn: float, module_angles: list[float], dead: int
) -> None:
    """The wheels' turn (the heading while the IMU is out) from the three live modules alone is
    the chassis's whenever they determine it, whatever the dead wheel's frozen reading says."""
    live = [(*SQUARE[i], module_angles[i], 0.0) for i in range(4) if i != dead]
    live = [(x, y, a, wheel_roll((dx, dy), turn, x, y, a)) for x, y, a, _ in live]
    assume(conditioning([a for _, _, a, _ in live]) > 0.05)  # they see any translation
    found = live_turn(live)
    assume(found is not None)  # ... and the turn beside it
    assert found == pmx(turn)
    # a robot driven straight, all wheels forward: the live ones still tell a turn
    forward = [(x, y, 0.0, wheel_roll((dx, 0.0), turn, x, y, 0.0)) for x, y, _, _ in live]
    assert live_turn(forward) == pmx(turn)


def test_two_live_wheels_tell_the_turn_only_when_parallel() -> None:
    """Two wheels both pointing forward, side by side, tell a turn (sideways motion, which they
    cannot see, does not change it); pointing different ways, any turn fits with a translation."""
    assert live_turn([(0.27, 0.27, 0.0, -0.027), (0.27, -0.27, 0.0, 0.027)]) == pmx(0.1)
    assert live_turn([(0.27, 0.27, 0.0, 0.01), (-0.27, -0.27, math.pi / 2, 0.01)]) is None
    assert live_turn([(0.27, 0.27, 0.0, 0.01)]) is None
    assert live_turn([]) is None
