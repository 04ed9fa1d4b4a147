"""Safe, format-preserving edits of one configuration directory.

:class:`ConfigEditor` reads the JSON files of a configuration directory, stages changes by splicing
the original text (so every byte it does not change stays exactly as it was: key order, tabs, CRLF
line ends, a UTF-8 BOM, compact one-line files, unknown keys), validates the result with
:func:`swervelib.config.load_directory`, and writes all touched files as one transaction::

    with ConfigEditor("deploy/swerve") as editor:
        editor.set("modules/frontleft.json", "inverted.drive", True)
        result = editor.commit("invert frontleft drive")
    print(result.summary)

The transaction, in order (``fault_hook`` is called after each step, with the step's name):

1. ``backup``: every file about to be replaced or deleted is copied to
   ``.swervelib-backups/<YYYYmmdd-HHMMSS[-n]>/`` and fsynced.
2. ``temp <file>``: each new file content is written to ``.<name>.swervelib-new`` beside the file
   and fsynced.
3. ``journal``: ``.swervelib-journal.json`` (the list of temp → final pairs, with the SHA-256 of each
   new content) is written to a temporary name, fsynced and renamed into place, so it is either
   complete or absent.
4. ``replace <file>`` / ``delete <file>``: ``os.replace`` of each temp onto its file (atomic per file).
5. ``done``: the journal is removed.

A process killed before step 3 leaves the old files and some stray temps; one killed after it
leaves a journal. The next :class:`ConfigEditor` to open the directory (every tool opens one) first
*recovers*: with a journal whose temps are all present and intact (or already in place) it rolls the
edit forward; otherwise it rolls back from the backup the journal names. Stray temps are deleted. So
the directory is always observed either entirely old or entirely new.

Concurrent editors are refused by the lock file ``.swervelib.lock`` (holding the pid, host, start
time and command line). A lock left by a process that no longer runs (same host) is broken, with a
note in :attr:`ConfigEditor.notes` / :attr:`EditResult.notes`.

Nothing here imports wpilib or a vendor package.
"""

from __future__ import annotations

import contextlib
import difflib
import enum
import hashlib
import json
import json.decoder
import math
import os
import re
import shutil
import socket
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import Any, Final

from swervelib.config import ConfigError, load_directory
from swervelib.config.jsonpos import JSONSyntaxError, parse

__all__ = [
    "BACKUP_DIR",
    "DRIVE_FILE",
    "JOURNAL_NAME",
    "LOCK_NAME",
    "MISSING",
    "ConfigEditor",
    "EditError",
    "EditResult",
    "FaultHook",
    "FileChange",
    "format_result",
    "recover",
]

LOCK_NAME: Final = ".swervelib.lock"
JOURNAL_NAME: Final = ".swervelib-journal.json"
BACKUP_DIR: Final = ".swervelib-backups"
DRIVE_FILE: Final = "swervedrive.json"
MODULES_DIR: Final = "modules"
TEMP_SUFFIX: Final = ".swervelib-new"
RESTORE_SUFFIX: Final = ".swervelib-restore"
JOURNAL_VERSION: Final = 1
STALE_UNREADABLE_LOCK_S: Final = 10.0

_BOM: Final = b"\xef\xbb\xbf"
_scanstring: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_LITERALS: Final = ("true", "false", "null", "NaN", "Infinity", "-Infinity")
_WS: Final = " \t\r\n"

FaultHook = Callable[[str], None]
"""Called after each write step of a commit with the step's name (tests inject crashes with it)."""

PathParts = tuple[str | int, ...]


class EditError(Exception):
    """A clear, user-facing reason why an edit was refused or failed. Nothing was written unless
    the message says otherwise."""


class _Missing(enum.Enum):
    MISSING = "absent"

    def __repr__(self) -> str:
        return "absent"

    def __str__(self) -> str:
        return "absent"

    def __bool__(self) -> bool:
        return False


MISSING: Final = _Missing.MISSING
"""Stands for "no such key" (in :attr:`FileChange.old` / ``new`` and as ``get``'s default)."""


@dataclass(frozen=True)
class FileChange:
    """One changed value. ``file`` is relative to the directory, ``field`` a dotted path."""

    file: str
    field: str
    old: Any
    new: Any


@dataclass(frozen=True)
class EditResult:
    """What a commit did (or, for a dry run, would do)."""

    changes: tuple[FileChange, ...]
    diff: str
    backup: Path | None
    summary: str
    written: bool
    notes: tuple[str, ...] = ()  # recoveries, broken stale locks: worth telling the person


def format_result(result: EditResult, *, show_diff: bool) -> str:
    """The text a command prints: the diff (when asked) then the one-line summary."""
    parts = []
    if show_diff and result.diff:
        parts.append(result.diff.rstrip("\n"))
    parts.append(result.summary)
    return "\n".join(parts)


# -- paths ------------------------------------------------------------------------------------------


def _relative(file: str | os.PathLike[str]) -> str:
    """Normalise a path relative to the configuration directory; refuse anything outside it."""
    text = os.fspath(file).replace("\\", "/")
    pure = PurePosixPath(text)
    if not text or pure.is_absolute() or ":" in text or ".." in pure.parts or not pure.parts:
        raise EditError(f"`{text}` is not a file path inside the configuration directory")
    return pure.as_posix()


