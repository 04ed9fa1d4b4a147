"""What the library's per-loop checks cost: the loop at ``NONE`` with them switched off in turn.

An experiment for issue 18, not a way to run a robot. It builds four library drives of one
configuration, all at telemetry ``NONE`` and each on devices of its own (as ``loop_cost.py``
does), and switches parts off, each variant keeping the ones before it off:

* **as shipped**;
* **no observation**: ``diagnostics.observe_modules`` does nothing (the runaway and stall
  observation of every module, every loop);
* **no spread checks**: nor do ``health_checks.run_next`` (one device's fault check every fourth
  loop), ``diagnostics.update_heading`` and ``diagnostics.judge_modules`` (every fifth);
* **no yaw tracking**: ``yaw.update`` only takes the IMU's reading (no stale or fault handling).

What is left in the last is the read, odometry and command path. Each is timed against
``loop_cost.py``'s floor for the configuration (on the first drive's devices), hot, alone and
paced, with ``loop_cost.py``'s runners: the difference between two rows is what the part switched
off costs in that mode's median.

Usage::

    python benchmarks/checks_cost.py                        # all-REV + navX, every mode
    python benchmarks/checks_cost.py --config swerve --mode paced
"""

from __future__ import annotations

import argparse
import sys
from array import array
from collections.abc import Callable, Sequence

import loop_cost  # first: it loads the vendor libraries and leaves the repository's directory
from loop_cost import Case, Stats

from swervelib import SwerveDrive, TelemetryVerbosity

VARIANTS = ("as shipped", "no observation", "no spread checks", "no yaw tracking")


def _nothing(*_args: object, **_kwargs: object) -> None:
    return None


def switch_off(drive: SwerveDrive, variant: int) -> None:
    """Switch off the parts of :data:`VARIANTS` up to ``variant`` on this drive."""
    diagnostics = drive.diagnostics
    if variant >= 1:
        setattr(diagnostics, "observe_modules", _nothing)  # noqa: B010 - an instance's method
    if variant >= 2:
        setattr(drive.health_checks, "run_next", _nothing)  # noqa: B010
        setattr(diagnostics, "update_heading", _nothing)  # noqa: B010
        setattr(diagnostics, "judge_modules", _nothing)  # noqa: B010
    if variant >= 3:
        yaw = drive.yaw

        def imu_only(_wheel_turn: object, _positions: object) -> None:
            yaw.raw_yaw_deg = yaw.yaw_deg = yaw.imu.get_raw_yaw_degrees()

        setattr(yaw, "update", imu_only)  # noqa: B010


def build(config: str) -> tuple[list[SwerveDrive], loop_cost.Floor]:
    drives = [
        SwerveDrive.from_directory(
            loop_cost.own_devices(config, index),
            verbosity=TelemetryVerbosity.NONE,
            simulate=False,
        )
        for index in range(len(VARIANTS))
    ]
    for index, drive in enumerate(drives):
        switch_off(drive, index)
    return drives, loop_cost.FLOORS[config](drives[0])


def cases(drives: Sequence[SwerveDrive], floor: loop_cost.Floor) -> list[Case]:
    made = [
        Case("", name, loop_cost.library_loop(drive), array("q"))
        for name, drive in zip(VARIANTS, drives, strict=True)
    ]
    made.append(Case("", "floor", floor.loop, array("q")))
    return made


def report(mode: str, timed: Sequence[Case]) -> None:
    floor = Stats.of(timed[-1].times_ns).median_us
    for case in timed:
        stats = Stats.of(case.times_ns)
        print(
            f"{mode:<7}{case.label:<20}{stats.median_us:>9.1f}{stats.p10_us:>8.1f}"
            f"{stats.p90_us:>8.1f}{stats.median_us / floor:>8.2f}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--config", default="vortex_throughbore_navx", choices=sorted(loop_cost.FLOORS)
    )
    parser.add_argument("--mode", default="all", choices=("all", "hot", "alone", "paced"))
    parser.add_argument("--rounds", type=int, default=10000, help="hot and alone loops per case")
    parser.add_argument("--paced-rounds", type=int, default=1500, help="paced rounds, 20 ms each")
    args = parser.parse_args(argv)

    loop_cost.enable_driver_station()
    drives, floor = build(args.config)
    speeds = loop_cost.speed_sequence(10000)
    named = dict(zip(VARIANTS, drives, strict=True))

    def problems() -> list[str]:
        return loop_cost.drive_problems(args.config, named)

    loop_cost.settle(args.config, problems, cases(drives, floor), speeds)
    runners: dict[str, Callable[[Sequence[Case]], None]] = {
        "hot": lambda timed: loop_cost.run_interleaved(timed, args.rounds, speeds),
        "alone": lambda timed: loop_cost.run_alone(timed, args.rounds, speeds),
        "paced": lambda timed: loop_cost.run_paced(timed, args.paced_rounds, speeds),
    }
    modes = list(runners) if args.mode == "all" else [args.mode]
    print(f"\n{args.config}, telemetry NONE; one loop = periodic() + drive(field_relative=True)")
    print(f"{'mode':<7}{'loop':<20}{'median µs':>9}{'p10':>8}{'p90':>8}{'/floor':>8}")
    for mode in modes:
        timed = cases(drives, floor)
        runners[mode](timed)
        report(mode, timed)
    found = problems()
    assert not found, "; ".join(found)  # every variant timed on its usual, healthy path
    return 0


if __name__ == "__main__":
    sys.exit(main())
