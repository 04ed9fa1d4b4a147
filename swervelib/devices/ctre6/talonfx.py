"""phoenix6 Talon FX (Kraken X60/X44, Falcon 500) and Talon FXS (NEO, NEO 550, Vortex, Minion) motors.

Units: the controller's *mechanism* unit is set with ``SensorToMechanismRatio`` to one module
rotation (angle motors) or one metre of wheel travel (drive motors). The adapter converts module
rotations to degrees, so angle readings and set-points are always degrees, never rotations.

Inversion uses phoenix6's own meaning: ``MotorSettings.inverted`` True is
``InvertedValue.CLOCKWISE_POSITIVE`` (YAGSL 2025+ flips this; we do not). The simulation hook speaks
the bare motor's frame: ``sim_state.orientation`` stays at its default, so the Talon applies the
configured inversion itself, as on the robot.

Control requests are one-shot frames (``update_freq_hz`` 0), as phoenix6's own swerve module sends
them: each call sends its frame at once, and phoenix6 does not repeat it in the background. A Talon
whose commands stop goes neutral after about 100 ms, like a WPILib motor under motor safety; the
drive sends its command in force every loop (``SwerveDrive.periodic`` re-applies one the robot code
did not renew), so nothing stops while a command holds. With phoenix6's default (a frame repeated
at 100 Hz by a background thread), a busy process could leave a Talon on a stale, earlier request:
in simulation, with the test process sharing one core with four busy ones, three Talons of a
corpus robot kept the ``VoltageOut(0)`` of a stop while the drive sent them ``PositionVoltage`` and
``VelocityVoltage`` (status OK) every loop for a second, in 9 runs of 77; with one-shot frames, in
none of 50 (docs/reliability.md).
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, Final, cast

import wpilib
from phoenix6 import configs, controls, hardware, signals
from phoenix6.controls.empty_control import EmptyControl
from phoenix6.sim import TalonFXSimState
from phoenix6.utils import get_current_time_seconds

from swervelib.config.catalog import Motor
from swervelib.devices.ctre6 import (
    OK,
    SignalDevice,
    SimDisconnect,
    apply_at_start,
    can_bus,
    signal_fault,
)
from swervelib.devices.faults import ConfigCalls, FaultAlert
from swervelib.devices.guard import MAX_POSITION, SetpointGuard
from swervelib.devices.interfaces import MotorSim, ReadingWatch, SwerveMotor
from swervelib.devices.seeding import StampedSeed
from swervelib.devices.settings import MotorSettings, Role

# Default closed-loop gains when pidfproperties.json is absent. Units are the controller's: volts
# per module rotation (angle) and volts per m/s (drive).
DEFAULT_ANGLE_KP = 50.0
DEFAULT_DRIVE_KP = 0.1
# Calls that may happen while the robot runs (seeding, idle mode) block at most 2 x 50 ms (idle
# mode: 3 x 50 ms after a failed try, see _PhoenixTalon._apply_neutral_mode).
RUNTIME_TIMEOUT_S = 0.05
RUNTIME_ATTEMPTS = 2
# Control frames are sent once per call, never repeated by phoenix6 (see the module docstring).
ONE_SHOT: Final = 0.0
# A reading this close to a seed (sensor rotations) shows it (see swervelib.devices.seeding).
SEED_MATCH_ROTATIONS: Final = 0.01

_FOC_MOTORS = frozenset({Motor.KRAKEN_X60_FOC, Motor.FALCON500_FOC})

_OTHER_MODE: Final = {
    signals.NeutralModeValue.BRAKE: signals.NeutralModeValue.COAST,
    signals.NeutralModeValue.COAST: signals.NeutralModeValue.BRAKE,
}

_FXS_ARRANGEMENT = {
    Motor.NEO: signals.MotorArrangementValue.NEO_JST,
    Motor.NEO550: signals.MotorArrangementValue.NEO550_JST,
    Motor.VORTEX: signals.MotorArrangementValue.VORTEX_JST,
    Motor.MINION: signals.MotorArrangementValue.MINION_JST,
}


class TalonSim(SimDisconnect, MotorSim):
    """Simulation hook of a Talon FX / FXS, in the bare motor's frame."""

    def __init__(self, device: Any, device_type: str) -> None:
        self._device = device
        self._state = device.sim_state
        self._enable: Any = None  # the DeviceEnable signal, asked for by a stepped simulation
        self._device_type = device_type
        self._device_id = device.device_id
        self._supply_volts = -1.0

    def applied_voltage(self) -> float:
        return float(self._state.motor_voltage)

    def set_rotor(self, rotations: float, rotations_per_second: float, dt: float) -> None:
        state = self._state
        volts = wpilib.RobotController.getBatteryVoltage()
        if volts != self._supply_volts:  # the sim battery (12 V unless a physics model sags it)
            self._supply_volts = volts
            state.set_supply_voltage(volts)
        state.set_raw_rotor_position(rotations)
        state.set_rotor_velocity(rotations_per_second)

    @property
    def enable_signal(self) -> Any:
        """The Talon's DeviceEnable status signal: whether it applies its output (a Talon whose
        command lapsed reports itself disabled too). Made on first use: only a simulation stepped
        faster than real time waits on it (:mod:`swervelib.sim.talon_commands`)."""
        if self._enable is None:
            self._enable = self._device.get_device_enable(False)
        return self._enable

    def takes_commands(self) -> bool:
        """Whether :attr:`enable_signal`, as last refreshed, says the Talon is enabled (True for
        a Talon never sent a command: there is none to take)."""
        if isinstance(self._device.control_request, EmptyControl):
            return True
        return bool(self.enable_signal.value == signals.DeviceEnableValue.ENABLED)

    def resend_command(self) -> None:
        """Send the Talon its last control request again, unchanged (none before the first): a
        simulation stepped faster than real time keeps it on a command that simulated time has
        not outlived, which the Talon would drop 100 ms of wall time after its frame
        (:mod:`swervelib.sim.talon_commands`)."""
        request = self._device.control_request
        if not isinstance(request, EmptyControl):
            self._device.set_control(request)


