"""What one change of ``migrate`` is, and how the older formats' values are read.

A :class:`MigrationStep` is one line of the output: a file, a field and what changes and why; its
:class:`Edit` values make the change (a step without edits is only said). The value helpers read a
number as the older formats meant it: 0, null and missing all mean "not given".
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Any, Final, Literal

from swervelib.config.bounds import Range
from swervelib.config.combined import FEET_THRESHOLD_MPS
from swervelib.config.conversions import PHYSICAL_FILE
from swervelib.text import printable, shown_number
from swervelib.tools.edit_result import MISSING

MAX_SPEED_FLAG: Final = "--max-speed-in-feet"
TALONFX_FLAG: Final = "--talonfx-from-yagsl-2025"


__all__ = [
    "FEET_THRESHOLD_MPS",
    "MAX_SPEED_FLAG",
    "PHYSICAL_FILE",
    "TALONFX_FLAG",
    "UNREADABLE",
    "Edit",
    "MigrationStep",
    "Unreadable",
    "empty",
    "positive",
    "refusal",
    "shown",
]


class Unreadable(enum.Enum):
    """Stands for a file that is there but cannot be read as JSON (its problem is the loader's)."""

    UNREADABLE = "unreadable"


UNREADABLE: Final = Unreadable.UNREADABLE


@dataclass(frozen=True, slots=True)
class Edit:
    """One change to stage: ``set`` ``value`` at ``path``, ``delete`` the member at ``path``,
    ``rename`` it to the key ``value``, or ``create`` the file holding ``value``."""

    action: Literal["set", "delete", "rename", "create"]
    file: str
    path: str
    value: Any = None


@dataclass(frozen=True, slots=True)
class MigrationStep:
    """One thing migrate changes (``edits``), or only says (no edits), in one line."""

    file: str
    field: str
    explanation: str
    edits: tuple[Edit, ...] = ()

    @property
    def changes(self) -> bool:
        """Whether migrate writes something for this step."""
        return bool(self.edits)

    def format(self) -> str:
        """``FILE: FIELD: EXPLANATION``, one printable line."""
        return printable(f"{self.file}: {self.field}: {self.explanation}", None)


def shown(value: Any) -> str:
    """A value read from a file, short and printable, for an explanation."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return shown_number(value)


def positive(value: Any) -> float | None:
    """``value`` when it is a finite number above 0, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer of hundreds of digits
        return None
    return value if math.isfinite(number) and number > 0 else None


def empty(value: Any) -> bool:
    """0, null or missing: "not given" in every older format."""
    if value is MISSING or value is None:
        return True
    return not isinstance(value, bool) and isinstance(value, int | float) and value == 0


def refusal(value: Any, within: Range) -> str | None:
    """Why ``value`` cannot be copied (not a number, or out of the loader's range), or None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "not a number"
    try:
        number = float(value)
    except OverflowError:
        return "out of range, far too large"
    if not math.isfinite(number) or number <= 0:
        return "not a positive number"
    if not within.accepts(number):
        return f"out of range, {within.error(number)}"
    return None
