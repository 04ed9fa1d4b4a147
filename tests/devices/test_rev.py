"""REV adapters (Spark MAX / Spark FLEX motors and their attached encoders) through robotpy-rev's
own simulator: ``SparkMaxSim`` / ``SparkFlexSim``, ``SparkAbsoluteEncoderSim``,
``SparkAnalogSensorSim`` and the Spark fault manager.

The hooks speak the bare device's frame. A "mounting" says which way the bare device turns when
the mechanism turns counter-clockwise; the matching flag is the one that makes the reading follow
the spec's counter-clockwise-positive convention.
"""

from __future__ import annotations

import dataclasses
import gc
import itertools
import math
from collections.abc import Iterator
from typing import Any

import pytest
import rev
from hypothesis import given, settings
from hypothesis import strategies as st
from wpilib.simulation import DriverStationSim
from wpimath.system.plant import DCMotor

from swervelib.config.catalog import ENCODER_TYPES, MOTOR_TYPES
from swervelib.config.model import PIDF, DeviceConfig, SteerFeedback
from swervelib.devices import registry, seeding
from swervelib.devices.rev.encoders import SparkAnalogEncoder, SparkAttachedEncoder
from swervelib.devices.rev.motor import SparkMotor
from swervelib.devices.settings import EncoderSettings, MotorSettings, Role
from tests.devices.setpoints import Sent, call_lists, make_calls_and_check
from tests.sim import alert_texts

# type string -> (controller class, DCMotor factory) as YAGSL maps them
MOTORS: dict[str, tuple[type, str]] = {
    "sparkmax": (rev.SparkMax, "NEO"),
    "sparkmax_neo": (rev.SparkMax, "NEO"),
    "neo": (rev.SparkMax, "NEO"),
    "sparkmax_neo550": (rev.SparkMax, "NEO550"),
    "neo550": (rev.SparkMax, "NEO550"),
    "sparkmax_vortex": (rev.SparkMax, "neoVortex"),
    "sparkflex": (rev.SparkFlex, "neoVortex"),
    "sparkflex_vortex": (rev.SparkFlex, "neoVortex"),
    "vortex": (rev.SparkFlex, "neoVortex"),
    "sparkflex_neo": (rev.SparkFlex, "NEO"),
    "sparkflex_neo550": (rev.SparkFlex, "NEO550"),
}
# encoder type string -> (adapter class, angle motor type it plugs into)
ENCODERS: dict[str, tuple[type, str]] = {
    "integrated": (SparkAttachedEncoder, "sparkmax"),
    "attached": (SparkAttachedEncoder, "sparkmax"),
    "sparkflex_integrated": (SparkAttachedEncoder, "sparkflex"),
    "sparkflex_attached": (SparkAttachedEncoder, "sparkflex"),
    "sparkmax_analog": (SparkAnalogEncoder, "sparkmax"),
    "sparkmax_analog5v": (SparkAnalogEncoder, "sparkmax"),
}
ANALOG_FULL_SCALE = {"sparkmax_analog": 3.3, "sparkmax_analog5v": 5.0}

ANGLE_DEG_PER_ROTATION = 360.0 / 12.8  # MK4i-like steering ratio
DRIVE_M_PER_ROTATION = math.pi * 0.1016 / 6.75  # 4 in wheel, L2 ratio
DT = 0.02
MOUNTINGS = (True, False)  # bare device turns positive when the mechanism turns CCW?
CAN_FAULT = rev.SparkBase.Faults(1 << 3)
SENSOR_FAULT = rev.SparkBase.Faults(1 << 2)
NO_FAULTS = rev.SparkBase.Faults(0)

_ids = itertools.count(1)


def next_id() -> int:
    """A CAN id no other Spark in this process uses (REV refuses duplicates)."""
    can_id = next(_ids)
    assert can_id <= 62, "ran out of CAN ids"
    return can_id


@pytest.fixture(autouse=True)
def enabled_driver_station() -> Iterator[None]:
    DriverStationSim.setEnabled(True)
    DriverStationSim.notifyNewData()
    yield
    DriverStationSim.setEnabled(False)
    DriverStationSim.notifyNewData()


def motor_settings(
    type_name: str,
    *,
    role: Role = Role.ANGLE,
    inverted: bool = False,
    pidf: PIDF | None = None,
    brushed_encoder: str | None = None,
    can_id: int | None = None,
) -> MotorSettings:
    """``can_id``: a Spark already made (the pool hands it back, configured afresh); by default
    a new one."""
    can_id = next_id() if can_id is None else can_id
    drive = role is Role.DRIVE
    return MotorSettings(
        label=f"REV test {role.value} motor ({type_name} {can_id})",
        role=role,
        device=DeviceConfig(type_name, can_id, brushed_encoder=brushed_encoder),
        motor_type=MOTOR_TYPES[type_name],
        inverted=inverted,
        brake=drive,
        current_limit_a=80.0 if drive else 60.0,
        ramp_rate_s=0.1,
        units_per_rotation=DRIVE_M_PER_ROTATION if drive else ANGLE_DEG_PER_ROTATION,
        optimal_voltage=12.0,
        pidf=pidf,
    )


