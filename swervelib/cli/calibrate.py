"""``calibrate DIRECTORY [--server HOST]``: the guided spec §3.1 session at a terminal.

A front end over :class:`swervelib.tools.calibrate.CalibrationSession`: it prints each step's
instructions, shows live readings while the person works (on a terminal), waits for Enter, prints
every decision or the reason a movement was refused (and asks for it again), then shows the
summary of changes and writes them only when the person confirms. ``--dry-run`` shows the diff and
writes nothing.

Everything it prints that may hold text from the robot (module names, values, the reasons built
from them) goes through :func:`swervelib.text.printable` line by line, with a length limit, so a
broken or hostile robot can neither flood the terminal nor send it escape sequences.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import threading
from collections.abc import Callable
from typing import Any, TextIO

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


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "calibrate",
        help="guided inversion check and offset capture against the live robot",
        description="Guide a person through the spec's corrections by observation (turn each "
        "module and wheel by hand, rotate the robot), decide inverted.angle, "
        "absoluteEncoderInverted, inverted.drive and invertedIMU from the robot's raw telemetry, "
        "capture every absoluteEncoderOffset with the wheels facing forward, and write the "
        "changes after confirmation.",
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
            line = "  " + printable(self._session.live(), LIVE_LIMIT)
            self._width = max(self._width, len(line))
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


def _indent(text: str) -> str:
    """Each line of ``text`` escaped, cut, indented and wrapped for a terminal."""
    return "\n".join(
        textwrap.fill(
            printable(line, LINE_LIMIT), width=98, initial_indent="  ", subsequent_indent="    "
        )
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
            print(f"Connecting to {describe_server(args.server, args.port)} ...", file=out)
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
        for problem in error.problems:
            print(problem.format(), file=err)
        print(f"{args.directory} is not a valid configuration: fix it first", file=err)
        return 1
    except (TelemetryError, CalibrationError) as error:
        print(f"calibrate: {printable(str(error), LINE_LIMIT)}", file=err)
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
    print(
        f"Calibrating {session.directory} ({len(session.config.modules)} modules). At each step "
        "press Enter when done; s skips a step, q quits without writing anything.",
        file=out,
    )
    while (step := session.next_step()) is not None:
        print(f"\n[{step.index + 1}/{total}] {printable(step.title, LINE_LIMIT)}", file=out)
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
        print(_indent(observation.explanation), file=out)
    print("\n" + _safe(session.summary()), file=out)
    if not session.changes():
        return 0
    confirm = bool(args.yes) or _prompt(ask, "Write these changes? [y/N] ") in ("y", "yes")
    from swervelib.tools.edit import EditError, format_result

    try:
        result = session.apply(confirm=confirm, dry_run=args.dry_run)
    except EditError as error:
        print(f"calibrate: {printable(str(error), LINE_LIMIT)}", file=out)
        return 1
    if result is None:
        print("Nothing written.", file=out)
        return 0
    print(format_result(result, show_diff=args.dry_run), file=out)
    return 0


def _wait(session: CalibrationSession, step: Step, out: TextIO, ask: InputFn) -> str:
    live = bool(step.watches) and step.kind is not StepKind.LIFT and _isatty(out)
    if not live:
        return _prompt(ask, "Press Enter when done: ")
    print("  Press Enter when done (s: skip, q: quit). Live readings:", file=out)
    with _Live(session, out):
        return _prompt(ask, "")
