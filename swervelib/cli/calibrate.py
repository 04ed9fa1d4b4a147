"""``calibrate DIRECTORY [--server HOST]``: the guided calibration session at a terminal.

A front end over :class:`swervelib.tools.calibrate.CalibrationSession`: it prints each step's
instructions, shows live readings while the person works (on a terminal), waits for Enter, prints
every decision or the reason a movement was refused (and asks for it again), then shows the
summary of changes and writes them only when the person confirms. ``--dry-run`` shows the diff and
writes nothing.

Everything it prints that may hold text from the robot (module names, values, the reasons built
from them) goes through :func:`swervelib.text.printable` line by line, with a length limit, so a
broken or hostile robot can neither flood the terminal nor send it escape sequences. Prose is
wrapped to the terminal's width without splitting words (:mod:`swervelib.cli.terminal`), and the
live-readings line is cut to fit in one terminal line. A command to paste (an observation's
``commands``, such as the swap command) is escaped but printed whole on a line of its own, never
wrapped or cut: it holds the directory given and module names of the configuration (which the
robot's must match), so its length is bounded by what the person gave.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from swervelib.cli.terminal import cut, fill, width
from swervelib.config import ConfigError
from swervelib.text import printable
from swervelib.tools.calibrate import CalibrationError, CalibrationSession, Step, StepKind
from swervelib.tools.telemetry_client import (
    NetworkTablesTelemetry,
    TelemetryError,
    TelemetrySource,
    describe_server,
)

InputFn = Callable[[str], str]
LINE_LIMIT = 1000  # characters of one printed line (escaped, then cut)
LIVE_LIMIT = 300  # characters of the live-readings line
RESTART = (
    "Restart the robot code now (redeploy it, or restart `robotpy sim`): it reads the "
    "configuration only when it starts, so until then it runs with the old values. Restarting "
    "also puts the drive motors back in brake mode if you put them in coast."
)


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "calibrate",
        help="guided inversion check and offset capture against the live robot",
        description="Guide a person through the spec's corrections by observation (turn each "
        "module and wheel by hand, rotate the robot), decide inverted.angle, "
        "absoluteEncoderInverted, inverted.drive and invertedIMU from the robot's raw telemetry, "
        "capture every absoluteEncoderOffset with the wheels facing forward, and write the "
        "changes after confirmation; then restart the robot code, which reads the configuration "
        "when it starts. The session only reads the robot's telemetry: the drive motors stay in "
        "brake mode while you roll the wheels by hand.",
    )
    parser.add_argument("directory", help="the swerve directory the robot is running")
    parser.add_argument(
        "--server",
        default="localhost",
        help="the robot: host name or IP address, team number (e.g. 1234), or localhost for "
        "`robotpy sim` (default: localhost)",
    )
    parser.add_argument("--port", type=int, default=None, help="NetworkTables 4 port (5810)")
    parser.add_argument(
        "--timeout", type=float, default=5.0, help="seconds to wait for the robot (default 5)"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="show the diff of the changes, write nothing"
    )
    parser.add_argument(
        "--yes", action="store_true", help="write the changes without asking for confirmation"
    )
    parser.set_defaults(run=run)


class _Live:
    """Prints live readings on one terminal line until stopped."""

    def __init__(self, session: CalibrationSession, out: TextIO, period_s: float = 0.2) -> None:
        self._session = session
        self._out = out
        self._period = period_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._width = 0

    def _loop(self) -> None:
        while not self._stop.wait(self._period):
            self.show()

    def show(self) -> None:
        """Write one live line over the previous one: cut to leave the terminal's last column
        free (a full line would wrap, and the next ``\r`` could no longer overwrite it)."""
        columns = width() - 1
        line = cut("  " + printable(self._session.live(), LIVE_LIMIT), columns)
        self._width = min(max(self._width, len(line)), columns)
        self._out.write("\r" + line.ljust(self._width))
        self._out.flush()

    def __enter__(self) -> _Live:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        if self._width:
            self._out.write("\n")
            self._out.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _safe(text: str) -> str:
    """Each line of ``text`` escaped and cut (:func:`printable`), line breaks kept."""
    return "\n".join(printable(line, LINE_LIMIT) for line in text.split("\n"))


def _say(text: str, stream: TextIO) -> None:
    """Print ``text`` escaped, cut and wrapped to the terminal's width (words kept whole)."""
    print(fill(_safe(text), width()), file=stream)


def _indent(text: str) -> str:
    """Each line of ``text`` escaped, cut, indented and wrapped to the terminal's width."""
    return fill(_safe(text), width(), indent="  ")


