"""swervelib.pose_profile: the drive-to-pose braking curve and the acceleration step, against an
ideal robot that travels exactly what it is asked each loop (the simulated robot is in
tests/sim/test_drive_to_pose.py)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from swervelib.pose_profile import (
    MIN_BUDGET_FRACTION,
    MIN_DIRECTION_SPEED,
    approach_speed,
    approach_step,
    braking_need,
    limited_step,
    module_budget,
    remaining_time,
    shared_accelerations,
    shared_step,
    trailing_turn,
    translating_turn_lag,
    turn_still_to_come,
    unhurried_rate,
)

distances = st.floats(0.0, 10.0)
tops = st.floats(0.5, 6.0)
accelerations = st.floats(0.2, 20.0)
periods = st.floats(0.005, 0.05)


def followed(
    distance: float, top: float, acceleration: float, dt: float
) -> tuple[list[float], float]:
    """The speeds asked loop by loop while an ideal robot follows the curve from ``distance`` away
    (already at the speed it asks there), and where the robot ends (< 0: past the goal)."""
    remaining, speeds = distance, []
    for _ in range(100_000):
        speed = approach_speed(remaining, top, acceleration, dt)
        speeds.append(speed)
        if speed <= 0.0:
            break
        remaining -= speed * dt
        if remaining <= 0.0:
            break
    return speeds, remaining


@given(distances, tops, accelerations, periods)
def test_following_the_curve_brakes_at_most_one_step_a_loop_and_stops_on_the_goal(
    distance: float, top: float, acceleration: float, dt: float
) -> None:
    speeds, remaining = followed(distance, top, acceleration, dt)
    step = acceleration * dt
    assert all(s <= top for s in speeds)
    for before, after in itertools.pairwise(speeds):
        assert before - after <= step * (1 + 1e-9) + 1e-12  # never brakes harder than the limit
    # it arrives: at most a·dt²/8 past the goal (its last step slower than one limit step)
    assert -acceleration * dt * dt / 8 * (1 + 1e-6) - 1e-12 <= remaining <= 1e-9
    assert speeds[-1] <= step * (1 + 1e-9) or distance == 0.0


def hardest_braking(curve: Callable[[float], float], distance: float, dt: float) -> float:
    """The hardest braking (m/s²) an ideal robot sees following ``curve`` from ``distance``."""
    remaining, speed, hardest = distance, curve(distance), 0.0
    while remaining > 1e-6 and speed > 0.0:
        remaining -= speed * dt
        after = curve(max(0.0, remaining))
        hardest = max(hardest, (speed - after) / dt)
        speed = after
    return hardest


def test_the_continuous_curves_brake_harder_than_the_limit_and_this_one_does_not() -> None:
    """√(2·a·d) sampled once a loop brakes harder than ``a`` at the end, and with a proportional
    region below it (drive_to's curve before: gain 3, 0.6 m from the goal at 3 m/s²) twice as
    hard where the two meet; the discrete curve never does."""
    acceleration, dt = 3.0, 0.02

    def sampled(d: float) -> float:
        return math.sqrt(2 * acceleration * d)

    def proportional(d: float) -> float:
        return min(sampled(d), 3.0 * d)

    def discrete(d: float) -> float:
        return approach_speed(d, 10.0, acceleration, dt)

    assert hardest_braking(sampled, 1.0, dt) > 1.4 * acceleration
    assert hardest_braking(proportional, 1.0, dt) > 1.9 * acceleration
    assert hardest_braking(discrete, 1.0, dt) <= acceleration * (1 + 1e-9)


vectors = st.tuples(st.floats(-10.0, 10.0), st.floats(-10.0, 10.0))


@given(vectors, vectors, st.floats(0.0, 1.0))
def test_a_step_moves_at_most_its_length_towards_what_is_wanted(
    last: tuple[float, float], wanted: tuple[float, float], step: float
) -> None:
    result = limited_step(last, wanted, step)
    assert math.dist(result, last) <= step * (1 + 1e-9) + 1e-12
    if math.dist(wanted, last) <= step:
        assert result == wanted
    else:  # on the way: what is left is the rest of the distance
        assert math.dist(result, wanted) == pytest.approx(
            math.dist(wanted, last) - step, rel=1e-9, abs=1e-9
        )


@given(
    st.floats(0.0, 10.0),
    st.floats(0.0, 10.0),
    accelerations,
    accelerations,
    accelerations,
)
def test_shared_accelerations_stay_within_the_module_budget_and_their_own_limits(
    distance: float, turn_arc: float, linear: float, turn_limit: float, budget: float
) -> None:
    """Translating and turning at once, the two braking curves' accelerations add up to at most
    the module budget (unless both own limits fit in it), each within its own limit."""
    linear_share, turn_share = shared_accelerations(distance, turn_arc, linear, turn_limit, budget)
    assert 0.0 <= linear_share <= linear and 0.0 <= turn_share <= turn_limit
    assert linear_share + turn_share <= max(budget, linear + turn_limit) * (1 + 1e-12)


def test_shared_accelerations_split_in_proportion_to_what_is_left() -> None:
    """3 m to go and 1 m of turn (times the radius) at a 2 m/s² budget: 1.5 and 0.5, so both
    profiles end together; only one moving: the whole budget for it."""
    assert shared_accelerations(3.0, 1.0, 3.0, 3.0, 2.0) == pytest.approx((1.5, 0.5))
    assert shared_accelerations(3.0, 0.0, 3.0, 3.0, 2.0) == pytest.approx((2.0, 0.0))
    # the translation's own limit leaves the rest of its share to the turn
    assert shared_accelerations(3.0, 1.0, 1.0, 3.0, 2.0) == pytest.approx((1.0, 1.0))


@given(st.floats(0.01, 6.0), st.floats(0.001, 10.0), periods)
def test_on_the_curve_of_its_braking_need_a_profile_brakes_by_it_this_loop(
    speed: float, remaining: float, dt: float
) -> None:
    """A profile going at ``speed`` towards a goal ``remaining`` away, on the curve of the
    acceleration it needs: the curve asks for one step of it less now (it brakes), not for the
    speed it goes (which, the need worked out again each loop, never brakes)."""
    need = braking_need(speed, remaining, dt)
    assert approach_speed(remaining, math.inf, need, dt) == pytest.approx(
        speed - need * dt, rel=1e-9, abs=1e-9
    )
    assert braking_need(0.0, remaining, dt) == 0.0 and braking_need(-speed, remaining, dt) == 0.0


speeds = st.floats(-3.0, 3.0)


@given(
    st.floats(0.001, 10.0),
    st.floats(0.001, 10.0),
    accelerations,
    accelerations,
    accelerations,
    speeds,
    speeds,
    periods,
)
def test_shared_accelerations_leave_a_moving_profile_what_it_needs_to_stop_on_its_goal(
    distance: float,
    turn_arc: float,
    linear: float,
    turn_limit: float,
    budget: float,
    linear_speed: float,
    turn_speed: float,
    dt: float,
) -> None:
    """Entered while moving, each has at least what it needs to stop on its goal, where both
    needs fit in the budget (and within its own limit): never less than the need a profile going
    towards its goal brakes by, whatever the other's part; within the budget all the same."""
    shares = shared_accelerations(
        distance, turn_arc, linear, turn_limit, budget, (linear_speed, turn_speed), dt
    )
    assert 0.0 <= shares[0] <= linear and 0.0 <= shares[1] <= turn_limit
    assert shares[0] + shares[1] <= max(budget, linear + turn_limit) * (1 + 1e-12)
    needs = (
        min(linear, braking_need(linear_speed, distance, dt)),
        min(turn_limit, braking_need(turn_speed, turn_arc, dt)),
    )
    if needs[0] + needs[1] <= budget:
        assert shares[0] >= needs[0] * (1 - 1e-9) and shares[1] >= needs[1] * (1 - 1e-9)


def test_shared_accelerations_of_a_robot_entered_turning() -> None:
    """Entered turning at 2 rad/s (0.9 m/s at the furthest module, 0.45 m out) 90° (0.71 m of
    arc) from the heading, 2 m from the pose, at a 1.5 m/s² budget: the turn's part by what is
    left to go, 0.39 m/s², cannot stop it within the 90° (it needs 0.56): it has what it needs,
    the translation the rest. Turning away from its heading instead, it wants its whole limit (to
    stop within the loop), the translation its part: shared in proportion, 0.86 and 0.64. At
    rest: the parts, as before."""
    need = braking_need(0.9, 0.71, 0.02)
    assert need == pytest.approx(0.5633, abs=1e-4)
    shares = shared_accelerations(2.0, 0.71, 1.5, 1.5, 1.5, (0.0, 0.9), 0.02)
    assert shares == pytest.approx((1.5 - need, need))  # before: (1.11, 0.39), 113° past it
    part = 1.5 * 2.0 / 2.71  # the translation's
    away = shared_accelerations(2.0, 0.71, 1.5, 1.5, 1.5, (0.0, -0.9), 0.02)
    assert away == pytest.approx((part * 1.5 / (part + 1.5), 1.5 * 1.5 / (part + 1.5)))
    assert shared_accelerations(2.0, 0.71, 1.5, 1.5, 1.5) == pytest.approx(
        (1.5 * 2.0 / 2.71, 1.5 * 0.71 / 2.71)
    )


@given(vectors, vectors, st.floats(0.0, 1.0))
def test_an_approach_step_brakes_along_the_line_first(
    last: tuple[float, float], wanted: tuple[float, float], step: float
) -> None:
    """At most one step from the last velocity, as :func:`limited_step`; going along the line to
    the goal faster than wanted, it brakes along it by a whole step (or down to what is wanted)
    before it turns the rest of the velocity towards the line."""
    result = approach_step(last, wanted, step)
    assert math.dist(result, last) <= step * (1 + 1e-9) + 1e-12
    speed = math.hypot(*wanted)
    if speed < MIN_DIRECTION_SPEED:  # no direction (a subnormal's products underflow): one step
        assert result == limited_step(last, wanted, step)
        return
    along = (last[0] * wanted[0] + last[1] * wanted[1]) / speed
    if along > speed:
        after = (result[0] * wanted[0] + result[1] * wanted[1]) / speed
        assert after == pytest.approx(along - min(step, along - speed), rel=1e-9, abs=1e-9)


@pytest.mark.parametrize(
    ("last", "wanted", "step"),
    [((0.0, 1.0), (5e-324, 5e-324), 1.0), ((1.0, 0.0), (5e-324, 0.0), 0.5)],
)
def test_an_approach_step_towards_a_subnormal_velocity_is_one_step(
    last: tuple[float, float], wanted: tuple[float, float], step: float
) -> None:
    """Found by hypothesis: towards (5e-324, 5e-324) from (0, 1) with a step of 1.0, the step
    went to (-1, 0), 1.41 away (the wanted velocity's length rounded to 5e-324 and its
    "direction" came out as (1, 1)). A wanted velocity that small is at rest: one step there."""
    result = approach_step(last, wanted, step)
    assert math.dist(result, last) <= step * (1 + 1e-9)
    assert result == limited_step(last, wanted, step)


def test_an_approach_step_across_the_line() -> None:
    """Going 1 m/s along the line and 0.5 m/s across it, 0.8 m/s wanted along it, a 0.03 m/s
    step: braking along the line first leaves it at 0.97 m/s; the plain step spent most of the
    step on the crossing and braked along it by 0.011 m/s only."""
    assert approach_step((1.0, 0.5), (0.8, 0.0), 0.03)[0] == pytest.approx(0.97)
    assert limited_step((1.0, 0.5), (0.8, 0.0), 0.03)[0] == pytest.approx(0.9889, abs=1e-4)


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0), accelerations, accelerations, st.floats(0.01, 1.0))
def test_a_shared_step_stays_within_the_budget_and_leaves_each_its_share(
    linear_step: float, turn_step: float, linear_share: float, turn_share: float, budget: float
) -> None:
    """The step the translation and the turn take together is at most the budget (m/s per loop),
    and each takes at least its part of it in proportion to the shares (or all it asked for)."""
    linear_scale, turn_scale = shared_step(
        linear_step, turn_step, (linear_share, turn_share), budget
    )
    assert 0.0 <= linear_scale <= 1.0 and 0.0 <= turn_scale <= 1.0
    taken = linear_step * linear_scale, turn_step * turn_scale
    assert taken[0] + taken[1] <= max(budget, linear_step + turn_step) * (1 + 1e-9) + 1e-12
    part = budget * linear_share / (linear_share + turn_share)
    assert taken[0] >= min(linear_step, part) * (1 - 1e-9)
    assert taken[1] >= min(turn_step, budget - part) * (1 - 1e-9) - 1e-12


