"""``offsets DIRECTORY --add DEGREES``: add to every module's ``absoluteEncoderOffset``.

When spinning in place is counter-clockwise positive but odometry shows the robot driving
backwards while it drives forwards, add 180 to every ``absoluteEncoderOffset``.

Where the result is kept: any offset is equivalent to itself plus whole turns (the module angle is
``(reading − offset)`` wrapped to [0°, 360°)), so the tool writes one representative, in the
convention the folder already uses (``wrap="keep"``, the default, :func:`folder_convention`):

* ``unsigned``: [0°, 360°), the range of the ``Raw Absolute Encoder`` telemetry the offsets are
  copied from (12.3 → 192.3 → 12.3). A folder whose offsets are all in [0°, 360°) keeps them there.
* ``signed``: (−180°, 180°]: small offsets stay small and the sign shows which way the zero sits
  (12.3 → −167.7 → 12.3). A folder with a negative offset, all of them in (−180°, 180°], keeps them
  there.

``wrap="signed"`` or ``"unsigned"`` chooses instead. A folder whose offsets follow neither (some
negative and some above 180°, or beyond a turn) is written in [0°, 360°). Offsets outside the chosen
range are brought into it too (``--add 0`` only normalises).

The sums are exact: each offset's JSON text is added as a decimal number (12.3 + 180 is written
``192.3``, never ``192.29999999999998``), so adding 180 twice gives back the very number written.
One case needs a memory: a signed folder whose offsets are all at most 0 has, after +180, offsets
all in [0°, 180°], which read as either convention. The tool then notes the convention and the
offsets it wrote in ``DIRECTORY/.swervelib-offsets/convention.json`` (in the same transaction); the
note counts only while the offsets are still exactly those, and goes when they are not ambiguous.

Modules whose encoder type is ``none`` have no offset and are skipped. The ``--capture`` half
(offsets from the live robot's readings) lives in ``swervelib.tools.capture``.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, Final, Literal

from swervelib.text import printable, printable_repr
from swervelib.tools.edit import ConfigEditor, EditError, EditResult, FaultHook

Wrap = Literal["signed", "unsigned"]
Convention = Literal["keep", "signed", "unsigned"]
DECIMALS = 9
MEMORY: Final = ".swervelib-offsets/convention.json"
RANGES: Final[Mapping[Wrap, str]] = {"signed": "(−180°, 180°]", "unsigned": "[0°, 360°)"}
_TURN = Decimal(360)
_HALF = Decimal(180)


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


def _wrap_exact(value: Decimal, wrap: Wrap) -> Decimal:
    result = value % _TURN  # the sign of the dividend, as math.fmod
    if result < 0:
        result += _TURN
    if wrap == "signed" and result > _HALF:
        result -= _TURN
    return result


def _in_range(value: float, wrap: Wrap) -> bool:
    return 0.0 <= value < 360.0 if wrap == "unsigned" else -180.0 < value <= 180.0


def folder_convention(offsets: Mapping[str, float]) -> Wrap | None:
    """The convention ``offsets`` (file → offset) follow: ``signed`` when one is negative and all
    are in (−180°, 180°], ``unsigned`` when all are in [0°, 360°), None when neither."""
    values = list(offsets.values())
    if all(_in_range(v, "unsigned") for v in values):
        return "unsigned"
    if all(_in_range(v, "signed") for v in values):
        return "signed"
    return None


def _ambiguous(offsets: Mapping[str, float]) -> bool:
    """Every offset in [0°, 180°]: the two conventions cannot be told apart."""
    return all(0.0 <= v <= 180.0 for v in offsets.values())


def _remembered(editor: ConfigEditor, offsets: Mapping[str, float]) -> Wrap | None:
    """The convention noted with exactly these offsets, if any (a note that does not read, or was
    written for other offsets, is ignored)."""
    raw = editor.read_raw(MEMORY)
    if raw is None:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
        convention, noted = data["convention"], data["offsets"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None
    if convention not in RANGES or noted != dict(offsets):
        return None
    result: Wrap = convention
    return result


def _written_like(value: float, old: Any) -> float | int:
    """An integer when the old offset was written as one and the result is whole."""
    if isinstance(old, int) and value.is_integer():
        return int(value)
    return value


def _exact(text: str | None, file: str) -> Decimal:
    try:
        value = Decimal(text or "")
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite():
        raise EditError(
            f"{printable(file)}: absoluteEncoderOffset is {printable(text or '', 40)}, not a number"
        )
    return value


def add_to_offsets(
    directory: str | os.PathLike[str],
    degrees: float,
    *,
    dry_run: bool = False,
    wrap: Convention = "keep",
    fault_hook: FaultHook | None = None,
) -> EditResult:
    """Add ``degrees`` to every module's ``absoluteEncoderOffset`` (skipping encoder ``none``),
    keeping each result in the folder's convention, or in (−180°, 180°] or [0°, 360°) when ``wrap``
    says so (see the module docstring)."""
    if isinstance(degrees, bool) or not isinstance(degrees, int | float):
        raise EditError(f"degrees must be a number, not {printable_repr(degrees)}")
    if not math.isfinite(degrees):
        raise EditError(f"cannot add {printable_repr(degrees)} degrees: not a finite number")
    if wrap not in ("keep", *RANGES):
        raise EditError(
            f"unknown wrap convention {printable_repr(wrap)}: use 'keep', 'signed' or 'unsigned'"
        )
    step = Decimal(repr(float(degrees)))  # the number as typed: 0.1 is 0.1, not its binary value
    with ConfigEditor(directory, dry_run=dry_run, fault_hook=fault_hook) as editor:
        old: dict[str, Any] = {}
        exact: dict[str, Decimal] = {}
        for file in editor.module_files():
            if editor.get(file, "encoder.type", None) == "none":
                continue
            text = editor.get_text(file, "absoluteEncoderOffset")
            if text is None:
                raise EditError(f"{printable(file)}: no absoluteEncoderOffset to add to")
            value = editor.get(file, "absoluteEncoderOffset")
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise EditError(
                    f"{printable(file)}: absoluteEncoderOffset is {printable_repr(value)}, "
                    "not a number"
                )
            old[file], exact[file] = value, _exact(text, file)
        current = {file: float(value) for file, value in exact.items()}
        chosen, how = _choose(editor, current, wrap)
        written: dict[str, float] = {}
        for file, value in exact.items():
            result = _add(value, step, chosen, file)
            written[file] = result
            editor.set(file, "absoluteEncoderOffset", _written_like(result, old[file]))
        note = None
        if chosen == "signed" and written and _ambiguous(written):
            note = (
                json.dumps({"convention": chosen, "offsets": written}, indent=2) + "\n"
            ).encode()
        if note is not None or editor.read_raw(MEMORY) is not None:
            editor.stage_raw(MEMORY, note)
        return editor.commit(f"offsets {degrees:+g}°{how.format(RANGES[chosen])}")


def _choose(
    editor: ConfigEditor, current: Mapping[str, float], wrap: Convention
) -> tuple[Wrap, str]:
    """The convention to write in, and how it was chosen (for the summary, ``{}`` the range)."""
    if wrap != "keep":
        return wrap, " in {}"
    remembered = _remembered(editor, current) if _ambiguous(current) else None
    found = remembered or folder_convention(current)
    if found is None:
        return "unsigned", " in {} (the folder's offsets follow neither convention)"
    return found, ", kept in {} like the folder's"


def _add(value: Decimal, step: Decimal, wrap: Wrap, file: str) -> float:
    try:
        return float(_wrap_exact(value + step, wrap)) + 0.0  # no -0.0
    except ArithmeticError:  # decimal's InvalidOperation: a number too large to wrap
        raise EditError(
            f"{printable(file)}: absoluteEncoderOffset is too large to add to"
        ) from None
