"""Read a small file without trusting what is at its path.

A configuration directory can hold anything under a file's name: a FIFO (opening it for reading
waits for a writer forever), ``/dev/zero`` or a 6 GiB file (reading it whole exhausts memory), a
directory, a symbolic link, a file the user may not read. :func:`read_file` opens the path with
``O_NONBLOCK`` (so a FIFO cannot hang the open), refuses anything that is not a regular file (from
``fstat`` of the opened descriptor, so the path cannot be swapped in between), checks the size
*before* reading, and reads at most ``limit + 1`` bytes (a file growing meanwhile is caught too).
Every failure is an :class:`UnreadableFile` whose :attr:`~UnreadableFile.reason` names the real
cause: ``is a FIFO (named pipe), not a regular file``, ``cannot be read: permission denied``,
``is too large (6442450944 bytes, at most 1048576)``, ``does not exist``.

:func:`describe_os_error` turns any ``OSError`` (of a read or a write) into a short cause such as
``no space left on device`` for one-line messages. Pure Python, no wpilib import.
"""

from __future__ import annotations

import enum
import errno
import os
import stat
from typing import Final

from swervelib.text import printable

__all__ = [
    "MAX_FILE_BYTES",
    "Problem",
    "UnreadableFile",
    "describe_mode",
    "describe_os_error",
    "read_file",
    "read_optional",
]

MAX_FILE_BYTES: Final = 1 << 20
"""The largest configuration file read (bytes); a file of exactly this size is accepted. The same
limit as ``swervelib.config.loader.MAX_FILE_BYTES``."""

_CHUNK: Final = 1 << 16


class Problem(enum.Enum):
    """Why a file could not be read."""

    MISSING = "missing"
    PERMISSION = "permission"
    DIRECTORY = "directory"
    FIFO = "fifo"
    CHAR_DEVICE = "character device"
    BLOCK_DEVICE = "block device"
    SOCKET = "socket"
    SYMLINK = "symlink"
    BROKEN_LINK = "broken link"
    NOT_REGULAR = "not regular"
    TOO_LARGE = "too large"
    OTHER = "other"


class UnreadableFile(Exception):
    """A file that was refused or could not be read (:attr:`problem` says why).

    ``str(error)`` is ``"<path> <reason>"`` (the path made printable), e.g.
    ``modules/frontleft.json is a FIFO (named pipe), not a regular file``. ``size`` is the file's
    size for :attr:`Problem.TOO_LARGE` (at least ``limit + 1`` when it grew while read).
    """

    def __init__(
        self,
        path: str,
        problem: Problem,
        reason: str,
        *,
        size: int | None = None,
        limit: int | None = None,
        errno_value: int | None = None,
    ) -> None:
        self.path = path
        self.problem = problem
        self.reason = reason
        self.size = size
        self.limit = limit
        self.errno = errno_value
        super().__init__(f"{printable(path)} {reason}")

    @property
    def missing(self) -> bool:
        return self.problem is Problem.MISSING


_CAUSES: Final[dict[int, str]] = {
    errno.ENOENT: "does not exist",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENOSPC: "no space left on device",
    errno.EROFS: "read-only file system",
    errno.EISDIR: "is a directory",
    errno.ENOTDIR: "a part of the path is not a directory",
    errno.ELOOP: "too many levels of symbolic links",
    errno.ENAMETOOLONG: "file name too long",
    errno.EIO: "input/output error",
    errno.EEXIST: "already exists",
    errno.EBUSY: "in use by another program",
    errno.EMFILE: "too many open files",
    errno.ENFILE: "too many open files",
    errno.ENOMEM: "out of memory",
    errno.EFBIG: "file too large",
    errno.EINVAL: "invalid argument",
    errno.EXDEV: "on another device",
}
if hasattr(errno, "EDQUOT"):
    _CAUSES[errno.EDQUOT] = "disk quota exceeded"


def describe_os_error(error: OSError) -> str:
    """A short, lower-case cause for ``error`` without the path (``permission denied``,
    ``no space left on device``); never empty."""
    number = error.errno
    if number is not None and number in _CAUSES:
        return _CAUSES[number]
    if error.strerror:
        text = error.strerror
    elif number is not None:
        text = os.strerror(number)
    else:
        text = str(error.args[0]) if error.args else ""
    text = printable(text.strip(), 120)
    if not text:
        return type(error).__name__
    return text[:1].lower() + text[1:]


