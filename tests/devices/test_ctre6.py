"""phoenix6 adapters (TalonFX / TalonFXS / CANcoder / Pigeon2) through CTRE's own simulator.

phoenix6 status signals update on the wall clock (about every 10 ms), so every check waits for
fresh data with :func:`eventually` (refresh, test, sleep 5 ms, until it holds) instead of racing;
nothing waits on a wall-clock budget (see tests/waits.py).
The sim clock runs in real time under plain pytest, so the phoenix6 AutoFeedEnable notifier keeps
the outputs enabled while the DS is enabled.

CAN ids are handed out from the top (see ``next_id``), one per device, so no two tests share a
simulated device. Disconnects use phoenix6's sim_destroy, which cannot be undone in the process:
recovery from "not answering" cannot be simulated (the CANcoder's magnet fault shows the clear path).
Outputs: a simulated Talon recomputes its output only when its rotor state is written, so checks of
applied voltage run a little robot loop (command, then physics write) while they wait.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any, cast

import pytest
import wpilib
import wpilib.simulation
from hypothesis import given, settings
from hypothesis import strategies as st
from phoenix6 import BaseStatusSignal, StatusCode, configs, controls, hardware, signals
from phoenix6.sim import TalonFXSimState

from swervelib.config.catalog import ENCODER_TYPES, IMU_TYPES, MOTOR_TYPES, Motor
from swervelib.config.model import PIDF, DeviceConfig
from swervelib.devices import ctre6, registry, seeding
from swervelib.devices.ctre6.batch import SignalBatch, group_by_bus, refresh_all, refresh_signals
from swervelib.devices.ctre6.cancoder import CANcoderEncoder
from swervelib.devices.ctre6.fxs_analog import TalonFXSAnalogEncoder
from swervelib.devices.ctre6.pigeon2 import Pigeon2Imu
from swervelib.devices.ctre6.talonfx import TalonFXMotor, TalonFXSMotor
from swervelib.devices.faults import ConfigCalls
from swervelib.devices.settings import EncoderSettings, ImuSettings, MotorSettings, Role
from tests.devices.setpoints import Sent, call_lists, make_calls_and_check
from tests.sim import alert_texts
from tests.waits import fresh_frames, until, until_ok
from tests.waits import read_config as read_device_config

FX_TYPES = (
    "talonfx",
    "krakenx60",
    "krakenx60foc",
    "krakenx44",
    "falcon",
    "falcon500",
    "falcon500foc",
)
FXS_TYPES = ("talonfxs_neo", "talonfxs_neo550", "talonfxs_vortex", "talonfxs_minion")
MOTOR_TYPE_STRINGS = FX_TYPES + FXS_TYPES

ANGLE_RATIO = 150.0 / 7.0  # motor rotations per module rotation
ANGLE_DEG_PER_ROT = 360.0 / ANGLE_RATIO
DRIVE_M_PER_ROT = math.pi * 0.1016 / 6.75  # 4 in wheel, L2 ratio
POSITION_TOL_DEG = 0.2  # phoenix6 quantises mechanism position to 1/4096 rotation (0.088 deg)

# CAN ids: Talon FX and Talon FXS share one id space (in the phoenix6 sim a TalonFXS on a TalonFX's
# id talks to the TalonFX), CANcoders and Pigeon2s have their own. Devices a test disconnects are
# destroyed for the rest of the process, so they get the top ids (62, 61, 60), everything else
# counts down from 59 and no id is used twice.
_IDS = {kind: itertools.count(59, -1) for kind in ("talon", "cancoder", "pigeon2")}
_DEAD_IDS = {kind: iter((62, 61, 60)) for kind in ("talon", "cancoder", "pigeon2")}


def next_id(kind: str, *, dead: bool = False) -> int:
    kind = "talon" if kind.startswith("talonfx") else kind
    can_id = next(_DEAD_IDS[kind] if dead else _IDS[kind])
    assert can_id >= 0, f"out of CAN ids for {kind}"
    return can_id


def new_config(name: str) -> Any:
    """A fresh phoenix6 configuration object (its classes are untyped)."""
    return cast(Any, getattr(configs, name))()


def motor_settings(
    type_name: str,
    role: Role,
    inverted: bool,
    *,
    canbus: str | None = None,
    pidf: PIDF | None = None,
    ramp: float = 0.1,
    can_id: int | None = None,
    dead: bool = False,
) -> MotorSettings:
    motor_type = MOTOR_TYPES[type_name]
    if can_id is None:
        can_id = next_id(motor_type.controller, dead=dead)
    return MotorSettings(
        label=f"test {type_name} {role.value} {can_id}",
        role=role,
        device=DeviceConfig(type_name, can_id, canbus),
        motor_type=motor_type,
        inverted=inverted,
        brake=role is Role.DRIVE,
        current_limit_a=40.0 if role is Role.DRIVE else 20.0,
        ramp_rate_s=ramp,
        units_per_rotation=ANGLE_DEG_PER_ROT if role is Role.ANGLE else DRIVE_M_PER_ROT,
        optimal_voltage=12.0,
        pidf=pidf,
    )


def build_motor(settings: MotorSettings) -> TalonFXMotor | TalonFXSMotor:
    cls = TalonFXSMotor if settings.motor_type.controller == "talonfxs" else TalonFXMotor
    return cls(settings)


def encoder_settings(
    inverted: bool, canbus: str | None = None, *, dead: bool = False
) -> EncoderSettings:
    can_id = next_id("cancoder", dead=dead)
    return EncoderSettings(
        label=f"test cancoder {can_id}",
        device=DeviceConfig("cancoder", can_id, canbus),
        encoder_type=ENCODER_TYPES["cancoder"],
        inverted=inverted,
    )


def imu_settings(inverted: bool, canbus: str | None = None, *, dead: bool = False) -> ImuSettings:
    can_id = next_id("pigeon2", dead=dead)
    return ImuSettings(
        label=f"test pigeon2 {can_id}",
        device=DeviceConfig("pigeon2", can_id, canbus),
        imu_type=IMU_TYPES["pigeon2"],
        inverted=inverted,
    )


def eventually(
    check: Callable[[], bool],
    devices: Sequence[Any],
    tick: Callable[[], None] | None = None,
) -> bool:
    """Refresh the devices' signals until ``check()`` holds (True), or give up after
    :data:`~tests.waits.PATIENCE_S` (False): a wait on the devices, not a time budget.

    ``tick`` runs before every refresh, like a physics step: a simulated Talon only recomputes its
    closed loop when its rotor state is written.
    """
    sigs = [signal for device in devices for signal in device.status_signals()]

    def step() -> None:
        if tick is not None:
            tick()
        refresh_signals(sigs)

    return until(check, each=step)


def settle(devices: Sequence[Any]) -> None:
    """Wait for fresh status frames from every device (sent after this call), then refresh."""
    sigs = [signal for device in devices for signal in device.status_signals()]
    fresh_frames(sigs)
    refresh_signals(sigs)


def close(a: float, b: float, tol: float) -> bool:
    return abs(a - b) <= tol


TALON_STATE = (
    "control_mode",
    "device_enable",
    "robot_enable",
    "bridge_output",
    "motor_voltage",
    "supply_voltage",
    "stator_current",
    "fault_field",
    "sticky_fault_field",
)


def talon_state(motor: Any) -> str:
    """What a Talon says about its output, for a failure message: why it may output nothing
    (not enabled, a fault, the control mode it holds) as well as what the simulator applies,
    with every active and sticky fault by name."""
    device = motor.device
    state: dict[str, object] = {
        "sim volts": motor.sim.applied_voltage(),
        "get_applied_volts": motor.get_applied_volts(),
    }
    for name in TALON_STATE:
        try:
            state[name] = getattr(device, f"get_{name}")().value
        except Exception as error:  # a getter this Talon lacks must not hide the failure
            state[name] = repr(error)
    for kind in ("fault", "sticky_fault"):
        prefix = f"get_{kind}_"
        state[f"{kind}s"] = [
            name[len(prefix) :]
            for name in dir(device)
            if name.startswith(prefix)
            and name != f"{prefix}field"
            and getattr(device, name)().value
        ]
    return f"{motor.settings.label}: {state}"


def talon_states(motors: Sequence[Any]) -> str:
    """:func:`talon_state` of each, one per line: a string, so pytest shows it whole."""
    return "\n".join(talon_state(m) for m in motors)


def active_errors() -> list[str]:
    return alert_texts(("errors",))


@pytest.fixture
def enabled() -> Iterator[None]:
    """DS enabled (teleop), with the sim clock running so phoenix6's AutoFeedEnable feeds."""
    paused = wpilib.simulation.isTimingPaused()
    if paused:
        wpilib.simulation.resumeTiming()
    wpilib.simulation.DriverStationSim.setDsAttached(True)
    wpilib.simulation.DriverStationSim.setAutonomous(False)
    wpilib.simulation.DriverStationSim.setEnabled(True)
    wpilib.simulation.DriverStationSim.notifyNewData()
    yield
    wpilib.simulation.DriverStationSim.setEnabled(False)
    wpilib.simulation.DriverStationSim.notifyNewData()
    if paused:
        wpilib.simulation.pauseTiming()


