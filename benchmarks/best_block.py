"""The fastest block: one configuration's library loop against ``loop_cost.py``'s floor, measured in
blocks of loops, keeping each loop's fastest block.

``loop_cost.py``'s medians move by up to 2x over an hour on a shared VM, and its before/after ranges
overlap for a change of a few per cent. Here each case runs alone, in blocks of 2 000 loops (the
same changing commands as ``loop_cost.py``), the cases taking turns block by block; each case keeps
its fastest block's mean per loop. A slow spell lengthens some blocks but rarely the fastest:
two runs of the same code agreed within 0.3-3 % in a quiet hour, where medians moved by up to
2x. A whole process can still run slow (once a floor's fastest block was 40 % slower than in five
other runs): take several runs. It measures hot code only (no pacing): a yardstick for a change,
not a figure for the issue 18 targets.

Usage::

    python benchmarks/best_block.py                              # all-REV + navX, NONE and HIGH
    python benchmarks/best_block.py --config talonsrx_pigeon      # phoenix5
    python benchmarks/best_block.py --levels NONE --blocks 80

Each level gets a drive on devices of its own (``loop_cost.own_devices``), as in ``loop_cost.py``;
the floor runs on the first drive's devices. The Driver Station is enabled (teleop), and the drives
are warmed up until healthy, with ``loop_cost.py``'s own functions.
"""

from __future__ import annotations

import argparse
import time
from array import array
from collections.abc import Callable

import loop_cost  # first: it loads the vendor libraries and leaves the repository's directory
from loop_cost import Case

from swervelib import SwerveDrive, TelemetryVerbosity

Loop = Callable[[float, float, float], None]


def best_blocks(loops: list[Loop], blocks: int, size: int) -> list[float]:
    """Each loop's fastest block: mean µs per loop over ``size`` loops, ``blocks`` blocks each."""
    speeds = loop_cost.speed_sequence(size)
    best = [float("inf")] * len(loops)
    for _ in range(blocks):
        for index, loop in enumerate(loops):
            start = time.perf_counter_ns()
            for vx, vy, omega in speeds:
                loop(vx, vy, omega)
            best[index] = min(best[index], (time.perf_counter_ns() - start) / size / 1000.0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--config", default="vortex_throughbore_navx", choices=sorted(loop_cost.FLOORS)
    )
    parser.add_argument(
        "--levels",
        nargs="+",
        default=["NONE", "HIGH"],
        choices=[v.name for v in TelemetryVerbosity],
    )
    parser.add_argument("--blocks", type=int, default=40, help="blocks per case (default 40)")
    parser.add_argument("--size", type=int, default=2000, help="loops per block (default 2000)")
    args = parser.parse_args()
    loop_cost.enable_driver_station()  # teleop enabled, as in loop_cost.py and checks_cost.py
    drives = [
        SwerveDrive.from_directory(
            loop_cost.own_devices(args.config, index),
            verbosity=TelemetryVerbosity[level],
            simulate=False,
        )
        for index, level in enumerate(args.levels)
    ]
    floor = loop_cost.FLOORS[args.config](drives[0])
    loops = [loop_cost.library_loop(drive) for drive in drives] + [floor.loop]
    named = dict(zip(args.levels, drives, strict=True))

    def problems() -> list[str]:
        return loop_cost.drive_problems(args.config, named)

    # warm up until every drive is on its usual path, as loop_cost.py does
    cases = [Case(args.config, "", loop, array("q")) for loop in loops]
    loop_cost.settle(args.config, problems, cases, loop_cost.speed_sequence(args.size))
    best = best_blocks(loops, args.blocks, args.size)
    found = problems()  # timed on the usual path?
    assert not found, "; ".join(found)
    floor_us = best[-1]
    print(f"{args.config}: fastest of {args.blocks} blocks of {args.size} loops, µs per loop")
    print(f"  floor          {floor_us:7.1f}")
    for level, us in zip(args.levels, best, strict=False):
        print(f"  library {level:<6s} {us:7.1f}  ({us / floor_us:.3f} x the floor)")


if __name__ == "__main__":
    main()
