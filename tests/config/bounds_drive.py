"""Configurations at the accepted bounds, and a drive built on one (run in its own process).

``at_bounds(directory, variant)`` rewrites a copy of a reference configuration so that every
bounded number sits at the edge of what ``check`` accepts: ``"high"`` at the upper bounds,
``"low"`` at the lower ones (see swervelib.config.bounds). ``python -m tests.config.bounds_drive
DIRECTORY`` builds ``SwerveDrive.from_directory`` on it in simulation, drives 50 loops and prints
one JSON line: whether it built, whether every output stayed finite, what each vendor stored, and
every Alert raised about a refused or unusable value. It runs in a process of its own because
REVLib allows one Spark per CAN id per process and phoenix6 keeps devices for the process's life.
"""

from __future__ import annotations

import json
import math
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from swervelib.config.native_counts import counts_per_rotation
from tests.waits import read_config

VARIANTS = ("high", "low")
# Alerts that mean a vendor refused a value or a reading became unusable.
BAD_ALERTS = ("failed to apply", "reads nan", "reads inf", "reads -inf", "refused", "raised")


def _edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def _pidf(value: float, feedforward: float, output: float) -> dict[str, Any]:
    return {
        "p": value,
        "i": value,
        "d": value,
        "f": feedforward,
        "iz": value,
        "output": {"min": -output, "max": output},
    }


def at_bounds(directory: Path, variant: str) -> None:
    """Rewrite the configuration in ``directory`` to sit at the ``variant`` edge of every bound
    (``maxSpeed`` is set by :func:`set_max_speed` once the free speeds are known)."""
    high = variant == "high"
    modules = directory / "modules"
    # A Talon SRX's factor is written per native count, as YAGSL reads it (native_counts).
    drive_type = json.loads((modules / "frontleft.json").read_text())["drive"]["type"]
    counts = counts_per_rotation(drive_type)

    def physical(data: dict[str, Any]) -> None:
        data["conversionFactors"] = {
            "angle": {"gearRatio": 1000 if high else 0.1},
            "drive": {"factor": (1 if high else 0.001) / counts},
        }
        limit, ramp, friction = (500, 10, 16) if high else (1, 0.001, 0)
        data["currentLimit"] = {"drive": limit, "angle": limit}
        data["rampRate"] = {"drive": ramp, "angle": ramp}
        data["friction"] = {"drive": friction, "angle": friction}
        data["optimalVoltage"] = 16 if high else 1
        data["wheelGripCoefficientOfFriction"] = 10 if high else 0.01
        data["steerRotationalInertia"] = 10 if high else 1e-6
        data["robotMass"] = 1000 if high else 1

    _edit(modules / "physicalproperties.json", physical)
    gain, feedforward, output = (1e6, 100, 1) if high else (1e-9, 1e-9, 0.01)
    _edit(
        modules / "pidfproperties.json",
        lambda data: data.update(
            drive=_pidf(gain, feedforward, output), angle=_pidf(gain, -feedforward, output)
        ),
    )
    _edit(
        directory / "controllerproperties.json",
        lambda data: data.update(heading={"p": gain, "i": gain, "d": gain, "iz": gain}),
    )
    drive_file = json.loads((directory / "swervedrive.json").read_text())
    for index, name in enumerate(drive_file["modules"]):

        def module(data: dict[str, Any], index: int = index) -> None:
            location = data["location"]
            # high: 100 in out; low: 1 in each way, so √2 in from the centre and 2 in apart.
            size = 100 if high else 1
            location["front"] = math.copysign(size, location["front"])
            location["left"] = math.copysign(size, location["left"])
            data["absoluteEncoderOffset"] = (36000 if high else -36000) * (-1) ** index
            for role in ("drive", "angle", "encoder"):
                if data[role].get("canbus") not in (None, "", "rio"):
                    data[role]["canbus"] = "c" * 100 if high else "*"

        _edit(modules / name, module)

    def imu(data: dict[str, Any]) -> None:
        if data["imu"].get("canbus") not in (None, "", "rio"):
            data["imu"]["canbus"] = "c" * 100 if high else "*"
        if data["imu"]["type"].startswith("navx"):
            data["imu"]["id"] = 2**31 - 1 if high else -(2**31)  # ignored, at the C int's edge
        else:
            data["imu"]["id"] = 62 if high else 0

    _edit(directory / "swervedrive.json", imu)


