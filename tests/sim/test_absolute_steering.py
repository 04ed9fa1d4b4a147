"""Steering on the absolute encoder: the angle Spark's closed loop runs on the encoder on its data
port (YAGSL 2025+'s reading of ``conversionFactors.angle.factor: 360`` beside an ``attached``
encoder, or ``"steerOnAbsoluteEncoder": true``), through REV's simulator and the drive's loop.

The configurations are copies of ``deploy/swerve`` with the CANcoders replaced by encoders on the
angle Sparks (and the Pigeon 2 by a navX, whose readings follow simulated time step for step). The
Spark CAN ids (40–59) are used by no other test of this process: REVLib allows one Spark per id.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import rev
from wpilib.simulation import stepTiming
from wpimath.geometry import Rotation2d
from wpimath.kinematics import ChassisSpeeds, SwerveModuleState

from swervelib import SwerveDrive
from swervelib.config import SteerFeedback, load_directory
from swervelib.devices.rev.motor import SparkMotor
from swervelib.devices.settings import DEFAULT_STEER_GEAR_RATIO
from swervelib.drive.module import SwerveModule
from swervelib.sim import HardwareTruth, SwerveSim
from tests.conftest import DEPLOY
from tests.drive.harness import LOOP, Harness, shared_drive, simulated
from tests.json_files import edit_json
from tests.sim import alert_texts

# Offsets spread round the circle, one of them 0 (module and encoder then wrap together), and two
# encoders mounted reversed.
OFFSETS = {"frontleft": 0.0, "frontright": 287.1, "backleft": 184.6, "backright": 33.3}
INVERTED = {"frontright", "backleft"}
ANGLE_P = 0.02  # duty cycle per degree: 2° of error is 0.48 V, over the 0.3 V of friction
MK4I_RATIO = 150.0 / 7.0  # 21.43:1, for the module whose configuration gives its ratio
TOLERANCE_DEG = 2.0
SUBSTEP = 0.002


def shortest(degrees: float) -> float:
    """``degrees`` wrapped to [-180, 180)."""
    return (degrees + 180.0) % 360.0 - 180.0


def configure(
    target: Path,
    *,
    first_id: int,
    angle: dict[str, float],
    names: tuple[str, ...] = tuple(OFFSETS),
    explicit: bool | None = None,
) -> Path:
    """``deploy/swerve`` with ``attached`` encoders, :data:`OFFSETS` and :data:`INVERTED`, a navX,
    Spark CAN ids from ``first_id``, the angle conversion ``angle`` and angle p :data:`ANGLE_P`."""
    shutil.copytree(DEPLOY / "swerve", target)

    def edit(name: str, change: Callable[[dict[str, Any]], None]) -> None:
        edit_json(target / name, change)

    def drive(data: dict[str, Any]) -> None:
        data["imu"] = {"type": "navx_spi", "id": 0}
        data["modules"] = [f"{name}.json" for name in names]

    edit("swervedrive.json", drive)
    for index, name in enumerate(names):

        def module(data: dict[str, Any], index: int = index, name: str = name) -> None:
            data["drive"]["id"] = first_id + 2 * index
            data["angle"]["id"] = first_id + 2 * index + 1
            data["encoder"] = {"type": "attached", "id": 0}
            data["absoluteEncoderOffset"] = OFFSETS[name]
            data["absoluteEncoderInverted"] = name in INVERTED
            if explicit is not None:
                data["steerOnAbsoluteEncoder"] = explicit

        edit(f"modules/{name}.json", module)
    edit(
        "modules/physicalproperties.json",
        lambda data: data["conversionFactors"].__setitem__("angle", angle),
    )
    edit("modules/pidfproperties.json", lambda data: data["angle"].__setitem__("p", ANGLE_P))
    return target


@pytest.fixture(scope="module")
def yagsl_style(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """YAGSL's way: angle factor 360 beside encoders on the angle Sparks, no steering ratio."""
    return configure(
        tmp_path_factory.mktemp("yagsl") / "swerve", first_id=40, angle={"factor": 360}
    )


