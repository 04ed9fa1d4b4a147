"""phoenix5 adapters (talonsrx, talonsrx_pwm, talonsrx_analog, pigeon, pigeon_via_talonsrx) against
the CTRE simulator.

phoenix5 sim readings arrive on a wall-clock schedule (status frames every 10-20 ms), so every
check first waits, with a deadline, until the reading it is about changes (or reaches its target),
then asserts on it; a reading that never arrives fails the assertion. Each test uses fresh CAN ids
(the CTRE sim keeps a device's state for the whole process).
"""

from __future__ import annotations

import gc
import itertools
import math
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import phoenix5
import pytest
import wpilib
from hypothesis import given, settings
from hypothesis import strategies as st
from phoenix5.sensors import PigeonIMU_StatusFrame
from wpilib.simulation import DriverStationSim

from swervelib.angles import nearest_equivalent
from swervelib.config.catalog import ENCODER_TYPES, IMU_TYPES, MOTOR_TYPES
from swervelib.config.model import PIDF, DeviceConfig
from swervelib.devices import ctre5, registry
from swervelib.devices.ctre5 import talonsrx
from swervelib.devices.ctre5.encoders import TalonSRXAttachedEncoder, TalonSRXStandaloneEncoder
from swervelib.devices.ctre5.pigeon import PigeonImu
from swervelib.devices.ctre5.talonsrx import TalonSRXMotor
from swervelib.devices.faults import FaultAlert
from swervelib.devices.interfaces import Device
from swervelib.devices.settings import EncoderSettings, ImuSettings, MotorSettings, Role
from tests.devices.setpoints import Sent, call_lists, make_calls_and_check
from tests.sim import alert_texts
from tests.waits import PATIENCE_S

T = TypeVar("T")

ANGLE_DEG_PER_ROT = 360.0 / 12.8  # 12.8:1 steering
DRIVE_M_PER_ROT = math.pi * 4 * 0.0254 / 8.14  # 4 in wheel, 8.14:1 (L1)

_talon_ids = itertools.count(1)  # Talon SRX CAN ids (also used by pigeon_via_talonsrx)
_pigeon_ids = itertools.count(1)  # Pigeon IMU CAN ids (a different device type: no clash)


# ------------------------------------------------------------------------------------------ helpers


def wait_for(
    read: Callable[[], T],
    done: Callable[[T], bool],
    timeout: float = PATIENCE_S,
    each: Callable[[], None] | None = None,
) -> T:
    """Poll ``read`` (calling ``each`` first every time) until ``done`` (or, for a wait that will
    never succeed, :data:`~tests.waits.PATIENCE_S`: not a time budget); the last reading."""
    deadline = time.monotonic() + timeout
    while True:
        if each is not None:
            each()
        value = read()
        if done(value) or time.monotonic() > deadline:
            return value
        time.sleep(0.005)


def near(
    target: float, tolerance: float, difference: Callable[[float, float], float] | None = None
) -> Callable[[float], bool]:
    """A ``wait_for`` condition: the reading is within ``tolerance`` of ``target``."""
    diff = difference or (lambda a, b: b - a)
    return lambda value: abs(diff(target, value)) <= tolerance


def observe(
    device: Device, seconds: float = 0.25, each: Callable[[], None] | None = None
) -> str | None:
    """Refresh ``device`` for ``seconds`` (longer than the fault debounce); return its fault.

    Its first status frames are awaited before the window opens: on a loaded machine they can be
    late, and a device not heard from yet is not what the window watches for."""
    healthy(device)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if each is not None:
            each()
        device.refresh()
        time.sleep(0.005)
    return device.fault()


def healthy(device: Device) -> str | None:
    """The device's fault once it reports none. The phoenix5 simulator's frames follow the wall
    clock: on a loaded machine a just-built device's first status frames can be late, so a
    start-up read may time out before the device is seen to be healthy."""
    return wait_for(device.fault, lambda f: f is None, each=device.refresh)


