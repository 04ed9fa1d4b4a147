"""Writing JSON text the way a file already writes it.

Tools change one value of a hand-written file: the new text must follow the file's own line ends,
indentation, colon spacing and one-line or multi-line layout (:class:`Style`, judged from the file),
and a value moved between files must come back byte for byte when moved again (:func:`transplant`).
A number read from a file and written elsewhere keeps its text (:func:`with_written_numbers`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from swervelib.config.jsonpos import JSONSyntaxError, LongInteger, Member, Node, parse
from swervelib.tools.edit_result import EditError


def line_indent(text: str, position: int) -> str:
    """The leading whitespace of the line holding ``position``."""
    start = text.rfind("\n", 0, position) + 1
    end = start
    while end < position and text[end] in " \t":
        end += 1
    return text[start:end]


@dataclass(frozen=True, slots=True)
class Style:
    """How one file writes JSON, to write new values the same way."""

    newline: str  # "\n" or "\r\n"
    unit: str  # one level of indentation: the root object's members
    nested: str  # one level of indentation inside them (some files nest 4 spaces, then 2)
    colon: str  # between a key and its value, e.g. ": "
    inline_gap: str  # after a comma inside a one-line object or array
    multi_line: bool  # members on lines of their own (else a one-line, compact file)

    def inner(self, indent: str) -> str:
        """The indentation of the members of a value whose line is indented ``indent``."""
        return indent + (self.nested if indent else self.unit)


def style_of(text: str, root: Node, skip: Collection[str] = ()) -> Style:
    """The file's style, judged from the root object's first member whose key is not in ``skip``
    (else its first member). Edits of values do not change that member, and a tool that moves
    members between files skips their keys, so the judgement is the same before and after: the
    line ends too are judged from the text outside the skipped members (a value moved as it is
    written may bring the other file's)."""
    newline = "\r\n" if "\r\n" in _outside(text, root, skip) else "\n"
    unit = nested = "  "
    colon = ": "
    inline_gap = " "
    multi_line = "\n" in text[root.start : root.end]
    if root.kind == "object" and root.members:
        members = root.members
        index = next((i for i, m in enumerate(members) if m.key not in skip), 0)
        first = members[index]
        colon = text[first.key_end : first.node.start] or ":"
        multi_line = (
            "\n" in text[members[index - 1].node.end if index else root.start : first.key_start]
        )
        if multi_line:
            unit = line_indent(text, first.key_start) or "  "
            kept = [m for m in members if m.key not in skip]
            nested = _nested_unit(text, kept + members) or unit
        elif len(members) == 1:  # nothing to copy: compact if the colon is
            inline_gap = " " if colon.endswith(" ") else ""
        else:
            if index + 1 < len(members):
                between = text[first.node.end : members[index + 1].key_start]
            else:
                between = text[members[index - 1].node.end : first.key_start]
            inline_gap = between[between.index(",") + 1 :]
    return Style(newline, unit, nested, colon, inline_gap, multi_line)


def _outside(text: str, root: Node, skip: Collection[str]) -> str:
    """``text`` without the root object's members whose keys are in ``skip``."""
    if not skip or root.kind != "object":
        return text
    kept: list[str] = []
    start = 0
    for member in root.members:
        if member.key in skip:
            kept.append(text[start : member.key_start])
            start = member.node.end
    return "".join(kept) + text[start:]


def _nested_unit(text: str, members: list[Member]) -> str | None:
    """How much deeper than its own line the first of these members' values laid out on several
    lines indents its members (None: no such value)."""
    for member in members:
        node = member.node
        starts = [m.key_start for m in node.members] + [item.start for item in node.items]
        if starts and "\n" in text[node.start : starts[0]]:
            base, inner = line_indent(text, node.start), line_indent(text, starts[0])
            if inner.startswith(base) and len(inner) > len(base):
                return inner[len(base) :]
    return None


class WrittenFloat(float):
    """A number read from a file together with its text as written there (``16.80``, ``0.5e1``,
    more digits than a float keeps), which :func:`dump` writes back unchanged. Arithmetic on it
    gives a plain float, so only a value passed on as it was read keeps its text."""

    text: str

    def __new__(cls, value: float, text: str) -> WrittenFloat:
        number = super().__new__(cls, value)
        number.text = text
        return number

    def __reduce__(self) -> tuple[Any, ...]:
        return (WrittenFloat, (float(self), self.text))


class WrittenInt(int):
    """An integer read from a file with its text (:class:`WrittenFloat` for integers)."""

    text: str

    def __new__(cls, value: int, text: str) -> WrittenInt:
        number = super().__new__(cls, value)
        number.text = text
        return number

    def __reduce__(self) -> tuple[Any, ...]:
        return (WrittenInt, (int(self), self.text))


def with_written_numbers(text: str, node: Node, value: Any) -> Any:
    """``value`` (parsed from ``text``, ``node`` its span) with every finite number a
    :class:`WrittenFloat` or :class:`WrittenInt` that keeps its text: a tool that writes a value
    it read, in a new place, writes it as the file did."""
    if isinstance(value, dict) and node.kind == "object":
        result = {}
        for key, item in value.items():
            member = node.member(key)
            result[key] = item if member is None else with_written_numbers(text, member.node, item)
        return result
    if isinstance(value, list) and node.kind == "array":
        return [with_written_numbers(text, n, v) for n, v in zip(node.items, value, strict=True)]
    if isinstance(value, bool | LongInteger):
        return value
    written = text[node.start : node.end]
    if isinstance(value, int):
        return WrittenInt(value, written)
    if isinstance(value, float) and math.isfinite(value):
        return WrittenFloat(value, written)
    return value


def dump(value: Any, style: Style, multi_line: bool, indent: str) -> str:
    """``value`` as JSON text in the file's style; ``indent`` is the indentation of its line."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, WrittenFloat | WrittenInt):
        return value.text
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise EditError(f"cannot write {value!r}: JSON numbers must be finite")
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict | list | tuple):
        is_dict = isinstance(value, dict)
        opening, closing = ("{", "}") if is_dict else ("[", "]")
        if not value:
            return opening + closing
        inner = style.inner(indent)
        entries: list[str] = []
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise EditError(f"cannot write the object key {key!r}: keys must be strings")
                entries.append(
                    json.dumps(key, ensure_ascii=False)
                    + style.colon
                    + dump(item, style, multi_line, inner)
                )
        else:
            entries = [dump(item, style, multi_line, inner) for item in value]
        if multi_line:
            joint = "," + style.newline + inner
            return (
                opening
                + style.newline
                + inner
                + joint.join(entries)
                + style.newline
                + indent
                + closing
            )
        return opening + ("," + style.inline_gap).join(entries) + closing
    raise EditError(f"cannot write a {type(value).__name__} value as JSON")


class IrreversibleMove(EditError):
    """A value :func:`transplant` cannot move so that moving it back restores its exact text."""


def transplant(value: str, source: Style, source_indent: str, target: Style, indent: str) -> str:
    """A value's text moved from one file (or place) to another, in the target's style when that
    can be undone exactly, else as it is. Either way, moving it back gives the exact text: a value
    that no rule could move so (which only a value already laid out in the target's style, but
    not in its own file's, could be) is refused with :class:`IrreversibleMove`.

    Between a multi-line and a one-line file, a value written exactly as this module would write it
    in the source style is rewritten in the target style. Otherwise a multi-line value laid out in
    the source's style is re-indented: each line after the first must be ``source_indent`` plus one
    indentation unit per bracket open at the line's start (one fewer on a line that starts by
    closing one), and becomes ``indent`` plus as many of the target's units, with the target's
    line ends. A value laid out otherwise (say 2-space nesting in a 4-space file) is moved as it is
    written: it is not laid out in the target's style either, so moving it back keeps it too.
    """
    moved = _transplant(value, source, source_indent, target, indent)
    if _transplant(moved, target, indent, source, source_indent) != value:
        raise IrreversibleMove(
            "moving it back would not restore it: its indentation or line ends follow the other "
            "file's style rather than its own file's (re-indent it like the rest of its file)"
        )
    return moved


def _transplant(value: str, source: Style, source_indent: str, target: Style, indent: str) -> str:
    if source.multi_line != target.multi_line:
        try:
            parsed = parse(value).value
            if value == dump(parsed, source, source.multi_line, source_indent):
                return dump(parsed, target, target.multi_line, indent)
        except (JSONSyntaxError, EditError):
            pass
    if "\n" not in value or not source.unit:
        return value
    lines = value.split("\n")
    crlf = [line.endswith("\r") for line in lines[:-1]]
    if any(crlf) != all(crlf) or all(crlf) != (source.newline == "\r\n"):
        return value  # mixed line ends, or not the file's own: kept as they are
    if all(crlf):
        lines = [line[:-1] for line in lines[:-1]] + [lines[-1]]
    out = [lines[0]]
    for line, depth in zip(lines[1:], _depths(lines), strict=True):
        prefix = source_indent + source.unit * depth
        rest = line[len(prefix) :]
        if not line.startswith(prefix) or rest[:1] in ("", " ", "\t"):
            return value
        out.append(indent + target.unit * depth + rest)
    return target.newline.join(out)


def _depths(lines: list[str]) -> list[int]:
    """For each line after the first of a JSON value's text: how many of its brackets are open at
    the line's start, less one if the line starts by closing one (its level in a pretty-printed
    layout). Lines never start inside a string: JSON strings hold no raw line breaks."""
    depths: list[int] = []
    depth = 0
    for number, line in enumerate(lines):
        if number:
            closes = line.lstrip(" \t")[:1] in ("}", "]")
            depths.append(max(depth - closes, 0))
        in_string = escaped = False
        for char in line:
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char in "{[":
                depth += 1
            elif char in "}]":
                depth -= 1
    return depths


def trailing_comma_hint(text: str, line: int, column: int) -> str | None:
    """For a JSON syntax error at ``line``:``column`` (1-based, as the parser reports them): a hint
    when the error is a ``}`` or ``]`` just after a comma (JSON allows no trailing comma), naming
    where the comma is; None otherwise."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines) or not 1 <= column <= len(lines[line - 1]):
        return None
    closing = lines[line - 1][column - 1]
    if closing not in "}]":
        return None
    before = text[: sum(len(row) + 1 for row in lines[: line - 1]) + column - 1].rstrip()
    if not before.endswith(","):
        return None
    comma_line = before.count("\n") + 1
    comma_column = len(before) - (before.rfind("\n") + 1)
    return (
        f"trailing comma before `{closing}`? JSON allows none: remove the comma at line "
        f"{comma_line}, column {comma_column}"
    )
