"""Disk full at every write a command makes: nothing changed, nothing left, and it says so.

Every call that can need disk space (``os.open`` creating a file, ``os.write``, ``os.mkdir``,
``os.fsync`` of a file) is counted during a run; then the run is repeated on fresh copies, failing
the 1st, the 2nd, ... of those calls with ``ENOSPC``.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from swervelib.cli.main import main
from swervelib.tools.eight_step import eight_step
from tests.tools import backups, copy_config, everything, snapshot


class DiskFull:
    """Counts the calls that may need space; the ``fail_at``-th raises ENOSPC."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        self.fail_at: int | None = None
        self.failed: str | None = None
        self._real: dict[str, Callable[..., Any]] = {
            name: getattr(os, name) for name in ("open", "write", "mkdir", "fsync", "fstat")
        }
        for name in ("open", "write", "mkdir", "fsync"):
            monkeypatch.setattr(os, name, self._wrap(name))

    def _needs_space(self, name: str, args: tuple[Any, ...]) -> bool:
        if name == "open":
            return bool(args[1] & os.O_CREAT)
        if name == "fsync":
            return stat.S_ISREG(self._real["fstat"](args[0]).st_mode)
        return True

    def _wrap(self, name: str) -> Callable[..., Any]:
        real = self._real[name]

        def call(*args: Any, **options: Any) -> Any:
            if self._needs_space(name, args):
                self.count += 1
                if self.count == self.fail_at:
                    self.failed = f"{name}{args[:1]}"
                    raise OSError(errno.ENOSPC, "No space left on device")
            return real(*args, **options)

        return call

    def reset(self, fail_at: int | None) -> None:
        self.count, self.fail_at, self.failed = 0, fail_at, None


def tree(directory: Path) -> list[str]:
    return sorted(p.relative_to(directory).as_posix() for p in directory.rglob("*"))


def at_step(step: int) -> Callable[[Path], None]:
    def prepare(directory: Path) -> None:
        eight_step(directory, step)
        for backup in backups(directory):  # only the backups of the run under test matter
            for path in sorted(backup.rglob("*"), reverse=True):
                path.unlink() if path.is_file() else path.rmdir()
            backup.rmdir()
        (directory / ".swervelib-backups").rmdir()

    return prepare


COMMANDS: dict[str, tuple[list[str], Callable[[Path], None] | None]] = {
    "flip": (["flip"], None),
    "offsets": (["offsets", "--add", "180"], None),
    "eight-step-5": (["eight-step", "--step", "5"], None),  # first step: remembers the start
    "eight-step-restore": (["eight-step", "--restore"], at_step(5)),
}


@pytest.mark.parametrize("command", COMMANDS)
def test_disk_full_at_every_write_changes_nothing_and_says_so(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    argv, prepare = COMMANDS[command]
    scratch = tmp_path / "tmp"  # the check of the result writes a scratch copy here
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))

    def fresh(name: str) -> Path:
        directory = copy_config(tmp_path, name=name)
        if prepare is not None:
            prepare(directory)
        return directory

    def run(directory: Path) -> tuple[int, str, str]:
        code = main([argv[0], str(directory), *argv[1:]])
        out, err = capsys.readouterr()
        return code, out, err

    reference = fresh("reference")
    disk = DiskFull(monkeypatch)
    code, _, err = run(reference)
    total = disk.count
    assert (code, err) == (0, "") and total >= 10
    for fail_at in range(1, total + 1):
        directory = fresh(f"full-{fail_at}")
        names, files = tree(directory), everything(directory)
        disk.reset(fail_at)
        code, out, err = run(directory)
        where = (fail_at, disk.failed, err)
        assert disk.failed is not None, where
        assert (code, out) == (1, ""), where
        assert err.startswith("error: ") and len(err.splitlines()) == 1, where
        assert "no space left on device" in err and "nothing was changed" in err, where
        assert tree(directory) == names, where  # no backup folder, lock, temp or journal
        assert everything(directory) == files, where
        assert list(scratch.iterdir()) == [], where
    disk.reset(None)
    code, _, err = run(directory)  # the same command then works
    assert (code, err) == (0, "")
    assert snapshot(directory) == snapshot(reference)
