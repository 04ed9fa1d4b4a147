"""reassign's names and the swap command calibrate prints: module names with spaces around them,
``cmd.exe`` and PowerShell on Windows, and long directories (the last release's three gaps)."""

from __future__ import annotations

import io
import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swervelib.cli import calibrate as calibrate_cli
from swervelib.cli.main import build_parser, main
from swervelib.config import load_directory
from swervelib.text import PATH_LIMIT
from swervelib.tools import reassign
from swervelib.tools.calibrate import Observation, StepKind, Verdict
from swervelib.tools.edit import EditError
from swervelib.tools.reassign import parse_moves, reassign_texts, swap_command, swap_commands
from swervelib.tools.telemetry_client import RAW_ABSOLUTE, RAW_ANGLE
from tests.calibrate.test_decisions import (
    NAMES,
    REV_NAVX,
    TerminalPerson,
    advance_to,
    attempt,
    make,
    new_robot,
)
from tests.tools import copy_config, snapshot
from tests.tools.test_reassign import _rename_modules
from tests.tools.windows_shells import ShellError, cmd_argv, powershell_words


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


# -- 2. Windows: cmd.exe and PowerShell ------------------------------------------------------------
WORD = st.text(
    st.sampled_from([*"aZ9 _-.=%\"'^&|<>()!$`,;@~\\/:é", "\u2019", "\u201c"]),
    min_size=1,
    max_size=12,
)


def _expected(directory: str, a: str, b: str) -> list[str]:
    words = [directory, f"{a}={b}", f"{b}={a}"]
    dashes = ["--"] if any(w.startswith("-") for w in words) else []
    return ["py", "-m", "swervelib", "reassign", *dashes, *words]


@settings(max_examples=400)
@given(WORD, WORD, WORD)
def test_the_cmd_command_gives_python_the_words_whatever_the_names(
    directory: str, a: str, b: str
) -> None:
    """Typed at cmd.exe's prompt (every %NAME% that could be a variable taken as one), then split
    by the C runtime, the cmd.exe command gives exactly the directory and the two moves:
    quotes, %, ^, &, |, <, >, trailing backslashes and spaces included."""
    command = swap_command(directory, a, b, "cmd")
    assert cmd_argv(command) == _expected(directory, a, b), command
    assert powershell_words(swap_command(directory, a, b, "powershell")) == _expected(
        directory, a, b
    )


@settings(max_examples=300)
@given(WORD, WORD, WORD)
def test_on_windows_one_command_serves_both_shells_or_each_gets_its_own(
    directory: str, a: str, b: str
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reassign, "on_windows", lambda: True)
        commands = swap_commands(directory, a, b)
    expected = _expected(directory, a, b)
    if len(commands) == 1:
        ((where, command),) = commands
        assert where == ""
        assert cmd_argv(command) == expected and powershell_words(command) == expected
    else:
        (cmd_where, cmd), (ps_where, ps) = commands
        assert (cmd_where, ps_where) == ("cmd.exe", "PowerShell")
        assert cmd_argv(cmd) == expected and powershell_words(ps) == expected


def test_the_usual_windows_command_is_one_plain_line() -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reassign, "on_windows", lambda: True)
        assert swap_commands(r"C:\team\my robot\deploy\swerve", "front right", "frontleft") == [
            (
                "",
                r'py -m swervelib reassign "C:\team\my robot\deploy\swerve" '
                '"front right=frontleft" "frontleft=front right"',
            )
        ]
    assert swap_commands("deploy/swerve", "frontright", "frontleft") == [
        ("", "python -m swervelib reassign deploy/swerve frontright=frontleft frontleft=frontright")
    ]


def test_the_posix_command_would_not_survive_cmd() -> None:
    """Why Windows needs its own form: cmd.exe does not know single quotes (the old command)."""
    with pytest.raises(ShellError):
        cmd_argv(swap_command("deploy/swerve", "front & right", "frontleft"))
    assert cmd_argv(swap_command("my robot", "a", "b")) != _expected("my robot", "a", "b")


def test_a_module_name_starting_with_a_dash_is_not_read_as_an_option(tmp_path: Path) -> None:
    """``-fl=frontright`` alone would be an unknown option to the command line: the printed
    command puts ``--`` before the words."""
    directory = copy_config(tmp_path)
    _rename_modules(directory, {"frontleft": "-fl"})
    before = load_directory(directory)
    command = swap_command(str(directory), "frontright", "-fl")
    assert main(shlex.split(command)[3:]) == 0
    assert load_directory(directory).module("-fl").drive == before.module("frontright").drive
    assert main(cmd_argv(swap_command(str(directory), "frontright", "-fl", "cmd"))[3:]) == 0
    assert load_directory(directory) == before