def make_motor(type_name: str, **kwargs: Any) -> SparkMotor:
    motor = registry.motor_adapter(type_name)(motor_settings(type_name, **kwargs))
    assert isinstance(motor, SparkMotor)
    return motor


def make_encoder(type_name: str, inverted: bool, angle_type: str | None = None) -> Any:
    angle_motor = make_motor(angle_type or ENCODERS[type_name][1])
    settings = EncoderSettings(
        label=f"REV test encoder ({type_name} on {angle_motor.settings.device.id})",
        device=DeviceConfig(type_name, 0),
        encoder_type=ENCODER_TYPES[type_name],
        inverted=inverted,
    )
    return registry.encoder_adapter(type_name)(settings, angle_motor)


def hold(motor: SparkMotor, rotor: float, steps: int, rps: float = 0.0) -> None:
    for _ in range(steps):
        motor.sim.set_rotor(rotor, rps, DT)


def alerts(kind: str = "errors") -> list[str]:
    return alert_texts((kind,))


def turned(before: float, after: float) -> float:
    """Signed shortest change between two angles in degrees."""
    return (after - before + 180.0) % 360.0 - 180.0


# --- motors --------------------------------------------------------------------------------------


@pytest.mark.parametrize("type_name", sorted(MOTORS))
def test_motor_type(type_name: str) -> None:
    check_motor_type(type_name, *MOTORS[type_name])


def check_motor_type(type_name: str, spark_class: type, factory: str, **kwargs: Any) -> None:
    """Right controller and DCMotor; (a) direction vs flag; (b) output sign; (c) degrees, deg/s.
    ``kwargs`` go to :func:`motor_settings`."""
    plain = make_motor(type_name, inverted=False, **kwargs)
    flipped = make_motor(type_name, inverted=True, **kwargs)
    expected_model = getattr(DCMotor, factory)(1)
    for motor in (plain, flipped):
        assert type(motor.spark) is spark_class
        assert type(motor.sim.vendor_sim) is (
            rev.SparkMaxSim if spark_class is rev.SparkMax else rev.SparkFlexSim
        )
        assert motor.dc_motor.freeSpeed == pytest.approx(expected_model.freeSpeed)
        assert motor.dc_motor.stallTorque == pytest.approx(expected_model.stallTorque)
        assert motor.spark.configAccessor.getInverted() is motor.settings.inverted

    # (a) + (c): the mechanism turns 90 degrees CCW; the bare rotor turns as it is mounted.
    for motor in (plain, flipped):
        hold(motor, 0.0, 1)
    for ccw_is_positive in MOUNTINGS:
        matching_flag = not ccw_is_positive
        rotor = (1.0 if ccw_is_positive else -1.0) * 90.0 / ANGLE_DEG_PER_ROTATION
        for motor in (plain, flipped):
            before = motor.get_position()
            motor.sim.set_rotor(rotor, 0.0, DT)
            expected = 90.0 if motor.settings.inverted == matching_flag else -90.0
            assert motor.get_position() - before == pytest.approx(expected, abs=1e-3)
            motor.sim.set_rotor(0.0, 0.0, DT)  # back where it started
            assert motor.get_position() == pytest.approx(before, abs=1e-3)

    # (c) velocity in degrees of module rotation per second, sign by flag
    rps = 5.0
    for motor in (plain, flipped):
        rotor = 0.0
        for _ in range(60):
            rotor += rps * DT
            motor.sim.set_rotor(rotor, rps, DT)
        sign = -1.0 if motor.settings.inverted else 1.0
        assert motor.get_velocity() == pytest.approx(sign * rps * ANGLE_DEG_PER_ROTATION, rel=0.02)

    # (b) positive commanded voltage: bare-motor voltage flips sign with the flag.
    for motor in (plain, flipped):
        for _ in range(25):  # REV's applied output ramps in over ~12 iterate() calls
            motor.set_voltage(3.0)
            motor.sim.set_rotor(0.0, 0.0, DT)
    assert plain.sim.applied_voltage() == pytest.approx(3.0, abs=0.05)
    assert flipped.sim.applied_voltage() == pytest.approx(-3.0, abs=0.05)
    for motor in (plain, flipped):
        assert motor.fault() is None


