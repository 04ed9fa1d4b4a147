"""Long fuzz run of the configuration loader (issue 8 item 3).

    python benchmarks/fuzz_config.py [--cases 20000] [--seed 1]

Mutates the reference configurations in deploy/ (wrong types, missing and renamed keys, extreme and
non-finite numbers, unicode, huge files, deep nesting, duplicated keys, broken syntax, missing
files, and issue 12's attack cases: integers of 309 to 200 000 digits, subnormals, lone
surrogates, ANSI escapes and bidi overrides in names, keys, types and bus names, nesting 100 000
deep; see tests/fuzzing.py) and loads each result. Every case must load or raise ConfigError, and
every problem and warning must be printable as it is; anything else is counted as a failure and
printed. Exit status 1 if any failure.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from swervelib.config import ConfigError, load_directory  # noqa: E402
from tests.fuzzing import (  # noqa: E402
    mutate,
    problems_printable,
    read_directory,
    write_directory,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bases = {p.name: read_directory(p) for p in sorted((REPO / "deploy").iterdir())}
    outcomes: collections.Counter[str] = collections.Counter()
    by_mutation: collections.Counter[str] = collections.Counter()
    start = time.perf_counter()
    slowest = 0.0
    for case in range(args.cases):
        name = rng.choice(sorted(bases))
        files, applied = mutate(rng, dict(bases[name]))
        by_mutation.update(applied)
        with tempfile.TemporaryDirectory() as tmp:
            write_directory(Path(tmp), files)
            began = time.perf_counter()
            try:
                config = load_directory(tmp)
            except ConfigError as error:
                outcomes["ConfigError"] += 1
                unprintable = problems_printable([*error.problems, *error.warnings])
            except Exception:
                outcomes["other exception (bug)"] += 1
                last = traceback.format_exc().strip().splitlines()[-1][:200]
                print(f"case {case} ({name}, {applied}): {last}")
                unprintable = []
            else:
                outcomes["loaded"] += 1
                unprintable = problems_printable(config.warnings)
            if unprintable:
                outcomes["unprintable problem (bug)"] += 1
                print(f"case {case} ({name}, {applied}): {unprintable[0][:200]!r}")
            slowest = max(slowest, time.perf_counter() - began)
    elapsed = time.perf_counter() - start
    print(f"{args.cases} cases in {elapsed:.1f} s (slowest load {slowest * 1000:.0f} ms)")
    for outcome, count in outcomes.most_common():
        print(f"  {outcome:24s} {count}")
    print("mutations applied: " + ", ".join(f"{k} {v}" for k, v in by_mutation.most_common()))
    return 1 if outcomes["other exception (bug)"] or outcomes["unprintable problem (bug)"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
