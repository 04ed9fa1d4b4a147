"""Hostile numbers through the public API never reach a vendor call or the pose (issue 12 items 1-2).

The drive is the REV + navX configuration in simulation; every call the Spark adapters make to
REVLib (set-points, encoder seeding) is recorded and checked: finite, and within what the motor
can do. Each hypothesis example runs like a robot: ``periodic()``, then the command, then the
physics, then time passes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import rev
import wpilib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModuleState

from swervelib import SwerveDrive
from swervelib.config.catalog import MOTOR_FREE_SPEED_RPS
from swervelib.drive.safety import FieldArea
from tests.drive.harness import LOOP, Harness, simulated
from tests.hostile import numbers
from tests.sim import alert_texts


class VendorSpy:
    """Records every value the drive's Spark adapters hand to REVLib."""

    def __init__(self, drive: SwerveDrive, monkeypatch: pytest.MonkeyPatch) -> None:
        self.bad: list[str] = []
        self.count = 0
        for module in drive.modules:
            for motor in (module.drive_motor, module.angle_motor):
                self._watch(motor, monkeypatch)

    def _watch(self, motor: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        # The motor's physical range, from its configuration: free speed through the gearing.
        settings = motor.settings
        top_speed = MOTOR_FREE_SPEED_RPS[settings.motor_type.motor] * settings.units_per_rotation
        volts = settings.optimal_voltage
        set_setpoint = motor._set_setpoint
        encoder = motor._encoder

        def setpoint(value: float, control: Any, *rest: Any) -> Any:
            self.count += 1
            ok = math.isfinite(value)
            if control == rev.SparkBase.ControlType.kVoltage:
                ok = ok and abs(value) <= volts
            elif control == rev.SparkBase.ControlType.kVelocity:
                feedforward = rest[1]
                ok = ok and abs(value) <= top_speed and math.isfinite(feedforward)
                ok = ok and abs(feedforward) <= volts
            elif control == rev.SparkBase.ControlType.kPosition:
                ok = ok and 0.0 <= value < 360.0
            else:
                ok = False
            if not ok:
                self.bad.append(f"{motor.label}: setSetpoint{(value, control, *rest)}")
            return set_setpoint(value, control, *rest)

        class Encoder:
            def setPosition(self, value: float) -> Any:
                if not math.isfinite(value):
                    spy.bad.append(f"{motor.label}: setPosition({value})")
                return encoder.setPosition(value)

            def __getattr__(self, name: str) -> Any:
                return getattr(encoder, name)

        spy = self
        monkeypatch.setattr(motor, "_set_setpoint", setpoint)
        monkeypatch.setattr(motor, "_encoder", Encoder())


@contextmanager
def spied(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Harness, VendorSpy]]:
    with simulated() as h:
        spy = VendorSpy(h.drive, monkeypatch)
        try:
            yield h, spy
        finally:
            monkeypatch.undo()


def finite_pose(drive: SwerveDrive) -> bool:
    pose = drive.get_pose()
    return all(math.isfinite(v) for v in (pose.X(), pose.Y(), pose.rotation().radians()))


Command = Callable[[SwerveDrive], Any]


