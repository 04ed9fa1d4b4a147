"""Drive-to-pose speed profiles that stop at a goal without braking harder than their limit.

Pure functions, used by ``SwerveInput.drive_to`` for the translation (m, m/s, m/s²) and the
turn (rad, rad/s, rad/s²) alike:

* :func:`approach_speed`: the speed to ask for ``remaining`` away from the goal, on a braking
  curve made for the robot loop's steps. Ask for ``v`` now, travel ``v·dt`` in this loop, and the
  curve asks for exactly ``v − a·dt`` at the next one, down to the goal: the curve is
  ``v² + a·dt·v = 2·a·remaining``. (Its last step, slower than ``a·dt``, can pass the goal by up
  to ``a·dt²/8``: 0.15 mm at 3 m/s² and 20 ms.) The continuous ``v = √(2·a·d)`` sampled once a
  loop brakes harder than ``a`` (by ``2v / (v + v_next)``), and a proportional region below it
  (``min(√(2·a·d), k·d)``) brakes at ``k·v``: twice ``a`` where the two meet, whatever ``k``.
* :func:`limited_step`: move the last command towards the one wanted by at most ``a·dt`` (a
  vector, so braking across the line to the goal and speeding up along it share one limit); every
  change of the command is bounded, whatever the robot does. :func:`approach_step` does so for
  the velocity, braking along the line to the goal first where it goes faster along it than the
  curve asks (a velocity that still crosses the line, turned towards it in the same step, held
  it above its braking curve: 4.5 cm past the goal under the setpoint generator).

* :func:`turn_still_to_come`: how far the robot still turns beyond its command. Translating, the
  robot's turn trails a falling command (its modules steer the turn's changes, and steering
  lags its targets): without the generator it turned 6.1° past the heading entered turning at
  2 rad/s, 4.7-5.1° from rest with 3 m and 90° to go. The turn's braking curve is taken from the
  heading the robot will have turned to, so it brakes that much sooner.
* :func:`steered_fraction` and :func:`translation_still_to_come`: the same for the translation
  without the generator. Where a turn makes much of the modules' velocity, a change of the
  translation is steered rather than driven (across each module's velocity), and steering lags:
  the robot went 0.1 m/s faster than a command braking at 3 m/s² while turning at π rad/s, and
  passed the pose by 4.8 cm from rest 1 m away with 170° to turn (10.3 cm entered at 1 m/s). Its
  braking curve is taken from where it will have gone (see ``STEERED_TRANSLATION_LAGS`` in
  :mod:`swervelib.pose_follower`).
* :func:`steering_lag_samples`: how long each module's steering trails its target, seen in one
  loop (its angle short of the target over the target's rate), from which drive_to measures the
  robot's own steering lag instead of taking one simulated robot's (41 ms all-REV, 72 ms on the
  Spark MAX and Kraken example robots); :func:`translating_turn_lag`: the turn's lag while
  translating from it (see ``STEERED_TURN_LAG_S`` in :mod:`swervelib.pose_follower`).
* :func:`remaining_time` and :func:`unhurried_rate`: when the translation would end, and the
  slowest top turn rate that still ends the turn by a time. Without the generator the turn ends
  shortly before the translation rather than as soon as it can: steering that stops short of its
  targets leaves some of the turn's last changes unsteered, which turns the robot on for as long
  as it translates (0.5-0.6° past the heading before; see ``TURN_ENDS_BEFORE_S`` in
  :mod:`swervelib.pose_follower`).

Under a setpoint generator, which limits each module's acceleration rather than the chassis's, a
move that translates and turns at once asks every module for both: the translation's acceleration
plus the turn's times the module's radius. These keep drive_to within that one budget:

* :func:`shared_accelerations`: the braking curves' accelerations, the module budget split between
  the translation and the turn in proportion to what each has still to go (metres, and radians
  times the radius): from rest both profiles then end together, so their shares stay the same all
  the way, and braking on both at once never asks a module for more than the budget. A move that
  only translates or only turns has the whole budget, as before. Entered while moving (or where
  the robot trails its command), a profile may be above the curve of its share: it has what it
  needs to stop on its goal (:func:`braking_need`) first, and one going away from its goal what
  stops it within the loop.
* :func:`module_budget`: what is left of the module acceleration for the two: a field velocity held
  while the robot turns turns the other way in the robot's frame, which changes the modules'
  speeds by itself (at most ``ω·|v|``, and at most ``ω²·r·|v| / ||v| − ω·r|`` along a module's
  velocity, where the generator limits it).
* :func:`shared_step`: how much of a command step the translation and the turn may each take in
  one loop, together at most ``budget·dt`` (``|Δv| + |Δω|·r``, what a module whose turn adds to
  the translation needs), each at least its share of it: the share its braking curve counts on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def approach_speed(remaining: float, top: float, acceleration: float, dt: float) -> float:
    """The speed towards a goal ``remaining`` away (≥ 0): at most ``top``, on the braking curve
    (see the module docstring)."""
    half_step = acceleration * dt / 2.0
    braking = math.sqrt(half_step * half_step + 2.0 * acceleration * remaining) - half_step
    return min(top, braking)


def limited_step(
    last: tuple[float, ...], wanted: tuple[float, ...], step: float
) -> tuple[float, ...]:
    """``wanted``, or the point ``step`` from ``last`` on the way to it if it is further."""
    change = [w - v for v, w in zip(last, wanted, strict=True)]
    length = math.sqrt(sum(c * c for c in change))
    if length <= step:
        return tuple(wanted)
    scale = step / length
    return tuple(v + c * scale for v, c in zip(last, change, strict=True))


# Below this speed (m/s) a wanted velocity has no direction approach_step can brake along: a
# subnormal one's length rounds so far that dividing by it gave no unit vector ((5e-324, 5e-324)
# over its length 5e-324 is (1, 1)), and the step left the last velocity by 1.41 of a 1.0 step.
MIN_DIRECTION_SPEED = 1e-12


def approach_step(
    last: tuple[float, float], wanted: tuple[float, float], step: float
) -> tuple[float, float]:
    """:func:`limited_step` for a velocity (m/s) towards ``wanted`` (the braking curve's speed
    along the line to the goal), except that where the last one goes along that line faster
    than wanted, braking along it comes first and what is left of ``step`` turns the rest of the
    velocity towards the line: turning a velocity that crosses the line (entered while moving
    across, or swinging in) does not hold it above its braking curve, which passed the goal."""
    speed = math.hypot(*wanted)
    if speed < MIN_DIRECTION_SPEED:  # (no direction to brake along: see the constant)
        vx, vy = limited_step(last, wanted, step)
        return vx, vy
    ux, uy = wanted[0] / speed, wanted[1] / speed
    along = last[0] * ux + last[1] * uy
    if along <= speed:
        vx, vy = limited_step(last, wanted, step)
        return vx, vy
    brake = min(along - speed, step)
    cross_x, cross_y = last[0] - along * ux, last[1] - along * uy
    cross = math.hypot(cross_x, cross_y)
    keep = 1.0 - min(1.0, math.sqrt(step * step - brake * brake) / cross) if cross > 0.0 else 0.0
    along -= brake
    return along * ux + cross_x * keep, along * uy + cross_y * keep


def braking_need(speed: float, remaining: float, dt: float) -> float:
    """The least acceleration (m/s², or rad/s²) on whose braking curve (:func:`approach_speed`)
    a profile going at ``speed`` towards a goal ``remaining`` away brakes this loop rather than
    go on: the curve asks for ``speed − a·dt`` there (``(v − a·dt)² + a·dt·(v − a·dt) = 2·a·d``,
    so ``a = v² / (2·d + v·dt)``); 0 at rest or going away."""
    if speed <= 0.0:
        return 0.0
    return speed * speed / (2.0 * remaining + dt * speed)


def shared_accelerations(
    distance: float,
    turn_arc: float,
    linear: float,
    turn_arc_limit: float,
    budget: float,
    speeds: tuple[float, float] = (0.0, 0.0),
    dt: float = 0.02,
    leads: tuple[float, float] = (0.0, 0.0),
) -> tuple[float, float]:
    """The translation's and the turn's accelerations (m/s², and rad/s² times the module radius)
    from a module ``budget`` (m/s²) for a move with ``distance`` (m) and ``turn_arc`` (the turn
    times the radius, m) still to go, each at most its own limit (``linear``, ``turn_arc_limit``),
    going at ``speeds`` (m/s towards the goal, and the turn rate times the radius; < 0: away)
    with ``dt`` (s) a loop; ``leads``: how far (m, and turn arc) each will still go beyond its
    command (:func:`turn_still_to_come`; < 0: back), which its braking must stop short of.

    Each has its part of the budget in proportion to what it has left to go (see the module
    docstring), or more where it needs more: going towards its goal, what it needs to stop on it
    (:func:`braking_need`: entered while moving, or braking, where it keeps to that rather than
    the other's part, which would let it brake later and harder); going away from it, what stops
    it within the loop. Where those are more than the budget, stopping on the goals comes first
    and the rest is shared in proportion to what each wants beyond that; what one's own limit
    leaves is the other's. Their sum is at most ``budget`` unless both limits fit."""
    if linear + turn_arc_limit <= budget:
        return linear, turn_arc_limit
    limits = (linear, turn_arc_limit)
    total = distance + turn_arc
    share = distance / total if total > 0.0 else 0.5
    parts = (share * budget, (1.0 - share) * budget)
    needs = [
        min(limit, braking_need(v, max(0.0, d - lead), dt))
        for v, d, lead, limit in zip(speeds, (distance, turn_arc), leads, limits, strict=True)
    ]
    if needs[0] + needs[1] >= budget:  # (it cannot stop on both: each in proportion)
        scale = budget / (needs[0] + needs[1])
        return needs[0] * scale, needs[1] * scale
    wants = [
        min(limit, max(part, need, -v / dt))
        for v, part, need, limit in zip(speeds, parts, needs, limits, strict=True)
    ]
    if wants[0] + wants[1] > budget:
        scale = (budget - needs[0] - needs[1]) / (wants[0] - needs[0] + wants[1] - needs[1])
        return (
            needs[0] + (wants[0] - needs[0]) * scale,
            needs[1] + (wants[1] - needs[1]) * scale,
        )
    return min(linear, budget - wants[1]), min(turn_arc_limit, budget - wants[0])


# The least of the module acceleration left for the profiles, however fast the robot turns and
# translates (the frame's turn can ask for more than the whole budget: braking must go on).
MIN_BUDGET_FRACTION = 0.25
# The longest steering lag (s) a loop's sample is believed: further behind, its target jumped
# (a reversal, a module starting to roll) rather than turned (measured lags: 35-90 ms).
MAX_STEERING_LAG_S = 0.25


def module_budget(
    acceleration: float, speed: float, turn_rate: float, radii: Sequence[float]
) -> float:
    """What is left of each module's ``acceleration`` (m/s²) for the translation's and the turn's
    changes when the command is ``speed`` (m/s, field frame) and ``turn_rate`` (rad/s), with
    modules at ``radii`` (m) from the centre: less the change of module speed that holding the
    field velocity while turning asks for (see the module docstring), at least
    ``MIN_BUDGET_FRACTION`` of it."""
    turn_rate = abs(turn_rate)
    frame = 0.0
    for radius in radii:
        # a vector ω·|v|; along the module's velocity ω²·r·|v| over its speed, at least ||v| − ωr|
        change = turn_rate * speed
        slowest = abs(speed - turn_rate * radius)
        if slowest > 0.0:
            change = min(change, turn_rate * turn_rate * radius * speed / slowest)
        frame = max(frame, change)
    return max(acceleration - frame, MIN_BUDGET_FRACTION * acceleration)


def shared_step(
    linear_step: float, turn_arc_step: float, shares: tuple[float, float], budget: float
) -> tuple[float, float]:
    """The fractions of a command step the translation and the turn may take: ``linear_step`` (the
    change of the field velocity, m/s) and ``turn_arc_step`` (the change of the turn rate times
    the module radius, m/s) together at most ``budget`` (m/s), each at least its part of
    ``budget`` in proportion to ``shares`` (the braking curves' accelerations, m/s²), and what one
    does not use left to the other."""
    if linear_step + turn_arc_step <= budget:
        return 1.0, 1.0
    total = shares[0] + shares[1]
    linear_part = budget * shares[0] / total if total > 0.0 else budget / 2.0
    turn_part = budget - linear_part
    if linear_step <= linear_part:
        return 1.0, (budget - linear_step) / turn_arc_step
    if turn_arc_step <= turn_part:
        return (budget - turn_arc_step) / linear_step, 1.0
    return linear_part / linear_step, turn_part / turn_arc_step


def trailing_turn(expected: float, command: float, lag: float, dt: float) -> float:
    """The turn rate (rad/s) a robot whose turn trails its command by ``lag`` (s; a first-order
    lag) has after a loop of ``dt`` (s) at ``command`` (rad/s), from ``expected`` (rad/s)."""
    if lag <= 0.0:
        return command
    return expected + (command - expected) * min(1.0, dt / lag)


def turn_still_to_come(
    turn_rate: float, expected: float, yaw_rate: float, lag: float, acceleration: float
) -> float:
    """How far (rad, the way ``turn_rate`` goes) a robot commanded to turn at ``turn_rate``
    (rad/s) still turns beyond what its command counts on, braking at ``acceleration``
    (rad/s²): its turn trails the command by ``lag`` (s), from ``expected`` (rad/s, see
    :func:`trailing_turn`), which takes it ``lag`` times that further than the command (a
    first-order lag: the robot's turn less the command's, over all the time to come); and what it
    is seen to turn (``yaw_rate``) faster than ``expected`` (< 0: slower; e.g. a velocity loop
    that falls short) lasts the braking's ``|turn_rate| / acceleration``. Never less than none:
    a robot that falls short of its command stops short of the goal, and the profile goes on."""
    way = math.copysign(1.0, turn_rate)
    seen = (
        (yaw_rate - expected) * way * abs(turn_rate) / (2.0 * acceleration)
        if acceleration > 0
        else 0.0
    )
    return way * max(0.0, lag * expected * way + seen)


def steered_fraction(
    velocity: tuple[float, float], turn_rate: float, locations: Sequence[tuple[float, float]]
) -> float:
    """The part of a change of a chassis's ``velocity`` (m/s, robot frame) along itself that its
    modules (at ``locations``, m from the centre) steer rather than drive, turning at
    ``turn_rate`` (rad/s): the mean over the modules of sin² of the angle between the velocity
    and the module's (a module drives the change along its own velocity at once, and steers the
    rest). 0 without a turn (every module rolls along the velocity); tending to 0.5 on four
    modules at the corners where the turn makes most of their speed. 0 at rest."""
    vx, vy = velocity
    speed = math.hypot(vx, vy)
    if speed == 0.0 or turn_rate == 0.0 or not locations:
        return 0.0
    steered = 0.0
    for x, y in locations:
        mx, my = vx - turn_rate * y, vy + turn_rate * x
        wheel = math.hypot(mx, my)
        steered += ((vx * my - vy * mx) / (speed * wheel)) ** 2 if wheel > 0.0 else 1.0
    return steered / len(locations)


def steering_lag_samples(
    previous: Sequence[tuple[float, float]],
    targets: Sequence[tuple[float, float]],
    angles_deg: Sequence[float],
    dt: float,
    min_speed: float,
    min_rate: float,
) -> list[float]:
    """How long (s) each module's steering trails its target, seen in one loop: the angle it is
    short of its target (``targets``: the modules' last (m/s, degrees) targets; ``angles_deg``:
    their measured angles) over the rate its target turns at (from ``previous``, the targets
    ``dt`` s before): a steering loop that trails its target by ``lag`` s is short of a target
    turning at ``rate`` by ``lag × rate``. Only modules asked for at least ``min_speed`` (m/s)
    whose target turns at least ``min_rate`` (rad/s); the angles modulo 180° (an optimised
    target is reversed), and a module that is ahead of its target or more than
    :data:`MAX_STEERING_LAG_S` behind it (a target that jumped) gives nothing."""
    if dt <= 0.0:
        return []
    samples = []
    for (_, before), (speed, target), angle in zip(previous, targets, angles_deg, strict=False):
        rate = math.radians(_half_turn(target - before)) / dt
        if abs(speed) < min_speed or abs(rate) < min_rate:
            continue
        lag = math.radians(_half_turn(target - angle)) / rate
        if 0.0 <= lag <= MAX_STEERING_LAG_S:
            samples.append(lag)
    return samples


def _half_turn(degrees: float) -> float:
    """``degrees`` wrapped to [-90, 90): a module angle's difference, whichever way it rolls."""
    return (degrees + 90.0) % 180.0 - 90.0


def translation_still_to_come(speed: float, lag: float) -> float:
    """How far (m) a robot whose translation trails its command by ``lag`` (s; a first-order
    lag) and goes at ``speed`` (m/s) towards the goal goes beyond what its commands count on:
    ``lag × speed`` (the robot's velocity less the command's, over all the time to come); none
    going away."""
    return lag * max(0.0, speed)


def translating_turn_lag(steering_lag: float, lag: float, reference: float, least: float) -> float:
    """How long (s) a robot's turn trails a falling command while it translates, its modules'
    steering trailing their targets by ``steering_lag`` (s): ``lag`` (s, what it was at a
    steering lag of ``reference`` s, > 0) scaled by the square root of ``steering_lag`` over
    ``reference`` (the turn's changes are steered; in proportion, a robot steering at 72 ms
    braked its turn early and crept to the heading), and never less than ``least`` (s): a
    steering lag measured shorter (the end of a slow turn reads short) does not shorten it."""
    return max(least, lag * math.sqrt(max(0.0, steering_lag) / reference))


def remaining_time(distance: float, speed: float, top: float, acceleration: float) -> float:
    """Seconds a profile ``distance`` (≥ 0) from its goal, going at ``speed`` towards it (< 0:
    away), takes to stop on it at ``acceleration`` (> 0) and at most ``top``: the time-optimal
    trapezoid (above its braking curve: the time to brake)."""
    if speed < 0.0:  # stop first, then from rest from further away
        seconds = -speed / acceleration + remaining_time(
            distance + speed * speed / (2.0 * acceleration), 0.0, top, acceleration
        )
    else:
        peak = min(top, math.sqrt(acceleration * distance + speed * speed / 2.0))
        if speed >= peak:
            return speed / acceleration
        ramps = (peak * peak - speed * speed) / (2.0 * acceleration) + peak * peak / (
            2.0 * acceleration
        )
        seconds = (peak - speed) / acceleration + peak / acceleration + (distance - ramps) / peak
    # (an acceleration so small that the ramps overflow gives inf - inf: no end in sight)
    return math.inf if math.isnan(seconds) else seconds


def unhurried_rate(remaining: float, seconds: float, acceleration: float) -> float:
    """The slowest top speed at which a profile ``remaining`` (≥ 0) from its goal, from rest,
    reaches it within ``seconds`` at ``acceleration`` (> 0): ``w`` with ``remaining / w +
    w / acceleration = seconds``; infinite where none does (or ``seconds`` ≤ 0).

    Written as the smaller root's product form, ``2 remaining / (seconds (1 + √(1 - 4 remaining /
    (acceleration seconds²))))``, which neither cancels nor overflows for a huge acceleration
    (the difference of two near roots gave 0 or -inf for a 90° turn at 1e20 rad/s²)."""
    if not (seconds > 0.0 and acceleration > 0.0):
        return math.inf
    ratio = 4.0 * remaining / acceleration / seconds / seconds
    if not ratio <= 1.0:  # (NaN too)
        return math.inf
    return 2.0 * remaining / (seconds * (1.0 + math.sqrt(1.0 - ratio)))
