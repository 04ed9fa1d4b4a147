"""What an edit of a configuration directory changed, and how that is told to a person.

:class:`EditError` is the one exception the editing tools raise; :data:`MISSING` stands for "no
such key"; :class:`FileChange` is one changed value and :class:`EditResult` a whole commit, which
:func:`format_result` prints. Nothing here touches a file.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from swervelib.config.jsonpos import PathKey, format_path
from swervelib.text import printable


class EditError(Exception):
    """A clear, user-facing reason why an edit was refused or failed. Nothing was written unless
    the message says otherwise."""


class _Missing(enum.Enum):
    MISSING = "absent"

    def __repr__(self) -> str:
        return "absent"

    def __str__(self) -> str:
        return "absent"

    def __bool__(self) -> bool:
        return False


MISSING: Final = _Missing.MISSING
"""Stands for "no such key" (in :attr:`FileChange.old` / ``new`` and as ``get``'s default)."""


@dataclass(frozen=True)
class FileChange:
    """One changed value. ``file`` is relative to the directory, ``field`` a dotted path."""

    file: str
    field: str
    old: Any
    new: Any


@dataclass(frozen=True)
class EditResult:
    """What a commit did (or, for a dry run, would do)."""

    changes: tuple[FileChange, ...]
    diff: str
    backup: Path | None
    summary: str
    written: bool
    notes: tuple[str, ...] = ()  # recoveries, broken stale locks: worth telling the person


def _printable_line(line: str) -> str:
    """One line of a diff with every unsafe character escaped (tabs kept: files indent with them)."""
    return "\t".join(printable(part, None) for part in line.split("\t"))


def format_result(result: EditResult, *, show_diff: bool) -> str:
    """The text a command prints: the diff (when asked) then the one-line summary, with every
    character from the files made safe to print (:func:`swervelib.text.printable`)."""
    parts: list[str] = []
    if show_diff and result.diff:
        parts.extend(_printable_line(line) for line in result.diff.rstrip("\n").split("\n"))
    parts.append(printable(result.summary, None))
    return "\n".join(parts)


def same_value(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``true`` is not ``1``, ``1`` is ``1.0``, NaN is NaN."""
    if isinstance(a, _Missing) or isinstance(b, _Missing):
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def collect_changes(file: str, old: Any, new: Any, path: PathKey, out: list[FileChange]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        keys = list(old) + [k for k in new if k not in old]
        for key in keys:
            collect_changes(file, old.get(key, MISSING), new.get(key, MISSING), (*path, key), out)
        return
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            collect_changes(file, a, b, (*path, index), out)
        return
    if not same_value(old, new):
        out.append(FileChange(file, format_path(path), old, new))