def motor(
    role: Role, inverted: bool, *, pidf: PIDF | None = None, ramp: float = 0.0
) -> TalonSRXMotor:
    talon_id = next(_talon_ids)
    return TalonSRXMotor(
        MotorSettings(
            label=f"test {role.value} motor (talonsrx {talon_id})",
            role=role,
            device=DeviceConfig("talonsrx", talon_id),
            motor_type=MOTOR_TYPES["talonsrx"],
            inverted=inverted,
            brake=role is Role.DRIVE,
            current_limit_a=40 if role is Role.DRIVE else 20,
            ramp_rate_s=ramp,
            units_per_rotation=DRIVE_M_PER_ROT if role is Role.DRIVE else ANGLE_DEG_PER_ROT,
            optimal_voltage=12.0,
            pidf=pidf,
        )
    )


def encoder(type_name: str, inverted: bool, angle_motor: object) -> TalonSRXAttachedEncoder:
    return TalonSRXAttachedEncoder(
        EncoderSettings(
            label=f"test encoder ({type_name}, inverted={inverted})",
            device=DeviceConfig(type_name, 0),
            encoder_type=ENCODER_TYPES[type_name],
            inverted=inverted,
        ),
        angle_motor,
    )


def imu(type_name: str, inverted: bool) -> PigeonImu:
    device_id = next(_talon_ids) if type_name == "pigeon_via_talonsrx" else next(_pigeon_ids)
    return PigeonImu(
        ImuSettings(
            label=f"test IMU ({type_name} {device_id})",
            device=DeviceConfig(type_name, device_id),
            imu_type=IMU_TYPES[type_name],
            inverted=inverted,
        )
    )


def test_a_pigeon_on_a_named_can_bus_says_the_bus_is_ignored() -> None:
    """phoenix5 Pigeons are on the roboRIO bus: a ``canbus`` is ignored, with a warning Alert
    that stays (it used to vanish as soon as it was raised)."""
    device_id = next(_pigeon_ids)
    gyro = PigeonImu(
        ImuSettings(
            label=f"test IMU (pigeon {device_id}, canbus)",
            device=DeviceConfig("pigeon", device_id, "canivore"),
            imu_type=IMU_TYPES["pigeon"],
            inverted=False,
        )
    )
    gc.collect()
    assert (
        f"{gyro.label}: canbus `canivore` ignored: phoenix5 Pigeon IMUs are on the roboRIO bus"
        in alert_texts(("warnings",))
    )


def turned(before: float, after: float) -> float:
    """Signed change of an angle in [0, 360), across the wrap."""
    return math.remainder(after - before, 360.0)


@pytest.fixture
def enabled() -> Iterator[None]:
    """Driver Station enabled (phoenix5 outputs need it, plus the adapters' enable feed)."""
    DriverStationSim.setDsAttached(True)
    DriverStationSim.setAutonomous(False)
    DriverStationSim.setEnabled(True)
    DriverStationSim.notifyNewData()
    assert wpilib.DriverStation.isEnabled()
    yield
    DriverStationSim.setEnabled(False)
    DriverStationSim.notifyNewData()


def test_registry_builds_these_adapters() -> None:
    assert registry.motor_adapter("talonsrx") is TalonSRXMotor
    assert registry.encoder_adapter("talonsrx_pwm") is TalonSRXAttachedEncoder
    assert registry.encoder_adapter("talonsrx_analog") is TalonSRXAttachedEncoder
    assert registry.imu_adapter("pigeon") is PigeonImu
    assert registry.imu_adapter("pigeon_via_talonsrx") is PigeonImu


# ------------------------------------------------------------------------------------ talonsrx


@pytest.mark.parametrize("role", [Role.ANGLE, Role.DRIVE])
@pytest.mark.parametrize("bare_ccw", [True, False], ids=["motor-ccw-positive", "motor-cw-positive"])
def test_talonsrx_ccw_turn_increases_reading_only_with_the_right_flag(
    role: Role, bare_ccw: bool
) -> None:
    """(a)+(c) Hardware whose bare motor turns the module/wheel CCW when driven forward needs
    inverted=False, the other hardware inverted=True; the wrong flag reads the turn backwards."""
    right = motor(role, inverted=not bare_ccw)
    wrong = motor(role, inverted=bare_ccw)
    # Turn the mechanism counter-clockwise by 2.5 motor rotations at 1.5 rotations/s.
    rotor = 2.5 if bare_ccw else -2.5
    rate = 1.5 if bare_ccw else -1.5
    for m in (right, wrong):
        m.sim.set_rotor(rotor, rate, 0.02)
    unit = DRIVE_M_PER_ROT if role is Role.DRIVE else ANGLE_DEG_PER_ROT
    for m, sign in ((right, 1.0), (wrong, -1.0)):
        position = wait_for(m.get_position, lambda p: p != 0.0)
        velocity = wait_for(m.get_velocity, lambda v: v != 0.0)
        assert position == pytest.approx(sign * 2.5 * unit, rel=1e-3)
        # Velocity: native counts per 100 ms are whole numbers (round(1.5 * 409.6) = 614).
        assert velocity == pytest.approx(sign * 1.5 * unit, rel=2e-3)