@st.composite
def commands(draw: st.DrawFn) -> tuple[str, Command]:
    name = draw(
        st.sampled_from(
            [
                "drive",
                "drive_cor",
                "drive_facing",
                "set_module_states",
                "module",
                "lock",
                "point_wheels_at",
                "stop",
                "reset_pose",
                "vision",
            ]
        )
    )
    a, b, c = draw(numbers), draw(numbers), draw(numbers)
    field = draw(st.booleans())
    label = f"{name}{(a, b, c, field)}"
    if name == "drive":
        return label, lambda d: d.drive(ChassisSpeeds(a, b, c), field_relative=field)
    if name == "drive_cor":
        x, y = draw(numbers), draw(numbers)
        return label, lambda d: d.drive(
            ChassisSpeeds(a, b, c), field_relative=field, center_of_rotation=Translation2d(x, y)
        )
    if name == "drive_facing":
        return label, lambda d: d.drive_facing(a, b, Rotation2d(c), field_relative=field)
    if name == "set_module_states":
        pairs = draw(st.lists(st.tuples(numbers, numbers), min_size=4, max_size=4))
        return label, lambda d: d.set_module_states(
            [SwerveModuleState(s, Rotation2d(r)) for s, r in pairs]
        )
    if name == "module":
        index = draw(st.integers(0, 3))
        return label, lambda d: d.modules[index].set_desired_state(
            SwerveModuleState(a, Rotation2d(b)), force_angle=field
        )
    if name == "lock":
        return label, lambda d: d.lock()
    if name == "point_wheels_at":
        return label, lambda d: d.point_wheels_at(Rotation2d(a))
    if name == "stop":
        return label, lambda d: d.stop()
    if name == "reset_pose":
        return label, lambda d: d.reset_pose(Pose2d(a, b, Rotation2d(c)))
    devs = draw(st.one_of(st.none(), st.tuples(numbers, numbers, numbers)))
    age = draw(numbers)
    return label, lambda d: d.add_vision_measurement(
        Pose2d(a, b, Rotation2d(c)), wpilib.Timer.getFPGATimestamp() - age, devs
    )


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(program=st.lists(commands(), min_size=1, max_size=6))
def test_no_hostile_number_reaches_revlib_or_the_pose(
    monkeypatch: pytest.MonkeyPatch, program: list[tuple[str, Command]]
) -> None:
    with spied(monkeypatch) as (h, spy):
        for _, command in program:
            h.loop(command)
        h.observe()
        h.drive.drive(ChassisSpeeds(0.5, 0.0, 0.0))  # after it all, the drive still answers
        assert spy.count > 0
        assert not spy.bad, spy.bad[:5]
        assert finite_pose(h.drive), [k for k, _ in program]


@pytest.mark.parametrize(
    "command",
    [
        lambda d: d.drive(ChassisSpeeds(math.nan, 0.0, 0.0)),
        lambda d: d.drive(ChassisSpeeds(math.inf, 0.0, 0.0)),
        lambda d: d.drive(
            ChassisSpeeds(1.0, 0.0, 1.0), center_of_rotation=Translation2d(math.nan, 0)
        ),
        lambda d: d.set_module_states([SwerveModuleState(math.nan, Rotation2d())] * 4),
        lambda d: d.set_module_states([SwerveModuleState(math.inf, Rotation2d())] * 4),
        lambda d: d.set_module_states([SwerveModuleState(1.0, Rotation2d(math.nan))] * 4),
        lambda d: d.drive_facing(1.0, 0.0, Rotation2d(math.nan)),
        lambda d: d.drive_facing(1.0, 0.0, Rotation2d(1e308)),
        lambda d: d.drive_facing(1.0, 0.0, Rotation2d(), turn_rate=math.nan),
        lambda d: d.drive_facing(1.0, 0.0, Rotation2d(), turn_rate=-math.inf),
        lambda d: d.point_wheels_at(Rotation2d(math.nan)),
        lambda d: d.point_wheels_at(Rotation2d(-math.inf)),
        lambda d: d.point_wheels_at(Rotation2d(1e308)),
    ],
    ids=[
        "drive nan",
        "drive inf",
        "centre nan",
        "states nan",
        "states inf",
        "angle nan",
        "facing",
        "facing 1e308",
        "facing turn rate nan",
        "facing turn rate -inf",
        "point wheels nan",
        "point wheels -inf",
        "point wheels 1e308",
    ],
)
def test_a_refused_command_stops_the_robot_and_says_which_call(command: Command) -> None:
    """In simulation a NaN drove a Spark robot backwards at full speed, an infinity forwards."""
    with simulated() as h:
        h.run(0.5, lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 0.0)))
        before = h.drive.refusals.count
        h.run(1.0, command)
        assert h.drive.refusals.count > before
        assert all(m.speed_setpoint_mps == 0.0 for m in h.drive.modules)
        speeds = h.sim.true_module_speeds
        assert all(abs(v) < 0.05 for v in speeds.values()), speeds
        assert finite_pose(h.drive)
        texts = alert_texts(("warnings",))
        assert any("Swerve commands: refused" in t and "()" in t for t in texts), texts


