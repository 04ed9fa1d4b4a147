"""``<directory>/.swervelib.lock``: one configuration-writing tool at a time per directory.

The lock is an operating-system lock on the lock file (``fcntl.flock`` on Linux and macOS, a
``msvcrt`` byte lock on Windows), and the file's content is only the *record* of who holds it
(pid, host, start time, command line). The kernel drops the lock when its holder exits, however it
exits, so a lock left by a killed tool is never "broken" by renaming or deleting files: the next
tool simply gets the OS lock, notes the previous record, and writes its own. There is no window in
which two tools both believe they hold it, and a kill at any point leaves at worst a lock file that
nobody holds, which the next run takes over (an empty one silently).

Taking it (:meth:`DirectoryLock.acquire`):

1. open (creating) the lock file, never through a symbolic link, without blocking on a FIFO;
2. take the OS lock without waiting; if another tool holds it, refuse, naming it from its record
   (an empty record is a tool just starting or a ``--dry-run`` looking: try again a few times);
3. check that the path still names the file locked: the previous holder deletes the file while
   it holds it, so a file opened just before that is locked "successfully" but is no longer the
   lock; then start again from 1 (not needed on Windows, where a file that another program has
   open cannot be deleted);
4. read the previous record (a tool that was killed, worth a note), then replace it with ours.

Releasing empties the record and deletes the file while still holding the OS lock (on Windows,
where an open file cannot be deleted, after unlocking; a file another tool has open stays, empty or
holding that tool's record). A record naming another host is not taken over (that host's tool may
still run on a shared drive), nor is a record in the format of older swervelib versions (which did
not use OS locks) whose process still runs.

Pure Python, no wpilib import.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import json
import os
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from swervelib.safe_read import describe_mode, describe_os_error
from swervelib.text import printable, shown_path

__all__ = ["LOCK_NAME", "DirectoryLock", "LockError", "pid_alive"]

LOCK_NAME: Final = ".swervelib.lock"
RECORD_FORMAT: Final = "os-lock"
"""The record's ``lock`` field: set by this implementation (older records have none)."""
MAX_RECORD_BYTES: Final = 1 << 16
BUSY_ATTEMPTS: Final = 50
"""How often a lock held with an empty record (a tool starting) is tried again before refusing."""
BUSY_PAUSE_S: Final = 0.01
REOPEN_ATTEMPTS: Final = 100
"""How often to reopen when the file locked was deleted by its previous holder meanwhile."""
_WINDOWS_LOCK_OFFSET: Final = 1 << 30  # the byte locked on Windows, far past the record

StepHook = Callable[[str], None]


class LockError(Exception):
    """The lock could not be taken (held by another tool, or the file cannot be used); nothing
    was changed."""


class _RecordFailed(LockError):
    pass


class _Outcome(enum.Enum):
    TAKEN = "taken"
    BUSY = "busy"  # held, with no record yet: try again shortly
    REOPEN = "reopen"  # the file locked is no longer the lock file


if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int, *, shared: bool = False) -> bool:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int, *, shared: bool = False) -> bool:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine (never signals it)."""
    if pid <= 0:
        return False
    if sys.platform == "win32":
        import ctypes

        kernel32 = ctypes.windll.kernel32
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return bool(kernel32.GetLastError() == 5)  # access denied: it exists
        try:
            code = ctypes.c_ulong()
            if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
                return True
            return code.value == 259  # STILL_ACTIVE
        finally:
            kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists but belongs to someone else
    try:  # a zombie (killed, not yet reaped) no longer holds anything
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _read_record(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks: list[bytes] = []
    total = 0
    while total < MAX_RECORD_BYTES:
        chunk = os.read(fd, MAX_RECORD_BYTES - total)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _same_file(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd``."""
    try:
        named = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    opened = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


