"""Drive-to-pose speed profiles that stop at a goal without braking harder than their limit.

Two pure functions, used by ``SwerveInput.drive_to`` for the translation (m, m/s, m/s²) and the
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
  change of the command is bounded, whatever the robot does.
"""

from __future__ import annotations

import math


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
