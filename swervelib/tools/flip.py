"""``flip DIRECTORY``: move each module's hardware to the diagonally opposite module file.

The spec's table (front left ↔ back right, front right ↔ back left) is applied by ``location``, not
by file names: each module is paired with the module whose ``front`` and ``left`` are both the
negation of its own (within :data:`TOLERANCE_IN` inches), so any names and also 2- or 6-module
layouts work. A layout where some module has no such partner, or more than one, is refused.

What moves, and why. A module file is a *position* on the robot (``location`` stays, and so does
everything that describes the position or the file: ``useCosineCompensator``, unknown keys). The
rest describes the *physical module* that sits there, and a flip says "the module at this position
is really the one configured for the opposite position", so all of it travels together:

* ``drive``, ``angle``, ``encoder``: the devices.
* ``absoluteEncoderOffset``: the encoder's zero on that physical module.
* ``absoluteEncoderInverted``: describes the encoder's reading direction. The encoder moves, so the
  flag moves with it; left behind, the encoder would read backwards in its new file.
* ``inverted`` (``drive`` and ``angle``): describes how each motor is mounted and wired. Turning
  the robot's notion of front by 180° about the vertical axis does not change what
  counter-clockwise seen from above means, so each physical motor needs the same flag after the
  flip: it travels with its motor.
* ``conversionFactors`` (a per-module override): the gearing of that physical module.

The offset is moved, not changed: if odometry then runs backwards, add 180 (``offsets --add 180``).
Members are exchanged text for text, all of a pair's at once, so flipping twice gives back the
same bytes. A member present in only one of the two files moves to the other, placed by the keys
that stay (after the nearest one both files have, else before the first one both have), and
members bound for the same place keep their order. The one layout that cannot come back is a
member only one file has beside an unknown key only that file has: ``{"_note", "k", "location"}``
and ``{"k", "_note", "location"}`` flipped with a ``{"location"}`` give the same files, so ``k``
may come back on the other side of ``_note`` (its value and every other key unchanged).
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath

from swervelib.text import printable
from swervelib.tools.edit import ConfigEditor, EditError, EditResult, FaultHook

TOLERANCE_IN = 0.5
"""How far (inches, on each axis) a module may be from the exact mirror of its partner."""

TRAVELLING_FIELDS = (
    "drive",
    "angle",
    "encoder",
    "inverted",
    "absoluteEncoderInverted",
    "absoluteEncoderOffset",
    "conversionFactors",
)
"""Members that move with the physical module (see the module docstring)."""


def after_flip(directory: str) -> str:
    """What to do next: a flip moves the offsets unchanged, which alone does not turn the robot's
    front around (measured on the simulated robot: it still drives backwards and loses its
    heading); with every offset half a turn on it does."""
    return (
        "A flip alone mirrors the robot's rotation and leaves its translation reversed. If you "
        "flipped because the robot's front is physically its back (it held its heading but drove "
        "backwards), also add 180 to every offset: "
        f"`python -m swervelib offsets {directory} --add 180` (or use the eight-step procedure, "
        "whose partner step flips and inverts every drive motor together). Then restart the "
        "robot code."
    )


def _name(file: str) -> str:
    return printable(PurePosixPath(file).stem)


def _location(editor: ConfigEditor, file: str) -> tuple[float, float]:
    values = []
    for axis in ("front", "left"):
        value = editor.get(file, f"location.{axis}", None)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise EditError(
                f"{printable(file)}: location.{axis} must be a number (inches) to flip modules"
            )
        try:
            values.append(float(value))
        except OverflowError:  # an integer of hundreds of digits
            raise EditError(
                f"{printable(file)}: location.{axis} is an integer too large for any robot "
                "(inches) to flip modules"
            ) from None
    return values[0], values[1]


def diagonal_pairs(editor: ConfigEditor) -> list[tuple[str, str]]:
    """Each module file with the one diagonally opposite it, in module order (each pair once)."""
    files = editor.module_files()
    places = {file: _location(editor, file) for file in files}
    partner: dict[str, str] = {}
    for file, (front, left) in places.items():
        matches = [
            other
            for other, (f, lf) in places.items()
            if other != file and abs(f + front) <= TOLERANCE_IN and abs(lf + left) <= TOLERANCE_IN
        ]
        where = f"front {front:g}, left {left:g}"
        if not matches:
            raise EditError(
                f"cannot flip: no module is diagonally opposite {printable(file)} ({where}); "
                "expected one at "
                f"front {-front:g}, left {-left:g} (±{TOLERANCE_IN:g} in). Flipping needs every "
                "module mirrored through the robot centre"
            )
        if len(matches) > 1:
            raise EditError(
                f"cannot flip: {', '.join(map(printable, matches))} are all diagonally opposite "
                f"{printable(file)} ({where})"
            )
        partner[file] = matches[0]
    pairs: list[tuple[str, str]] = []
    for file in files:
        other = partner[file]
        if partner[other] != file:
            raise EditError(
                f"cannot flip: {printable(file)} and {printable(other)} are not each other's "
                f"diagonal (the opposite of {printable(other)} is {printable(partner[other])})"
            )
        if (other, file) not in pairs:
            pairs.append((file, other))
    return pairs


def apply_flip(editor: ConfigEditor) -> list[tuple[str, str]]:
    """Stage the flip in ``editor``; returns the pairs swapped."""
    pairs = diagonal_pairs(editor)
    for first, second in pairs:
        editor.exchange_members(first, second, TRAVELLING_FIELDS)
    return pairs


def describe_pairs(pairs: list[tuple[str, str]]) -> str:
    return ", ".join(f"{_name(a)}↔{_name(b)}" for a, b in pairs)


def flip_modules(
    directory: str | os.PathLike[str],
    *,
    dry_run: bool = False,
    fault_hook: FaultHook | None = None,
) -> EditResult:
    """Swap each diagonal pair's hardware fields; refuses layouts without clean pairs."""
    with ConfigEditor(directory, dry_run=dry_run, fault_hook=fault_hook) as editor:
        pairs = apply_flip(editor)
        return editor.commit(f"flip ({describe_pairs(pairs)})")