def test_huge_finite_speeds_drive_at_top_speed_in_their_direction() -> None:
    """1e308 used to become NaN wheel speeds after desaturation."""
    with simulated() as h:
        refused = h.drive.refusals.count
        h.run(1.5, lambda d: d.drive(ChassisSpeeds(1e308, 0.0, 0.0)))
        speeds = [m.speed_setpoint_mps for m in h.drive.modules]
        assert all(math.isfinite(s) and s > 0.9 * h.drive.max_speed for s in speeds), speeds
        assert h.sim.true_pose.X() > 1.0
        assert h.drive.refusals.count == refused  # driven, not refused


def test_a_module_refuses_a_nan_state_and_names_the_call() -> None:
    with simulated() as h:
        module = h.drive.modules[2]
        h.run(0.2, lambda d: module.set_desired_state(SwerveModuleState(math.nan, Rotation2d())))
        assert module.refused > 0 and module.speed_setpoint_mps == 0.0
        assert any("set_desired_state(nan m/s" in t for t in alert_texts(("warnings",)))


def test_the_adapter_refuses_a_nan_even_when_called_directly() -> None:
    # ideal wheels: with tyres, the refused wheel rolls on with the robot the others still drive
    with simulated(traction=False) as h:
        motor = h.drive.modules[1].drive_motor
        h.run(0.5, lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 0.0)))
        h.run(0.5, lambda d: motor.set_velocity(math.nan, 0.0))
        assert motor.guard.refused > 0
        assert abs(h.sim.true_module_speeds[h.drive.modules[1].name]) < 0.05
        assert any(
            motor.label in t and "refused set_velocity(nan m/s" in t
            for t in alert_texts(("warnings",))
        )


# -- pose poisoning (item 2) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pose", "std_devs", "age", "reason"),
    [
        (Pose2d(math.nan, 1.0, Rotation2d()), None, 0.0, "pose not finite"),
        (Pose2d(1.0, math.inf, Rotation2d()), None, 0.0, "pose not finite"),
        (Pose2d(1.0, 1.0, Rotation2d(math.nan)), None, 0.0, "pose not finite"),
        (Pose2d(1e300, 1e300, Rotation2d()), None, 0.0, "off the field"),
        (Pose2d(40.0, 4.0, Rotation2d()), None, 0.0, "off the field"),
        (Pose2d(2.0, 2.0, Rotation2d()), (math.nan, 0.1, 0.1), 0.0, "bad std devs"),
        (Pose2d(2.0, 2.0, Rotation2d()), (0.1, -1.0, 0.1), 0.0, "bad std devs"),
        (Pose2d(2.0, 2.0, Rotation2d()), None, -5.0, "timestamp in the future"),
        (Pose2d(2.0, 2.0, Rotation2d()), None, 10.0, "timestamp too old"),
        (Pose2d(2.0, 2.0, Rotation2d()), None, math.nan, "bad timestamp"),
    ],
)
def test_vision_measurements_that_would_poison_the_pose_are_refused(
    pose: Pose2d, std_devs: tuple[float, float, float] | None, age: float, reason: str
) -> None:
    with simulated(initial_pose=Pose2d(3.0, 3.0, Rotation2d())) as h:
        h.run(0.2)
        before = h.drive.vision.refused[reason]
        for _ in range(10):
            now = wpilib.Timer.getFPGATimestamp()
            assert h.drive.add_vision_measurement(pose, now - age, std_devs) is False
            h.run(LOOP)
        assert h.drive.vision.refused[reason] == before + 10
        estimate = h.drive.get_pose()
        assert finite_pose(h.drive)
        assert estimate.translation().distance(Translation2d(3.0, 3.0)) < 0.05, estimate
        assert any("Swerve vision: refused add_vision_measurement()" in t for t in alert_texts())


