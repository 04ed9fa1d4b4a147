"""The on-disk half of a :class:`~swervelib.tools.edit.ConfigEditor` commit, and its recovery.

:func:`write` replaces a set of files of one configuration directory as one transaction (the
caller holds the directory lock). In order (``step`` is called after each step, with its name):

1. ``backup``: every file about to be replaced or deleted is copied into
   ``.swervelib-backups/.incomplete-<random>/``, beside :data:`WHAT_PENDING` (one line: what the
   edit is, e.g. ``migrate``), fsynced, and the folder is then renamed to
   ``.swervelib-backups/<YYYYmmdd-HHMMSS[-n]>/``: a backup folder is complete or absent.
2. ``temp <file>``: each new content is written to ``.<name>.swervelib-new`` beside its file and
   fsynced.
3. ``journal``: ``.swervelib-journal.json`` (the temp → final pairs with the SHA-256 of each new
   content, and the backup's name) is written to a temporary name, fsynced and renamed into place,
   so it is either complete or absent. The edit is now bound to happen, so the backup's
   :data:`WHAT_PENDING` is renamed :data:`WHAT_NAME`: a backup says what made it (read by
   :func:`backup_what`) exactly when that edit was made.
4. ``replace <file>`` / ``delete <file>``: ``os.replace`` of each temp onto its file.
5. ``done``: the journal is removed.

Everything that needs disk space happens before step 3. An ordinary failure there (disk full,
permission denied) removes the temps, the new backup and the journal's temporary file and raises
:class:`TransactionError` saying that nothing was changed; a failure after it finishes the edit at
once. A process killed before step 3 leaves the old files plus litter; one killed after it leaves a
journal. :func:`recover` (run by the next editor, holding the lock) rolls a complete journal
forward (renaming its backup's :data:`WHAT_PENDING` if that was not done yet), otherwise back from
its backup (whose :data:`WHAT_NAME` is then removed: that edit never happened), and deletes temps,
incomplete backup folders and the :data:`WHAT_PENDING` of a backup whose edit never got a journal,
so the directory is only ever observed entirely old or entirely new, and no backup claims an edit
that was not made.

Pure Python, no wpilib import.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import shutil
import stat
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Final

from swervelib.safe_read import MAX_FILE_BYTES, UnreadableFile, describe_os_error, read_optional
from swervelib.text import printable, shown_path

__all__ = [
    "BACKUP_DIR",
    "INCOMPLETE_PREFIX",
    "JOURNAL_NAME",
    "RESTORE_SUFFIX",
    "TEMP_SUFFIX",
    "WHAT_NAME",
    "WHAT_PENDING",
    "Op",
    "StepHook",
    "TransactionError",
    "backup_what",
    "read",
    "recover",
    "refuse_link",
    "write",
]

JOURNAL_NAME: Final = ".swervelib-journal.json"
BACKUP_DIR: Final = ".swervelib-backups"
INCOMPLETE_PREFIX: Final = ".incomplete-"
TEMP_SUFFIX: Final = ".swervelib-new"
RESTORE_SUFFIX: Final = ".swervelib-restore"
WHAT_NAME: Final = "swervelib-what.txt"  # in a backup folder: what the edit that made it was
WHAT_PENDING: Final = "swervelib-what.pending"  # the same, until that edit's journal is written
_WHAT_LIMIT: Final = 4096
JOURNAL_VERSION: Final = 1
NOTHING_CHANGED: Final = "nothing was changed"

StepHook = Callable[[str], None]


class TransactionError(Exception):
    """A write or a recovery that failed, with a one-line reason saying what state the files are
    in."""


class _Failed(Exception):
    """An ``OSError`` with what was being done when it happened."""

    def __init__(self, what: str, error: OSError) -> None:
        self.what = what
        self.cause = describe_os_error(error)
        super().__init__(f"{what}: {self.cause}")


@contextlib.contextmanager
def _doing(what: str) -> Iterator[None]:
    try:
        yield
    except OSError as error:
        raise _Failed(what, error) from None


def _explain(error: BaseException) -> str:
    """A short cause for any failure (never empty)."""
    if isinstance(error, OSError):
        return describe_os_error(error)
    return str(error) or type(error).__name__


@dataclass(frozen=True, slots=True)
class Op:
    """One file of a transaction: ``data`` None deletes it; ``original`` is what must be on disk
    now (None: no file)."""

    path: str
    data: bytes | None
    original: bytes | None

    @property
    def existed(self) -> bool:
        return self.original is not None


# -- file system helpers ----------------------------------------------------------------------------


def read(path: Path, *, follow_symlinks: bool = True) -> bytes | None:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES` (None: no file there);
    :class:`TransactionError` naming the real cause for anything else."""
    try:
        return read_optional(path, limit=MAX_FILE_BYTES, follow_symlinks=follow_symlinks)
    except UnreadableFile as error:
        raise TransactionError(str(error)) from None


