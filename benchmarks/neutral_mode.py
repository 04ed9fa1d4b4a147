"""Whether ``set_brake`` reaches a Talon beside a full simulated bus on a busy core.

After a configuration apply that phoenix6's simulator could not send (``TX_FAILED``), phoenix6
answered OK to an apply of the same configuration without the Talon taking it. This reproduces
that through the library: one run is a fresh process (its own ``ctre_sim/`` in a temporary
directory) with a Talon FXS driven by ``TalonFXSMotor`` and ``--devices`` Talon FX and CANcoders
beside it to fill the bus. For ``--seconds`` it switches the neutral mode with ``set_brake`` again
and again, then reads the Talon's configuration back until it shows the mode asked for, running
the Talon's health check (``refresh()`` and ``fault()``, which tries a mode not taken again) in
between as the drive does, for at most ``--wait`` seconds. ``--parallel`` runs beside each other
and ``--hogs`` busy processes load the machine; ``--one-core`` pins them all to CPU 0.

Prints each set whose tries were not all answered OK (the answers, the health check's answers and
when the mode read back), then, per run, how many sets there were, how many met a failure, and
which never read back in ``--wait`` seconds.

    python benchmarks/neutral_mode.py --one-core --parallel 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = """
import json, sys, time
from phoenix6 import CANBus, configs, hardware, signals
from swervelib.config.catalog import MOTOR_TYPES
from swervelib.config.model import DeviceConfig
from swervelib.devices.ctre6.talonfx import TalonFXSMotor
from swervelib.devices.settings import MotorSettings, Role

seconds, devices, wait = float(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
TALON = 20
motor = TalonFXSMotor(MotorSettings(
    label="neutral mode probe", role=Role.DRIVE, device=DeviceConfig("talonfxs_vortex", TALON, None),
    motor_type=MOTOR_TYPES["talonfxs_vortex"], inverted=False, brake=True, current_limit_a=40.0,
    ramp_rate_s=0.1, units_per_rotation=0.05, optimal_voltage=12.0, pidf=None,
))
bus = CANBus("rio")
beside = [hardware.TalonFX(i, bus) for i in range(1, devices + 1) if i != TALON]
beside += [hardware.CANcoder(i, bus) for i in range(1, devices + 1)]
time.sleep(2.0)
real = motor.device

class Recorded:  # the Talon's configurator, noting each status it answers
    def __init__(self, configurator):
        self.configurator, self.answers = configurator, []
    def apply(self, config, timeout):
        status = self.configurator.apply(config, timeout)
        self.answers.append(status.name)
        return status

class Talon:  # the Talon, with Recorded in place of its configurator
    def __init__(self, configurator):
        self.configurator = configurator
    def __getattr__(self, name):
        return getattr(real, name)

def recorded():
    configurator = Recorded(real.configurator)
    motor.device = Talon(configurator)
    return configurator

def mode_read():
    read = configs.MotorOutputConfigs()
    return read.neutral_mode if real.configurator.refresh(read, 1.0).is_ok() else None

sets, failed, lost = 0, 0, []
brake = True
end = time.monotonic() + seconds
while time.monotonic() < end:
    sets += 1
    brake = not brake
    mode = signals.NeutralModeValue.BRAKE if brake else signals.NeutralModeValue.COAST
    asked = recorded()
    motor.set_brake(brake)
    retried = recorded()
    start, taken = time.monotonic(), None
    while time.monotonic() - start < wait:
        motor.refresh()
        motor.fault()
        if mode_read() == mode:
            taken = round(time.monotonic() - start, 2)
            break
        time.sleep(0.05)
    motor.device = real
    if asked.answers != ["OK"] or taken is None:
        failed += 1
        print(f"set {sets}: answered {asked.answers}, the health check's tries {retried.answers}, "
              f"read back after {taken} s", flush=True)
        if taken is None:
            lost.append(sets)
    time.sleep(0.02)
print("RESULT " + json.dumps({"sets": sets, "failed": failed, "lost": lost}), flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=240.0, help="per run (default 240)")
    parser.add_argument("--parallel", type=int, default=1, help="runs beside each other")
    parser.add_argument(
        "--devices", type=int, default=55, help="Talon FX ids, each with a CANcoder"
    )
    parser.add_argument("--wait", type=float, default=5.0, help="read-back patience per set (s)")
    parser.add_argument("--hogs", type=int, default=3, help="busy processes beside the runs")
    parser.add_argument("--one-core", action="store_true", help="pin everything to CPU 0")
    args = parser.parse_args()
    pin = ["taskset", "-c", "0"] if args.one_core else []
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": repo + os.pathsep + os.environ.get("PYTHONPATH", "")}
    child = [
        *pin,
        sys.executable,
        "-c",
        CHILD,
        str(args.seconds),
        str(args.devices),
        str(args.wait),
    ]
    hogs = [
        subprocess.Popen([*pin, sys.executable, "-c", "while 1: pass"]) for _ in range(args.hogs)
    ]
    try:
        with tempfile.TemporaryDirectory(prefix="swervelib-neutral-") as where:
            folders = [os.path.join(where, str(run)) for run in range(args.parallel)]
            runs = []
            for folder in folders:
                os.mkdir(folder)
                runs.append(
                    subprocess.Popen(
                        child,
                        cwd=folder,
                        env=env,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL,  # phoenix6's warnings, at every set
                        text=True,
                    )
                )
            outputs = [run.communicate()[0] for run in runs]
    finally:
        for hog in hogs:
            hog.kill()
    for number, (run, output) in enumerate(zip(runs, outputs, strict=True), start=1):
        lines = output.splitlines()
        for line in lines:
            if line.startswith("set "):
                print(f"run {number}, {line}")
        results = [line for line in lines if line.startswith("RESULT ")]
        if not results:
            print(f"run {number}: no result (exit {run.returncode})")
            continue
        result = json.loads(results[-1][len("RESULT ") :])
        print(
            f"run {number}: {result['sets']} sets, {result['failed']} not answered OK at once or "
            f"not read back; never read back in {args.wait:g} s: {result['lost'] or 'none'}"
        )


if __name__ == "__main__":
    main()