def test_the_module_budget_leaves_out_what_turning_under_a_field_velocity_asks() -> None:
    """Not turning, or not translating: the whole budget. 2 m/s and 0.5 rad/s with modules at
    0.4 m: each module's speed changes by at most 0.5²·0.4·2 / (2 − 0.2) = 0.11 m/s² by the turn
    of the frame alone. 0.8 m/s and 2.5 rad/s (a module nearly at rest): the vector bound, ω·|v|
    = 2 m/s², more than the budget: a quarter of it is left."""
    assert module_budget(1.5, 2.0, 0.0, [0.4] * 4) == 1.5
    assert module_budget(1.5, 0.0, 3.0, [0.4] * 4) == 1.5
    assert module_budget(1.5, 2.0, -0.5, [0.4] * 4) == pytest.approx(1.5 - 0.2 / 1.8)
    assert module_budget(1.5, 0.8, 2.5, [0.4] * 4) == pytest.approx(MIN_BUDGET_FRACTION * 1.5)


def trailing_robot_turn(
    goal: float, lag: float, gain: float, entry: float, acceleration: float, *, aware: bool
) -> float:
    """How far (rad) past ``goal`` a robot whose turn trails its command (a first-order ``lag``,
    s, to ``gain`` times the command) turns, entered at ``entry`` (rad/s, its command too), on
    the braking curve (20 ms loops, π rad/s at most) from where it is (``aware`` False) or from
    where it will have turned to (:func:`turn_still_to_come`: the lag known, its turn rate
    measured each loop)."""
    dt, top = 0.02, math.pi
    heading, command, expected, turning = 0.0, entry, entry, entry
    passed = 0.0
    for _ in range(3000):
        ahead = goal - heading
        if aware:
            expected = trailing_turn(expected, command, lag, dt)
            ahead -= turn_still_to_come(command, expected, turning, lag, acceleration)
        wanted = math.copysign(approach_speed(abs(ahead), top, acceleration, dt), ahead)
        (command,) = limited_step((command,), (wanted,), acceleration * dt)
        turning += (gain * command - turning) * min(1.0, dt / lag)
        heading += turning * dt
        passed = max(passed, heading - goal)
    return passed