@pytest.fixture(scope="module")
def motor_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same robot steered on the angle motors' encoders (its MAXSwerve ratio written)."""
    return configure(
        tmp_path_factory.mktemp("motor") / "swerve",
        first_id=48,
        angle={"gearRatio": DEFAULT_STEER_GEAR_RATIO},
    )


@pytest.fixture(scope="module")
def explicit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``"steerOnAbsoluteEncoder": true`` with a known 21.43:1 ratio; two modules, one with its
    encoder reversed."""
    return configure(
        tmp_path_factory.mktemp("explicit") / "swerve",
        first_id=56,
        angle={"gearRatio": MK4I_RATIO},
        names=("frontright", "backleft"),
        explicit=True,
    )


def point(modules: dict[str, float]) -> Callable[[SwerveDrive], None]:
    """Command each named module to an angle (degrees), wheels still."""

    def command(drive: SwerveDrive) -> None:
        for module in drive.modules:
            if module.name in modules:
                state = SwerveModuleState(0.0, Rotation2d.fromDegrees(modules[module.name]))
                module.set_desired_state(state, force_angle=True)

    return command


def true_angle(h: Harness, name: str) -> float:
    return h.sim.true_module_angles[name].degrees()


class Watch:
    """Unwrapped true module angles, loop by loop (to see which way round a module went)."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.last = {m.name: true_angle(h, m.name) for m in h.drive.modules}
        self.travel = dict.fromkeys(self.last, 0.0)  # total turning, either way
        self.net = dict.fromkeys(self.last, 0.0)  # signed turning

    def __call__(self) -> None:
        for name, last in self.last.items():
            now = true_angle(self.h, name)
            turn = shortest(now - last)
            self.travel[name] += abs(turn)
            self.net[name] += turn
            self.last[name] = now

    def reset(self) -> None:
        """Start counting again from where the modules are now."""
        self.last = {name: true_angle(self.h, name) for name in self.last}
        self.travel = dict.fromkeys(self.last, 0.0)
        self.net = dict.fromkeys(self.last, 0.0)


def run_watching(
    h: Harness, seconds: float, command: Callable[[SwerveDrive], None], watch: Watch
) -> None:
    """:meth:`Harness.run`, watching the true angles after every loop."""
    for _ in range(round(seconds / LOOP)):
        h.loop(command)
        watch()
    h.observe()


def go_to(h: Harness, targets: dict[str, float]) -> None:
    """Turn each module to its target in steps of at most 80° (a command more than 90° away
    would be optimised into the opposite wheel direction)."""
    now = {m.name: m.angle_deg for m in h.drive.modules}
    while True:
        step = {n: now[n] + max(-80.0, min(80.0, shortest(t - now[n]))) for n, t in targets.items()}
        h.run(0.6, point(step))
        if all(abs(shortest(step[n] - t)) < 1e-9 for n, t in targets.items()):
            return
        now = step


def times_to_angle(h: Harness, targets: list[float], settle_s: float = 0.8) -> list[float]:
    """For each target in turn (all modules), how long the slowest module takes to come within
    :data:`TOLERANCE_DEG` of it, to the physics' 2 ms: periodic(), the command, then time passes
    in 2 ms slices, as a robot loop does."""
    drive, sim = h.drive, h.sim
    times = []
    for target in targets:
        command = point({m.name: target for m in drive.modules})
        reached: dict[str, float] = {}
        elapsed = 0.0
        for _ in range(round(settle_s / LOOP)):
            h.begin_loop()
            command(drive)
            for _ in range(round(LOOP / SUBSTEP)):
                sim.step(SUBSTEP)
                elapsed += SUBSTEP
                for name, angle in sim.true_module_angles.items():
                    error = abs(shortest(angle.degrees() - target))
                    if name not in reached and error < TOLERANCE_DEG:
                        reached[name] = elapsed
            stepTiming(LOOP)
        h.observe()
        assert len(reached) == len(drive.modules), (target, reached)
        for module in drive.modules:  # and stays there
            assert abs(shortest(true_angle(h, module.name) - target)) < TOLERANCE_DEG
        times.append(max(reached.values()))
    return times


