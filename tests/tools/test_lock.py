"""The directory lock: one holder at a time under contention, kills leave nothing that blocks."""

from __future__ import annotations

import errno
import fcntl
import json
import multiprocessing
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from swervelib.tools.edit import LOCK_NAME, ConfigEditor, EditError
from swervelib.tools.lock import DirectoryLock, LockError
from tests.tools import REPO, copy_config, dead_pid, everything, leave_stale_lock
from tests.tools.lock_stress import COUNTER, Tally, contend, plant_stale_lock, stale_record

CONTENDERS = 6
ROUNDS = 100


def no_litter(directory: Path) -> None:
    names = [p.name for p in directory.iterdir()]
    assert [n for n in names if n.startswith(LOCK_NAME)] == [], names


def test_many_processes_never_hold_the_lock_together(tmp_path: Path) -> None:
    """6 processes × 100 rounds, each taking the lock once per round while stale locks (as left by
    killed tools) keep appearing: every hold is alone, and nothing is left over."""
    directory = copy_config(tmp_path)
    (directory / COUNTER).write_text("0")
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(CONTENDERS + 1)
    end = context.Barrier(CONTENDERS + 1)
    results: multiprocessing.Queue[Tally] = context.Queue()
    record = stale_record(dead_pid())
    workers = [
        context.Process(
            target=contend, args=(str(directory), ROUNDS, dead_pid(), start, end, results)
        )
        for _ in range(CONTENDERS)
    ]
    for worker in workers:
        worker.start()
    try:
        for _round in range(ROUNDS):
            plant_stale_lock(directory, record)  # every round starts from a killed tool's lock
            start.wait(300)
            end.wait(300)
        tallies = [results.get(timeout=300) for _ in workers]
    finally:
        for worker in workers:
            worker.join(timeout=300)
    assert [t.error for t in tallies] == [""] * CONTENDERS
    assert sum(t.gave_up for t in tallies) == 0
    assert sum(t.holds for t in tallies) == CONTENDERS * ROUNDS
    assert sum(t.overlaps for t in tallies) == 0
    assert (directory / COUNTER).read_text() == str(CONTENDERS * ROUNDS)  # no lost update
    with ConfigEditor(directory) as editor:  # the last planted stale lock is taken over
        assert len(editor.notes) <= 1
    no_litter(directory)


KILL_SCRIPT = """
import os, shutil, signal, sys
from pathlib import Path
from swervelib.tools.edit import ConfigEditor

template, stale = Path(sys.argv[1]), sys.argv[2] == "stale"
OPERATIONS = ("open", "write", "ftruncate", "replace", "rename", "unlink", "rmdir")


def killed_at(k):
    count = 0

    def wrap(real):
        def call(*args, **options):
            nonlocal count
            count += 1
            if count == k:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **options)

        return call

    for name in OPERATIONS:
        setattr(os, name, wrap(getattr(os, name)))


k = 0
while True:  # one forked process per kill point, killed just before its k-th file operation
    k += 1
    directory = template.parent / f"killed-{k}"
    shutil.copytree(template, directory)
    pid = os.fork()
    if pid == 0:
        killed_at(k)
        with ConfigEditor(directory):
            pass
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if os.WIFEXITED(status):  # not killed: every operation was a kill point once
        shutil.rmtree(directory)
        print(k - 1)
        break
    assert os.WTERMSIG(status) == signal.SIGKILL, status
"""