@pytest.mark.parametrize("type_name", ["sparkmax_neo", "sparkflex_vortex"])
def test_drive_motor_reads_metres(type_name: str) -> None:
    """(c) drive motors: metres and m/s through the conversion factor, sign by flag."""
    for inverted in (False, True):
        motor = make_motor(type_name, role=Role.DRIVE, inverted=inverted)
        sign = -1.0 if inverted else 1.0
        motor.sim.set_rotor(0.0, 0.0, DT)
        motor.sim.set_rotor(6.75, 0.0, DT)  # one wheel revolution
        assert motor.get_position() == pytest.approx(sign * math.pi * 0.1016, rel=1e-5)
        rotor, rps = 6.75, 20.0
        for _ in range(150):
            rotor += rps * DT
            motor.sim.set_rotor(rotor, rps, DT)
        assert motor.get_velocity() == pytest.approx(
            sign * rps * DRIVE_M_PER_ROTATION, rel=0.05
        )  # REV filters velocity (not deterministic)
        assert motor.get_position() == pytest.approx(sign * rotor * DRIVE_M_PER_ROTATION, rel=1e-5)


def test_applied_volts_and_current_are_reported() -> None:
    """The applied voltage in the commanded direction (after inversion) and the output current."""
    for inverted in (False, True):
        motor = make_motor("sparkmax", role=Role.DRIVE, inverted=inverted)
        for _ in range(25):  # REV's applied output ramps in over ~12 iterate() calls
            motor.set_voltage(3.0)
            motor.sim.set_rotor(0.0, 0.0, DT)
        assert motor.get_applied_volts() == pytest.approx(3.0, abs=0.1)
        assert math.isfinite(motor.get_current_amps()) and motor.get_current_amps() > 0.0


def test_a_reused_simulator_keeps_its_motor_model_after_the_first_adapter_is_gone() -> None:
    """REVLib's ``SparkMaxSim`` keeps a pointer to the ``DCMotor`` it was built with, and
    robotpy-rev holds no reference to it. The simulator is pooled per CAN id (pool.py) and
    outlives the adapter that built it: a later adapter on the same id (a drive built again, as
    every ``robotpy test`` test does) must find its motor model intact, not freed memory that
    something else reused. Here the memory is reused by motor models whose every constant is not
    finite, so a dangling model shows as a motor current that is not finite."""
    settings = motor_settings("sparkmax", role=Role.DRIVE)
    first = registry.motor_adapter("sparkmax")(settings)
    assert first.sim is not None  # builds the pooled simulator, on first's DCMotor
    del first
    gc.collect()
    junk = [DCMotor(math.inf, math.inf, math.inf, math.nan, math.inf, 1) for _ in range(2000)]
    second = registry.motor_adapter("sparkmax")(settings)
    for _ in range(25):  # REV's applied output ramps in over ~12 iterate() calls
        second.set_voltage(3.0)
        second.sim.set_rotor(0.0, 0.0, DT)
    current = second.get_current_amps()
    assert math.isfinite(current) and current > 0.0, current
    assert second.get_applied_volts() == pytest.approx(3.0, abs=0.1)
    del junk


def test_set_position_seeds_and_survives_simulation_steps() -> None:
    """(e) seeding persists past the REV sim's iterate(), which overwrites robot-side seeds."""
    for inverted in (False, True):
        motor = make_motor("sparkmax_neo550", inverted=inverted)
        sign = -1.0 if inverted else 1.0
        hold(motor, 3.0, 3)  # the rotor is somewhere when the robot boots
        motor.set_position(123.0)
        assert motor.get_position() == pytest.approx(123.0)
        hold(motor, 3.0, 5)
        assert motor.get_position() == pytest.approx(123.0, abs=1e-3)
        hold(motor, 3.5, 1)
        expected = 123.0 + sign * 0.5 * ANGLE_DEG_PER_ROTATION
        assert motor.get_position() == pytest.approx(expected, abs=1e-3)

    # seeded before the sim hook exists (robot code seeds in its constructor)
    drive = make_motor("sparkflex", role=Role.DRIVE)
    drive.set_position(1.5)
    assert drive.get_position() == pytest.approx(1.5)
    hold(drive, 0.0, 3)
    assert drive.get_position() == pytest.approx(1.5, abs=1e-5)
    hold(drive, 1.0, 1)
    assert drive.get_position() == pytest.approx(1.5 + DRIVE_M_PER_ROTATION, abs=1e-5)


class LateFrames:
    """A real Spark's position reading: REVLib's ``getPosition`` answers the last status frame,
    so a seed shows only in the next one. For ``frames`` reads after :meth:`seeded` it answers
    the reading from before the seed (the simulator shows a seed at once)."""

    def __init__(self, motor: SparkMotor) -> None:
        self.read = motor._read_position
        self.late = 0
        self.before = self.read()
        motor._read_position = self

    def seeded(self, frames: int) -> None:
        self.late = frames

    def __call__(self) -> float:
        if self.late:
            self.late -= 1
            return self.before
        self.before = self.read()
        return self.before