# -- the controller ------------------------------------------------------------------------------


def test_a_yagsl_folder_steers_on_the_absolute_encoder(yagsl_style: Path) -> None:
    """The angle Spark's loop runs on its data-port encoder, wrapping over one turn, with the
    encoder's inversion and no offset on the device; its motor encoder reads module degrees."""
    with simulated(yagsl_style) as h:
        for module in h.drive.modules:
            assert module.config.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER
            assert module.config.conversion.angle_gear_ratio is None
            angle, drive = module.angle_motor, module.drive_motor
            assert isinstance(angle, SparkMotor) and isinstance(drive, SparkMotor)
            loop = angle.spark.configAccessor.closedLoop
            assert loop.getFeedbackSensor() == rev.FeedbackSensor.kAbsoluteEncoder
            assert loop.getPositionWrappingEnabled()
            assert (loop.getPositionWrappingMinInput(), loop.getPositionWrappingMaxInput()) == (
                0.0,
                360.0,
            )
            assert loop.getP() == pytest.approx(ANGLE_P)
            absolute = angle.spark.configAccessor.absoluteEncoder
            assert absolute.getInverted() is (module.name in INVERTED)
            assert absolute.getZeroOffset() == 0.0
            assert absolute.getPositionConversionFactor() == 360.0
            assert angle.spark.configAccessor.encoder.getPositionConversionFactor() == (
                pytest.approx(360.0 / DEFAULT_STEER_GEAR_RATIO)
            )
            drive_loop = drive.spark.configAccessor.closedLoop
            assert drive_loop.getFeedbackSensor() == rev.FeedbackSensor.kPrimaryEncoder


def test_the_spark_feedback_and_the_raw_telemetry_keep_their_meaning(yagsl_style: Path) -> None:
    """``Raw Absolute Encoder`` (after inversion, before offset) is what the Spark's loop reads;
    ``Raw Angle Encoder`` is the angle motor's encoder in degrees of module rotation, which
    follows the module although nothing steers by it."""
    with simulated(yagsl_style) as h:
        h.run(0.6, point(dict.fromkeys(OFFSETS, 0.0)))
        before = {m.name: m.raw_angle_deg for m in h.drive.modules}
        for module in h.drive.modules:
            assert abs(shortest(true_angle(h, module.name))) < TOLERANCE_DEG
            assert abs(shortest(module.raw_absolute_deg - OFFSETS[module.name])) < TOLERANCE_DEG
            assert isinstance(module.angle_motor, SparkMotor)
            feedback = module.angle_motor.spark.getAbsoluteEncoder().getPosition()
            assert feedback == pytest.approx(module.raw_absolute_deg)
        h.run(0.6, point(dict.fromkeys(OFFSETS, 70.0)))
        for module in h.drive.modules:
            turned = module.raw_angle_deg - before[module.name]
            assert turned == pytest.approx(70.0, abs=3.0), module.name
            assert abs(shortest(module.raw_absolute_deg - OFFSETS[module.name] - 70.0)) < 3.0


def test_steering_does_not_depend_on_the_motor_encoder(yagsl_style: Path) -> None:
    """Seeding the angle motors' encoders with nonsense changes nothing: the Spark steers on the
    absolute encoder, and the module commands it in that encoder's frame."""
    with simulated(yagsl_style) as h:
        for index, module in enumerate(h.drive.modules):
            module.angle_motor.set_position(1234.5 * (index + 1))
        for target in (45.0, -30.0):
            h.run(0.6, point(dict.fromkeys(OFFSETS, target)))
            for module in h.drive.modules:
                assert abs(shortest(true_angle(h, module.name) - target)) < TOLERANCE_DEG
                assert abs(shortest(module.angle_deg - target)) < TOLERANCE_DEG