class _Holder:
    """What a lock record says about its writer."""

    def __init__(self, raw: bytes) -> None:
        self.empty = not raw.strip()
        self.readable = False
        self.pid = 0
        self.host = ""
        self.modern = False
        self.description = "an unreadable lock file"
        if self.empty:
            self.description = "a tool that is starting"
            return
        try:
            info: Any = json.loads(raw.decode("utf-8"))
            self.pid = int(info["pid"])
            self.host = str(info.get("host") or "")
            self.modern = info.get("lock") == RECORD_FORMAT
            since = str(info.get("since") or "")
            command = str(info.get("command") or "")
        except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError):
            return
        self.readable = True
        who = f"process {self.pid}"
        if self.other_host:
            self.description = f"{who} on {printable(self.host, 100)}"
            return
        detail = ", ".join(p for p in (f"since {since}" if since else "", command) if p)
        self.description = f"{who} ({printable(detail, 160)})" if detail else who

    @property
    def other_host(self) -> bool:
        return bool(self.host) and self.host != socket.gethostname()

    def blocks(self) -> bool:
        """Whether this record, with nobody holding the OS lock, still forbids taking it."""
        if not self.readable:
            return False
        if self.other_host:
            return True  # its process cannot be checked from here
        return not self.modern and pid_alive(self.pid)  # an older swervelib version running

    def stale_note(self) -> str | None:
        if self.empty:
            return None
        if not self.readable:
            return "removed a stale lock file that was unreadable (no tool held it)"
        return f"removed a stale lock left by {self.description}, which is no longer running"


def _record() -> bytes:
    command = " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]) if sys.argv else ""
    return json.dumps(
        {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": time.strftime("%Y-%m-%d %H:%M:%S"),
            "command": command,
            "lock": RECORD_FORMAT,
        }
    ).encode("utf-8", "backslashreplace")


