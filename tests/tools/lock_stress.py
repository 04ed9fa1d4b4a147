"""Many processes contending for one configuration directory's lock (used by test_lock.py).

Each contender, once per round, takes the lock through :class:`ConfigEditor` (trying again while
it is refused), marks that it holds it, stays a moment, unmarks and leaves; after leaving it plants
a stale lock (a record naming a process that has exited) when there is no lock file, as a tool
killed while holding the lock would. Holding the lock while another holds it is counted as an
overlap, both from an exclusive marker file and from a read-modify-write counter that loses an
increment whenever two holders interleave.
"""

from __future__ import annotations

import json
import os
import socket
import time
from dataclasses import dataclass
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

from swervelib.tools.edit import LOCK_NAME, ConfigEditor, EditError

MARKER = "holder.marker"
COUNTER = "holder.count"
BARRIER_TIMEOUT_S = 300.0  # a failsafe against a dead contender, never reached otherwise
MAX_TRIES = 100_000


@dataclass(frozen=True)
class Tally:
    holds: int = 0
    overlaps: int = 0
    refusals: int = 0
    gave_up: int = 0
    error: str = ""


def stale_record(pid: int) -> bytes:
    return json.dumps({"pid": pid, "host": socket.gethostname()}).encode()


def plant_stale_lock(directory: Path, record: bytes) -> None:
    """A stale lock where there is no lock file (as if its holder had been killed)."""
    try:
        fd = os.open(directory / LOCK_NAME, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return
    try:
        os.write(fd, record)
    finally:
        os.close(fd)


def _hold(directory: Path) -> bool:
    """The critical section; False when another holder was seen inside it."""
    alone = True
    try:
        os.close(os.open(directory / MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        alone = False
    counter = directory / COUNTER
    value = int(counter.read_text() or "0")
    time.sleep(0.0005)  # widen the window in which an overlapping holder would be seen
    counter.write_text(str(value + 1))
    if alone:
        os.unlink(directory / MARKER)
    return alone


def contend(
    directory: str, rounds: int, dead_pid: int, start: Barrier, end: Barrier, results: Queue[Tally]
) -> None:
    """One contender process: ``rounds`` holds, each between the two barriers of its round."""
    path = Path(directory)
    holds = overlaps = refusals = gave_up = 0
    record = stale_record(dead_pid)
    try:
        for _round in range(rounds):
            start.wait(BARRIER_TIMEOUT_S)
            for _try in range(MAX_TRIES):
                try:
                    with ConfigEditor(path):
                        if not _hold(path):
                            overlaps += 1
                        holds += 1
                except EditError:
                    refusals += 1
                    time.sleep(0.0002)
                    continue
                plant_stale_lock(path, record)
                break
            else:
                gave_up += 1
            end.wait(BARRIER_TIMEOUT_S)
    except Exception as error:  # reported to the test, which fails on it
        results.put(Tally(holds, overlaps, refusals, gave_up, repr(error)))
        return
    results.put(Tally(holds, overlaps, refusals, gave_up))