def test_it_reaches_an_angle_as_fast_as_on_the_motor_encoder(
    yagsl_style: Path, motor_encoder: Path
) -> None:
    """The same robot, the same gains, both steering modes: the time the slowest module takes to
    come within 2° of each target (printed with ``pytest -s``)."""
    targets = [80.0, -5.0, 60.0, -25.0, -100.0, 175.0]  # each within 90° of the one before
    with simulated(yagsl_style) as h:
        absolute = times_to_angle(h, targets)
    with simulated(motor_encoder) as h:
        assert all(m.config.steer_feedback is SteerFeedback.MOTOR_ENCODER for m in h.drive.modules)
        motor = times_to_angle(h, targets)
    print(
        "\ntime to within 2° (s), absolute encoder vs motor encoder: "
        + ", ".join(
            f"{t:g}°: {a:.3f} vs {m:.3f}" for t, a, m in zip(targets, absolute, motor, strict=True)
        )
        + f"; total {sum(absolute):.3f} vs {sum(motor):.3f}"
    )
    assert all(t < 0.5 for t in absolute), absolute
    assert sum(absolute) <= 1.25 * sum(motor), (absolute, motor)
    for a, m in zip(absolute, motor, strict=True):
        assert a <= 1.25 * m + SUBSTEP, (absolute, motor)


# -- wrapping --------------------------------------------------------------------------------------


def test_crossing_the_wrap_takes_the_short_way_both_ways(yagsl_style: Path) -> None:
    """350° → 10° → 350° through the module's 0°, and the same 20° either side of where each
    encoder itself wraps (module angle −offset): 20° of turning each, never 340°."""
    with simulated(yagsl_style) as h:
        watch = Watch(h)
        for crossing in ("module", "encoder"):
            wraps = {
                name: 0.0 if crossing == "module" else -offset for name, offset in OFFSETS.items()
            }
            go_to(h, {n: w - 10.0 for n, w in wraps.items()})
            for leg, turn in (("up", 10.0), ("down", -10.0), ("up again", 10.0)):
                watch.reset()
                targets = {n: w + turn for n, w in wraps.items()}
                run_watching(h, 0.6, point(targets), watch)
                for name, target in targets.items():
                    where = (crossing, leg, name, watch.net, watch.travel)
                    assert abs(shortest(true_angle(h, name) - target)) < TOLERANCE_DEG, where
                    assert abs(watch.net[name] - 2 * turn) < 2 * TOLERANCE_DEG, where
                    assert watch.travel[name] < 25.0, where  # never 340° the long way round


@pytest.mark.parametrize("rate_dps", [90.0, -90.0])
def test_a_slow_continuous_rotation_follows_through_several_turns(
    yagsl_style: Path, rate_dps: float
) -> None:
    """A target turning steadily for three turns: every module follows it through every wrap of
    module and encoder, close behind and never spinning away."""
    with simulated(yagsl_style) as h:
        run_watching(h, 0.6, point(dict.fromkeys(OFFSETS, 0.0)), Watch(h))
        watch = Watch(h)
        target = [0.0]
        worst = dict.fromkeys(OFFSETS, 0.0)

        def turning(drive: SwerveDrive) -> None:
            for module in drive.modules:
                error = abs(shortest(true_angle(h, module.name) - target[0]))
                worst[module.name] = max(worst[module.name], error)
            target[0] += rate_dps * LOOP
            point(dict.fromkeys(OFFSETS, target[0]))(drive)

        run_watching(h, 3 * 360.0 / abs(rate_dps), turning, watch)
        run_watching(h, 0.6, point(dict.fromkeys(OFFSETS, target[0])), watch)
        for name in OFFSETS:
            assert worst[name] < 12.0, worst
            assert watch.net[name] == pytest.approx(math.copysign(1080.0, rate_dps), abs=3.0)
            assert watch.travel[name] < 1080.0 + 10.0, watch.travel