class _PhoenixTalon(ReadingWatch, SignalDevice, SwerveMotor):
    """What the Talon FX and Talon FXS adapters share."""

    CONTROLLER: ClassVar[str]
    SIM_DEVICE_TYPE: ClassVar[str]

    @classmethod
    def _check_controller(cls, settings: MotorSettings) -> None:
        if settings.motor_type.controller != cls.CONTROLLER:
            raise ValueError(
                f"{settings.label}: {cls.__name__} drives a {cls.CONTROLLER}, "
                f"not a {settings.motor_type.controller}"
            )

    def __init__(self, settings: MotorSettings, device: Any, config: Any, feedback: Any) -> None:
        self.settings = settings
        self.label = settings.label
        self.motor: Motor = settings.motor_type.motor
        self.device = device
        self._alert = FaultAlert(settings.label)
        self.config_calls = ConfigCalls(settings.label)  # what did not apply, on an Alert
        self.guard = SetpointGuard(settings)
        angle = settings.role is Role.ANGLE
        # Mechanism unit -> adapter unit: module rotations -> degrees, or metres -> metres.
        self._scale = 360.0 if angle else 1.0

        # A complete, fresh configuration: factory defaults for everything not set here, so
        # nothing stale survives (neither on the robot nor in ./ctre_sim/).
        self._config = config
        self._neutral_unsure = False  # the last neutral-mode apply was not answered OK
        output = config.motor_output
        output.inverted = (
            signals.InvertedValue.CLOCKWISE_POSITIVE
            if settings.inverted
            else signals.InvertedValue.COUNTER_CLOCKWISE_POSITIVE
        )
        output.neutral_mode = (
            signals.NeutralModeValue.BRAKE if settings.brake else signals.NeutralModeValue.COAST
        )
        limits = config.current_limits
        limits.supply_current_limit = settings.current_limit_a
        limits.supply_current_lower_limit = settings.current_limit_a
        limits.supply_current_limit_enable = True
        ramps = config.closed_loop_ramps
        ramps.voltage_closed_loop_ramp_period = settings.ramp_rate_s
        ramps.duty_cycle_closed_loop_ramp_period = settings.ramp_rate_s
        volts = self.guard.max_volts
        config.voltage.peak_forward_voltage = volts
        config.voltage.peak_reverse_voltage = -volts
        feedback.sensor_to_mechanism_ratio = settings.gear_ratio
        config.closed_loop_general.continuous_wrap = angle
        slot = config.slot0
        if angle:
            # kS (pidfproperties.json's f) pushes in the direction of the position error, as CTRE's
            # swerve generator sets up its steer motors. phoenix6's default takes kS's sign from
            # the velocity reference, which a PositionVoltage leaves at zero: the kS never acted
            # (tests/devices/test_ctre6_angle_ks.py).
            slot.static_feedforward_sign = signals.StaticFeedforwardSignValue.USE_CLOSED_LOOP_SIGN
        if settings.pidf is not None:
            slot.k_p = settings.pidf.p
            slot.k_i = settings.pidf.i
            slot.k_d = settings.pidf.d
            slot.k_s = settings.pidf.f
        elif angle:
            slot.k_p = DEFAULT_ANGLE_KP
        else:
            # kP only: the drive passes the velocity feedforward (kV·v) in volts with each command.
            slot.k_p = DEFAULT_DRIVE_KP
        apply_at_start(self.config_calls, "phoenix6 configuration", device.configurator, config)

        self._position = device.get_position(False)
        self._velocity = device.get_velocity(False)
        # Refreshed every loop (batched by the drive): what the drive reads each loop. An angle
        # motor's velocity is not, so it is refreshed only when asked for.
        self._lazy_velocity = settings.role is Role.ANGLE
        self._signals: list[Any] = (
            [self._position] if self._lazy_velocity else [self._position, self._velocity]
        )

        # Control requests, allocated once and mutated per call; one-shot frames (module docstring).
        foc = self.motor in _FOC_MOTORS and self.CONTROLLER == "talonfx"
        self._voltage_request = controls.VoltageOut(0.0, enable_foc=foc).with_update_freq_hz(
            ONE_SHOT
        )
        self._velocity_request = controls.VelocityVoltage(
            0.0, enable_foc=foc, slot=0
        ).with_update_freq_hz(ONE_SHOT)
        self._position_request = controls.PositionVoltage(
            0.0, enable_foc=foc, slot=0
        ).with_update_freq_hz(ONE_SHOT)

        # Control requests sent so far: a simulation stepped faster than real time waits for the
        # Talon to take a new one (SwerveSim), and only for a new one.
        self.commands_sent = 0
        self._sim = TalonSim(device, self.SIM_DEVICE_TYPE)
        self._age: Any = None  # the position frame's age, for latency compensation (drive motors)
        self.latency_compensation = True
        self._last_position = 0.0
        self._last_velocity = 0.0
        self._seed: StampedSeed | None = None  # until a frame shows it
        self._position.wait_for_update(0.1, False)
        self.refresh()
        self.get_position()
        self.get_velocity()

    # -- readings ---------------------------------------------------------------------------
    def get_position(self) -> float:
        signal = self._position
        seed = self._seed
        if seed is not None and not self._seed_shown(seed):
            return self._last_position  # the seed, until a frame shows it
        if signal.status is OK:
            value = signal.value_as_double
            if value == value:  # not NaN
                age = self._age
                if age is not None and self.latency_compensation:
                    velocity = self._velocity.value_as_double
                    if velocity == velocity:
                        value += velocity * age.age_s  # where the wheel is by now
                self._last_position = value * self._scale
                return self._last_position
        self._lose_reading()  # not answering (RX timeout, stale frame) or NaN: frozen
        return self._last_position

    def use_latency_compensation(self, batch: Any) -> bool:
        """Drive motors: extrapolate the position by the velocity over the position frame's age
        at each refresh (phoenix6 timestamps every frame; at most 0.1 s). Not angle motors, whose
        velocity is not refreshed every loop."""
        if self._lazy_velocity:
            return False
        self._age = batch.track_age(self._position)
        return self._age is not None

    def get_velocity(self) -> float:
        signal = self._velocity
        if self._lazy_velocity:
            signal.refresh(False)
        if signal.status is OK:
            value = signal.value_as_double
            if value == value:
                self._last_velocity = value * self._scale
        return self._last_velocity

    def get_applied_volts(self) -> float:
        return _fresh(self.device.get_motor_voltage)

    def get_current_amps(self) -> float:
        return _fresh(self.device.get_stator_current)

    def recheck_reading(self) -> None:
        if signal_fault(self._signals) is None:  # this loop's refresh was answered, not NaN
            self._regain_reading()

    def fault(self) -> str | None:
        text = signal_fault(self._signals)
        if text is None:  # a neutral mode not taken is tried again only while the Talon answers
            self.config_calls.retry_pending()
            self._regain_reading()
        self._alert.update(text)
        return text

    # -- outputs ----------------------------------------------------------------------------
    def set_voltage(self, volts: float) -> None:
        guard = self.guard
        if not -guard.max_volts <= volts <= guard.max_volts:  # out of range, NaN or infinite
            checked = guard.volts(volts)
            volts = 0.0 if checked is None else checked
        request = self._voltage_request
        request.output = volts
        self.commands_sent += 1
        self.device.set_control(request)

    def set_velocity(self, units_per_second: float, feedforward_volts: float) -> None:
        guard = self.guard
        speed, volts = guard.max_speed, guard.max_volts
        if not (-speed <= units_per_second <= speed and -volts <= feedforward_volts <= volts):
            checked = guard.velocity(units_per_second, feedforward_volts)
            if checked is None:  # NaN or infinite
                self.set_voltage(0.0)
                return
            units_per_second, feedforward_volts = checked
        request = self._velocity_request
        request.velocity = units_per_second / self._scale
        request.feed_forward = feedforward_volts
        self.commands_sent += 1
        self.device.set_control(request)

    def set_angle(self, degrees: float) -> None:
        if not -MAX_POSITION <= degrees <= MAX_POSITION and not self.guard.position(
            "set_angle", degrees
        ):
            self.set_voltage(0.0)
            return
        request = self._position_request
        request.position = degrees / self._scale
        self.commands_sent += 1
        self.device.set_control(request)

    def set_position(self, value: float) -> None:
        """Seed the Talon's position; readings show it from the next status frame (~10 ms), and
        :meth:`get_position` answers the seed until then. A value that is not finite is refused."""
        if not self.guard.position("set_position", value):
            return
        rotations = value / self._scale
        if self.config_calls.apply(
            "sensor position",
            lambda: self.device.set_position(rotations, RUNTIME_TIMEOUT_S).is_ok(),
            attempts=RUNTIME_ATTEMPTS,
        ):
            self._seed = StampedSeed(rotations, SEED_MATCH_ROTATIONS, get_current_time_seconds())
            self._last_position = value

    def _seed_shown(self, seed: StampedSeed) -> bool:
        """Whether the position frame shows the pending ``seed``; if so the seed is dropped. The
        signal is refreshed on its own while a seed is pending: the drive's batch keeps no
        arrival times."""
        signal = self._position.refresh(False)
        if signal.status is not OK or not seed.shown_by(
            signal.value_as_double, signal.all_timestamps.get_system_timestamp().time
        ):
            return False
        self._seed = None
        return True

    def set_brake(self, brake: bool) -> None:
        """Brake or coast, blocking at most 2 × 50 ms (3 × 50 ms when the first try fails: see
        :meth:`_apply_neutral_mode`). If the Talon does not take it in that time, :meth:`fault`
        (the drive's health check, about once a second) tries again, once and only while the
        Talon answers, until it does; an Alert says so meanwhile."""
        mode = signals.NeutralModeValue.BRAKE if brake else signals.NeutralModeValue.COAST
        self.config_calls.apply(
            "neutral mode", lambda: self._apply_neutral_mode(mode), RUNTIME_ATTEMPTS, retry=True
        )

    def _apply_neutral_mode(self, mode: Any) -> bool:
        """One try of :meth:`set_brake`: whether the Talon answered OK.

        After an apply that phoenix6 could not send (``TX_FAILED``), it answered OK to an apply of
        the same configuration without the Talon taking it: beside a full simulated bus on a busy
        core, 25 of 27 such second tries never read back in 5 s (``benchmarks/neutral_mode.py``),
        and the other mode applied first made the wanted one take. So a try after one not
        answered OK applies the other mode first, whatever its answer (the mode the Talon most
        likely still has), and then ``mode``, which is new to phoenix6 again. phoenix6 refuses a
        configuration call a timeout of 0, so the first apply may wait its 50 ms as well."""
        output = self._config.motor_output
        configurator = self.device.configurator
        if self._neutral_unsure:
            output.neutral_mode = _OTHER_MODE[mode]
            configurator.apply(output, RUNTIME_TIMEOUT_S)
        output.neutral_mode = mode
        ok: bool = configurator.apply(output, RUNTIME_TIMEOUT_S).is_ok()
        self._neutral_unsure = not ok
        return ok

    @property
    def sim(self) -> TalonSim:
        return self._sim