def test_good_vision_measurements_are_still_used() -> None:
    with simulated(initial_pose=Pose2d(3.0, 3.0, Rotation2d())) as h:
        h.run(0.2)
        accepted = h.drive.vision.accepted
        target = Pose2d(3.5, 3.0, Rotation2d())
        for _ in range(20):
            now = wpilib.Timer.getFPGATimestamp()
            assert h.drive.add_vision_measurement(target, now - 0.03, (0.01, 0.01, 0.01))
            h.run(LOOP)
        assert h.drive.vision.accepted == accepted + 20
        assert h.drive.get_pose().X() > 3.3


@pytest.mark.parametrize(
    "pose",
    [
        Pose2d(math.nan, 0.0, Rotation2d()),
        Pose2d(0.0, -math.inf, Rotation2d()),
        Pose2d(1.0, 1.0, Rotation2d(math.inf)),
        Pose2d(1e300, 0.0, Rotation2d()),
        Pose2d(1.0, 1.0, Rotation2d(1e308)),  # finite, but its direction is rounding noise
    ],
)
def test_reset_pose_refuses_a_pose_that_is_not_finite_or_absurdly_far(pose: Pose2d) -> None:
    with simulated(initial_pose=Pose2d(2.0, 1.0, Rotation2d())) as h:
        before = h.drive.refusals.count
        h.drive.reset_pose(pose)
        h.run(0.2, lambda d: d.drive(ChassisSpeeds(0.5, 0.0, 0.0)))
        assert h.drive.refusals.count == before + 1
        assert finite_pose(h.drive)
        assert h.drive.get_pose().translation().distance(Translation2d(2.0, 1.0)) < 0.3
        assert any("refused reset_pose()" in t for t in alert_texts(("warnings",)))


def test_the_field_area_can_be_widened_or_switched_off() -> None:
    with simulated(initial_pose=Pose2d(3.0, 3.0, Rotation2d())) as h:
        field = h.drive.field
        target = Pose2d(20.0, 4.0, Rotation2d())  # 3.5 m beyond the far wall
        try:
            now = wpilib.Timer.getFPGATimestamp()
            assert not h.drive.add_vision_measurement(target, now, (0.01, 0.01, 0.01))
            h.drive.field = FieldArea(length_m=25.0, width_m=10.0)
            assert h.drive.add_vision_measurement(target, now, (0.01, 0.01, 0.01))
            h.drive.field = None
            assert h.drive.add_vision_measurement(Pose2d(40.0, -20.0, Rotation2d()), now)
        finally:
            h.drive.field = field


def test_reset_pose_and_zero_heading_work_off_the_field() -> None:
    """Odometry started at the origin (a field corner) goes negative on any practice floor."""
    with simulated() as h:
        refused = h.drive.refusals.count
        h.drive.reset_pose(Pose2d(-5.0, -3.0, Rotation2d(1.0)))
        h.run(0.1)
        h.drive.zero_heading()
        assert h.drive.get_pose().X() == pytest.approx(-5.0, abs=0.05)
        assert h.drive.get_heading().radians() == 0.0
        assert h.drive.refusals.count == refused


@pytest.mark.parametrize("radians", [math.nan, math.inf, 1e300])
def test_zero_heading_refuses_a_heading_that_is_not_finite(radians: float) -> None:
    """A NaN fused into the pose estimator would stay in the pose for good."""
    with simulated() as h:
        h.drive.zero_heading(Rotation2d(math.pi))
        refused = h.drive.refusals.count
        h.drive.zero_heading(Rotation2d(radians))
        h.run(0.1)
        assert h.drive.refusals.count == refused + 1
        assert abs(h.drive.get_heading().degrees()) == pytest.approx(180.0, abs=0.5)


@pytest.mark.parametrize(
    "options", [{"max_speed": math.nan}, {"max_speed": -1.0}, {"loop_period": math.inf}]
)
def test_constructor_numbers_must_be_positive_and_finite(options: dict[str, float]) -> None:
    from swervelib.config import load_directory
    from tests.drive.harness import REV_NAVX

    with pytest.raises(ValueError, match="must be a positive number"):
        SwerveDrive(load_directory(REV_NAVX), **options)  # type: ignore[arg-type]
