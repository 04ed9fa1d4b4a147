"""How long phoenix6's simulator goes without sending a frame (TX_FAILED) at start-up, under load.

Each run is a fresh process (its own ``ctre_sim/`` in a temporary directory) that makes
``--devices`` Talon FX and as many CANcoders, and applies each one's default configuration as the
library does at start-up (``swervelib.devices.ctre6.apply_at_start``, with its pauses), timing
every call that met TX_FAILED. ``--hogs`` busy processes run beside it, and ``--one-core`` pins
the run and the hogs to CPU 0, which makes the simulator's threads starve as on a loaded CI
machine. Prints, per run, the calls that applied and that were lost, and how long each call that
met TX_FAILED took; ``TX_BACKOFF_S`` in ``swervelib/devices/ctre6/__init__.py`` comes from these
figures.

    python benchmarks/tx_failed.py --runs 10 --hogs 3 --one-core
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CHILD = """
import json, sys, time
from phoenix6 import configs, hardware
from swervelib.devices import ctre6
from swervelib.devices.faults import ConfigCalls

class Recorded:  # the device's configurator, noting each status it answers
    def __init__(self, configurator, met):
        self.configurator, self.met = configurator, met
    def apply(self, config):
        status = self.configurator.apply(config)
        self.met.append(status.name)
        return status

if sys.argv[2] == "old":  # the pauses used before 9d02d67 (0.63 s in all)
    ctre6.TX_BACKOFF_S = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32)
applied = lost = 0
slow = []
for i in range(1, int(sys.argv[1]) + 1):
    for kind, config in ((hardware.TalonFX, configs.TalonFXConfiguration),
                         (hardware.CANcoder, configs.CANcoderConfiguration)):
        device = kind(i)
        met = []
        calls = ConfigCalls(f"{kind.__name__} {i}")
        start = time.monotonic()
        ok = ctre6.apply_at_start(calls, "settings", Recorded(device.configurator, met), config())
        if "TX_FAILED" in met:
            slow.append(round(time.monotonic() - start, 2))
        applied, lost = applied + ok, lost + (not ok)
print("RESULT " + json.dumps({"applied": applied, "lost": lost, "tx_failed_s": slow}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="fresh processes (default 10)")
    parser.add_argument(
        "--devices", type=int, default=62, help="Talon FX ids, each with a CANcoder"
    )
    parser.add_argument("--hogs", type=int, default=3, help="busy processes beside the runs")
    parser.add_argument("--one-core", action="store_true", help="pin everything to CPU 0")
    parser.add_argument(
        "--old-pauses", action="store_true", help="the 0.63 s of pauses used before, to compare"
    )
    args = parser.parse_args()
    pin = ["taskset", "-c", "0"] if args.one_core else []
    hogs = [
        subprocess.Popen([*pin, sys.executable, "-c", "while 1: pass"]) for _ in range(args.hogs)
    ]
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": repo + os.pathsep + os.environ.get("PYTHONPATH", "")}
    totals = {"applied": 0, "lost": 0}
    outages: list[float] = []
    try:
        for run in range(1, args.runs + 1):
            with tempfile.TemporaryDirectory(prefix="swervelib-tx-") as where:
                started = time.monotonic()
                done = subprocess.run(
                    [
                        *pin,
                        sys.executable,
                        "-c",
                        CHILD,
                        str(args.devices),
                        "old" if args.old_pauses else "new",
                    ],
                    cwd=where,
                    env=env,
                    capture_output=True,
                    text=True,
                    check=False,
                )
            lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
            if not lines:
                print(f"run {run}: no result (exit {done.returncode})")
                continue
            result = json.loads(lines[-1][len("RESULT ") :])
            totals["applied"] += result["applied"]
            totals["lost"] += result["lost"]
            outages += result["tx_failed_s"]
            print(
                f"run {run}: {result['applied']} applied, {result['lost']} lost, calls that met "
                f"TX_FAILED took {result['tx_failed_s']} s ({time.monotonic() - started:.0f} s)"
            )
    finally:
        for hog in hogs:
            hog.kill()
    print(
        f"all runs: {totals['applied']} applied, {totals['lost']} lost; "
        f"{len(outages)} calls met TX_FAILED, the longest took {max(outages, default=0.0)} s"
    )


if __name__ == "__main__":
    main()
