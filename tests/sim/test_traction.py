"""The simulated robot as a rigid body on its tyres (``SwerveSim(traction=True)``, the default):
wheels that slip under a hard launch, a chassis that never accelerates faster than μ·g, field walls
it stops at, a battery that sags, one world frame with the pose estimate, and no false heading jump
when a new model starts on devices an earlier one used."""

from __future__ import annotations

import math
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ntcore
import pytest
import wpilib
from wpilib.simulation import DriverStationSim, pauseTiming, resumeTiming, stepTiming
from wpimath.geometry import Pose2d, Rotation2d, Translation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib import SwerveDrive
from swervelib.sim import SwerveSim
from swervelib.sim.chassis import GRAVITY, FieldWalls
from tests.drive.harness import LOOP, REV_NAVX, Harness, forget_drive, shared_drive, simulated
from tests.json_files import edit_json


def odometry_error_m(h: Harness) -> float:
    return h.drive.get_pose().translation().distance(h.sim.true_pose.translation())


def launch(h: Harness, seconds: float) -> tuple[float, bool, float]:
    """Full speed ahead from rest: the largest truth acceleration seen (m/s², loop to loop),
    whether any wheel slipped, and the lowest battery voltage."""
    chassis = h.sim.chassis
    full = h.drive.max_speed
    worst, slipped, lowest = 0.0, False, 12.0
    last = (0.0, 0.0)
    for _ in range(round(seconds / LOOP)):
        h.run(LOOP, lambda d: d.drive(ChassisSpeeds(full, 0.0, 0.0), field_relative=True))
        if chassis is not None:
            speed = (chassis.vx, chassis.vy)
            worst = max(worst, math.dist(speed, last) / LOOP)
            last = speed
            slipped = slipped or any(chassis.slipping)
        lowest = min(lowest, wpilib.RobotController.getBatteryVoltage())
    return worst, slipped, lowest


@pytest.fixture
def slippery(tmp_path: Path) -> Iterator[Path]:
    """The all-REV robot with its drive current limit raised to 80 A on worn treads (μ 0.6): its
    motors can now push harder than its tyres grip. (At 40 A and μ 1.19 they cannot.)"""
    directory = tmp_path / "slippery"
    shutil.copytree(REV_NAVX, directory)

    def change(data: dict[str, Any]) -> None:
        data["wheelGripCoefficientOfFriction"] = 0.6
        data["currentLimit"]["drive"] = 80

    edit_json(directory / "modules" / "physicalproperties.json", change)
    yield directory
    # Its drive configured the same Spark objects (one per CAN id and process) as the shared
    # all-REV drive: the next test that wants that one gets it built, and configured, anew.
    forget_drive(directory)
    forget_drive(REV_NAVX)


def test_a_hard_launch_slips_the_wheels_and_odometry_drifts(slippery: Path) -> None:
    """Full speed from rest: the tyres give at most μ·g, the wheels spin faster than the robot
    goes, and odometry (counting wheel turns) runs ahead of the truth; the same launch on ideal
    wheels keeps odometry on the truth."""
    with simulated(slippery) as h:
        grip = h.drive.config.physical_or_default.wheel_grip_coefficient_of_friction
        assert grip == 0.6
        worst, slipped, lowest = launch(h, 0.6)
        slip_error = odometry_error_m(h)
        assert slipped
        assert worst <= grip * GRAVITY * 1.001, worst
        assert h.drive.get_pose().X() > h.sim.true_pose.X() + 0.01  # the wheels ran ahead
        assert lowest < 11.0  # the battery sagged under the launch
        h.run(1.0, lambda d: d.stop())
        assert wpilib.RobotController.getBatteryVoltage() > 11.9  # and recovers at rest
    with simulated(slippery, traction=False) as h:
        launch(h, 0.6)
        ideal_error = odometry_error_m(h)
    print(f"\n[launch] odometry error {slip_error:.3f} m with tyres, {ideal_error:.4f} m ideal")
    assert slip_error > 0.05 and ideal_error < 0.01 and slip_error > 5 * ideal_error


def test_at_full_output_the_battery_settles_and_the_robot_reaches_its_top_speed() -> None:
    """Cruising at full output, the motors draw little more than their friction: the battery
    settles a little under 12 V and the robot runs close to its free speed. The battery's voltage
    swung between 9.1 and 11.9 V every loop instead (one loop's currents set the next loop's
    voltage, a loop with a gain above 1), and held the robot at 4.04 of its 5.33 m/s."""
    with simulated() as h:
        full = h.drive.max_speed
        speeds, volts = [], []
        for _ in range(150):  # 3 s
            h.run(LOOP, lambda d: d.drive(ChassisSpeeds(full, 0.0, 0.0), field_relative=False))
            speeds.append(h.sim.true_speeds.vx)
            volts.append(wpilib.RobotController.getBatteryVoltage())
        cruise, battery = speeds[-25:], volts[-25:]  # the last half second
        print(
            f"\n[cruise] {min(cruise):.3f}-{max(cruise):.3f} m/s of {full:.3f}, battery "
            f"{min(battery):.2f}-{max(battery):.2f} V"
        )
        assert max(battery) - min(battery) < 0.1
        assert 11.0 < min(battery) < 12.0
        assert min(cruise) > 0.95 * full


