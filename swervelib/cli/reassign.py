"""``reassign DIRECTORY SOURCE=DEST ...``: move modules' hardware between module files."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from swervelib.cli.flip import dry_run_and_run, print_result, report_errors, streams
from swervelib.text import printable


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "reassign",
        help="move modules' devices to the module files of the corners they are really at",
        description="SOURCE=DEST says that the devices SOURCE's module file names are physically "
        "at DEST's corner: the drive, angle and encoder descriptors, inversion flags, encoder "
        "offset and per-module conversion factors move from SOURCE's file to DEST's; location "
        "and other fields stay. The moves must say where every moved module's devices go and "
        "what takes their place (two modules swapped: frontleft=frontright "
        "frontright=frontleft). The moves reversed restore the files byte for byte. A "
        "timestamped backup is kept; --dry-run prints the diff only.",
    )
    parser.add_argument("directory", help="the swerve directory (holding swervedrive.json)")
    parser.add_argument(
        "moves",
        nargs="+",
        metavar="SOURCE=DEST",
        help="module names as in swervedrive.json's modules (with or without .json), quoted "
        "for the shell when they hold spaces; spaces around a name may be left out when the "
        "name without them is one module's",
    )
    dry_run_and_run(parser, run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = streams(out, err)
    with report_errors(err) as failed:
        from swervelib.tools.reassign import reassign_texts

        result = reassign_texts(args.directory, args.moves, dry_run=args.dry_run)
        print_result(result, args.dry_run, out, err)
        if result.written:
            print(
                printable(
                    "Restart the robot code, then check that turning each module moves its own "
                    "readings (`python -m swervelib calibrate`).",
                    None,
                ),
                file=out,
            )
    return 1 if failed else 0
