"""A strict JSON reader that remembers where every value is.

The standard library's ``json`` gives no positions for values and silently keeps the last of two
duplicated keys. Configuration errors should point at a line and column, and a duplicated key in a
calibration file is a mistake worth reporting, so this reader records the position of every member
and every duplicate. It also records every value's span in the text (:class:`Node`), which the
editing tools splice to change one value while keeping every other byte of a file. It accepts exactly JSON, plus the literals ``NaN``, ``Infinity`` and
``-Infinity`` (which the validator then rejects by field, with a clearer message than a syntax error).

Integer literals of more than :data:`MAX_INTEGER_DIGITS` digits are not converted (Python refuses
past 4300 digits, and takes seconds on a million if a program lifted that limit): they become a
:class:`LongInteger`, which the validator reports by field like any number too large.
"""

from __future__ import annotations

import bisect
import json
import json.decoder
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_scanstring: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]

PathKey = tuple[str | int, ...]

MAX_DEPTH = 64
MAX_INTEGER_DIGITS = 400  # beyond any float (309 digits) and below Python's smallest limit (640)

_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_WS = " \t\n\r"
_CONSTANTS: dict[str, Any] = {
    "true": True,
    "false": False,
    "null": None,
    "NaN": float("nan"),
    "Infinity": float("inf"),
    "-Infinity": float("-inf"),
}


class JSONSyntaxError(ValueError):
    """Text that is not JSON; ``line`` and ``column`` are 1-based."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{message} at line {line} column {column}")
        self.message = message
        self.line = line
        self.column = column


class LongInteger(int):
    """An integer literal of more than :data:`MAX_INTEGER_DIGITS` digits, standing in as
    ±10**MAX_INTEGER_DIGITS; ``digits`` is how many it really had."""

    digits: int

    def __new__(cls, negative: bool, digits: int) -> LongInteger:
        value = 10**MAX_INTEGER_DIGITS
        number = super().__new__(cls, -value if negative else value)
        number.digits = digits
        return number


@dataclass(frozen=True, slots=True)
class Duplicate:
    """A key that appears twice in one object."""

    path: PathKey
    line: int
    column: int
    first_line: int


@dataclass(slots=True)
class Node:
    """Where one JSON value is in the text: ``text[start:end]``, with its members (an object) or
    items (an array) in order."""

    start: int
    end: int
    kind: str  # "object", "array" or "scalar"
    members: list[Member] = field(default_factory=list)
    items: list[Node] = field(default_factory=list)

    def member(self, key: str) -> Member | None:
        """The member called ``key`` (the last one, as ``json.loads`` keeps, if it is repeated)."""
        found = None
        for member in self.members:
            if member.key == key:
                found = member
        return found

    def index(self, key: str) -> int | None:
        """The position of the first member called ``key``, or None."""
        for i, member in enumerate(self.members):
            if member.key == key:
                return i
        return None

    def find(self, path: PathKey) -> Node | None:
        """The value at ``path`` below this one, or None."""
        node: Node | None = self
        for part in path:
            if node is None:
                return None
            if isinstance(part, int):
                node = node.items[part] if node.kind == "array" and part < len(node.items) else None
            else:
                member = node.member(part) if node.kind == "object" else None
                node = member.node if member is not None else None
        return node


@dataclass(slots=True)
class Member:
    """An object member: its key, the key's span (quotes included) and its value's node."""

    key: str
    key_start: int
    key_end: int
    node: Node


@dataclass(slots=True)
class Document:
    """A parsed JSON document with the position of every member and every value's span."""

    value: Any
    positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    duplicates: list[Duplicate] = field(default_factory=list)
    root: Node = field(default_factory=lambda: Node(0, 0, "scalar"))
    # Where text follows the JSON value, when parsed with ``trailing=True`` (Jackson, and so
    # YAGSL, reads the first value of a file and ignores the rest).
    trailing: tuple[int, int] | None = None

    def position(self, path: PathKey) -> tuple[int | None, int | None]:
        """The (line, column) of ``path``, or of its nearest ancestor that has one."""
        while True:
            found = self.positions.get(path)
            if found is not None:
                return found
            if not path:
                return (None, None)
            path = path[:-1]


