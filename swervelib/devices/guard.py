"""The last check before a set-point reaches a vendor call.

Every motor adapter passes each set-point through its :class:`SetpointGuard` just before the vendor
call, whatever called it (the drive, a module, robot code holding the adapter, a test):

* a value that is not a finite number (NaN, ±infinity), or a position beyond ±1e9, is
  **refused**: the motor is stopped instead (the adapter's neutral output), the refusal is counted
  and a warning Alert names the call and the value;
* a finite value beyond what the motor can physically do is **clamped** to it: speeds to the
  motor's free speed (through the gearing, in the adapter's units), volts and feedforward volts to
  the configured optimal voltage (12 V by default).

So whatever robot code asks for, a vendor object only ever receives finite values within the
motor's range. The adapters keep the in-range case cheap: one chained comparison, which NaN fails,
sends them here only when something is out of the ordinary.
"""

from __future__ import annotations

import math

import wpilib

from swervelib.config.catalog import MOTOR_FREE_SPEED_RPS
from swervelib.devices.faults import FaultAlert
from swervelib.devices.settings import MotorSettings, Role
from swervelib.text import shown_number

DEFAULT_VOLTS = 12.0
MAX_POSITION = 1e9  # degrees or metres: far beyond any mechanism, far below overflow


class SetpointGuard:
    """Range limits of one motor, and the Alert that reports refused set-points."""

    def __init__(self, settings: MotorSettings) -> None:
        self.label = settings.label
        volts = settings.optimal_voltage
        self.max_volts = volts if volts > 0.0 else DEFAULT_VOLTS
        rps = MOTOR_FREE_SPEED_RPS[settings.motor_type.motor]
        # Adapter units per second at free speed: m/s (drive) or degrees of module rotation/s.
        self.max_speed = abs(rps * settings.units_per_rotation)
        self.unit = "m/s" if settings.role is Role.DRIVE else "deg/s"
        self.refused = 0
        self._alert = FaultAlert(f"{settings.label} set-point", wpilib.Alert.AlertType.kWarning)

    def refuse(self, call: str, why: str = "not a finite number") -> None:
        """Count and report a refused call (the adapter stops the motor)."""
        self.refused += 1
        self._alert.update(f"refused {call}: {why}, motor stopped ({self.refused} refused so far)")

    def volts(self, volts: float) -> float | None:
        """``volts`` within ±max volts, or None (refused) when it is not finite."""
        if not math.isfinite(volts):
            self.refuse(f"set_voltage({shown_number(volts)} V)")
            return None
        limit = self.max_volts
        return -limit if volts < -limit else min(volts, limit)

    def velocity(self, speed: float, feedforward_volts: float) -> tuple[float, float] | None:
        """Speed within ±free speed and feedforward within ±max volts, or None (refused).

        The adapters test the usual case (both already in range) themselves and call this only
        otherwise: it runs in every module's command, every loop."""
        limit, volts = self.max_speed, self.max_volts
        if -limit <= speed <= limit and -volts <= feedforward_volts <= volts:  # the usual case
            return speed, feedforward_volts
        if not (math.isfinite(speed) and math.isfinite(feedforward_volts)):
            self.refuse(
                f"set_velocity({shown_number(speed)} {self.unit}, {shown_number(feedforward_volts)} V)"
            )
            return None
        speed = -limit if speed < -limit else min(speed, limit)
        feedforward_volts = -volts if feedforward_volts < -volts else min(feedforward_volts, volts)
        return speed, feedforward_volts

    def position(self, call: str, value: float) -> bool:
        """Whether a position (set_angle, or seeding the encoder; degrees or metres) is finite and
        within ±:data:`MAX_POSITION` (beyond, the conversion to the controller's native units can
        overflow to infinity); refused if not."""
        if -MAX_POSITION <= value <= MAX_POSITION:
            return True
        why = "not a finite number" if value != value or math.isinf(value) else "beyond ±1e9"
        self.refuse(f"{call}({shown_number(value)})", why)
        return False