@pytest.mark.parametrize("role", [Role.ANGLE, Role.DRIVE])
def test_talonsrx_positive_voltage_reverses_the_bare_motor_when_inverted(
    enabled: None, role: Role
) -> None:
    """(b) set_voltage(+6): the bare motor sees +6 V, or -6 V with the flag flipped."""
    plain = motor(role, inverted=False)
    flipped = motor(role, inverted=True)

    def command() -> None:
        plain.set_voltage(6.0)
        flipped.set_voltage(6.0)

    # The first outputs after an enable overshoot while the Talon's voltage compensation settles.
    v_plain = wait_for(plain.sim.applied_voltage, lambda v: abs(v - 6.0) < 0.05, each=command)
    v_flipped = wait_for(flipped.sim.applied_voltage, lambda v: abs(v + 6.0) < 0.05, each=command)
    assert v_plain == pytest.approx(6.0, abs=0.05)
    assert v_flipped == pytest.approx(-6.0, abs=0.05)
    # what the adapters report: the commanded direction after inversion, and a current
    for m in (plain, flipped):
        assert wait_for(m.get_applied_volts, lambda v: abs(v - 6.0) < 0.1, each=command) == (
            pytest.approx(6.0, abs=0.1)
        )
        assert math.isfinite(m.get_current_amps())


def test_talonsrx_outputs_stop_without_driver_station_enable() -> None:
    """The enable feed is only given while the DS is enabled."""
    DriverStationSim.setEnabled(False)
    DriverStationSim.notifyNewData()
    # An earlier test's 100 ms enable feed may still be running, and the simulated devices see
    # the end of it about 100 ms later: let both run out first.
    assert wait_for(phoenix5.Unmanaged.getEnableState, lambda on: not on) is False
    time.sleep(0.15)  # the device-side enable times out 100 ms (wall clock) after the last feed
    m = motor(Role.DRIVE, inverted=False)
    m.set_voltage(6.0)
    assert healthy(m) is None  # its frames are arriving: a 6 V output would show
    deadline = time.monotonic() + 0.2
    while time.monotonic() < deadline:
        m.set_voltage(6.0)
        assert m.sim.applied_voltage() == 0.0
        time.sleep(0.01)


