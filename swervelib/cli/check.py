"""``check DIRECTORY``: validate a configuration and summarise it, or list every problem.

Everything ``check`` reports goes to standard output, in one order: problems and warnings sorted by
file, then line and column, each as ``PATH:LINE:COL: FIELD: MESSAGE`` where PATH is the file as a
person can open it from where the command was run (relative to the current directory when the file
is inside it, absolute otherwise: an editor or terminal makes it a link), then a count and hints.
A JSON syntax error just after a trailing comma says so, and a folder that is not a configuration
but holds one (``deploy`` holding ``deploy/swerve``) is named.

Everything printed comes partly from the files or the command line (names, keys, paths), so each
line goes through :func:`swervelib.text.printable` (control, bidi and surrogate characters
escaped) and is then encoded for the stream: an ASCII or cp1252 console gets backslash escapes
rather than a ``UnicodeEncodeError``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from swervelib.config import (
    ConfigError,
    Problem,
    Severity,
    SteerFeedback,
    SwerveConfig,
    load_directory,
)
from swervelib.config.catalog import MOTOR_TYPES
from swervelib.config.model import DeviceConfig
from swervelib.devices.registry import missing_packages
from swervelib.devices.settings import DEFAULT_STEER_GEAR_RATIO
from swervelib.safe_read import MAX_FILE_BYTES, UnreadableFile, read_file
from swervelib.text import for_stream, printable, shown_path

DRIVE_FILE = "swervedrive.json"
SYNTAX_ERROR = "JSON syntax error"
# Where a configuration sits relative to a folder people often give instead: the deploy folder,
# the robot project, or the modules folder inside the configuration.
_NEARBY = ("swerve", os.path.join("deploy", "swerve"), os.pardir)


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "check",
        help="validate a configuration directory and print a summary",
        description="Validate a configuration directory. Exit 0 and print a summary when it is "
        "valid; otherwise print each problem as PATH:LINE:COL: FIELD: MESSAGE (sorted by file "
        "and position, warnings among them, PATH as seen from the current directory) and exit "
        "1. Everything goes to standard output.",
    )
    parser.add_argument("directory", help="the swerve directory (holding swervedrive.json)")
    parser.add_argument(
        "--recover",
        action="store_true",
        help="first finish (or undo) an interrupted swervelib edit of the directory",
    )
    parser.set_defaults(run=run)


def emit(text: str, stream: TextIO) -> None:
    """Print ``text``, one or more lines, each made printable and encodable for ``stream``."""
    for line in text.split("\n"):
        print(for_stream(printable(line, None), stream), file=stream)


def shown_file(path: str | os.PathLike[str]) -> str:
    """``path`` as a person can open it from here: relative to the current directory when it is
    inside it, absolute otherwise."""
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute, os.getcwd())
    except (OSError, ValueError):  # no current directory, or another drive (Windows)
        return absolute
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return absolute
    return relative


def _is_dir(path: str) -> bool:
    try:
        return os.path.isdir(path)
    except (OSError, ValueError):
        return False


def located(problem: Problem, directory: str) -> Problem:
    """``problem`` with its file as :func:`shown_file` shows it (the file names are relative to
    ``directory``; a problem with the directory itself names the directory)."""
    path = problem.file if not _is_dir(directory) else os.path.join(directory, problem.file)
    return dataclasses.replace(problem, file=shown_file(path))


def in_order(problems: Iterable[Problem]) -> list[Problem]:
    """Problems sorted by file, then line and column (those without a position first)."""
    return sorted(problems, key=lambda p: (p.file, p.line or 0, p.column or 0))


def report(problems: Iterable[Problem], directory: str) -> list[str]:
    """Each problem (or warning) as one line, in order, paths as :func:`located` shows them, a JSON
    syntax error after a trailing comma with a hint."""
    lines = []
    for problem in in_order(problems):
        hint = _trailing_comma(problem, directory)
        if hint:
            problem = dataclasses.replace(problem, message=f"{problem.message} ({hint})")
        lines.append(located(problem, directory).format())
    return lines


def _trailing_comma(problem: Problem, directory: str) -> str | None:
    if not problem.message.startswith(SYNTAX_ERROR) or problem.line is None:
        return None
    from swervelib.tools.json_style import trailing_comma_hint

    try:
        text = read_file(os.path.join(directory, problem.file), limit=MAX_FILE_BYTES)
    except (UnreadableFile, OSError, ValueError):
        return None
    return trailing_comma_hint(
        text.decode("utf-8-sig", "replace"), problem.line, problem.column or 1
    )


def did_you_mean(directory: str) -> str | None:
    """A configuration near ``directory`` when ``directory`` has no ``swervedrive.json``."""
    if not _is_dir(directory) or os.path.lexists(os.path.join(directory, DRIVE_FILE)):
        return None
    for nearby in _NEARBY:
        candidate = os.path.normpath(os.path.join(directory, nearby))
        if os.path.isfile(os.path.join(candidate, DRIVE_FILE)):
            return candidate
    return None


def run(args: argparse.Namespace, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Everything goes to ``out`` (``err`` is kept for callers that pass it)."""
    directory = shown_path(shown_file(args.directory))
    if getattr(args, "recover", False):
        from swervelib.tools.edit import EditError, recover

        try:
            for note in recover(args.directory):
                emit(note, out)
        except EditError as error:
            emit(f"error: {error}", out)
            return 1
    try:
        config = load_directory(args.directory)
    except ConfigError as error:
        found = list(dict.fromkeys((*error.problems, *error.warnings)))  # each once
        for line in report(found, args.directory):
            emit(line, out)
        warned = sum(1 for problem in found if problem.severity is Severity.WARNING)
        count = len(found) - warned
        also = f" (and {warned} warning{'s' if warned != 1 else ''})" if warned else ""
        emit(f"{count} problem{'s' if count != 1 else ''}{also} in {directory}", out)
        nearby = did_you_mean(args.directory)
        if nearby is not None:
            there = shown_path(shown_file(nearby))
            emit(
                f"hint: {directory} holds no {DRIVE_FILE}, but {there} does: did you mean "
                f"`python -m swervelib check {there}`?",
                out,
            )
        _suggest_migrate(args.directory, out)
        return 1
    emit(summary(config), out)
    _suggest_migrate(args.directory, out)
    missing = missing_packages(config)
    for absent in missing:
        emit(f"error: {absent}", out)
    if missing:
        emit(
            f"{directory} is valid, but the drive cannot be built here without "
            f"{' and '.join(a.vendor.requirement for a in missing)}",
            out,
        )
        return 1
    return 0


