"""``check DIRECTORY``: validate a configuration and summarise it, or list every problem.

Everything printed comes partly from the files or the command line (names, keys, paths), so each
line goes through :func:`swervelib.text.printable` (control, bidi and surrogate characters
escaped) and is then encoded for the stream: an ASCII or cp1252 console gets backslash escapes
rather than a ``UnicodeEncodeError``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from swervelib.config import ConfigError, SteerFeedback, SwerveConfig, load_directory
from swervelib.config.catalog import MOTOR_TYPES
from swervelib.config.model import DeviceConfig
from swervelib.devices.registry import missing_packages
from swervelib.devices.settings import DEFAULT_STEER_GEAR_RATIO
from swervelib.text import for_stream, printable, shown_path


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "check",
        help="validate a configuration directory and print a summary",
        description="Validate a configuration directory. Exit 0 and print a summary when it is "
        "valid; otherwise print each problem as FILE:LINE:COL: FIELD: MESSAGE and exit 1.",
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


def run(args: argparse.Namespace, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    directory = shown_path(args.directory)
    if getattr(args, "recover", False):
        from swervelib.tools.edit import EditError, recover

        try:
            for note in recover(args.directory):
                emit(note, out)
        except EditError as error:
            emit(f"error: {error}", err)
            return 1
    try:
        config = load_directory(args.directory)
    except ConfigError as error:
        for problem in error.problems:
            emit(problem.format(), out)
        for warning in error.warnings:
            emit(warning.format(), err)
        count = len(error.problems)
        emit(f"{count} problem{'s' if count != 1 else ''} in {directory}", err)
        _suggest_migrate(args.directory, err)
        return 1
    emit(summary(config), out)
    _suggest_migrate(args.directory, out)
    missing = missing_packages(config)
    for absent in missing:
        emit(f"error: {absent}", err)
    if missing:
        emit(
            f"{directory} is valid, but the drive cannot be built here without "
            f"{' and '.join(a.vendor.requirement for a in missing)}",
            err,
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
        f"{shown_path(config.directory)}: valid, {len(config.modules)} modules",
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
        lines.append(f"    steering: {_STEERING[module.steer_feedback]}")
    for warning in config.warnings:
        lines.append(warning.format())
    return "\n".join(lines)
