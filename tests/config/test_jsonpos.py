"""The position-recording JSON reader agrees with the standard library on valid JSON."""

from __future__ import annotations

import json
import math
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from swervelib.config.jsonpos import (
    MAX_DEPTH,
    MAX_INTEGER_DIGITS,
    JSONSyntaxError,
    LongInteger,
    format_path,
    parse,
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values, st.sampled_from([None, 2]))
def test_agrees_with_stdlib(value: object, indent: int | None) -> None:
    text = json.dumps(value, indent=indent)
    assert parse(text).value == json.loads(text)


def test_positions_and_duplicates() -> None:
    doc = parse('{\n  "a": {"b": 1},\n  "c": [true, null],\n  "a": 2\n}')
    assert doc.positions[("a",)] == (2, 3)
    assert doc.positions[("a", "b")] == (2, 9)
    assert doc.positions[("c", 1)] == (3, 15)
    (dup,) = doc.duplicates
    assert (dup.path, dup.line, dup.first_line) == (("a",), 4, 2)
    assert doc.position(("c", 1, "missing")) == (3, 15)


def test_non_finite_literals_parse_as_floats() -> None:
    doc = parse('{"x": NaN, "y": -Infinity, "z": 1e999}')
    assert math.isnan(doc.value["x"])
    assert doc.value["y"] == -math.inf
    assert doc.value["z"] == math.inf


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("", 1, 1),
        ("{", 1, 2),
        ('{"a" 1}', 1, 6),
        ('{"a": 1,}', 1, 9),
        ("{'a': 1}", 1, 2),
        ('{"a": tru}', 1, 7),
        ('{\n"a": "x\ny"}', 2, 8),
        ('{"a": 1} x', 1, 10),
        ("[1 2]", 1, 4),
        ("1" * 5000 + " x", 1, 5002),
    ],
)
def test_syntax_errors_have_positions(text: str, line: int, column: int) -> None:
    with pytest.raises(JSONSyntaxError) as caught:
        parse(text)
    assert (caught.value.line, caught.value.column) == (line, column)


def test_deep_nesting_is_a_syntax_error_not_a_crash() -> None:
    with pytest.raises(JSONSyntaxError, match="nesting"):
        parse("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5))
    with pytest.raises(JSONSyntaxError, match="nesting"):
        parse("[" * 100_000)


def test_overlong_integers_do_not_depend_on_the_interpreter_limit() -> None:
    """A 5000-digit integer is kept as a marker with its length, whatever Python's int-string
    limit (which refuses past 4300 digits, or takes seconds on a million if a program lifted it),
    so the validator reports it by field."""
    old = sys.get_int_max_str_digits()
    try:
        for limit in (0, 640, 4300):
            sys.set_int_max_str_digits(limit)
            value = parse('{"a": -' + "7" * 900_000 + "}").value["a"]  # never converted
            assert isinstance(value, LongInteger) and value.digits == 900_000 and value < 0
            assert parse("9" * MAX_INTEGER_DIGITS).value == int("9" * MAX_INTEGER_DIGITS)
            assert isinstance(parse("9" * (MAX_INTEGER_DIGITS + 1)).value, LongInteger)
    finally:
        sys.set_int_max_str_digits(old)


def test_format_path() -> None:
    assert format_path(("inverted", "drive")) == "inverted.drive"
    assert format_path(("modules", 2)) == "modules[2]"
    assert format_path(()) == ""


def _paths(
    value: object, path: tuple[str | int, ...] = ()
) -> list[tuple[tuple[str | int, ...], object]]:
    found: list[tuple[tuple[str | int, ...], object]] = [(path, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


@given(json_values, st.sampled_from([None, 2, "\t"]), st.booleans())
def test_every_value_s_span_holds_exactly_that_value(
    value: object, indent: int | str | None, ascii_only: bool
) -> None:
    """The spans the editing tools splice: each node's text parses back to the value at its path,
    and each member's key span is the key in quotes."""
    text = json.dumps({"root": value}, indent=indent, ensure_ascii=ascii_only)
    document = parse(text)
    for path, expected in _paths(document.value):
        node = document.root.find(path)
        assert node is not None, path
        assert json.loads(text[node.start : node.end]) == expected
        kind = (
            "object"
            if isinstance(expected, dict)
            else "array"
            if isinstance(expected, list)
            else "scalar"
        )
        assert node.kind == kind
        if path and isinstance(path[-1], str):
            parent = document.root.find(path[:-1])
            assert parent is not None
            member = parent.member(path[-1])
            assert member is not None and member.node is node
            assert json.loads(text[member.key_start : member.key_end]) == path[-1]
    assert document.root.find(("no such key",)) is None
    assert document.root.find(("root", 10**6)) is None
