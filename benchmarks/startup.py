"""Start-up costs of swervelib: ``import swervelib`` and ``SwerveDrive.from_directory()``.

Every measurement runs in a fresh Python process, because both costs are first-time costs:

* **import**: ``import swervelib`` in a new interpreter, timed around the import statement and
  with ``-X importtime`` (cumulative microseconds of the ``swervelib`` package). The same process
  checks that no vendor package (``rev``, ``phoenix6``, ``phoenix5``, ``navx``) and no ``wpilib``
  was imported; that check is an assertion (exit status 1 when it fails).
* **from_directory**: for each configuration in ``deploy/``, a process imports the vendor libraries
  and ``swervelib.SwerveDrive`` first (not timed), then times ``SwerveDrive.from_directory(dir)``
  until it returns a ready drive (devices built, configured, first readings taken), then the first
  ``periodic()`` (which builds the simulation model in ``robotpy sim``), then a second
  ``from_directory()`` in the same process (vendor objects reused).

Usage::

    python benchmarks/startup.py            # 7 import runs, 3 runs per configuration
    python benchmarks/startup.py --quick    # 3 import runs, 1 run per configuration
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEPLOY = REPO / "deploy"
CONFIGS = ("swerve", "kraken_cancoder_pigeon2", "vortex_throughbore_navx", "talonsrx_pigeon")
FORBIDDEN = ("rev", "phoenix6", "phoenix5", "navx", "wpilib")
ALSO_REPORTED = ("hal", "ntcore", "wpimath", "wpiutil")  # not forbidden, but worth knowing
IMPORT_TARGET_MS = 150.0
FROM_DIRECTORY_TARGET_S = 0.5

_IMPORT_CHILD = f"""
import json, sys, time
sys.path.insert(0, {str(REPO)!r})
t0 = time.perf_counter()
import swervelib
elapsed = time.perf_counter() - t0
loaded = sorted({{name.split(".")[0] for name in sys.modules}})
print(json.dumps({{"seconds": elapsed, "modules": loaded}}))
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    return env


def _last_json(stdout: str) -> dict[str, object]:
    for line in reversed(stdout.splitlines()):
        if line.startswith("{"):
            result: dict[str, object] = json.loads(line)
            return result
    raise RuntimeError(f"no result line in the child's output:\n{stdout}")


def _run_import_child(workdir: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *flags, "-c", _IMPORT_CHILD],
        capture_output=True,
        text=True,
        cwd=workdir,
        env=_env(),
        check=True,
    )


def measure_import(runs: int, workdir: str) -> bool:
    """Time ``import swervelib`` in ``runs`` fresh processes; True when no forbidden import."""
    _run_import_child(workdir)  # compile the .pyc files first, as on a deployed robot
    wall: list[float] = []
    modules: set[str] = set()
    for _ in range(runs):
        result = _last_json(_run_import_child(workdir).stdout)
        wall.append(float(result["seconds"]) * 1000.0)  # type: ignore[arg-type]
        modules.update(result["modules"])  # type: ignore[arg-type]
    # One more run with -X importtime for the breakdown:
    # "import time: self [us] | cumulative | imported package"
    entries = re.findall(
        r"^import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)$",
        _run_import_child(workdir, "-X", "importtime").stderr,
        re.M,
    )
    cumulative = {name: int(cum) / 1000.0 for _, cum, _, name in entries}
    own = sorted(
        ((int(self_us) / 1000.0, name) for self_us, _, _, name in entries),
        reverse=True,
    )
    forbidden = sorted(m for m in FORBIDDEN if m in modules)
    others = sorted(m for m in ALSO_REPORTED if m in modules)
    print(f"import swervelib, {runs} fresh processes (after one that compiles the .pyc files):")
    print(
        f"  wall time  median {statistics.median(wall):6.1f} ms   "
        f"min {min(wall):6.1f}   max {max(wall):6.1f}   (target < {IMPORT_TARGET_MS:.0f} ms)"
    )
    if "swervelib" in cumulative:
        top = ", ".join(f"{name} {ms:.1f}" for ms, name in own[:5])
        print(f"  -X importtime: swervelib {cumulative['swervelib']:.1f} ms; most own time: {top}")
    print(f"  vendor packages or wpilib imported: {', '.join(forbidden) or 'none'}")
    print(f"  other robotpy packages imported:    {', '.join(others) or 'none'}")
    return not forbidden


def _child(config: str) -> None:
    """Run in a fresh process: vendor imports first, then time the drive's construction."""
    import time

    t0 = time.perf_counter()
    import navx  # noqa: F401
    import phoenix5  # noqa: F401
    import phoenix6  # noqa: F401
    import rev  # noqa: F401
    import wpilib  # noqa: F401

    from swervelib import SwerveDrive
    from swervelib.config import load_directory

    vendor_imports = time.perf_counter() - t0
    directory = DEPLOY / config
    t0 = time.perf_counter()
    load_directory(directory)
    parse = time.perf_counter() - t0

    t0 = time.perf_counter()
    drive = SwerveDrive.from_directory(directory)
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    drive.periodic()
    first_periodic = time.perf_counter() - t0
    t0 = time.perf_counter()
    SwerveDrive.from_directory(directory)
    second = time.perf_counter() - t0
    print(
        json.dumps(
            {
                "vendor_imports": vendor_imports,
                "parse": parse,
                "first": first,
                "first_periodic": first_periodic,
                "second": second,
            }
        ),
        flush=True,
    )


def measure_from_directory(configs: Sequence[str], runs: int, workdir: str) -> None:
    print(f"\nSwerveDrive.from_directory(), {runs} fresh process(es) per configuration (medians):")
    header = (
        f"  {'configuration':<26}{'vendor imports':>15}{'parse json':>11}"
        f"{'from_directory':>16}{'1st periodic':>14}{'2nd build':>11}"
    )
    print(header)
    for config in configs:
        results: list[dict[str, float]] = []
        for _ in range(runs):
            done = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--child", config],
                capture_output=True,
                text=True,
                cwd=workdir,
                env=_env(),
            )
            if done.returncode != 0 and not done.stdout.strip():
                tail = done.stderr.strip().splitlines()[-1:] or ["?"]
                print(f"  {config:<26}failed: {tail[0]}")
                break
            results.append(_last_json(done.stdout))  # type: ignore[arg-type]
        if not results:
            continue

        def med(key: str, scale: float = 1000.0, rows: list[dict[str, float]] = results) -> str:
            return f"{statistics.median(r[key] for r in rows) * scale:.0f} ms"

        print(
            f"  {config:<26}{med('vendor_imports'):>15}{med('parse'):>11}{med('first'):>16}"
            f"{med('first_periodic'):>14}{med('second'):>11}"
        )
    print(f"  target: from_directory < {FROM_DIRECTORY_TARGET_S * 1000:.0f} ms (vendors loaded)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    parser.add_argument("--child", choices=CONFIGS, help=argparse.SUPPRESS)
    parser.add_argument("--configs", nargs="+", choices=CONFIGS, default=list(CONFIGS))
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child)
        return 0
    # phoenix6 keeps simulated device configs in ./ctre_sim: keep them out of the repository.
    workdir = tempfile.mkdtemp(prefix="swervelib-startup-")
    clean = measure_import(3 if args.quick else 7, workdir)
    measure_from_directory(args.configs, 1 if args.quick else 3, workdir)
    assert clean, "import swervelib imported a vendor package or wpilib"
    return 0


if __name__ == "__main__":
    sys.exit(main())
