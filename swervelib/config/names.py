"""Names from the files that end up somewhere else: module file names and CAN bus names.

A module's name becomes a file name, a telemetry key and part of every message about the module;
a ``canbus`` string goes to phoenix6, which encodes it as a C string (a lone surrogate raises
``UnicodeEncodeError`` inside phoenix6, a NUL silently cuts the name). Characters that
:func:`swervelib.text.printable` would escape (control, bidi and other format characters, lone
surrogates, private-use and unassigned code points, line separators) are therefore refused in
both. Pure Python.
"""

from __future__ import annotations

import os
import unicodedata

from swervelib.config.bounds import MAX_CANBUS_NAME
from swervelib.config.fields import ObjectView, describe
from swervelib.text import is_printable

MAX_MODULE_NAME = 100
RESERVED_MODULE_FILES = ("physicalproperties.json", "pidfproperties.json")
RIO_BUS_NAMES = ("", "rio")


def first_unprintable(text: str) -> str | None:
    """Describes the first character of ``text`` that cannot be shown as it is, or None."""
    if is_printable(text):
        return None
    for index, char in enumerate(text):
        if not is_printable(char):
            code = ord(char)
            name = unicodedata.name(char, "") or unicodedata.category(char)
            if 0xD800 <= code <= 0xDFFF:
                name = "a lone surrogate"
            return f"U+{code:04X} ({name}) at character {index + 1}"
    return None  # pragma: no cover - is_printable said otherwise


def module_name_problem(entry: str) -> str | None:
    """Why ``entry`` cannot name a module file inside ``modules/`` (None when it can)."""
    stem = entry[:-5] if entry.endswith(".json") else entry
    if not stem.strip():
        return "empty module name"
    if "\x00" in entry or any(ch in entry for ch in "/\\") or os.path.isabs(entry) or ":" in entry:
        return "module names must be plain file names inside modules/ (no paths)"
    if len(entry) > MAX_MODULE_NAME:
        return f"module names are at most {MAX_MODULE_NAME} characters"
    bad = first_unprintable(entry)
    if bad is not None:
        return f"module names must be printable text: {bad}"
    if stem in (".", "..") or stem.startswith("."):
        return "module names must not start with a dot"
    if f"{stem}.json" in RESERVED_MODULE_FILES:
        return f"`{entry}` is a properties file, not a module"
    if stem.lower().endswith(".json"):  # frontleft.JSON: read as modules/frontleft.JSON.json
        return (
            "module files end in `.json`, in lower case (the robot's file system tells cases "
            "apart): rename the file and this entry"
        )
    return None


def canbus_problem(name: str) -> str | None:
    """Why phoenix6 cannot be given ``name`` as a CAN bus name (None when it can)."""
    if len(name) > MAX_CANBUS_NAME:
        return f"a CAN bus name is at most {MAX_CANBUS_NAME} characters"
    bad = first_unprintable(name)
    if bad is not None:
        return f"a CAN bus name must be printable text: {bad}"
    return None


def canbus_warning(name: str) -> str | None:
    """Something odd about a usable CAN bus name (None when there is nothing to say)."""
    if name != name.strip():
        return "spaces around the CAN bus name: phoenix6 looks the name up exactly as written"
    return None


def read_canbus(view: ObjectView) -> str | None:
    """The ``canbus`` of a device object: None for the roboRIO's own bus (null, ``""``, ``"rio"``)
    and for a name phoenix6 cannot take (an error); a warning for an odd but usable one."""
    canbus = view.string("canbus", None)
    if canbus is None or not view.ok("canbus") or canbus.strip().lower() in RIO_BUS_NAMES:
        return None
    problem = canbus_problem(canbus)
    if problem is not None:
        view.error(
            "canbus",
            problem,
            expected="a CANivore name, `*`, `rio` or null",
            found=describe(canbus),
        )
        return None
    oddity = canbus_warning(canbus)
    if oddity is not None:
        view.warn("canbus", oddity, expected=describe(canbus.strip()), found=describe(canbus))
    return canbus
