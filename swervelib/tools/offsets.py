"""``offsets DIRECTORY --add DEGREES``: add to every module's ``absoluteEncoderOffset``.

Spec §3.1: when spinning in place is counter-clockwise positive but odometry shows the robot driving
backwards while it drives forwards, add 180 to every ``absoluteEncoderOffset``.

Where the result is kept: any offset is equivalent to itself plus whole turns (the module angle is
``(reading − offset)`` wrapped to [0°, 360°)), so the tool writes one canonical representative:

* ``wrap="signed"`` (the default): (−180°, 180°]. Small offsets stay small, the sign shows which
  way the zero sits, and adding 180 twice gives back the very same number (12.3 → −167.7 → 12.3).
* ``wrap="unsigned"``: [0°, 360°), the range of the ``Raw Absolute Encoder`` telemetry the offsets
  are copied from, so a captured offset and its +180 look alike (12.3 → 192.3 → 12.3).

Offsets written outside the chosen range are brought into it too (``--add 0`` only normalises).
Results are rounded to 9 decimals so that 12.3 + 180 is written ``192.3``, not
``192.29999999999998``. Modules whose encoder type is ``none`` have no offset and are skipped. The
``--capture`` half (offsets from the live robot's readings) lives in ``swervelib.tools.capture``.
"""

from __future__ import annotations

import math
import os
from typing import Any, Literal

from swervelib.text import printable, printable_repr
from swervelib.tools.edit import ConfigEditor, EditError, EditResult, FaultHook

Wrap = Literal["signed", "unsigned"]
DECIMALS = 9


def wrap_degrees(value: float, wrap: Wrap = "signed") -> float:
    """``value`` in (−180, 180] (``signed``) or [0, 360) (``unsigned``), rounded to 9 decimals."""
    if not math.isfinite(value):
        raise EditError(f"cannot wrap {printable_repr(value)} degrees: not a finite number")
    if wrap not in ("signed", "unsigned"):
        raise EditError(
            f"unknown wrap convention {printable_repr(wrap)}: use 'signed' or 'unsigned'"
        )
    result = round(value % 360.0, DECIMALS)
    if result >= 360.0:
        result -= 360.0
    if wrap == "signed" and result > 180.0:
        result -= 360.0
        result = round(result, DECIMALS)
    return result + 0.0  # no -0.0


def _written_like(value: float, old: Any) -> float | int:
    """An integer when the old offset was written as one and the result is whole."""
    if isinstance(old, int) and value.is_integer():
        return int(value)
    return value


def add_to_offsets(
    directory: str | os.PathLike[str],
    degrees: float,
    *,
    dry_run: bool = False,
    wrap: Wrap = "signed",
    fault_hook: FaultHook | None = None,
) -> EditResult:
    """Add ``degrees`` to every module's ``absoluteEncoderOffset`` (skipping encoder ``none``),
    keeping each result in (−180°, 180°] or [0°, 360°) (see the module docstring)."""
    if isinstance(degrees, bool) or not isinstance(degrees, int | float):
        raise EditError(f"degrees must be a number, not {printable_repr(degrees)}")
    if not math.isfinite(degrees):
        raise EditError(f"cannot add {printable_repr(degrees)} degrees: not a finite number")
    wrap_degrees(0.0, wrap)  # refuse an unknown convention before opening anything
    with ConfigEditor(directory, dry_run=dry_run, fault_hook=fault_hook) as editor:
        for file in editor.module_files():
            if editor.get(file, "encoder.type", None) == "none":
                continue
            if editor.get_text(file, "absoluteEncoderOffset") is None:
                raise EditError(f"{printable(file)}: no absoluteEncoderOffset to add to")
            old = editor.get(file, "absoluteEncoderOffset")
            if isinstance(old, bool) or not isinstance(old, int | float) or not math.isfinite(old):
                raise EditError(
                    f"{printable(file)}: absoluteEncoderOffset is {printable_repr(old)}, "
                    "not a number"
                )
            editor.set(
                file, "absoluteEncoderOffset", _written_like(wrap_degrees(old + degrees, wrap), old)
            )
        return editor.commit(f"offsets {degrees:+g}° ({wrap})")
