"""The two kinds of path the editing tools take: a file inside the configuration directory
(``modules/frontleft.json``; nothing outside it) and a field inside a JSON file
(``inverted.drive``, ``modules[2]``); and the module files ``swervedrive.json`` lists."""

from __future__ import annotations

import os
import re
from pathlib import PurePosixPath
from typing import Any, Final

from swervelib.config.jsonpos import PathKey
from swervelib.text import printable, printable_repr
from swervelib.tools.edit_result import EditError

DRIVE_FILE: Final = "swervedrive.json"
MODULES_DIR: Final = "modules"


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


def module_file_paths(names: Any) -> list[str]:
    """``modules/<name>.json`` for each entry of swervedrive.json's ``modules`` (given as read),
    in order; :class:`EditError` when it is not a non-empty array of module file names."""
    if not isinstance(names, list) or not names:
        raise EditError(f"{DRIVE_FILE}: `modules` must be a non-empty array of file names")
    result = []
    for name in names:
        if not isinstance(name, str) or not name.strip() or "/" in name or "\\" in name:
            raise EditError(
                f"{DRIVE_FILE}: `modules` entry {printable_repr(name)} is not a module file name"
            )
        stem = name[:-5] if name.endswith(".json") else name
        if stem.startswith(".") or ":" in stem:
            raise EditError(
                f"{DRIVE_FILE}: `modules` entry {printable_repr(name)} is not a module file name"
            )
        result.append(f"{MODULES_DIR}/{stem}.json")
    return result