def _suggest_migrate(directory: str, stream: TextIO) -> None:
    """Say when ``migrate`` would upgrade older-format values in ``directory``."""
    from swervelib.tools.migrate import plan

    changes = [step for step in plan(directory) if step.changes]
    if not changes:
        return
    fields = ", ".join(dict.fromkeys(f"{step.file} `{step.field}`" for step in changes))
    count = len(changes)
    emit(
        f"hint: {count} value{'s are' if count != 1 else ' is'} in an older YAGSL format "
        f"({fields}): `python -m swervelib migrate {shown_path(directory)}` upgrades "
        f"{'them' if count != 1 else 'it'} (add --dry-run to see the diff first)",
        stream,
    )


_STEERING = {
    SteerFeedback.MOTOR_ENCODER: "on the angle motor's encoder (seeded from the absolute encoder)",
    SteerFeedback.ABSOLUTE_ENCODER: "on the absolute encoder (the angle Spark's feedback sensor)",
}


def _device(device: DeviceConfig) -> str:
    """``type id``, and the encoder a brushed Spark MAX reads."""
    text = f"{device.type} {device.id}"
    if device.brushed_encoder is not None:
        text += f" (reading a {device.brushed_encoder} encoder)"
    elif MOTOR_TYPES.get(device.type) is not None and MOTOR_TYPES[device.type].brushed:
        text += " (no encoder of its own)"
    return text


def _flag(value: bool) -> str:
    return "true" if value else "false"


def summary(config: SwerveConfig) -> str:
    """A short human-readable description of a valid configuration."""
    drive = config.drive
    imu = drive.imu
    bus = f" on {imu.canbus}" if imu.canbus else ""
    lines = [
        f"{shown_path(shown_file(config.directory))}: valid, {len(config.modules)} modules",
        f"  IMU: {imu.type} id {imu.id}{bus}, invertedIMU={_flag(drive.imu_inverted)}",
        f"  max speed: {config.max_speed_mps:.2f} m/s"
        + ("" if drive.max_speed_mps is not None else " (drive motor free speed)"),
    ]
    for module in config.modules:
        loc = module.location
        lines.append(
            f"  {module.name}: front {loc.front_in:g} in ({loc.front_m:.3f} m), "
            f"left {loc.left_in:g} in ({loc.left_m:.3f} m)"
        )
        lines.append(
            f"    drive {_device(module.drive)}, angle {_device(module.angle)}, "
            f"encoder {_device(module.encoder)}"
        )
        lines.append(
            f"    inverted.drive={_flag(module.inverted.drive)} "
            f"inverted.angle={_flag(module.inverted.angle)} "
            f"absoluteEncoderInverted={_flag(module.absolute_encoder_inverted)} "
            f"absoluteEncoderOffset={module.absolute_encoder_offset_deg:g} deg"
        )
        conv = module.conversion
        angle = f"{conv.angle_deg_per_rotation:.4g} deg/rotation (angle)"
        if (
            module.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER
            and conv.angle_gear_ratio is None
        ):
            angle = (
                "360 deg/turn of the absolute encoder (angle motor gearing not given: "
                f"Raw Angle Encoder and the simulation assume {DEFAULT_STEER_GEAR_RATIO:.4g}:1)"
            )
        lines.append(f"    conversion: {angle}, {conv.drive_m_per_rotation:.5g} m/rotation (drive)")
        steering = _STEERING[module.steer_feedback]
        if module.encoder.type == "none":  # nothing to seed the motor's encoder from
            steering = (
                "on the angle motor's encoder (no absolute encoder: 0° is wherever the module"
                " faced when its angle controller powered up)"
            )
        lines.append(f"    steering: {steering}")
    lines += report(config.warnings, config.directory)
    return "\n".join(lines)