def _parse_path(path: str) -> PathParts:
    """``"inverted.drive"`` → ``("inverted", "drive")``; ``"modules[2]"`` → ``("modules", 2)``."""
    parts: list[str | int] = []
    i = 0
    expect_key = True
    while i < len(path):
        char = path[i]
        if char == "[":
            end = path.find("]", i)
            if end < 0 or not path[i + 1 : end].isdigit():
                raise EditError(f"bad field path `{path}`")
            parts.append(int(path[i + 1 : end]))
            i = end + 1
            expect_key = False
        elif char == ".":
            if expect_key:
                raise EditError(f"bad field path `{path}`")
            i += 1
            expect_key = True
        else:
            if not expect_key:
                raise EditError(f"bad field path `{path}`")
            match = re.compile(r"[^.\[\]]+").match(path, i)
            assert match is not None
            parts.append(match.group())
            i = match.end()
            expect_key = False
    if path and expect_key:
        raise EditError(f"bad field path `{path}`")
    return tuple(parts)


def _format_path(parts: PathParts) -> str:
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


# -- text spans -------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Node:
    """A JSON value's span ``text[start:end]``."""

    start: int
    end: int
    kind: str  # "object", "array" or "scalar"
    members: list[_Member] = field(default_factory=list)
    items: list[_Node] = field(default_factory=list)

    def member(self, key: str) -> _Member | None:
        found = None
        for member in self.members:
            if member.key == key:
                found = member  # the last one wins, as in json.loads
        return found

    def index(self, key: str) -> int | None:
        for i, member in enumerate(self.members):
            if member.key == key:
                return i
        return None


@dataclass(slots=True)
class _Member:
    key: str
    key_start: int
    key_end: int
    node: _Node


