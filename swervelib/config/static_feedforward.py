"""``s``: swervelib's static feedforward for the angle motors (``pidfproperties.json`` ``angle.s``,
volts; YAGSL ignores the key).

A Spark adds it in its own position loop by the sign of the position error
(``closedLoop.feedForward.kS``), so the last fraction of a degree that P alone leaves to the
steering's friction is taken up on the device, every millisecond. It exists for the Sparks only:

* the drive motors: a Spark's velocity loop adds kS by the sign of the *velocity set-point*, and
  by + at 0 (measured in REV's simulator), which would push a stopped wheel; the drive's static
  friction is ``drive.feedforward.kS``, added by the speed's sign (0 at rest);
* the heading controller runs on the roboRIO and has no static feedforward;
* a TalonFX's ``f`` already is its kS (phoenix6 ``Slot0.kS``), and a Talon SRX's position loop has
  no static feedforward: ``s`` with either angle motor is refused rather than ignored.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from swervelib.config import bounds
from swervelib.config.fields import FileContext, ObjectView, describe
from swervelib.config.model import PIDF, ModuleConfig

KEY: Final = "s"
ANGLE: Final = "angle"
SPARKS: Final = ("sparkmax", "sparkflex")
_ELSEWHERE: Final = {
    "drive": "the drive's static friction is drive.feedforward.kS (volts, added by the speed's "
    "sign); a Spark's velocity loop would add s even at 0 m/s",
    "heading": "the heading controller runs on the roboRIO and has no static feedforward",
}


def read_static_feedforward(view: ObjectView, key: str, base: PIDF) -> float:
    """``s`` of the PIDF object ``key`` (``angle``, ``drive`` or ``heading``): its volts for
    ``angle``; anywhere else an error when it is given, and ``base.s`` (0)."""
    if key == ANGLE:
        return view.number(KEY, base.s, minimum=0, within=bounds.STEER_KS)
    if view.has(KEY):
        view.error(
            KEY,
            f"`s` (static feedforward) is for the angle motors only: {_ELSEWHERE.get(key, '')}",
            expected=f"no `s` in {key}",
            found=describe(view.data[KEY]),
        )
        view.ignore(KEY)
    return base.s


def check_static_feedforward(
    context: FileContext | None, angle: PIDF, modules: Iterable[ModuleConfig]
) -> None:
    """``angle.s`` needs every angle motor on a Spark: report the first module whose is not."""
    if context is None or angle.s == 0.0:
        return
    for module in modules:
        motor = module.angle_motor_type
        if motor.controller not in SPARKS:
            how = (
                "use f, which is the TalonFX's kS (volts)"
                if motor.controller.startswith("talonfx")
                else "the Talon SRX's position loop has no static feedforward"
            )
            context.report(
                (ANGLE, KEY),
                f"`s` (static feedforward) is for angle motors on a Spark MAX or Spark FLEX; "
                f"module {module.name} steers with a `{module.angle.type}`: {how}",
                expected="0, or no `s`, with this angle motor",
                found=f"{angle.s:g} V",
            )
            return
