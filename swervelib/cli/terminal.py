"""Prose that fits the terminal: its width, and text wrapped without breaking a word.

:func:`width` is the terminal's width in columns (``COLUMNS`` when set, else the terminal's own,
else 80 when the output is not a terminal). :func:`fill` wraps text to it: each line of the text is
wrapped on its own, keeping its leading spaces, continuation lines indented under the first (under
the text after a list marker such as ``1.``), never splitting a word or a hyphenated name, so a line
is only longer than the width when one word alone is (a long path).
"""

from __future__ import annotations

import re
import shutil
import textwrap

DEFAULT_WIDTH = 80
MIN_WIDTH = 20  # narrower than this, wrapping would put one word on every line
_MARKER = re.compile(r"(\s*)((?:\d+\.|[-*])\s+)?")


def width() -> int:
    """The terminal's width in columns (80 when it cannot be told), at least :data:`MIN_WIDTH`."""
    return max(MIN_WIDTH, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)


def fill(text: str, columns: int, *, indent: str = "", hang: str = "  ") -> str:
    """``text`` wrapped to ``columns``, line by line, each line prefixed with ``indent``.

    A line's continuation lines get ``hang`` more than its own indentation, or line up with the
    text after its list marker (``1.``, ``-``). Empty lines stay empty."""
    lines: list[str] = []
    for line in text.split("\n"):
        if not line.strip():
            lines.append("")
            continue
        match = _MARKER.match(line)
        assert match is not None  # the pattern matches the empty prefix
        lead = indent + match.group(1)
        marker = match.group(2)
        wrapper = textwrap.TextWrapper(
            width=columns,
            initial_indent=lead,
            subsequent_indent=lead + (" " * len(marker) if marker else hang),
            break_long_words=False,
            break_on_hyphens=False,
        )
        lines.extend(wrapper.wrap(line[len(match.group(1)) :]))
    return "\n".join(lines)


def cut(line: str, columns: int) -> str:
    """``line`` cut to fit in ``columns`` (with ``…`` where it was cut)."""
    if len(line) <= columns:
        return line
    return line[: max(0, columns - 1)] + "…"
