"""Instructions and Python bytecodes per robot loop: a yardstick that machine noise does not move.

``loop_cost.py`` and ``best_block.py`` time the loop on the wall clock, which a shared VM moves by
20-40 % between runs; a change worth a few per cent cannot be seen there. This script counts work
instead, for ``loop_cost.py``'s cases (the same drives, floors and changing commands):

* **instructions per loop**: each case runs in a child process under valgrind's callgrind, which
  counts the machine instructions executed (Python, pybind11, WPILib, the vendor simulators). The
  child dumps the count before and after its timed loops (``callgrind_control --dump``), and once
  around no loop at all, whose count (the dumps' own cost) is taken off. One run can count a few
  per cent too many (seen: 1 % on an idle machine, up to 4 %): the HAL simulator's spin lock
  spins for as long as another thread holds it, and a full garbage collection may fall inside the
  window. Both only add, so each case keeps the least of ``--repeat`` runs (default 3).
* **bytecodes per loop**: Python opcodes executed per loop (``sys.settrace`` with opcode events),
  counted in this process, exactly repeatable; ``--detail`` lists them per function.

* **simulated misses per loop** (``--simulate``): the same children under callgrind's models of
  this machine's first-level caches and of a branch predictor, the main thread's counts only (the
  loop's; the simulators' and ntcore's threads apart): instructions, first-level code misses, data
  lines read and written that missed, and mispredicted conditional and indirect branches. Where an
  instruction count says two loops do the same work, these say which of them the processor runs
  more slowly, and in whose code (``--detail``: by shared object). Valgrind's predictor is far
  simpler than a real one (it predicts an indirect jump's last target), so its mispredictions are
  an upper bound that compares loops, not a figure of this processor.

Neither is a time: an instruction count misses cache misses and a bytecode count weighs a cheap
``LOAD_FAST`` like a vendor call. They say whether a change removed work, and where the work is;
the issue 18 figures stay ``loop_cost.py``'s.

Usage::

    python benchmarks/instructions.py                         # all-REV + navX: floor, NONE, HIGH
    python benchmarks/instructions.py --config talonsrx_pigeon --detail
    python benchmarks/instructions.py --no-valgrind           # bytecodes only (seconds)
    python benchmarks/instructions.py --cases NONE --variant 1  # checks_cost.py's variants
    python benchmarks/instructions.py --simulate --detail    # cache and branch models, by object

Needs valgrind (``callgrind`` and ``callgrind_control``) for the instruction counts; each child
takes about 40 s under it, two at a time (about 3 minutes for three cases, three runs each). The
CTRE simulators send their frames on the wall clock, which valgrind slows 30-50 times: the
phoenix5 and phoenix6 devices then read stale, the drive never gets healthy and the child gives
up, so instruction counts are for the all-REV + navX configuration only (``--config
vortex_throughbore_navx``, the default); for the others the script counts bytecodes only, as with
``--no-valgrind``. Bytecodes work for every configuration.
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

SCRIPT = Path(__file__).resolve()  # before loop_cost leaves the repository's directory

import checks_cost  # noqa: E402 - (imports loop_cost, which must come first)
import loop_cost  # noqa: E402 - it loads the vendor libraries and leaves the repository's directory

# loop_cost.py's case labels, by the short names used here
CASES = {
    "floor": "floor",
    "telemetry": loop_cost.TELEMETRY,
    "NONE": "library NONE",
    "LOW": "library LOW",
    "POSE": "library POSE",
    "HIGH": "library HIGH",
}
# The one configuration whose drive gets healthy under valgrind (no CTRE device: the docstring)
COUNTED_CONFIG = "vortex_throughbore_navx"
WARM_LOOPS = 300  # after loop_cost.warm_up, a few more loops of the measured case alone
# --simulate: callgrind's cache and branch models, each thread apart; the loop runs in the first
SIMULATE_OPTIONS = ("--separate-threads=yes", "--cache-sim=yes", "--branch-sim=yes")
SIMULATED = {
    "Ir": "instructions",
    "I1mr": "code misses",
    "D1mr": "data read misses",
    "D1mw": "data write misses",
    "Bcm": "mispredicted conditional",
    "Bim": "mispredicted indirect",
}
MAIN_THREAD = 1


def _case(setup: loop_cost.Setup, name: str) -> loop_cost.Case:
    wanted = CASES[name]
    return next(case for case in setup.cases() if case.label == wanted)


def _warmed(config: str, variant: int) -> loop_cost.Setup:
    """``config``'s drives and floors, warmed up until healthy (``loop_cost.warm_up``); the
    drives with ``checks_cost.py``'s parts up to ``variant`` switched off (0: as shipped)."""
    loop_cost.enable_driver_station()
    setup = loop_cost.build(config)
    for drive in setup.drives.values():
        checks_cost.switch_off(drive, variant)
    loop_cost.warm_up(setup, setup.cases(), loop_cost.speed_sequence(WARM_LOOPS))
    return setup