def set_max_speed(directory: Path, variant: str, fastest_free_speed: float) -> float:
    """``maxSpeed`` at its edge: 1e300 (capped by the drive) or just above the steering floor."""
    speed = 1e300 if variant == "high" else 0.0201 * fastest_free_speed
    _edit(directory / "swervedrive.json", lambda data: data.update(maxSpeed=speed))
    return speed


def _stored(drive: Any) -> list[dict[str, Any]]:
    """What each motor controller really holds (to see a value capped or zeroed by a vendor)."""
    stored: list[dict[str, Any]] = []
    for module in drive.modules:
        for role, motor in (("drive", module.drive_motor), ("angle", module.angle_motor)):
            spark = getattr(motor, "spark", None)
            device = getattr(motor, "device", None)
            if spark is not None:
                access = spark.configAccessor
                stored.append(
                    {
                        "role": role,
                        "current": float(access.getSmartCurrentLimit()),
                        "position_factor": access.encoder.getPositionConversionFactor(),
                    }
                )
            elif device is not None:
                config = type(motor._config)()
                # until the device answers: a read-back that timed out leaves the defaults
                status = read_config(device.configurator, config)
                if not status.is_ok():
                    raise RuntimeError(f"{role} motor's configuration read-back: {status.name}")
                feedback = getattr(config, "feedback", None) or config.external_feedback
                limits = config.current_limits
                stored.append(
                    {
                        "role": role,
                        "current": limits.supply_current_limit,
                        "current_lower": limits.supply_current_lower_limit,
                        "ratio": feedback.sensor_to_mechanism_ratio,
                        "kS": config.slot0.k_s,
                    }
                )
    return stored


def drive_report(directory: str) -> dict[str, Any]:
    """Build the drive on ``directory``, drive it, and describe what happened."""
    from wpilib.simulation import DriverStationSim, pauseTiming, stepTiming
    from wpimath.geometry import Rotation2d
    from wpimath.kinematics import ChassisSpeeds

    from swervelib import SwerveDrive
    from swervelib.devices import faults

    alerts: list[str] = []
    update = faults.FaultAlert.update

    def record(self: Any, fault: str | None) -> None:
        if fault is not None:
            alerts.append(f"{self.label}: {fault}")
        update(self, fault)

    faults.FaultAlert.update = record  # type: ignore[method-assign]
    report: dict[str, Any] = {"built": False}
    try:
        pauseTiming()
        DriverStationSim.setEnabled(True)
        DriverStationSim.notifyNewData()
        drive = SwerveDrive.from_directory(directory)
        report["built"] = True
        values: list[float] = []
        for loop in range(50):
            drive.periodic()
            if loop < 25:
                top, spin = drive.max_speed, drive.max_angular_velocity
                drive.drive(ChassisSpeeds(0.6 * top, 0.2 * top, 0.3 * spin), field_relative=True)
            else:
                drive.drive_facing(0.3, -0.2, Rotation2d(1.0))
            stepTiming(0.02)
            pose = drive.get_pose()
            values += [pose.X(), pose.Y(), pose.rotation().radians()]
            for state in drive.get_module_states():
                values += [state.speed, state.angle.radians()]
            for module in drive.modules:
                values += [module.drive_motor.sim.applied_voltage()]
                values += [module.angle_motor.sim.applied_voltage()]
        report["finite"] = all(math.isfinite(v) for v in values)
        report["stored"] = _stored(drive)
    except Exception as error:
        report["error"] = "".join(traceback.format_exception_only(error)).strip()[-2000:]
    report["bad_alerts"] = sorted(
        {a for a in alerts if any(word in a.lower() for word in BAD_ALERTS)}
    )
    return report


if __name__ == "__main__":
    print("REPORT " + json.dumps(drive_report(sys.argv[1])), flush=True)