@given(
    st.floats(0.1, 3.0),
    st.floats(0.02, 0.08),
    st.floats(0.9, 1.1),
    st.floats(-3.0, 3.0),
    st.floats(1.0, 10.0),
)
def test_braking_from_where_a_trailing_robot_will_have_turned_stops_on_the_goal(
    goal: float, lag: float, gain: float, entry: float, acceleration: float
) -> None:
    """A robot whose turn trails its command by 20-80 ms and falls short of it or passes it by up
    to 10 %, entered turning either way (towards the goal no faster than it can stop from half
    way): braking from where it will have turned to, it turns past the goal by at most 0.2°
    (the lag and the shortfall measured as it goes; the worst found 0.16°, a robot 10 % faster
    than its command, 20 ms behind it, at 10 rad/s² entered turning away at 3 rad/s; from where
    it is, 3.38° at 40 ms, see below)."""
    entry = min(entry, approach_speed(goal / 2.0, 3.0, acceleration, 0.02))
    passed = trailing_robot_turn(goal, lag, gain, entry, acceleration, aware=True)
    assert passed <= math.radians(0.2)


def test_a_robot_trailing_its_turn_by_40_ms_passes_the_goal_unless_its_braking_counts_on_it() -> (
    None
):
    """90° from rest at π rad/s and 2π rad/s², the turn trailing by 40 ms: braking from where the
    robot is, it turns 3.38° past the goal; counting on what it still turns, less than 0.05°."""
    unaware = trailing_robot_turn(math.pi / 2, 0.04, 1.0, 0.0, 2 * math.pi, aware=False)
    aware = trailing_robot_turn(math.pi / 2, 0.04, 1.0, 0.0, 2 * math.pi, aware=True)
    assert math.degrees(unaware) == pytest.approx(3.38, abs=0.01)
    assert aware <= math.radians(0.05)


