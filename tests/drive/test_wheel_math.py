"""The plain-float kinematics of the per-loop paths against WPILib's own (property tests).

``swervelib.drive.wheel_math`` does what ``ChassisSpeeds.discretize``, ``toSwerveModuleStates``,
``desaturateWheelSpeeds``, ``toChassisSpeeds`` and ``toTwist2d`` do, without their objects; these
tests hold it to WPILib's answers on random robots and requests.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from wpimath import kinematics
from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModulePosition, SwerveModuleState

from swervelib.config import load_directory
from swervelib.drive.module import SwerveModule
from swervelib.drive.state import DriveState
from swervelib.drive.wheel_math import TINY_SPEED, WheelKinematics, discretize
from tests.conftest import DEPLOY

speeds = st.floats(min_value=-6.0, max_value=6.0, allow_nan=False)
spins = st.floats(min_value=-12.0, max_value=12.0, allow_nan=False)
coordinates = st.floats(min_value=-0.6, max_value=0.6, allow_nan=False)
# WPILib has swerve kinematics for 2, 3, 4 and 6 modules (so has swervelib)
locations = st.sampled_from([2, 3, 4, 6]).flatmap(
    lambda n: st.lists(st.tuples(coordinates, coordinates), min_size=n, max_size=n)
)
TOLERANCE = 1e-9


def spread(points: list[tuple[float, float]]) -> bool:
    """Modules far enough apart to tell a rotation (a real robot's are, by tens of cm)."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return max(max(xs) - min(xs), max(ys) - min(ys)) > 0.1


def wpilib_kinematics(points: list[tuple[float, float]]) -> object:
    cls = getattr(kinematics, f"SwerveDrive{len(points)}Kinematics")
    return cls(*(Translation2d(x, y) for x, y in points))


def same_direction_deg(a: float, b: float) -> bool:
    return abs(math.remainder(a - b, 360.0)) < 1e-7


@given(speeds, speeds, spins, st.sampled_from([0.005, 0.02, 0.05]))
def test_discretize_is_wpilibs(vx: float, vy: float, omega: float, dt: float) -> None:
    theirs = ChassisSpeeds.discretize(ChassisSpeeds(vx, vy, omega), dt)
    ours = discretize(vx, vy, omega, dt)
    assert ours[0] == pytest.approx(theirs.vx, abs=TOLERANCE)
    assert ours[1] == pytest.approx(theirs.vy, abs=TOLERANCE)
    assert ours[2] == pytest.approx(theirs.omega, abs=TOLERANCE)


def as_wpilib_centre(cx: float, cy: float) -> tuple[float, float]:
    """A centre of rotation as WPILib's kinematics uses it.

    WPILib keeps the matrix of the last centre of rotation (at first the robot's centre) and
    reuses it for a new centre that equals it by ``Translation2d``'s comparison: both coordinates
    within 1e-9 m. So a centre (3e-10, 0) is computed as the origin, where swervelib computes it
    exactly. The difference is a few nanometres per second, beyond :data:`TOLERANCE`, so such a
    centre is given to both as the origin WPILib uses."""
    return (0.0, 0.0) if abs(cx) < 1e-9 and abs(cy) < 1e-9 else (cx, cy)


@given(locations, speeds, speeds, spins, coordinates, coordinates, st.floats(0.5, 6.0))
# Found by Hypothesis: centres WPILib takes for the origin (see as_wpilib_centre)
@example([(0.0, 0.0), (0.0, 0.5)], 1.0, 0.0, 3.0, 3.0898963310065617e-10, 0.0, 1.0)
@example([(0.0, 0.0), (0.0, 0.5)], 0.0, 0.0, 4.0, 3.0898963310065617e-10, 0.0, 2.0)
def test_module_targets_are_wpilibs_states_desaturated(
    points: list[tuple[float, float]],
    vx: float,
    vy: float,
    omega: float,
    cx: float,
    cy: float,
    top: float,
) -> None:
    assume(spread(points))
    cx, cy = as_wpilib_centre(cx, cy)
    theirs_kinematics = wpilib_kinematics(points)
    states = theirs_kinematics.toSwerveModuleStates(  # type: ignore[attr-defined]
        ChassisSpeeds(vx, vy, omega), Translation2d(cx, cy)
    )
    states = theirs_kinematics.desaturateWheelSpeeds(states, top)  # type: ignore[attr-defined]
    ours = WheelKinematics(points).module_targets(vx, vy, omega, top, cx, cy)
    for state, (speed, angle) in zip(states, ours, strict=True):
        assert speed == pytest.approx(state.speed, abs=TOLERANCE)
        assert abs(speed) <= top + TOLERANCE
        if angle is None:  # too slow to tell a direction: WPILib keeps an earlier heading
            assert speed <= TINY_SPEED
        else:
            assert same_direction_deg(angle, state.angle.degrees())


def test_a_zero_request_keeps_every_angle() -> None:
    wheels = WheelKinematics([(0.3, 0.3), (0.3, -0.3), (-0.3, 0.3), (-0.3, -0.3)])
    assert wheels.module_targets(0.0, 0.0, 0.0, 4.0) == [(0.0, None)] * 4
    # spinning about one module's own location: that module does not move
    spin = wheels.module_targets(0.0, 0.0, 2.0, 4.0, 0.3, 0.3)
    assert spin[0] == (0.0, None)
    assert all(angle is not None for _, angle in spin[1:])


@given(locations, st.lists(st.tuples(speeds, st.floats(-720.0, 720.0)), min_size=6, max_size=6))
def test_chassis_speeds_are_wpilibs_least_squares(
    points: list[tuple[float, float]], readings: list[tuple[float, float]]
) -> None:
    assume(spread(points))
    readings = readings[: len(points)]
    theirs = wpilib_kinematics(points).toChassisSpeeds(  # type: ignore[attr-defined]
        [SwerveModuleState(speed, Rotation2d.fromDegrees(angle)) for speed, angle in readings]
    )
    ours = WheelKinematics(points).chassis_speeds(
        [speed for speed, _ in readings], [angle for _, angle in readings]
    )
    assert ours == pytest.approx((theirs.vx, theirs.vy, theirs.omega), abs=1e-9)
    # telemetry's one pass: the same speeds, and each module's speed and angle (radians) in turn
    flat: list[float] = []
    wheels = WheelKinematics(points)
    speeds_in, angles_in = [speed for speed, _ in readings], [angle for _, angle in readings]
    assert wheels.chassis_speeds(speeds_in, angles_in, flat) == ours
    assert flat == [v for speed, angle in readings for v in (speed, math.radians(angle))]


@given(st.lists(st.tuples(speeds, st.floats(-720.0, 720.0)), min_size=4, max_size=4))
def test_module_state_values_are_the_same_whoever_asks_first(
    readings: list[tuple[float, float]],
) -> None:
    """``DriveState.module_state_values`` works out ``measured`` on the way, or reuses it."""
    points = [(0.3, 0.3), (0.3, -0.3), (-0.3, 0.3), (-0.3, -0.3)]
    velocities = [speed for speed, _ in readings]
    angles = [angle for _, angle in readings]
    wheels = WheelKinematics(points)

    def state() -> DriveState:
        return DriveState(
            0.0, Pose2d(), 0.0, (), velocities, angles, (0.0, 0.0, 0.0), [], 0.02, wheels
        )

    values_first = state()
    values = values_first.module_state_values()
    measured_first = state()
    measured = measured_first.measured
    assert measured_first.module_state_values() == values
    assert values_first.measured == measured == wheels.chassis_speeds(velocities, angles)
    assert values == [v for speed, angle in readings for v in (speed, math.radians(angle))]
    assert values_first.module_state_values() is not values  # a new list each call


@given(st.lists(st.tuples(st.floats(-0.2, 0.2), st.floats(-720.0, 720.0)), min_size=4, max_size=4))
def test_the_wheels_turn_is_wpilibs_twist(rolls: list[tuple[float, float]]) -> None:
    points = [(0.3, 0.3), (0.3, -0.3), (-0.3, 0.3), (-0.25, -0.35)]
    start = [SwerveModulePosition(1.0, Rotation2d.fromDegrees(10.0)) for _ in points]
    end = [
        SwerveModulePosition(1.0 + rolled, Rotation2d.fromDegrees(angle)) for rolled, angle in rolls
    ]
    theirs = wpilib_kinematics(points).toTwist2d(start, end)  # type: ignore[attr-defined]
    wheels = WheelKinematics(points)
    rolled, angles = [rolled for rolled, _ in rolls], [angle for _, angle in rolls]
    assert wheels.chassis_speeds(rolled, angles)[2] == pytest.approx(theirs.dtheta, abs=1e-9)
    # the drive's yaw tracker asks for the rotation alone
    assert wheels.rotation(rolled, angles) == pytest.approx(theirs.dtheta, abs=1e-9)


@given(speeds, st.floats(-720.0, 720.0), st.floats(0.0, 360.0))
@example(1.0, 92.0, 0.0).via("just past a quarter turn: reversed")
@example(1.0, 88.0, 0.0).via("just short of it: turned")
@example(-2.0, 300.0, 31.0).via("a reversed request across the wrap")
def test_the_modules_optimisation_is_wpilibs(speed: float, target: float, current: float) -> None:
    """``SwerveModule.command`` reverses the wheel exactly when WPILib's ``optimize`` would."""
    turn = math.remainder(target - current, 360.0)
    assume(abs(abs(turn) - 90.0) > 1e-6)  # not on the fence, where rounding decides either way
    state = SwerveModuleState(speed, Rotation2d.fromDegrees(target))
    state.optimize(Rotation2d.fromDegrees(current))
    module = module_at(current)
    followed_speed, followed_angle = module.command(speed, target)
    assert followed_speed == pytest.approx(state.speed, abs=1e-12)
    assert same_direction_deg(followed_angle, state.angle.degrees())


class FakeMotor:
    """A motor adapter that only remembers its commands (no vendor, no simulator)."""

    def __init__(self) -> None:
        self.position = 0.0
        self.commands: list[tuple[Any, ...]] = []

    def refresh(self) -> None:
        pass

    def get_position(self) -> float:
        return self.position

    def get_velocity(self) -> float:
        return 0.0

    def set_position(self, value: float) -> None:
        self.position = value

    def set_angle(self, degrees: float) -> None:
        self.commands.append(("angle", degrees))

    def set_velocity(self, speed: float, volts: float) -> None:
        self.commands.append(("velocity", speed, volts))

    def set_voltage(self, volts: float) -> None:
        self.commands.append(("volts", volts))


class FakeEncoder:
    usable = True

    def __init__(self, degrees: float) -> None:
        self.degrees = degrees

    def refresh(self) -> None:
        pass

    def get_absolute_degrees(self) -> float:
        return self.degrees


CONFIG = load_directory(DEPLOY / "swerve").modules[0]


def module_at(angle_deg: float) -> SwerveModule:
    """A module on fake devices whose absolute encoder puts it at ``angle_deg``."""
    encoder: Any = FakeEncoder(angle_deg + CONFIG.absolute_encoder_offset_deg)
    motors: Any = (FakeMotor(), FakeMotor())
    module = SwerveModule(CONFIG, motors[0], motors[1], encoder, free_speed_mps=6.0)
    assert module.angle_deg == pytest.approx(angle_deg % 360.0, abs=1e-9)
    return module


def test_command_follows_holds_and_refuses() -> None:
    module = module_at(30.0)
    drive: Any = module.drive_motor
    angle: Any = module.angle_motor
    assert module.command(2.0, 40.0) == (2.0, 40.0)
    assert angle.commands[-1] == ("angle", pytest.approx(40.0))  # 10° from where it reads 30°
    # cosine compensation (on in this configuration) scales by the 10° still to turn
    scale = math.cos(math.radians(10.0)) if module.use_cosine_compensator else 1.0
    assert drive.commands[-1][:2] == ("velocity", pytest.approx(2.0 * scale))
    # behind it: the wheel reverses instead of turning 160°
    assert module.command(1.0, 190.0) == (pytest.approx(-1.0), pytest.approx(10.0))
    # below 1 % of the free speed, the wheel keeps its set-point; None keeps it too
    assert module.command(0.01, 120.0) == (0.01, 120.0)
    assert module.angle_setpoint_deg == pytest.approx(10.0)
    assert module.command(0.0, None) == (0.0, pytest.approx(10.0))
    # a speed that is not a number stops the module and is counted
    assert module.command(math.nan, 0.0) == (0.0, pytest.approx(10.0))
    assert module.refused == 1 and drive.commands[-1] == ("volts", 0.0)