def refuse_link(directory: Path, relative: str) -> None:
    """Refuse to replace a symbolic link (writing a new file would turn it into a plain file)."""
    path = directory / relative
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return
        target = printable(os.readlink(path), 200)
    except OSError:
        return
    raise TransactionError(
        f"{shown_path(path)} is a symbolic link (to {target}); the tools write a new file in its "
        f"place, which would replace the link with a plain file, so {NOTHING_CHANGED}. Edit the "
        "file it points to by hand, or replace the link with a copy of that file"
    )


def fsync_dir(path: Path) -> None:
    if os.name == "nt":  # directories cannot be opened (nor need fsync) on Windows
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_new(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Write ``data`` as a new file at ``path`` (removing what was there), fsynced; on failure no
    file is left at ``path``."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags | getattr(os, "O_BINARY", 0), 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if sync:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    os.close(fd)


def make_dirs(path: Path, created: list[Path] | None = None) -> None:
    """``mkdir -p`` through ``os.mkdir`` (so its failures are those of ``os.mkdir``); the folders
    made are appended to ``created``."""
    missing: list[Path] = []
    current = path
    while not current.is_dir():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder)
        except FileExistsError:
            continue
        if created is not None:
            created.append(folder)


def _remove_folders(folders: list[Path]) -> None:
    """Remove folders made for a transaction that failed (the newest first, only if empty)."""
    for folder in reversed(folders):
        with contextlib.suppress(OSError):
            folder.rmdir()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def temp_name(relative: str, suffix: str) -> str:
    pure = PurePosixPath(relative)
    return str(pure.with_name(f".{pure.name}{suffix}"))


def _inside(text: Any) -> str:
    """A journal's path, checked to be a relative path inside the directory."""
    if not isinstance(text, str):
        raise ValueError(f"{printable(repr(text), 100)} is not a path")
    pure = PurePosixPath(text.replace("\\", "/"))
    if not text or pure.is_absolute() or ":" in text or ".." in pure.parts or not pure.parts:
        raise ValueError(f"`{printable(text, 100)}` is not a path inside the directory")
    return pure.as_posix()


def _remove_empty_parents(directory: Path, relative: str) -> None:
    parent = (directory / relative).parent
    while parent != directory and directory in parent.parents:
        try:
            parent.rmdir()
        except OSError:
            return
        parent = parent.parent


def _stray_temps(directory: Path) -> list[Path]:
    found: list[Path] = []
    for root, dirs, files in os.walk(directory):
        if Path(root) == directory:
            dirs[:] = [d for d in dirs if d != BACKUP_DIR]
        for name in files:
            if name.endswith((TEMP_SUFFIX, RESTORE_SUFFIX)) or name == f"{JOURNAL_NAME}.tmp":
                found.append(Path(root) / name)
    return found


def _remove_strays(directory: Path) -> None:
    for stray in _stray_temps(directory):
        with contextlib.suppress(FileNotFoundError):
            stray.unlink()


