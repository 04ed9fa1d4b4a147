"""reassign: modules' hardware to the files of the corners it is at (spec §2.5)."""

from __future__ import annotations

import json
import shlex
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swervelib.cli.main import main
from swervelib.config import load_directory
from swervelib.tools.edit import EditError
from swervelib.tools.flip import flip_modules
from swervelib.tools.reassign import parse_moves, reassign_modules, swap_command
from tests.tools import (
    DEPLOY,
    VALID,
    VARIANTS,
    check_crash_at_every_step,
    copy_config,
    everything,
    snapshot,
)
from tests.tools.test_flip_properties import module_layouts, render

NAMES = ("frontleft", "frontright", "backleft", "backright")
RING = (("frontleft", "frontright"), ("frontright", "backright"), ("backright", "frontleft"))


def test_a_swap_moves_each_module_s_hardware_and_keeps_the_locations(tmp_path: Path) -> None:
    directory = copy_config(tmp_path, VALID / "unknown_keys")
    before = load_directory(directory)
    files = {n: json.loads((directory / "modules" / f"{n}.json").read_bytes()) for n in NAMES}
    result = reassign_modules(directory, [("frontleft", "frontright"), ("frontright", "frontleft")])
    after = load_directory(directory)
    assert result.written and result.backup is not None
    assert result.summary.startswith("reassign (frontleft↔frontright): ")
    for name, source in (("frontright", "frontleft"), ("frontleft", "frontright")):
        moved, own = before.module(source), before.module(name)
        now = after.module(name)
        assert (now.drive, now.angle, now.encoder) == (moved.drive, moved.angle, moved.encoder)
        assert now.absolute_encoder_offset_deg == moved.absolute_encoder_offset_deg
        assert now.inverted == moved.inverted
        assert now.location == own.location
        data = json.loads((directory / "modules" / f"{name}.json").read_bytes())
        assert list(data) == list(files[name])  # key order kept, unknown keys stay
        for key, value in files[name].items():
            if key not in ("drive", "angle", "encoder", "inverted", "absoluteEncoderOffset"):
                assert data[key] == value, (name, key)
    for name in ("backleft", "backright"):
        assert after.module(name) == before.module(name)
    assert after.drive == before.drive