def test_the_true_pose_turns_as_the_estimate_does() -> None:
    """After a spin of more than half a turn the true pose's rotation reads what the estimate's
    does, in (-180°, 180°], on tyres as on ideal wheels (true_yaw_deg is the unwrapped heading).
    On tyres it read 303.75° where the estimate read -56.25°."""
    for traction in (True, False):
        with simulated(traction=traction) as h:
            h.run(2.0, lambda d: d.drive(ChassisSpeeds(0.0, 0.0, 3.0), field_relative=False))
            truth = h.sim.true_pose.rotation().degrees()
            estimate = h.drive.get_pose().rotation().degrees()
            assert h.sim.true_yaw_deg > 270.0, (traction, h.sim.true_yaw_deg)
            assert -180.0 < truth <= 180.0, (traction, truth)
            assert truth == pytest.approx(estimate, abs=0.5), (traction, truth, estimate)


def test_a_model_without_sag_starts_on_a_fresh_battery() -> None:
    """Ideal wheels do not sag the battery: built after a model on tyres that did, they ran on
    the voltage it left (10.26 V after 0.3 s of a launch) for good, and the robot reached 4.55 of
    its 5.33 m/s."""
    with simulated() as h:
        h.run(0.3, lambda d: d.drive(ChassisSpeeds(d.max_speed, 0.0, 0.0), field_relative=False))
        assert wpilib.RobotController.getBatteryVoltage() < 11.0
    with simulated(traction=False) as h:
        assert wpilib.RobotController.getBatteryVoltage() == 12.0
        h.run(3.0, lambda d: d.drive(ChassisSpeeds(d.max_speed, 0.0, 0.0), field_relative=False))
        assert wpilib.RobotController.getBatteryVoltage() == 12.0
        assert h.sim.true_speeds.vx > 0.95 * h.drive.max_speed


def test_a_gentle_drive_keeps_odometry_on_the_truth() -> None:
    """Rolling wheels that grip are counted exactly: a gentle field-relative drive and stop."""
    with simulated() as h:
        for step in range(50):  # ramp up over a second
            speed = 0.04 * (step + 1)
            h.run(
                LOOP,
                lambda d, s=speed: d.drive(ChassisSpeeds(s, 0.5 * s, 0.0), field_relative=True),
            )
        h.run(1.0, lambda d: d.drive(ChassisSpeeds(2.0, 1.0, 0.0), field_relative=True))
        assert h.sim.chassis is not None and not any(h.sim.chassis.slipping)
        assert h.sim.true_pose.X() > 2.0
        assert odometry_error_m(h) < 0.01


def test_a_robot_driven_into_a_wall_stops_at_it() -> None:
    """Driven at the blue alliance wall for 2 s: the bumpers stop at x = 0, the robot stays
    square to it and does not bounce off. Its 40 A drive motors push less than its tyres grip,
    so the wheels stall rather than spin while it pushes: odometry keeps the few centimetres the
    wheels skid at the impact, no more."""
    start = Pose2d(1.5, 4.0, Rotation2d())
    with simulated(initial_pose=start, walls=FieldWalls()) as h:
        chassis = h.sim.chassis
        assert chassis is not None
        half_length = chassis.properties.bumper_length_m / 2
        h.run(2.0, lambda d: d.drive(ChassisSpeeds(-2.0, 0.0, 0.0), field_relative=True))
        truth = h.sim.true_pose
        assert chassis.wall_contact
        assert truth.X() == pytest.approx(half_length, abs=0.005)
        assert abs(truth.Y() - 4.0) < 0.05 and abs(truth.rotation().degrees()) < 2.0
        assert abs(chassis.vx) < 0.01  # pressed against the wall, not moving into it
        assert odometry_error_m(h) < 0.15
        h.run(1.0, lambda d: d.drive(ChassisSpeeds(1.0, 0.0, 0.0), field_relative=True))
        assert h.sim.true_pose.X() > half_length + 0.3  # and it drives away again


def test_an_angled_wall_hit_turns_the_robot_square_to_it() -> None:
    """A corner hits first: the contact turns the robot until its bumper lies along the wall."""
    start = Pose2d(1.5, 4.0, Rotation2d.fromDegrees(20.0))
    with simulated(initial_pose=start, walls=FieldWalls()) as h:
        h.run(2.5, lambda d: d.drive(ChassisSpeeds(-1.5, 0.0, 0.0), field_relative=True))
        assert h.sim.chassis is not None and h.sim.chassis.wall_contact
        heading = h.sim.true_pose.rotation().degrees()
        assert heading < 15.0  # turned towards square (the heading loop holds it against this)


