"""``pathplanner-settings DIRECTORY``: write PathPlanner's robot settings from the swerve JSON."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import Any, TextIO

from swervelib.cli.flip import dry_run_and_run, print_result, report_errors, streams
from swervelib.text import shown_path


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "pathplanner-settings",
        help="write PathPlanner's robot settings (settings.json) from the swerve JSON",
        description="Put the robot PathPlanner plans for (mass, moment of inertia, wheel radius, "
        "gearing, drive motor, current limit, wheel friction, module positions, bumpers) in "
        "PathPlanner's settings.json, from the swerve configuration. Only those keys change: "
        "the GUI's other settings, key order and unknown keys stay, and a timestamped backup is "
        "kept. --dry-run prints the diff only.",
    )
    parser.add_argument("directory", help="the swerve directory (holding swervedrive.json)")
    parser.add_argument(
        "--pathplanner",
        metavar="DIR",
        help="the PathPlanner folder holding settings.json (default: pathplanner beside the "
        "swerve directory, as in deploy/)",
    )
    dry_run_and_run(parser, run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = streams(out, err)
    with report_errors(err) as failed:
        from swervelib.config import load_directory
        from swervelib.tools.pathplanner_settings import (
            SETTINGS_FILE,
            gui_settings,
            write_gui_settings,
        )

        config = load_directory(args.directory)
        folder = Path(args.pathplanner or Path(args.directory).resolve().parent / "pathplanner")
        target = folder / SETTINGS_FILE
        if target.exists():
            result = write_gui_settings(config, folder, dry_run=args.dry_run)
            print_result(result, args.dry_run, out, err)
        elif args.dry_run:
            gui_settings(config)  # what would stop the write stops the dry run too
            print(f"would create {shown_path(target)} (dry run, nothing written)", file=out)
        else:
            gui_settings(config)  # what stops the write stops it before a folder is made
            created = not folder.exists()
            folder.mkdir(parents=True, exist_ok=True)
            try:
                write_gui_settings(config, folder)
            except BaseException:
                if created:  # leave no empty folder behind a refused write
                    with contextlib.suppress(OSError):
                        folder.rmdir()
                raise
            print(f"created {shown_path(target)}: the GUI's defaults and this robot", file=out)
    return 1 if failed else 0