def test_a_seed_is_answered_until_the_spark_shows_it() -> None:
    """A module seeded at start-up must not see its angle motor's encoder jump back for a loop
    or two (it would take that for a turn while its absolute encoder stood still, judge the
    absolute reading frozen and fall back to the relative encoder): the seed is answered until
    a reading shows it, and once it does the readings are followed again."""
    motor = make_motor("sparkmax_neo550")
    hold(motor, 3.0, 3)  # the rotor is somewhere when the robot boots
    frames = LateFrames(motor)
    for target in (123.0, 10.0, 250.0):  # each far from the one before
        motor.set_position(target)
        frames.seeded(3)
        readings = [motor.get_position() for _ in range(4)]  # 3 late frames, then the seed
        assert readings == pytest.approx([target] * 4, abs=1e-3), readings
        hold(motor, 3.5, 1)  # the mechanism turns: followed, not held at the seed
        assert motor.get_position() == pytest.approx(
            target + 0.5 * ANGLE_DEG_PER_ROTATION, abs=1e-3
        )
        hold(motor, 3.0, 1)


def test_a_seed_is_not_answered_for_ever() -> None:
    """A Spark that never shows the seed (its frames stopped) is believed again after the
    wait: the seed does not hide a reading for longer than ``SEED_WAIT_S``."""
    motor = make_motor("sparkmax_neo550")
    hold(motor, 3.0, 3)
    frames = LateFrames(motor)
    stale = frames.before
    motor.set_position(stale + 90.0)
    frames.seeded(10**9)
    assert motor.get_position() == pytest.approx(stale + 90.0)
    motor._seed.since -= seeding.SEED_WAIT_S + 0.01  # type: ignore[union-attr]
    assert motor.get_position() == pytest.approx(stale)


def test_angle_closed_loop_wraps_and_uses_gains() -> None:
    """set_angle: position PID in module degrees with continuous wrap; pidf or the default."""
    default = make_motor("sparkmax", inverted=False)
    custom = make_motor("sparkflex", inverted=True, pidf=PIDF(p=0.02, d=0.1, iz=5.0))
    assert default.spark.configAccessor.closedLoop.getP() == pytest.approx(0.01)
    assert custom.spark.configAccessor.closedLoop.getP() == pytest.approx(0.02)
    assert custom.spark.configAccessor.closedLoop.getD() == pytest.approx(0.1)
    assert custom.spark.configAccessor.closedLoop.getIZone() == pytest.approx(5.0)
    for motor in (default, custom):
        accessor = motor.spark.configAccessor
        assert accessor.closedLoop.getPositionWrappingEnabled()
        assert accessor.closedLoop.getPositionWrappingMaxInput() == pytest.approx(360.0)
        assert accessor.encoder.getPositionConversionFactor() == pytest.approx(
            ANGLE_DEG_PER_ROTATION
        )
        assert accessor.encoder.getVelocityConversionFactor() == pytest.approx(
            ANGLE_DEG_PER_ROTATION / 60.0
        )
        assert accessor.getSmartCurrentLimit() == 60
        assert accessor.getOpenLoopRampRate() == pytest.approx(0.1, abs=1e-3)
        # Off in simulation (REVLib's simulator breaks with it on); optimal_voltage on a robot.
        assert accessor.getVoltageCompensation() == pytest.approx(0.0)
        assert accessor.getIdleMode() == rev.SparkBaseConfig.IdleMode.kCoast

    def settle(motor: SparkMotor, degrees: float) -> float:
        for _ in range(25):
            motor.set_angle(degrees)
            motor.sim.set_rotor(0.0, 0.0, DT)
        return motor.sim.applied_voltage()

    # 30 degrees away at p = 0.01 duty/degree: 0.3 duty = 3.6 V, toward CCW (user frame)
    assert settle(default, 30.0) == pytest.approx(3.6, abs=0.1)
    # 330 is 30 degrees clockwise: the short way round
    assert settle(default, 330.0) == pytest.approx(-3.6, abs=0.1)
    assert settle(default, 390.0) == pytest.approx(3.6, abs=0.1)
    # p = 0.02, 12 degrees away: 0.24 duty; the inverted motor's bare rotor turns the other way
    assert settle(custom, 12.0) == pytest.approx(-12.0 * 0.24, abs=0.1)