def apply_stale(device: Any, config: Any) -> None:
    """Apply a test's set-up configuration, trying until the device takes it. phoenix6's simulator
    sometimes answers a device's very first configuration call with TX_FAILED, and on a loaded
    machine a newly made device can miss five 1 s timeouts in a row (seen once in seven runs with
    the test and four busy processes on one core), so this waits on the device, not on a count."""
    status = until_ok(lambda: device.configurator.apply(config, 1.0))
    assert status.is_ok(), f"set-up configuration never applied: last status {status}"


def stale_config(settings: MotorSettings) -> None:
    """What ctre_sim/ (or a used Talon) may still hold: the opposite inversion, a 2:1 ratio,
    a kA gain, a soft limit."""
    fxs = settings.motor_type.controller == "talonfxs"
    device = (hardware.TalonFXS if fxs else hardware.TalonFX)(settings.device.id)
    stale = new_config("TalonFXSConfiguration" if fxs else "TalonFXConfiguration")
    stale.motor_output.inverted = (
        signals.InvertedValue.COUNTER_CLOCKWISE_POSITIVE
        if settings.inverted
        else signals.InvertedValue.CLOCKWISE_POSITIVE
    )
    (stale.external_feedback if fxs else stale.feedback).sensor_to_mechanism_ratio = 2.0
    stale.slot0.k_a = 4.0
    stale.slot0.k_i = 3.0
    stale.software_limit_switch.forward_soft_limit_enable = True
    apply_stale(device, stale)


def build_over_stale(settings: MotorSettings) -> TalonFXMotor | TalonFXSMotor:
    stale_config(settings)
    return build_motor(settings)


class Module:
    """Four motors of one type: angle and drive, each with the flag False and True; each built
    on a Talon that still holds a stale configuration."""

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name
        self.angle = {
            inv: build_over_stale(motor_settings(type_name, Role.ANGLE, inv))
            for inv in (False, True)
        }
        self.drive = {
            inv: build_over_stale(motor_settings(type_name, Role.DRIVE, inv))
            for inv in (False, True)
        }
        self.all = [*self.angle.values(), *self.drive.values()]
        self.rotor = dict.fromkeys(self.all, 0.0)
        self.rps = dict.fromkeys(self.all, 0.0)

    def turn(self, motor: Any, rotor: float, rps: float = 0.0) -> None:
        """Move the bare rotor (physical frame) to ``rotor`` rotations."""
        self.rotor[motor] = rotor
        self.rps[motor] = rps
        motor.sim.set_rotor(rotor, rps, 0.02)

    def feed(self) -> None:
        """One physics step: write every rotor's state again (it does not move by itself)."""
        for motor in self.all:
            motor.sim.set_rotor(self.rotor[motor], self.rps[motor], 0.02)


@pytest.fixture(scope="module", params=MOTOR_TYPE_STRINGS)
def module(request: pytest.FixtureRequest) -> Module:
    return Module(request.param)


# --------------------------------------------------------------------------------------------
# Motors
# --------------------------------------------------------------------------------------------


def test_motor_model_and_registry(module: Module) -> None:
    entry = MOTOR_TYPES[module.type_name]
    expected_cls = TalonFXSMotor if entry.controller == "talonfxs" else TalonFXMotor
    assert registry.motor_adapter(module.type_name) is expected_cls
    for motor in module.all:
        assert type(motor) is expected_cls
        assert motor.motor is entry.motor
    motor = module.angle[False]
    if isinstance(motor, TalonFXSMotor):
        expected = {
            Motor.NEO: signals.ConnectedMotorValue.NEO_JST,
            Motor.NEO550: signals.ConnectedMotorValue.NEO550_JST,
            Motor.VORTEX: signals.ConnectedMotorValue.VORTEX_JST,
            Motor.MINION: signals.ConnectedMotorValue.MINION_JST,
        }[entry.motor]
        connected = motor.device.get_connected_motor()
        assert until(lambda: connected.wait_for_update(1.0).value is expected)  # by the device
    else:
        expected_sim = (
            TalonFXSimState.MotorType.KRAKEN_X44
            if entry.motor is Motor.KRAKEN_X44
            else TalonFXSimState.MotorType.KRAKEN_X60
        )
        assert motor.sim_motor_type is expected_sim
        assert motor._voltage_request.enable_foc is (
            entry.motor in (Motor.KRAKEN_X60_FOC, Motor.FALCON500_FOC)
        )


def test_wrong_controller_is_refused() -> None:
    with pytest.raises(ValueError, match="talonfxs"):
        TalonFXMotor(motor_settings("talonfxs_neo", Role.ANGLE, False, can_id=0))
    with pytest.raises(ValueError, match="talonfx"):
        TalonFXSMotor(motor_settings("krakenx60", Role.ANGLE, False, can_id=0))


def test_angle_reading_direction_and_degrees(module: Module) -> None:
    """(a)+(c): CCW module rotation raises the reading with the right flag, lowers it with the wrong
    one; readings are degrees of module rotation (never rotations), velocity in deg/s."""
    correct, wrong = module.angle[False], module.angle[True]
    # Hardware A: the bare motor turns its positive way when the module turns CCW -> flag False.
    before = {m: m.get_position() for m in (correct, wrong)}
    quarter = ANGLE_RATIO / 4  # rotor turns for a quarter module turn CCW
    rps = ANGLE_RATIO * 0.5  # half a module turn per second
    for m in (correct, wrong):
        module.turn(m, module.rotor[m] + quarter, rps)
    assert eventually(
        lambda: (
            close(correct.get_position(), before[correct] + 90.0, POSITION_TOL_DEG)
            and close(wrong.get_position(), before[wrong] - 90.0, POSITION_TOL_DEG)
            and close(correct.get_velocity(), 180.0, 1.5)
            and close(wrong.get_velocity(), -180.0, 1.5)
        ),
        module.all,
    ), (correct.get_position(), wrong.get_position(), correct.get_velocity(), wrong.get_velocity())
    assert correct.get_position() > before[correct]
    assert wrong.get_position() < before[wrong]

    # Hardware B: the motor is mounted the other way (CCW module = negative rotor): now the motor
    # with flag True is the correct one and reads increasing degrees, flag False decreases.
    before = {m: m.get_position() for m in (correct, wrong)}
    for m in (correct, wrong):
        module.turn(m, module.rotor[m] - quarter / 2, -rps)
    assert eventually(
        lambda: (
            close(wrong.get_position(), before[wrong] + 45.0, POSITION_TOL_DEG)
            and close(correct.get_position(), before[correct] - 45.0, POSITION_TOL_DEG)
            # the velocity frame follows the wall clock on its own, so it may come a frame later
            and close(wrong.get_velocity(), 180.0, 1.5)
        ),
        module.all,
    ), (correct.get_position(), wrong.get_position(), wrong.get_velocity())
    assert wrong.get_velocity() == pytest.approx(180.0, abs=1.5)
    for m in (correct, wrong):
        module.turn(m, module.rotor[m], 0.0)


