"""A DC motor turning an inertia, solved exactly over each step (stable at any step size)."""

from __future__ import annotations

import math

from wpimath.system.plant import DCMotor

from swervelib.config.catalog import Motor


def dc_motor(motor: Motor) -> DCMotor:
    """WPILib's model of one ``motor`` (the catalog names match DCMotor's factories)."""
    factory = getattr(DCMotor, motor.value)
    model: DCMotor = factory(1)
    return model


class MotorModel:
    """Rotor position (rotations) and speed (rotations/s) of a motor driving ``inertia``.

    ``inertia`` is the load reflected to the motor shaft (kg·m²). ``friction_volts`` is the voltage
    lost to friction (the load does not move below it).
    """

    def __init__(self, motor: DCMotor, inertia: float, friction_volts: float = 0.0) -> None:
        self.motor = motor
        self.inertia = inertia
        self.friction_volts = friction_volts
        self.position = 0.0  # rotor rotations
        self.velocity = 0.0  # rotor rotations per second

    def step(self, volts: float, dt: float) -> None:
        """Advance ``dt`` seconds with ``volts`` applied."""
        if not math.isfinite(volts):
            volts = 0.0
        omega = self.velocity * 2 * math.pi
        friction = self.friction_volts
        if abs(omega) > 1e-3:
            effective = volts - math.copysign(friction, omega)
        elif abs(volts) > friction:
            effective = volts - math.copysign(friction, volts)
        else:
            effective = 0.0
        motor = self.motor
        rate = motor.Kt / (self.inertia * motor.R * motor.Kv)  # 1/s
        steady = effective * motor.Kv  # rad/s
        decay = math.exp(-rate * dt)
        new_omega = steady + (omega - steady) * decay
        travelled = steady * dt + (omega - steady) * (1 - decay) / rate
        if friction and abs(effective) == 0.0 and omega * new_omega <= 0:
            new_omega = 0.0  # friction stops the load; it does not reverse it
        self.position += travelled / (2 * math.pi)
        self.velocity = new_omega / (2 * math.pi)

    def move_by(self, rotations: float) -> None:
        """Turn the rotor by hand (no dynamics)."""
        self.position += rotations