def test_drive_velocity_feedforward_and_idle_mode() -> None:
    """set_velocity: m/s setpoint plus feedforward volts; set_brake keeps the rest of the config."""
    motor = make_motor("sparkmax_vortex", role=Role.DRIVE, inverted=True)
    assert motor.spark.configAccessor.getIdleMode() == rev.SparkBaseConfig.IdleMode.kBrake
    for _ in range(25):
        motor.set_velocity(0.0, 2.0)
        motor.sim.set_rotor(0.0, 0.0, DT)
    assert motor.sim.applied_voltage() == pytest.approx(-2.0, abs=0.05)  # bare frame: inverted
    for _ in range(10):
        motor.set_velocity(1.0, 0.0)  # 1 m/s error at the default p = 0.1 duty per m/s
        motor.sim.set_rotor(0.0, 0.0, DT)
    assert motor.sim.applied_voltage() == pytest.approx(-1.2, abs=0.05)

    motor.set_brake(False)
    assert motor.spark.configAccessor.getIdleMode() == rev.SparkBaseConfig.IdleMode.kCoast
    assert motor.spark.configAccessor.getInverted() is True
    assert motor.spark.configAccessor.encoder.getPositionConversionFactor() == pytest.approx(
        DRIVE_M_PER_ROTATION
    )
    motor.set_brake(True)
    assert motor.spark.configAccessor.getIdleMode() == rev.SparkBaseConfig.IdleMode.kBrake


class RefusingSpark:
    """A Spark whose ``configure`` answers ``kTimeout`` for the first ``refusals`` calls."""

    def __init__(self, spark: Any, refusals: int) -> None:
        self._spark = spark
        self.refusals = refusals
        self.configured = 0
        self.answering = True  # False: getLastError() says kCANDisconnected

    def getLastError(self) -> Any:
        return self._spark.getLastError() if self.answering else rev.REVLibError.kCANDisconnected

    def configure(self, *args: Any) -> Any:
        self.configured += 1
        if self.refusals:
            self.refusals -= 1
            return rev.REVLibError.kTimeout
        return self._spark.configure(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._spark, name)


def test_an_idle_mode_not_taken_is_tried_again_by_the_health_check() -> None:
    """An idle mode the Spark did not take stays on an Alert (it used to vanish at once) and is
    tried again at each health check, once, while the Spark answers, until it is taken."""
    motor = make_motor("sparkmax_neo", role=Role.DRIVE)
    real = motor.spark
    spark = RefusingSpark(real, refusals=6)
    shown = f"{motor.label}: failed to apply idle mode"

    def shown_now() -> list[str]:
        return [entry for entry in alerts() if entry.startswith(shown)]

    motor.spark = spark
    try:
        motor.set_brake(False)  # five attempts, all refused
        assert spark.configured == 5
        assert shown_now() == [f"{shown} after 5 attempts, tried again at each health check"]
        spark.answering = False  # not answering: no try (it would only wait out a timeout)
        assert motor.fault() is not None
        assert spark.configured == 5
        spark.answering = True
        motor.fault()  # the sixth refusal
        assert spark.configured == 6
        assert shown_now() == [f"{shown}, tried again at each health check"]
        assert real.configAccessor.getIdleMode() == rev.SparkBaseConfig.IdleMode.kBrake
        assert motor.fault() is None  # taken now; the motor itself is fine
        assert spark.configured == 7
        assert real.configAccessor.getIdleMode() == rev.SparkBaseConfig.IdleMode.kCoast
        assert shown_now() == []
        motor.fault()  # nothing left to try
        assert spark.configured == 7
    finally:
        motor.spark = real


def test_motor_faults_raise_and_clear_the_alert() -> None:
    """(d) an active Spark fault and a NaN reading make fault() report and raise the Alert."""
    motor = make_motor("sparkmax_neo")
    hold(motor, 1.0, 2)
    good = motor.get_position()
    assert motor.fault() is None
    assert not any(motor.label in text for text in alerts())

    faults = motor.sim.vendor_sim.getFaultManager()
    faults.setFaults(CAN_FAULT)
    text = motor.fault()
    assert text is not None and "can" in text
    assert any(motor.label in entry and "can" in entry for entry in alerts())
    faults.setFaults(NO_FAULTS)
    assert motor.fault() is None
    assert not any(motor.label in entry for entry in alerts())

    # A sticky fault is history: a warning, not a current fault.
    faults.setStickyFaults(CAN_FAULT)
    assert motor.fault() is None
    assert any(motor.label in entry for entry in alerts("warnings"))
    faults.setStickyFaults(NO_FAULTS)
    motor.fault()
    assert not any(motor.label in entry for entry in alerts("warnings"))

    # The controller reports garbage: getters keep the last good value, fault() says why.
    motor.sim.vendor_sim.setPosition(math.nan)
    motor.sim.vendor_sim.iterate(0.0, 12.0, DT)
    assert motor.get_position() == pytest.approx(good)
    text = motor.fault()
    assert text is not None and "nan" in text.lower()
    assert any(motor.label in entry for entry in alerts())
    hold(motor, 1.0, 1)  # the hook writes a good position again
    assert motor.get_position() == pytest.approx(good)
    assert motor.fault() is None
    assert not any(motor.label in entry for entry in alerts())