def test_commands_renew_the_sim_enable_feed_once_per_period_and_whenever_due(
    enabled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every kind of command renews the enable feed when a renewal is due, and none calls the
    feed in between (the due test is made before the call: most commands make none)."""
    now = [500.0]
    fed: list[int] = []
    feeds = [0]
    clock = lambda: now[0]  # noqa: E731 - the feed's clock, stepped by hand
    monkeypatch.setattr(ctre5, "monotonic", clock)
    monkeypatch.setattr(talonsrx, "monotonic", clock)
    monkeypatch.setattr(phoenix5.Unmanaged, "feedEnable", fed.append)
    monkeypatch.setattr(ctre5.ENABLE_FEED, "next_s", 0.0)
    real_feed = type(ctre5.ENABLE_FEED).feed

    def counted_feed(self: Any) -> None:
        feeds[0] += 1
        real_feed(self)

    monkeypatch.setattr(type(ctre5.ENABLE_FEED), "feed", counted_feed)
    drive, angle = motor(Role.DRIVE, inverted=False), motor(Role.ANGLE, inverted=False)
    commands = (
        lambda: drive.set_velocity(0.5, 1.0),
        lambda: angle.set_angle(30.0),
        lambda: drive.set_voltage(2.0),
    )
    for command in commands:
        before = len(fed)
        command()  # due: renewed
        assert fed[before:] == [ctre5.SIM_ENABLE_FEED_MS]
        calls = feeds[0]
        for _ in range(3):
            now[0] += ctre5.SIM_FEED_EVERY_S / 4  # still within the period
            for other in commands:
                other()
        assert feeds[0] == calls and len(fed) == before + 1  # no call at all in between
        now[0] += ctre5.SIM_FEED_EVERY_S / 4  # the period is over: the next command renews
    assert len(fed) == len(commands)


@pytest.mark.parametrize("inverted", [False, True])
def test_talonsrx_velocity_feedforward_is_in_volts(enabled: None, inverted: bool) -> None:
    """Drive closed loop: at zero speed error only the arbitrary feedforward drives the motor."""
    m = motor(Role.DRIVE, inverted=inverted)
    expected = -3.0 if inverted else 3.0
    voltage = wait_for(
        m.sim.applied_voltage,
        lambda v: abs(v - expected) < 0.05,
        each=lambda: m.set_velocity(0.0, 3.0),
    )
    assert voltage == pytest.approx(expected, abs=0.05)


@pytest.mark.parametrize("inverted", [False, True])
def test_talonsrx_angle_goes_the_short_way_round(enabled: None, inverted: bool) -> None:
    """Angle closed loop: at 710 deg, a 10 deg setpoint means +20 deg (730), not -700 deg.

    kP is 1 % output per degree of module error, so +20 deg gives 0.20 x 12 V = 2.4 V forward."""
    m = motor(Role.ANGLE, inverted=inverted, pidf=PIDF(p=0.01))
    rotor = 710.0 / ANGLE_DEG_PER_ROT
    m.sim.set_rotor(-rotor if inverted else rotor, 0.0, 0.02)
    assert wait_for(m.get_position, lambda p: p != 0.0) == pytest.approx(710.0, abs=0.01)
    expected = -2.4 if inverted else 2.4
    voltage = wait_for(
        m.sim.applied_voltage, lambda v: abs(v - expected) < 0.05, each=lambda: m.set_angle(10.0)
    )
    assert voltage == pytest.approx(expected, abs=0.05)


def test_nearest_equivalent_setpoint() -> None:
    assert nearest_equivalent(10.0, 710.0) == pytest.approx(730.0)
    assert nearest_equivalent(350.0, 5.0) == pytest.approx(-10.0)
    assert nearest_equivalent(90.0, -270.0) == pytest.approx(-270.0)
    assert nearest_equivalent(-90.0, 1000.0) == pytest.approx(990.0)


@pytest.mark.parametrize("role", [Role.ANGLE, Role.DRIVE])
def test_talonsrx_set_position_seeds_the_encoder(role: Role) -> None:
    """(e) set_position seeds the relative reading; later rotor motion adds to the seed."""
    m = motor(role, inverted=True)
    unit = DRIVE_M_PER_ROT if role is Role.DRIVE else ANGLE_DEG_PER_ROT
    count = unit / 4096  # one quadrature count
    seed = 123.0 if role is Role.ANGLE else 4.5
    m.set_position(seed)
    assert m.get_position() == pytest.approx(seed, abs=count)  # at once (see the test below)
    # The Talon applies the seed when it gets it; rotor motion before that would be seeded over,
    # so wait until its own reading (the vendor call) shows the seed.
    shown = wait_for(lambda: m.talon.getSelectedSensorPosition(0) * m._unit, lambda p: p != 0.0)
    assert shown == pytest.approx(seed, abs=count)
    m.sim.set_rotor(-1.0, 0.0, 0.02)  # inverted: the bare rotor backwards is the mechanism forwards
    after = wait_for(m.get_position, lambda p: abs(p - seed) > 2 * count)
    assert after == pytest.approx(seed + unit, abs=2 * count)
    assert observe(m) is None


def test_talonsrx_answers_its_seed_until_the_frames_show_it() -> None:
    """A seed shows in the Talon's next status frames: meanwhile get_position() answers the seed,
    never the reading from before it (the module would take the jump back for a turn)."""
    m = motor(Role.ANGLE, inverted=False)
    count = ANGLE_DEG_PER_ROT / 4096
    m.sim.set_rotor(0.25, 0.0, 0.02)
    before = wait_for(m.get_position, lambda p: p != 0.0)
    assert before == pytest.approx(0.25 * ANGLE_DEG_PER_ROT, abs=count)
    m.set_position(123.0)
    deadline = time.monotonic() + 0.05  # within the first frames after the seed
    readings = []
    while time.monotonic() < deadline:
        readings.append(m.get_position())
        time.sleep(0.002)
    assert readings and all(r == pytest.approx(123.0, abs=2 * count) for r in readings), readings
    assert observe(m) is None


@pytest.mark.parametrize("position_first", [True, False])
def test_a_talonsrx_whose_frames_stop_is_not_answering(position_first: bool) -> None:
    """The Talon's feedback frame (position and velocity) goes stale, as when it is unplugged: the
    fault appears whether the velocity is read alone or after the position (whose check covers
    the velocity read after it), and clears when the frames come back. 255 ms frames are stale
    most of the time (see the Pigeon's test). A failed position read tells the drive at once that
    the reading is not live (``watch_reading``: it estimates that wheel), the fault check that
    cleared that it is again."""
    m = motor(Role.DRIVE, inverted=False)
    assert healthy(m) is None
    told: list[bool] = []  # what the drive is told: the position reading live or not
    assert m.watch_reading(told.append)
    feedback = phoenix5.StatusFrameEnhanced.Status_2_Feedback0

    def loop() -> None:
        if position_first:
            m.get_position()
        m.get_velocity()
        m.refresh()

    m.talon.setStatusFramePeriod(feedback, 255, 50)
    fault = wait_for(m.fault, lambda f: f is not None, each=loop)
    # (after a failed position read the velocity is checked too, and its failure is the last)
    assert fault is not None and "not answering: velocity read failed" in fault, fault
    if position_first:  # a failed position read tells at once
        assert told[:1] == [False], told
    m.talon.setStatusFramePeriod(feedback, 20, 50)
    assert wait_for(m.fault, lambda f: f is None, each=loop) is None
    if position_first:  # ... and the health check (fault()) that it answers again
        assert told[-1] is True, told


def test_talonsrx_encoder_out_of_phase_is_a_fault_and_clears(enabled: None) -> None:
    """(d) Driving forward while the encoder counts backwards: the Talon flags SensorOutOfPhase."""
    m = motor(Role.DRIVE, inverted=False)
    rotor = [0.0]

    def run(step: float) -> Callable[[], None]:
        def each() -> None:
            m.set_voltage(6.0)
            rotor[0] += step
            m.sim.set_rotor(rotor[0], step / 0.005, 0.005)
            m.refresh()

        return each

    assert observe(m, each=run(+0.02)) is None
    assert m.alert.active is None
    fault = wait_for(m.fault, lambda f: f is not None, each=run(-0.02))
    assert fault is not None and "out of phase" in fault
    assert m.alert.active == fault
    cleared = wait_for(m.fault, lambda f: f is None, each=run(+0.02))
    assert cleared is None
    assert m.alert.active is None


# --------------------------------------------------------------------- talonsrx_pwm / _analog


ENCODER_KINDS = ["talonsrx_pwm", "talonsrx_analog"]


@pytest.mark.parametrize("kind", ENCODER_KINDS)
@pytest.mark.parametrize(
    "bare_ccw", [True, False], ids=["sensor-ccw-positive", "sensor-cw-positive"]
)
def test_attached_encoder_ccw_turn_increases_reading_only_with_the_right_flag(
    kind: str, bare_ccw: bool
) -> None:
    """(a) Both encoders read the same bare sensor; only the right flag sees the CCW turn as CCW."""
    angle_motor = motor(Role.ANGLE, inverted=False)
    right = encoder(kind, inverted=not bare_ccw, angle_motor=angle_motor)
    wrong = encoder(kind, inverted=bare_ccw, angle_motor=angle_motor)
    sign = 1.0 if bare_ccw else -1.0

    def both() -> tuple[float, float]:
        return right.get_absolute_degrees(), wrong.get_absolute_degrees()

    right.sim.set_raw(sign * 0.25, 0.0)  # a quarter turn CCW from the sensor's zero
    start_right, start_wrong = wait_for(both, lambda r: abs(r[0] - 90.0) < 0.4)
    assert start_right == pytest.approx(90.0, abs=0.4)
    assert start_wrong == pytest.approx(270.0, abs=0.4)
    right.sim.set_raw(sign * 0.30, 0.0)  # turn the module 18 deg further counter-clockwise
    end_right, end_wrong = wait_for(both, lambda r: abs(r[0] - start_right) > 1.0)
    assert turned(start_right, end_right) == pytest.approx(18.0, abs=0.4)
    assert turned(start_wrong, end_wrong) == pytest.approx(-18.0, abs=0.4)


@pytest.mark.parametrize(
    ("kind", "resolution"), [("talonsrx_pwm", 360 / 4096), ("talonsrx_analog", 360 / 1024)]
)
def test_attached_encoder_reads_degrees_in_0_360(kind: str, resolution: float) -> None:
    """(c) Degrees of the bare sensor's rotations, wrapped to [0, 360), negated when inverted."""
    angle_motor = motor(Role.ANGLE, inverted=False)
    plain = encoder(kind, inverted=False, angle_motor=angle_motor)
    flipped = encoder(kind, inverted=True, angle_motor=angle_motor)
    for rotations, expected in ((1.25, 90.0), (-0.125, 315.0), (2.0, 0.0), (0.6, 216.0)):
        plain.sim.set_raw(rotations, 0.0)
        reading = wait_for(plain.get_absolute_degrees, near(expected, resolution, turned))
        assert reading == pytest.approx(expected, abs=resolution)
        assert flipped.get_absolute_degrees() == pytest.approx((-reading) % 360.0, abs=1e-9)
        assert 0.0 <= flipped.get_absolute_degrees() < 360.0
    assert observe(plain) is None


def test_attached_encoder_needs_a_talonsrx_angle_motor() -> None:
    class SparkLike:
        label = "front left angle motor (sparkmax 3)"

    with pytest.raises(TypeError, match=r"talonsrx_pwm.*sparkmax 3.*`talonsrx`"):
        encoder("talonsrx_pwm", inverted=False, angle_motor=SparkLike())


def test_mag_encoder_unplugged_is_a_fault_and_clears() -> None:
    """(d) No pulse-width signal (rise-to-rise period 0) is reported; the last angle is kept."""
    angle_motor = motor(Role.ANGLE, inverted=False)
    mag = encoder("talonsrx_pwm", inverted=False, angle_motor=angle_motor)
    mag.sim.set_raw(0.1, 0.0)
    before = wait_for(mag.get_absolute_degrees, lambda d: d != 0.0)
    assert before == pytest.approx(36.0, abs=0.1)
    assert observe(mag) is None
    mag.sim.set_connected(False)
    fault = wait_for(mag.fault, lambda f: f is not None, each=mag.refresh)
    assert fault is not None and "disconnected" in fault
    assert mag.alert.active == fault
    assert mag.usable is False  # the module turns to its angle motor's encoder
    assert mag.get_absolute_degrees() == before
    mag.sim.set_connected(True)
    assert wait_for(mag.fault, lambda f: f is None, each=mag.refresh) is None
    assert mag.alert.active is None
    assert mag.usable is True


def test_analog_encoder_cannot_simulate_a_disconnect() -> None:
    angle_motor = motor(Role.ANGLE, inverted=False)
    analog = encoder("talonsrx_analog", inverted=False, angle_motor=angle_motor)
    with pytest.raises(NotImplementedError):
        analog.sim.set_connected(False)


# ------------------------------------------------------------------------------ srxmag_standalone


def standalone(inverted: bool) -> TalonSRXStandaloneEncoder:
    """An SRX Mag Encoder on a Talon SRX of its own; the angle motor is some other controller."""
    talon_id = next(_talon_ids)
    encoder = registry.encoder_adapter("srxmag_standalone")(
        EncoderSettings(
            label=f"test encoder (srxmag_standalone {talon_id}, inverted={inverted})",
            device=DeviceConfig("srxmag_standalone", talon_id),
            encoder_type=ENCODER_TYPES["srxmag_standalone"],
            inverted=inverted,
        ),
        object(),  # e.g. a Spark MAX: the encoder does not use it
    )
    assert isinstance(encoder, TalonSRXStandaloneEncoder)
    return encoder


def test_standalone_mag_encoder_reads_its_own_talon() -> None:
    """(a) only the right flag sees a CCW turn as CCW; (c) 4096 units a turn, in [0, 360)."""
    plain, flipped = standalone(False), standalone(True)
    assert plain.talon.getDeviceID() == plain.settings.device.id
    for rotations, expected in ((0.25, 90.0), (0.30, 108.0), (1.6, 216.0), (-0.125, 315.0)):
        for encoder in (plain, flipped):
            encoder.sim.set_raw(rotations, 0.0)
        reading = wait_for(plain.get_absolute_degrees, near(expected, 360 / 4096, turned))
        assert reading == pytest.approx(expected, abs=360 / 4096)
        other = wait_for(flipped.get_absolute_degrees, near(-expected % 360.0, 360 / 4096, turned))
        assert other == pytest.approx(-expected % 360.0, abs=360 / 4096)
    assert healthy(plain) is None and healthy(flipped) is None


def test_standalone_mag_encoder_unplugged_is_a_fault_and_clears() -> None:
    mag = standalone(False)
    mag.sim.set_raw(0.1, 0.0)
    before = wait_for(mag.get_absolute_degrees, lambda d: d != 0.0)
    assert before == pytest.approx(36.0, abs=0.1)
    mag.sim.set_connected(False)
    fault = wait_for(mag.fault, lambda f: f is not None, each=mag.refresh)
    assert fault is not None and "disconnected" in fault
    assert mag.get_absolute_degrees() == before
    mag.sim.set_connected(True)
    assert wait_for(mag.fault, lambda f: f is None, each=mag.refresh) is None


def test_the_debounce_reports_a_lasting_fault_and_is_quiet_only_when_nothing_is_pending(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The per-loop refreshes skip a healthy sample while the debounce is quiet: quiet must mean
    that such a sample would change nothing (no fault pending, none reported)."""
    now = [100.0]
    monkeypatch.setattr(ctre5.time, "monotonic", lambda: now[0])
    debounce = ctre5.Debounce(samples=3, seconds=0.1)
    assert debounce.quiet
    assert debounce.sample("stale") is None  # pending: one bad sample
    assert not debounce.quiet
    assert debounce.sample(None) is None  # a healthy sample ends it
    assert debounce.quiet
    for _ in range(3):
        now[0] += 0.06
        reported = debounce.sample("stale")
    assert reported == "stale" and debounce.reported == "stale"  # three samples, over 0.1 s apart
    assert not debounce.quiet
    assert debounce.sample(None) is None and debounce.reported is None  # clears at once
    assert debounce.quiet
    # report(): what the refreshes call, the result shown on the device's Alert
    alert = FaultAlert("debounce test")
    now_reporting = ctre5.Debounce(samples=1, seconds=0.0)
    now_reporting.report(None, alert)
    assert alert.active is None
    now_reporting.report("stale", alert)
    assert alert.active == "stale" and not now_reporting.quiet
    now_reporting.report(None, alert)
    assert alert.active is None and now_reporting.quiet


# -------------------------------------------------------------------- pigeon / pigeon_via_talonsrx


IMU_KINDS = ["pigeon", "pigeon_via_talonsrx"]


@pytest.mark.parametrize("kind", IMU_KINDS)
@pytest.mark.parametrize("upside_down", [False, True], ids=["mounted-up", "mounted-upside-down"])
def test_pigeon_ccw_turn_increases_yaw_only_with_the_right_flag(
    kind: str, upside_down: bool
) -> None:
    """(a)+(c) The robot turns 30 deg CCW at 15 deg/s: an upside-down Pigeon reports -30 and needs
    invertedIMU; with the right flag yaw and rate go up, with the wrong one both go down."""
    right = imu(kind, inverted=upside_down)
    wrong = imu(kind, inverted=not upside_down)
    sign = -1.0 if upside_down else 1.0
    for gyro in (right, wrong):
        gyro.sim.set_raw_yaw(sign * 30.0, sign * 15.0)
    for gyro, expected in ((right, 1.0), (wrong, -1.0)):
        yaw = wait_for(gyro.get_raw_yaw_degrees, lambda y: y != 0.0)
        assert yaw == pytest.approx(expected * 30.0, abs=0.05)
        assert gyro.get_yaw_rate_dps() == pytest.approx(expected * 15.0)


@pytest.mark.parametrize("kind", IMU_KINDS)
def test_pigeon_yaw_is_degrees_and_not_wrapped(kind: str) -> None:
    """(c) Yaw follows the bare heading in degrees past 360, without wrapping."""
    gyro = imu(kind, inverted=False)
    for heading in (90.0, 400.0, 725.5, -100.0):
        gyro.sim.set_raw_yaw(heading, 0.0)
        yaw = wait_for(gyro.get_raw_yaw_degrees, near(heading, 0.05))
        assert yaw == pytest.approx(heading, abs=0.05)
    assert healthy(gyro) is None


@pytest.mark.parametrize("kind", IMU_KINDS)
def test_pigeon_not_answering_is_a_fault_and_clears(kind: str) -> None:
    """(d) The Pigeon stops sending its status frames (as when unplugged): the reads time out, the
    fault and its Alert appear, the last yaw is kept; frames resume and the fault clears.

    The simulator has no disconnect switch; slowing the frames to 255 ms (the longest period)
    makes them stale for most of each period, which is what an unplugged device looks like."""
    gyro = imu(kind, inverted=False)
    gyro.sim.set_raw_yaw(45.0, 0.0)
    assert wait_for(gyro.get_raw_yaw_degrees, lambda y: y != 0.0) == pytest.approx(45.0, abs=0.05)
    assert healthy(gyro) is None
    frames = (
        PigeonIMU_StatusFrame.PigeonIMU_CondStatus_9_SixDeg_YPR,
        PigeonIMU_StatusFrame.PigeonIMU_CondStatus_1_General,
    )
    for frame in frames:
        gyro.pigeon.setStatusFramePeriod(frame, 255, 50)
    fault = wait_for(gyro.fault, lambda f: f is not None, each=gyro.refresh)
    assert fault is not None and ("not answering" in fault or "not ready" in fault)
    assert gyro.alert.active == fault
    assert gyro.usable is False  # the drive turns to the wheels' rotation
    assert gyro.get_raw_yaw_degrees() == pytest.approx(45.0, abs=0.05)  # never a timeout's 0
    for frame, period in zip(frames, (10, 20), strict=True):
        gyro.pigeon.setStatusFramePeriod(frame, period, 50)
    assert wait_for(gyro.fault, lambda f: f is None, each=gyro.refresh) is None
    assert gyro.alert.active is None
    assert gyro.usable is True


# -- set-points with hostile numbers (issue 12 item 1) ------------------------------------------


class _TalonSpy:
    """Stands in for the adapter's ``phoenix5.TalonSRX``: records what it is given, in the
    adapter's units, and passes every call on to the real Talon."""

    def __init__(self, talon: phoenix5.TalonSRX, adapter: TalonSRXMotor, sent: Sent) -> None:
        self._talon, self._sent = talon, sent
        self._unit, self._volts = adapter._unit, adapter.guard.max_volts

    def set(self, mode: phoenix5.ControlMode, value: float, *demand: Any) -> None:
        feedforward = demand[1] * self._volts if demand else 0.0
        if mode == phoenix5.ControlMode.PercentOutput:
            self._sent.add("volts", value * self._volts)
        elif mode == phoenix5.ControlMode.Velocity:
            self._sent.add("velocity", value * self._unit * 10.0, feedforward)
        elif mode == phoenix5.ControlMode.Position:
            self._sent.add("position", value * self._unit)
        else:
            self._sent.add(f"unexpected {mode}", math.nan)
        self._talon.set(mode, value, *demand)

    def neutralOutput(self) -> None:
        self._sent.add("volts", 0.0)
        self._talon.neutralOutput()

    def setSelectedSensorPosition(self, native: float, *rest: Any) -> Any:
        self._sent.add("seed", native * self._unit)
        return self._talon.setSelectedSensorPosition(native, *rest)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._talon, name)


@pytest.fixture(scope="module")
def srx_motors() -> list[TalonSRXMotor]:
    return [motor(Role.ANGLE, False), motor(Role.DRIVE, False)]


@settings(max_examples=100, deadline=None, derandomize=True)
@given(index=st.integers(0, 1), calls=call_lists)
def test_only_finite_in_range_setpoints_reach_phoenix5(
    srx_motors: list[TalonSRXMotor], index: int, calls: list[tuple[str, float, float]]
) -> None:
    srx = srx_motors[index]
    sent = Sent()
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(srx, "talon", _TalonSpy(srx.talon, srx, sent))
        make_calls_and_check(srx, sent, calls)
    srx.set_voltage(0.0)
