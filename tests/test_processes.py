"""The `robotpy sim` lock (tests/processes.py): one holder at a time across the run's processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from tests.conftest import REPO, SIM_LOCK_ENV
from tests.processes import one_sim_at_a_time

# A process of the run that holds the lock until its stdin closes, as a test holds it while its
# robotpy sim runs.
HOLDER = """
import sys
from tests.processes import one_sim_at_a_time
with one_sim_at_a_time():
    print("held", flush=True)
    sys.stdin.read()
"""


def test_another_process_of_the_run_waits_for_the_holder(tmp_path: Path) -> None:
    """An isolated group's child runs with a TMPDIR of its own: it must still lock the same file
    as the workers (the name comes from the environment, not from its temp folder)."""
    lock_file = os.environ[SIM_LOCK_ENV]
    scratch = tmp_path / "child_tmp"
    scratch.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER],
        cwd=REPO,
        env=dict(os.environ, TMPDIR=str(scratch)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(Timeout):
            FileLock(lock_file).acquire(timeout=0)
    finally:
        holder.stdin.close()  # the holder lets go
        assert holder.wait() == 0
    with one_sim_at_a_time():  # now free: taken at once
        pass
    assert list(scratch.iterdir()) == []  # nothing of the lock in the child's own temp folder