# -- offsets and inversion ---------------------------------------------------------------------------


def test_offsets_and_reversed_encoders_point_the_wheels_forward(
    yagsl_style: Path, explicit: Path
) -> None:
    """Commanded 0°, every wheel faces the robot's front in the truth, whatever its offset and
    whichever way its encoder turns; commanded 80°, nearly left. Both with YAGSL's factor 360 and
    with ``steerOnAbsoluteEncoder`` and a known gear ratio (whose motor encoder then reads
    module degrees through that ratio)."""
    for directory in (yagsl_style, explicit):
        with simulated(directory) as h:
            names = [m.name for m in h.drive.modules]
            assert any(m.config.absolute_encoder_inverted for m in h.drive.modules)
            assert all(m.steers_on_absolute for m in h.drive.modules)
            for target in (0.0, 80.0, 0.0):
                h.run(0.8, point(dict.fromkeys(names, target)))
                for name in names:
                    error = shortest(true_angle(h, name) - target)
                    assert abs(error) < TOLERANCE_DEG, (directory.parent.name, name, target)
    with simulated(explicit) as h:
        for module in h.drive.modules:
            assert module.config.conversion.angle_gear_ratio == pytest.approx(MK4I_RATIO)
            assert isinstance(module.angle_motor, SparkMotor)
            factor = module.angle_motor.spark.configAccessor.encoder.getPositionConversionFactor()
            assert factor == pytest.approx(360.0 / MK4I_RATIO)
        before = [m.raw_angle_deg for m in h.drive.modules]
        h.run(0.8, point({"frontright": 60.0, "backleft": 60.0}))
        for module, start in zip(h.drive.modules, before, strict=True):
            assert module.raw_angle_deg - start == pytest.approx(60.0, abs=3.0)


def test_the_real_steering_ratio_does_not_matter(yagsl_style: Path, tmp_path: Path) -> None:
    """The folder gives no steering ratio and the simulation assumes MAXSwerve's; a module really
    geared 21.43:1 (a truth's ``angle_gear_ratio``, kept through its JSON form) still points where
    it is told, since the Spark steers on the encoder that turns with the module."""
    geared = HardwareTruth.matching(load_directory(yagsl_style))
    for name in OFFSETS:
        geared = geared.with_corner(name, angle_gear_ratio=MK4I_RATIO)
    geared.save(tmp_path / "sim_hardware.json")
    assert HardwareTruth.load(tmp_path / "sim_hardware.json") == geared
    for nonsense in (-MK4I_RATIO, math.nan):
        with pytest.raises(ValueError, match=r"angle_gear_ratio .* must be a positive number"):
            SwerveSim(
                shared_drive(yagsl_style), geared.with_corner("backleft", angle_gear_ratio=nonsense)
            )
    with simulated(yagsl_style, geared) as h:
        for target in (70.0, -5.0):
            before = {m.name: (m.raw_angle_deg, true_angle(h, m.name)) for m in h.drive.modules}
            h.run(0.8, point(dict.fromkeys(OFFSETS, target)))
            for module in h.drive.modules:
                name = module.name
                assert abs(shortest(true_angle(h, name) - target)) < TOLERANCE_DEG, (name, target)
                # Only the motor's encoder, read through the assumed ratio, is off by the mismatch.
                raw_before, true_before = before[name]
                turned = shortest(true_angle(h, name) - true_before)
                expected = turned * MK4I_RATIO / DEFAULT_STEER_GEAR_RATIO
                assert module.raw_angle_deg - raw_before == pytest.approx(expected, abs=0.5)