def test_drive_reading_direction_and_metres(module: Module) -> None:
    correct, wrong = module.drive[False], module.drive[True]
    before = {m: m.get_position() for m in (correct, wrong)}
    for m in (correct, wrong):
        module.turn(m, module.rotor[m] + 10.0, 20.0)  # 10 rotor turns, 20 rps
    metres = 10.0 * DRIVE_M_PER_ROT
    assert eventually(
        lambda: (
            close(correct.get_position(), before[correct] + metres, 1e-3)
            and close(wrong.get_position(), before[wrong] - metres, 1e-3)
            and close(correct.get_velocity(), 20.0 * DRIVE_M_PER_ROT, 1e-2)
            and close(wrong.get_velocity(), -20.0 * DRIVE_M_PER_ROT, 1e-2)
        ),
        module.all,
    ), (correct.get_position(), wrong.get_position(), correct.get_velocity())
    for m in (correct, wrong):
        module.turn(m, module.rotor[m], 0.0)


def seeded(motor: Any, value: float) -> bool:
    """``motor.set_position(value)`` until the Talon takes it: on a busy machine the simulated
    Talon can miss set_position's 2 x 50 ms (the adapter then shows it on an Alert)."""
    return until(
        lambda: (motor.set_position(value), "sensor position" not in motor.config_calls.failed)[1]
    )


def test_set_position_seeds_relative_encoder(module: Module) -> None:
    """(e): set_position takes degrees (angle) / metres (drive) and later motion adds to it."""
    angle, angle_inv = module.angle[False], module.angle[True]
    drive = module.drive[False]
    assert seeded(angle, 45.0)
    assert seeded(angle_inv, -30.0)
    assert seeded(drive, 1.5)
    assert eventually(
        lambda: (
            close(angle.get_position(), 45.0, POSITION_TOL_DEG)
            and close(angle_inv.get_position(), -30.0, POSITION_TOL_DEG)
            and close(drive.get_position(), 1.5, 1e-3)
        ),
        module.all,
    ), (angle.get_position(), angle_inv.get_position(), drive.get_position())
    for m in (angle, angle_inv):
        module.turn(m, module.rotor[m] + ANGLE_RATIO / 8)  # 45 degrees of module CCW
    assert eventually(
        lambda: (
            close(angle.get_position(), 90.0, POSITION_TOL_DEG)
            and close(angle_inv.get_position(), -75.0, POSITION_TOL_DEG)
        ),
        module.all,
    ), (angle.get_position(), angle_inv.get_position())


def test_a_talon_answers_its_seed_until_the_frames_show_it(module: Module) -> None:
    """A seed shows in the Talon's next position frame, up to a frame period later: meanwhile
    get_position() answers the seed, never the reading from before it (a module would take the
    jump back for a turn, and its still absolute encoder for a frozen one: a standing robot's
    modules fell back to their relative encoders at start-up). Five seeds: each time the old
    reading would be answered unless the frame happened to come at once."""
    angle = module.angle[False]
    for target in (10.0, 100.0, 200.0, 290.0, 20.0):  # each far from the one before
        assert seeded(angle, target)
        readings = []
        deadline = time.monotonic() + 0.03  # a few frame periods
        while time.monotonic() < deadline:
            angle.refresh()
            readings.append(angle.get_position())
            time.sleep(0.002)
        assert readings and all(close(r, target, POSITION_TOL_DEG) for r in readings), readings


@pytest.mark.parametrize("type_name", ["krakenx60", "talonfxs_neo"])
def test_a_talon_never_takes_a_frame_from_before_its_seed_for_one_after_it(
    type_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frame that arrived before the Talon acknowledged a seed is not taken for a reading after
    it, however late it is read: each frame's arrival time decides, not the wall clock. (Under a
    CPU hog, a simulated Talon's first reading after a seed was its reading from before it: a
    rule that believed any reading once a second had passed would take that frame.) Here the
    position signal is held on its last frame from before the seed for longer than that second.
    (The rule is the one class shared by Talon FX and FXS: one motor of each.)"""
    angle = build_motor(motor_settings(type_name, Role.ANGLE, False))
    assert seeded(angle, 10.0)
    assert eventually(lambda: close(angle.get_position(), 10.0, POSITION_TOL_DEG), [angle])
    signal = angle._position
    monkeypatch.setattr(signal, "refresh", lambda report_error=True: signal)  # no newer frame
    assert seeded(angle, 100.0)
    time.sleep(seeding.SEED_WAIT_S + 0.1)
    held = angle.get_position()
    monkeypatch.undo()
    assert close(held, 100.0, POSITION_TOL_DEG), held  # the seed, not the old frame's 10
    assert close(angle.get_position(), 100.0, POSITION_TOL_DEG)  # the frames show it by now


def test_applied_voltage_follows_flag(module: Module, enabled: None) -> None:
    """(b): positive output turns the bare motor positive with flag False, negative with True."""
    motors = module.all
    free_rps = 6.0 / 12.0 * 100.0  # rotor speed that matches 6 V (keeps the current low)
    try:
        for m in motors:
            sign = -1.0 if m.settings.inverted else 1.0
            module.turn(m, module.rotor[m], sign * free_rps)  # feed rotor velocity

        def loop() -> None:  # a robot loop: command every period, then a physics step
            for m in motors:
                m.set_voltage(6.0)
            module.feed()

        assert eventually(
            lambda: all(
                close(m.sim.applied_voltage(), -6.0 if m.settings.inverted else 6.0, 0.3)
                for m in motors
            ),
            motors,
            tick=loop,
        ), talon_states(motors)
    finally:
        for m in motors:
            m.set_voltage(0.0)
            module.turn(m, module.rotor[m], 0.0)


def command_volts(module: Module, motors: Sequence[Any], volts: float) -> None:
    """Command ``volts`` every loop (then a physics step) until every Talon reports applying it."""

    def loop() -> None:
        for m in motors:
            m.set_voltage(volts)
        module.feed()

    assert eventually(
        lambda: all(close(m.get_applied_volts(), volts, 0.15) for m in motors),
        motors,
        tick=loop,
    ), talon_states(motors)


def test_applied_volts_and_current_are_reported(module: Module, enabled: None) -> None:
    """get_applied_volts: the commanded direction after inversion; get_current_amps: the stator
    current, finite."""
    motors = list(module.drive.values())
    try:
        command_volts(module, motors, 3.0)
        assert all(math.isfinite(m.get_current_amps()) for m in motors)
    finally:
        for m in motors:
            m.set_voltage(0.0)


def test_closed_loop_angle_wraps_in_degrees(module: Module, enabled: None) -> None:
    """set_angle takes degrees and wraps continuously: 10 deg ahead -> +kP*10/360, and a target
    350 deg away is reached the short way (negative output)."""
    motors = list(module.angle.values())
    expected_volts = 50.0 * 10.0 / 360.0  # default kP 50 V per module rotation
    settle(motors)
    try:
        for target_offset, sign in ((10.0, 1.0), (350.0, -1.0)):
            targets = {m: m.get_position() + target_offset for m in motors}

            def loop(targets: dict[Any, float] = targets) -> None:
                for m in motors:
                    m.set_angle(targets[m])
                module.feed()

            def output_ok(sign: float = sign) -> bool:
                return all(
                    close(
                        m.sim.applied_voltage(),
                        sign * expected_volts * (-1.0 if m.settings.inverted else 1.0),
                        0.15,
                    )
                    for m in motors
                )

            assert eventually(output_ok, motors, tick=loop), talon_states(motors)
    finally:
        for m in motors:
            m.set_voltage(0.0)


def test_closed_loop_velocity_adds_feedforward_volts(module: Module, enabled: None) -> None:
    motors = list(module.drive.values())
    try:
        for m in motors:
            module.turn(m, module.rotor[m], 0.0)

        def loop() -> None:
            for m in motors:
                m.set_velocity(0.0, 3.0)  # no speed error: the output is the feedforward alone
            module.feed()

        assert eventually(
            lambda: all(
                close(m.sim.applied_voltage(), -3.0 if m.settings.inverted else 3.0, 0.15)
                for m in motors
            ),
            motors,
            tick=loop,
        ), talon_states(motors)
    finally:
        for m in motors:
            m.set_voltage(0.0)


def test_a_talon_whose_commands_stop_goes_neutral(module: Module, enabled: None) -> None:
    """Control frames are one-shot (``update_freq_hz`` 0, as phoenix6's own swerve module sends
    them), not repeated by phoenix6 in the background, whose repeats could leave a Talon on an
    earlier request in a busy process: a Talon that is no longer commanded lapses to neutral,
    like a WPILib motor under motor safety. The drive re-applies a command that lasts."""
    motors = list(module.drive.values())
    for motor in motors:
        requests = (motor._voltage_request, motor._velocity_request, motor._position_request)
        assert all(request.update_freq_hz == 0.0 for request in requests)
    try:
        command_volts(module, motors, 3.0)
        # no more commands: the physics goes on, the last frame lapses
        assert eventually(
            lambda: all(abs(m.sim.applied_voltage()) < 0.01 for m in motors),
            motors,
            tick=module.feed,
        ), talon_states(motors)
    finally:
        for m in motors:
            m.set_voltage(0.0)


def read_config(motor: Any) -> Any:
    fxs = isinstance(motor, TalonFXSMotor)
    read = new_config("TalonFXSConfiguration" if fxs else "TalonFXConfiguration")
    assert read_device_config(motor.device.configurator, read).is_ok()
    return read


def test_fresh_config_and_default_gains(module: Module) -> None:
    """The complete fresh configuration replaced the stale one (ctre_sim/ persistence)."""
    for motor in module.all:
        read = read_config(motor)
        fxs = isinstance(motor, TalonFXSMotor)
        feedback = read.external_feedback if fxs else read.feedback
        assert feedback.sensor_to_mechanism_ratio == pytest.approx(motor.settings.gear_ratio, 1e-4)
        assert read.motor_output.inverted == (
            signals.InvertedValue.CLOCKWISE_POSITIVE
            if motor.settings.inverted
            else signals.InvertedValue.COUNTER_CLOCKWISE_POSITIVE
        )
        assert read.current_limits.supply_current_limit == pytest.approx(
            motor.settings.current_limit_a
        )
        assert read.current_limits.supply_current_limit_enable
        assert read.closed_loop_ramps.voltage_closed_loop_ramp_period == pytest.approx(0.1)
        assert not read.software_limit_switch.forward_soft_limit_enable
        assert (read.slot0.k_i, read.slot0.k_a) == (0.0, 0.0)
        if motor.settings.role is Role.ANGLE:
            assert read.motor_output.neutral_mode == signals.NeutralModeValue.COAST
            assert read.closed_loop_general.continuous_wrap
            assert read.slot0.k_p == pytest.approx(50.0, abs=1e-3)
        else:
            assert read.motor_output.neutral_mode == signals.NeutralModeValue.BRAKE
            assert not read.closed_loop_general.continuous_wrap
            assert read.slot0.k_p == pytest.approx(0.1, abs=1e-3)
            assert read.slot0.k_v == 0.0  # the drive sends kV·v as the feedforward
    # set_brake changes only the neutral mode. On a busy machine the simulated Talon can miss
    # set_brake's 2 x 50 ms; the health check then tries again, as on a robot.
    drive = module.drive[True]
    problem = set_brake_problem(drive, False)
    assert problem is None, problem
    assert read_config(drive).motor_output.inverted == signals.InvertedValue.CLOCKWISE_POSITIVE
    problem = set_brake_problem(drive, True)
    assert problem is None, problem


def neutral_mode_problem(motor: Any, mode: Any, asked: Sequence[str] = ()) -> str | None:
    """None once the Talon's configuration reads ``mode``, its signals refreshed and its health
    check (``fault()``, which tries a neutral mode not taken again while the Talon answers) run
    between readings, as the drive runs them. If it never does, what the wait saw, for the
    assertion's message: ``asked``, the answers to the ``set_brake`` that asked for ``mode``; the
    answers to the health check's tries; what the health check reported; the calls still failed."""
    reported: set[str] = set()

    def loop() -> None:
        motor.refresh()
        reported.add(str(motor.fault()))

    with recorded(motor) as configurator:
        if until(lambda: read_config(motor).motor_output.neutral_mode == mode, each=loop):
            return None
    return (
        f"{motor.label} never read {mode.name}: set_brake's applies answered {list(asked)}, the "
        f"health check's {len(configurator.answers)} tries {sorted(set(configurator.answers))}, "
        f"it reported {sorted(reported)}; failed calls {list(motor.config_calls.failed)}"
    )