class _Scanner:
    """Spans of every value of a text already known to be valid (jsonpos.parse checked it)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def skip(self, i: int) -> int:
        text = self.text
        while i < len(text) and text[i] in _WS:
            i += 1
        return i

    def scan(self) -> _Node:
        return self.value(self.skip(0))

    def value(self, i: int) -> _Node:
        text = self.text
        char = text[i]
        if char == "{":
            node = _Node(i, i, "object")
            i = self.skip(i + 1)
            if text[i] == "}":
                node.end = i + 1
                return node
            while True:
                key, key_end = _scanstring(text, i + 1, True)
                j = self.skip(key_end)
                child = self.value(self.skip(j + 1))
                node.members.append(_Member(key, i, key_end, child))
                j = self.skip(child.end)
                if text[j] == ",":
                    i = self.skip(j + 1)
                    continue
                node.end = j + 1
                return node
        if char == "[":
            node = _Node(i, i, "array")
            i = self.skip(i + 1)
            if text[i] == "]":
                node.end = i + 1
                return node
            while True:
                child = self.value(i)
                node.items.append(child)
                j = self.skip(child.end)
                if text[j] == ",":
                    i = self.skip(j + 1)
                    continue
                node.end = j + 1
                return node
        if char == '"':
            _, end = _scanstring(text, i + 1, True)
            return _Node(i, end, "scalar")
        for literal in _LITERALS:
            if text.startswith(literal, i):
                return _Node(i, i + len(literal), "scalar")
        match = _NUMBER.match(text, i)
        assert match is not None, f"not a JSON value at {i}"
        return _Node(i, match.end(), "scalar")


def _find(root: _Node, parts: PathParts) -> _Node | None:
    node: _Node | None = root
    for part in parts:
        if node is None:
            return None
        if isinstance(part, int):
            node = node.items[part] if node.kind == "array" and part < len(node.items) else None
        else:
            member = node.member(part) if node.kind == "object" else None
            node = member.node if member is not None else None
    return node


def _line_indent(text: str, position: int) -> str:
    """The leading whitespace of the line holding ``position``."""
    start = text.rfind("\n", 0, position) + 1
    end = start
    while end < position and text[end] in " \t":
        end += 1
    return text[start:end]


@dataclass(frozen=True, slots=True)
class _Style:
    """How one file writes JSON, to write new values the same way."""

    newline: str  # "\n" or "\r\n"
    unit: str  # one level of indentation
    colon: str  # between a key and its value, e.g. ": "
    inline_gap: str  # after a comma inside a one-line object or array
    multi_line: bool  # members on lines of their own (else a one-line, compact file)


def _style(text: str, root: _Node) -> _Style:
    """The file's style, judged from the root object's first members (which edits of values do not
    change, so the judgement is the same before and after a swap)."""
    newline = "\r\n" if "\r\n" in text else "\n"
    unit = "  "
    colon = ": "
    inline_gap = " "
    multi_line = "\n" in text[root.start : root.end]
    if root.kind == "object" and root.members:
        first = root.members[0]
        colon = text[first.key_end : first.node.start] or ":"
        multi_line = "\n" in text[root.start : first.key_start]
        if multi_line:
            unit = _line_indent(text, first.key_start) or "  "
        elif len(root.members) > 1:
            between = text[first.node.end : root.members[1].key_start]
            inline_gap = between[between.index(",") + 1 :]
    return _Style(newline, unit, colon, inline_gap, multi_line)


def _dump(value: Any, style: _Style, multi_line: bool, indent: str) -> str:
    """``value`` as JSON text in the file's style; ``indent`` is the indentation of its line."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise EditError(f"cannot write {value!r}: JSON numbers must be finite")
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict | list | tuple):
        is_dict = isinstance(value, dict)
        opening, closing = ("{", "}") if is_dict else ("[", "]")
        if not value:
            return opening + closing
        inner = indent + style.unit
        entries: list[str] = []
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise EditError(f"cannot write the object key {key!r}: keys must be strings")
                entries.append(
                    json.dumps(key, ensure_ascii=False)
                    + style.colon
                    + _dump(item, style, multi_line, inner)
                )
        else:
            entries = [_dump(item, style, multi_line, inner) for item in value]
        if multi_line:
            joint = "," + style.newline + inner
            return (
                opening
                + style.newline
                + inner
                + joint.join(entries)
                + style.newline
                + indent
                + closing
            )
        return opening + ("," + style.inline_gap).join(entries) + closing
    raise EditError(f"cannot write a {type(value).__name__} value as JSON")


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``true`` is not ``1``, ``1`` is ``1.0``, NaN is NaN."""
    if isinstance(a, _Missing) or isinstance(b, _Missing):
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def _transplant(value: str, source: _Style, source_indent: str, target: _Style, indent: str) -> str:
    """A value's text moved from one file (or place) to another, in the target's style when that
    can be undone exactly, else as it is. Either way, moving it back gives the exact text.

    Between a multi-line and a one-line file, a value written exactly as this module would write it
    in the source style is rewritten in the target style. Otherwise a multi-line value is
    re-indented: each line after the first must be ``source_indent`` plus whole indentation units,
    and becomes ``indent`` plus as many of the target's units, with the target's line ends.
    """
    if source.multi_line != target.multi_line:
        try:
            parsed = parse(value).value
            if value == _dump(parsed, source, source.multi_line, source_indent):
                return _dump(parsed, target, target.multi_line, indent)
        except (JSONSyntaxError, EditError):
            pass
    if "\n" not in value:
        return value
    lines = value.split("\n")
    crlf = [line.endswith("\r") for line in lines[:-1]]
    if any(crlf) and not all(crlf):
        return value
    if all(crlf):
        lines = [line[:-1] for line in lines[:-1]] + [lines[-1]]
    out = [lines[0]]
    for line in lines[1:]:
        if not line.startswith(source_indent):
            return value
        rest = line[len(source_indent) :]
        levels = 0
        while source.unit and rest.startswith(source.unit):
            rest = rest[len(source.unit) :]
            levels += 1
        if rest[:1] in (" ", "\t"):
            return value
        out.append(indent + target.unit * levels + rest)
    return target.newline.join(out)


# -- one file ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Doc:
    """One JSON file: the bytes read from disk and the edited text."""

    original: bytes | None  # None: the file did not exist
    bom: bool
    text: str

    def encoded(self) -> bytes:
        return (_BOM if self.bom else b"") + self.text.encode("utf-8")


def _decode(file: str, data: bytes) -> tuple[bool, str]:
    bom = data.startswith(_BOM)
    try:
        text = data[len(_BOM) if bom else 0 :].decode("utf-8")
    except UnicodeDecodeError as error:
        raise EditError(f"{file}: not UTF-8 text (byte {error.start})") from None
    return bom, text


def _check_json(file: str, text: str) -> Any:
    try:
        document = parse(text)
    except JSONSyntaxError as error:
        raise EditError(
            f"{file}:{error.line}:{error.column}: JSON syntax error: {error.message}; "
            "fix it by hand first"
        ) from None
    if document.duplicates:
        dup = document.duplicates[0]
        raise EditError(
            f"{file}:{dup.line}:{dup.column}: key `{_format_path(dup.path)}` appears twice "
            f"(also line {dup.first_line}); fix it by hand first"
        )
    return document.value


# -- file system helpers ----------------------------------------------------------------------------


def _fsync_dir(path: Path) -> None:
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


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise EditError(f"{path} is a directory, expected a file") from None


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _temp_name(relative: str, suffix: str) -> str:
    pure = PurePosixPath(relative)
    return str(pure.with_name(f".{pure.name}{suffix}"))


def _pid_alive(pid: int) -> bool:
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
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


# -- the lock ---------------------------------------------------------------------------------------


class _Lock:
    """``<directory>/.swervelib.lock``: created exclusively, holds who took it."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_NAME
        self.token = uuid.uuid4().hex
        self.held = False

    def describe_holder(self) -> tuple[str, bool]:
        """(who holds it, whether it is stale) for an existing lock file."""
        try:
            raw = self.path.read_text(encoding="utf-8")
            info = json.loads(raw)
            pid = int(info["pid"])
            host = str(info.get("host", ""))
        except FileNotFoundError:
            return "nobody", True
        except (OSError, ValueError, KeyError, TypeError):
            try:
                age = time.time() - self.path.stat().st_mtime
            except OSError:
                return "nobody", True
            return "an unreadable lock file", age > STALE_UNREADABLE_LOCK_S
        who = f"process {pid}"
        if host and host != socket.gethostname():
            return f"{who} on {host}", False
        command = info.get("command") or ""
        since = info.get("since") or ""
        detail = ", ".join(p for p in (f"since {since}" if since else "", command) if p)
        who = f"{who} ({detail})" if detail else who
        return who, not _pid_alive(pid)

    def refusal(self, who: str) -> EditError:
        return EditError(
            f"{self.path.parent} is being edited by another swervelib tool ({who}); wait for it to "
            f"finish and try again. If no swervelib tool is running, delete {self.path}"
        )

    def check_free(self) -> None:
        """For read-only use: refuse if a live process holds the lock."""
        if self.path.exists():
            who, stale = self.describe_holder()
            if not stale:
                raise self.refusal(who)

    def acquire(self, notes: list[str]) -> None:
        content = json.dumps(
            {
                "pid": os.getpid(),
                "host": socket.gethostname(),
                "since": time.strftime("%Y-%m-%d %H:%M:%S"),
                "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]) if sys.argv else "",
                "token": self.token,
            }
        ).encode("utf-8")
        for _attempt in range(2):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                who, stale = self.describe_holder()
                if not stale:
                    raise self.refusal(who) from None
                self.break_stale(who, notes)
                continue
            except OSError as error:
                raise EditError(f"cannot create the lock file {self.path}: {error}") from None
            try:
                os.write(fd, content)
            finally:
                os.close(fd)
            self.held = True
            return
        raise self.refusal("another process that just took it")

    def break_stale(self, who: str, notes: list[str]) -> None:
        aside = self.path.with_name(f"{LOCK_NAME}.stale-{self.token}")
        try:
            before = self.path.read_bytes()
            os.replace(self.path, aside)
        except FileNotFoundError:
            return
        except OSError as error:
            raise EditError(f"cannot remove the stale lock {self.path}: {error}") from None
        if aside.read_bytes() != before:  # someone took the lock in between: give it back
            with contextlib.suppress(OSError):
                os.replace(aside, self.path)
            raise self.refusal("another process that just took it")
        aside.unlink()
        notes.append(f"removed a stale lock left by {who}, which is no longer running")

    def release(self) -> None:
        if not self.held:
            return
        self.held = False
        try:
            info = json.loads(self.path.read_text(encoding="utf-8"))
            if info.get("token") == self.token:
                self.path.unlink()
        except (OSError, ValueError):
            pass


