"""The encoder of a brushed Spark MAX (``sparkmax_brushed``), which YAGSL reads from ``canbus``.

A Spark MAX has no CAN bus choice, so YAGSL uses the motor's ``canbus`` field to name the encoder a
brushed motor reads: one of :data:`~swervelib.config.catalog.BRUSHED_ENCODERS`, on the encoder port
or (``*_dataport``) on the data port. A drive motor must have one (YAGSL throws "Spark MAX <id> MUST
have a encoder attached"); an angle motor without one (any other value, or none) steers on the
absolute encoder on its data port, which :mod:`swervelib.config.steering` checks.

Pure Python.
"""

from __future__ import annotations

from typing import Final

from swervelib.config.catalog import BRUSHED_ENCODERS
from swervelib.config.fields import ObjectView, describe, suggest

NAMES: Final = ", ".join(f"`{name}`" for name in BRUSHED_ENCODERS)


def read_brushed_encoder(view: ObjectView, role: str) -> str | None:
    """The encoder named in a brushed Spark MAX's ``canbus`` (``role`` is ``drive`` or ``angle``):
    its name, or None for none (an error for a drive motor, a warning for a name YAGSL does not
    know)."""
    raw = view.data.get("canbus")
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        view.ignore("canbus")
        name: str | None = str(raw)  # YAGSL reads a number as its text: never an encoder name
    else:
        name = view.string("canbus", None)
        if not view.ok("canbus"):
            return None
    if name in BRUSHED_ENCODERS:
        return name
    close = suggest(name, BRUSHED_ENCODERS) if name else None
    hint = f"; did you mean `{close}`?" if close else ""
    found = describe(raw) if name else "no encoder named"
    if role == "drive":
        view.error(
            "canbus",
            "a brushed Spark MAX drive motor needs an encoder, named in `canbus` as YAGSL reads "
            f"it{hint}",
            expected=f"one of {NAMES}",
            found=found,
        )
    elif name:
        view.warn(
            "canbus",
            "names no encoder a brushed Spark MAX knows: as YAGSL does, the angle motor is read as "
            f"having no encoder of its own and steers on the encoder on its data port{hint}",
            expected=f"one of {NAMES}, or null",
            found=found,
        )
    return None