def set_brake_problem(motor: Any, brake: bool) -> str | None:
    """``motor.set_brake(brake)``, then :func:`neutral_mode_problem`."""
    with recorded(motor) as configurator:
        motor.set_brake(brake)
    mode = signals.NeutralModeValue.BRAKE if brake else signals.NeutralModeValue.COAST
    return neutral_mode_problem(motor, mode, configurator.answers)


class _Configurator:
    """A Talon's configurator whose ``apply`` fails ``failures`` times first (TX_FAILED); the
    status of every ``apply`` it answers is in ``answers``, the neutral mode of every
    ``MotorOutputConfigs`` it passes on to the Talon in ``passed``.

    With ``repeats_lost``, it also does what phoenix6 was measured doing after an apply it could
    not send (``TX_FAILED``, beside a full simulated bus on a busy core: 15 of 21 such retries
    never read back in 3 s, scratch probes): it answers OK to an apply of the same configuration
    without passing it on, until a different one comes."""

    def __init__(self, real: Any, failures: int, *, repeats_lost: bool = False) -> None:
        self.real = real
        self.failures = failures
        self.repeats_lost = repeats_lost
        self.answers: list[str] = []
        self.passed: list[str] = []
        self._failed: str | None = None  # the configuration of the last apply that failed

    @property
    def applied(self) -> int:
        """How many ``apply`` calls it answered."""
        return len(self.answers)

    def apply(self, config: Any, timeout: float = 0.1) -> Any:
        content = config.serialize()
        if self.failures:
            self.failures -= 1
            status = StatusCode.TX_FAILED
            self._failed = content
        elif self.repeats_lost and content == self._failed:
            status = StatusCode.OK  # answered, not passed on
        else:
            self._failed = None
            status = self.real.apply(config, timeout)
            if isinstance(config, configs.MotorOutputConfigs):
                self.passed.append(config.neutral_mode.name)
        self.answers.append(status.name)
        return status

    def refresh(self, config: Any, timeout: float = 0.1) -> Any:
        return self.real.refresh(config, timeout)


class _Talon:
    """A phoenix6 Talon with :class:`_Configurator` in place of its configurator."""

    def __init__(self, real: Any, configurator: _Configurator) -> None:
        self._real = real
        self.configurator = configurator

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


@contextmanager
def recorded(
    motor: Any, failures: int = 0, *, repeats_lost: bool = False
) -> Iterator[_Configurator]:
    """Inside, ``motor``'s configuration applies go through a :class:`_Configurator` (``failures``
    and ``repeats_lost`` as there; by default none is changed, only noted)."""
    real = motor.device
    configurator = _Configurator(real.configurator, failures, repeats_lost=repeats_lost)
    motor.device = _Talon(real, configurator)
    try:
        yield configurator
    finally:
        motor.device = real


def test_a_neutral_mode_not_taken_is_tried_again_by_the_health_check(module: Module) -> None:
    """set_brake blocks at most 2 x 50 ms (3 x 50 ms after a failed try); a neutral mode the
    Talon did not take in that time stays on an Alert and is tried again at each health check
    until it is taken."""
    motor = module.drive[True]
    problem = set_brake_problem(motor, True)  # as the module's tests leave it, set again here
    assert problem is None, problem
    shown = f"{motor.label}: failed to apply neutral mode"

    def alerts() -> list[str]:
        return [e for e in active_errors() if e.startswith(shown)]

    try:
        with recorded(motor, failures=5) as configurator:
            # two attempts, both fail: the second, after a failure, applies BRAKE, then COAST
            motor.set_brake(False)
            assert configurator.applied == 3
            assert alerts() == [f"{shown} after 2 attempts, tried again at each health check"]
            settle([motor])  # answering, as its last refresh says: the health check tries
            motor.fault()  # the third failure (two applies again): still to do, still shown
            assert configurator.applied == 5
            assert alerts() == [f"{shown}, tried again at each health check"]
            neutral = read_config(motor).motor_output.neutral_mode
            assert neutral == signals.NeutralModeValue.BRAKE
            asked = list(configurator.answers)  # the next try applies
            problem = neutral_mode_problem(motor, signals.NeutralModeValue.COAST, asked)
            assert problem is None, problem
            assert alerts() == []
            applied = configurator.applied
            motor.fault()  # nothing left to try
            assert configurator.applied == applied
    finally:
        problem = set_brake_problem(motor, True)  # as it was, after a failure too
    assert problem is None, problem


