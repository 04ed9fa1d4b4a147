"""Joystick input for the test drive routine (heading mode): the left stick translates, the right stick
points the robot.

Typical robot code::

    from swervelib.input import HeadingDriveInput

    def robotInit(self):
        self.swerve = SwerveDrive.from_directory()
        pad = wpilib.XboxController(0)
        self.sticks = HeadingDriveInput.for_drive(
            self.swerve, pad.getLeftX, pad.getLeftY, pad.getRightX, pad.getRightY
        )

    def teleopInit(self):
        self.sticks.reset_heading()          # hold the heading the robot has now

    def teleopPeriodic(self):
        self.sticks.apply(self.swerve)       # SwerveDrive.drive_facing, field-oriented

The four callables return **raw joystick axes**, as WPILib reports them: X positive to the right,
Y positive towards the driver (back). The robot's axes are X forward and Y left, so the routine
negates and swaps them (:func:`joystick_to_robot`); do not negate them yourself.

Each loop:

1. translation: a deadband on each left-stick axis (:func:`apply_deadband`, its own constant per
   axis, rescaled so the output starts from 0 at the edge), conversion to robot axes, then the
   vector's magnitude (clamped to 1) is scaled by ``translation_scale`` and cubed, keeping its
   direction (:func:`scale_and_cube`): full stick is ``(0.8)³ = 0.512`` of the maximum speed with
   the defaults, as with YAGSL's ``scaleTranslation(0.8).cubeTranslationControllerAxis(true)``;
2. heading: the right stick's direction in robot axes is an absolute target heading, 0 forward
   and +90° left (:func:`stick_heading`); inside the radius deadband the last target is kept, so
   letting go of the stick keeps the robot facing where it was pointed;
3. output: field-oriented ``vx, vy`` (m/s) and the target heading (radians). :meth:`apply` hands
   them to :meth:`SwerveDrive.drive_facing`, whose heading PID (``controllerproperties.json``)
   compares the target with the current odometry heading and turns the robot at up to
   ``max_angular_velocity``; the drive converts the field-oriented speeds with the same odometry
   heading.

**Heading correction is not needed here**, as in the spec's routine: the angular velocity comes
only from ``drive_facing``'s heading PID towards the target heading, which already holds the
heading when the stick is released. The drive's own heading correction
(``SwerveDrive.set_heading_correction``, YAGSL's ``setHeadingCorrection``; off by default) never
acts inside ``drive_facing`` nor in autonomous, so this routine is never fought by it.

Only the standard library is imported here; wpimath is imported by :meth:`apply`.

:class:`~swervelib.input_stream.SwerveInput` (every mode: rate, heading, aim, drive to pose; curves,
alliance-relative control) is importable from here too, and imports wpimath when first used.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, NamedTuple, Protocol

if TYPE_CHECKING:
    from wpimath.geometry import Rotation2d

    from swervelib.drive.swerve_drive import SwerveDrive

__all__ = [
    "DEFAULT_HEADING_DEADBAND",
    "DEFAULT_TRANSLATION_DEADBAND",
    "DEFAULT_TRANSLATION_SCALE",
    "DriveRequest",
    "HeadingDrive",
    "HeadingDriveInput",
    "apply_deadband",
    "joystick_to_robot",
    "scale_and_cube",
    "stick_heading",
]


def __getattr__(name: str) -> object:
    """``SwerveInput`` and ``Curve`` from :mod:`swervelib.input_stream`, imported when asked for."""
    if name in ("SwerveInput", "Curve"):
        from swervelib import input_stream

        return getattr(input_stream, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


Axis = Callable[[], float]
"""A joystick axis: returns -1..1, WPILib's sign (X right positive, Y back positive)."""

DEFAULT_TRANSLATION_SCALE = 0.8
DEFAULT_TRANSLATION_DEADBAND = 0.1
DEFAULT_HEADING_DEADBAND = 0.5  # when no controllerproperties.json gives one


