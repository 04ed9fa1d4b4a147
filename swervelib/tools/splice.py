"""Changing JSON text in place: every byte that is not changed stays exactly as it was.

Each function takes a document's text and returns the new text. Values are found through the spans
:func:`swervelib.config.jsonpos.parse` records, and new text is written in the file's own style
(:mod:`.json_style`), so key order, tabs, CRLF line ends, compact one-line files and unknown keys
survive an edit. Nothing here touches a file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from swervelib.config.jsonpos import Node, PathKey, format_path, parse
from swervelib.tools.edit_result import EditError, same_value
from swervelib.tools.json_style import (
    IrreversibleMove,
    Style,
    dump,
    line_indent,
    style_of,
    transplant,
)

MemberText = Callable[[str | None], str]
"""A member's text (``"key": value``) given its line's indentation (None: on the object's line)."""


def _splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def set_value(text: str, parts: PathKey, value: Any) -> str:
    """``text`` with ``value`` at ``parts``. A missing key is appended at the end of its object
    (missing parent objects are created); an existing object given a dict is merged key by key, and
    an array given as many items item by item, so untouched members keep their text."""
    root = parse(text).root
    node = root.find(parts)
    style = style_of(text, root)
    if node is not None:
        if node.kind == "object" and isinstance(value, dict):
            for member in list(node.members):
                if member.key not in value:
                    text = delete_value(text, (*parts, member.key))
            for key, item in value.items():
                text = set_value(text, (*parts, key), item)
            return text
        if (
            node.kind == "array"
            and isinstance(value, list | tuple)
            and len(node.items) == len(value)
        ):
            for index, item in enumerate(value):
                text = set_value(text, (*parts, index), item)
            return text
        old_text = text[node.start : node.end]
        if node.kind == "scalar" and same_value(parse(old_text).value, value):
            return text
        if node.kind == "scalar":
            parent = root.find(parts[:-1]) if parts else None
            multi = parent is not None and "\n" in text[parent.start : parent.end]
        else:
            multi = "\n" in old_text
        indent = line_indent(text, node.start)
        return _splice(text, node.start, node.end, dump(value, style, multi, indent))
    if not parts:
        raise EditError("cannot replace a whole file with set(); use replace_file()")
    parent = root.find(parts[:-1])
    key = parts[-1]
    if parent is None:
        if not isinstance(key, str):
            raise EditError(f"cannot create `{format_path(parts)}`: no such array")
        return set_value(text, parts[:-1], {key: value})
    if parent.kind != "object" or not isinstance(key, str):
        raise EditError(f"cannot create `{format_path(parts)}`: its parent is not an object")
    return insert_member(
        text,
        parent,
        len(parent.members) - 1,
        lambda indent: (
            json.dumps(key, ensure_ascii=False)
            + style.colon
            + dump(value, style, indent is not None, indent or "")
        ),
        root,
    )


def insert_member(
    text: str, obj: Node, after: int | None, member: MemberText, root: Node, gap: str | None = None
) -> str:
    """``text`` with a member inserted into ``obj`` after ``obj.members[after]`` (None: first).
    The separator is copied from the object's own members; ``gap`` (when given) is what follows
    the comma when there is none to copy (a one-line object with a single member), else the space
    after the object's opening brace is."""
    members = obj.members
    if not members:
        inside = text[obj.start : obj.end]
        if "\n" in inside or (obj is root and "\n" in text):
            style = style_of(text, root)
            base = line_indent(text, obj.start)
            inner = style.inner(base)
            new = "{" + style.newline + inner + member(inner) + style.newline + base + "}"
        else:
            new = "{" + member(None) + "}"
        return _splice(text, obj.start, obj.end, new)
    if after is None:
        first = members[0]
        ws = text[obj.start + 1 : first.key_start]
        indent = ws[ws.rfind("\n") + 1 :] if "\n" in ws else None
        separator = "," + ws
        if indent is None and len(members) > 1:  # on one line: as the members are separated
            separator = text[first.node.end : members[1].key_start]
        elif indent is None and gap is not None:
            separator = "," + gap
        return _splice(text, first.key_start, first.key_start, member(indent) + separator)
    current = members[after]
    if after + 1 < len(members):
        separator = text[current.node.end : members[after + 1].key_start]
    elif after > 0:
        separator = text[members[after - 1].node.end : current.key_start]
    else:
        separator = "," + text[obj.start + 1 : current.key_start]
        if "\n" not in separator and gap is not None:
            separator = "," + gap
    ws = separator[separator.index(",") + 1 :]
    indent = ws[ws.rfind("\n") + 1 :] if "\n" in ws else None
    return _splice(text, current.node.end, current.node.end, separator + member(indent))


def delete_value(text: str, parts: PathKey) -> str:
    """``text`` without the key (or array item) at ``parts``; the same text if it is absent."""
    root = parse(text).root
    parent = root.find(parts[:-1])
    key = parts[-1]
    if parent is None:
        return text
    starts: list[int]
    ends: list[int]
    if parent.kind == "object" and isinstance(key, str):
        index = None
        for i, member in enumerate(parent.members):
            if member.key == key:
                index = i
        if index is None:
            return text
        starts = [m.key_start for m in parent.members]
        ends = [m.node.end for m in parent.members]
    elif parent.kind == "array" and isinstance(key, int) and key < len(parent.items):
        index = key
        starts = [n.start for n in parent.items]
        ends = [n.end for n in parent.items]
    else:
        return text
    if len(starts) == 1:
        return _splice(text, parent.start + 1, parent.end - 1, "")
    if index == 0:
        return _splice(text, starts[0], starts[1], "")
    return _splice(text, ends[index - 1], ends[index], "")


def rename_key(text: str, parts: PathKey, new_key: str) -> str:
    """``text`` with the object member at ``parts`` called ``new_key``, in the same place and with
    the same value text; the same text if there is no such member. Refuses to make a duplicate."""
    if not parts or not isinstance(parts[-1], str):
        raise EditError(f"cannot rename `{format_path(parts)}`: only object members have keys")
    parent = parse(text).root.find(parts[:-1])
    if parent is None or parent.kind != "object":
        return text
    member = parent.member(parts[-1])
    if member is None or parts[-1] == new_key:
        return text
    if parent.member(new_key) is not None:
        target = format_path((*parts[:-1], new_key))
        raise EditError(f"cannot rename `{format_path(parts)}`: `{target}` already exists")
    return _splice(text, member.key_start, member.key_end, json.dumps(new_key, ensure_ascii=False))


def swap_members(text_a: str, text_b: str, parts: PathKey) -> tuple[str, str]:
    """The two texts with the member at ``parts`` exchanged, text for text (see
    :func:`exchange_members`, which this is for one key)."""
    if not parts or not isinstance(parts[-1], str):
        raise EditError(f"cannot swap `{format_path(parts)}`: only object members can be swapped")
    return exchange_members(text_a, text_b, parts[:-1], (parts[-1],))


def exchange_members(
    text_a: str, text_b: str, parent: PathKey, keys: Sequence[str]
) -> tuple[str, str]:
    """The two texts with the members ``keys`` of the object at ``parent`` exchanged, all at once.

    A key present in both: the two values' texts are exchanged in place (re-indented to each
    file's style when that can be undone exactly). A key present in one: the member moves to the
    other text, placed by the keys that stay (:func:`_arrival_order`); members bound for the same
    place keep the order they had. Every other member keeps its place and its text. Each text's
    style is judged once, before anything moves (without the moving keys), and used for every
    value that leaves or arrives.

    Exchanging twice gives back the exact original texts whenever the two objects have the same
    keys apart from the moving ones that only one has (in any order each): both exchanges place
    members by the same kept keys, so the second finds the places the first left. A key only one
    object has and that does not move can make that impossible: ``{"_note", "k", "x"}`` and
    ``{"k", "_note", "x"}`` exchanged with ``{"x"}`` give the same two texts, so one of them comes
    back with ``k`` on the other side of ``_note``. A value that could not come back exactly is
    refused (:class:`IrreversibleMove`).
    """
    root_a, root_b = parse(text_a).root, parse(text_b).root
    moving = set(keys)
    style_a = style_of(text_a, root_a, skip=moving)
    style_b = style_of(text_b, root_b, skip=moving)
    for key in dict.fromkeys(keys):
        try:
            text_a, text_b = _swap_in_place(text_a, text_b, (*parent, key), style_a, style_b)
        except IrreversibleMove as error:
            where = format_path((*parent, key))
            raise IrreversibleMove(f"cannot swap `{where}`: {error}") from None
    root_a, root_b = parse(text_a).root, parse(text_b).root
    object_a, object_b = root_a.find(parent), root_b.find(parent)
    only_a = _only_in(object_a, object_b, moving)
    only_b = _only_in(object_b, object_a, moving)
    if not only_a and not only_b:
        return text_a, text_b
    if not _is_object(object_a) or not _is_object(object_b):
        where = format_path((*parent, (only_a or only_b)[0]))
        raise EditError(f"cannot move `{where}`: its parent object is missing in one file")
    taken_a = [_taken(text_a, object_a, key, style_a) for key in only_a]
    taken_b = [_taken(text_b, object_b, key, style_b) for key in only_b]
    order_b = _arrival_order(object_a, object_b, only_a, only_b)
    order_a = _arrival_order(object_b, object_a, only_b, only_a)
    for key in reversed(only_a):
        text_a = delete_value(text_a, (*parent, key))
    for key in reversed(only_b):
        text_b = delete_value(text_b, (*parent, key))
    new_b = _arrive(text_b, parent, order_b, dict(zip(only_a, taken_a, strict=True)), style_b)
    new_a = _arrive(text_a, parent, order_a, dict(zip(only_b, taken_b, strict=True)), style_a)
    return new_a, new_b


def _swap_in_place(
    text_a: str, text_b: str, parts: PathKey, style_a: Style, style_b: Style
) -> tuple[str, str]:
    """The texts with the values at ``parts`` exchanged when both have one; else unchanged."""
    root_a, root_b = parse(text_a).root, parse(text_b).root
    node_a, node_b = root_a.find(parts), root_b.find(parts)
    if node_a is None or node_b is None:
        return text_a, text_b
    value_a = text_a[node_a.start : node_a.end]
    value_b = text_b[node_b.start : node_b.end]
    if value_a == value_b:
        return text_a, text_b
    indent_a = line_indent(text_a, node_a.start)
    indent_b = line_indent(text_b, node_b.start)
    return (
        _splice(
            text_a,
            node_a.start,
            node_a.end,
            transplant(value_b, style_b, indent_b, style_a, indent_a),
        ),
        _splice(
            text_b,
            node_b.start,
            node_b.end,
            transplant(value_a, style_a, indent_a, style_b, indent_b),
        ),
    )


def _only_in(obj: Node | None, other: Node | None, moving: set[str]) -> list[str]:
    """The moving keys ``obj`` has and ``other`` lacks, in ``obj``'s order."""
    if obj is None or obj.kind != "object":
        return []
    keys = [m.key for m in obj.members if m.key in moving]
    if other is not None and other.kind == "object":
        keys = [key for key in keys if other.member(key) is None]
    return list(dict.fromkeys(keys))


@dataclass(frozen=True, slots=True)
class _Taken:
    """A member on its way to the other text: its key and colon as written, its value's text, and
    the style and indentation it was written in."""

    head: str
    value: str
    style: Style
    indent: str


def _is_object(node: Node | None) -> TypeGuard[Node]:
    return node is not None and node.kind == "object"


def _taken(text: str, obj: Node, key: str, style: Style) -> _Taken:
    member = obj.member(key)
    assert member is not None
    return _Taken(
        text[member.key_start : member.node.start],
        text[member.node.start : member.node.end],
        style,
        line_indent(text, member.key_start),
    )


def _arrival_order(
    source: Node, target: Node, arriving: list[str], leaving: list[str]
) -> list[str]:
    """The target's keys once ``leaving`` has left it and ``arriving`` (from the source) is in.

    Only the kept keys (those that do not move) place a member, and both exchanges see the same
    kept keys, so the second one finds the places the first one left: a member goes just after
    the nearest kept key before it that the target has too; with none, just before the target's
    first such key (a member first stays first, and one after a comment the target lacks comes
    back after it); when the two objects share no kept key, first if it was first, else last.
    Members bound for the same place keep their order."""
    arriving_set, leaving_set = set(arriving), set(leaving)
    kept_source = [m.key for m in source.members if m.key not in arriving_set]
    kept_target = [m.key for m in target.members if m.key not in leaving_set]
    where = {key: index for index, key in reversed(list(enumerate(kept_target)))}
    shared = [key for key in kept_source if key in where]
    places: dict[int, list[str]] = {}
    before: list[str] = []
    placed: set[str] = set()
    for member in source.members:
        if member.key not in arriving_set:
            before.append(member.key)
            continue
        if member.key in placed:
            continue  # a repeated key moves once
        placed.add(member.key)
        anchor = next((key for key in reversed(before) if key in where), None)
        if anchor is not None:
            place = where[anchor] + 1
        elif shared:
            place = min(where[key] for key in shared)
        else:
            place = len(kept_target) if before else 0
        places.setdefault(place, []).append(member.key)
    order: list[str] = []
    for place in range(len(kept_target) + 1):
        order += places.get(place, [])
        if place < len(kept_target):
            order.append(kept_target[place])
    return order


def _arrive(
    text: str, parent: PathKey, order: list[str], arriving: dict[str, _Taken], style: Style
) -> str:
    """``text`` with the ``arriving`` members inserted so that its object at ``parent`` has its
    keys in ``order``."""
    for position, key in enumerate(order):
        taken = arriving.get(key)
        if taken is None:
            continue
        root = parse(text).root
        obj = root.find(parent)
        assert obj is not None
        after = None if position == 0 else obj.index(order[position - 1])

        def member(indent: str | None, taken: _Taken = taken, key: str = key) -> str:
            try:
                value = transplant(taken.value, taken.style, taken.indent, style, indent or "")
            except IrreversibleMove as error:
                raise IrreversibleMove(
                    f"cannot swap `{format_path((*parent, key))}`: {error}"
                ) from None
            return taken.head + value

        text = insert_member(text, obj, after, member, root, style.inline_gap)
    return text
