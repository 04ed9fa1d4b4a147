"""Safe, format-preserving edits of one configuration directory.

:class:`ConfigEditor` reads the JSON files of a configuration directory, stages changes by splicing
the original text (so every byte it does not change stays exactly as it was: key order, tabs, CRLF
line ends, a UTF-8 BOM, compact one-line files, unknown keys), validates the result with
:func:`swervelib.config.load_directory`, and writes all touched files as one transaction::

    with ConfigEditor("deploy/swerve") as editor:
        editor.set("modules/frontleft.json", "inverted.drive", True)
        result = editor.commit("invert frontleft drive")
    print(result.summary)

Every file is read through :mod:`swervelib.safe_read` (regular files of at most 1 MiB; a FIFO, a
device or a huge file is refused with its real cause), and a symbolic link is never replaced by a
plain file (changing a linked file is refused). The write itself is the transaction of
:mod:`swervelib.tools.journal` (backup folder, temps, journal, atomic replaces; ``fault_hook`` is
called after each step with its name), so a run killed at any point leaves the old files or the new
ones, and the next :class:`ConfigEditor` to open the directory (every tool opens one) first
recovers. Concurrent editors are refused by the directory lock of :mod:`swervelib.tools.lock` (an
OS lock on ``.swervelib.lock``, which records the holder's pid, host, start time and command line);
a lock file left by a killed tool is taken over, with a note in :attr:`ConfigEditor.notes` /
:attr:`EditResult.notes`.

This module is the transaction; the rest is shared: the text edits are :mod:`.splice` (through the
spans :func:`swervelib.config.jsonpos.parse` records, the loader's own parser), new text follows
the file's style (:mod:`.json_style`), paths are read by :mod:`.fieldpath`, the result is loaded
before writing by :mod:`.trial_load`, and what changed is described by :mod:`.edit_result`.

Nothing here imports wpilib or a vendor package.
"""

from __future__ import annotations

import difflib
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from swervelib.config import ConfigError, Problem, SwerveConfig
from swervelib.config.jsonpos import JSONSyntaxError, Node, format_path, parse
from swervelib.safe_read import describe_os_error
from swervelib.text import printable, shown_path
from swervelib.tools import journal, splice
from swervelib.tools.edit_result import (
    MISSING,
    EditError,
    EditResult,
    FileChange,
    collect_changes,
    format_result,
)
from swervelib.tools.fieldpath import (
    DRIVE_FILE,
    module_file_paths,
    parse_field_path,
    relative_file,
)
from swervelib.tools.journal import BACKUP_DIR, JOURNAL_NAME, RESTORE_SUFFIX, TEMP_SUFFIX
from swervelib.tools.json_style import IrreversibleMove, Style, dump, trailing_comma_hint
from swervelib.tools.lock import LOCK_NAME, DirectoryLock, LockError
from swervelib.tools.trial_load import load_staged, trial_load

__all__ = [
    "BACKUP_DIR",
    "DRIVE_FILE",
    "JOURNAL_NAME",
    "LOCK_NAME",
    "MISSING",
    "RESTORE_SUFFIX",
    "TEMP_SUFFIX",
    "ConfigEditor",
    "EditError",
    "EditResult",
    "FaultHook",
    "FileChange",
    "format_result",
    "recover",
]

_BOM: Final = b"\xef\xbb\xbf"

FaultHook = Callable[[str], None]
"""Called after each write step of a commit with the step's name (tests inject crashes with it)."""


# -- one file ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Doc:
    """One JSON file: the bytes read from disk, the edited text (the JSON value and the whitespace
    after it) and ``tail``, the text after the JSON value, written back exactly as it was read."""

    original: bytes | None  # None: the file did not exist
    bom: bool
    text: str
    tail: str = ""

    def encoded(self) -> bytes:
        return (_BOM if self.bom else b"") + (self.text + self.tail).encode("utf-8")


def _decode(file: str, data: bytes) -> tuple[bool, str]:
    bom = data.startswith(_BOM)
    try:
        text = data[len(_BOM) if bom else 0 :].decode("utf-8")
    except UnicodeDecodeError as error:
        raise EditError(f"{printable(file)}: not UTF-8 text (byte {error.start})") from None
    return bom, text