def _remove_incomplete_backups(directory: Path) -> None:
    base = directory / BACKUP_DIR
    try:
        entries = list(os.scandir(base))
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(INCOMPLETE_PREFIX):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:  # a complete backup whose edit was killed before its journal: it was never made
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(entry.path, WHAT_PENDING))
    with contextlib.suppress(OSError):
        base.rmdir()  # only when empty: left by a tool killed right after creating it


# -- writing ----------------------------------------------------------------------------------------


class _Backup:
    """A backup folder being made: complete and renamed into place, or removed."""

    def __init__(self, directory: Path) -> None:
        self.base = directory / BACKUP_DIR
        self.made_base = False
        self.path: Path | None = None

    def make(self, ops: list[Op], what: str | None = None) -> Path | None:
        existing = [op for op in ops if op.original is not None]
        if not existing:
            return None
        with _doing(f"cannot create the backup folder {shown_path(self.base)}"):
            try:
                os.mkdir(self.base)
                self.made_base = True
            except FileExistsError:
                if not self.base.is_dir():
                    raise
        staging = self.base / f"{INCOMPLETE_PREFIX}{uuid.uuid4().hex}"
        self.path = staging
        with _doing(f"cannot create the backup folder {shown_path(staging)}"):
            os.mkdir(staging)
        for op in existing:
            assert op.original is not None
            target = staging / op.path
            with _doing(f"cannot write the backup of {shown_path(op.path)}"):
                make_dirs(target.parent)
                write_new(target, op.original)
                fsync_dir(target.parent)
        if what is not None and all(op.path not in (WHAT_NAME, WHAT_PENDING) for op in ops):
            with _doing(f"cannot write {shown_path(staging / WHAT_PENDING)}"):
                write_new(staging / WHAT_PENDING, f"{printable(what, None)}\n".encode())
        fsync_dir(staging)
        self.path = self._place(staging)
        fsync_dir(self.base)
        return self.path

    def _place(self, staging: Path) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for n in range(1, 1000):
            final = self.base / (stamp if n == 1 else f"{stamp}-{n}")
            try:
                os.rename(staging, final)  # onto an existing folder: refused unless it is empty
            except OSError as error:
                taken = error.errno in (errno.EEXIST, errno.ENOTEMPTY)
                if taken or (sys.platform == "win32" and isinstance(error, FileExistsError)):
                    continue
                raise _Failed(f"cannot name the backup folder {shown_path(final)}", error) from None
            return final
        raise TransactionError(f"too many backups named {stamp}-* in {shown_path(self.base)}")

    def discard(self) -> None:
        if self.path is not None:
            shutil.rmtree(self.path, ignore_errors=True)
            self.path = None
        if self.made_base:
            with contextlib.suppress(OSError):
                self.base.rmdir()