# -- the maths (pure functions) -------------------------------------------------------------------
def apply_deadband(value: float, deadband: float) -> float:
    """0 when ``|value| <= deadband``, else rescaled so ``deadband..1`` maps to ``0..1``.

    Continuous at the edge and odd, like WPILib's ``MathUtil.applyDeadband``. A value that is not
    finite (a disconnected or faulty controller) gives 0.
    """
    if not math.isfinite(value) or abs(value) <= deadband:
        return 0.0
    return math.copysign((abs(value) - deadband) / (1.0 - deadband), value)


def joystick_to_robot(stick_x: float, stick_y: float) -> tuple[float, float]:
    """Joystick axes (X right, Y back) to robot axes: ``(forward, left) = (-stick_y, -stick_x)``."""
    return 0.0 - stick_y, 0.0 - stick_x  # 0.0 - v: no negative zeros


def scale_and_cube(x: float, y: float, scale: float, cube: bool = True) -> tuple[float, float]:
    """Scale the vector's magnitude (clamped to 1 first) by ``scale``, then cube it if ``cube``.

    The direction is kept; the result's magnitude is at most ``scale`` (``scale³`` when cubed).
    """
    length = math.hypot(x, y)
    if not math.isfinite(length) or length == 0.0:
        return 0.0, 0.0
    magnitude = min(1.0, length) * scale
    if cube:
        magnitude = magnitude**3
    return x / length * magnitude, y / length * magnitude


def stick_heading(stick_x: float, stick_y: float, deadband: float, last: float) -> float:
    """The heading (radians, in (-π, π]) a heading stick points to; ``last`` inside the deadband.

    Raw joystick axes: pushed forward is 0, left +π/2, right -π/2, back π. The deadband is on the
    stick's deflection (radius); a released stick (deflection 0) always keeps ``last``.
    """
    forward, left = joystick_to_robot(stick_x, stick_y)
    deflection = math.hypot(forward, left)
    if not math.isfinite(deflection) or deflection <= deadband:
        return last
    heading = math.atan2(left, forward)
    # atan2 gives -π for a stick straight back with a tiny (or -0.0) sideways component.
    return math.pi if heading <= -math.pi else heading


# -- the routine ----------------------------------------------------------------------------------
class DriveRequest(NamedTuple):
    """One loop's output: field-oriented speeds (m/s) and the target heading (radians)."""

    vx: float
    vy: float
    heading: float


class HeadingDrive(Protocol):
    """What :meth:`HeadingDriveInput.apply` needs of a drive (``SwerveDrive`` has it)."""

    @property
    def max_speed(self) -> float: ...

    @property
    def pose_resets(self) -> int: ...

    def get_heading(self) -> Rotation2d: ...

    def drive_facing(
        self, vx: float, vy: float, heading: Rotation2d, *, field_relative: bool = True
    ) -> None: ...


