"""Text from the files made safe to print (swervelib.text) and the problems that carry it."""

from __future__ import annotations

import io
import sys

import pytest

from swervelib.config import ConfigError, Problem
from swervelib.text import for_stream, is_printable, printable, printable_repr


@pytest.mark.parametrize(
    ("text", "safe"),
    [
        ("frontleft", True),
        ("vörn ✓ 🚀", True),
        ("", True),
        ("\x1b[31m", False),
        ("a\u202eb", False),
        ("\udc80", False),
        ("a\nb", False),
        ("\u2028", False),
        ("\ue000", False),
    ],
)
def test_is_printable_agrees_with_printable(text: str, safe: bool) -> None:
    assert is_printable(text) is safe
    assert (printable(text, None) == text) is safe


@pytest.mark.parametrize(
    ("encoding", "text", "written"),
    [
        ("ascii", "vörn ✓", "v\\xf6rn \\u2713"),
        ("cp1252", "vörn ✓ 🚀", "vörn \\u2713 \\U0001f680"),
        ("utf-8", "vörn ✓", "vörn ✓"),
        ("utf-8", "\udc80", "\\udc80"),
        ("no-such-codec", "vörn", "v\\xf6rn"),
    ],
)
def test_for_stream_writes_what_the_encoding_can(encoding: str, text: str, written: str) -> None:
    class Stream(io.StringIO):
        @property
        def encoding(self) -> str:  # type: ignore[override]
            return encoding

    assert for_stream(text, Stream()) == written


def test_printable_repr_describes_integers_python_would_refuse_to_print() -> None:
    old = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(640)  # the lowest limit a program can set
        assert printable_repr(10**700) == "<integer of about 700 digits>"
        assert printable_repr(10**500).startswith("1000")
    finally:
        sys.set_int_max_str_digits(old)


def test_every_part_of_a_problem_is_printable() -> None:
    problem = Problem(
        "modules/\udc80.json",
        "drive.\x1b[2Jtype",
        "unknown type `\u202eevil`",
        expected="x" * 5000,
        found="\x00",
    )
    for part in (problem.file, problem.field, problem.message, problem.expected, problem.found):
        assert part is not None and is_printable(part)
    assert problem.field == "drive.\\x1b[2Jtype"
    assert problem.expected is not None and len(problem.expected) < 1100
    assert is_printable(problem.format())
    error = ConfigError([problem], "/robot/\udcff\x1b[2J")
    assert is_printable(str(error).replace("\n", ""))
    assert "/robot/\\udcff\\x1b[2J" in str(error)


def test_a_problem_survives_pickling_unchanged() -> None:
    import pickle

    problem = Problem("f", "k", "m" * 5000, found="\x1b" * 3000)
    error = pickle.loads(pickle.dumps(ConfigError([problem], "d")))
    assert error.problems == (problem,)
    assert error.problems[0].message.endswith("… (4000 more characters)")


@pytest.mark.parametrize("columns", [30, 37, 60, 80])
def test_fill_keeps_words_whole_and_lines_within_the_width(columns: int) -> None:
    from swervelib.cli.terminal import fill

    text = (
        "Turn the frontleft module counter-clockwise (seen from above) by hand, about a "
        "quarter turn (at least 10°, less than half a turn), then hold it still.\n"
        "  1. Spin in place counter-clockwise: the robot must turn under control, and hold its "
        "heading when you let go.\n"
        "  - absoluteEncoderInverted and inverted.drive, swervedrive.json's well-known keys\n"
        "\n"
        "last"
    )
    filled = fill(text, columns, indent="  ")
    assert all(len(line) <= columns for line in filled.splitlines()), filled
    assert filled.split() == text.split()
    lines = filled.splitlines()
    assert lines[0].startswith("  Turn") and lines[1].startswith("    ")  # a hanging indent
    numbered = next(i for i, line in enumerate(lines) if "1. Spin" in line)
    assert lines[numbered].startswith("    1. Spin") and lines[numbered + 1].startswith(" " * 7)
    assert "" in lines and lines[-1] == "  last"


def test_fill_lets_a_word_longer_than_the_line_stand_alone() -> None:
    from swervelib.cli.terminal import cut, fill

    path = "/a/very/long/path/that/cannot/be/wrapped/swerve"
    assert fill(f"check {path} now", 20).splitlines() == ["check", f"  {path}", "  now"]
    assert cut("abcdef", 4) == "abc…" and cut("abc", 4) == "abc"