def test_motor_rejects_non_rev_controller() -> None:
    settings = motor_settings("sparkmax")
    wrong = dataclasses.replace(settings, motor_type=MOTOR_TYPES["talonfx"])
    with pytest.raises(ValueError, match="talonfx"):
        SparkMotor(wrong)


# --- encoders ------------------------------------------------------------------------------------


@pytest.mark.parametrize("type_name", sorted(ENCODERS))
def test_encoder_type(type_name: str) -> None:
    check_encoder_type(type_name, *ENCODERS[type_name])


def check_encoder_type(type_name: str, adapter: type, angle_type: str) -> None:
    """(a) direction vs flag; (c) degrees in [0, 360) and deg/s; the right adapter and config."""
    plain = make_encoder(type_name, inverted=False, angle_type=angle_type)
    flipped = make_encoder(type_name, inverted=True, angle_type=angle_type)
    for encoder in (plain, flipped):
        assert type(encoder) is adapter
        if adapter is SparkAttachedEncoder:
            accessor = encoder.spark.configAccessor.absoluteEncoder
            assert accessor.getInverted() is encoder.settings.inverted
            assert accessor.getPositionConversionFactor() == pytest.approx(360.0)
            assert accessor.getZeroOffset() == pytest.approx(0.0)
        else:
            accessor = encoder.spark.configAccessor.analogSensor
            full_scale = ANALOG_FULL_SCALE[type_name]
            assert accessor.getPositionConversionFactor() == pytest.approx(360.0 / full_scale)
            encoder.sim.set_raw(0.5, 0.0)  # half a turn is half the full-scale voltage
            assert encoder.sim.vendor_sim.getVoltage() == pytest.approx(full_scale / 2, rel=1e-5)

    for ccw_is_positive in MOUNTINGS:
        matching_flag = not ccw_is_positive
        sign = 1.0 if ccw_is_positive else -1.0
        for encoder in (plain, flipped):
            encoder.sim.set_raw(sign * 10.0 / 360.0, 0.0)
            before = encoder.get_absolute_degrees()
            encoder.sim.set_raw(sign * 40.0 / 360.0, sign * 0.25)  # 30 degrees CCW, 90 deg/s
            after = encoder.get_absolute_degrees()
            velocity = encoder.get_velocity_dps()
            if encoder.settings.inverted == matching_flag:
                assert turned(before, after) == pytest.approx(30.0, abs=1e-3)
                assert after == pytest.approx(40.0, abs=1e-3)  # reads the mechanism angle
                assert velocity == pytest.approx(90.0, abs=1e-3)
            else:
                assert turned(before, after) == pytest.approx(-30.0, abs=1e-3)
                assert velocity == pytest.approx(-90.0, abs=1e-3)

    # (c) any raw value wraps into [0, 360)
    for raw, expected in ((1.25, 90.0), (-0.25, 270.0), (0.0, 0.0), (2.0, 0.0), (0.999, 359.64)):
        plain.sim.set_raw(raw, 0.0)
        assert plain.get_absolute_degrees() == pytest.approx(expected, abs=1e-3)
        flipped.sim.set_raw(raw, 0.0)
        reading = flipped.get_absolute_degrees()
        assert 0.0 <= reading < 360.0
        assert reading == pytest.approx((360.0 - expected) % 360.0, abs=1e-3)
    assert plain.fault() is None and flipped.fault() is None


