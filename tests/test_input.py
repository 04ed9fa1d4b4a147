"""The spec §4 test drive routine (swervelib.input): property tests of the maths, and a fake drive."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from wpimath.geometry import Rotation2d

from swervelib.input import (
    DEFAULT_HEADING_DEADBAND,
    HeadingDriveInput,
    apply_deadband,
    joystick_to_robot,
    scale_and_cube,
    stick_heading,
)

axis = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)
wide = st.floats(min_value=-10.0, max_value=10.0, allow_nan=False)
deadband = st.floats(min_value=0.0, max_value=0.9)
scale = st.floats(min_value=0.01, max_value=1.0)
heading = st.floats(min_value=-math.pi, max_value=math.pi)


def same_angle(a: float, b: float, tolerance: float = 1e-9) -> bool:
    return abs(math.remainder(a - b, math.tau)) < tolerance


# -- deadband --------------------------------------------------------------------------------------
@given(axis, deadband)
def test_deadband_zeroes_small_inputs(value: float, band: float) -> None:
    if abs(value) <= band:
        assert apply_deadband(value, band) == 0.0


@given(axis, deadband)
def test_deadband_is_odd_bounded_and_keeps_the_sign(value: float, band: float) -> None:
    out = apply_deadband(value, band)
    assert abs(out) <= 1.0
    assert out == -apply_deadband(-value, band)
    assert out == 0.0 or math.copysign(1.0, out) == math.copysign(1.0, value)


@given(deadband, st.floats(min_value=0.0, max_value=0.05))
def test_deadband_is_continuous_at_the_edge_and_reaches_full(band: float, past: float) -> None:
    # Just past the edge the output is just above 0 (rescaled, no jump to `band`).
    assert apply_deadband(band + past, band) <= past / (1.0 - band) + 1e-12
    assert apply_deadband(1.0, band) == pytest.approx(1.0)
    assert apply_deadband(-1.0, band) == pytest.approx(-1.0)


@given(deadband, axis, axis)
def test_deadband_is_monotonic(band: float, a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert apply_deadband(low, band) <= apply_deadband(high, band)


def test_deadband_of_a_bad_reading_is_zero() -> None:
    assert apply_deadband(math.nan, 0.1) == 0.0
    assert apply_deadband(math.inf, 0.1) == 0.0


# -- axis conversion -------------------------------------------------------------------------------
def test_axis_conversion_signs() -> None:
    assert joystick_to_robot(0.0, -1.0) == (1.0, 0.0)  # stick forward: robot +x
    assert joystick_to_robot(-1.0, 0.0) == (0.0, 1.0)  # stick left: robot +y
    assert joystick_to_robot(0.0, 1.0) == (-1.0, 0.0)  # back: -x
    assert joystick_to_robot(1.0, 0.0) == (0.0, -1.0)  # right: -y


@given(axis, axis)
def test_axis_conversion_is_negate_and_swap(x: float, y: float) -> None:
    forward, left = joystick_to_robot(x, y)
    assert (forward, left) == (-y, -x)


# -- scale and cube --------------------------------------------------------------------------------
@given(wide, wide, scale, st.booleans())
def test_scaled_magnitude_is_at_most_scale(x: float, y: float, s: float, cube: bool) -> None:
    ox, oy = scale_and_cube(x, y, s, cube)
    limit = s**3 if cube else s
    assert math.hypot(ox, oy) <= limit * (1 + 1e-12)


@given(wide, wide, scale, st.booleans())
def test_scale_and_cube_keeps_the_direction(x: float, y: float, s: float, cube: bool) -> None:
    ox, oy = scale_and_cube(x, y, s, cube)
    out = math.hypot(ox, oy)
    assume(out > 1e-12)
    length = math.hypot(x, y)
    # Unit vectors agree: same direction, not reversed.
    assert ox / out == pytest.approx(x / length, abs=1e-9)
    assert oy / out == pytest.approx(y / length, abs=1e-9)


@given(st.floats(min_value=0.0, max_value=1.0), heading, scale)
def test_cubing_acts_on_the_magnitude(m: float, angle: float, s: float) -> None:
    ox, oy = scale_and_cube(m * math.cos(angle), m * math.sin(angle), s, cube=True)
    assert math.hypot(ox, oy) == pytest.approx((m * s) ** 3, rel=1e-9, abs=1e-12)
    ox, oy = scale_and_cube(m * math.cos(angle), m * math.sin(angle), s, cube=False)
    assert math.hypot(ox, oy) == pytest.approx(m * s, rel=1e-9, abs=1e-12)


def test_scale_and_cube_of_zero_and_full_stick() -> None:
    assert scale_and_cube(0.0, 0.0, 0.8) == (0.0, 0.0)
    x, y = scale_and_cube(1.0, 0.0, 0.8)
    assert (x, y) == (pytest.approx(0.512), 0.0)
    # Diagonal full stick (|v| = √2) is clamped to 1 first: no faster than straight.
    x, y = scale_and_cube(1.0, 1.0, 0.8)
    assert math.hypot(x, y) == pytest.approx(0.512)


# -- heading stick ---------------------------------------------------------------------------------
def test_heading_stick_directions() -> None:
    assert stick_heading(0.0, -1.0, 0.5, 1.0) == 0.0  # forward
    assert stick_heading(-1.0, 0.0, 0.5, 1.0) == pytest.approx(math.pi / 2)  # left: +90°
    assert stick_heading(1.0, 0.0, 0.5, 1.0) == pytest.approx(-math.pi / 2)  # right: -90°
    assert stick_heading(0.0, 1.0, 0.5, 1.0) == pytest.approx(math.pi)  # back: +180°, not -180°
    assert stick_heading(-1.0, -1.0, 0.5, 1.0) == pytest.approx(math.pi / 4)


@given(heading, st.floats(min_value=0.0, max_value=0.95), st.floats(min_value=0.0, max_value=1.0))
@example(-math.pi, 0.0, 1.0)  # straight back: atan2 says -π, the heading range is (-π, π]
def test_heading_stick_points_the_robot_or_holds(angle: float, band: float, m: float) -> None:
    # A stick deflected by m towards `angle` (robot axes), as raw joystick axes.
    raw_x, raw_y = -m * math.sin(angle), -m * math.cos(angle)
    last = 0.1234
    result = stick_heading(raw_x, raw_y, band, last)
    if math.hypot(raw_x, raw_y) <= band:
        assert result == last
    elif m > 1e-6:
        assert same_angle(result, angle, 1e-6)
    assert -math.pi < result <= math.pi or result == last


@given(deadband, heading)
def test_released_heading_stick_holds_the_last_heading(band: float, last: float) -> None:
    assert stick_heading(0.0, 0.0, band, last) == last
    assert stick_heading(math.nan, 0.0, band, last) == last


# -- the routine -----------------------------------------------------------------------------------
@dataclass
class Sticks:
    """Four raw joystick axes a test sets directly."""

    lx: float = 0.0
    ly: float = 0.0
    rx: float = 0.0
    ry: float = 0.0

    def routine(self, **options: Any) -> HeadingDriveInput:
        return HeadingDriveInput(
            lambda: self.lx, lambda: self.ly, lambda: self.rx, lambda: self.ry, **options
        )


@dataclass
class FakeDrive:
    """A SwerveDrive-like fake that records drive_facing calls."""

    heading: float = 0.0
    max_speed: float = 4.0
    pose_resets: int = 0
    calls: list[tuple[float, float, float, bool]] = field(default_factory=list)
    config: Any = None

    def get_heading(self) -> Rotation2d:
        return Rotation2d(self.heading)

    def drive_facing(
        self, vx: float, vy: float, heading: Rotation2d, *, field_relative: bool = True
    ) -> None:
        self.calls.append((vx, vy, heading.radians(), field_relative))


def test_routine_drives_a_fake_drive() -> None:
    sticks, drive = Sticks(), FakeDrive(heading=0.7)
    routine = sticks.routine()

    # Released sticks: no translation, and the robot keeps the heading it has.
    routine.apply(drive)
    assert drive.calls[-1] == (0.0, 0.0, pytest.approx(0.7), True)

    # Left stick fully forward: +x at 0.8³ of max speed; right stick still released.
    sticks.ly = -1.0
    request = routine.apply(drive)
    assert request.vx == pytest.approx(0.512 * 4.0)
    assert request.vy == 0.0
    assert drive.calls[-1] == (pytest.approx(2.048), 0.0, pytest.approx(0.7), True)

    # Left stick fully left: +y.
    sticks.lx, sticks.ly = -1.0, 0.0
    vx, vy, _ = routine.apply(drive)
    assert (vx, vy) == (0.0, pytest.approx(2.048))

    # Right stick left: face +90°, and keep facing it once released, whatever the robot does.
    sticks.lx, sticks.rx = 0.0, -1.0
    assert routine.apply(drive).heading == pytest.approx(math.pi / 2)
    sticks.rx = 0.0
    drive.heading = -2.0
    assert routine.apply(drive).heading == pytest.approx(math.pi / 2)
    assert drive.calls[-1][2] == pytest.approx(math.pi / 2)

    # A wobble inside the radius deadband does not move the target.
    sticks.rx, sticks.ry = 0.3, 0.3
    assert routine.apply(drive).heading == pytest.approx(math.pi / 2)

    # reset_heading(): to an angle, or to the robot's heading at the next loop.
    sticks.rx = sticks.ry = 0.0
    routine.reset_heading(0.0)
    assert routine.apply(drive).heading == 0.0
    routine.reset_heading()
    assert routine.apply(drive).heading == pytest.approx(-2.0)
    # A heading that is not finite would stop the robot until the stick moves: taken as None.
    drive.heading = 1.0
    routine.reset_heading(math.nan)
    assert routine.apply(drive).heading == pytest.approx(1.0)

    routine.apply(drive, field_relative=False)
    assert drive.calls[-1][3] is False


def test_per_axis_deadbands_apply_to_translation_only() -> None:
    sticks, drive = Sticks(lx=-0.15, ly=-0.15, rx=-0.6), FakeDrive()
    routine = sticks.routine(
        translation_x_deadband=0.2, translation_y_deadband=0.05, heading_deadband=0.5
    )
    vx, vy, target = routine.apply(drive)
    assert vy == 0.0  # raw X inside its 0.2 deadband
    assert vx > 0.0  # raw Y outside its 0.05 deadband
    assert target == pytest.approx(math.pi / 2)  # the heading stick is not per-axis deadbanded


def test_scale_and_cube_options() -> None:
    sticks, drive = Sticks(ly=-1.0), FakeDrive(max_speed=2.0)
    assert sticks.routine(cube_translation=False).apply(drive).vx == pytest.approx(1.6)
    assert sticks.routine(translation_scale=1.0).apply(drive).vx == pytest.approx(2.0)


def test_calculate_without_a_drive() -> None:
    sticks = Sticks(ly=-1.0, rx=1.0)
    vx, vy, target = sticks.routine().calculate(current_heading=0.3, max_speed=1.0)
    assert (vx, vy) == (pytest.approx(0.512), 0.0)
    assert target == pytest.approx(-math.pi / 2)


@pytest.mark.parametrize(
    "options",
    [
        {"translation_scale": 0.0},
        {"translation_scale": 1.5},
        {"translation_x_deadband": 1.0},
        {"translation_y_deadband": -0.1},
        {"heading_deadband": 1.01},
        {"heading_deadband": math.nan},
    ],
)
def test_bad_constants_are_refused(options: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Sticks().routine(**options)


def test_a_heading_deadband_of_1_is_taken_as_controllerproperties_allows_it() -> None:
    """angleJoystickRadiusDeadband may be 1 (the loader's range is [0, 1]): only a stick pushed
    beyond radius 1, into a corner, then sets the heading."""
    sticks, drive = Sticks(rx=-1.0), FakeDrive()
    routine = sticks.routine(heading_deadband=1.0)
    assert routine.apply(drive).heading == 0.0  # straight left, radius 1: inside, kept
    sticks.rx, sticks.ry = -1.0, -1.0  # forward-left corner: radius 1.41
    assert routine.apply(drive).heading == pytest.approx(math.pi / 4)


def test_for_drive_takes_the_heading_deadband_from_controllerproperties() -> None:
    def build(controller: Any) -> HeadingDriveInput:
        drive: Any = SimpleNamespace(config=SimpleNamespace(controller=controller))
        zero = lambda: 0.0  # noqa: E731
        return HeadingDriveInput.for_drive(drive, zero, zero, zero, zero, translation_scale=0.5)

    configured = build(SimpleNamespace(angle_joystick_radius_deadband=0.25))
    assert configured.heading_deadband == 0.25
    assert configured.translation_scale == 0.5
    assert build(None).heading_deadband == DEFAULT_HEADING_DEADBAND


def test_input_module_does_not_import_wpilib() -> None:
    import subprocess
    import sys

    from tests.conftest import REPO

    code = "import sys, swervelib.input; print('wpilib' in sys.modules, 'wpimath' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert out.stdout.split() == ["False", "False"]


def test_routine_holds_the_new_heading_after_a_pose_reset() -> None:
    sticks, drive = Sticks(), FakeDrive(heading=0.0)
    routine = sticks.routine()
    sticks.rx = -1.0  # face +90°
    routine.apply(drive)
    sticks.rx = 0.0
    drive.heading = math.pi / 2
    assert routine.apply(drive).heading == pytest.approx(math.pi / 2)
    drive.heading, drive.pose_resets = 0.0, 1  # zero_heading(): the robot faces 0 now
    assert routine.apply(drive).heading == pytest.approx(0.0)  # not +90° in the new frame
    drive.pose_resets = 2
    routine.reset_heading(1.0)  # a target given after the reset stands
    assert routine.apply(drive).heading == pytest.approx(1.0)