def _warm_case(setup: loop_cost.Setup, name: str) -> loop_cost.Case:
    """Case ``name``, after :data:`WARM_LOOPS` loops of it alone."""
    case = _case(setup, name)
    for vx, vy, omega in loop_cost.speed_sequence(WARM_LOOPS):
        case.loop(vx, vy, omega)
    return case


def child(config: str, name: str, loops: int, variant: int) -> None:
    """Under callgrind: dump, (nothing), dump, ``loops`` loops of the case, dump."""
    case = _warm_case(_warmed(config, variant), name)
    speeds = loop_cost.speed_sequence(loops)
    pid = str(os.getpid())

    def dump(label: str) -> None:
        subprocess.run(
            ["callgrind_control", f"--dump={label}", pid], check=True, capture_output=True
        )

    dump("start")
    dump("empty")
    for vx, vy, omega in speeds:
        case.loop(vx, vy, omega)
    dump("loops")


@dataclass
class Dump:
    """One callgrind dump: its label, its thread (with ``--separate-threads``) and the events
    wanted, by the shared object whose code spent them."""

    label: str | None
    thread: int | None
    by_object: dict[str, collections.Counter[str]]

    def total(self, event: str) -> int:
        return event_total(self.by_object, event)


def read_dump(part: Path, wanted: Sequence[str]) -> Dump:
    """The ``wanted`` events of one dump file, by shared object (inclusive call costs left out:
    each event is counted once, where it was spent). The child runs with
    ``--compress-strings=no`` (:func:`run_child`), so every ``ob=`` line names its object in
    full."""
    label, thread = None, None
    events: list[str] = []
    by_object: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    current = "?"
    skip_next = False
    with part.open() as lines:
        for line in lines:
            if line.startswith("desc: Trigger: dump "):
                label = line.split()[-1]
            elif line.startswith("thread:"):
                thread = int(line.split()[1])
            elif line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("ob="):
                current = Path(line[3:].strip()).name
            elif line.startswith("calls="):
                skip_next = True  # the next cost line is the call's inclusive cost
            elif line[:1].isdigit() or line[:1] in "+-*":
                if skip_next:
                    skip_next = False
                    continue
                values = line.split()[1:]  # the first number is the position
                for event, value in zip(events, values, strict=False):
                    if event in wanted:
                        by_object[current][event] += int(value)
    return Dump(label, thread, by_object)


def read_dumps(out: Path, wanted: Sequence[str], thread: int | None = None) -> dict[str, Dump]:
    """The dumps of one child (``out``, ``out.1``... or with ``--separate-threads`` ``out-01``,
    ``out.1-01``...), by label; with ``thread``, that thread's only."""
    dumps = (read_dump(part, wanted) for part in out.parent.glob(f"{out.name}*"))
    return {
        dump.label: dump
        for dump in dumps
        if dump.label is not None and (thread is None or dump.thread == thread)
    }


def events_per_loop(
    dumps: Mapping[str, Dump], events: Sequence[str], loops: int, before: str, after: str
) -> dict[str, collections.Counter[str]]:
    """Per shared object, the events of one loop: dump ``after`` less dump ``before`` (counts
    restart at every dump, so ``before`` is the dumps' own cost), over ``loops``."""
    first, second = dumps[before].by_object, dumps[after].by_object
    result: dict[str, collections.Counter[str]] = {}
    for obj in set(first) | set(second):
        empty = collections.Counter[str]()
        spent = second.get(obj, empty)
        dumping = first.get(obj, empty)
        result[obj] = collections.Counter(
            {event: round((spent[event] - dumping[event]) / loops) for event in events}
        )
    return result