# -- recovery ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Op:
    """One file of a transaction: ``data`` None deletes it."""

    path: str
    data: bytes | None
    existed: bool


def _journal_ops(directory: Path, raw: bytes) -> tuple[str | None, list[dict[str, Any]]]:
    try:
        journal = json.loads(raw.decode("utf-8"))
        if journal.get("version") != JOURNAL_VERSION or not isinstance(journal["ops"], list):
            raise ValueError("unknown journal version")
        backup = journal.get("backup")
        ops: list[dict[str, Any]] = journal["ops"]
        for op in ops:
            _relative(op["path"])
            if "temp" in op:
                _relative(op["temp"])
    except (ValueError, KeyError, TypeError, AttributeError, EditError) as error:
        raise EditError(
            f"{directory / JOURNAL_NAME} is unreadable ({error}); an interrupted edit cannot be "
            f"completed automatically: compare the files with the newest backup in "
            f"{directory / BACKUP_DIR}, then delete the journal"
        ) from None
    if backup is not None:
        _relative(backup)
    return backup, ops


def _stray_temps(directory: Path) -> list[Path]:
    found: list[Path] = []
    for root, dirs, files in os.walk(directory):
        if Path(root) == directory:
            dirs[:] = [d for d in dirs if d != BACKUP_DIR]
        for name in files:
            if name.endswith((TEMP_SUFFIX, RESTORE_SUFFIX)) or name == f"{JOURNAL_NAME}.tmp":
                found.append(Path(root) / name)
    return found


def _remove_empty_parents(directory: Path, relative: str) -> None:
    parent = (directory / relative).parent
    while parent != directory and directory in parent.parents:
        try:
            parent.rmdir()
        except OSError:
            return
        parent = parent.parent


def _recover(directory: Path) -> str | None:
    """Finish or undo an interrupted transaction; the caller holds the lock. Returns a note."""
    journal_path = directory / JOURNAL_NAME
    note = None
    raw = _read(journal_path)
    if raw is not None:
        backup, ops = _journal_ops(directory, raw)
        forward = True
        for op in ops:
            if op.get("delete"):
                continue
            temp = _read(directory / op["temp"])
            if temp is not None and _sha256(temp) == op["sha256"]:
                continue
            final = _read(directory / op["path"])
            if temp is None and final is not None and _sha256(final) == op["sha256"]:
                continue
            forward = False
        if forward:
            for op in ops:
                final_path = directory / op["path"]
                if op.get("delete"):
                    final_path.unlink(missing_ok=True)
                    _remove_empty_parents(directory, op["path"])
                elif (directory / op["temp"]).exists():
                    os.replace(directory / op["temp"], final_path)
                _fsync_dir(final_path.parent)
            note = "completed an edit that was interrupted (the journal was complete)"
        else:
            if backup is None:
                raise EditError(
                    f"{journal_path}: an interrupted edit is incomplete and names no backup; "
                    "restore the files by hand, then delete the journal"
                )
            for op in ops:
                final_path = directory / op["path"]
                if op.get("existed"):
                    old = _read(directory / backup / op["path"])
                    if old is None:
                        raise EditError(
                            f"an interrupted edit cannot be undone: the backup of {op['path']} "
                            f"is missing from {directory / backup}"
                        )
                    if _read(final_path) != old:
                        restore = directory / _temp_name(op["path"], RESTORE_SUFFIX)
                        restore.parent.mkdir(parents=True, exist_ok=True)
                        _write_synced(restore, old)
                        os.replace(restore, final_path)
                else:
                    final_path.unlink(missing_ok=True)
                    _remove_empty_parents(directory, op["path"])
                _fsync_dir(final_path.parent)
            note = f"undid an edit that was interrupted, from the backup {backup}"
    for stray in _stray_temps(directory):
        stray.unlink(missing_ok=True)
    if raw is not None:
        journal_path.unlink(missing_ok=True)
        _fsync_dir(directory)
    return note


def recover(directory: str | os.PathLike[str]) -> list[str]:
    """Complete or undo an interrupted edit of ``directory`` (taking the lock); returns the notes.

    Opening a :class:`ConfigEditor` does the same; this is for callers that only read.
    """
    with ConfigEditor(directory) as editor:
        return list(editor.notes)


# -- the editor -------------------------------------------------------------------------------------


