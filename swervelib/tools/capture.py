"""``offsets DIRECTORY --capture``: every ``absoluteEncoderOffset`` from the live robot's readings.

With every wheel pointing straight forward (bevel gears facing left), each module's
``Raw Absolute Encoder`` reading is the offset that makes its module angle 0 ("the
observed ``Raw Absolute Encoder`` value is used as the ``absoluteEncoderOffset``")::

    from swervelib.tools.capture import capture_offsets

    result = capture_offsets("deploy/swerve", "localhost")     # or "1234", "10.12.34.2"
    print(result.summary)

The robot must be running the configuration in ``directory`` (same module names; the readings are
in the direction of its current ``absoluteEncoderInverted``, which this tool does not change — the
guided session :mod:`swervelib.tools.calibrate` handles a change of direction). ``samples`` readings
are taken ``sample_interval_s`` apart; every module's readings must agree within
``tolerance_deg`` (the wheels held still), and their circular mean, in [0°, 360°) rounded to 0.01°,
is written. Modules whose encoder type is ``none`` are skipped; an offset that changes by less than
one count of the module's encoder (:mod:`swervelib.tools.resolution`) is not touched. The write is one :class:`~swervelib.tools.edit.ConfigEditor` transaction (validated,
backed up, one-line summary; ``dry_run`` shows the diff and writes nothing).

Errors: :class:`~swervelib.tools.telemetry_client.TelemetryConnectionError` (no robot answered),
:class:`~swervelib.tools.calibrate.CalibrationError` (different modules, a reading missing or
implausible, a module whose robot reports an ``Absolute Encoder Read Issue``, wheels moving),
``ConfigError`` (the directory is invalid), ``EditError`` (the write was refused). Each has a message meant for the person.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from swervelib.config import load_directory
from swervelib.config.catalog import Bus
from swervelib.text import printable
from swervelib.tools.calibrate import (
    CalibrationError,
    circular_mean_deg,
    movement,
    offset_decision,
    write_decisions,
)
from swervelib.tools.telemetry_client import (
    RAW_ABSOLUTE,
    NetworkTablesTelemetry,
    Signal,
    Snapshot,
    TelemetryError,
    TelemetrySource,
)

if TYPE_CHECKING:
    from swervelib.tools.edit import EditResult


def capture_offsets(
    directory: str | os.PathLike[str],
    server: str = "localhost",
    *,
    port: int | None = None,
    dry_run: bool = False,
    timeout_s: float = 5.0,
    source: TelemetrySource | None = None,
    samples: int = 5,
    sample_interval_s: float = 0.05,
    tolerance_deg: float = 2.0,
    sleep: Callable[[float], None] = time.sleep,
) -> EditResult:
    """Write every module's current ``Raw Absolute Encoder`` as its ``absoluteEncoderOffset``.

    ``server``: host name or address, team number, or ``localhost``; ``port``: NT4 port (default
    5810); ``source``: read from this instead of connecting (tests, or an open connection).
    """
    path = Path(directory)
    config = load_directory(path)
    names = tuple(m.name for m in config.modules)
    if source is None:
        with NetworkTablesTelemetry(server, port=port, modules=names, timeout_s=timeout_s) as nt:
            snapshots = _readings(nt, names, samples, sample_interval_s, sleep)
    else:
        snapshots = _readings(source, names, samples, sample_interval_s, sleep)
    decisions = []
    for module in config.modules:
        if module.encoder_type.bus is Bus.NONE:
            continue
        signal = Signal(module.name, RAW_ABSOLUTE)
        values = []
        for snapshot in snapshots:
            if module.name in snapshot.read_issues:
                raise CalibrationError(
                    f"cannot capture the offsets: {printable(module.name)} reports an "
                    "Absolute Encoder Read Issue: its absolute encoder cannot be read (bad "
                    "magnet, unplugged, not answering: check its wiring, CAN id and bus), so its "
                    "Raw Absolute Encoder is its last good reading, not where the wheel points "
                    "now; fix the encoder and try again"
                )
            problem = snapshot.problem(signal)
            if problem is not None:
                raise CalibrationError(f"cannot capture the offsets: {printable(problem, 300)}")
            values.append(snapshot.values[signal])
        moved = movement(signal, values, 0, len(values))
        spread = max(moved.travel, moved.final_spread)
        if spread > tolerance_deg:
            raise CalibrationError(
                f"{printable(signal.label)} changed by {spread:.1f}° while the offsets were "
                "captured: hold "
                "every wheel still, pointing straight forward, and try again"
            )
        decision = offset_decision(
            module.file,
            module.name,
            circular_mean_deg(values),
            old_offset=module.absolute_encoder_offset_deg,
            old_inverted=module.absolute_encoder_inverted,
            new_inverted=module.absolute_encoder_inverted,
            encoder_type=module.encoder.type,
        )
        if decision.changed:
            decisions.append(decision)
    return write_decisions(path, decisions, "offsets --capture", dry_run=dry_run)


def _readings(
    source: TelemetrySource,
    names: tuple[str, ...],
    samples: int,
    interval_s: float,
    sleep: Callable[[float], None],
) -> list[Snapshot]:
    robot = source.module_names()
    if robot is not None and tuple(robot) != names:
        raise CalibrationError(
            f"the robot publishes modules {printable(repr(list(robot)), 300)}, but the "
            f"configuration has {printable(repr(list(names)), 300)}: "
            "deploy this configuration (or point at the directory the robot runs) first"
        )
    snapshots = []
    for i in range(max(1, samples)):
        if i:
            sleep(interval_s)
        try:
            snapshots.append(source.read())
        except TelemetryError as error:
            raise CalibrationError(
                f"cannot capture the offsets: {printable(str(error), 300)}"
            ) from error
    return snapshots