@pytest.mark.parametrize("stale", [False, True], ids=["free", "taking-over-a-stale-lock"])
def test_a_kill_at_any_file_operation_of_the_lock_leaves_nothing_that_blocks(
    tmp_path: Path, stale: bool
) -> None:
    """A tool killed (SIGKILL) just before any file operation while it takes the lock (taking over
    a stale one, if ``stale``), recovers and gives the lock up: the next run takes the lock at once,
    and afterwards no lock file or `.swervelib.lock.stale-*` litter is left."""
    template = copy_config(tmp_path)
    if stale:
        leave_stale_lock(template)
    expected = {k: v for k, v in everything(template).items() if k != LOCK_NAME}
    child = subprocess.run(
        [sys.executable, "-c", KILL_SCRIPT, str(template), "stale" if stale else "free"],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    kills = int(child.stdout)
    assert kills >= 4
    for k in range(1, kills + 1):
        directory = tmp_path / f"killed-{k}"
        with ConfigEditor(directory) as editor:
            notes = list(editor.notes)
        assert all("stale lock" in note for note in notes), (k, notes)
        no_litter(directory)
        assert everything(directory) == expected, k


def test_litter_of_older_versions_is_removed(tmp_path: Path) -> None:
    """What the rename-based lock breaking of older versions left when killed: an empty lock
    file and `.swervelib.lock.stale-*` files. Neither blocks; both are cleaned up."""
    directory = copy_config(tmp_path)
    (directory / LOCK_NAME).write_bytes(b"")
    (directory / f"{LOCK_NAME}.stale-0123456789abcdef").write_text('{"pid": 1}')
    with ConfigEditor(directory) as editor:
        assert editor.notes == []
    no_litter(directory)


def test_lock_file_deleted_by_its_releasing_holder_is_not_held(tmp_path: Path) -> None:
    """A tool that opened the lock file just before its holder deleted it (releasing) locks a file
    that is no longer the lock: it must notice, and take the real lock file instead."""
    first = DirectoryLock(tmp_path)
    first.acquire([])
    released: list[bool] = []

    def release_first(step: str) -> None:
        if step == "lock open" and not released:
            released.append(True)
            first.release()  # deletes the file the second tool has just opened

    second = DirectoryLock(tmp_path, step_hook=release_first)
    second.acquire([])
    try:
        assert released == [True]
        assert second._fd is not None
        opened = os.fstat(second._fd)
        named = os.stat(tmp_path / LOCK_NAME)
        assert (opened.st_dev, opened.st_ino) == (named.st_dev, named.st_ino)
        with pytest.raises(LockError, match="being edited by another swervelib tool"):
            DirectoryLock(tmp_path).acquire([])
    finally:
        second.release()
    assert not (tmp_path / LOCK_NAME).exists()


def test_a_dry_run_looking_does_not_make_a_tool_fail(tmp_path: Path) -> None:
    """The lock held for a moment without a record (a dry run checking it, or a tool between
    taking it and writing its record) is tried again, not refused."""
    peek: list[int] = []

    def dry_run_peeks_once(step: str) -> None:
        if step != "lock open":
            return
        if not peek:  # first attempt: a dry run holds the lock (shared) at this very moment
            fd = os.open(tmp_path / LOCK_NAME, os.O_RDONLY)
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            peek.append(fd)
        elif len(peek) == 1:  # next attempt: the dry run is done
            os.close(peek[0])
            peek.append(-1)

    tool = DirectoryLock(tmp_path, step_hook=dry_run_peeks_once)
    tool.acquire([])
    try:
        assert peek[1:] == [-1]  # refused once, then taken
        record = json.loads((tmp_path / LOCK_NAME).read_text())
        assert record["pid"] == os.getpid()
    finally:
        tool.release()
    assert not (tmp_path / LOCK_NAME).exists()


def test_record_of_another_host_or_of_a_running_older_version_blocks(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    lock = directory / LOCK_NAME
    lock.write_text(json.dumps({"pid": 4242, "host": "robot-laptop-2"}))
    with pytest.raises(EditError, match=r"process 4242 on robot-laptop-2"), ConfigEditor(directory):
        pass
    with pytest.raises(EditError, match="robot-laptop-2"), ConfigEditor(directory, dry_run=True):
        pass
    assert json.loads(lock.read_text())["host"] == "robot-laptop-2"
    # an older swervelib (no OS lock) whose process still runs
    lock.write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))
    with pytest.raises(EditError, match=rf"process {os.getpid()}"), ConfigEditor(directory):
        pass


@pytest.mark.parametrize(
    ("make", "cause"),
    [
        (lambda path: os.mkfifo(path), "is a FIFO"),
        (lambda path: path.mkdir(), "is a directory"),
        (lambda path: path.symlink_to("elsewhere"), "is a symbolic link"),
    ],
    ids=["fifo", "directory", "symlink"],
)
def test_a_lock_file_that_is_not_a_file_is_refused_clearly(
    tmp_path: Path, make: object, cause: str
) -> None:
    directory = copy_config(tmp_path)
    make(directory / LOCK_NAME)  # type: ignore[operator]
    before = sorted(p.name for p in directory.iterdir())
    for dry_run in (False, True):
        with (
            pytest.raises(EditError, match=rf"lock file .*{LOCK_NAME} {cause}"),
            ConfigEditor(directory, dry_run=dry_run),
        ):
            pass
    assert sorted(p.name for p in directory.iterdir()) == before
    assert not (directory / "elsewhere").exists()


def test_a_file_system_without_locks_is_a_clear_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from swervelib.tools import lock

    def no_locks(fd: int, *, shared: bool = False) -> bool:
        raise OSError(errno.ENOLCK, "No locks available")

    directory = copy_config(tmp_path)
    monkeypatch.setattr(lock, "_try_lock", no_locks)
    for dry_run in (False, True):
        with (
            pytest.raises(
                EditError, match=r"\.swervelib\.lock cannot be locked: no locks available"
            ),
            ConfigEditor(directory, dry_run=dry_run),
        ):
            pass
    (directory / LOCK_NAME).unlink()  # the real run created it; it was never held
    no_litter(directory)
