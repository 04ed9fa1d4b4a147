"""reassign's module names: names with spaces around them, and texts that split two ways."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from swervelib.cli.main import main
from swervelib.config import load_directory
from swervelib.tools.edit import EditError
from swervelib.tools.reassign import parse_moves, reassign_texts, swap_command
from tests.tools import copy_config, snapshot
from tests.tools.test_reassign import _rename_modules


# -- 1. module names with spaces around them ------------------------------------------------------
def test_module_names_with_spaces_around_them_can_be_named(tmp_path: Path) -> None:
    """swervedrive.json may list `` frontleft`` and ``frontright `` (file names keep the spaces):
    the move texts name them exactly as listed, or without the spaces when that names one module
    (before: every side was stripped, so "no module named 'frontleft'" for both)."""
    directory = copy_config(tmp_path)
    _rename_modules(directory, {"frontleft": " frontleft", "frontright": "frontright "})
    before = load_directory(directory)
    result = reassign_texts(directory, [" frontleft=frontright ", "frontright = frontleft"])
    assert result.summary.startswith("reassign (' frontleft'↔'frontright '): ")
    after = load_directory(directory)
    assert after.module(" frontleft").drive == before.module("frontright ").drive
    assert after.module("frontright ").drive == before.module(" frontleft").drive
    reassign_texts(directory, ["frontleft=frontright", "frontright=frontleft"])
    assert load_directory(directory) == before
    # the command calibrate prints, split as a shell splits it
    words = shlex.split(swap_command(str(directory), "frontright ", " frontleft"))
    assert main(words[3:]) == 0
    assert (
        load_directory(directory).module(" frontleft").drive == before.module("frontright ").drive
    )


def test_names_that_differ_only_in_spaces_are_told_apart_or_refused(tmp_path: Path) -> None:
    """With both ``fl`` and `` fl``, a side written exactly as one of them names it; a side that
    is neither (``fl `` with its space on the other end) could be either, and is refused with both
    names shown quoted, nothing written."""
    directory = copy_config(tmp_path)
    _rename_modules(directory, {"frontleft": "fl", "frontright": " fl"})
    before = load_directory(directory)
    reassign_texts(directory, [" fl=fl", "fl= fl"])
    assert load_directory(directory).module("fl").drive == before.module(" fl").drive
    files = snapshot(directory)
    for texts in (["fl =backleft", "backleft= fl"], [" fl =backleft", "backleft=fl"]):
        with pytest.raises(EditError) as caught:
            reassign_texts(directory, texts)
        message = str(caught.value)
        assert "could be any of fl, ' fl' (names that differ only in the spaces around them)" in (
            message
        ), message
        assert "write the name exactly as swervedrive.json lists it" in message
    with pytest.raises(
        EditError, match=r"no module named 'middle' \(swervedrive.json lists fl, ' fl',"
    ):
        reassign_texts(directory, ["middle=fl", "fl=middle"])
    assert snapshot(directory) == files


def test_a_text_that_splits_two_ways_is_refused_with_the_readings_and_a_way_out() -> None:
    modules = ["a", "a=b", "b=c", "c"]
    with pytest.raises(EditError) as caught:
        parse_moves(["a=b=c"], modules)
    assert (
        "'a=b=c' (it reads as a's devices to b=c, or a=b's devices to c: name the modules"
        in str(caught.value)
    )
    assert parse_moves(["a.json=b=c.json", "a=b.json=c.json"], modules) == [
        ("a", "b=c"),
        ("a=b", "c"),
    ]