def write(directory: Path, ops: list[Op], step: StepHook, what: str | None = None) -> Path | None:
    """Replace (or delete) every file of ``ops`` as one transaction; returns the backup folder
    (None when no file existed), which holds ``what`` (when given) in :data:`WHAT_NAME`.
    :class:`TransactionError` when a file changed since it was read or writing failed; its
    message says whether anything was changed."""
    for op in ops:  # nobody changed the files since they were read
        refuse_link(directory, op.path)
        if read(directory / op.path) != op.original:
            raise TransactionError(
                f"{shown_path(op.path)} changed on disk while it was being edited; {NOTHING_CHANGED}. "
                "Run the command again."
            )
    backup = _Backup(directory)
    try:
        made = backup.make(ops, what)
        step("backup")
    except Exception as error:
        backup.discard()
        if isinstance(error, TransactionError):
            raise
        raise TransactionError(
            f"could not back up the files ({_explain(error)}); {NOTHING_CHANGED}"
        ) from None
    journal_written = False
    created: list[Path] = []
    try:
        entries = _write_temps(directory, ops, step, created)
        journal = {
            "version": JOURNAL_VERSION,
            "backup": None if made is None else made.relative_to(directory).as_posix(),
            "ops": entries,
        }
        pending = directory / f"{JOURNAL_NAME}.tmp"
        with _doing("cannot write the journal"):
            write_new(pending, json.dumps(journal, indent=1).encode("utf-8"))
            os.replace(pending, directory / JOURNAL_NAME)
        fsync_dir(directory)
        journal_written = True
        step("journal")
        if made is not None:
            _confirm_what(made)
        for op, entry in zip(ops, entries, strict=True):
            final = directory / op.path
            if op.data is None:
                with _doing(f"cannot delete {shown_path(op.path)}"):
                    final.unlink(missing_ok=True)
                _remove_empty_parents(directory, op.path)
                step(f"delete {op.path}")
            else:
                with _doing(f"cannot replace {shown_path(op.path)}"):
                    os.replace(directory / entry["temp"], final)
                step(f"replace {op.path}")
            fsync_dir(final.parent)
        with _doing("cannot remove the journal"):
            (directory / JOURNAL_NAME).unlink()
        fsync_dir(directory)
        step("done")
    except Exception as error:
        # An ordinary failure (disk full, a file held open on Windows): finish or undo now.
        # A kill (or KeyboardInterrupt) skips this; the next open recovers instead.
        if not journal_written:
            with contextlib.suppress(OSError):
                _remove_strays(directory)
            _remove_folders(created)
            backup.discard()
            raise TransactionError(
                f"could not write the files ({_explain(error)}); {NOTHING_CHANGED}"
            ) from None
        try:
            note = recover(directory)
        except TransactionError as again:
            raise TransactionError(
                f"writing failed ({_explain(error)}) and could not be completed ({again}); the "
                "next swervelib tool run on this directory completes or undoes it"
            ) from None
        raise TransactionError(f"writing failed ({_explain(error)}); {note}") from None
    return made


def _write_temps(
    directory: Path, ops: list[Op], step: StepHook, created: list[Path]
) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    for op in ops:
        if op.data is None:
            entries.append({"path": op.path, "delete": True, "existed": op.existed})
            continue
        temp = temp_name(op.path, TEMP_SUFFIX)
        final = directory / op.path
        with _doing(f"cannot write {shown_path(op.path)}"):
            make_dirs((directory / temp).parent, created)
            write_new(directory / temp, op.data)
        if op.original is not None:
            with contextlib.suppress(OSError):
                os.chmod(directory / temp, stat.S_IMODE(os.stat(final).st_mode))
        entries.append(
            {"path": op.path, "temp": temp, "sha256": sha256(op.data), "existed": op.existed}
        )
        step(f"temp {op.path}")
    return entries


def _confirm_what(backup: Path) -> None:
    """The edit ``backup`` was made for is bound to happen (its journal is written): the backup
    now says what it was."""
    pending = backup / WHAT_PENDING
    if not os.path.lexists(pending):
        return
    with _doing(f"cannot rename {shown_path(pending)}"):
        os.replace(pending, backup / WHAT_NAME)
    fsync_dir(backup)


def backup_what(backup: Path) -> str | None:
    """What the edit that made the backup folder ``backup`` was (its :data:`WHAT_NAME`, one
    line), or None when it does not say (made before swervelib kept it, for an edit that never
    happened, or unreadable)."""
    try:
        data = read_optional(backup / WHAT_NAME, limit=_WHAT_LIMIT, follow_symlinks=False)
    except UnreadableFile:
        return None
    if data is None:
        return None
    return data.decode("utf-8", "replace").strip()


# -- recovery ---------------------------------------------------------------------------------------


def _journal_ops(directory: Path, raw: bytes) -> tuple[str | None, list[dict[str, Any]]]:
    try:
        journal = json.loads(raw.decode("utf-8"))
        if journal.get("version") != JOURNAL_VERSION or not isinstance(journal["ops"], list):
            raise ValueError("unknown journal version")
        backup = journal.get("backup")
        if backup is not None:
            backup = _inside(backup)
        ops: list[dict[str, Any]] = journal["ops"]
        for op in ops:
            op["path"] = _inside(op["path"])
            if not op.get("delete"):
                op["temp"] = _inside(op["temp"])
                if not isinstance(op["sha256"], str):
                    raise ValueError("a sha256 is not text")
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise TransactionError(
            f"{shown_path(directory / JOURNAL_NAME)} is unreadable ({printable(str(error), 200)}); an "
            "interrupted edit cannot be completed automatically: compare the files with the "
            f"newest backup in {shown_path(directory / BACKUP_DIR)}, then delete the journal"
        ) from None
    return backup, ops