def test_a_neutral_mode_tried_after_a_failed_apply_reaches_the_talon(module: Module) -> None:
    """phoenix6 answers OK to an apply that repeats one it could not send, without the Talon
    taking it (:class:`_Configurator` with ``repeats_lost``): a try after a failed one applies the
    other mode first, so the mode asked for is new to phoenix6 and reaches the Talon."""
    motor = module.drive[True]
    problem = set_brake_problem(motor, True)  # as the module's tests leave it, set again here
    assert problem is None, problem
    try:
        with recorded(motor, failures=1, repeats_lost=True) as configurator:
            motor.set_brake(False)
            # (what the simulator answers the passed applies varies with the machine's load: a
            # real TX_FAILED there is tried again by the health check in neutral_mode_problem)
            assert configurator.answers[0] == "TX_FAILED"
            assert configurator.passed[:2] == ["BRAKE", "COAST"]
            asked = list(configurator.answers)
            problem = neutral_mode_problem(motor, signals.NeutralModeValue.COAST, asked)
            assert problem is None, problem
            # The next set_brake applies the mode alone after a try answered OK (the usual
            # case), the other mode first after one that was not: every apply passes on now.
            unsure = configurator.answers[-1] != "OK"
            first = len(configurator.passed)
            motor.set_brake(True)
            assert configurator.passed[first] == ("COAST" if unsure else "BRAKE")
    finally:
        problem = set_brake_problem(motor, True)  # as it was, after a failure too
    assert problem is None, problem


@pytest.mark.parametrize("type_name", ["krakenx60", "talonfxs_neo"])
def test_motor_not_answering_fault(type_name: str) -> None:
    """(d): a dead controller -> fault() text + WPILib Alert; getters keep the last good value.

    One type per controller class: the fault path does not depend on the motor fitted, and every
    disconnect permanently uses up a simulated CAN id."""
    motor = build_motor(motor_settings(type_name, Role.ANGLE, False, dead=True))
    motor.sim.set_rotor(ANGLE_RATIO / 4, 0.0, 0.02)
    assert eventually(lambda: close(motor.get_position(), 90.0, POSITION_TOL_DEG), [motor])
    assert motor.fault() is None
    assert not any(motor.label in text for text in active_errors())

    told: list[bool] = []  # what the drive is told: the position reading live or not
    assert motor.watch_reading(told.append)
    motor.sim.set_connected(False)  # phoenix6 sim_destroy: the device stops sending frames
    assert eventually(lambda: motor.fault() is not None, [motor])
    text = motor.fault()
    assert text is not None and "not answering" in text
    assert any(text in error and motor.label in error for error in active_errors())
    assert motor.get_position() == pytest.approx(90.0, abs=POSITION_TOL_DEG)  # last good value
    assert told == [False]  # by the reading itself, once
    assert not math.isnan(motor.get_velocity())
    # A neutral mode not taken is not tried again while the Talon does not answer (each try would
    # wait out its timeout in the robot loop). The simulator answers a destroyed device's config
    # calls with OK, so the two tries of set_brake are refused here (three applies: the second
    # try, after a failed one, applies the other mode first).
    with recorded(motor, failures=3) as configurator:
        motor.set_brake(False)
        assert configurator.applied == 3
        assert any(f"{motor.label}: failed to apply neutral mode" in e for e in active_errors())
        assert motor.fault() is not None
        assert configurator.applied == 3
    with pytest.raises(NotImplementedError):
        motor.sim.set_connected(True)


class _LateSignal:
    """A status signal whose frame is late for a refresh (phoenix6 says ``RX_TIMEOUT``)."""

    def __init__(self, signal: Any) -> None:
        self._signal = signal
        self.status = StatusCode.RX_TIMEOUT

    def __getattr__(self, name: str) -> Any:
        return getattr(self._signal, name)


def test_a_drive_reading_late_for_one_loop_is_live_again_the_next() -> None:
    """A Talon FX drive motor whose position is not OK for one refresh tells the drive its reading
    is not live; the drive's recheck after the next loop's good read (``recheck_reading``) hears
    it is live again at once, not at the health check about a second later."""
    motor = build_motor(motor_settings("krakenx60", Role.DRIVE, False))
    assert isinstance(motor, TalonFXMotor)
    assert eventually(lambda: motor.fault() is None, [motor])
    told: list[bool] = []
    assert motor.watch_reading(told.append)
    real = motor._position
    late = _LateSignal(real)
    motor._position = motor._signals[0] = late  # this loop's refresh: the position's frame late
    motor.get_position()
    motor.recheck_reading()  # not live yet
    assert told == [False]
    motor._position = motor._signals[0] = real
    motor.refresh()
    motor.get_position()
    motor.recheck_reading()
    assert told == [False, True]


# --------------------------------------------------------------------------------------------
# CANcoder
# --------------------------------------------------------------------------------------------


def test_cancoder_direction_units_and_wrap() -> None:
    assert registry.encoder_adapter("cancoder") is CANcoderEncoder
    correct = CANcoderEncoder(encoder_settings(False), None)
    wrong = CANcoderEncoder(encoder_settings(True), None)
    both = [correct, wrong]
    for enc in both:
        enc.sim.set_raw(0.1, 0.0)
    assert eventually(
        lambda: (
            close(correct.get_absolute_degrees(), 36.0, 0.2)
            and close(wrong.get_absolute_degrees(), 324.0, 0.2)
        ),
        both,
    ), (correct.get_absolute_degrees(), wrong.get_absolute_degrees())
    # Turn the module CCW by 36 degrees (bare sensor +0.1 rotation).
    for enc in both:
        enc.sim.set_raw(0.2, 0.5)
    assert eventually(
        lambda: (
            close(correct.get_absolute_degrees(), 72.0, 0.2)
            and close(wrong.get_absolute_degrees(), 288.0, 0.2)
            and close(correct.get_velocity_dps(), 180.0, 0.5)
            and close(wrong.get_velocity_dps(), -180.0, 0.5)
        ),
        both,
    ), (correct.get_absolute_degrees(), wrong.get_absolute_degrees(), correct.get_velocity_dps())
    assert correct.get_absolute_degrees() > 36.0  # increases with the right flag
    assert wrong.get_absolute_degrees() < 324.0  # decreases with the wrong flag
    # [0, 360): past a full turn, and below zero
    for enc, raw in ((correct, 1.25), (wrong, 1.25)):
        enc.sim.set_raw(raw, 0.0)
    assert eventually(
        lambda: (
            close(correct.get_absolute_degrees(), 90.0, 0.2)
            and close(wrong.get_absolute_degrees(), 270.0, 0.2)
        ),
        both,
    ), (correct.get_absolute_degrees(), wrong.get_absolute_degrees())
    for enc in both:
        enc.sim.set_raw(-0.25 + 1e-3, 0.0)
    assert eventually(
        lambda: (
            close(correct.get_absolute_degrees(), 270.36, 0.2)
            and close(wrong.get_absolute_degrees(), 89.64, 0.2)
        ),
        both,
    ), (correct.get_absolute_degrees(), wrong.get_absolute_degrees())
    for enc in both:
        assert 0.0 <= enc.get_absolute_degrees() < 360.0
        assert enc.fault() is None


def test_cancoder_fresh_config_replaces_stale() -> None:
    settings = encoder_settings(False)
    stale_device = hardware.CANcoder(settings.device.id)
    stale = new_config("CANcoderConfiguration")
    stale.magnet_sensor.magnet_offset = 0.3
    stale.magnet_sensor.sensor_direction = signals.SensorDirectionValue.CLOCKWISE_POSITIVE
    stale.magnet_sensor.absolute_sensor_discontinuity_point = 0.5
    apply_stale(stale_device, stale)
    enc = CANcoderEncoder(settings, None)
    read = new_config("CANcoderConfiguration")
    assert read_device_config(enc.device.configurator, read).is_ok()
    assert read.magnet_sensor.magnet_offset == 0.0
    assert read.magnet_sensor.sensor_direction == (
        signals.SensorDirectionValue.COUNTER_CLOCKWISE_POSITIVE
    )
    assert read.magnet_sensor.absolute_sensor_discontinuity_point == pytest.approx(1.0)
    enc.sim.set_raw(0.7, 0.0)
    assert eventually(lambda: close(enc.get_absolute_degrees(), 252.0, 0.2), [enc])


