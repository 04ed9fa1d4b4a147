"""Text from outside (JSON files, NetworkTables, file names) made safe to print on one line.

A configuration file or a NetworkTables value can hold anything: ANSI escape sequences that
recolour or clear a terminal, bidirectional-override characters that make a line read differently
from what it holds, lone surrogates that cannot be encoded at all (``print`` raises
``UnicodeEncodeError``), or a megabyte of text. :func:`printable` shows such characters as escapes
(``\\x1b``, ``\\u202e``, ``\\udc80``) and cuts long text, so a message always prints and always
says what is really there. Pure Python.
"""

from __future__ import annotations

import os
import unicodedata
from typing import TextIO

DEFAULT_LIMIT = 200
PATH_LIMIT = 300
NUMBER_LIMIT = 40
# Control (Cc), format (Cf: bidi overrides, zero-width characters), surrogate (Cs), private use
# (Co), unassigned (Cn), and line/paragraph separators (Zl, Zp): shown as escapes.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _safe(char: str) -> bool:
    if " " <= char <= "~":  # printable ASCII, the usual case
        return True
    return unicodedata.category(char) not in _UNSAFE_CATEGORIES


def is_printable(text: str) -> bool:
    """True when :func:`printable` would show ``text`` as it is (no character needs escaping)."""
    return all(" " <= char <= "~" for char in text) or all(_safe(char) for char in text)


def printable(text: str, limit: int | None = DEFAULT_LIMIT) -> str:
    """``text`` with unsafe characters escaped and, past ``limit`` characters, cut with a note of
    how much was left out. The result is always encodable as UTF-8 and holds no line break."""
    cut = 0
    if limit is not None and len(text) > limit:
        cut = len(text) - limit
        text = text[:limit]
    if not all(" " <= char <= "~" for char in text):
        text = "".join(char if _safe(char) else _escape(char) for char in text)
    if cut:
        text += f"… ({cut} more characters)"
    return text


def printable_repr(value: object, limit: int | None = DEFAULT_LIMIT) -> str:
    """:func:`printable` of ``repr(value)`` (``repr`` of a huge integer is refused by Python past
    4300 digits, or past as few as 640 if a program lowered the limit, so integers of more than
    about 600 digits are described instead)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 2_000:
        return f"<integer of about {int(value.bit_length() * 0.30103)} digits>"
    return printable(repr(value), limit)


def shown_path(path: str | os.PathLike[str]) -> str:
    """A file or directory name for a message (printable, at most :data:`PATH_LIMIT` characters)."""
    return printable(os.fspath(path), PATH_LIMIT)


def shown_number(value: object) -> str:
    """A value read from outside, for an Alert or a message (at most :data:`NUMBER_LIMIT`
    characters: ``nan``, ``1e+308``, a 5000-digit integer described)."""
    return printable_repr(value, NUMBER_LIMIT)


def for_stream(text: str, stream: TextIO) -> str:
    """``text`` as ``stream`` can write it: characters its encoding lacks (``ü`` on an ASCII or
    ``✓`` on a cp1252 console) become backslash escapes instead of a ``UnicodeEncodeError``."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return text.encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:  # an encoding Python does not know: plain ASCII is always safe
        return text.encode("ascii", "backslashreplace").decode("ascii")
    return text
