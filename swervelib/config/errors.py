"""Configuration problems and the single error that carries all of them.

A problem's text comes partly from the files (keys, type names, paths), which can hold anything:
every field of a :class:`Problem` is therefore made printable when it is created (control, bidi
and surrogate characters escaped, long text cut, see :mod:`swervelib.text`), so printing a
problem, or any of its fields, never garbles a terminal or raises ``UnicodeEncodeError``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from swervelib.text import is_printable, printable

# Longest text kept for each part of a problem (a message may list every accepted type name).
FILE_LIMIT = 300
FIELD_LIMIT = 300
MESSAGE_LIMIT = 1000
DETAIL_LIMIT = 1000
_LIMITS = (
    ("file", FILE_LIMIT),
    ("field", FIELD_LIMIT),
    ("message", MESSAGE_LIMIT),
    ("expected", DETAIL_LIMIT),
    ("found", DETAIL_LIMIT),
)
_CUT_NOTE = 40  # room for printable()'s "… (N more characters)"


def _shown(text: str, limit: int) -> str:
    """:func:`printable` of ``text``; text it already made (a copy, an unpickled problem) is kept
    as it is rather than cut a second time."""
    if len(text) <= limit + _CUT_NOTE and is_printable(text):
        return text
    return printable(text, limit)


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong (or suspicious) in a configuration directory.

    ``file`` is relative to the configuration directory (``modules/frontleft.json``), ``field`` is a
    dotted path inside that file (``inverted.drive``, ``modules[2]``; empty for the whole file).
    ``line`` and ``column`` are 1-based and present when known.
    """

    file: str
    field: str
    message: str
    expected: str | None = None
    found: str | None = None
    line: int | None = None
    column: int | None = None
    severity: Severity = Severity.ERROR

    def __post_init__(self) -> None:
        for name, limit in _LIMITS:
            text = getattr(self, name)
            if text is not None:
                object.__setattr__(self, name, _shown(text, limit))  # frozen: set once, here

    @property
    def location(self) -> str:
        """``FILE:LINE:COL`` (or ``FILE`` when the position is not known)."""
        if self.line is None:
            return self.file
        return f"{self.file}:{self.line}:{self.column or 1}"

    def format(self) -> str:
        """``FILE:LINE:COL: FIELD: MESSAGE``, one line; the form ``swervelib check`` prints."""
        text = self.message
        if self.expected is not None or self.found is not None:
            parts = []
            if self.expected is not None:
                parts.append(f"expected {self.expected}")
            if self.found is not None:
                parts.append(f"found {self.found}")
            text = f"{text} ({', '.join(parts)})"
        prefix = "warning: " if self.severity is Severity.WARNING else ""
        field = self.field or "(file)"
        return f"{self.location}: {field}: {prefix}{text}".replace("\n", " ")

    def __str__(self) -> str:
        return self.format()


class ConfigError(Exception):
    """A configuration directory that cannot be used. ``problems`` lists every error found."""

    def __init__(
        self, problems: Iterable[Problem], directory: str = "", warnings: Iterable[Problem] = ()
    ) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        self.warnings: tuple[Problem, ...] = tuple(warnings)
        self.directory = directory
        where = f" in {printable(directory, FILE_LIMIT)}" if directory else ""
        count = len(self.problems)
        header = f"{count} configuration problem{'s' if count != 1 else ''}{where}:"
        super().__init__("\n".join([header, *(f"  {p.format()}" for p in self.problems)]))

    def __reduce__(
        self,
    ) -> tuple[type[ConfigError], tuple[tuple[Problem, ...], str, tuple[Problem, ...]]]:
        return (ConfigError, (self.problems, self.directory, self.warnings))