def _kind(mode: int) -> tuple[Problem, str] | None:
    """The problem with a file of ``mode`` (None: a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return Problem.DIRECTORY, "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return Problem.FIFO, "is a FIFO (named pipe), not a regular file"
    if stat.S_ISCHR(mode):
        return Problem.CHAR_DEVICE, "is a character device, not a regular file"
    if stat.S_ISBLK(mode):
        return Problem.BLOCK_DEVICE, "is a block device, not a regular file"
    if stat.S_ISSOCK(mode):
        return Problem.SOCKET, "is a socket, not a regular file"
    if stat.S_ISLNK(mode):
        return Problem.SYMLINK, "is a symbolic link"
    return Problem.NOT_REGULAR, "is not a regular file"


def describe_mode(mode: int) -> str | None:
    """What is wrong with a file of ``mode`` (``st_mode``) for reading it as a file, e.g.
    ``is a FIFO (named pipe), not a regular file``; None for a regular file."""
    kind = _kind(mode)
    return None if kind is None else kind[1]


def _link_target(path: str) -> str:
    try:
        return printable(os.readlink(path), 120)
    except (OSError, ValueError):
        return "?"


def _from_os_error(path: str, error: OSError, verb: str = "cannot be read") -> UnreadableFile:
    number = error.errno
    if number in (errno.ENOENT, errno.ENOTDIR):
        try:
            os.lstat(path)
        except (OSError, ValueError):
            reason = "does not exist"
        else:  # the name exists: a link to nothing
            return UnreadableFile(
                path,
                Problem.BROKEN_LINK,
                f"is a symbolic link to {_link_target(path)}, which does not exist",
                errno_value=number,
            )
        return UnreadableFile(path, Problem.MISSING, reason, errno_value=number)
    if number in (errno.EACCES, errno.EPERM):
        if os.path.isdir(path):  # Windows refuses to open a directory with EACCES
            return UnreadableFile(path, Problem.DIRECTORY, "is a directory, not a file")
        return UnreadableFile(
            path, Problem.PERMISSION, f"{verb}: permission denied", errno_value=number
        )
    if number == errno.EISDIR:
        return UnreadableFile(path, Problem.DIRECTORY, "is a directory, not a file")
    return UnreadableFile(
        path, Problem.OTHER, f"{verb}: {describe_os_error(error)}", errno_value=number
    )


def _refuse_symlink(path: str) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        return  # the open reports it
    if stat.S_ISLNK(mode):
        raise UnreadableFile(
            path, Problem.SYMLINK, f"is a symbolic link (to {_link_target(path)}), not a file"
        )


def _refuse_special(path: str, follow_symlinks: bool) -> None:
    try:
        mode = os.stat(path, follow_symlinks=follow_symlinks).st_mode
    except (OSError, ValueError):
        return  # the open reports it
    kind = _kind(mode)
    if kind is not None and kind[0] is not Problem.SYMLINK:
        raise UnreadableFile(path, kind[0], kind[1])


def read_file(
    path: str | os.PathLike[str],
    *,
    limit: int | None = MAX_FILE_BYTES,
    follow_symlinks: bool = True,
) -> bytes:
    """The bytes of the regular file at ``path``; :class:`UnreadableFile` for anything else.

    ``limit``: the largest size accepted (None: no limit), checked with ``fstat`` of the opened
    file before reading. ``follow_symlinks=False`` refuses a symbolic link at ``path`` itself
    (:attr:`Problem.SYMLINK`); links in the directories above it are followed either way.
    """
    name = os.fspath(path)
    if not follow_symlinks:
        _refuse_symlink(name)
    _refuse_special(name, follow_symlinks)  # not even opened: opening a device can do things
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NONBLOCK", 0)  # a FIFO opens at once instead of waiting for a writer
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(name, flags)
    except ValueError:  # a NUL character in the name
        raise UnreadableFile(name, Problem.OTHER, "is not a valid file name") from None
    except OSError as error:
        if not follow_symlinks and error.errno in (errno.ELOOP, errno.EMLINK):
            _refuse_symlink(name)  # it became a link between the check and the open
        raise _from_os_error(name, error) from None
    try:
        return _read_open(name, fd, limit)
    finally:
        os.close(fd)


def _read_open(name: str, fd: int, limit: int | None) -> bytes:
    try:
        info = os.fstat(fd)
    except OSError as error:
        raise _from_os_error(name, error) from None
    kind = _kind(info.st_mode)
    if kind is not None:
        raise UnreadableFile(name, kind[0], kind[1])
    if limit is not None and info.st_size > limit:
        raise _too_large(name, info.st_size, limit)
    wanted = (limit + 1) if limit is not None else None
    chunks: list[bytes] = []
    total = 0
    while wanted is None or total < wanted:
        size = _CHUNK if wanted is None else min(_CHUNK, wanted - total)
        try:
            chunk = os.read(fd, size)
        except OSError as error:
            raise _from_os_error(name, error) from None
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if limit is not None and total > limit:  # it grew after the fstat
        raise _too_large(name, max(total, info.st_size), limit)
    return b"".join(chunks)


def _too_large(name: str, size: int, limit: int) -> UnreadableFile:
    return UnreadableFile(
        name,
        Problem.TOO_LARGE,
        f"is too large ({size} bytes, at most {limit})",
        size=size,
        limit=limit,
    )


def read_optional(
    path: str | os.PathLike[str],
    *,
    limit: int | None = MAX_FILE_BYTES,
    follow_symlinks: bool = True,
) -> bytes | None:
    """:func:`read_file`, but None when nothing is at ``path`` (a link to nothing is still an
    error: something is there)."""
    try:
        return read_file(path, limit=limit, follow_symlinks=follow_symlinks)
    except UnreadableFile as error:
        if error.missing:
            return None
        raise