def test_reset_pose_puts_the_simulated_robot_there() -> None:
    """One world frame: an autonomous start pose moves the truth too; opting out keeps it."""
    target = Pose2d(2.0, 4.0, Rotation2d.fromDegrees(90.0))
    with simulated() as h:
        assert h.drive.simulation is h.sim
        h.drive.reset_pose(target)
        assert h.sim.true_pose == target
        h.run(1.0, lambda d: d.drive(ChassisSpeeds(0.5, 0.0, 0.0), field_relative=True))
        assert odometry_error_m(h) < 0.01
        assert h.sim.true_pose.X() > 2.3  # field-relative +x, from where it was put
    with simulated(follow_pose_resets=False) as h:
        h.drive.reset_pose(target)
        assert h.sim.true_pose.translation().norm() < 0.01  # still at the origin


def test_the_truth_is_published_beside_the_estimate() -> None:
    """A ghost for AdvantageScope (a Pose2d struct) and on the drive's Field2d."""
    subscriber = (
        ntcore.NetworkTableInstance.getDefault()
        .getStructTopic("/SmartDashboard/swerve/advantagescope/truePose", Pose2d)
        .subscribe(Pose2d())
    )
    with simulated(initial_pose=Pose2d(3.0, 2.0, Rotation2d())) as h:
        h.run(0.5, lambda d: d.drive(ChassisSpeeds(0.5, 0.0, 0.0), field_relative=True))
        truth = h.sim.true_pose
        assert subscriber.get() == truth
        ghost = h.drive.telemetry.field.getObject("True Pose").getPose()
        assert ghost.translation().distance(truth.translation()) < 1e-9


def test_a_larger_moment_of_inertia_spins_up_slower(tmp_path: Path) -> None:
    """``robotMomentOfInertia`` in physicalproperties.json (kg·m²) is the chassis's."""
    heavy = tmp_path / "heavy"
    shutil.copytree(REV_NAVX, heavy)
    edit_json(
        heavy / "modules" / "physicalproperties.json",
        lambda data: data.__setitem__("robotMomentOfInertia", 30.0),
    )
    turned: dict[str, float] = {}
    for name, directory in (("default", REV_NAVX), ("heavy", heavy)):
        with simulated(directory) as h:
            assert h.sim.chassis is not None
            if name == "heavy":
                assert h.sim.chassis.properties.moment_of_inertia == 30.0
            h.run(0.4, lambda d: d.drive(ChassisSpeeds(0.0, 0.0, 4.0)))
            turned[name] = h.sim.true_pose.rotation().degrees()
    assert 0.0 < turned["heavy"] < 0.8 * turned["default"], turned


def test_a_new_model_on_pooled_devices_starts_without_a_heading_jump() -> None:
    """A second SwerveSim on the same drive (and its navX, kept for the process) starts where it
    says, and the estimate follows it from the first loop: no jump from the last model's yaw."""
    with simulated() as h:
        h.sim.rotate_robot_by_hand(90.0)
        h.run(0.1)
    drive: SwerveDrive = shared_drive(REV_NAVX)
    assert abs(drive.get_pose().rotation().degrees() - 90.0) < 0.5
    sim = SwerveSim(drive)
    headings: list[float] = []
    for _ in range(5):
        drive.periodic()
        headings.append(drive.get_pose().rotation().degrees())
        sim.step(LOOP)
        wpilib.simulation.stepTiming(LOOP)
    assert all(abs(h) < 0.5 for h in headings), headings
    assert drive.get_pose().translation().distance(Translation2d()) < 0.01


def test_a_drive_stepping_its_own_simulation_reads_a_fresh_heading() -> None:
    """A drive built in simulation steps its own SwerveSim at the start of ``periodic()``, then
    reads its sensors at once: the navX must report the heading just simulated, not the last
    loop's (which would put a robot loop of rotation, 2.3° at 2 rad/s, into odometry)."""
    pauseTiming()
    DriverStationSim.setEnabled(True)
    DriverStationSim.notifyNewData()
    drive = SwerveDrive.from_directory(REV_NAVX)  # simulates itself: nobody else steps it
    try:
        sim = drive.simulation
        assert sim is not None
        worst = 0.0
        for _ in range(50):
            drive.periodic()
            error = (drive.get_pose().rotation() - sim.true_pose.rotation()).degrees()
            worst = max(worst, abs(error))
            drive.drive(ChassisSpeeds(0.0, 0.0, 2.0))
            stepTiming(LOOP)
        assert sim.true_pose.rotation().degrees() > 45.0  # it did turn
        assert worst < 0.5, worst
    finally:
        drive.stop()
        forget_drive(REV_NAVX)  # the shared drive's devices were reconfigured: rebuild it
        resumeTiming()
