"""``eight-step DIRECTORY --step N | --next | --restore | --finish``: the eight-step procedure, one step at a time."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from swervelib.cli.flip import dry_run_and_run, print_result, report_errors, streams
from swervelib.cli.terminal import fill, width


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "eight-step",
        help="set the configuration to a step of the eight-step inversion procedure",
        description="When field-oriented translation turns with the robot's heading: set the "
        "IMU inversion, every module's inverted.drive and the module flip to the state of step N "
        "(or the next one), then try the robot: in 4 of the 8 steps it spins out of control, in "
        "2 its translation turns with its heading, in 1 it holds its heading but drives "
        "backwards (each step then names the step to go to), and 1 is right. The first step "
        "remembers the starting files; "
        "--restore writes them back byte for byte, --finish keeps the current ones. "
        "--dry-run prints the diff only.",
    )
    parser.add_argument("directory", help="the swerve directory (holding swervedrive.json)")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument(
        "--step", type=int, choices=range(1, 9), metavar="N", help="go to step N (1-8)"
    )
    action.add_argument("--next", action="store_true", help="go to the following step (1 first)")
    action.add_argument(
        "--restore", action="store_true", help="return to the files as they were before step 1"
    )
    action.add_argument(
        "--finish", action="store_true", help="keep the current step's files, forget the start"
    )
    dry_run_and_run(parser, run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = streams(out, err)
    with report_errors(err) as failed:
        from swervelib.tools.eight_step import eight_step

        result = eight_step(
            args.directory,
            args.step,
            next=args.next,
            restore=args.restore,
            finish=args.finish,
            dry_run=args.dry_run,
        )
        print_result(result, args.dry_run, out, err)
        if result.instructions:  # already printable (the tool escapes names and paths)
            print(fill(result.instructions, width()), file=out)
    return 1 if failed else 0
