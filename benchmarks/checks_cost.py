"""What the library's per-loop checks cost: the loop at ``NONE`` with them switched off in turn.

An experiment for issue 18, not a way to run a robot. It builds library drives of one
configuration, all at telemetry ``NONE`` and each on devices of its own (as ``loop_cost.py``
does), and switches parts off, each variant keeping the ones before it off:

* **as shipped**;
* **no observation**: ``diagnostics.observe_modules`` does nothing (the runaway and stall
  observation of every module, every loop);
* **no spread checks**: nor do ``health_checks.run_next`` (one device's fault check every fourth
  loop), ``diagnostics.update_heading`` and ``diagnostics.judge_modules`` (every fifth).

What is left in the last is the read, yaw tracking, odometry and command path. With
``--refresh`` the variants are the devices' refresh instead (every other check as shipped), which
matters where devices have a ``refresh()`` of their own, as phoenix5's do:

* **as shipped**;
* **no fault reads**: the devices' periodic fault-flag and state reads (a phoenix5 Talon's
  ``_device_faults``, a Pigeon IMU's ``_check_state``, every fifth refresh) do nothing; the rest
  of each refresh (judging the loop's readings) still runs;
* **no device refresh**: the drive refreshes no device at all (``_refresh`` does nothing).

Each is timed against ``loop_cost.py``'s floor for the configuration, hot, alone and paced, with
``loop_cost.py``'s runners: the difference between two rows is what the part switched off costs in
that mode's median.

Identical drives do not cost the same: paced, the first of them built was measured 0.05-0.08 of
the floor slower than the others. So the floor runs on the devices of a drive of its own (built
first, never run), ``--rotate`` moves the variants from drive to drive (run 0, 1 and 2), and
``--same`` times every variant as shipped: the spread between those rows is what this comparison
can resolve.

Usage::

    python benchmarks/checks_cost.py                        # all-REV + navX, every mode
    python benchmarks/checks_cost.py --config swerve --mode paced
    python benchmarks/checks_cost.py --rotate 1             # the variants on other drives
    python benchmarks/checks_cost.py --same                 # the control: identical drives
    python benchmarks/checks_cost.py --config talonsrx_pigeon --refresh   # phoenix5's refresh
"""

from __future__ import annotations

import argparse
import sys
from array import array
from collections.abc import Callable, Sequence

import loop_cost  # first: it loads the vendor libraries and leaves the repository's directory
from loop_cost import Case, Stats

from swervelib import SwerveDrive, TelemetryVerbosity

VARIANTS = ("as shipped", "no observation", "no spread checks")
REFRESH_VARIANTS = ("as shipped", "no fault reads", "no device refresh")
# phoenix5's periodic reads of fault flags (Talon SRX) and of rate and state (Pigeon IMU)
_FAULT_READS = ("_device_faults", "_check_state")


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


def switch_off_refresh(drive: SwerveDrive, variant: int) -> None:
    """Switch off the parts of :data:`REFRESH_VARIANTS` up to ``variant`` on this drive."""
    if variant >= 1:
        for device in drive.devices:
            for name in _FAULT_READS:
                if hasattr(type(device), name):
                    setattr(device, name, _nothing)
    if variant >= 2:
        setattr(drive, "_refresh", _nothing)  # noqa: B010 - an instance's method


def build(
    config: str, *, same: bool, rotate: int, refresh: bool = False
) -> tuple[list[SwerveDrive], loop_cost.Floor]:
    """The variants' drives, in :data:`VARIANTS` (or, with ``refresh``, :data:`REFRESH_VARIANTS`)
    order, and the floor. The drives are built on devices 1 to 3 of
    :func:`loop_cost.own_devices`; variant ``i`` runs on drive ``(i + rotate) % 3``, counted in
    build order. The floor runs on a drive of its own (devices 0, built first, never run)."""
    host, *drives = (
        SwerveDrive.from_directory(
            loop_cost.own_devices(config, index),
            verbosity=TelemetryVerbosity.NONE,
            simulate=False,
        )
        for index in range(len(VARIANTS) + 1)
    )
    count = len(drives)
    drives = [drives[(index + rotate) % count] for index in range(count)]
    if not same:
        for index, drive in enumerate(drives):
            (switch_off_refresh if refresh else switch_off)(drive, index)
    return drives, loop_cost.FLOORS[config](host)


def cases(
    names: Sequence[str], drives: Sequence[SwerveDrive], floor: loop_cost.Floor
) -> list[Case]:
    made = [
        Case("", name, loop_cost.library_loop(drive), array("q"))
        for name, drive in zip(names, drives, strict=True)
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
    parser.add_argument("--mode", default="all", choices=sorted(loop_cost.MODES))
    parser.add_argument("--rounds", type=int, default=10000, help="hot and alone loops per case")
    parser.add_argument("--paced-rounds", type=int, default=1500, help="paced rounds, 20 ms each")
    parser.add_argument(
        "--same", action="store_true", help="every variant as shipped (the control)"
    )
    parser.add_argument(
        "--rotate",
        type=int,
        default=0,
        choices=range(len(VARIANTS)),
        help="variant i runs on drive (i + ROTATE) mod 3, counted in build order (run 0, 1 and 2 "
        "to even out what differs between drives)",
    )
    parser.add_argument(
        "--refresh",
        action="store_true",
        help="switch off the devices' refresh in turn instead (its fault reads, then all of it)",
    )
    args = parser.parse_args(argv)

    loop_cost.enable_driver_station()
    drives, floor = build(args.config, same=args.same, rotate=args.rotate, refresh=args.refresh)
    speeds = loop_cost.speed_sequence(10000)
    variants = REFRESH_VARIANTS if args.refresh else VARIANTS
    names = [f"as shipped {n}" for n in range(1, len(drives) + 1)] if args.same else variants
    named = dict(zip(names, drives, strict=True))

    def problems() -> list[str]:
        return loop_cost.drive_problems(args.config, named)

    loop_cost.settle(args.config, problems, cases(names, drives, floor), speeds)
    runners: dict[str, Callable[[Sequence[Case]], None]] = {
        "hot": lambda timed: loop_cost.run_interleaved(timed, args.rounds, speeds),
        "alone": lambda timed: loop_cost.run_alone(timed, args.rounds, speeds),
        "paced": lambda timed: loop_cost.run_paced(timed, args.paced_rounds, speeds),
    }
    control = " (--same: every row as shipped)" if args.same else ""
    parts = " --refresh" if args.refresh else ""
    print(f"\n{args.config}, telemetry NONE{control}, --rotate {args.rotate}{parts}")
    print("one loop = periodic() + drive(field_relative=True)")
    print(f"{'mode':<7}{'loop':<20}{'median µs':>9}{'p10':>8}{'p90':>8}{'/floor':>8}")
    for mode in loop_cost.MODES[args.mode]:
        timed = cases(names, drives, floor)
        runners[mode](timed)
        report(mode, timed)
    found = problems()
    assert not found, "; ".join(found)  # every variant timed on its usual, healthy path
    return 0


if __name__ == "__main__":
    sys.exit(main())
