"""REV's simulated closed loop acts as the Spark's own, whose PID runs once a millisecond: kI adds
the error once a period and kD acts on the error's change over one period. REV's simulator takes
them over the seconds given to ``iterate()`` (its D 1000 times stronger, its I 1000 times weaker);
the sim hook (``SparkMotorSim``) gives it gains that act as the device's do.

Team 6381's steering gains (angle p 0.045, d 1.5, f 0.000005 on the through-bore on each angle
Spark's data port), driven on its robot for weeks, held every module near 0° in simulation before.
The robots are copies of ``deploy/swerve`` made as ``test_absolute_steering`` makes them, on the
Spark Max CAN ids 40-59 that module gives its robots (REVLib allows one Spark per id and process;
the pool reuses a Spark of the same kind, and each drive configures it afresh).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from wpilib.simulation import stepTiming

from swervelib.config import SteerFeedback
from swervelib.devices.rev.motor import SparkMotor
from swervelib.devices.settings import DEFAULT_STEER_GEAR_RATIO
from tests.drive.harness import simulated
from tests.json_files import edit_json
from tests.sim.test_absolute_steering import SUBSTEP, configure, times_to_angle

# Each step is under 90° (a larger one would be optimised into the opposite wheel direction).
TARGETS = [26.6, 90.0, 20.0]
# How long a real module takes, roughly: a large error saturates the output, and near the target
# the derivative brakes it, closing the error with a time constant of d / p periods of 1 ms. With
# p 0.045 and d 1.5 that is 33 ms, ln(70° / 2°) of it 0.12 s; with p 0.02 and d 2, 100 ms and 0.36
# s, slower still in the last degrees, where p 0.02 is little over the module's friction. The
# limits (the first is the one test_absolute_steering holds absolute-encoder steering to) leave
# room for that; before, the derivative 1000 times too strong held every module where it was.
ABSOLUTE_LIMIT_S = 0.5
MOTOR_LIMIT_S = 1.0


def with_angle_gains(directory: Path, **gains: float) -> Path:
    def change(data: dict[str, Any]) -> None:
        data["angle"].update(gains)

    edit_json(directory / "modules" / "pidfproperties.json", change)
    return directory


@pytest.fixture(scope="module")
def i_and_d_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two modules steering on their (not reversed) absolute encoders, with angle i and d only."""
    directory = configure(
        tmp_path_factory.mktemp("i_and_d") / "swerve",
        first_id=56,
        angle={"factor": 360},
        names=("frontleft", "backright"),
    )
    return with_angle_gains(directory, p=0.0, i=KI, d=KD, f=0.0)


KI = 1e-5  # duty cycle per degree of error and ms
KD = 0.5  # duty cycle per degree of change in the error per ms


@pytest.fixture(scope="module")
def absolute_with_d(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Steering on the absolute encoder (YAGSL's angle factor 360) with team 6381's gains."""
    directory = configure(
        tmp_path_factory.mktemp("absolute_d") / "swerve", first_id=40, angle={"factor": 360}
    )
    return with_angle_gains(directory, p=0.045, i=0.0, d=1.5, f=0.000005)


@pytest.fixture(scope="module")
def motor_with_d(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same robot steered on the angle motors' encoders, with team 2064's gains (p 0.02, d 2)."""
    directory = configure(
        tmp_path_factory.mktemp("motor_d") / "swerve",
        first_id=48,
        angle={"gearRatio": DEFAULT_STEER_GEAR_RATIO},
    )
    return with_angle_gains(directory, p=0.02, i=0.0, d=2.0, f=0.0)


def test_absolute_encoder_steering_with_a_derivative_reaches_its_angles(
    absolute_with_d: Path,
) -> None:
    with simulated(absolute_with_d) as h:
        assert all(
            m.config.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER for m in h.drive.modules
        )
        times = times_to_angle(h, TARGETS)
    print(f"\ntime to within 2° (s), absolute encoder, d 1.5: {times}")
    assert all(t < ABSOLUTE_LIMIT_S for t in times), times


def test_motor_encoder_steering_with_a_derivative_reaches_its_angles(motor_with_d: Path) -> None:
    with simulated(motor_with_d) as h:
        assert all(m.config.steer_feedback is SteerFeedback.MOTOR_ENCODER for m in h.drive.modules)
        times = times_to_angle(h, TARGETS, settle_s=1.2)
    print(f"\ntime to within 2° (s), motor encoder, d 2: {times}")
    assert all(t < MOTOR_LIMIT_S for t in times), times


def test_the_simulated_spark_integrates_and_differentiates_once_a_millisecond(
    i_and_d_only: Path,
) -> None:
    """The angle Spark's output for a known error, driven through the sim hooks at the physics'
    2 ms: the device's loop adds ki x error once a millisecond and outputs kd x the error's change
    per millisecond. Before, the integral came out 1000 times too small (0.1 s at 10° of error
    gave 0.00012 V, not 0.12 V) and the derivative 1000 times too large (saturated)."""
    with simulated(i_and_d_only) as h:
        module = h.drive.modules[0]
        motor, encoder = module.angle_motor, module.encoder
        assert isinstance(motor, SparkMotor) and encoder is not None
        assert module.config.steer_feedback is SteerFeedback.ABSOLUTE_ENCODER
        sign = -1.0 if motor.settings.inverted else 1.0  # applied_voltage is the bare motor's
        vbus = 12.0
        reading = 90.0  # encoder degrees; the set-point 10° further on
        rotor = 0.0

        def run(seconds: float, rate_dps: float) -> float:
            """The encoder turning at rate_dps (degrees) for ``seconds``: the integral's sum of
            the error over the milliseconds it ran."""
            nonlocal reading, rotor
            total = 0.0
            for _ in range(round(seconds / SUBSTEP)):
                for _ in range(round(SUBSTEP / 0.001)):  # what the device adds each period
                    total += 100.0 - (reading + rate_dps * 0.001)
                    reading += rate_dps * 0.001
                rotor += rate_dps / 360.0 * SUBSTEP
                encoder.sim.set_raw(reading / 360.0, rate_dps / 360.0)
                motor.set_angle(100.0)
                motor.sim.set_rotor(rotor, rate_dps / 360.0, SUBSTEP)
                stepTiming(SUBSTEP)
            return total

        for _ in range(5):  # the loop starts from a still module on the set-point
            encoder.sim.set_raw(100.0 / 360.0, 0.0)
            motor.set_angle(100.0)
            motor.sim.set_rotor(rotor, 0.0, SUBSTEP)
        motor.spark.getClosedLoopController().setIAccum(0.0)
        summed = run(0.1, 0.0)  # still, 10° short: the integral alone
        held = sign * motor.sim.applied_voltage()
        assert held == pytest.approx(KI * summed * vbus, rel=0.01), held
        summed += run(0.02, 90.0)  # turning toward the set-point at 90°/s: 0.09° a millisecond
        moving = sign * motor.sim.applied_voltage()
        expected = (KI * summed - KD * 0.09) * vbus
        assert moving == pytest.approx(expected, rel=0.01), (moving, expected)
