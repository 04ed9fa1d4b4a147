"""Where a NetworkTables ``set`` from Python spends its instructions: ntcore, or the call into it.

``loop_cost.py`` finds the telemetry at ``HIGH`` the largest part of what the library costs beyond
its floor, and ``nt_cold.py`` times one ``set``. This script counts, under valgrind's callgrind,
the machine instructions of one ``set`` of a double and of a raw value (a packed struct, as the
library publishes its module states), and how many of them ntcore's own function runs
(``nt::SetDouble`` / ``nt::SetRaw``, inclusive: storage, the value, the listeners, the network
queue). The rest is the crossing from Python into C++: pybind11's dispatch, converting the
arguments, and releasing and taking back the GIL.

Each kind runs in two child processes under callgrind, one with ``--short`` rounds and one with
``--long`` rounds of eight sets to eight publishers (the value changes every round), and in a
second pair whose loop calls a Python function that does nothing in place of each ``set``; the
differences take the start-up, the loop and a Python-level call off, so what is left is what a
``set`` costs beyond calling a Python function.

Usage::

    python benchmarks/nt_call_instructions.py            # about 1 minute
    python benchmarks/nt_call_instructions.py --short 1000 --long 6000
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PUBLISHERS = 8
# What each child runs: ``rounds`` rounds of eight sets of ``kind`` (double or raw); with "bare",
# a Python function that does nothing is called in place of each set.
CHILD = """
import struct, sys
import ntcore
kind, rounds, bare = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "bare"
nt = ntcore.NetworkTableInstance.getDefault()
layout = struct.Struct("<8d")
if kind == "raw":
    pubs = [nt.getRawTopic(f"/bench/r{i}").publish("struct:SwerveModuleState[]") for i in range(8)]
else:
    pubs = [nt.getDoubleTopic(f"/bench/d{i}").publish() for i in range(8)]
sets = [(lambda value: None) if bare else p.set for p in pubs]
for k in range(rounds):
    value = layout.pack(k, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0) if kind == "raw" else k * 0.5
    for s in sets:
        s(value)
"""
NTCORE_FUNCTION = {"double": "nt::SetDouble(", "raw": "nt::SetRaw("}


def counted(scratch: Path, kind: str, rounds: int, *, bare: bool = False) -> tuple[int, int]:
    """(instructions of the whole child, inclusive instructions of ntcore's set function)."""
    out = scratch / f"callgrind.{kind}.{rounds}.{bare}"
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-c",
            CHILD,
            kind,
            str(rounds),
            "bare" if bare else "set",
        ],
        check=True,
        capture_output=True,
    )
    report = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found = re.search(r"^\s*([\d,]+)\s.*PROGRAM TOTALS", report, re.M)
    if found is None:
        sys.exit(f"no total in callgrind_annotate's report of {out.name}")
    total = int(found.group(1).replace(",", ""))
    inside = 0
    for line in report.splitlines():
        if NTCORE_FUNCTION[kind] in line:
            inside = max(inside, int(line.split()[0].replace(",", "")))
    return total, inside


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", type=int, default=1000, help="rounds in the short child")
    parser.add_argument("--long", type=int, default=6000, help="rounds in the long child")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        sys.exit("valgrind (callgrind, callgrind_annotate) is not installed")
    sets = (args.long - args.short) * PUBLISHERS
    with tempfile.TemporaryDirectory(prefix="swervelib-ntcall-") as name:
        scratch = Path(name)
        print(f"instructions per set ({sets} sets counted)")
        print(f"  {'kind':8s} {'whole set':>10s} {'in ntcore':>10s} {'the call':>10s}")
        for kind in ("double", "raw"):
            bare_short, _ = counted(scratch, kind, args.short, bare=True)
            bare_long, _ = counted(scratch, kind, args.long, bare=True)
            total_short, inside_short = counted(scratch, kind, args.short)
            total_long, inside_long = counted(scratch, kind, args.long)
            whole = (total_long - total_short - (bare_long - bare_short)) / sets
            inside = (inside_long - inside_short) / sets
            print(f"  {kind:8s} {whole:10.0f} {inside:10.0f} {whole - inside:10.0f}")


if __name__ == "__main__":
    main()