def test_what_a_robot_still_turns_beyond_its_command() -> None:
    """At 2 rad/s braking at 4 rad/s²: trailing by 50 ms as expected, 0.1 rad; seen 0.2 rad/s
    faster than that for the braking's half second, falling with the rate, 0.05 rad more; seen
    slower, that much less, never below none; the way the command turns; none on the spot at
    its command."""
    assert turn_still_to_come(2.0, 2.0, 2.0, 0.05, 4.0) == pytest.approx(0.1)
    assert turn_still_to_come(2.0, 2.0, 2.2, 0.05, 4.0) == pytest.approx(0.15)
    assert turn_still_to_come(2.0, 2.0, 1.8, 0.05, 4.0) == pytest.approx(0.05)
    assert turn_still_to_come(2.0, 2.0, 1.0, 0.05, 4.0) == 0.0
    assert turn_still_to_come(-2.0, -2.0, -2.2, 0.05, 4.0) == pytest.approx(-0.15)
    assert turn_still_to_come(1.5, 1.5, 1.5, 0.0, 4.0) == 0.0
    # a first-order lag: a loop of 20 ms takes 40 % of the way at 50 ms; none at 0
    assert trailing_turn(1.0, 2.0, 0.05, 0.02) == pytest.approx(1.4)
    assert trailing_turn(1.0, 2.0, 0.0, 0.02) == 2.0


