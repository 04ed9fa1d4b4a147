"""``migrate DIRECTORY``: upgrade an older YAGSL folder to the current format, one line per change."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from swervelib.cli.flip import dry_run_and_run, print_notes, report_errors, streams
from swervelib.text import printable, shown_path
from swervelib.tools.edit import format_result


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "migrate",
        help="upgrade an older YAGSL configuration folder to the current format",
        description="Rewrite the older YAGSL formats the current one replaced: conversionFactor "
        "(2024) and wheelDiameter/gearRatio (2023) become conversionFactors, location.x/y become "
        "front/left, swervedrive.json's optimalVoltage moves to physicalproperties.json, and "
        "keys nothing reads any more are removed. A 2023 maxSpeed that looks like feet per "
        "second is only flagged unless --max-speed-in-feet confirms it. --talonfx-from-yagsl-2025 "
        "flips every Talon FX/FXS inverted flag of a folder tuned on YAGSL 2025+ (which reads "
        "them the other way round), once: a second run with it is refused. Each change is "
        "explained on one line; unknown keys, key order and formatting are kept, and so is any "
        "text after a file's JSON (which YAGSL ignores). A timestamped backup is kept; --dry-run "
        "prints the diff only. A file that is not JSON is named and left alone, and the exit "
        "status is then 1.",
    )
    parser.add_argument("directory", help="the swerve directory (holding swervedrive.json)")
    parser.add_argument(
        "--max-speed-in-feet",
        action="store_true",
        help="swervedrive.json's maxSpeed is in feet per second (the 2023 format): convert it "
        "to metres per second",
    )
    parser.add_argument(
        "--talonfx-from-yagsl-2025",
        action="store_true",
        help="the folder drove correctly on YAGSL 2025 or later, which reads a Talon FX/FXS's "
        "inverted flags the other way round: flip inverted.drive/angle of every Talon FX/FXS "
        "motor so each turns the same way here (refused once a run with it has flipped them)",
    )
    dry_run_and_run(parser, run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = streams(out, err)
    unread = False
    with report_errors(err) as failed:
        from swervelib.tools.migrate import migrate

        result = migrate(
            args.directory,
            dry_run=args.dry_run,
            max_speed_in_feet=args.max_speed_in_feet,
            talonfx_from_yagsl_2025=args.talonfx_from_yagsl_2025,
        )
        print_notes(result.notes, err)
        for line in result.unread:
            print(f"error: {printable(line, None)}", file=err)
        for step in result.steps:
            print(step.format(), file=out)
        if result.edit is not None:
            print(format_result(result.edit, show_diff=args.dry_run), file=out)
        elif result.steps or result.unread:
            print(f"migrate: nothing changed in {shown_path(args.directory)}", file=out)
        else:
            print(
                f"migrate: {shown_path(args.directory)} is already current, nothing to change",
                file=out,
            )
        if result.remaining:
            count = len(result.remaining)
            print(
                f"{count} problem{'s remain' if count != 1 else ' remains'}, none of them from the "
                "migration; fix them by hand (python -m swervelib check lists them):",
                file=out,
            )
            for problem in result.remaining:
                print(f"  {printable(problem.format(), None)}", file=out)
        if result.unread:
            unread = True
            count = len(result.unread)
            print(
                f"migrate: {count} file{'s' if count != 1 else ''} could not be read and "
                f"{'were' if count != 1 else 'was'} not migrated (named above); fix "
                f"{'them' if count != 1 else 'it'} and run migrate again",
                file=out,
            )
    return 1 if failed or unread else 0
