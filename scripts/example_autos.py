"""Write the example robot's autonomous files from its swerve JSON (``robot_example/deploy``).

* ``pathplanner/settings.json``: the robot PathPlanner plans for, through
  ``swervelib.tools.pathplanner_settings`` (what ``python -m swervelib pathplanner-settings`` does);
* ``pathplanner/paths/Curve.path`` and ``pathplanner/autos/Curve.auto``: the PathPlanner auto, in the
  GUI's file format (open them in PathPlanner to edit them);
* ``choreo/Arc.traj``: the Choreo auto. Choreo's optimiser runs in its desktop app, so this
  trajectory is PathPlanner's time-parameterisation of a curve for the same robot (its motor torque,
  current limit, wheel friction and mass), sampled every 20 ms and written in Choreo's format with
  its accelerations and module forces. A team draws its own in Choreo, which writes the same file.

``python scripts/example_autos.py`` writes them; ``--check`` only says whether they are up to date
(the example's tests run it).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path
from typing import Any

from pathplannerlib.path import (
    GoalEndState,
    IdealStartingState,
    PathConstraints,
    PathPlannerPath,
    Waypoint,
)
from wpimath.geometry import Pose2d, Rotation2d
from wpimath.kinematics import ChassisSpeeds

from swervelib.config import load_directory
from swervelib.config.model import SwerveConfig
from swervelib.pathplanner import robot_config
from swervelib.tools.pathplanner_settings import robot_properties, write_gui_settings

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "robot_example" / "deploy"
SAMPLE_S = 0.02
PATH_VERSION = "2025.0"
CHOREO_VERSION = 3
MAX_SPEED = 3.0  # m/s
MAX_ACCEL = 3.0  # m/s²
MAX_TURN = 540.0  # deg/s
MAX_TURN_ACCEL = 720.0  # deg/s²


def pose(x: float, y: float, degrees: float) -> Pose2d:
    return Pose2d(x, y, Rotation2d.fromDegrees(degrees))


# route: poses whose rotation is the direction of travel; then the robot's start and end heading
CURVE = ([pose(2.0, 2.0, 0.0), pose(4.0, 2.6, 30.0), pose(5.5, 4.2, 90.0)], 0.0, 90.0)
ARC = ([pose(2.0, 6.0, 0.0), pose(4.0, 6.4, 0.0), pose(5.5, 5.0, -60.0)], 0.0, -90.0)


def path(route: tuple[list[Pose2d], float, float]) -> PathPlannerPath:
    poses, start, end = route
    return PathPlannerPath(
        PathPlannerPath.waypointsFromPoses(poses),
        PathConstraints(MAX_SPEED, MAX_ACCEL, math.radians(MAX_TURN), math.radians(MAX_TURN_ACCEL)),
        IdealStartingState(0.0, Rotation2d.fromDegrees(start)),
        GoalEndState(0.0, Rotation2d.fromDegrees(end)),
    )


def point(translation: Any) -> dict[str, float] | None:
    if translation is None:
        return None
    return {"x": round(translation.X(), 6), "y": round(translation.Y(), 6)}


def waypoint(w: Waypoint) -> dict[str, Any]:
    return {
        "anchor": point(w.anchor),
        "prevControl": point(w.prevControl),
        "nextControl": point(w.nextControl),
        "isLocked": False,
        "linkedName": None,
    }


def path_file(route: tuple[list[Pose2d], float, float]) -> dict[str, Any]:
    """A ``.path`` as PathPlanner's GUI writes it."""
    poses, start, end = route
    return {
        "version": PATH_VERSION,
        "waypoints": [waypoint(w) for w in PathPlannerPath.waypointsFromPoses(poses)],
        "rotationTargets": [],
        "constraintZones": [],
        "pointTowardsZones": [],
        "eventMarkers": [],
        "globalConstraints": {
            "maxVelocity": MAX_SPEED,
            "maxAcceleration": MAX_ACCEL,
            "maxAngularVelocity": MAX_TURN,
            "maxAngularAcceleration": MAX_TURN_ACCEL,
            "nominalVoltage": 12.0,
            "unlimited": False,
        },
        "goalEndState": {"velocity": 0, "rotation": end},
        "reversed": False,
        "folder": None,
        "idealStartingState": {"velocity": 0, "rotation": start},
        "useDefaultConstraints": False,
    }


def auto_file(path_name: str) -> dict[str, Any]:
    """An ``.auto`` that resets odometry to the path's start and follows it."""
    return {
        "version": PATH_VERSION,
        "command": {
            "type": "sequential",
            "data": {"commands": [{"type": "path", "data": {"pathName": path_name}}]},
        },
        "resetOdom": True,
        "folder": None,
        "choreoAuto": False,
    }