class ConfigEditor:
    """Edits JSON files of one configuration directory as one all-or-nothing transaction.

    Use it as a context manager: entering takes the directory lock (refusing with
    :class:`EditError` if another editor holds it) and recovers an interrupted edit; leaving
    releases the lock and commits nothing by itself. Used without ``with``, files are read on
    first use and :meth:`commit` takes the lock for the time of the write.

    ``dry_run``: nothing is ever written, not even the lock (an interrupted edit waiting for
    recovery is then an error). ``fault_hook`` is for tests: it is called after every write step of
    a commit with the step's name (``backup``, ``temp <file>``, ``journal``, ``replace <file>``,
    ``delete <file>``, ``done``), so a test can stop the process there.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        dry_run: bool = False,
        fault_hook: FaultHook | None = None,
    ) -> None:
        self.directory = Path(directory)
        if not self.directory.is_dir():
            what = "is not a directory" if self.directory.exists() else "does not exist"
            raise EditError(f"configuration directory {self.directory} {what}")
        self.dry_run = dry_run
        self.fault_hook = fault_hook
        self.notes: list[str] = []
        self._lock = _Lock(self.directory)
        self._entered = False
        self._docs: dict[str, _Doc] = {}
        self._raw: dict[str, bytes | None] = {}  # staged non-JSON-edited files (None deletes)
        self._raw_original: dict[str, bytes | None] = {}

    # -- context ---------------------------------------------------------------------------------
    def __enter__(self) -> ConfigEditor:
        if self._entered:
            raise EditError("this ConfigEditor is already open")
        self._open()
        self._entered = True
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._entered = False
        self._lock.release()

    def _open(self) -> None:
        if self.dry_run:
            self._lock.check_free()
            if (self.directory / JOURNAL_NAME).exists():
                raise EditError(
                    f"an interrupted edit of {self.directory} is waiting to be completed; run the "
                    "command once without --dry-run (it completes that edit first)"
                )
            return
        self._lock.acquire(self.notes)
        try:
            note = _recover(self.directory)
        except BaseException:
            self._lock.release()
            raise
        if note:
            self.notes.append(note)

    # -- reading ---------------------------------------------------------------------------------
    def _doc(self, file: str) -> _Doc:
        relative = _relative(file)
        doc = self._docs.get(relative)
        if doc is None:
            if relative in self._raw:
                raise EditError(f"{relative} is staged as a raw file; it cannot be edited as JSON")
            data = _read(self.directory / relative)
            if data is None:
                raise EditError(f"{relative} does not exist in {self.directory}")
            bom, text = _decode(relative, data)
            _check_json(relative, text)
            doc = _Doc(data, bom, text)
            self._docs[relative] = doc
        return doc

    def _root(self, file: str) -> tuple[_Doc, _Node]:
        doc = self._doc(file)
        return doc, _Scanner(doc.text).scan()

    def files(self) -> list[str]:
        """``swervedrive.json`` and the module files it lists (relative paths)."""
        return [DRIVE_FILE, *self.module_files()]

    def module_files(self) -> list[str]:
        """``modules/<name>.json`` for each entry of ``modules`` in swervedrive.json, in order."""
        names = self.get(DRIVE_FILE, "modules", None)
        if not isinstance(names, list) or not names:
            raise EditError(f"{DRIVE_FILE}: `modules` must be a non-empty array of file names")
        result = []
        for name in names:
            if not isinstance(name, str) or not name.strip() or "/" in name or "\\" in name:
                raise EditError(f"{DRIVE_FILE}: `modules` entry {name!r} is not a module file name")
            stem = name[:-5] if name.endswith(".json") else name
            if stem.startswith(".") or ":" in stem:
                raise EditError(f"{DRIVE_FILE}: `modules` entry {name!r} is not a module file name")
            result.append(f"{MODULES_DIR}/{stem}.json")
        return result

    def get(self, file: str, path: str, default: Any = MISSING) -> Any:
        """The current (edited) value at ``path`` (``""`` for the whole file), or ``default``."""
        doc, root = self._root(file)
        node = _find(root, _parse_path(path))
        if node is None:
            if default is MISSING:
                raise EditError(f"{_relative(file)}: no field `{path}`")
            return default
        return parse(doc.text[node.start : node.end]).value

    def get_text(self, file: str, path: str) -> str | None:
        """The JSON text of the value at ``path`` exactly as written (None when absent)."""
        doc, root = self._root(file)
        node = _find(root, _parse_path(path))
        return None if node is None else doc.text[node.start : node.end]

    def original_bytes(self, file: str) -> bytes:
        """The file's bytes as read from disk, whatever is staged."""
        doc = self._doc(file)
        assert doc.original is not None
        return doc.original

    # -- staging ---------------------------------------------------------------------------------
    def _splice(self, doc: _Doc, start: int, end: int, text: str) -> None:
        doc.text = doc.text[:start] + text + doc.text[end:]

    def set(self, file: str, path: str, value: Any) -> None:
        """Stage ``value`` at ``path``. A missing key is appended at the end of its object (missing
        parent objects are created); an existing object given a dict is merged key by key, so
        untouched members keep their text."""
        parts = _parse_path(path)
        if isinstance(value, _Missing):
            self.delete(file, path)
            return
        _dump(
            value, _Style("\n", "  ", ": ", " ", False), False, ""
        )  # refuse unwritable values first
        self._set(self._doc(file), parts, value)

    def _set(self, doc: _Doc, parts: PathParts, value: Any) -> None:
        root = _Scanner(doc.text).scan()
        node = _find(root, parts)
        style = _style(doc.text, root)
        if node is not None:
            if node.kind == "object" and isinstance(value, dict):
                for member in list(node.members):
                    if member.key not in value:
                        self._delete(doc, (*parts, member.key))
                for key, item in value.items():
                    self._set(doc, (*parts, key), item)
                return
            if (
                node.kind == "array"
                and isinstance(value, list | tuple)
                and len(node.items) == len(value)
            ):
                for index, item in enumerate(value):
                    self._set(doc, (*parts, index), item)
                return
            old_text = doc.text[node.start : node.end]
            if node.kind == "scalar" and _same(parse(old_text).value, value):
                return
            if node.kind == "scalar":
                parent = _find(root, parts[:-1]) if parts else None
                multi = parent is not None and "\n" in doc.text[parent.start : parent.end]
            else:
                multi = "\n" in old_text
            indent = _line_indent(doc.text, node.start)
            self._splice(doc, node.start, node.end, _dump(value, style, multi, indent))
            return
        if not parts:
            raise EditError("cannot replace a whole file with set(); use replace_file()")
        parent = _find(root, parts[:-1])
        key = parts[-1]
        if parent is None:
            if not isinstance(key, str):
                raise EditError(f"cannot create `{_format_path(parts)}`: no such array")
            self._set(doc, parts[:-1], {key: value})
            return
        if parent.kind != "object" or not isinstance(key, str):
            raise EditError(f"cannot create `{_format_path(parts)}`: its parent is not an object")
        self._insert(
            doc,
            parent,
            len(parent.members) - 1,
            lambda indent: (
                json.dumps(key, ensure_ascii=False)
                + style.colon
                + _dump(value, style, indent is not None, indent or "")
            ),
            root,
        )

    def _insert(
        self,
        doc: _Doc,
        obj: _Node,
        after: int | None,
        member: Callable[[str | None], str],
        root: _Node,
    ) -> None:
        """Insert a member after ``obj.members[after]`` (None: first). ``member(indent)`` gives its
        text, with ``indent`` its line's indentation (None when it goes on the object's line)."""
        text = doc.text
        members = obj.members
        if not members:
            inside = text[obj.start : obj.end]
            if "\n" in inside or (obj is root and "\n" in text):
                style = _style(text, root)
                base = _line_indent(text, obj.start)
                inner = base + style.unit
                new = "{" + style.newline + inner + member(inner) + style.newline + base + "}"
            else:
                new = "{" + member(None) + "}"
            self._splice(doc, obj.start, obj.end, new)
            return
        if after is None:
            first = members[0]
            ws = text[obj.start + 1 : first.key_start]
            indent = ws[ws.rfind("\n") + 1 :] if "\n" in ws else None
            self._splice(doc, first.key_start, first.key_start, member(indent) + "," + ws)
            return
        current = members[after]
        if after + 1 < len(members):
            separator = text[current.node.end : members[after + 1].key_start]
        elif after > 0:
            separator = text[members[after - 1].node.end : current.key_start]
        else:
            separator = "," + text[obj.start + 1 : current.key_start]
        ws = separator[separator.index(",") + 1 :]
        indent = ws[ws.rfind("\n") + 1 :] if "\n" in ws else None
        self._splice(doc, current.node.end, current.node.end, separator + member(indent))

    def delete(self, file: str, path: str) -> None:
        """Stage removing the key (or array item) at ``path``; nothing happens if it is absent."""
        parts = _parse_path(path)
        if not parts:
            raise EditError("cannot delete a whole file's content")
        self._delete(self._doc(file), parts)

    def _delete(self, doc: _Doc, parts: PathParts) -> None:
        root = _Scanner(doc.text).scan()
        parent = _find(root, parts[:-1])
        key = parts[-1]
        if parent is None:
            return
        starts: list[int]
        ends: list[int]
        if parent.kind == "object" and isinstance(key, str):
            index = None
            for i, member in enumerate(parent.members):
                if member.key == key:
                    index = i
            if index is None:
                return
            starts = [m.key_start for m in parent.members]
            ends = [m.node.end for m in parent.members]
        elif parent.kind == "array" and isinstance(key, int) and key < len(parent.items):
            index = key
            starts = [n.start for n in parent.items]
            ends = [n.end for n in parent.items]
        else:
            return
        if len(starts) == 1:
            self._splice(doc, parent.start + 1, parent.end - 1, "")
        elif index == 0:
            self._splice(doc, starts[0], starts[1], "")
        else:
            self._splice(doc, ends[index - 1], ends[index], "")

    def swap_members(self, file_a: str, file_b: str, path: str) -> None:
        """Exchange the member at ``path`` between two files, text for text.

        Present in both: the two values' texts are exchanged (re-indented to each file's style when
        that can be undone exactly). Present in one: the member moves to the other file, after the
        nearest key that preceded it. Swapping twice gives back the exact original bytes.
        """
        parts = _parse_path(path)
        if not parts or not isinstance(parts[-1], str):
            raise EditError(f"cannot swap `{path}`: only object members can be swapped")
        doc_a, root_a = self._root(file_a)
        doc_b, root_b = self._root(file_b)
        if doc_a is doc_b:
            return
        node_a, node_b = _find(root_a, parts), _find(root_b, parts)
        if node_a is None and node_b is None:
            return
        style_a, style_b = _style(doc_a.text, root_a), _style(doc_b.text, root_b)
        if node_a is not None and node_b is not None:
            text_a = doc_a.text[node_a.start : node_a.end]
            text_b = doc_b.text[node_b.start : node_b.end]
            if text_a == text_b:
                return
            indent_a = _line_indent(doc_a.text, node_a.start)
            indent_b = _line_indent(doc_b.text, node_b.start)
            self._splice(
                doc_a,
                node_a.start,
                node_a.end,
                _transplant(text_b, style_b, indent_b, style_a, indent_a),
            )
            self._splice(
                doc_b,
                node_b.start,
                node_b.end,
                _transplant(text_a, style_a, indent_a, style_b, indent_b),
            )
            return
        if node_a is None:
            doc_a, doc_b, root_a, root_b, style_a, style_b = (
                doc_b,
                doc_a,
                root_b,
                root_a,
                style_b,
                style_a,
            )
        # move the member from a (source) to b (target)
        source_parent = _find(root_a, parts[:-1])
        target_parent = _find(root_b, parts[:-1])
        assert source_parent is not None
        if target_parent is None or target_parent.kind != "object":
            raise EditError(f"cannot move `{path}`: its parent object is missing in one file")
        key = str(parts[-1])
        index = source_parent.index(key)
        assert index is not None
        moved = source_parent.members[index]
        head = doc_a.text[moved.key_start : moved.node.start]  # the key and colon, as written
        value_text = doc_a.text[moved.node.start : moved.node.end]
        source_indent = _line_indent(doc_a.text, moved.key_start)
        after: int | None = None
        for earlier in reversed(source_parent.members[:index]):
            found = target_parent.index(earlier.key)
            if found is not None:
                after = found
                break
        if after is None and index > 0 and target_parent.members:
            after = len(target_parent.members) - 1
        self._insert(
            doc_b,
            target_parent,
            after,
            lambda indent: (
                head + _transplant(value_text, style_a, source_indent, style_b, indent or "")
            ),
            root_b,
        )
        self._delete(doc_a, parts)

    def replace_file(self, file: str, data: bytes) -> None:
        """Stage the whole content of a JSON file (which may not exist yet)."""
        relative = _relative(file)
        bom, text = _decode(relative, data)
        _check_json(relative, text)
        doc = self._docs.get(relative)
        if doc is None:
            original = _read(self.directory / relative)
            doc = _Doc(original, bom, text)
            self._docs[relative] = doc
        doc.bom, doc.text = bom, text

    def read_raw(self, file: str) -> bytes | None:
        """A non-edited file's staged or current bytes (None when absent)."""
        relative = _relative(file)
        if relative in self._raw:
            return self._raw[relative]
        return _read(self.directory / relative)

    def stage_raw(self, file: str, data: bytes | None) -> None:
        """Stage writing ``data`` to a file that is not edited as JSON (None deletes it). It is
        written in the same transaction, but is neither validated nor shown in the diff."""
        relative = _relative(file)
        if relative in self._docs:
            raise EditError(f"{relative} is being edited as JSON; use replace_file()")
        if relative not in self._raw_original:
            self._raw_original[relative] = _read(self.directory / relative)
        self._raw[relative] = data

    # -- committing ------------------------------------------------------------------------------
    def _changes(self) -> tuple[list[FileChange], str, list[str]]:
        changes: list[FileChange] = []
        diffs: list[str] = []
        touched: list[str] = []
        for relative, doc in self._docs.items():
            new = doc.encoded()
            if new == doc.original:
                continue
            touched.append(relative)
            old_text = "" if doc.original is None else _decode(relative, doc.original)[1]
            old_value = parse(old_text).value if doc.original is not None else MISSING
            before = len(changes)
            _collect_changes(relative, old_value, parse(doc.text).value, (), changes)
            if len(changes) == before:  # same values, different text
                changes.append(FileChange(relative, "", "(formatting)", "(formatting)"))
            old_lines = [line.rstrip("\r") for line in old_text.split("\n")]
            new_lines = [line.rstrip("\r") for line in doc.text.split("\n")]
            diff = difflib.unified_diff(
                old_lines,
                new_lines,
                fromfile=f"a/{relative}" if doc.original is not None else "/dev/null",
                tofile=f"b/{relative}",
                lineterm="",
            )
            diffs.append("\n".join(diff))
        diff_text = "\n".join(d for d in diffs if d)
        return changes, diff_text + ("\n" if diff_text else ""), touched

    def _validate(self) -> None:
        with tempfile.TemporaryDirectory(prefix="swervelib-check-") as scratch:
            target = Path(scratch)
            (target / MODULES_DIR).mkdir()
            for pattern in ("*.json", f"{MODULES_DIR}/*.json"):
                for source in self.directory.glob(pattern):
                    if source.is_file():
                        shutil.copyfile(source, target / source.relative_to(self.directory))
            for relative, doc in self._docs.items():
                destination = target / relative
                destination.parent.mkdir(parents=True, exist_ok=True)
                destination.write_bytes(doc.encoded())
            try:
                load_directory(target)
            except ConfigError as error:
                lines = "\n".join(f"  {problem.format()}" for problem in error.problems)
                count = len(error.problems)
                raise EditError(
                    f"refusing to write: the result would not load ({count} "
                    f"problem{'s' if count != 1 else ''}):\n{lines}"
                ) from None

    def commit(self, what: str, *, validate: bool = True) -> EditResult:
        """Validate the staged result with ``load_directory`` (refusing with :class:`EditError`
        listing the problems), then back up and write every changed file atomically, or only
        compute the diff for a dry run. ``validate=False`` is for restoring saved files."""
        changes, diff, touched = self._changes()
        ops = [
            _Op(rel, self._docs[rel].encoded(), self._docs[rel].original is not None)
            for rel in touched
        ]
        for relative, data in self._raw.items():
            original = self._raw_original[relative]
            if data != original:
                ops.append(_Op(relative, data, original is not None))
        files = len({c.file for c in changes})
        counted = f"{len(changes)} field{'s' if len(changes) != 1 else ''} in {files} file" + (
            "s" if files != 1 else ""
        )
        if not ops:
            return EditResult((), "", None, f"{what}: nothing to change", False, tuple(self.notes))
        if validate and touched:
            self._validate()
        if self.dry_run:
            summary = f"{what}: {counted} (dry run, nothing written)"
            if not changes:
                summary = f"{what}: no configuration change (dry run, nothing written)"
            return EditResult(tuple(changes), diff, None, summary, False, tuple(self.notes))
        took_lock = False
        if not self._entered:
            self._open()
            took_lock = True
        try:
            backup = self._write(ops)
        finally:
            if took_lock:
                self._lock.release()
        for relative in touched:
            doc = self._docs[relative]
            doc.original = doc.encoded()
        for op in ops:
            if op.path in self._raw:
                self._raw_original[op.path] = op.data
        summary = f"{what}: {counted}" if changes else f"{what}: no configuration change"
        if backup is not None:
            summary += f" (backup: {backup.relative_to(self.directory).as_posix()})"
        return EditResult(tuple(changes), diff, backup, summary, True, tuple(self.notes))

    def _step(self, name: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(name)

    def _write(self, ops: list[_Op]) -> Path | None:
        directory = self.directory
        for op in ops:  # nobody changed the files since they were read
            expected = (
                self._docs[op.path].original
                if op.path in self._docs
                else self._raw_original[op.path]
            )
            if _read(directory / op.path) != expected:
                raise EditError(
                    f"{op.path} changed on disk while it was being edited; nothing was written. "
                    "Run the command again."
                )
        backup = self._backup(ops)
        self._step("backup")
        journal_written = False
        try:
            entries: list[dict[str, Any]] = []
            for op in ops:
                if op.data is None:
                    entries.append({"path": op.path, "delete": True, "existed": op.existed})
                    continue
                temp = _temp_name(op.path, TEMP_SUFFIX)
                (directory / temp).parent.mkdir(parents=True, exist_ok=True)
                _write_synced(directory / temp, op.data)
                final = directory / op.path
                if final.exists():
                    with contextlib.suppress(OSError):
                        shutil.copymode(final, directory / temp)
                entries.append(
                    {
                        "path": op.path,
                        "temp": temp,
                        "sha256": _sha256(op.data),
                        "existed": op.existed,
                    }
                )
                self._step(f"temp {op.path}")
            journal = {
                "version": JOURNAL_VERSION,
                "backup": None if backup is None else backup.relative_to(directory).as_posix(),
                "ops": entries,
            }
            pending = directory / f"{JOURNAL_NAME}.tmp"
            _write_synced(pending, json.dumps(journal, indent=1).encode("utf-8"))
            os.replace(pending, directory / JOURNAL_NAME)
            _fsync_dir(directory)
            journal_written = True
            self._step("journal")
            for op, entry in zip(ops, entries, strict=True):
                final = directory / op.path
                if op.data is None:
                    final.unlink(missing_ok=True)
                    _remove_empty_parents(directory, op.path)
                    self._step(f"delete {op.path}")
                else:
                    os.replace(directory / entry["temp"], final)
                    self._step(f"replace {op.path}")
                _fsync_dir(final.parent)
            (directory / JOURNAL_NAME).unlink()
            _fsync_dir(directory)
            self._step("done")
        except Exception as error:
            # An ordinary failure (disk full, a file held open on Windows): finish or undo now.
            # A kill (or KeyboardInterrupt) skips this; the next open recovers instead.
            if not journal_written:
                for stray in _stray_temps(directory):
                    stray.unlink(missing_ok=True)
                (directory / f"{JOURNAL_NAME}.tmp").unlink(missing_ok=True)
                raise EditError(
                    f"could not write the files ({error}); nothing was changed"
                ) from None
            try:
                note = _recover(directory)
            except (OSError, EditError) as again:
                raise EditError(
                    f"writing failed ({error}) and could not be completed ({again}); the next "
                    "swervelib tool run on this directory completes or undoes it"
                ) from None
            raise EditError(f"writing failed ({error}); {note}") from None
        return backup

    def _backup(self, ops: list[_Op]) -> Path | None:
        existing = [op for op in ops if op.existed]
        if not existing:
            return None
        base = self.directory / BACKUP_DIR
        base.mkdir(exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        backup = base / stamp
        n = 1
        while True:
            try:
                backup.mkdir()
                break
            except FileExistsError:
                n += 1
                backup = base / f"{stamp}-{n}"
        for op in existing:
            target = backup / op.path
            target.parent.mkdir(parents=True, exist_ok=True)
            expected = (
                self._docs[op.path].original
                if op.path in self._docs
                else self._raw_original[op.path]
            )
            assert expected is not None
            _write_synced(target, expected)
            _fsync_dir(target.parent)
        _fsync_dir(backup)
        _fsync_dir(base)
        return backup


def _collect_changes(file: str, old: Any, new: Any, path: PathParts, out: list[FileChange]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        keys = list(old) + [k for k in new if k not in old]
        for key in keys:
            _collect_changes(file, old.get(key, MISSING), new.get(key, MISSING), (*path, key), out)
        return
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            _collect_changes(file, a, b, (*path, index), out)
        return
    if not _same(old, new):
        out.append(FileChange(file, _format_path(path), old, new))