@pytest.mark.parametrize("type_name", ["attached", "sparkmax_analog"])
def test_encoder_faults_raise_and_clear_the_alert(type_name: str) -> None:
    """(d) the Spark's sensor fault, or garbage readings, make fault() report and raise the Alert."""
    encoder = make_encoder(type_name, inverted=False)
    encoder.sim.set_raw(0.25, 0.0)
    assert encoder.get_absolute_degrees() == pytest.approx(90.0, abs=1e-3)
    assert encoder.fault() is None

    faults = encoder.motor.sim.vendor_sim.getFaultManager()
    faults.setFaults(SENSOR_FAULT)
    text = encoder.fault()
    assert text is not None and "sensor" in text
    assert any(encoder.label in entry for entry in alerts())
    encoder.get_absolute_degrees()
    assert encoder.usable is False  # until a fault check finds the sensor fault gone
    faults.setFaults(NO_FAULTS)
    assert encoder.fault() is None
    assert not any(encoder.label in entry for entry in alerts())
    encoder.get_absolute_degrees()
    assert encoder.usable is True

    vendor = encoder.sim.vendor_sim
    if type_name == "attached":
        vendor.setPosition(math.nan)
    else:
        vendor.setVoltage(math.nan)
    assert encoder.get_absolute_degrees() == pytest.approx(90.0, abs=1e-3)  # last good value
    assert encoder.usable is False
    text = encoder.fault()
    assert text is not None and "nan" in text.lower()
    assert any(encoder.label in entry for entry in alerts())
    encoder.sim.set_raw(0.5, 0.0)
    assert encoder.get_absolute_degrees() == pytest.approx(180.0, abs=1e-3)
    assert encoder.fault() is None
    assert not any(encoder.label in entry for entry in alerts())

    # The Spark cannot tell whether the sensor on its data port is unplugged.
    with pytest.raises(NotImplementedError):
        encoder.sim.set_connected(False)


def test_encoder_refuses_the_wrong_angle_motor() -> None:
    flex = make_motor("sparkflex")
    max_motor = make_motor("sparkmax")
    cases = [
        ("integrated", flex, "sparkmax"),
        ("attached", flex, "sparkmax"),
        ("sparkmax_analog", flex, "sparkmax"),
        ("sparkmax_analog5v", flex, "sparkmax"),
        ("sparkflex_integrated", max_motor, "sparkflex"),
        ("sparkflex_attached", max_motor, "sparkflex"),
        ("integrated", object(), "sparkmax"),
    ]
    for type_name, motor, needed in cases:
        settings = EncoderSettings(
            label=f"wrong {type_name}",
            device=DeviceConfig(type_name, 0),
            encoder_type=ENCODER_TYPES[type_name],
            inverted=False,
        )
        with pytest.raises(ValueError, match=needed) as raised:
            registry.encoder_adapter(type_name)(settings, motor)
        assert type_name in str(raised.value)


# -- set-points with hostile numbers (issue 12 item 1) ------------------------------------------

_REV_CONTROL = {
    rev.SparkBase.ControlType.kVoltage: "volts",
    rev.SparkBase.ControlType.kVelocity: "velocity",
    rev.SparkBase.ControlType.kPosition: "position",
}


def spy_on_revlib(motor: SparkMotor, monkeypatch: pytest.MonkeyPatch) -> Sent:
    """Record every set-point and encoder seed the adapter hands to REVLib."""
    sent = Sent()
    set_setpoint, encoder = motor._set_setpoint, motor._encoder

    def setpoint(value: float, control: Any, *rest: Any) -> Any:
        sent.add(_REV_CONTROL.get(control, f"unexpected {control}"), value, *rest[1:2])
        return set_setpoint(value, control, *rest)

    class Encoder:
        def setPosition(self, value: float) -> Any:
            sent.add("seed", value)
            return encoder.setPosition(value)

    monkeypatch.setattr(motor, "_set_setpoint", setpoint)
    monkeypatch.setattr(motor, "_encoder", Encoder())
    return sent


@pytest.fixture(scope="module")
def rev_motors() -> list[SparkMotor]:
    return [make_motor("sparkflex_vortex", role=role) for role in (Role.ANGLE, Role.DRIVE)]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(index=st.integers(0, 1), calls=call_lists)
def test_only_finite_in_range_setpoints_reach_revlib(
    rev_motors: list[SparkMotor], index: int, calls: list[tuple[str, float, float]]
) -> None:
    motor = rev_motors[index]
    with pytest.MonkeyPatch.context() as monkeypatch:
        sent = spy_on_revlib(motor, monkeypatch)
        make_calls_and_check(
            motor, sent, calls, after_each=lambda: motor.sim.set_rotor(0.0, 0.0, DT)
        )


# --- static feedforward (pidfproperties.json angle.s) ----------------------------------------------

STATIC_VOLTS = 0.5
_static_ids: list[int] = []


def static_id() -> int:
    """The one CAN id the static feedforward tests share (the ids run out otherwise)."""
    if not _static_ids:
        _static_ids.append(next_id())
    return _static_ids[0]


TINY_P = 1e-6  # duty cycle per degree: its share of the output is under 0.001 V at 20° of error


def _angle_volts(motor: SparkMotor, target: float, feedback: Any = None) -> float:
    """The angle motor's output (volts, motor frame) held still, after ``set_angle(target)`` each
    loop for 0.6 s (the output ramps in over 0.1 s); ``feedback()`` writes the absolute encoder's
    reading before each step, as the physics does."""
    for _ in range(30):
        if feedback is not None:
            feedback()
        motor.get_position()
        motor.set_angle(target)
        motor.sim.set_rotor(0.0, 0.0, DT)
    return motor.sim.applied_voltage()