def _wrong_corner(directory: Path, names: tuple[str, ...]) -> Observation:
    """The refusal when the person turns the first module and the second one's readings move."""
    robot = new_robot(names)
    session = make(directory, robot)
    step = advance_to(session, StepKind.TURN_MODULE, names[0])

    def turned() -> None:
        robot.add(names[1], RAW_ANGLE, 90.0)
        robot.add(names[1], RAW_ABSOLUTE, 90.0)

    observation = attempt(session, step, turned)
    assert observation.verdict is Verdict.WRONG_MODULE
    return observation


def test_on_windows_calibrate_prints_commands_that_run_in_cmd_and_in_powershell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Module names Windows allows in file names, with cmd.exe's special characters and a
    ``%PATH%``: calibrate's refusal gives a cmd.exe command and a PowerShell command, each on a
    line of its own; the first, typed at cmd.exe, swaps the devices; the second swaps them back
    (before: one command quoted for POSIX shells, which cmd.exe splits and expands)."""
    monkeypatch.setattr(reassign, "on_windows", lambda: True)
    directory = copy_config(tmp_path, REV_NAVX, "my robot")
    renamed = {"frontleft": "front left 100%PATH%", "frontright": "right & ^1 'b'"}
    _rename_modules(directory, renamed)
    names = (renamed["frontleft"], renamed["frontright"], "backleft", "backright")
    before, files = load_directory(directory), snapshot(directory)
    observation = _wrong_corner(directory, names)
    cmd, powershell = observation.commands
    lines = observation.explanation.split("\n")
    assert cmd in lines and powershell in lines
    assert "these commands swap them (the first in cmd.exe, the second in PowerShell)" in (
        " ".join(observation.explanation.split())
    )
    assert main(cmd_argv(cmd)[3:]) == 0
    after = load_directory(directory)
    assert after.module(names[0]).drive == before.module(names[1]).drive
    assert after.module(names[1]).drive == before.module(names[0]).drive
    assert main(powershell_words(powershell)[3:]) == 0
    assert snapshot(directory) == files


# -- 3. long directories -------------------------------------------------------------------------
def _deep_directory(tmp_path: Path) -> Path:
    parent = tmp_path / ("d" * 120) / ("e" * 120) / ("f" * 100)
    parent.mkdir(parents=True)
    directory = copy_config(parent, REV_NAVX, "swerve")
    assert len(str(directory)) > PATH_LIMIT + 10
    return directory


def test_the_swap_command_holds_a_long_directory_whole(tmp_path: Path) -> None:
    """A directory of more than 300 characters: the command calibrate gives runs as given (before,
    it held the directory cut, with "… (N more characters)", and named no directory there is)."""
    directory = _deep_directory(tmp_path)
    before = load_directory(directory)
    observation = _wrong_corner(directory, NAMES)
    (command,) = observation.commands
    assert command in observation.explanation.split("\n")
    assert command == swap_command(str(directory), "frontright", "frontleft")
    assert main(shlex.split(command)[3:]) == 0
    after = load_directory(directory)
    assert after.module("frontleft").drive == before.module("frontright").drive


class _WrongCorner(TerminalPerson):
    """Turns the front-right module when asked to turn the front-left one, then quits."""

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.current() != ("turn_module", "frontleft"):
            return "s"
        if "Do it again." in self.out.getvalue():
            return "q"
        if prompt.startswith("Press Enter when done"):
            self.robot.add("frontright", RAW_ANGLE, 90.0)
            self.robot.add("frontright", RAW_ABSOLUTE, 90.0)
        return ""


def test_calibrate_prints_the_command_on_a_line_of_its_own_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At an 80-column terminal, the refusal's prose is wrapped but the command is printed whole
    on one line, 400 characters long, to paste as it is (before: cut at 300 characters, then
    wrapped over several lines at its spaces)."""
    monkeypatch.setenv("COLUMNS", "80")
    directory = _deep_directory(tmp_path)
    robot = new_robot()
    out, err = io.StringIO(), io.StringIO()
    person = _WrongCorner(out, robot, make(directory, robot).steps, write="n")
    args = build_parser().parse_args(["calibrate", str(directory)])
    code = calibrate_cli.run(args, out, err, input_fn=person, source=robot, sleep=lambda _: None)
    assert code == 1 and "Stopped: nothing written." in out.getvalue()
    command = swap_command(str(directory), "frontright", "frontleft")
    assert len(command) > 400 and f"\n    {command}\n" in out.getvalue()
