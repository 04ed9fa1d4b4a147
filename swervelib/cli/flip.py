"""``flip DIRECTORY``: move each module's hardware to the diagonally opposite module (§3.3)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from swervelib.config import ConfigError
from swervelib.tools.edit import EditError, format_result


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "flip",
        help="swap each module's devices with the diagonally opposite module (spec §3.3)",
        description="Move drive, angle and encoder descriptors, inversion flags, encoder offset "
        "and per-module conversion factors to the module diagonally opposite (paired by "
        "location, so any file names work); location and other fields stay. Refuses layouts "
        "without clean diagonal pairs. Flipping twice restores the files byte for byte. A "
        "timestamped backup is kept; --dry-run prints the diff only.",
    )
    parser.add_argument("directory", help="the swerve directory (holding swervedrive.json)")
    parser.add_argument("--dry-run", action="store_true", help="print the diff, write nothing")
    parser.set_defaults(run=run)


@contextlib.contextmanager
def report_errors(err: TextIO) -> Iterator[list[bool]]:
    """Turn any failure inside the block into ``error: MESSAGE`` lines on ``err`` (no traceback);
    the yielded list holds ``True`` once something failed."""
    failed: list[bool] = []
    try:
        yield failed
    except EditError as error:
        print(f"error: {error}", file=err)
        failed.append(True)
    except ConfigError as error:
        for problem in error.problems:
            print(f"error: {problem.format()}", file=err)
        failed.append(True)
    except KeyboardInterrupt:
        print("error: interrupted (an unfinished write is completed on the next run)", file=err)
        failed.append(True)
    except Exception as error:  # a clear line rather than a traceback, whatever went wrong
        print(f"error: {error or type(error).__name__}", file=err)
        failed.append(True)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout  # looked up now, so redirected streams are honoured
    err = err or sys.stderr
    with report_errors(err) as failed:
        from swervelib.tools.flip import flip_modules

        result = flip_modules(args.directory, dry_run=args.dry_run)
        for note in result.notes:
            print(f"note: {note}", file=err)
        print(format_result(result, show_diff=args.dry_run), file=out)
    return 1 if failed else 0
