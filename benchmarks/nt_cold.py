"""What a NetworkTables ``set`` costs at a robot's rhythm, where every loop starts after a sleep.

``loop_cost.py``'s paced mode finds the library's telemetry far dearer than hot (on all-REV about
119 µs a loop paced against 16 µs hot). This script takes ntcore alone, with no drive and no
vendor library, and times each part on its own after a 10 ms sleep, so the figures say what the
first call of a loop costs, what the calls after it cost, and how much of that any code pays for
waking up:

* ``nothing``: two clock reads (what timing itself costs after the sleep);
* ``first set`` and ``second set``: two double publishers, one after the other;
* ``13 sets``: thirteen double publishers in a row (about as many calls as a loop at ``HIGH``);
* ``Rotation2d first``, then ``set after it``: a WPILib call first, so the ``set`` does not pay
  for the wake-up;
* ``set after Python``: a ``set`` after a stretch of pure Python arithmetic;
* ``raw first``, then ``double after it``: a second kind of value in the same loop.

Usage::

    python benchmarks/nt_cold.py              # 600 rounds of each part (about 40 s)
    python benchmarks/nt_cold.py --rounds 200
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence

import ntcore
from wpimath.geometry import Rotation2d

SLEEP_S = 0.01
HOT_ROUNDS = 2000
PYTHON_STEPS = 4000  # about 250 µs of arithmetic on the 2-core VM


def _python_stretch() -> float:
    total = 0.0
    for i in range(PYTHON_STEPS):
        total += i * 0.5
    return total


def measure(rounds: int) -> dict[str, float]:
    """Median µs of each part, every part timed right after its own sleep."""
    nt = ntcore.NetworkTableInstance.create()
    try:
        doubles = [nt.getDoubleTopic(f"/cold/double{i}").publish() for i in range(13)]
        raw = nt.getRawTopic("/cold/raw").publish("raw")
        clock = time.perf_counter_ns
        times: dict[str, list[int]] = {}

        def record(name: str, start: int, end: int) -> None:
            times.setdefault(name, []).append(end - start)

        def nothing(_: int) -> None:
            t0 = clock()
            t1 = clock()
            record("nothing", t0, t1)

        def one_after_another(
            first: str,
            call_first: Callable[[int], object],
            then: str,
            call_then: Callable[[int], object],
        ) -> Callable[[int], None]:
            """A part timing two calls, the second right after the first."""

            def part(r: int) -> None:
                t0 = clock()
                call_first(r)
                t1 = clock()
                call_then(r)
                t2 = clock()
                record(first, t0, t1)
                record(then, t1, t2)

            return part

        def set_all(r: int) -> None:
            for publisher in doubles:
                publisher.set(r)

        def thirteen(r: int) -> None:
            t0 = clock()
            set_all(r)
            record("13 sets", t0, clock())

        def after_python(r: int) -> None:
            _python_stretch()
            t0 = clock()
            doubles[3].set(r)
            record("set after Python", t0, clock())

        parts = [
            nothing,
            one_after_another("first set", doubles[0].set, "second set", doubles[1].set),
            thirteen,
            one_after_another(
                "Rotation2d first", Rotation2d.fromDegrees, "set after it", doubles[2].set
            ),
            after_python,
            one_after_another(
                "raw first",
                lambda r: raw.set(r.to_bytes(8, "little")),
                "double after it",
                doubles[4].set,
            ),
        ]
        for r in range(rounds):
            for part in parts:
                time.sleep(SLEEP_S)
                part(r)
        hot: list[int] = []
        for r in range(HOT_ROUNDS):
            t0 = clock()
            set_all(r)
            hot.append(clock() - t0)
        times["13 sets, hot"] = hot
        return {name: statistics.median(values) / 1000 for name, values in times.items()}
    finally:
        ntcore.NetworkTableInstance.destroy(nt)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=600, help="rounds of each part")
    args = parser.parse_args(argv)
    print(f"median µs, each part after a {SLEEP_S * 1000:g} ms sleep ({args.rounds} rounds)")
    for name, median in measure(args.rounds).items():
        print(f"  {name:20s} {median:7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
