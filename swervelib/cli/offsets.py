"""``offsets DIRECTORY --add DEGREES | --capture``: change every module's absoluteEncoderOffset."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from swervelib.cli.flip import dry_run_and_run, print_result, report_errors, streams
from swervelib.tools.edit import EditResult


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "offsets",
        help="add to every absoluteEncoderOffset (--add 180), or capture them from the robot",
        description="Change every module's absoluteEncoderOffset. --add DEGREES adds to each "
        "(--add 180 when odometry runs backwards), keeping the results in the range "
        "the folder's offsets use: [0, 360) when they all are, (-180, 180] when they use negative "
        "numbers (--signed or --unsigned chooses), so that adding 180 twice gives back the very "
        "numbers; modules with encoder `none` are skipped. --capture writes each module's current "
        "Raw Absolute Encoder reading from the running robot (wheels straight forward). A "
        "timestamped backup is kept; --dry-run prints the diff only. Restart the robot code "
        "afterwards: it reads the configuration when it starts.",
    )
    parser.add_argument("directory", help="the swerve directory (holding swervedrive.json)")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument(
        "--add", type=float, metavar="DEGREES", help="degrees to add to every offset"
    )
    action.add_argument(
        "--capture",
        action="store_true",
        help="set every offset to the robot's current Raw Absolute Encoder reading",
    )
    convention = parser.add_mutually_exclusive_group()
    convention.add_argument(
        "--unsigned",
        action="store_true",
        help="with --add: write the offsets in [0, 360), whatever the folder uses",
    )
    convention.add_argument(
        "--signed",
        action="store_true",
        help="with --add: write the offsets in (-180, 180], whatever the folder uses",
    )
    parser.add_argument(
        "--server",
        metavar="HOST",
        help="with --capture: robot address, team number or localhost (default localhost)",
    )
    dry_run_and_run(parser, run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = streams(out, err)
    with report_errors(err) as failed:
        if args.capture:
            if args.unsigned or args.signed:
                flag = "--unsigned" if args.unsigned else "--signed"
                print(f"error: {flag} only applies to --add", file=err)
                return 1
            result = _capture(args)
        else:
            if args.server is not None:
                print("error: --server only applies to --capture", file=err)
                return 1
            from swervelib.tools.offsets import add_to_offsets

            result = add_to_offsets(
                args.directory,
                args.add,
                dry_run=args.dry_run,
                wrap="unsigned" if args.unsigned else "signed" if args.signed else "keep",
            )
        print_result(result, args.dry_run, out, err)
    return 1 if failed else 0


def _capture(args: argparse.Namespace) -> EditResult:
    """``--capture``: the live-robot half, in ``swervelib.tools.capture`` (imported only here, as
    it needs NetworkTables)."""
    from swervelib.tools.capture import capture_offsets

    options: dict[str, Any] = {"dry_run": args.dry_run}
    if args.server is not None:
        options["server"] = args.server
    result: EditResult = capture_offsets(args.directory, **options)
    return result