# -- the whole drive -----------------------------------------------------------------------------------


def test_a_yagsl_style_drive_keeps_its_odometry(yagsl_style: Path) -> None:
    """Field-relative: a straight line, then a turn while translating; odometry within 10 cm of
    where the robot really is, its heading within 2°."""
    with simulated(yagsl_style) as h:
        h.run(1.5, lambda d: d.drive(ChassisSpeeds(1.5, 0.0, 0.0), field_relative=True))
        line = h.sim.true_pose
        assert line.X() > 1.5 and abs(line.Y()) < 0.1, line
        assert h.drive.get_pose().translation().distance(line.translation()) < 0.10
        h.run(2.0, lambda d: d.drive(ChassisSpeeds(0.5, 1.0, 1.5), field_relative=True))
        h.run(0.4, lambda d: d.drive(ChassisSpeeds()))
        true, pose = h.sim.true_pose, h.drive.get_pose()
    assert true.rotation().degrees() > 100.0 or true.rotation().degrees() < -100.0, true
    assert true.translation().distance(line.translation()) > 1.5, (line, true)
    assert pose.translation().distance(true.translation()) < 0.10, (pose, true)
    assert abs(shortest(pose.rotation().degrees() - true.rotation().degrees())) < 2.0


# -- miswired ------------------------------------------------------------------------------------------


def circle_errors(h: Harness) -> dict[str, float]:
    """Mean error (either wheel direction) of each module's true angle while the target direction
    turns steadily, after the first second."""
    clock = [0.0]

    def circle(drive: SwerveDrive) -> None:
        clock[0] += LOOP
        drive.drive(ChassisSpeeds(0.5 * math.cos(clock[0]), 0.5 * math.sin(clock[0]), 0.0))

    errors: dict[str, list[float]] = {}
    for _ in range(40):
        h.run(0.1, circle)
        target = math.degrees(clock[0])
        for name, rotation in h.sim.true_module_angles.items():
            error = (rotation.degrees() - target + 90.0) % 180.0 - 90.0
            errors.setdefault(name, []).append(abs(error))
    return {name: sum(e[10:]) / len(e[10:]) for name, e in errors.items()}


@pytest.mark.parametrize(
    "wrong", ["absoluteEncoderInverted", "inverted.angle"], ids=["encoder", "motor"]
)
def test_a_wrong_inversion_shows_its_real_symptom(yagsl_style: Path, wrong: str) -> None:
    """The Spark's loop becomes positive feedback: that module runs away from its setpoints and
    ends up pointing elsewhere, as on a robot; the others follow, and the drive's diagnostics
    name the settings to check."""
    flag = "encoder_reversed" if wrong == "absoluteEncoderInverted" else "angle_reversed"

    def miswired(truth: HardwareTruth) -> HardwareTruth:
        corner = truth.corner("backright")
        return truth.with_corner("backright", **{flag: not getattr(corner, flag)})

    with simulated(yagsl_style) as h:  # the same drive on the right hardware first
        healthy = circle_errors(h)
        assert not any("running away" in t for t in alert_texts(("errors",)))
    assert all(error < 8.0 for error in healthy.values()), healthy
    with simulated(yagsl_style, miswired) as h:
        mean = circle_errors(h)
        texts = alert_texts(("errors",))
    assert mean["backright"] > 20.0, mean
    for name in ("frontleft", "frontright", "backleft"):
        assert mean[name] < 8.0, mean  # lagging the turning target a little (p = 0.02)
    assert any("backright angle is running away" in t for t in texts), texts


# -- a failing feedback sensor --------------------------------------------------------------------------


