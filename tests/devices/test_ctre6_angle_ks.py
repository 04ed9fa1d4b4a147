"""A Talon's steering kS (pidfproperties.json's angle ``f``) through CTRE's own simulator.

swervelib steers with ``PositionVoltage``, which carries no velocity reference. With phoenix6's
default static feedforward sign (``USE_VELOCITY_SIGN``) the kS of such a request has no sign and
is never applied: measured, kP 1 V per module rotation and kS 0.5 V gave 0.02 V for a 10° error,
and a module held by 0.3 V of friction (the simulation's default) did not move at all. An angle
Talon therefore takes kS's sign from the closed-loop error (``USE_CLOSED_LOOP_SIGN``, as CTRE's
swerve generator configures its steer motors); a drive Talon keeps the velocity sign.

This file runs in a process of its own (the ctre6_angle_ks group: test_ctre6.py uses every Talon
CAN id), one CAN id per Talon, so no two tests share a simulated device.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from phoenix6 import signals

from swervelib.config.model import PIDF, PhysicalProperties
from swervelib.devices.settings import Role
from swervelib.sim.motor_model import MotorModel, dc_motor
from tests.devices import test_ctre6 as ctre6_tests
from tests.devices.test_ctre6 import (
    ANGLE_RATIO,
    build_motor,
    motor_settings,
    read_config,
    settle,
    talon_states,
)
from tests.waits import fresh_frames, until

enabled = ctre6_tests.enabled  # the DS enabled, the sim clock running (a fixture)

KP = 1.0  # volts per module rotation: under 0.03 V for a 10° error, far below the friction
KS = 0.5  # volts
LOOP_S = 0.02
FRICTION_V = PhysicalProperties().friction.angle  # what the simulation gives a steering motor
TYPES = ("krakenx60", "talonfxs_neo")  # a Talon FX and a Talon FXS
_IDS = itertools.count(1)


def talon(type_name: str, role: Role, inverted: bool, pidf: PIDF) -> Any:
    return build_motor(motor_settings(type_name, role, inverted, pidf=pidf, can_id=next(_IDS)))


def steering(type_name: str, inverted: bool, ks: float) -> Any:
    return talon(type_name, Role.ANGLE, inverted, PIDF(p=KP, f=ks))


def rotor_frame(motor: Any) -> float:
    """The sign that turns a mechanism-frame voltage into the bare rotor's."""
    return -1.0 if motor.settings.inverted else 1.0


@pytest.mark.parametrize("type_name", TYPES)
def test_only_the_steering_takes_ks_sign_from_the_closed_loop_error(type_name: str) -> None:
    angle = steering(type_name, False, KS)
    drive = talon(type_name, Role.DRIVE, False, PIDF(p=0.1, f=KS))
    sign = signals.StaticFeedforwardSignValue
    assert read_config(angle).slot0.static_feedforward_sign == sign.USE_CLOSED_LOOP_SIGN
    assert read_config(angle).slot0.k_s == pytest.approx(KS, abs=1e-3)
    assert read_config(drive).slot0.static_feedforward_sign == sign.USE_VELOCITY_SIGN


@pytest.mark.usefixtures("enabled")
@pytest.mark.parametrize("type_name", TYPES)
def test_a_steering_ks_pushes_towards_the_set_point(type_name: str) -> None:
    """A module held still 10° short of its set-point, and 10° past it: the Talon applies kS
    (plus the small kP term) towards the set-point, in the bare motor's frame after inversion."""
    motors = [steering(type_name, inverted, KS) for inverted in (False, True)]
    settle(motors)
    start = {m: m.get_position() for m in motors}
    try:
        for offset in (10.0, -10.0):
            towards = 1.0 if offset > 0 else -1.0

            def loop(offset: float = offset) -> None:  # command, then a physics step (held)
                for m in motors:
                    m.set_angle(start[m] + offset)
                    m.sim.set_rotor(0.0, 0.0, LOOP_S)

            def pushes(towards: float = towards) -> bool:
                # kS towards the set-point, and the kP term (under 0.03 V) on top of it
                return all(
                    KS <= m.sim.applied_voltage() * rotor_frame(m) * towards <= KS + 0.1
                    for m in motors
                )

            assert ctre6_tests.eventually(pushes, motors, tick=loop), talon_states(motors)
    finally:
        for m in motors:
            m.set_voltage(0.0)


@pytest.mark.usefixtures("enabled")
@pytest.mark.parametrize("inverted", [False, True])
def test_a_steering_ks_above_the_friction_turns_the_module_to_its_set_point(
    inverted: bool,
) -> None:
    """kP alone (under 0.03 V for 10°) cannot move a module against the simulation's 0.3 V of friction;
    a kS of 0.35 V turns it to within half a degree of a set-point 10° away. Each robot loop
    commands the angle, lets the Talon take the command (two status frames), then steps the
    module's physics by 20 ms with what the Talon applies."""
    motor = steering("krakenx60", inverted, FRICTION_V + 0.05)
    inertia = PhysicalProperties().steer_rotational_inertia / ANGLE_RATIO**2
    model = MotorModel(dc_motor(motor.motor), inertia, FRICTION_V)
    flip = rotor_frame(motor)
    settle([motor])
    target = motor.get_position() + 10.0
    position = [motor._position]

    def loop() -> None:
        motor.set_angle(target)
        motor.sim.set_rotor(model.position * flip, model.velocity * flip, LOOP_S)
        fresh_frames(position)  # the Talon took the command and computed its output
        model.step(motor.sim.applied_voltage() * flip, LOOP_S)
        motor.sim.set_rotor(model.position * flip, model.velocity * flip, LOOP_S)
        fresh_frames(position)
        motor.refresh()

    try:
        reached = until(lambda: abs(motor.get_position() - target) <= 0.5, each=loop)
        assert reached, (motor.get_position(), target, talon_states([motor]))
    finally:
        motor.set_voltage(0.0)
