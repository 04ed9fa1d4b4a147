"""Cache lines one robot loop touches when its caches start cold: where a paced loop's time goes.

At a robot's pace (``loop_cost.py``'s paced mode) every loop starts after a sleep, with caches that
other work has filled since, and the library's paced ratios are higher than its hot ones. This
script counts what a cold start charges for: the distinct cache lines of code and of data one loop
touches. Each case runs in a child process under valgrind's callgrind with its cache simulator, set
up so that its last-level cache misses are exactly those lines:

* first levels of 1 KiB (``--I1``/``--D1``): they hold almost nothing, so nearly every fetch goes
  on to the last level, which therefore sees every line the loop touches;
* a last level of 4 MiB (``--LL``), flushed before every loop by copying a 16 MiB buffer (a
  ``bytearray`` slice, one ``memcpy`` in C): after the flush it holds none of the loop's lines,
  and it is big enough that the loop does not evict its own. So each line the loop touches misses
  there once: code lines (``ILmr``) and data lines read (``DLmr``) or first written (``DLmw``).

The child dumps its counts around ``--loops`` flushes alone and around as many flushes each
followed by a loop; the difference, per loop, is the loop's. The robot's clock is paused and
stepped 20 ms before every loop (and before every flush alone, so the steps cancel out): each
library loop sees the time step and command age of a robot at 50 Hz, not the wall-clock time a
simulated flush takes. Machine noise does not move the count, but where the process's
allocations land does: the floor's count moved by up to 4 % between runs (3 688-4 042 lines).
So compare ratios to the floor of the same run, and trust a difference of more than a few per
cent: far finer than a paced wall-clock median, far coarser than ``instructions.py``.

It counts lines, not time: a line costs what its memory level charges on the machine, and a
roboRIO's caches (32 KiB first level, 512 KiB second) are smaller than this VM's. It also cannot
say which Python object a data line belongs to: the per-object breakdown (``--detail``) splits the
lines by the shared object whose code touched them (the interpreter, ntcore, REVLib, WPILib).

Usage::

    python benchmarks/cold_lines.py                     # all-REV + navX: floor, NONE, HIGH
    python benchmarks/cold_lines.py --cases floor NONE --detail
    python benchmarks/cold_lines.py --cases NONE --variant 1   # checks_cost.py's variants

Needs valgrind (``callgrind`` and ``callgrind_control``). All-REV + navX only, as
``instructions.py`` (the CTRE simulators' frames follow the wall clock, which valgrind slows).
About 6 minutes for three cases, two runs each (two children at a time).
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

SCRIPT = Path(__file__).resolve()  # before loop_cost leaves the repository's directory

import checks_cost  # noqa: E402 - (imports loop_cost, which must come first)
import instructions  # noqa: E402
import loop_cost  # noqa: E402
import wpilib  # noqa: E402
from wpilib.simulation import pauseTiming, resumeTiming, stepTiming  # noqa: E402

# The simulated caches: size, associativity, line size (bytes). Tiny first levels pass every
# access on; the last level holds a loop's lines and is flushed by FLUSH_BYTES of copying.
FIRST_LEVEL = "1024,2,64"
LAST_LEVEL_BYTES = 4 << 20
LAST_LEVEL = f"{LAST_LEVEL_BYTES},16,64"
FLUSH_BYTES = 4 * LAST_LEVEL_BYTES  # each flush reads and writes this much: 8x the last level
MISSES = ("ILmr", "DLmr", "DLmw")  # last-level misses: code lines, data lines read, written


def child(config: str, name: str, loops: int, variant: int) -> None:
    """Under callgrind: dump, ``loops`` flushes, dump, ``loops`` × (flush, loop), dump."""
    setup = instructions._warmed(config, variant)
    case = instructions._warm_case(setup, name)
    speeds = loop_cost.speed_sequence(loops)
    source = bytearray(FLUSH_BYTES)
    target = bytearray(FLUSH_BYTES)
    pid = str(os.getpid())

    def dump(label: str) -> None:
        subprocess.run(
            ["callgrind_control", f"--dump={label}", pid], check=True, capture_output=True
        )

    # The robot's clock, paused and stepped one loop period before every loop (in both phases,
    # so the step's own lines cancel out): on the wall clock, the time between two loops would
    # be what callgrind takes for a flush and a loop (a flush alone about 40 ms), not a robot's
    # 20 ms, and the drive's time step and its command's age with it.
    pauseTiming()
    timestamp = wpilib.Timer.getFPGATimestamp
    started = timestamp()
    dump("start")
    for _ in speeds:
        target[:] = source
        stepTiming(loop_cost.LOOP_S)
    dump("flushes")
    for vx, vy, omega in speeds:
        target[:] = source
        stepTiming(loop_cost.LOOP_S)
        case.loop(vx, vy, omega)
    dump("loops")
    resumeTiming()
    problems = loop_cost.health_problems(setup)
    stepped, moved = 2 * loops * loop_cost.LOOP_S, timestamp() - started
    if not 0.99 * stepped <= moved <= 1.01 * stepped:  # (the sim clock adds a few µs a step)
        problems.append(f"the clock moved {moved:.6f} s, not {stepped:g} s as stepped")
    if problems:
        sys.exit(f"not timed on the usual path: {'; '.join(problems)}")


def lines_per_loop(
    config: str, name: str, loops: int, variant: int, scratch: Path, run: int
) -> dict[str, collections.Counter[str]] | None:
    """Per shared object, the last-level misses of one loop of ``name`` (None if the child
    failed, with its last words on stderr)."""
    out = scratch / f"{config}-{name}-{run}.out"
    options = [
        "--cache-sim=yes",
        f"--I1={FIRST_LEVEL}",
        f"--D1={FIRST_LEVEL}",
        f"--LL={LAST_LEVEL}",
        "--compress-pos=no",
    ]
    done = instructions.run_child(SCRIPT, options, out, config, name, loops, variant)
    dumps = instructions.child_dumps(done, out, config, name, MISSES, ("flushes", "loops"))
    if dumps is None:
        return None
    return instructions.events_per_loop(dumps, MISSES, loops, "flushes", "loops")


def _total(found: dict[str, collections.Counter[str]], events: Sequence[str] = MISSES) -> int:
    return instructions.event_total(found, *events)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    instructions.add_case_arguments(parser, loops=100, repeat=2)
    parser.add_argument("--detail", action="store_true", help="lines by shared object")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.config, args.child, args.loops, args.variant)
        return 0
    if args.config != instructions.COUNTED_CONFIG:  # a CTRE device reads stale under valgrind
        print(f"cache lines are counted for {instructions.COUNTED_CONFIG} only (the docstring)")
        return 2
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("valgrind (callgrind, callgrind_control) is not installed")
        return 2
    names = list(dict.fromkeys(["floor", *args.cases]))

    def one_run(name: str, run: int, scratch: Path) -> dict[str, collections.Counter[str]] | None:
        return lines_per_loop(args.config, name, args.loops, args.variant, scratch, run)

    found = {
        name: min(runs, key=_total)  # the run with the fewest lines
        for name, runs in instructions.each_run(names, args.repeat, one_run).items()
        if runs
    }
    floor = _total(found["floor"]) if "floor" in found else None
    variant = f", library {checks_cost.VARIANTS[args.variant]}" if args.variant else ""
    print(f"{args.config}{variant}: cache lines one loop touches from cold (ratio to the floor)")
    print(f"  {'case':<10s} {'code':>8s} {'data read':>10s} {'written':>8s} {'all':>14s}")
    for name in names:
        if name not in found:
            print(f"  {name:<10s} (failed)")
            continue
        f = found[name]
        code, read, written = (_total(f, (event,)) for event in MISSES)
        ratio = f" ({(code + read + written) / floor:.3f})" if floor else ""
        print(f"  {name:<10s} {code:8d} {read:10d} {written:8d} {code + read + written:7d}{ratio}")
    if args.detail:
        for name, f in found.items():
            print(f"\n{name}: lines by the shared object whose code touched them (code, data)")
            ranked = sorted(f.items(), key=lambda item: -sum(item[1].values()))
            for obj, counts in ranked:
                if sum(counts.values()) >= 5:
                    data = counts["DLmr"] + counts["DLmw"]
                    print(f"  {counts['ILmr']:6d} {data:6d}  {obj}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