def run_child(
    script: Path,
    options: Sequence[str],
    out: Path,
    config: str,
    name: str,
    loops: int,
    variant: int,
) -> subprocess.CompletedProcess[str]:
    """``script --child name`` under callgrind with ``options``, its counts written to ``out``
    (and to ``out.1``, ``out.2``... for the child's dumps)."""
    command = [
        "valgrind",
        "--tool=callgrind",
        *options,
        "--compress-strings=no",
        f"--callgrind-out-file={out}",
        sys.executable,
        str(script),
        "--child",
        name,
        "--config",
        config,
        "--loops",
        str(loops),
        "--variant",
        str(variant),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.run(command, capture_output=True, text=True, env=env)


def child_failed(done: subprocess.CompletedProcess[str], config: str, name: str) -> None:
    """Say on stderr that a callgrind child failed, with its last words."""
    last = [line for line in done.stderr.splitlines() if not line.startswith("==")][-6:]
    print(f"{config} {name}: the callgrind child failed:", *last, sep="\n  ", file=sys.stderr)


def child_dumps(
    done: subprocess.CompletedProcess[str],
    out: Path,
    config: str,
    name: str,
    wanted: Sequence[str],
    labels: Sequence[str],
    thread: int | None = None,
) -> dict[str, Dump] | None:
    """The ``wanted`` events of a :func:`run_child` child's dumps (:func:`read_dumps`,
    ``thread``'s only if given), by label; None, with the child's last words on stderr, if it
    failed or did not dump every one of ``labels``."""
    dumps = read_dumps(out, wanted, thread)
    if done.returncode != 0 or not set(labels) <= dumps.keys():
        child_failed(done, config, name)
        return None
    return dumps


def instructions(
    config: str, name: str, loops: int, variant: int, scratch: Path, run: int = 0
) -> float | None:
    """Instructions per loop of case ``name``, from a child run under callgrind (None, with the
    child's last words on stderr, if it failed)."""
    out = scratch / f"{config}-{name}-{run}.out"
    done = run_child(SCRIPT, (), out, config, name, loops, variant)
    dumps = child_dumps(done, out, config, name, ("Ir",), ("empty", "loops"))
    if dumps is None:
        return None
    return (dumps["loops"].total("Ir") - dumps["empty"].total("Ir")) / loops


def simulated(
    config: str, name: str, loops: int, variant: int, scratch: Path, run: int = 0
) -> dict[str, collections.Counter[str]] | None:
    """Per shared object, the :data:`SIMULATED` events of one loop of case ``name`` in the main
    thread, from a child run under callgrind's cache and branch models (None, with the child's
    last words on stderr, if it failed)."""
    out = scratch / f"{config}-{name}-{run}-simulated.out"
    wanted = tuple(SIMULATED)
    done = run_child(SCRIPT, SIMULATE_OPTIONS, out, config, name, loops, variant)
    dumps = child_dumps(done, out, config, name, wanted, ("empty", "loops"), MAIN_THREAD)
    if dumps is None:
        return None
    return events_per_loop(dumps, wanted, loops, "empty", "loops")


def event_total(found: Mapping[str, collections.Counter[str]], *events: str) -> int:
    """The count of ``events`` over every shared object of ``found``."""
    return sum(counts[event] for counts in found.values() for event in events)


def print_simulated(
    title: str, found: Mapping[str, Mapping[str, collections.Counter[str]]], detail: bool
) -> None:
    """The simulated events per loop, each case's with its ratio to the floor's; with
    ``detail``, each event's shared objects (the floor's count beside the case's)."""
    print(f"{title}: simulated per loop, main thread (ratio to the floor)")
    floor = found.get("floor")
    print(f"  {'event':<26s}" + "".join(f"{name:>18s}" for name in found))
    for event, what in SIMULATED.items():
        base = event_total(floor, event) if floor else 0
        cells = []
        for counts in found.values():
            value = event_total(counts, event)
            cells.append(f"{value:9d} ({value / base:.2f})" if base else f"{value:9d}")
        print(f"  {what:<26s}" + "".join(f"{cell:>18s}" for cell in cells))
    if not detail or floor is None:
        return
    for name, counts in found.items():
        if name == "floor":
            continue
        print(f"\n{name}: the 3 shared objects that differ most, the floor's count -> the case's")
        for event, what in SIMULATED.items():

            def at_floor(obj: str, event: str = event) -> int:
                return floor[obj][event] if obj in floor else 0

            ranked = sorted(counts, key=lambda obj: -abs(counts[obj][event] - at_floor(obj)))
            shown = ", ".join(
                f"{obj} {at_floor(obj)} -> {counts[obj][event]}" for obj in ranked[:3]
            )
            print(f"  {what:<26s} {shown}")


def _opcode_counter(counts: collections.Counter[str]) -> Any:
    """A ``sys.settrace`` function counting each opcode executed, by file and function."""

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        if event == "opcode":
            code = frame.f_code
            counts[f"{Path(code.co_filename).name}:{code.co_name}"] += 1
        return trace

    return trace


def bytecodes(
    config: str, names: Sequence[str], loops: int, variant: int
) -> dict[str, collections.Counter[str]]:
    """Per case, the opcodes executed per function over ``loops`` loops."""
    setup = _warmed(config, variant)
    speeds = loop_cost.speed_sequence(WARM_LOOPS + loops)[WARM_LOOPS:]  # as if after the warm-up
    counted: dict[str, collections.Counter[str]] = {}
    for name in names:
        case = _warm_case(setup, name)
        counts: collections.Counter[str] = collections.Counter()
        sys.settrace(_opcode_counter(counts))
        try:
            for vx, vy, omega in speeds:
                case.loop(vx, vy, omega)
        finally:
            sys.settrace(None)
        counted[name] = counts
    return counted


def add_case_arguments(parser: argparse.ArgumentParser, *, loops: int, repeat: int) -> None:
    """The options this script shares with ``cold_lines.py``: the configuration, the cases, how
    many loops a child counts, how many children per case, and ``checks_cost.py``'s variant."""
    parser.add_argument("--config", default=COUNTED_CONFIG, choices=sorted(loop_cost.FLOORS))
    parser.add_argument(
        "--cases",
        nargs="+",
        default=["floor", "NONE", "HIGH"],
        choices=sorted(CASES),
        help="floor, telemetry (the floor publishing what HIGH does) and library levels",
    )
    parser.add_argument("--loops", type=int, default=loops, help=f"loops counted (default {loops})")
    parser.add_argument(
        "--repeat",
        type=int,
        default=repeat,
        help=f"callgrind runs per case, the least kept (default {repeat})",
    )
    parser.add_argument(
        "--variant",
        type=int,
        default=0,
        choices=range(len(checks_cost.VARIANTS)),
        help="the library with checks_cost.py's parts switched off: "
        + ", ".join(f"{i} {v}" for i, v in enumerate(checks_cost.VARIANTS)),
    )


T = TypeVar("T")


def each_run(
    names: Sequence[str], repeat: int, job: Callable[[str, int, Path], T | None]
) -> dict[str, list[T]]:
    """``job(name, run, scratch)`` for every case and run, as many at a time as there are cores,
    in a scratch directory removed afterwards; each case's results (failed runs, None, left out)."""
    found: dict[str, list[T]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory(prefix="swervelib-callgrind-") as scratch:
        workers = max(1, min(len(names), os.cpu_count() or 1))
        with ThreadPoolExecutor(workers) as pool:
            futures = {
                (name, run): pool.submit(job, name, run, Path(scratch))
                for run in range(repeat)
                for name in names
            }
            for (name, _run), future in futures.items():
                result = future.result()
                if result is not None:
                    found[name].append(result)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_case_arguments(parser, loops=1000, repeat=3)
    parser.add_argument("--detail", action="store_true", help="bytecodes per function")
    parser.add_argument("--no-valgrind", action="store_true", help="bytecodes only")
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="valgrind's cache and branch models (main thread) instead of plain instructions",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.config, args.child, args.loops, args.variant)
        return 0
    names = list(dict.fromkeys(["floor", *args.cases]))
    traced = min(args.loops, 200)  # settrace is slow: bytecodes over at most 200 loops
    counted = bytecodes(args.config, names, traced, args.variant)
    per_loop = {name: sum(c.values()) / traced for name, c in counted.items()}
    measured: dict[str, float | None] = {}
    if not args.no_valgrind and args.config != COUNTED_CONFIG:
        # the CTRE devices read stale under valgrind (the docstring): the child would give up
        print(f"{args.config}: bytecodes only (instruction counts are for {COUNTED_CONFIG})")
    elif not args.no_valgrind:
        if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
            print("valgrind (callgrind, callgrind_control) is not installed: use --no-valgrind")
            return 2

        def one_run(name: str, run: int, scratch: Path) -> float | None:
            return instructions(args.config, name, args.loops, args.variant, scratch, run)

        def one_simulated(
            name: str, run: int, scratch: Path
        ) -> dict[str, collections.Counter[str]] | None:
            return simulated(args.config, name, args.loops, args.variant, scratch, run)

        if args.simulate:
            found = {
                name: min(runs, key=lambda counts: event_total(counts, "Ir"))  # the least run
                for name, runs in each_run(names, args.repeat, one_simulated).items()
                if runs
            }
            measured = {name: float(event_total(counts, "Ir")) for name, counts in found.items()}
        else:
            for name, counts in each_run(names, args.repeat, one_run).items():
                measured[name] = min(counts) if counts else None  # the least run
    variant = f", library {checks_cost.VARIANTS[args.variant]}" if args.variant else ""
    print(f"{args.config}{variant}: work per loop (ratio to the floor)")
    counted_as = "main thread" if args.simulate else "instructions"
    print(f"  {'case':<10s} {'bytecodes':>16s} {counted_as:>20s}")
    for name in names:
        ops = f"{per_loop[name]:7.0f} ({per_loop[name] / per_loop['floor']:.3f})"
        ins, count, floor = "", measured.get(name), measured.get("floor")
        if count is not None and floor is not None:
            ins = f"{count:10.0f} ({count / floor:.3f})"
        elif measured:
            ins = "-"
        print(f"  {name:<10s} {ops:>16s} {ins:>20s}")
    if args.simulate and measured:
        print()
        print_simulated(f"{args.config}{variant}", found, args.detail)
    if args.detail:
        for name in names:
            print(f"\n{name}: bytecodes per loop, by function")
            for function, ops_count in counted[name].most_common(25):
                print(f"  {ops_count / traced:8.1f}  {function}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
