"""Configuration warnings, brought to the person at the robot.

``check`` lists every warning, but nobody runs it at an event: a typo'd optional key
(``absoluteEncoderInvertd``) or a value YAGSL reads in a surprising way must also show up in
``robotpy sim`` and on the driver station. When a drive is built, each warning of its
configuration is printed once to the console (through the driver station's warning channel) and
one WPILib Alert says how many there are and how to list them.
"""

from __future__ import annotations

import wpilib

from swervelib.config import SwerveConfig
from swervelib.devices.faults import ALERT_GROUP
from swervelib.text import printable, shown_path

CHECK_COMMAND = "python -m swervelib check"


def announce(config: SwerveConfig) -> wpilib.Alert | None:
    """Print every warning of ``config`` and raise one warning Alert (None when there are none).
    Keep the returned Alert: WPILib shows it for as long as the object lives."""
    warnings = config.warnings
    if not warnings:
        return None
    count = len(warnings)
    noun = "warning" if count == 1 else "warnings"
    header = f"swerve config {shown_path(config.directory)}: {count} {noun}"
    lines = [header, *(f"  {printable(w.format(), None)}" for w in warnings)]
    wpilib.reportWarning("\n".join(lines), False)
    alert = wpilib.Alert(
        ALERT_GROUP,
        f"swerve config: {count} {noun}, run `{CHECK_COMMAND}`",
        wpilib.Alert.AlertType.kWarning,
    )
    alert.set(True)
    return alert
