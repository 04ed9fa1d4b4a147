"""swervelib.safe_read: regular files only, size checked before reading, real causes named."""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

import pytest

from swervelib import safe_read
from swervelib.safe_read import (
    MAX_FILE_BYTES,
    Problem,
    UnreadableFile,
    describe_os_error,
    read_file,
    read_optional,
)


def refused(path: Path | str, **options: object) -> UnreadableFile:
    with pytest.raises(UnreadableFile) as caught:
        read_file(path, **options)  # type: ignore[arg-type]
    return caught.value


def test_regular_file_up_to_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b"x" * MAX_FILE_BYTES)
    assert read_file(path) == b"x" * MAX_FILE_BYTES
    assert read_file(path, limit=None) == b"x" * MAX_FILE_BYTES
    path.write_bytes(b"")
    assert read_file(path) == b""
    assert MAX_FILE_BYTES == 1 << 20  # the loader's limit


def test_too_large_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(6 << 30)  # 6 GiB, sparse: nothing is really stored
    reads: list[int] = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    error = refused(path)
    assert reads == []  # refused from fstat alone
    assert error.problem is Problem.TOO_LARGE and (error.size, error.limit) == (6 << 30, 1 << 20)
    assert str(error) == f"{path} is too large (6442450944 bytes, at most 1048576)"
    small = tmp_path / "small.json"
    small.write_bytes(b"12345")
    assert refused(small, limit=4).reason == "is too large (5 bytes, at most 4)"


def test_a_file_growing_after_the_size_check_is_still_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "growing.json"
    path.write_bytes(b"y" * 100)
    real_fstat = os.fstat

    def fstat_before_growth(fd: int) -> os.stat_result:
        info = list(real_fstat(fd))
        info[6] = 10  # st_size as it was when checked
        return os.stat_result(info)

    monkeypatch.setattr(os, "fstat", fstat_before_growth)
    reads: list[int] = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    error = refused(path, limit=50)
    assert error.problem is Problem.TOO_LARGE and sum(reads) <= 51 + 65536
    assert error.size is not None and error.size > 50


def test_fifo_is_refused_without_waiting_for_a_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fifo = tmp_path / "frontleft.json"
    os.mkfifo(fifo)
    error = refused(fifo)
    assert error.problem is Problem.FIFO
    assert str(error) == f"{fifo} is a FIFO (named pipe), not a regular file"
    # swapped in after the first check: the non-blocking open still returns at once
    monkeypatch.setattr(safe_read, "_refuse_special", lambda path, follow: None)
    assert refused(fifo).problem is Problem.FIFO
    assert refused(fifo, follow_symlinks=False).problem is Problem.FIFO


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_devices_are_refused(tmp_path: Path, device: str) -> None:
    link = tmp_path / "frontleft.json"
    link.symlink_to(device)
    error = refused(link)
    assert error.problem is Problem.CHAR_DEVICE
    assert error.reason == "is a character device, not a regular file"
    assert refused(device).problem is Problem.CHAR_DEVICE


def test_directory_and_socket_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "modules.json"
    folder.mkdir()
    assert refused(folder).reason == "is a directory, not a file"
    assert refused(folder).problem is Problem.DIRECTORY
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "s.json"))
        assert refused(tmp_path / "s.json").problem is Problem.SOCKET
    finally:
        server.close()


def test_symbolic_links_follow_or_refuse(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_bytes(b"{}")
    link = tmp_path / "link.json"
    link.symlink_to("real.json")
    assert read_file(link) == b"{}"
    error = refused(link, follow_symlinks=False)
    assert error.problem is Problem.SYMLINK
    assert error.reason == "is a symbolic link (to real.json), not a file"
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to("nowhere.json")
    error = refused(dangling)
    assert error.problem is Problem.BROKEN_LINK
    assert error.reason == "is a symbolic link to nowhere.json, which does not exist"
    with pytest.raises(UnreadableFile, match="symbolic link"):
        read_optional(dangling)


def test_missing_file(tmp_path: Path) -> None:
    assert read_optional(tmp_path / "absent.json") is None
    error = refused(tmp_path / "absent.json")
    assert error.missing and error.reason == "does not exist"
    below_a_file = tmp_path / "file"
    below_a_file.write_bytes(b"")
    assert read_optional(below_a_file / "x.json") is None


def test_permission_denied_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "secret.json"
    path.write_bytes(b"{}")
    real_open = os.open

    def denied(name: object, flags: int, *args: object) -> int:
        if os.fspath(name) == str(path):  # type: ignore[call-overload]
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(name, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", denied)
    error = refused(path)
    assert error.problem is Problem.PERMISSION
    assert str(error) == f"{path} cannot be read: permission denied"


def test_invalid_name(tmp_path: Path) -> None:
    assert refused(f"{tmp_path}/a\0b.json").reason == "is not a valid file name"


def test_outside_text_in_the_message_is_printable(tmp_path: Path) -> None:
    name = tmp_path / "evil\x1b[2J\u202e.json"
    os.mkfifo(name)
    message = str(refused(name))
    assert "\x1b" not in message and "\u202e" not in message
    assert "\\x1b[2J\\u202e.json is a FIFO" in message


@pytest.mark.parametrize(
    ("error", "cause"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), "no space left on device"),
        (PermissionError(errno.EACCES, "Permission denied"), "permission denied"),
        (OSError(errno.EROFS, "x"), "read-only file system"),
        (OSError(errno.EDQUOT, "x"), "disk quota exceeded"),
        (OSError(), "OSError"),
        (OSError(errno.ECONNRESET, ""), os.strerror(errno.ECONNRESET).lower()),
        (OSError("Weird\x1bthing"), "weird\\x1bthing"),
    ],
)
def test_describe_os_error_is_short_and_never_empty(error: OSError, cause: str) -> None:
    assert describe_os_error(error) == cause