def _explain(text: str, commands: tuple[str, ...]) -> str:
    """:func:`_indent` of ``text``, except its lines that are one of ``commands``: those are
    escaped only, indented further and never wrapped or cut, so that they paste as printed."""
    return "\n".join(
        "    " + printable(line, None) if line in commands else _indent(line)
        for line in text.split("\n")
    )


class _Quit(Exception):
    pass


def run(
    args: argparse.Namespace,
    out: TextIO = sys.stdout,
    err: TextIO = sys.stderr,
    *,
    input_fn: InputFn | None = None,
    source: TelemetrySource | None = None,
    sleep: Callable[[float], None] | None = None,
) -> int:
    """The interactive session; ``input_fn``, ``source`` and the session's ``sleep`` between
    readings may be replaced (tests)."""
    ask: InputFn = input_fn or input
    opened: NetworkTablesTelemetry | None = None
    try:
        if source is None:
            from swervelib.config import load_directory

            names = [m.name for m in load_directory(args.directory).modules]
            _say(f"Connecting to {describe_server(args.server, args.port)} ...", out)
            opened = NetworkTablesTelemetry(
                args.server, port=args.port, modules=names, timeout_s=args.timeout
            )
            source = opened
        if sleep is None:
            session = CalibrationSession(args.directory, source)
        else:
            session = CalibrationSession(args.directory, source, sleep=sleep)
        return _session(session, args, out, ask)
    except ConfigError as error:
        from swervelib.cli.check import report

        for line in report(error.problems, args.directory):  # paths as check shows them
            _say(line, err)
        _say(
            f"{args.directory} is not a valid configuration: fix it first "
            f"(python -m swervelib check {args.directory} lists the problems)",
            err,
        )
        return 1
    except (TelemetryError, CalibrationError) as error:
        _say(f"calibrate: {error}", err)
        return 1
    except (_Quit, EOFError, KeyboardInterrupt):
        print("\nStopped: nothing written.", file=out)
        return 1
    finally:
        if opened is not None:
            opened.close()


def _prompt(ask: InputFn, text: str) -> str:
    answer = ask(text).strip().lower()
    if answer in ("q", "quit"):
        raise _Quit
    return answer


def _session(
    session: CalibrationSession, args: argparse.Namespace, out: TextIO, ask: InputFn
) -> int:
    total = len(session.steps)
    _say(
        f"Calibrating {session.directory} ({len(session.config.modules)} modules, {total} steps). "
        "At each step press Enter when done; s skips a step, q quits without writing anything.",
        out,
    )
    while (step := session.next_step()) is not None:
        print("", file=out)
        _say(f"Step {step.index + 1} of {total}: {step.title}", out)
        if step.setup:
            print(_indent(step.setup), file=out)
            if _prompt(ask, "Press Enter when ready: ") == "s":
                print(_indent(session.skip(step).explanation), file=out)
                continue
        session.begin(step)
        print(_indent(step.text), file=out)
        if step.watches and step.kind is not StepKind.LIFT:
            print(_indent("watching: " + ", ".join(s.label for s in step.watches)), file=out)
        answer = _wait(session, step, out, ask)
        if answer == "s":
            print(_indent(session.skip(step).explanation), file=out)
            continue
        observation = session.finish(step)
        print(_explain(observation.explanation, observation.commands), file=out)
    print("", file=out)
    _say(session.summary(), out)
    if not session.changes():
        return 0
    confirm = bool(args.yes) or _prompt(ask, "Write these changes? [y/N] ") in ("y", "yes")
    from swervelib.tools.edit import EditError, format_result

    try:
        result = session.apply(confirm=confirm, dry_run=args.dry_run)
    except EditError as error:
        _say(f"calibrate: {error}", out)
        return 1
    if result is None:
        _say("Nothing written.", out)
        return 0
    diff, _, said = format_result(result, show_diff=args.dry_run).rpartition("\n")
    if diff:  # as it is: wrapping would garble it
        print(diff, file=out)
    _say(said, out)
    if result.written:
        _say(RESTART, out)
    return 0


def _wait(session: CalibrationSession, step: Step, out: TextIO, ask: InputFn) -> str:
    live = bool(step.watches) and step.kind is not StepKind.LIFT and _isatty(out)
    if not live:
        return _prompt(ask, "Press Enter when done: ")
    print("  Press Enter when done (s: skip, q: quit). Live readings:", file=out)
    with _Live(session, out):
        return _prompt(ask, "")
