"""The two kinds of path the editing tools take: a file inside the configuration directory
(``modules/frontleft.json``; nothing outside it) and a field inside a JSON file
(``inverted.drive``, ``modules[2]``)."""

from __future__ import annotations

import os
import re
from pathlib import PurePosixPath

from swervelib.config.jsonpos import PathKey
from swervelib.text import printable
from swervelib.tools.edit_result import EditError


def relative_file(file: str | os.PathLike[str]) -> str:
    """Normalise a path relative to the configuration directory; refuse anything outside it."""
    text = os.fspath(file).replace("\\", "/")
    pure = PurePosixPath(text)
    if not text or pure.is_absolute() or ":" in text or ".." in pure.parts or not pure.parts:
        raise EditError(
            f"`{printable(text, 200)}` is not a file path inside the configuration directory"
        )
    return pure.as_posix()


def parse_field_path(path: str) -> PathKey:
    """``"inverted.drive"`` → ``("inverted", "drive")``; ``"modules[2]"`` → ``("modules", 2)``."""
    parts: list[str | int] = []
    i = 0
    expect_key = True
    while i < len(path):
        char = path[i]
        if char == "[":
            end = path.find("]", i)
            if end < 0 or not path[i + 1 : end].isdigit():
                raise EditError(f"bad field path `{path}`")
            parts.append(int(path[i + 1 : end]))
            i = end + 1
            expect_key = False
        elif char == ".":
            if expect_key:
                raise EditError(f"bad field path `{path}`")
            i += 1
            expect_key = True
        else:
            if not expect_key:
                raise EditError(f"bad field path `{path}`")
            match = re.compile(r"[^.\[\]]+").match(path, i)
            assert match is not None
            parts.append(match.group())
            i = match.end()
            expect_key = False
    if path and expect_key:
        raise EditError(f"bad field path `{path}`")
    return tuple(parts)