def test_the_turn_lag_while_translating_goes_with_the_steering_lag_and_has_a_floor() -> None:
    """50 ms at 40 ms of steering: at 72 ms (the Spark MAX and Kraken robots) by the square root,
    67 ms; at 40 ms, 50 ms, where the floor is lower; a steering lag measured shorter (the end of a
    slow turn read 29-36 ms on the all-REV robot) never takes it below the floor (55 ms), nor does
    none or a negative one."""
    assert translating_turn_lag(0.072, 0.05, 0.04, 0.0) == pytest.approx(0.05 * math.sqrt(1.8))
    assert translating_turn_lag(0.072, 0.05, 0.04, 0.055) == pytest.approx(0.0670820)
    assert translating_turn_lag(0.04, 0.05, 0.04, 0.0) == pytest.approx(0.05)
    for short in (0.032, 0.04, 0.0, -0.01):
        assert translating_turn_lag(short, 0.05, 0.04, 0.055) == 0.055


def test_shared_accelerations_brake_short_of_where_the_turn_will_still_go() -> None:
    """The robot entered turning at 2 rad/s (0.9 m/s at the furthest module) 0.71 m of arc from
    its heading, still turning 0.05 m of arc beyond its command: the turn has what it needs to
    stop 0.05 m short, more than on the whole arc; the translation the rest."""
    need = braking_need(0.9, 0.71 - 0.05, 0.02)
    assert need > braking_need(0.9, 0.71, 0.02)
    shares = shared_accelerations(2.0, 0.71, 1.5, 1.5, 1.5, (0.0, 0.9), 0.02, (0.0, 0.05))
    assert shares == pytest.approx((1.5 - need, need))


@pytest.mark.parametrize("acceleration", [1e6, 1e16, 1e17, 1e20, 1e154, 1e200, 1e308])
def test_unhurried_rate_at_a_huge_acceleration_is_the_turn_over_the_time(
    acceleration: float,
) -> None:
    """With no time spent speeding up or braking, the slowest rate that ends a 90° turn in 1 s
    is 90° a second. The difference of the two roots cancelled (1.0 at 1e16, 0.0 at 1e20) and
    overflowed (-inf from 1e154): ``drive_to(max_turn_acceleration=1e200)`` crawled at its floor."""
    rate = unhurried_rate(math.pi / 2, 1.0, acceleration)
    assert math.isclose(rate, math.pi / 2, rel_tol=1e-5), rate


@pytest.mark.parametrize(
    ("remaining", "seconds", "acceleration"),
    [
        (math.nan, 1.0, 1.0),
        (1.0, math.nan, 1.0),
        (1.0, 1.0, math.nan),
        (1.0, 1.0, 0.0),
        (1.0, -1.0, 1.0),
        (math.inf, 1.0, 1.0),
        (1.0, 1e-200, 1e-200),
    ],
)
def test_unhurried_rate_without_an_answer_is_infinite(
    remaining: float, seconds: float, acceleration: float
) -> None:
    """No rate ends the turn in time (or the figures are not numbers): infinite, which leaves
    drive_to's own top rate in force; never NaN, never an exception."""
    assert unhurried_rate(remaining, seconds, acceleration) == math.inf


@pytest.mark.parametrize(
    ("distance", "speed", "top", "acceleration"),
    [(0.0, -0.3, 0.3, 5e-324), (0.0, -1.0, 1.0, 1e-320), (1e300, -1e200, 1.0, 1e-300)],
)
def test_remaining_time_at_a_vanishing_acceleration_is_infinite_not_nan(
    distance: float, speed: float, top: float, acceleration: float
) -> None:
    """An acceleration so small that the ramps overflow: no end in sight (inf). It gave NaN
    (inf - inf), which only ``min``'s argument order kept out of drive_to's turn rate."""
    seconds = remaining_time(distance, speed, top, acceleration)
    assert seconds == math.inf, seconds
