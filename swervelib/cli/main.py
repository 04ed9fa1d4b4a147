"""Entry point: one sub-command per tool, each in its own module."""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence

from swervelib import __version__
from swervelib.cli import (
    calibrate,
    check,
    eight_step,
    flip,
    migrate,
    offsets,
    pathplanner_settings,
    reassign,
)
from swervelib.cli.flip import error_lines


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m swervelib",
        description="swervelib tools: check and calibrate a swerve configuration directory.",
    )
    parser.add_argument("--version", action="version", version=f"swervelib {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    check.register(commands)
    offsets.register(commands)
    flip.register(commands)
    reassign.register(commands)
    eight_step.register(commands)
    calibrate.register(commands)
    migrate.register(commands)
    pathplanner_settings.register(commands)
    return parser


def _never_fail_to_print() -> None:
    """Characters the console's encoding lacks (a degree sign on an ASCII or cp1252 console)
    come out as backslash escapes in every command's output, instead of a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _never_fail_to_print()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = args.run(args)
    except (OSError, MemoryError) as error:  # whatever a command let through: one clear line
        for line in error_lines(error):
            print(line, file=sys.stderr)
        return 1
    return code