class DirectoryLock:
    """The lock of one configuration directory (see the module docstring).

    ``step_hook`` is for tests: it is called with ``lock open``, ``lock taken``, ``lock written``,
    ``unlock emptied`` and ``unlock removed`` after each of those steps, so a test can kill the
    process there.
    """

    def __init__(self, directory: Path, *, step_hook: StepHook | None = None) -> None:
        self.path = directory / LOCK_NAME
        self.step_hook = step_hook
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def _step(self, name: str) -> None:
        if self.step_hook is not None:
            self.step_hook(name)

    def _where(self) -> str:
        return shown_path(self.path)

    def refusal(self, who: str) -> LockError:
        return LockError(
            f"{shown_path(self.path.parent)} is being edited by another swervelib tool "
            f"({who}); wait for it to finish and try again. If no swervelib tool is running, "
            f"delete {self._where()}"
        )

    def _open(self, *, create: bool) -> int | None:
        """The lock file opened (None: absent and ``create`` is False)."""
        flags = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
        flags |= getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
        flags |= (os.O_RDWR | os.O_CREAT) if create else os.O_RDONLY
        if os.path.islink(self.path):  # O_NOFOLLOW refuses it too (Windows has no O_NOFOLLOW)
            raise self._unusable("is a symbolic link")
        try:
            fd = os.open(self.path, flags, 0o644)
        except FileNotFoundError:
            if create:
                raise LockError(
                    f"cannot create the lock file {self._where()}: the directory does not exist"
                ) from None
            return None
        except OSError as error:
            if os.path.islink(self.path):
                raise self._unusable("is a symbolic link") from None
            if error.errno == errno.EISDIR or os.path.isdir(self.path):
                raise self._unusable("is a directory") from None
            cause = describe_os_error(error)
            if create and not os.path.lexists(self.path):
                raise LockError(
                    f"cannot create the lock file {self._where()}: {cause}; nothing was changed"
                ) from None
            raise self._unusable(f"cannot be opened: {cause}") from None
        try:
            wrong = describe_mode(os.fstat(fd).st_mode)
            if wrong is not None:
                raise self._unusable(wrong.split(",")[0])  # "is a FIFO (named pipe)"
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _unusable(self, cause: str) -> LockError:
        return LockError(
            f"the lock file {self._where()} {cause}; nothing was changed. If no swervelib tool is "
            "running, delete it and try again"
        )

    def check_free(self) -> None:
        """For a read-only run (``--dry-run``): refuse if another tool holds the lock, writing
        nothing (a lock file that does not exist is not created)."""
        fd = self._open(create=False)
        if fd is None:
            return
        try:
            if _try_lock(fd, shared=True):
                holder = _Holder(_read_record(fd))
                _unlock(fd)
                if holder.blocks():
                    raise self.refusal(holder.description)
                return
            raise self.refusal(_Holder(_read_record(fd)).description)
        except OSError as error:
            raise self._unusable(f"cannot be locked: {describe_os_error(error)}") from None
        finally:
            os.close(fd)

    def acquire(self, notes: list[str]) -> None:
        """Take the lock or raise :class:`LockError`; a note about a stale lock taken over is
        appended to ``notes``."""
        if self._fd is not None:
            raise LockError(f"{self._where()} is already held by this editor")
        busy = 0
        for _attempt in range(REOPEN_ATTEMPTS):
            fd = self._open(create=True)
            assert fd is not None
            try:
                outcome = self._take(fd, notes, patient=busy < BUSY_ATTEMPTS)
            except BaseException as error:
                os.close(fd)  # drops the OS lock, as a killed process would
                if isinstance(error, _RecordFailed) and sys.platform == "win32":
                    with contextlib.suppress(OSError):
                        os.unlink(self.path)  # an open file cannot be deleted on Windows
                if isinstance(error, OSError):  # e.g. a file system without locks
                    raise self._unusable(f"cannot be locked: {describe_os_error(error)}") from None
                raise
            if outcome is _Outcome.TAKEN:
                self._fd = fd
                self._remove_litter()
                return
            os.close(fd)
            if outcome is _Outcome.BUSY:
                busy += 1
                time.sleep(BUSY_PAUSE_S)
        raise self.refusal("other tools that keep taking it")

    def _take(self, fd: int, notes: list[str], *, patient: bool) -> _Outcome:
        self._step("lock open")
        if not _try_lock(fd):
            holder = _Holder(_read_record(fd))
            if patient and (holder.empty or not holder.readable):
                return _Outcome.BUSY  # a tool between its lock and its record, or a dry run
            raise self.refusal(holder.description)
        if sys.platform != "win32" and not _same_file(fd, self.path):
            return _Outcome.REOPEN  # deleted by the holder that just released it
        # (On Windows a file open elsewhere cannot be deleted, so what is locked is the lock.)
        self._step("lock taken")
        previous = _Holder(_read_record(fd))
        if previous.blocks():
            raise self.refusal(previous.description)
        self._write(fd, _record())
        self._step("lock written")
        note = previous.stale_note()
        if note is not None:
            notes.append(note)
        return _Outcome.TAKEN

    def _write(self, fd: int, record: bytes) -> None:
        try:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            view = memoryview(record)
            while view:
                view = view[os.write(fd, view) :]
        except OSError as error:
            # Disk full (or similar): leave no lock file behind. We hold the OS lock and checked
            # that the path is this file, so deleting it cannot remove another tool's lock.
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            if sys.platform != "win32":
                with contextlib.suppress(OSError):
                    os.unlink(self.path)
            raise _RecordFailed(
                f"cannot write the lock file {self._where()}: {describe_os_error(error)}; "
                "nothing was changed"
            ) from None

    def _remove_litter(self) -> None:
        """Delete ``.swervelib.lock.stale-*`` files left by older swervelib versions."""
        with contextlib.suppress(OSError), os.scandir(self.path.parent) as entries:
            for entry in entries:
                if entry.name.startswith(f"{LOCK_NAME}.stale-"):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)

    def release(self) -> None:
        """Give the lock up: empty the record, delete the file, drop the OS lock."""
        fd = self._fd
        if fd is None:
            return
        self._fd = None
        try:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            self._step("unlock emptied")
            if sys.platform == "win32":
                with contextlib.suppress(OSError):
                    _unlock(fd)
                os.close(fd)
                fd = None
                with contextlib.suppress(OSError):  # fails while another tool has it open
                    os.unlink(self.path)
            elif _same_file(fd, self.path):
                with contextlib.suppress(OSError):
                    os.unlink(self.path)
            self._step("unlock removed")
        finally:
            if fd is not None:
                os.close(fd)
