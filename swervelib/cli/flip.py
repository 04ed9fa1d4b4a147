"""``flip DIRECTORY``: move each module's hardware to the diagonally opposite module."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from swervelib.config import ConfigError
from swervelib.safe_read import UnreadableFile, describe_os_error
from swervelib.text import printable, shown_path
from swervelib.tools.edit import EditError, EditResult, format_result


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "flip",
        help="swap each module's devices with the diagonally opposite module",
        description="Move drive, angle and encoder descriptors, inversion flags, encoder offset "
        "and per-module conversion factors to the module diagonally opposite (paired by "
        "location, so any file names work); location and other fields stay. Refuses layouts "
        "without clean diagonal pairs. Flipping twice restores the files byte for byte (a "
        "field only one file of a pair has, next to an unknown key only that file has, may come "
        "back on the other side of that key). A timestamped backup is kept; --dry-run prints "
        "the diff only.",
    )
    parser.add_argument("directory", help="the swerve directory (holding swervedrive.json)")
    dry_run_and_run(parser, run)


def dry_run_and_run(parser: argparse.ArgumentParser, run: Callable[..., int]) -> None:
    """The ``--dry-run`` flag every writing command takes, and the function that runs it."""
    parser.add_argument("--dry-run", action="store_true", help="print the diff, write nothing")
    parser.set_defaults(run=run)


def streams(out: TextIO | None, err: TextIO | None) -> tuple[TextIO, TextIO]:
    """``out`` and ``err``, or the current stdout and stderr (looked up at each run, so
    redirected streams are honoured)."""
    return out or sys.stdout, err or sys.stderr


def error_lines(error: BaseException) -> list[str]:
    """``error`` as ``error: ...`` lines: never an empty message, always printable (outside text
    such as file names and JSON values escaped), an ``OSError`` as its file and real cause."""
    if isinstance(error, ConfigError):
        texts = [problem.format() for problem in error.problems] or [str(error)]
    elif isinstance(error, UnreadableFile):
        texts = [str(error)]
    elif isinstance(error, OSError):
        cause = describe_os_error(error)
        texts = [f"{error.filename}: {cause}" if error.filename is not None else cause]
    elif isinstance(error, MemoryError):
        texts = ["out of memory"]
    else:
        texts = (str(error) or type(error).__name__).split("\n")
    lines = [printable(text, None) for text in texts]
    if isinstance(error, EditError):  # a message and its indented details
        return [f"error: {lines[0]}", *lines[1:]]
    return [f"error: {line}" for line in lines]


@contextlib.contextmanager
def report_errors(err: TextIO) -> Iterator[list[bool]]:
    """Turn any failure inside the block into ``error: MESSAGE`` lines on ``err`` (no traceback);
    the yielded list holds ``True`` once something failed."""
    failed: list[bool] = []
    try:
        yield failed
    except KeyboardInterrupt:
        print("error: interrupted (an unfinished write is completed on the next run)", file=err)
        failed.append(True)
    except Exception as error:  # a clear line rather than a traceback, whatever went wrong
        for line in error_lines(error):
            print(line, file=err)
        failed.append(True)


def print_notes(notes: tuple[str, ...], err: TextIO) -> None:
    for note in notes:
        print(f"note: {printable(note, None)}", file=err)


def print_result(result: EditResult, dry_run: bool, out: TextIO, err: TextIO) -> None:
    """An edit's notes on ``err``, then its summary on ``out`` (after its diff for a dry run)."""
    print_notes(result.notes, err)
    print(format_result(result, show_diff=dry_run), file=out)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = streams(out, err)
    with report_errors(err) as failed:
        from swervelib.tools.flip import after_flip, flip_modules

        result = flip_modules(args.directory, dry_run=args.dry_run)
        print_result(result, args.dry_run, out, err)
        if result.written:
            print(printable(after_flip(shown_path(args.directory)), None), file=out)
    return 1 if failed else 0