class _Parser:
    def __init__(self, text: str, trailing: bool = False) -> None:
        self.text = text
        self.allow_trailing = trailing
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.doc = Document(None)

    def where(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, index)
        return line, index - self.line_starts[line - 1] + 1

    def fail(self, message: str, index: int) -> JSONSyntaxError:
        line, column = self.where(index)
        return JSONSyntaxError(message, line, column)

    def skip(self, index: int) -> int:
        text = self.text
        while index < len(text) and text[index] in _WS:
            index += 1
        return index

    def parse(self) -> Document:
        index = self.skip(0)
        if index >= len(self.text):
            raise self.fail("empty file, expected a JSON object", index)
        self.doc.positions[()] = self.where(index)
        self.doc.value, self.doc.root = self.value(index, (), 0)
        index = self.skip(self.doc.root.end)
        if index != len(self.text):
            if not self.allow_trailing:
                raise self.fail("extra data after the JSON value", index)
            self.doc.trailing = self.where(index)
        return self.doc

    def value(self, index: int, path: PathKey, depth: int) -> tuple[Any, Node]:
        if depth > MAX_DEPTH:
            raise self.fail(f"nesting deeper than {MAX_DEPTH} levels", index)
        text = self.text
        if index >= len(text):
            raise self.fail("unexpected end of file, expected a value", index)
        char = text[index]
        if char == "{":
            return self.object(index, path, depth)
        if char == "[":
            return self.array(index, path, depth)
        if char == '"':
            string, end = self.string(index)
            return string, Node(index, end, "scalar")
        for literal, constant in _CONSTANTS.items():
            if text.startswith(literal, index):
                return constant, Node(index, index + len(literal), "scalar")
        match = _NUMBER.match(text, index)
        if match is None:
            snippet = text[index : index + 12].split("\n")[0]
            raise self.fail(f"expected a value, found `{snippet}`", index)
        node = Node(index, match.end(), "scalar")
        integer, fraction, exponent = match.groups()
        if fraction or exponent:
            return float(match.group()), node  # any length: 1e999 is inf, 1e-999 is 0
        negative = integer.startswith("-")
        digits = len(integer) - negative
        if digits > MAX_INTEGER_DIGITS:
            return LongInteger(negative, digits), node
        return int(integer), node

    def string(self, index: int) -> tuple[str, int]:
        try:
            return _scanstring(self.text, index + 1, True)
        except json.JSONDecodeError as error:
            raise self.fail(error.msg, error.pos) from None

    def object(self, start: int, path: PathKey, depth: int) -> tuple[dict[str, Any], Node]:
        text = self.text
        result: dict[str, Any] = {}
        node = Node(start, start, "object")
        first_seen: dict[str, int] = {}
        index = self.skip(start + 1)
        if index < len(text) and text[index] == "}":
            node.end = index + 1
            return result, node
        while True:
            if index >= len(text) or text[index] != '"':
                raise self.fail("expected a key in double quotes", index)
            key_index = index
            key, key_end = self.string(index)
            index = self.skip(key_end)
            if index >= len(text) or text[index] != ":":
                raise self.fail("expected `:` after the key", index)
            index = self.skip(index + 1)
            child = (*path, key)
            line, column = self.where(key_index)
            value, child_node = self.value(index, child, depth + 1)
            node.members.append(Member(key, key_index, key_end, child_node))
            if key in first_seen:
                self.doc.duplicates.append(Duplicate(child, line, column, first_seen[key]))
            else:
                first_seen[key] = line
                self.doc.positions[child] = (line, column)
            result[key] = value
            index = self.skip(child_node.end)
            if index < len(text) and text[index] == ",":
                index = self.skip(index + 1)
                continue
            if index < len(text) and text[index] == "}":
                node.end = index + 1
                return result, node
            raise self.fail("expected `,` or `}`", index)

    def array(self, start: int, path: PathKey, depth: int) -> tuple[list[Any], Node]:
        text = self.text
        result: list[Any] = []
        node = Node(start, start, "array")
        index = self.skip(start + 1)
        if index < len(text) and text[index] == "]":
            node.end = index + 1
            return result, node
        while True:
            child = (*path, len(result))
            self.doc.positions[child] = self.where(index)
            value, child_node = self.value(index, child, depth + 1)
            node.items.append(child_node)
            result.append(value)
            index = self.skip(child_node.end)
            if index < len(text) and text[index] == ",":
                index = self.skip(index + 1)
                continue
            if index < len(text) and text[index] == "]":
                node.end = index + 1
                return result, node
            raise self.fail("expected `,` or `]`", index)


def parse(text: str, *, trailing: bool = False) -> Document:
    """Parse JSON text, recording positions. Raises :class:`JSONSyntaxError`.

    With ``trailing``, text after the first JSON value is not an error: it is left unread and its
    position kept in :attr:`Document.trailing`, as Jackson (YAGSL's parser) does.
    """
    return _Parser(text, trailing).parse()


def format_path(path: PathKey) -> str:
    """``("inverted", "drive")`` → ``inverted.drive``; ``("modules", 2)`` → ``modules[2]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out