# (where the motor's encoder is, set-point in [0, 360), sign of the shortest turn): the last four
# are more than half a turn from the set-point as written, where REV's simulator would push
# against the turn (it takes kS's sign from the error before wrapping).
STATIC_CASES = [
    (0.0, 10.0, 1.0),
    (0.0, 350.0, -1.0),
    (725.0, 10.0, 1.0),
    (365.0, 10.0, 1.0),
    (-5.0, 350.0, -1.0),
    (-370.0, 340.0, -1.0),
]


@pytest.mark.parametrize("inverted", [False, True])
def test_static_feedforward_pushes_the_shortest_way(inverted: bool) -> None:
    """angle.s is the Spark's kS: it adds s volts by the sign of the shortest turn to the
    set-point, wherever the motor's (continuous) encoder is. (One Spark for every case: REVLib
    allows one per CAN id and process, and the ids run out.)"""
    motor = make_motor(
        "sparkmax", pidf=PIDF(p=TINY_P, s=STATIC_VOLTS), inverted=inverted, can_id=static_id()
    )
    assert motor.spark.configAccessor.closedLoop.feedForward.getkS() == pytest.approx(STATIC_VOLTS)
    motor.sim.set_rotor(0.0, 0.0, DT)
    bare = -1.0 if inverted else 1.0
    for position, target, sign in STATIC_CASES:
        motor.set_position(position)
        volts = _angle_volts(motor, target)
        assert motor.get_position() == pytest.approx(position, abs=1e-3)
        assert volts == pytest.approx(bare * sign * STATIC_VOLTS, abs=0.01), (position, target)


def test_static_feedforward_on_the_absolute_encoder_pushes_the_shortest_way() -> None:
    """Steering on the absolute encoder on the data port (degrees in [0, 360)): 20° either way
    across 0 is pushed the short way."""
    settings = dataclasses.replace(
        motor_settings("sparkmax", pidf=PIDF(p=TINY_P, s=STATIC_VOLTS), can_id=static_id()),
        steer_feedback=SteerFeedback.ABSOLUTE_ENCODER,
    )
    motor = registry.motor_adapter("sparkmax")(settings)
    assert isinstance(motor, SparkMotor) and motor.absolute_feedback
    encoder = registry.encoder_adapter("attached")(
        EncoderSettings(
            label=f"REV test attached encoder on {settings.device.id}",
            device=DeviceConfig("attached", 0),
            encoder_type=ENCODER_TYPES["attached"],
            inverted=False,
        ),
        motor,
    )
    for reading, target, sign in [(350.0, 10.0, 1.0), (10.0, 340.0, -1.0), (100.0, 90.0, -1.0)]:
        volts = _angle_volts(motor, target, lambda r=reading: encoder.sim.set_raw(r / 360.0, 0.0))
        assert volts == pytest.approx(sign * STATIC_VOLTS, abs=0.01), (reading, target)


@pytest.mark.parametrize("reading", [math.nan, math.inf, -math.inf, 1e308, -1e308])
def test_static_feedforward_with_a_hostile_reading_sends_the_set_point_as_written(
    reading: float,
) -> None:
    """Brought within half a turn of a reading of 1e308, the set-point was 1e308 (10 degrees lost
    in rounding) and went to the Spark; a reading beyond any mechanism (the guard's bound on a
    set-point) is not used, as one that is not finite is not."""
    motor = make_motor("sparkmax", pidf=PIDF(p=TINY_P, s=STATIC_VOLTS), can_id=static_id())
    sent: list[float] = []
    motor._read_feedback = lambda: reading
    motor._set_setpoint = lambda value, *_: sent.append(value)
    motor.set_angle(370.0)
    assert sent == [10.0]


def test_static_feedforward_is_for_the_angle_motor_only() -> None:
    """A drive motor never gets kS (a Spark's velocity loop would add it by the set-point's sign,
    at 0 m/s too), and an angle motor without s sends its set-point as before, reading nothing."""
    drive = make_motor(
        "sparkmax", role=Role.DRIVE, pidf=PIDF(p=0.1, s=STATIC_VOLTS), can_id=static_id()
    )
    assert drive.spark.configAccessor.closedLoop.feedForward.getkS() == 0.0
    plain = make_motor("sparkmax", pidf=PIDF(p=TINY_P), can_id=static_id())
    assert plain.spark.configAccessor.closedLoop.feedForward.getkS() == 0.0
    assert plain._read_feedback is None
    plain.sim.set_rotor(0.0, 0.0, DT)
    assert abs(_angle_volts(plain, 10.0)) < 0.01