def test_a_ring_of_three_moves_each_module_s_hardware_one_corner_on(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = load_directory(directory)
    result = reassign_modules(directory, RING)
    after = load_directory(directory)
    assert result.summary.startswith("reassign (frontleft→frontright→backright→frontleft): ")
    for source, destination in RING:
        assert after.module(destination).drive == before.module(source).drive
        assert after.module(destination).encoder == before.module(source).encoder
        assert after.module(destination).location == before.module(destination).location
    assert after.module("backleft") == before.module("backleft")


@pytest.mark.parametrize("source", [*VARIANTS, "no_encoder", "unknown_keys", "factors_in_modules"])
def test_the_moves_reversed_give_back_the_same_bytes(tmp_path: Path, source: str) -> None:
    origin = VALID / source if (VALID / source).is_dir() else source
    directory = copy_config(tmp_path, origin)
    before = snapshot(directory)
    reassign_modules(directory, RING)
    assert snapshot(directory) != before
    reassign_modules(directory, [(b, a) for a, b in RING])
    assert snapshot(directory) == before


def test_the_diagonal_moves_are_a_flip(tmp_path: Path) -> None:
    flipped = copy_config(tmp_path, VALID / "unknown_keys", "flipped")
    moved = copy_config(tmp_path, VALID / "unknown_keys", "moved")
    flip_modules(flipped)
    diagonal = {"frontleft": "backright", "frontright": "backleft"}
    moves = [*diagonal.items(), *((b, a) for a, b in diagonal.items())]
    reassign_modules(moved, moves)
    assert snapshot(moved) == snapshot(flipped)


def test_modules_may_be_named_as_files(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = load_directory(directory)
    reassign_modules(
        directory, [("modules/backleft.json", "backright.json"), ("backright", "backleft")]
    )
    assert load_directory(directory).module("backright").drive == before.module("backleft").drive
    for elsewhere in ("../backleft", "/tmp/modules/backleft.json", "backleft.json.json"):
        with pytest.raises(EditError, match=f"no module named '{elsewhere}'"):
            reassign_modules(directory, [(elsewhere, "backright"), ("backright", "backleft")])


@pytest.mark.parametrize(
    ("moves", "messages"),
    [
        (
            [("frontleft", "frontright")],
            [
                "frontleft=frontright leaves frontleft's corner without hardware and sends "
                "frontright's nowhere: add frontright=frontleft"
            ],
        ),
        (
            [("frontleft", "frontright"), ("frontright", "backright")],
            ["frontleft=frontright frontright=backright leaves", "add backright=frontleft"],
        ),
        (
            [("middle", "frontleft"), ("frontleft", "frontleft"), ("backleft", "backright")],
            [
                "no module named 'middle' (swervedrive.json lists frontleft, frontright, "
                "backleft, backright)",
                "frontleft=frontleft moves nothing",
                "add backright=backleft",
            ],
        ),
        (
            [("backleft", "backright"), ("backleft", "frontleft"), ("frontright", "backright")],
            [
                "backleft's hardware is sent to both backright and frontleft",
                "backright is given the hardware of both backleft and frontright",
            ],
        ),
        ([], ["no move given"]),
    ],
)
def test_moves_that_are_not_a_reassignment_are_refused_with_every_problem(
    tmp_path: Path, moves: list[tuple[str, str]], messages: list[str]
) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    for dry_run in (True, False):
        with pytest.raises(EditError) as caught:
            reassign_modules(directory, moves, dry_run=dry_run)
        text = str(caught.value)
        assert text.startswith("cannot reassign:\n")
        for message in messages:
            assert message in text
    assert everything(directory) == before


def test_texts_that_are_not_moves_are_all_named() -> None:
    assert parse_moves([" frontleft = backleft ", "backleft=frontleft"]) == [
        ("frontleft", "backleft"),
        ("backleft", "frontleft"),
    ]
    with pytest.raises(EditError, match=r"not a move: 'x', '=y', 'a=b=c'\. Write SOURCE=DEST"):
        parse_moves(["x", "=y", "a=b=c", "frontleft=backleft"])


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    result = reassign_modules(directory, RING, dry_run=True)
    assert everything(directory) == before and not result.written and result.backup is None
    assert result.summary.endswith("would change 12 fields in 3 files (dry run, nothing written)")
    assert "--- a/modules/backright.json" in result.diff


def test_kill_at_every_step_of_reassign(tmp_path: Path) -> None:
    steps = check_crash_at_every_step(
        lambda name: copy_config(tmp_path, name=name),
        lambda directory, hook: reassign_modules(directory, RING, fault_hook=hook),
    )
    assert len([s for s in steps if s.startswith("replace ")]) == 3


def test_the_suggested_swap_command_quotes_the_directory() -> None:
    assert swap_command("deploy/swerve", "frontright", "frontleft") == (
        "python -m swervelib reassign deploy/swerve frontright=frontleft frontleft=frontright"
    )
    assert swap_command("my robot/swerve", "a", "b").startswith(
        "python -m swervelib reassign 'my robot/swerve' a=b"
    )


def _rename_modules(directory: Path, names: dict[str, str]) -> None:
    """Give modules other file names (``names``: old stem to new), in swervedrive.json too."""
    drive_file = directory / "swervedrive.json"
    drive = json.loads(drive_file.read_bytes())
    drive["modules"] = [names.get(n.removesuffix(".json"), n) for n in drive["modules"]]
    drive_file.write_text(json.dumps(drive))
    for old, new in names.items():
        (directory / "modules" / f"{old}.json").rename(directory / "modules" / f"{new}.json")


def test_the_suggested_swap_command_runs_for_module_names_a_shell_would_split(
    tmp_path: Path,
) -> None:
    """Module names may hold spaces and shell characters (swervedrive.json allows any printable
    file name): the command calibrate suggests, split as a shell splits it, still swaps the two
    modules (unquoted, ``front left=front $right`` was three words and ``$right`` expanded)."""
    directory = copy_config(tmp_path)
    names = {"frontleft": "front left", "frontright": "front $right"}
    _rename_modules(directory, names)
    before = load_directory(directory)
    command = swap_command(str(directory), "front $right", "front left")
    words = shlex.split(command)
    assert words[:3] == ["python", "-m", "swervelib"]
    assert main(words[3:]) == 0
    after = load_directory(directory)
    assert after.module("front left").drive == before.module("front $right").drive
    assert after.module("front $right").drive == before.module("front left").drive
    assert after.module("front left").location == before.module("front left").location


def test_module_names_holding_an_equals_sign_can_be_reassigned(tmp_path: Path) -> None:
    """swervedrive.json may name a module ``fl=1`` (any printable file name): a move text is split
    at the one ``=`` that leaves a module name on each side, so the command calibrate suggests for
    such modules works (before: "not a move: 'fl=1=fr=2'"). A text still ambiguous is refused."""
    directory = copy_config(tmp_path)
    names = {"frontleft": "fl=1", "frontright": "fr=2"}
    _rename_modules(directory, names)
    before = load_directory(directory)
    words = shlex.split(swap_command(str(directory), "fr=2", "fl=1"))
    assert main(words[3:]) == 0
    after = load_directory(directory)
    assert after.module("fl=1").drive == before.module("fr=2").drive
    assert after.module("fr=2").drive == before.module("fl=1").drive
    modules = ["a", "a=b", "b=c", "c"]  # 'a=b=c' is a=b's hardware to c, or a's to b=c
    with pytest.raises(EditError, match="not a move: 'a=b=c'"):
        parse_moves(["a=b=c"], modules)
    assert parse_moves(["a=b=c", "c=a"], ["a=b", "c"]) == [("a=b", "c"), ("c", "a")]


@settings(max_examples=40)
@given(module_layouts(), st.permutations(NAMES))
def test_any_reassignment_reversed_gives_back_every_generated_folder(
    layouts: Any, order: list[str]
) -> None:
    """Every permutation of the four modules (as moves: each module to the one at its place in
    ``order``), on folders of every style with members only some files have, and back."""
    moves = [(a, b) for a, b in zip(NAMES, order, strict=True) if a != b]
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary) / "swerve"
        shutil.copytree(DEPLOY / "swerve", directory)
        for name, (members, style) in layouts.items():
            (directory / "modules" / f"{name}.json").write_text(render(members, style), newline="")
        before_config = load_directory(directory)
        before = snapshot(directory)
        if not moves:
            with pytest.raises(EditError, match="no move given"):
                reassign_modules(directory, moves)
            return
        reassign_modules(directory, moves)
        after = load_directory(directory)
        for source, destination in moves:
            moved, now = before_config.module(source), after.module(destination)
            assert (now.drive, now.angle, now.encoder) == (moved.drive, moved.angle, moved.encoder)
            assert now.inverted == moved.inverted
            assert now.location == before_config.module(destination).location
        reassign_modules(directory, [(b, a) for a, b in moves])
        assert snapshot(directory) == before


NOT_A_MODULE = st.sampled_from(["", "front", "modules/", "frontleft.json.json", "../backleft"])


@settings(max_examples=200)
@given(st.lists(st.tuples(*(st.sampled_from(NAMES) | NOT_A_MODULE,) * 2), max_size=6))
def test_any_moves_either_reassign_or_are_refused_clearly(moves: list[tuple[str, str]]) -> None:
    """Whatever the moves, the result is a written reassignment or an EditError, and a refused
    one changes nothing."""
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary) / "swerve"
        shutil.copytree(DEPLOY / "swerve", directory)
        before = everything(directory)
        try:
            result = reassign_modules(directory, moves)
        except EditError as error:
            assert str(error).startswith("cannot reassign:\n")
            assert everything(directory) == before
        else:
            assert result.written
            load_directory(directory)