def test_cancoder_magnet_and_disconnect_faults() -> None:
    enc = CANcoderEncoder(encoder_settings(False, dead=True), None)
    enc.sim.set_raw(0.25, 0.0)
    assert eventually(lambda: close(enc.get_absolute_degrees(), 90.0, 0.2), [enc])
    assert enc.fault() is None

    enc.sim.set_magnet_fault(True)
    assert eventually(lambda: enc.fault() is not None, [enc])
    assert "magnet" in (enc.fault() or "")
    assert any(enc.label in error and "magnet" in error for error in active_errors())
    enc.sim.set_raw(0.5, 0.0)  # garbage while the magnet is bad: keep the last good angle
    raw_signal = enc.status_signals()[0]  # the absolute position signal itself
    assert eventually(lambda: close(raw_signal.value_as_double, 0.5, 1e-3), [enc])
    assert enc.get_absolute_degrees() == pytest.approx(90.0, abs=0.2)
    assert enc.usable is False  # the module falls back to its angle motor's encoder

    enc.sim.set_magnet_fault(False)  # recovers
    assert eventually(
        lambda: enc.fault() is None and close(enc.get_absolute_degrees(), 180.0, 0.2), [enc]
    ), (enc.fault(), enc.get_absolute_degrees())
    assert not any(enc.label in error for error in active_errors())
    assert enc.usable is True

    # A weak (orange) magnet: the reading is still used, and a warning says so (as YAGSL's
    # "magnetic field is less than ideal"); it clears when the magnet is good again.
    enc.device.sim_state.set_magnet_health(signals.MagnetHealthValue.MAGNET_ORANGE)
    enc.sim.set_raw(0.75, 0.0)
    assert eventually(lambda: close(enc.get_absolute_degrees(), 270.0, 0.2), [enc])
    assert enc.usable is True
    assert enc.fault() is None

    def weak_magnet_warnings() -> list[str]:
        return [w for w in alert_texts(("warnings",)) if w.startswith(f"{enc.label}: magnet")]

    assert weak_magnet_warnings() == [
        f"{enc.label}: magnet field less than ideal (MAGNET_ORANGE): the reading is still used; "
        "check the magnet's distance and centring before it fails"
    ]
    assert not any(enc.label in error for error in active_errors())
    enc.sim.set_magnet_fault(False)
    assert eventually(lambda: enc.fault() is None and not weak_magnet_warnings(), [enc])

    enc.sim.set_connected(False)
    assert eventually(lambda: enc.fault() is not None, [enc])
    assert "not answering" in (enc.fault() or "")
    assert any(enc.label in error and "not answering" in error for error in active_errors())
    assert enc.get_absolute_degrees() == pytest.approx(270.0, abs=0.2)  # the last good reading
    assert enc.usable is False
    with pytest.raises(NotImplementedError):
        enc.sim.set_connected(True)


# --------------------------------------------------------------------------------------------
# talonfxs_analog: an analog absolute encoder on the angle Talon FXS's data port
# --------------------------------------------------------------------------------------------

ANALOG_TOL_DEG = 1.5  # the simulated Talon FXS reports the voltage in steps of a few millivolts


def fxs_analog(inverted: bool, angle_motor: Any) -> TalonFXSAnalogEncoder:
    encoder = registry.encoder_adapter("talonfxs_analog")(
        EncoderSettings(
            label=f"test talonfxs_analog on {angle_motor.label} (inverted={inverted})",
            device=DeviceConfig("talonfxs_analog", 0),
            encoder_type=ENCODER_TYPES["talonfxs_analog"],
            inverted=inverted,
        ),
        angle_motor,
    )
    assert isinstance(encoder, TalonFXSAnalogEncoder)
    return encoder


def test_talonfxs_analog_direction_degrees_and_wrap() -> None:
    """(a) only the right flag sees a CCW turn as CCW; (c) 0-3.3 V is one turn, in [0, 360)."""
    angle_motor = build_motor(motor_settings("talonfxs_minion", Role.ANGLE, False))
    correct, wrong = fxs_analog(False, angle_motor), fxs_analog(True, angle_motor)
    both = [correct, wrong]
    # the signal is asked for at 100 Hz (phoenix6 sends it at 4 Hz by default)
    assert correct.status_signals()[0].get_applied_update_frequency() == pytest.approx(100.0)

    def reads(expected: float) -> Callable[[], bool]:
        return lambda: (
            abs(math.remainder(correct.get_absolute_degrees() - expected, 360.0)) < ANALOG_TOL_DEG
            and abs(math.remainder(wrong.get_absolute_degrees() + expected, 360.0)) < ANALOG_TOL_DEG
        )

    for raw, expected in ((0.25, 90.0), (0.30, 108.0), (1.6, 216.0), (-0.25, 270.0)):
        correct.sim.set_raw(raw, 0.0)
        assert eventually(reads(expected), both), (
            raw,
            correct.get_absolute_degrees(),
            wrong.get_absolute_degrees(),
        )
        for encoder in both:
            assert 0.0 <= encoder.get_absolute_degrees() < 360.0
            assert encoder.fault() is None and encoder.usable


def test_talonfxs_analog_velocity_follows_the_reading() -> None:
    angle_motor = build_motor(motor_settings("talonfxs_neo550", Role.ANGLE, False))
    correct, wrong = fxs_analog(False, angle_motor), fxs_analog(True, angle_motor)
    both = [correct, wrong]
    position = 0.1
    correct.sim.set_raw(position, 0.0)
    assert eventually(lambda: abs(correct.get_absolute_degrees() - 36.0) < ANALOG_TOL_DEG, both)

    def moving() -> None:  # the module turns CCW at 0.5 rotation/s, across the wrap
        nonlocal position
        position += 0.5 * 0.005
        correct.sim.set_raw(position, 0.5)

    assert eventually(
        lambda: correct.get_velocity_dps() > 60.0 and wrong.get_velocity_dps() < -60.0,
        both,
        tick=moving,
    ), (correct.get_velocity_dps(), wrong.get_velocity_dps())


def test_talonfxs_analog_velocity_follows_the_reading_refreshed_as_the_drive_does() -> None:
    """The drive refreshes every phoenix6 signal in one SignalBatch, whose fast path writes back
    values and statuses but not timestamps: the velocity, worked out from the samples' times,
    must still follow the turning module."""
    angle_motor = build_motor(motor_settings("talonfxs_neo550", Role.ANGLE, False))
    encoder = fxs_analog(False, angle_motor)
    batch = SignalBatch(encoder.status_signals())
    assert batch.fast  # (the public path updates timestamps: nothing to show there)
    position = 0.1
    encoder.sim.set_raw(position, 0.0)

    def loop() -> None:  # the module turns CCW at 0.5 rotation/s; then the drive's refresh
        nonlocal position
        position += 0.5 * 0.005
        encoder.sim.set_raw(position, 0.5)
        batch.refresh()
        encoder.get_absolute_degrees()  # as the module reads it every loop

    assert until(lambda: encoder.get_velocity_dps() > 60.0, each=loop), encoder.get_velocity_dps()


def test_talonfxs_analog_needs_a_talonfxs_angle_motor() -> None:
    angle_motor = build_motor(motor_settings("krakenx60", Role.ANGLE, False))
    with pytest.raises(TypeError, match=r"talonfxs_analog.*Talon FXS.*`talonfxs_\*`"):
        fxs_analog(False, angle_motor)


def test_talonfxs_analog_reports_a_talon_that_stops_answering() -> None:
    angle_motor = build_motor(motor_settings("talonfxs_neo", Role.ANGLE, False, dead=True))
    encoder = fxs_analog(False, angle_motor)
    encoder.sim.set_raw(0.5, 0.0)
    assert eventually(
        lambda: abs(encoder.get_absolute_degrees() - 180.0) < ANALOG_TOL_DEG, [encoder]
    )
    angle_motor.sim.set_connected(False)
    assert eventually(lambda: encoder.fault() is not None, [encoder])
    assert "not answering" in (encoder.fault() or "")
    assert abs(encoder.get_absolute_degrees() - 180.0) < ANALOG_TOL_DEG  # the last good reading
    assert encoder.usable is False
    assert any(encoder.label in error for error in active_errors())


# --------------------------------------------------------------------------------------------
# Pigeon2
# --------------------------------------------------------------------------------------------