def choreo_file(name: str, config: SwerveConfig, route: tuple[list[Pose2d], float, float]) -> Any:
    """A Choreo v3 ``.traj``: the route's trajectory for this robot, sampled every 20 ms."""
    trajectory = path(route).generateTrajectory(
        ChassisSpeeds(), Rotation2d.fromDegrees(route[1]), robot_config(config)
    )
    total = trajectory.getTotalTimeSeconds()
    steps = math.ceil(total / SAMPLE_S)
    times = [min(i * SAMPLE_S, total) for i in range(steps + 1)]
    states = [trajectory.sample(t) for t in times]
    samples = []
    for i, (t, state) in enumerate(zip(times, states, strict=True)):
        before, after = states[max(i - 1, 0)], states[min(i + 1, steps)]
        span = (after.timeSeconds - before.timeSeconds) or 1.0
        speeds, heading = state.fieldSpeeds, state.pose.rotation()
        ff = state.feedforwards
        forces = [
            (heading.cos() * fx - heading.sin() * fy, heading.sin() * fx + heading.cos() * fy)
            for fx, fy in zip(
                ff.robotRelativeForcesXNewtons, ff.robotRelativeForcesYNewtons, strict=True
            )
        ]
        samples.append(
            {
                "t": round(t, 4),
                "x": round(state.pose.X(), 5),
                "y": round(state.pose.Y(), 5),
                "heading": round(heading.radians(), 5),
                "vx": round(speeds.vx, 5),
                "vy": round(speeds.vy, 5),
                "omega": round(speeds.omega, 5),
                "ax": round((after.fieldSpeeds.vx - before.fieldSpeeds.vx) / span, 4),
                "ay": round((after.fieldSpeeds.vy - before.fieldSpeeds.vy) / span, 4),
                "alpha": round((after.fieldSpeeds.omega - before.fieldSpeeds.omega) / span, 4),
                "fx": [round(f[0], 3) for f in forces],
                "fy": [round(f[1], 3) for f in forces],
            }
        )
    robot = robot_properties(config)
    (fl_x, fl_y), (bl_x, bl_y) = robot.modules[0], robot.modules[2]
    poses = route[0]
    headings = [route[1], None, route[2]]
    return {
        "name": name,
        "version": CHOREO_VERSION,
        "snapshot": {
            "waypoints": [
                {
                    "x": p.X(),
                    "y": p.Y(),
                    "heading": math.radians(h or 0.0),
                    "intervals": 40,
                    "split": False,
                    "fixTranslation": True,
                    "fixHeading": h is not None,
                    "overrideIntervals": False,
                }
                for p, h in zip(poses, headings, strict=True)
            ],
            "constraints": [
                {"from": "first", "to": None, "data": {"type": "StopPoint", "props": {}}},
                {"from": "last", "to": None, "data": {"type": "StopPoint", "props": {}}},
            ],
        },
        "trajectory": {
            "config": {
                "frontLeft": {"x": fl_x, "y": fl_y},
                "backLeft": {"x": bl_x, "y": bl_y},
                "mass": robot.mass_kg,
                "inertia": round(robot.moment_of_inertia, 4),
                "gearing": robot.drive_gearing,
                "radius": robot.wheel_radius_m,
                "cof": robot.wheel_cof,
                "bumper": {
                    "front": robot.bumper_length_m / 2,
                    "side": robot.bumper_width_m / 2,
                    "back": robot.bumper_length_m / 2,
                },
            },
            "sampleType": "Swerve",
            "waypoints": [0.0, round(total, 4)],
            "samples": samples,
            "splits": [0],
            "forcesAvailable": True,
        },
        "events": [],
    }


def text(data: Any) -> str:
    return json.dumps(data, indent=2) + "\n"


def generated(deploy: Path) -> dict[str, str]:
    """Every generated file's text but settings.json, by path relative to ``deploy``."""
    config = load_directory(deploy / "swerve")
    return {
        "pathplanner/paths/Curve.path": text(path_file(CURVE)),
        "pathplanner/autos/Curve.auto": text(auto_file("Curve")),
        "choreo/Arc.traj": text(choreo_file("Arc", config, ARC)),
    }


def stale(deploy: Path) -> list[str]:
    """The generated files that are missing or differ from what the JSON gives."""
    out = []
    for relative, wanted in generated(deploy).items():
        target = deploy / relative
        if not target.is_file() or target.read_text(encoding="utf-8") != wanted:
            out.append(relative)
    settings = write_gui_settings(
        load_directory(deploy / "swerve"), deploy / "pathplanner", dry_run=True
    )
    if settings.changes or not (deploy / "pathplanner" / "settings.json").is_file():
        out.append("pathplanner/settings.json")
    return out


def write(deploy: Path) -> None:
    for relative, wanted in generated(deploy).items():
        target = deploy / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=target.parent, delete=False, suffix=".tmp"
        ) as handle:
            handle.write(wanted)
        Path(handle.name).replace(target)
    write_gui_settings(load_directory(deploy / "swerve"), deploy / "pathplanner")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail when stale")
    parser.add_argument("--deploy", type=Path, default=DEPLOY, help="the deploy folder")
    args = parser.parse_args(argv)
    if args.check:
        out_of_date = stale(args.deploy)
        for relative in out_of_date:
            print(f"out of date: {relative} (run python scripts/example_autos.py)")
        return 1 if out_of_date else 0
    write(args.deploy)
    print(f"wrote the autonomous files in {args.deploy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
