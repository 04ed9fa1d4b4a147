"""Shared helpers for the configuration-writing tools' tests."""

from __future__ import annotations

import functools
import json
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from swervelib.tools.edit import BACKUP_DIR, JOURNAL_NAME, LOCK_NAME, TEMP_SUFFIX, recover

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
VALID = REPO / "tests" / "fixtures" / "valid"
CORPUS = REPO / "tests" / "corpus"
VARIANTS = sorted(p.name for p in DEPLOY.iterdir() if (p / "swervedrive.json").is_file())
BACKUP_NAME = re.compile(r"^\d{8}-\d{6}(-\d+)?$")

Files = dict[str, bytes]


class Crash(BaseException):
    """Stands for the process being killed: nothing but ``finally`` blocks runs after it."""


def copy_config(tmp_path: Path, source: str | Path = "swerve", name: str | None = None) -> Path:
    """A fresh copy of ``deploy/<source>`` (or of the directory ``source``) under ``tmp_path``."""
    origin = DEPLOY / source if isinstance(source, str) else source
    target = tmp_path / (name or origin.name)
    shutil.copytree(origin, target)
    return target


def snapshot(directory: Path) -> Files:
    """Every file of the directory (relative posix path → bytes), the backups excluded."""
    files: Files = {}
    for path in sorted(directory.rglob("*")):
        relative = path.relative_to(directory)
        if path.is_file() and relative.parts[0] != BACKUP_DIR:
            files[relative.as_posix()] = path.read_bytes()
    return files


def everything(directory: Path) -> Files:
    """Every file including backups and tool files: for "nothing was written" checks."""
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def backups(directory: Path) -> list[Path]:
    base = directory / BACKUP_DIR
    return sorted(base.iterdir()) if base.is_dir() else []


def crash_at(step: str) -> Callable[[str], None]:
    def hook(name: str) -> None:
        if name == step:
            raise Crash(step)

    return hook


@functools.cache
def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def leave_stale_lock(directory: Path) -> None:
    """What a killed tool leaves behind: its lock, naming a process that no longer runs."""
    (directory / LOCK_NAME).write_text(
        json.dumps({"pid": dead_pid(), "host": socket.gethostname()})
    )


def assert_clean(directory: Path) -> None:
    """No journal, temp or lock left over."""
    assert not (directory / JOURNAL_NAME).exists()
    assert not (directory / LOCK_NAME).exists()
    leftovers = [p for p in directory.rglob(f"*{TEMP_SUFFIX}")]
    assert leftovers == []


def check_crash_at_every_step(
    make: Callable[[str], Path], operation: Callable[[Path, Callable[[str], None] | None], object]
) -> list[str]:
    """Run ``operation`` once through, recording its write steps; then, on fresh directories,
    kill it after each step, leave a stale lock as a killed process would, recover, and check the
    directory is entirely old or entirely new (new exactly once the journal was written), with the
    backup of the old files present whenever the new state is there. Returns the steps."""
    reference = make("reference")
    old = snapshot(reference)
    steps: list[str] = []
    operation(reference, steps.append)
    new = snapshot(reference)
    assert new != old
    assert steps[0] == "backup" and steps[-1] == "done" and "journal" in steps
    journal_at = steps.index("journal")
    for index, step in enumerate(steps):
        directory = make(f"crash-{index}")
        try:
            operation(directory, crash_at(step))
        except Crash:
            pass
        else:
            raise AssertionError(f"no crash at {step}")
        if index >= journal_at and step != "done":
            assert (directory / JOURNAL_NAME).exists(), step
        leave_stale_lock(directory)
        notes = recover(directory)
        assert any("stale lock" in note for note in notes), (step, notes)
        state = snapshot(directory)
        expected = new if index >= journal_at else old
        assert state == expected, f"after a crash at {step!r} the directory is neither old nor new"
        assert_clean(directory)
        if state == new:
            found = backups(directory)
            assert len(found) == 1, step
            for relative, data in old.items():
                if new.get(relative) != data:
                    assert (found[0] / relative).read_bytes() == data, (step, relative)
    return steps
