"""Changing JSON text in place: every byte that is not changed stays exactly as it was.

Each function takes a document's text and returns the new text. Values are found through the spans
:func:`swervelib.config.jsonpos.parse` records, and new text is written in the file's own style
(:mod:`.json_style`), so key order, tabs, CRLF line ends, compact one-line files and unknown keys
survive an edit. Nothing here touches a file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from swervelib.config.jsonpos import Node, PathKey, format_path, parse
from swervelib.tools.edit_result import EditError, same_value
from swervelib.tools.json_style import (
    IrreversibleMove,
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


def insert_member(text: str, obj: Node, after: int | None, member: MemberText, root: Node) -> str:
    """``text`` with a member inserted into ``obj`` after ``obj.members[after]`` (None: first)."""
    members = obj.members
    if not members:
        inside = text[obj.start : obj.end]
        if "\n" in inside or (obj is root and "\n" in text):
            style = style_of(text, root)
            base = line_indent(text, obj.start)
            inner = base + style.unit
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
        return _splice(text, first.key_start, first.key_start, member(indent) + separator)
    current = members[after]
    if after + 1 < len(members):
        separator = text[current.node.end : members[after + 1].key_start]
    elif after > 0:
        separator = text[members[after - 1].node.end : current.key_start]
    else:
        separator = "," + text[obj.start + 1 : current.key_start]
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
    """The two texts with the member at ``parts`` exchanged, text for text.

    Present in both: the two values' texts are exchanged (re-indented to each file's style when
    that can be undone exactly). Present in one: the member moves to the other text, after the
    nearest key that preceded it, else before the nearest key that followed it. Swapping twice
    gives back the exact original texts; a value that could not come back exactly is refused.
    """
    if not parts or not isinstance(parts[-1], str):
        raise EditError(f"cannot swap `{format_path(parts)}`: only object members can be swapped")
    try:
        return _swap_members(text_a, text_b, parts)
    except IrreversibleMove as error:
        raise IrreversibleMove(f"cannot swap `{format_path(parts)}`: {error}") from None


def _swap_members(text_a: str, text_b: str, parts: PathKey) -> tuple[str, str]:
    root_a, root_b = parse(text_a).root, parse(text_b).root
    node_a, node_b = root_a.find(parts), root_b.find(parts)
    if node_a is None and node_b is None:
        return text_a, text_b
    style_a, style_b = style_of(text_a, root_a), style_of(text_b, root_b)
    if node_a is not None and node_b is not None:
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
    if node_a is None:  # the member moves from b to a
        new_b, new_a = _move_member(text_b, root_b, text_a, root_a, parts)
        return new_a, new_b
    return _move_member(text_a, root_a, text_b, root_b, parts)


def _place_in_target(source_parent: Node, index: int, target_parent: Node) -> int | None:
    """Where the source's member ``index`` goes in the target: after the target's member at the
    returned index (None: first). Moving it back must find the place it came from, so the member
    is anchored to a key the two objects share: the nearest one before it (the member goes just
    after it); else, as in ``{"_comment": …, "moved": …, "drive": …}`` moved to a file without
    the comment, the nearest one after it (the member goes just before it, and on the way back
    lands just before it again, after the comment); else, sharing no key, first if it was first
    and last otherwise."""
    members = source_parent.members
    for earlier in reversed(members[:index]):
        found = target_parent.index(earlier.key)
        if found is not None:
            return found
    for later in members[index + 1 :]:
        found = target_parent.index(later.key)
        if found is not None:
            return found - 1 if found > 0 else None
    if index > 0 and target_parent.members:
        return len(target_parent.members) - 1
    return None


def _move_member(
    source: str, source_root: Node, target: str, target_root: Node, parts: PathKey
) -> tuple[str, str]:
    """``(source, target)`` with the member at ``parts`` moved from the source to the target."""
    source_style, target_style = style_of(source, source_root), style_of(target, target_root)
    source_parent = source_root.find(parts[:-1])
    target_parent = target_root.find(parts[:-1])
    assert source_parent is not None
    if target_parent is None or target_parent.kind != "object":
        raise EditError(
            f"cannot move `{format_path(parts)}`: its parent object is missing in one file"
        )
    key = str(parts[-1])
    index = source_parent.index(key)
    assert index is not None
    moved = source_parent.members[index]
    head = source[moved.key_start : moved.node.start]  # the key and colon, as written
    value_text = source[moved.node.start : moved.node.end]
    source_indent = line_indent(source, moved.key_start)
    after = _place_in_target(source_parent, index, target_parent)
    new_target = insert_member(
        target,
        target_parent,
        after,
        lambda indent: (
            head + transplant(value_text, source_style, source_indent, target_style, indent or "")
        ),
        target_root,
    )
    return delete_value(source, parts), new_target