def recover(directory: Path) -> str | None:
    """Finish or undo an interrupted transaction and remove the litter of killed runs; the caller
    holds the lock. Returns a note when an edit was finished or undone."""
    try:
        return _recover(directory)
    except _Failed as error:
        raise TransactionError(
            f"an interrupted edit of {shown_path(directory)} could not be recovered ({error}); "
            "nothing more was changed: fix the cause and run the command again"
        ) from None


def _recover(directory: Path) -> str | None:
    journal_path = directory / JOURNAL_NAME
    note = None
    raw = read(journal_path, follow_symlinks=False)
    if raw is not None:
        backup, ops = _journal_ops(directory, raw)
        if _complete(directory, ops):
            for op in ops:
                final_path = directory / op["path"]
                if op.get("delete"):
                    with _doing(f"cannot delete {shown_path(op['path'])}"):
                        final_path.unlink(missing_ok=True)
                    _remove_empty_parents(directory, op["path"])
                elif (directory / op["temp"]).exists():
                    with _doing(f"cannot replace {shown_path(op['path'])}"):
                        os.replace(directory / op["temp"], final_path)
                fsync_dir(final_path.parent)
            if backup is not None:
                _confirm_what(directory / backup)
            note = "completed an edit that was interrupted (the journal was complete)"
        else:
            _roll_back(directory, backup, ops)
            if backup is not None:  # that edit never happened: its backup no longer says it did
                with _doing("cannot update the backup of the interrupted edit"):
                    (directory / backup / WHAT_NAME).unlink(missing_ok=True)
                    (directory / backup / WHAT_PENDING).unlink(missing_ok=True)
                fsync_dir(directory / backup)
            note = f"undid an edit that was interrupted, from the backup {printable(str(backup))}"
    with _doing("cannot remove temporary files"):
        _remove_strays(directory)
    _remove_incomplete_backups(directory)
    if raw is not None:
        with _doing("cannot remove the journal"):
            journal_path.unlink(missing_ok=True)
        fsync_dir(directory)
    return note


def _complete(directory: Path, ops: list[dict[str, Any]]) -> bool:
    """Whether every new content is present (as its temp, or already in place)."""
    for op in ops:
        if op.get("delete"):
            continue
        temp = read(directory / op["temp"], follow_symlinks=False)
        if temp is not None and sha256(temp) == op["sha256"]:
            continue
        final = read(directory / op["path"])
        if temp is None and final is not None and sha256(final) == op["sha256"]:
            continue
        return False
    return True


def _roll_back(directory: Path, backup: str | None, ops: list[dict[str, Any]]) -> None:
    journal_path = directory / JOURNAL_NAME
    if backup is None:
        raise TransactionError(
            f"{shown_path(journal_path)}: an interrupted edit is incomplete and names no backup; "
            "restore the files by hand, then delete the journal"
        )
    for op in ops:
        final_path = directory / op["path"]
        if op.get("existed"):
            old = read(directory / backup / op["path"], follow_symlinks=False)
            if old is None:
                raise TransactionError(
                    f"an interrupted edit cannot be undone: the backup of {shown_path(op['path'])} "
                    f"is missing from {shown_path(directory / backup)}"
                )
            if read(final_path) != old:
                restore = directory / temp_name(op["path"], RESTORE_SUFFIX)
                with _doing(f"cannot restore {shown_path(op['path'])}"):
                    make_dirs(restore.parent)
                    write_new(restore, old)
                    os.replace(restore, final_path)
        else:
            with _doing(f"cannot delete {shown_path(op['path'])}"):
                final_path.unlink(missing_ok=True)
            _remove_empty_parents(directory, op["path"])
        fsync_dir(final_path.parent)