def _check_json(file: str, text: str, *, keep_trailing_text: bool = False) -> tuple[str, str]:
    """``text`` split into the JSON to edit (with the whitespace after it) and the text after the
    JSON value, which is kept only with ``keep_trailing_text`` (else it is a syntax error)."""
    try:
        document = parse(text, trailing=keep_trailing_text)
    except JSONSyntaxError as error:
        hint = trailing_comma_hint(text, error.line, error.column)
        raise EditError(
            f"{printable(file)}:{error.line}:{error.column}: JSON syntax error: "
            f"{printable(error.message, 300)}{f' ({hint})' if hint else ''}; "
            "fix it by hand first"
        ) from None
    if document.duplicates:
        dup = document.duplicates[0]
        raise EditError(
            f"{printable(file)}:{dup.line}:{dup.column}: key `{printable(format_path(dup.path))}` "
            "appears twice "
            f"(also line {dup.first_line}); fix it by hand first"
        )
    end = document.root.end
    cut = len(text) - len(text[end:].lstrip(" \t\n\r"))  # where the trailing text starts
    return text[:cut], text[cut:]


# -- reading and recovery ---------------------------------------------------------------------------


def _read(path: Path, *, follow_symlinks: bool = True) -> bytes | None:
    """A regular file's bytes (None when absent); EditError naming the cause for anything else."""
    try:
        return journal.read(path, follow_symlinks=follow_symlinks)
    except journal.TransactionError as error:
        raise EditError(str(error)) from None


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
    recovery is then an error). ``keep_trailing_text``: a file with text after its JSON value
    (which the loader ignores, as YAGSL's Jackson does) is edited like any other and that text is
    written back exactly as it was; without it such a file is refused as a syntax error. ``fault_hook`` is for tests: it is called after every write step of
    a commit with the step's name (``backup``, ``temp <file>``, ``journal``, ``replace <file>``,
    ``delete <file>``, ``done``), so a test can stop the process there.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        dry_run: bool = False,
        fault_hook: FaultHook | None = None,
        keep_trailing_text: bool = False,
    ) -> None:
        self.directory = Path(directory)
        _check_directory(self.directory)
        self.dry_run = dry_run
        self.keep_trailing_text = keep_trailing_text
        self.fault_hook = fault_hook
        self.notes: list[str] = []
        self._lock = DirectoryLock(self.directory)
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
            try:
                self._lock.check_free()
            except LockError as error:
                raise EditError(str(error)) from None
            if os.path.lexists(self.directory / JOURNAL_NAME):
                raise EditError(
                    f"an interrupted edit of {shown_path(self.directory)} is waiting to "
                    "be completed; run the command once without --dry-run (it completes that edit "
                    "first)"
                )
            return
        try:
            self._lock.acquire(self.notes)
        except LockError as error:
            raise EditError(str(error)) from None
        try:
            note = journal.recover(self.directory)
        except journal.TransactionError as error:
            self._lock.release()
            raise EditError(str(error)) from None
        except BaseException:
            self._lock.release()
            raise
        if note:
            self.notes.append(note)

    # -- reading ---------------------------------------------------------------------------------
    def _doc(self, file: str) -> _Doc:
        relative = relative_file(file)
        doc = self._docs.get(relative)
        if doc is None:
            if relative in self._raw:
                raise EditError(f"{relative} is staged as a raw file; it cannot be edited as JSON")
            data = _read(self.directory / relative)
            if data is None:
                raise EditError(
                    f"{printable(relative)} does not exist in {shown_path(self.directory)}"
                )
            bom, text = _decode(relative, data)
            text, tail = _check_json(relative, text, keep_trailing_text=self.keep_trailing_text)
            doc = _Doc(data, bom, text, tail)
            self._docs[relative] = doc
        return doc

    def _root(self, file: str) -> tuple[_Doc, Node]:
        doc = self._doc(file)
        return doc, parse(doc.text).root

    def files(self) -> list[str]:
        """``swervedrive.json`` and the module files it lists (relative paths)."""
        return [DRIVE_FILE, *self.module_files()]

    def module_files(self) -> list[str]:
        """``modules/<name>.json`` for each entry of ``modules`` in swervedrive.json, in order."""
        return module_file_paths(self.get(DRIVE_FILE, "modules", None))

    def has_file(self, file: str) -> bool:
        """Whether ``file`` is there (staged, or anything on disk at that path)."""
        relative = relative_file(file)
        if relative in self._docs:
            return True
        if relative in self._raw:
            return self._raw[relative] is not None
        return os.path.lexists(self.directory / relative)

    def get(self, file: str, path: str, default: Any = MISSING) -> Any:
        """The current (edited) value at ``path`` (``""`` for the whole file), or ``default``."""
        doc, root = self._root(file)
        node = root.find(parse_field_path(path))
        if node is None:
            if default is MISSING:
                raise EditError(f"{printable(relative_file(file))}: no field `{printable(path)}`")
            return default
        return parse(doc.text[node.start : node.end]).value

    def get_text(self, file: str, path: str) -> str | None:
        """The JSON text of the value at ``path`` exactly as written (None when absent)."""
        doc, root = self._root(file)
        node = root.find(parse_field_path(path))
        return None if node is None else doc.text[node.start : node.end]

    def original_bytes(self, file: str) -> bytes:
        """The file's bytes as read from disk, whatever is staged."""
        doc = self._doc(file)
        assert doc.original is not None
        return doc.original

    # -- staging ---------------------------------------------------------------------------------
    def set(self, file: str, path: str, value: Any) -> None:
        """Stage ``value`` at ``path``. A missing key is appended at the end of its object (missing
        parent objects are created); an existing object given a dict is merged key by key, so
        untouched members keep their text."""
        parts = parse_field_path(path)
        if value is MISSING:
            self.delete(file, path)
            return
        dump(
            value, Style("\n", "  ", "  ", ": ", " ", False), False, ""
        )  # refuse unwritable values first
        doc = self._doc(file)
        doc.text = splice.set_value(doc.text, parts, value)

    def delete(self, file: str, path: str) -> None:
        """Stage removing the key (or array item) at ``path``; nothing happens if it is absent."""
        parts = parse_field_path(path)
        if not parts:
            raise EditError("cannot delete a whole file's content")
        doc = self._doc(file)
        doc.text = splice.delete_value(doc.text, parts)

    def rename(self, file: str, path: str, new_key: str) -> None:
        """Stage calling the member at ``path`` ``new_key``, in its place and with its value text;
        nothing happens if it is absent. Refuses when ``new_key`` is already there."""
        doc = self._doc(file)
        doc.text = splice.rename_key(doc.text, parse_field_path(path), new_key)

    def swap_members(self, file_a: str, file_b: str, path: str) -> None:
        """Exchange the member at ``path`` between two files, text for text.

        Present in both: the two values' texts are exchanged (re-indented to each file's style when
        that can be undone exactly). Present in one: the member moves to the other file, after the
        nearest key both files have that preceded it (else before the first key both have).
        Swapping twice gives back the exact original bytes when the files have the same other
        keys; a value that could not come back exactly is refused."""
        parts = parse_field_path(path)
        if not parts or not isinstance(parts[-1], str):
            raise EditError(f"cannot swap `{path}`: only object members can be swapped")
        doc_a, doc_b = self._doc(file_a), self._doc(file_b)
        if doc_a is doc_b:
            return
        try:
            doc_a.text, doc_b.text = splice.swap_members(doc_a.text, doc_b.text, parts)
        except IrreversibleMove as error:
            raise EditError(f"{printable(file_a)} and {printable(file_b)}: {error}") from None

    def exchange_members(self, file_a: str, file_b: str, keys: Sequence[str]) -> None:
        """Exchange the top-level members ``keys`` between two files at once, text for text (see
        :func:`.splice.exchange_members`: a key in both swaps values in place; a key in one moves
        to the other, placed by the keys that stay; a value that could not come back exactly is
        refused)."""
        doc_a, doc_b = self._doc(file_a), self._doc(file_b)
        if doc_a is doc_b:
            return
        try:
            doc_a.text, doc_b.text = splice.exchange_members(doc_a.text, doc_b.text, (), keys)
        except IrreversibleMove as error:
            raise EditError(f"{printable(file_a)} and {printable(file_b)}: {error}") from None

    def replace_file(self, file: str, data: bytes) -> None:
        """Stage the whole content of a JSON file (which may not exist yet)."""
        relative = relative_file(file)
        bom, text = _decode(relative, data)
        text, tail = _check_json(relative, text, keep_trailing_text=self.keep_trailing_text)
        doc = self._docs.get(relative)
        if doc is None:
            original = _read(self.directory / relative)
            doc = _Doc(original, bom, text, tail)
            self._docs[relative] = doc
        doc.bom, doc.text, doc.tail = bom, text, tail

    def read_raw(self, file: str) -> bytes | None:
        """A non-edited file's staged or current bytes (None when absent)."""
        relative = relative_file(file)
        if relative in self._raw:
            return self._raw[relative]
        return _read(self.directory / relative, follow_symlinks=False)

    def stage_raw(self, file: str, data: bytes | None) -> None:
        """Stage writing ``data`` to a file that is not edited as JSON (None deletes it). It is
        written in the same transaction, but is neither validated nor shown in the diff."""
        relative = relative_file(file)
        if relative in self._docs:
            raise EditError(f"{relative} is being edited as JSON; use replace_file()")
        if relative not in self._raw_original:
            self._raw_original[relative] = _read(self.directory / relative, follow_symlinks=False)
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
            old_value = (
                parse(old_text, trailing=True).value if doc.original is not None else MISSING
            )
            before = len(changes)
            collect_changes(relative, old_value, parse(doc.text).value, (), changes)
            if len(changes) == before:  # same values, different text
                changes.append(FileChange(relative, "", "(formatting)", "(formatting)"))
            old_lines = [line.rstrip("\r") for line in old_text.split("\n")]
            new_lines = [line.rstrip("\r") for line in (doc.text + doc.tail).split("\n")]
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

    def load_errors(self) -> tuple[Problem, ...]:
        """The problems ``load_directory`` would refuse the staged result with (empty when it
        loads), found on a scratch copy: nothing is written here."""
        error = trial_load(self.directory, self._staged())
        return () if error is None else error.problems

    def staged_config(self) -> SwerveConfig:
        """The configuration the staged result loads as, from a scratch copy (nothing is written
        here; its ``directory`` is that copy, already gone); :class:`EditError` listing the
        problems when it would not load, as :meth:`commit` refuses."""
        try:
            return load_staged(self.directory, self._staged())
        except ConfigError as error:
            raise _would_not_load(error) from None

    def _staged(self) -> dict[str, bytes]:
        return {relative: doc.encoded() for relative, doc in self._docs.items()}

    def validate(self) -> None:
        """Refuse (:class:`EditError`, listing the problems) unless the staged result loads (from
        a scratch copy); :meth:`commit` does this itself whenever a JSON file changes."""
        self.staged_config()

    def _ops(self, touched: list[str]) -> list[journal.Op]:
        ops = [
            journal.Op(relative, self._docs[relative].encoded(), self._docs[relative].original)
            for relative in touched
        ]
        for relative, data in self._raw.items():
            original = self._raw_original[relative]
            if data != original:
                ops.append(journal.Op(relative, data, original))
        return ops

    def commit(self, what: str, *, validate: bool = True) -> EditResult:
        """Validate the staged result with ``load_directory`` (refusing with :class:`EditError`
        listing the problems), then back up and write every changed file atomically, or only
        compute the diff for a dry run. ``what`` starts the summary and is kept in the backup
        folder (:data:`~swervelib.tools.journal.WHAT_NAME`). ``validate=False`` is for restoring
        saved files."""
        changes, diff, touched = self._changes()
        ops = self._ops(touched)
        files = len({c.file for c in changes})
        counted = f"{len(changes)} field{'s' if len(changes) != 1 else ''} in {files} file" + (
            "s" if files != 1 else ""
        )
        if not ops:
            return EditResult((), "", None, f"{what}: nothing to change", False, tuple(self.notes))
        try:
            for op in ops:
                journal.refuse_link(self.directory, op.path)
        except journal.TransactionError as error:
            raise EditError(str(error)) from None
        if validate and touched:
            self.validate()
        if self.dry_run:
            summary = f"{what}: would change {counted} (dry run, nothing written)"
            if not changes:
                summary = f"{what}: no configuration change (dry run, nothing written)"
            return EditResult(tuple(changes), diff, None, summary, False, tuple(self.notes))
        took_lock = False
        if not self._entered:
            self._open()
            took_lock = True
        try:
            backup = journal.write(self.directory, ops, self._step, what)
        except journal.TransactionError as error:
            raise EditError(str(error)) from None
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


def _would_not_load(error: ConfigError) -> EditError:
    lines = "\n".join(f"  {problem.format()}" for problem in error.problems)
    count = len(error.problems)
    return EditError(
        f"refusing to write: the result would not load ({count} "
        f"problem{'s' if count != 1 else ''}):\n{lines}"
    )


def _check_directory(directory: Path) -> None:
    shown = shown_path(directory)
    try:
        mode = os.stat(directory).st_mode
    except (FileNotFoundError, NotADirectoryError):
        raise EditError(f"configuration directory {shown} does not exist") from None
    except (OSError, ValueError) as error:
        cause = describe_os_error(error) if isinstance(error, OSError) else "invalid name"
        raise EditError(f"configuration directory {shown} cannot be opened: {cause}") from None
    if not stat.S_ISDIR(mode):
        raise EditError(f"configuration directory {shown} is not a directory")
