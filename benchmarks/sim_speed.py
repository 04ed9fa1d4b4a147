"""Speed of the simulation: the tyre-and-chassis model (``SwerveSim(traction=True)``, the default)
beside ideal wheels (``traction=False``, the model before it), side by side in one run.

For each reference configuration in ``deploy/`` (each in a process of its own: the REV ones share
CAN ids), one drive runs 10 s of simulated driving per model, a robot loop at a time: ``periodic()``,
a field-relative ``drive()`` whose speeds change every loop, ``SwerveSim.step(0.02)``, then the
simulated clock steps. The two models alternate in 1 s blocks (a new ``SwerveSim`` each block, built
outside the timing) so machine noise hits them alike. Printed per configuration: the median cost of
one loop for each model, how many times faster than real time that is, and the ratio
traction / ideal (the target: at most 1.25).

Usage::

    python benchmarks/sim_speed.py            # every reference configuration
    python benchmarks/sim_speed.py swerve     # one of them
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"
CONFIGS = ("vortex_throughbore_navx", "swerve", "kraken_cancoder_pigeon2", "talonsrx_pigeon")
LOOP = 0.02
BLOCK_LOOPS = 50  # 1 s of simulated time per block
BLOCKS = 10  # per model: 10 s


def measure(name: str) -> tuple[float, float]:
    """Median seconds per loop (ideal, traction) for one configuration, in this process."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    os.chdir(tempfile.mkdtemp(prefix="swervelib-simspeed-"))  # phoenix6 writes ./ctre_sim
    from wpilib.simulation import DriverStationSim, pauseTiming, stepTiming
    from wpimath.kinematics import ChassisSpeeds

    from swervelib import SwerveDrive
    from swervelib.sim import SwerveSim

    pauseTiming()
    DriverStationSim.setEnabled(True)
    DriverStationSim.notifyNewData()
    drive = SwerveDrive.from_directory(DEPLOY / name, simulate=False)
    times: dict[bool, list[float]] = {False: [], True: []}
    t = 0.0
    for block in range(2 * BLOCKS):
        traction = block % 2 == 1
        sim = SwerveSim(drive, traction=traction)
        for _ in range(BLOCK_LOOPS):
            t += LOOP
            speeds = ChassisSpeeds(1.5 * math.sin(0.7 * t), 1.0 * math.cos(0.5 * t), math.sin(t))
            start = time.perf_counter()
            drive.periodic()
            drive.drive(speeds, field_relative=True)
            sim.step(LOOP)
            stepTiming(LOOP)
            times[traction].append(time.perf_counter() - start)
    return statistics.median(times[False]), statistics.median(times[True])


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        ideal, traction = measure(sys.argv[2])
        print(f"RESULT {ideal!r} {traction!r}")
        return
    names = sys.argv[1:] or list(CONFIGS)
    print(f"{'configuration':<26} {'ideal':>9} {'traction':>9} {'ratio':>6}   real-time factor")
    for name in names:
        result = subprocess.run(
            [sys.executable, __file__, "--one", name],
            capture_output=True,
            text=True,
            check=False,
        )
        lines = [line for line in result.stdout.splitlines() if line.startswith("RESULT")]
        if not lines:
            print(f"{name:<26} failed: {result.stderr.strip()[-500:]}")
            continue
        ideal, traction = (float(v) for v in lines[-1].split()[1:])
        print(
            f"{name:<26} {ideal * 1e3:7.3f}ms {traction * 1e3:7.3f}ms {traction / ideal:6.2f}"
            f"   {LOOP / ideal:5.1f}x vs {LOOP / traction:5.1f}x"
        )


if __name__ == "__main__":
    main()