@dataclass
class HeadingDriveInput:
    """The test drive routine (heading mode): four joystick axes to translation and a target heading.

    ``translation_x``/``translation_y`` are the left stick's raw X and Y axes, ``heading_x``/
    ``heading_y`` the right stick's. The deadbands are per translation axis (named after the
    joystick axis they apply to); the heading stick has only its radius deadband.
    ``target_heading`` (radians) is ``None`` until the first loop, or after :meth:`reset_heading`
    without an angle, and then becomes the robot's current heading.
    """

    translation_x: Axis
    translation_y: Axis
    heading_x: Axis
    heading_y: Axis
    _: KW_ONLY
    translation_scale: float = DEFAULT_TRANSLATION_SCALE
    cube_translation: bool = True
    translation_x_deadband: float = DEFAULT_TRANSLATION_DEADBAND
    translation_y_deadband: float = DEFAULT_TRANSLATION_DEADBAND
    heading_deadband: float = DEFAULT_HEADING_DEADBAND
    target_heading: float | None = field(default=None, init=False)
    # The drive's pose_resets when last seen (None: take it without a change of target).
    _pose_resets: int | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if not 0.0 < self.translation_scale <= 1.0:
            raise ValueError(f"translation_scale must be in (0, 1], not {self.translation_scale}")
        for name in ("translation_x_deadband", "translation_y_deadband"):
            value = getattr(self, name)
            if not 0.0 <= value < 1.0:  # (the deadband is rescaled by 1 / (1 - deadband))
                raise ValueError(f"{name} must be in [0, 1), not {value}")
        # A radius, not rescaled: 1 is allowed, as angleJoystickRadiusDeadband (only a stick pushed
        # into a corner, beyond radius 1, then sets a heading).
        if not 0.0 <= self.heading_deadband <= 1.0:
            raise ValueError(f"heading_deadband must be in [0, 1], not {self.heading_deadband}")

    @classmethod
    def for_drive(
        cls,
        drive: SwerveDrive,
        translation_x: Axis,
        translation_y: Axis,
        heading_x: Axis,
        heading_y: Axis,
        *,
        translation_scale: float = DEFAULT_TRANSLATION_SCALE,
        cube_translation: bool = True,
        translation_x_deadband: float = DEFAULT_TRANSLATION_DEADBAND,
        translation_y_deadband: float = DEFAULT_TRANSLATION_DEADBAND,
    ) -> HeadingDriveInput:
        """Like the constructor, with the heading deadband from ``controllerproperties.json``
        (``angleJoystickRadiusDeadband``), or ``DEFAULT_HEADING_DEADBAND`` without that file."""
        controller = drive.config.controller
        return cls(
            translation_x,
            translation_y,
            heading_x,
            heading_y,
            translation_scale=translation_scale,
            cube_translation=cube_translation,
            translation_x_deadband=translation_x_deadband,
            translation_y_deadband=translation_y_deadband,
            heading_deadband=(
                controller.angle_joystick_radius_deadband
                if controller is not None
                else DEFAULT_HEADING_DEADBAND
            ),
        )

    def reset_heading(self, heading: float | None = None) -> None:
        """Set the target heading (radians); ``None`` takes the robot's heading at the next loop.

        Call it on enable and after driving in another mode, so the robot does not turn back to an
        old target. After ``SwerveDrive.zero_heading()`` or ``reset_pose()`` :meth:`apply` holds
        the heading the robot then has by itself (as YAGSL's ``zeroGyro`` resets the controller's
        last angle); a target given here after the reset stands. A heading that is not a finite
        number counts as ``None``: a NaN target would stop the robot until the heading stick
        moves again.
        """
        self.target_heading = heading if heading is not None and math.isfinite(heading) else None
        self._pose_resets = None

    def translation(self) -> tuple[float, float]:
        """The left stick as robot-axis fractions of the maximum speed (deadband, scale, cube)."""
        forward, left = joystick_to_robot(
            apply_deadband(self.translation_x(), self.translation_x_deadband),
            apply_deadband(self.translation_y(), self.translation_y_deadband),
        )
        return scale_and_cube(forward, left, self.translation_scale, self.cube_translation)

    def calculate(self, current_heading: float, max_speed: float) -> DriveRequest:
        """Read the sticks once: field-oriented (vx, vy) in m/s and the target heading (rad).

        ``current_heading`` is the odometry heading (radians), used while no target is set.
        """
        x, y = self.translation()
        last = current_heading if self.target_heading is None else self.target_heading
        self.target_heading = stick_heading(
            self.heading_x(), self.heading_y(), self.heading_deadband, last
        )
        return DriveRequest(x * max_speed, y * max_speed, self.target_heading)

    def apply(self, drive: HeadingDrive, *, field_relative: bool = True) -> DriveRequest:
        """Read the sticks and command ``drive.drive_facing``; returns what was commanded."""
        from wpimath.geometry import Rotation2d

        resets = drive.pose_resets
        if resets != self._pose_resets:
            # The pose was reset: the held target was a heading in the old frame. Hold where the
            # robot faces now rather than turn to the old number in the new frame.
            if self._pose_resets is not None:
                self.target_heading = None
            self._pose_resets = resets
        request = self.calculate(drive.get_heading().radians(), drive.max_speed)
        drive.drive_facing(
            request.vx, request.vy, Rotation2d(request.heading), field_relative=field_relative
        )
        return request