class TalonFXMotor(_PhoenixTalon):
    """A Talon FX (Kraken X60, Kraken X44, Falcon 500; FOC variants use FOC commutation)."""

    CONTROLLER = "talonfx"
    SIM_DEVICE_TYPE = "P6_TalonFXType"

    def __init__(self, settings: MotorSettings) -> None:
        self._check_controller(settings)
        device = hardware.TalonFX(settings.device.id, can_bus(settings.device.bus_name))
        config = cast(Any, configs.TalonFXConfiguration)()  # untyped in phoenix6
        super().__init__(settings, device, config, config.feedback)
        # The simulator models a Kraken X60 or X44; a Falcon 500 is closest to the X60.
        self.sim_motor_type = (
            TalonFXSimState.MotorType.KRAKEN_X44
            if self.motor is Motor.KRAKEN_X44
            else TalonFXSimState.MotorType.KRAKEN_X60
        )
        if wpilib.RobotBase.isSimulation():
            device.sim_state.set_motor_type(self.sim_motor_type)


class TalonFXSMotor(_PhoenixTalon):
    """A Talon FXS commutating a brushless NEO, NEO 550, Vortex or Minion (JST hall connector)."""

    CONTROLLER = "talonfxs"
    SIM_DEVICE_TYPE = "P6_TalonFXSType"

    def __init__(self, settings: MotorSettings) -> None:
        self._check_controller(settings)
        arrangement = _FXS_ARRANGEMENT.get(settings.motor_type.motor)
        if arrangement is None:
            raise ValueError(
                f"{settings.label}: a Talon FXS cannot drive a {settings.motor_type.motor.value}"
            )
        self.motor_arrangement = arrangement
        device = hardware.TalonFXS(settings.device.id, can_bus(settings.device.bus_name))
        config = cast(Any, configs.TalonFXSConfiguration)()
        config.commutation.motor_arrangement = arrangement
        # Feedback from the motor's own hall sensor through the commutation connector (default).
        config.external_feedback.external_feedback_sensor_source = (
            signals.ExternalFeedbackSensorSourceValue.COMMUTATION
        )
        super().__init__(settings, device, config, config.external_feedback)


def _fresh(getter: Any) -> float:
    """A phoenix6 signal's value, refreshed now; NaN when the device does not answer."""
    try:
        signal = getter()
        signal.refresh(False)
        return float(signal.value_as_double) if signal.status is OK else math.nan
    except Exception:  # a vendor error must not stop the robot loop
        return math.nan
