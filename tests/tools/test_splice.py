"""The text edits of splice.py and the editor calls migrate added: rename, has_file, load_errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from swervelib.config.jsonpos import parse
from swervelib.tools.edit import ConfigEditor, EditError
from swervelib.tools.json_style import IrreversibleMove, style_of, transplant
from swervelib.tools.splice import (
    delete_value,
    exchange_members,
    rename_key,
    set_value,
    swap_members,
)
from tests.tools import copy_config, everything

FL = "modules/frontleft.json"


@pytest.mark.parametrize(
    ("text", "renamed"),
    [
        ('{"a": 1, "x": {"k": [1, 2]}, "b": 2}', '{"a": 1, "front": {"k": [1, 2]}, "b": 2}'),
        ('{\r\n\t"x" :  1.50,\r\n\t"y": 2\r\n}', '{\r\n\t"front" :  1.50,\r\n\t"y": 2\r\n}'),
        ('{"x":1e0}', '{"front":1e0}'),
    ],
)
def test_rename_keeps_the_place_and_the_value_text(text: str, renamed: str) -> None:
    assert rename_key(text, ("x",), "front") == renamed


def test_rename_nested_absent_and_refused() -> None:
    text = '{"location": {"x": 3, "y": 4}}'
    assert rename_key(text, ("location", "y"), "left") == '{"location": {"x": 3, "left": 4}}'
    assert rename_key(text, ("location", "z"), "left") == text
    assert rename_key(text, ("nothing", "x"), "front") == text
    with pytest.raises(EditError, match=r"`location\.y` already exists"):
        rename_key(text, ("location", "x"), "y")
    with pytest.raises(EditError, match="only object members have keys"):
        rename_key('{"a": [1]}', ("a", 0), "b")


def test_set_and_delete_are_pure_text_functions() -> None:
    text = '{\n  "a": 1\n}'
    added = set_value(text, ("b", "c"), 2)
    assert added == '{\n  "a": 1,\n  "b": {\n    "c": 2\n  }\n}'
    assert delete_value(added, ("b",)) == text
    assert set_value(text, ("a",), 1.0) == text  # the same value: the text is kept


def test_editor_rename_has_file_and_load_errors(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    with ConfigEditor(directory, dry_run=True) as editor:
        assert editor.has_file(FL) and not editor.has_file("modules/nothere.json")
        assert not editor.has_file("modules/physicalproperties.jsonx")
        assert editor.load_errors() == ()
        editor.rename(FL, "location.front", "x")
        editor.rename(FL, "location.left", "y")
        problems = editor.load_errors()
        assert [(p.file, p.field) for p in problems] == [(FL, "location")]
        assert "only the 2023 `location.x`/`location.y` is set" in problems[0].message
        editor.rename(FL, "location.y", "left")
        editor.replace_file("modules/extra.json", b"{}")
        assert editor.has_file("modules/extra.json")
        editor.rename(FL, "location.x", "front")
        assert editor.load_errors() == ()
    assert everything(directory) == before


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # no key before the moved one is in the other text: it goes before the first shared key
        ('{\n  "_c": 1,\n  "k": true,\n  "d": 2\n}', '{\n  "d": 3,\n  "e": 4\n}'),
        ('{"x": 0, "k": [1], "d": 2}', '{"e": 0, "d": 3}'),
        ('{"k": 1, "x": 0, "y": 0}', '{"e": 0, "f": 1}'),  # nothing shared: first stays first
        ('{"x": 0, "y": 0, "k": 1}', '{"e": 0, "f": 1}'),  # and last stays last
        ('{"a": 0, "k": 1, "d": 2}', '{"a": 1, "e": 0, "d": 3}'),
    ],
)
def test_moving_a_member_twice_restores_both_texts(a: str, b: str) -> None:
    moved_a, moved_b = swap_members(a, b, ("k",))
    assert '"k"' not in moved_a and '"k"' in moved_b
    assert swap_members(moved_a, moved_b, ("k",)) == (a, b)


def test_a_value_off_its_files_units_is_moved_as_it_is() -> None:
    four = '{\n    "v": {\n      "a": [\n        1\n      ]\n    }\n}'  # 2-space nesting
    two = '{\n  "v": {\n    "b": 2\n  }\n}'
    swapped_four, swapped_two = swap_members(four, two, ("v",))
    assert swapped_two == '{\n  "v": {\n      "a": [\n        1\n      ]\n    }\n}'
    assert swapped_four == '{\n    "v": {\n        "b": 2\n    }\n}'  # in whole units: re-indented
    assert swap_members(swapped_four, swapped_two, ("v",)) == (four, two)


def test_a_value_that_could_not_come_back_is_refused() -> None:
    # closed as the 2-space file would close it, not as its own 4-space file does: moved as it
    # is, it would be re-indented on the way back; re-indented, it could not be
    value = '{\n    "a": 1\n  }'
    four, two = '{\n    "x": 1\n}', '{\n  "x": 1\n}'
    style_four, style_two = style_of(four, parse(four).root), style_of(two, parse(two).root)
    with pytest.raises(IrreversibleMove, match="moving it back would not restore it"):
        transplant(value, style_four, "    ", style_two, "  ")
    text = '{\n    "x": 1,\n    "v": {\n    "a": 1\n  }\n}'
    with pytest.raises(EditError, match="cannot swap `v`: moving it back"):
        swap_members(text, '{\n  "x": 1,\n  "v": 2\n}', ("v",))


def test_two_layouts_that_exchange_to_the_same_texts() -> None:
    """Why a member beside a key only its own file has may come back on the other side of it:
    both layouts give the same two texts, so no placement rule could restore both."""
    other = '{"x": 0}'
    after_note = '{"_note": 1, "k": 2, "x": 3}'
    before_note = '{"k": 2, "_note": 1, "x": 3}'
    exchanged = exchange_members(after_note, other, (), ("k",))
    assert exchange_members(before_note, other, (), ("k",)) == exchanged
    assert exchanged == ('{"_note": 1, "x": 3}', '{"k": 2, "x": 0}')
    assert exchange_members(*exchanged, (), ("k",)) == (after_note, other)


def test_line_ends_are_judged_without_the_members_that_move() -> None:
    """A CRLF value moved as it is (off its file's 4-space unit) into an LF file does not make that
    file's line ends CRLF: the value exchanged back into it gets its own LF line ends."""
    keys = ("drive", "angle")
    lf = '{\n  "drive": {\n    "id": 1\n  },\n  "angle": {\n    "id": 2\n  },\n  "x": 0\n}\n'
    crlf = (
        '{\r\n    "drive": {\r\n      "id": 7\r\n    },\r\n    "angle": {\r\n      "id": 8\r\n'
        '    },\r\n    "x": 0\r\n}\r\n'
    )
    exchanged = exchange_members(lf, crlf, (), keys)
    assert '"drive": {\r\n      "id": 7\r\n    },\n' in exchanged[0]  # moved as it is written
    assert exchange_members(*exchanged, (), keys) == (lf, crlf)


def test_a_file_s_style_is_judged_before_its_values_are_swapped() -> None:
    """A file nesting 4 spaces then 2, whose objects are on one line but one that only it has:
    on the way back the swap in place put its one-line drive back first, and the style the
    arriving conversionFactors was written in was judged after that, from a file with no value
    on several lines left (so 4-then-4): it came back 4 spaces deeper per level."""
    keys = ("drive", "conversionFactors")
    four_two = (
        '{\n    "location": {"front": 12, "left": 12},\n    "drive": {"type": "sparkmax", "id": 1},\n'
        '    "conversionFactors": {\n      "angle": {\n        "gearRatio": 21.4\n      },\n'
        '      "drive": {\n        "gearRatio": 6.75,\n        "diameter": 4\n      }\n    }\n}\n'
    )
    compact = '{"location":{"front":-12,"left":-12},"drive":{"type":"neo","id":7}}'
    exchanged = exchange_members(four_two, compact, (), keys)
    assert '"conversionFactors"' in exchanged[1]
    assert exchange_members(*exchanged, (), keys) == (four_two, compact)