def test_pigeon2_direction_rate_and_unwrapped() -> None:
    assert registry.imu_adapter("pigeon2") is Pigeon2Imu
    correct = Pigeon2Imu(imu_settings(False))
    wrong = Pigeon2Imu(imu_settings(True))
    both = [correct, wrong]
    for imu in both:
        imu.sim.set_raw_yaw(10.0, 0.0)
    assert eventually(
        lambda: (
            close(correct.get_raw_yaw_degrees(), 10.0, 0.05)
            and close(wrong.get_raw_yaw_degrees(), -10.0, 0.05)
        ),
        both,
    ), (correct.get_raw_yaw_degrees(), wrong.get_raw_yaw_degrees())
    for imu in both:  # robot turns CCW
        imu.sim.set_raw_yaw(40.0, 25.0)
    assert eventually(
        lambda: (
            close(correct.get_raw_yaw_degrees(), 40.0, 0.05)
            and close(wrong.get_raw_yaw_degrees(), -40.0, 0.05)
            and close(correct.get_yaw_rate_dps(), 25.0, 0.01)
            and close(wrong.get_yaw_rate_dps(), -25.0, 0.01)
        ),
        both,
    ), (correct.get_raw_yaw_degrees(), wrong.get_raw_yaw_degrees(), wrong.get_yaw_rate_dps())
    # More than a full turn, in steps under 180 degrees (the sim integrates raw-yaw deltas the
    # short way round, as a physics model writing every 20 ms would): not wrapped.
    for yaw in (150.0, 260.0, 400.0):
        for imu in both:
            imu.sim.set_raw_yaw(yaw, 0.0)

        def reached(yaw: float = yaw) -> bool:
            return close(correct.get_raw_yaw_degrees(), yaw, 0.1) and close(
                wrong.get_raw_yaw_degrees(), -yaw, 0.1
            )

        assert eventually(reached, both), (yaw, correct.get_raw_yaw_degrees())
    for imu in both:
        assert imu.fault() is None


def test_pigeon2_fresh_config_replaces_stale() -> None:
    settings = imu_settings(False)
    stale_device = hardware.Pigeon2(settings.device.id)
    stale = new_config("Pigeon2Configuration")
    stale.mount_pose.mount_pose_yaw = 90.0
    apply_stale(stale_device, stale)
    imu = Pigeon2Imu(settings)
    read = new_config("Pigeon2Configuration")
    assert read_device_config(imu.device.configurator, read).is_ok()
    assert read.mount_pose.mount_pose_yaw == 0.0
    imu.sim.set_raw_yaw(20.0, 0.0)
    assert eventually(lambda: close(imu.get_raw_yaw_degrees(), 20.0, 0.05), [imu])


def test_pigeon2_not_answering_fault() -> None:
    imu = Pigeon2Imu(imu_settings(True, dead=True))
    imu.sim.set_raw_yaw(30.0, 5.0)
    assert eventually(
        lambda: (
            close(imu.get_raw_yaw_degrees(), -30.0, 0.05)
            and close(imu.get_yaw_rate_dps(), -5.0, 0.01)
        ),
        [imu],
    )
    assert imu.fault() is None and imu.usable is True
    imu.sim.set_connected(False)
    assert eventually(lambda: imu.fault() is not None, [imu])
    assert "not answering" in (imu.fault() or "")
    assert any(imu.label in error for error in active_errors())
    assert imu.get_raw_yaw_degrees() == pytest.approx(-30.0, abs=0.05)
    assert imu.usable is False  # the drive turns to the wheels for its heading
    assert imu.get_yaw_rate_dps() == pytest.approx(-5.0, abs=0.01)


# --------------------------------------------------------------------------------------------
# CAN bus names and batched refresh
# --------------------------------------------------------------------------------------------


def test_canivore_bus_and_batched_refresh_across_buses() -> None:
    gains = PIDF(p=7.0, i=0.5, d=0.2, f=0.3)
    fx = TalonFXMotor(motor_settings("krakenx60", Role.DRIVE, False, canbus="canivore", pidf=gains))
    fxs = TalonFXSMotor(motor_settings("talonfxs_neo", Role.DRIVE, False, canbus="canivore"))
    enc = CANcoderEncoder(encoder_settings(False, canbus="canivore"), fx)
    imu = Pigeon2Imu(imu_settings(False, canbus="canivore"))
    rio = TalonFXMotor(motor_settings("falcon", Role.DRIVE, False))  # roboRIO bus
    devices = [fx, fxs, enc, imu, rio]
    sigs = [s for d in devices for s in d.status_signals()]
    assert len(group_by_bus(sigs)) == 2  # canivore + rio
    batch = SignalBatch(sigs)
    assert len(batch) == len(sigs)
    assert SignalBatch().refresh()  # empty is fine
    assert refresh_all([])

    fx.sim.set_rotor(5.0, 0.0, 0.02)
    fxs.sim.set_rotor(5.0, 0.0, 0.02)
    rio.sim.set_rotor(5.0, 0.0, 0.02)
    enc.sim.set_raw(0.25, 0.0)
    imu.sim.set_raw_yaw(15.0, 0.0)

    def updated() -> bool:
        return (
            all(close(m.get_position(), 5.0 * DRIVE_M_PER_ROT, 1e-3) for m in (fx, fxs, rio))
            and close(enc.get_absolute_degrees(), 90.0, 0.2)
            and close(imu.get_raw_yaw_degrees(), 15.0, 0.05)
        )

    until(lambda: refresh_all(sigs) and updated())
    assert updated(), [d.get_position() for d in (fx, fxs, rio)]
    assert all(d.fault() is None for d in devices)
    # phoenix6's own refresh_all refuses the mix (and marks every signal bad) ...
    assert BaseStatusSignal.refresh_all(sigs) is StatusCode.INVALID_NETWORK
    assert all(d.fault() is not None for d in devices)
    # ... the batch refreshes each bus separately
    assert batch.refresh()
    assert all(d.fault() is None for d in devices)
    assert updated()
    slot = read_config(fx).slot0  # pidfproperties gains: p, i, d, and f as kS (no kV)
    assert (slot.k_p, slot.k_i, slot.k_d, slot.k_s, slot.k_v) == pytest.approx(
        (7.0, 0.5, 0.2, 0.3, 0.0), abs=1e-3
    )


def test_batch_fast_path_reads_what_phoenix6_reads() -> None:
    """The batch's native refresh gives every signal the value and status phoenix6's own
    refresh_all gives it, on two buses, and reports a device that stops answering."""
    fx = TalonFXMotor(motor_settings("krakenx60", Role.DRIVE, False, canbus="canivore"))
    enc = CANcoderEncoder(encoder_settings(False, canbus="canivore", dead=True), fx)
    rio = TalonFXMotor(motor_settings("falcon", Role.ANGLE, False))
    imu = Pigeon2Imu(imu_settings(False))
    devices = [fx, enc, rio, imu]
    sigs = [s for d in devices for s in d.status_signals()]
    fast, public = SignalBatch(sigs), SignalBatch(sigs, fast=False)
    assert fast.fast and not public.fast
    assert len(fast) == len(public) == len(sigs) == 6  # position+velocity, absolute+magnet, ...

    fx.sim.set_rotor(3.0, 1.5, 0.02)
    rio.sim.set_rotor(-2.0, 0.0, 0.02)
    enc.sim.set_raw(0.3, 0.0)
    imu.sim.set_raw_yaw(-40.0, 0.0)
    fresh_frames(sigs)  # CTRE sim frames follow the wall clock

    assert public.refresh()
    values, statuses = [s.value_as_double for s in sigs], [s.status for s in sigs]
    assert statuses == [StatusCode.OK] * len(sigs)
    for s in sigs:  # forget them, so the fast refresh has to write every one
        s._value, s._status = math.nan, StatusCode.STATUS_CODE_NOT_INITIALIZED
    assert fast.refresh()
    assert [s.status for s in sigs] == statuses
    assert [s.value_as_double for s in sigs] == pytest.approx(values, abs=1e-6)
    assert values[0] == pytest.approx(3.0 * DRIVE_M_PER_ROT, abs=1e-3)  # really moved
    assert close(enc.get_absolute_degrees(), 108.0, 0.2) and enc.usable
    assert close(imu.get_raw_yaw_degrees(), -40.0, 0.05)

    enc.sim.set_connected(False)  # frames stop; the signals go stale within ~0.3 s
    assert until(lambda: not fast.refresh())
    assert [s.status for s in enc.status_signals()] != [StatusCode.OK] * 2
    assert all(s.status is StatusCode.OK for d in (fx, rio, imu) for s in d.status_signals())
    enc.get_absolute_degrees()
    assert not enc.usable
    assert "not answering" in (enc.fault() or "")