class Unplugged:
    """The encoder's signal stops: the Spark (and so the robot) reads its last value for good."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: SwerveModule) -> None:
        assert module.encoder is not None
        monkeypatch.setattr(module.encoder.sim, "set_raw", lambda rotations, rps: None)


def test_a_garbage_feedback_reading_stops_steering_at_once_and_the_robot_drives_on(
    yagsl_style: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The encoder breaks and the Spark reports NaN for it: the module stops steering in the same
    loop, its wheel rolls along where it points (cosine compensation), the other three drive the
    robot where it was asked, and steering comes back with the encoder."""
    with simulated(yagsl_style) as h:
        module = h.drive.modules[3]
        forward = lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 0.0))  # noqa: E731
        h.run(0.5, forward)
        encoder_sim: Any = module.encoder.sim if module.encoder is not None else None

        def broken(rotations: float, rotations_per_second: float) -> None:
            encoder_sim.vendor_sim.setPosition(math.nan)

        monkeypatch.setattr(encoder_sim, "set_raw", broken)
        h.run(LOOP, forward)
        assert module.steering_stopped
        assert any("steering is stopped" in t for t in alert_texts(("warnings",)))
        start, stopped_at = h.sim.true_pose, true_angle(h, module.name)
        assert abs(shortest(stopped_at)) < 10.0  # about where it was: forward
        h.run(1.0, lambda d: d.drive(ChassisSpeeds(0.6, 0.6, 0.0)))  # 45° to the left
        assert module.steering_stopped
        assert abs(shortest(true_angle(h, module.name) - stopped_at)) < 2.0  # and stays there
        moved = h.sim.true_pose.translation() - start.translation()
        # (the stuck wheel scrubs sideways as the robot goes, so it gets less far than asked)
        assert moved.norm() > 0.3 and abs(shortest(moved.angle().degrees() - 45.0)) < 15.0, moved
        assert all(math.isfinite(v) for v in (h.sim.true_pose.X(), h.sim.true_pose.Y()))
        monkeypatch.undo()
        h.run(0.8, lambda d: d.drive(ChassisSpeeds(0.6, 0.6, 0.0)))
        assert not module.steering_stopped
        assert abs(shortest(true_angle(h, module.name) - 45.0)) < TOLERANCE_DEG


def test_an_unplugged_feedback_encoder_stops_that_module_steering(
    yagsl_style: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chasing a frozen reading the Spark would spin the module without end. The module sees the
    reading frozen while its motor turns and stops steering within a tenth of a second (angle motor
    at 0 V, warning Alert), keeps its angle from the motor's encoder, and steers again once the
    encoder is back."""
    with simulated(yagsl_style) as h:
        module = h.drive.modules[1]
        name = module.name
        h.run(0.6, point(dict.fromkeys(OFFSETS, 0.0)))
        Unplugged(monkeypatch, module)
        watch = Watch(h)
        run_watching(h, 0.5, point(dict.fromkeys(OFFSETS, 60.0)), watch)
        assert module.steering_stopped and module.absolute_read_issue
        assert watch.travel[name] < 90.0, watch.travel  # it stopped: no spinning away
        assert any("steering is stopped" in t for t in alert_texts(("warnings",)))
        watch.reset()
        run_watching(h, 1.0, point(dict.fromkeys(OFFSETS, -20.0)), watch)
        assert watch.travel[name] < 2.0, watch.travel  # holds still, however it is commanded
        assert module.angle_motor.sim.applied_voltage() == 0.0
        assert abs(shortest(module.angle_deg - true_angle(h, name))) < 3.0  # the motor's encoder
        for other in h.drive.modules:
            if other is not module:
                assert abs(shortest(true_angle(h, other.name) + 20.0)) < TOLERANCE_DEG
        monkeypatch.undo()  # plugged in again
        h.run(0.8, point(dict.fromkeys(OFFSETS, -20.0)))
        assert not module.steering_stopped and not module.absolute_read_issue
        assert abs(shortest(true_angle(h, name) + 20.0)) < TOLERANCE_DEG
        assert not any("steering is stopped" in t for t in alert_texts(("warnings",)))
