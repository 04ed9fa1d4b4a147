"""commands2 for a swervelib drive (optional: robotpy-commands-v2, swervelib's ``commands`` extra;
the rest of swervelib never imports it, and the drive is fully usable without it).

:class:`SwerveSubsystem` owns a :class:`~swervelib.drive.swerve_drive.SwerveDrive`: its
``periodic()`` runs the drive's (once per loop, before the commands, as the scheduler runs
subsystems first), and its methods make the commands a driver and an autonomous routine need.
Speeds come from suppliers called every loop (joystick axes scaled to m/s and rad/s).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from swervelib.optional import missing

try:
    import commands2
    from commands2.sysid import SysIdRoutine
except ImportError as error:  # pragma: no cover - depends on the environment
    raise missing(__name__, "robotpy-commands-v2", "commands") from error
import wpilib
from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib.alliance import red_alliance
from swervelib.config.model import INCH
from swervelib.devices.faults import FaultAlert
from swervelib.input_stream import SwerveInput
from swervelib.sysid import angle_routine, drive_routine, rotation_routine
from swervelib.wheel_radius import WheelDiameter, WheelRadiusCharacterization

if TYPE_CHECKING:
    from swervelib.drive.swerve_drive import SwerveDrive

Speed = Callable[[], float]


class SwerveSubsystem(commands2.Subsystem):
    """The drive as a commands2 subsystem."""

    def __init__(self, drive: SwerveDrive) -> None:
        super().__init__()
        self.drive = drive
        self._drive_sysid: SysIdRoutine | None = None
        self._angle_sysid: SysIdRoutine | None = None
        self._rotation_sysid: SysIdRoutine | None = None
        self.last_wheel_diameter: WheelDiameter | None = None
        # What went wrong in the last wheel diameter measurement, if anything (also printed).
        self._wheel_radius_alert = FaultAlert(
            "Swerve wheel radius", wpilib.Alert.AlertType.kWarning
        )

    def periodic(self) -> None:
        self.drive.periodic()

    # -- driving ------------------------------------------------------------------------------
    def drive_command(
        self, vx: Speed, vy: Speed, omega: Speed, *, field_relative: bool = True
    ) -> commands2.Command:
        """Drive at (vx, vy) m/s and omega rad/s, read from the suppliers every loop."""
        return self.run(
            lambda: self.drive.drive(
                ChassisSpeeds(vx(), vy(), omega()), field_relative=field_relative
            )
        ).withName("swerve drive")

    def heading_command(
        self, vx: Speed, vy: Speed, heading: Callable[[], Rotation2d]
    ) -> commands2.Command:
        """Translate field-relative at (vx, vy) m/s while holding ``heading()``."""
        return self.run(lambda: self.drive.drive_facing(vx(), vy(), heading())).withName(
            "swerve heading"
        )

    def input_command(self, stream: SwerveInput | Callable[[], SwerveInput]) -> commands2.Command:
        """Drive from a :class:`~swervelib.input_stream.SwerveInput` every loop; ``stream`` may be
        a function choosing this loop's copy (e.g. heading mode unless a button is held: copies
        share their state, so the switch has no jump)."""
        choose = stream if not isinstance(stream, SwerveInput) else (lambda: stream)
        return self.run(lambda: choose().apply(self.drive)).withName("swerve input")

    def lock_command(self) -> commands2.Command:
        """The wheels in an X, holding the robot in place, for as long as the command runs."""
        return self.run(self.drive.lock).withName("swerve lock")

    def point_wheels_command(
        self, direction: Rotation2d | Callable[[], Rotation2d]
    ) -> commands2.Command:
        """Every wheel turned to ``direction`` (robot-relative; or a function giving it each
        loop) without driving, for as long as the command runs (phoenix6's ``PointWheelsAt``:
        pre-align the wheels before autonomous, or check the steering)."""
        choose = direction if callable(direction) else (lambda: direction)
        return self.run(lambda: self.drive.point_wheels_at(choose())).withName(
            "swerve point wheels"
        )

    def stop_command(self) -> commands2.Command:
        """Stop once (drive motors at 0 V, wheels where they are)."""
        return self.runOnce(self.drive.stop).withName("swerve stop")

    def zero_heading_command(self, *, alliance_relative: bool = False) -> commands2.Command:
        """The robot's heading becomes 0: it now faces the field's forward direction (YAGSL's
        ``zeroGyro``). With ``alliance_relative`` it faces away from its driver on either alliance:
        0 on the blue alliance, π on the red (as phoenix6's ``seedFieldCentric`` takes the
        operator's forward), the pairing for alliance-relative sticks
        (:meth:`~swervelib.input_stream.SwerveInput.alliance_relative_mode`), which keeps the pose
        on the blue-origin field that paths and vision use."""

        def zero() -> None:
            facing = Rotation2d(math.pi) if alliance_relative and red_alliance() else None
            self.drive.zero_heading(facing)

        return commands2.InstantCommand(zero).withName("swerve zero heading")

    # -- characterisation ---------------------------------------------------------------------
    def sysid_drive(self) -> SysIdRoutine:
        """The drive motors' SysId routine (see :mod:`swervelib.sysid`), made once."""
        if self._drive_sysid is None:
            self._drive_sysid = drive_routine(self.drive, self)
        return self._drive_sysid

    def sysid_angle(self) -> SysIdRoutine:
        """The angle motors' SysId routine (see :mod:`swervelib.sysid`), made once."""
        if self._angle_sysid is None:
            self._angle_sysid = angle_routine(self.drive, self)
        return self._angle_sysid

    def sysid_rotation(self) -> SysIdRoutine:
        """The robot's rotation SysId routine, for the heading controller (see
        :func:`swervelib.sysid.rotation_routine`), made once."""
        if self._rotation_sysid is None:
            self._rotation_sysid = rotation_routine(self.drive, self)
        return self._rotation_sysid

    def sysid_commands(self, routine: SysIdRoutine) -> list[commands2.Command]:
        """A routine's four tests, in the order SysId wants them: quasistatic forward and
        backward, then dynamic forward and backward."""
        forward, reverse = SysIdRoutine.Direction.kForward, SysIdRoutine.Direction.kReverse
        return [
            routine.quasistatic(forward),
            routine.quasistatic(reverse),
            routine.dynamic(forward),
            routine.dynamic(reverse),
        ]

    def wheel_radius_command(self, omega: float = 1.5) -> commands2.Command:
        """Spin in place at ``omega`` rad/s for as long as the command runs (hold a button: a few
        turns, on carpet); when it ends, print the measured wheel diameter and keep it as
        ``last_wheel_diameter`` (see :mod:`swervelib.wheel_radius`, whose
        ``write_wheel_diameter`` puts it in the configuration from a laptop).

        What went wrong is printed and shown on the ``Swerve wheel radius`` warning Alert (until
        the next measurement): a wheel that did not roll (its drive encoder stopped answering),
        measured without, or nothing measured and why. A configuration with no wheel diameter
        (``conversionFactors.drive`` given as a factor) cannot be measured: the command says so
        and ends at once, without moving the robot. It never raises."""
        measuring: list[WheelRadiusCharacterization] = []  # the measurement under way, if any

        def start() -> None:
            self._wheel_radius_alert.update(None)
            measuring.clear()
            try:
                measuring.append(WheelRadiusCharacterization(self.drive, omega))
            except ValueError as error:  # nothing to measure: the command ends (is_finished)
                self._wheel_radius_problem(f"wheel diameter cannot be measured: {error}")

        def execute() -> None:
            if measuring:
                measuring[0].step()

        def end(interrupted: bool) -> None:
            if not measuring:
                return  # it never started: the robot was left alone
            characterization = measuring.pop()
            self.drive.stop()
            try:
                self.last_wheel_diameter = result = characterization.result()
            except ValueError as error:
                self._wheel_radius_problem(f"wheel diameter not measured: {error}")
                return
            print(
                f"wheel diameter {result.diameter_in:.3f} in ({result.diameter_m * 1000:.1f} mm) "
                f"over {abs(result.turned_rad) / math.tau:.2f} turns; configured "
                f"{characterization.configured_m / INCH:.3f} in"
            )
            if result.left_out:
                its = "its drive encoder" if len(result.left_out) == 1 else "their drive encoders"
                self._wheel_radius_problem(
                    f"wheel diameter measured without {', '.join(result.left_out)}, which did "
                    f"not roll ({its} counted less than a quarter of the travel: not answering?)"
                )

        return commands2.FunctionalCommand(
            start, execute, end, lambda: not measuring, self
        ).withName("swerve wheel radius")

    def _wheel_radius_problem(self, text: str) -> None:
        """Printed (the robot console) and shown on the ``Swerve wheel radius`` Alert."""
        print(text)
        self._wheel_radius_alert.update(text)