def test_batch_status_codes_phoenix6_does_not_name_are_errors() -> None:
    from swervelib.devices.ctre6.batch import _STATUS_CODES

    assert _STATUS_CODES[StatusCode.OK.value] is StatusCode.OK
    assert _STATUS_CODES[StatusCode.RX_TIMEOUT.value] is StatusCode.RX_TIMEOUT
    assert _STATUS_CODES[987654321] is StatusCode.GENERAL_ERROR
    assert 987654321 not in _STATUS_CODES  # not remembered: unknown codes cannot pile up


# -- set-points with hostile numbers (issue 12 item 1) ------------------------------------------


def spy_on_phoenix6(motor: Any, monkeypatch: pytest.MonkeyPatch) -> Sent:
    """Record every control request and position seed the adapter hands to phoenix6, in the
    adapter's units (the requests are in mechanism rotations)."""
    sent = Sent()
    device, scale = motor.device, motor._scale
    set_control, set_position = device.set_control, device.set_position

    def control(request: Any) -> Any:
        if isinstance(request, controls.VoltageOut):
            sent.add("volts", request.output)
        elif isinstance(request, controls.VelocityVoltage):
            sent.add("velocity", request.velocity * scale, request.feed_forward)
        elif isinstance(request, controls.PositionVoltage):
            sent.add("position", request.position * scale)
        else:
            sent.add(f"unexpected {type(request).__name__}", math.nan)
        return set_control(request)

    def seed(rotations: float, *rest: Any) -> Any:
        sent.add("seed", rotations * scale)
        return set_position(rotations, *rest)

    monkeypatch.setattr(device, "set_control", control)
    monkeypatch.setattr(device, "set_position", seed)
    return sent


@settings(max_examples=100, deadline=None, derandomize=True)
@given(which=st.sampled_from(["angle", "drive"]), calls=call_lists)
def test_only_finite_in_range_setpoints_reach_phoenix6(
    module: Module, which: str, calls: list[tuple[str, float, float]]
) -> None:
    motor = (module.angle if which == "angle" else module.drive)[False]
    with pytest.MonkeyPatch.context() as monkeypatch:
        make_calls_and_check(motor, spy_on_phoenix6(motor, monkeypatch), calls)
    motor.set_voltage(0.0)


@pytest.mark.parametrize("fast", [True, False])
def test_latency_compensation_extrapolates_drive_positions_by_their_frames_age(fast: bool) -> None:
    """A drive motor tracked by the batch reads position + velocity × the frame's age (phoenix6's
    own timestamps, on both refresh paths); off, or in stepped time, the raw position; never an
    angle motor."""
    drive = TalonFXMotor(motor_settings("krakenx60", Role.DRIVE, False))
    angle = TalonFXMotor(motor_settings("krakenx60", Role.ANGLE, False))
    sigs = [*drive.status_signals(), *angle.status_signals()]
    batch = SignalBatch(sigs, fast=fast)
    assert drive.use_latency_compensation(batch)
    assert not angle.use_latency_compensation(batch)
    drive.sim.set_rotor(4.0, 20.0, 0.02)  # 20 rotor turns per second
    fresh_frames(sigs)
    assert until(lambda: batch.refresh() and drive._age.age_s > 0.0)
    age = drive._age.age_s
    assert 0.0 < age <= 0.1
    position, velocity = (s.value_as_double for s in drive.status_signals())
    assert velocity == pytest.approx(20.0 * DRIVE_M_PER_ROT, rel=1e-3)
    assert drive.get_position() == pytest.approx(position + velocity * age, abs=1e-9)
    drive.latency_compensation = False
    assert drive.get_position() == pytest.approx(position, abs=1e-9)
    drive.latency_compensation = True
    batch.live_ages = False  # a simulation stepped faster than real time
    assert batch.refresh() and drive._age.age_s == 0.0
    assert drive.get_position() == pytest.approx(drive.status_signals()[0].value_as_double)


# --------------------------------------------------------------------------------------------
# Start-up configuration calls that phoenix6 could not send
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answers", "expected", "calls", "pauses"),
    [
        # "Could not transmit CAN Frame" (a process starved at start-up, seen in CI): sent again
        ([StatusCode.TX_FAILED, StatusCode.TX_FAILED, StatusCode.OK], True, 3, [0.01, 0.02]),
        ([StatusCode.OK], True, 1, []),
        # a device that did not answer in time: its timeout was waited out already, once is all
        ([StatusCode.RX_TIMEOUT], False, 1, []),
        ([StatusCode.TX_FAILED] * 30, False, 18, list(ctre6.TX_BACKOFF_S)),
    ],
)
def test_a_configuration_frame_that_could_not_be_sent_is_sent_again_after_a_pause(
    monkeypatch: pytest.MonkeyPatch,
    answers: list[StatusCode],
    expected: bool,
    calls: int,
    pauses: list[float],
) -> None:
    slept: list[float] = []
    monkeypatch.setattr(ctre6.time, "sleep", slept.append)
    remaining = iter(answers)
    made: list[StatusCode] = []

    def call() -> StatusCode:
        made.append(next(remaining))
        return made[-1]

    assert ctre6.sent(call, ctre6.tx_pauses()) is expected  # (tests run in simulation)
    assert len(made) == calls and slept == pauses


@pytest.mark.parametrize(("outage_s", "applies"), [(3.1, True), (7.0, False)])
def test_a_start_up_configuration_rides_out_the_longest_outage_measured(
    monkeypatch: pytest.MonkeyPatch, outage_s: float, applies: bool
) -> None:
    """The simulator could not send for 3.1 s once (124 devices, one core, three busy processes;
    each failed try took about 0.1 s itself): a start-up configuration, with the device's five
    tries, still applies; the 0.63 s of pauses used before gave up after about 1.8 s. A longer
    outage is given up on, with an Alert."""
    clock = [0.0]
    monkeypatch.setattr(ctre6.time, "sleep", lambda pause: clock.__setitem__(0, clock[0] + pause))

    def apply(_config: object) -> StatusCode:
        if clock[0] < outage_s:
            clock[0] += 0.1  # a try that fails takes about this long
            return StatusCode.TX_FAILED
        return StatusCode.OK

    configurator = SimpleNamespace(apply=apply)
    calls = ConfigCalls("Talon FX (test)")
    assert ctre6.apply_at_start(calls, "settings", configurator, object()) is applies
    assert calls.failed == (() if applies else ("settings",))


def test_the_pauses_of_one_configuration_call_are_shared_by_its_tries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bus that never sends (five tries of one call) costs the pauses once, not five times; on
    a robot, where a TX_FAILED means the bus is off, there are none."""
    slept: list[float] = []
    monkeypatch.setattr(ctre6.time, "sleep", slept.append)
    pauses = ctre6.tx_pauses()
    tries = [ctre6.sent(lambda: StatusCode.TX_FAILED, pauses) for _ in range(5)]
    assert tries == [False] * 5 and slept == list(ctre6.TX_BACKOFF_S)
    monkeypatch.setattr(ctre6.wpilib.RobotBase, "isSimulation", staticmethod(lambda: False))
    slept.clear()
    assert not ctre6.sent(lambda: StatusCode.TX_FAILED, ctre6.tx_pauses()) and slept == []


def test_a_start_up_configuration_goes_through_the_devices_config_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """apply_at_start: the device's tries and Alert, each try sending again what could not leave."""
    monkeypatch.setattr(ctre6.time, "sleep", lambda _: None)
    answers = iter([StatusCode.TX_FAILED, StatusCode.OK, StatusCode.RX_TIMEOUT])

    class Configurator:
        def apply(self, config: object) -> StatusCode:
            return next(answers, StatusCode.RX_TIMEOUT)

    calls = ConfigCalls("test configurator")
    assert ctre6.apply_at_start(calls, "settings", Configurator(), object())
    assert calls.failed == ()
    assert not ctre6.apply_at_start(calls, "settings", Configurator(), object())  # five timeouts
    assert calls.failed == ("settings",)
