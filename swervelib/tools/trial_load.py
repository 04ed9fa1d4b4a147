"""Loading a configuration directory as it would be after an edit, before anything is written.

The directory's JSON files are copied to a scratch folder, with the staged files in place of
theirs, and :func:`swervelib.config.load_directory` reads the copy. The real directory is only
read. Every file is read through :mod:`swervelib.safe_read` (a FIFO, a device or a huge file is
refused with its real cause).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from swervelib.config import ConfigError, SwerveConfig, load_directory
from swervelib.safe_read import MAX_FILE_BYTES, Problem, UnreadableFile, describe_os_error
from swervelib.safe_read import read_file as _safe_read_file
from swervelib.text import shown_path
from swervelib.tools import journal
from swervelib.tools.edit_result import EditError
from swervelib.tools.fieldpath import MODULES_DIR


def trial_load(directory: Path, staged: Mapping[str, bytes]) -> ConfigError | None:
    """What loading ``directory`` with ``staged`` (relative path → new bytes) in place of its files
    raises, or None when it loads. :class:`EditError` when the trial itself cannot be made."""
    try:
        load_staged(directory, staged)
    except ConfigError as error:
        return error
    return None


def load_staged(directory: Path, staged: Mapping[str, bytes]) -> SwerveConfig:
    """The configuration ``directory`` loads as with ``staged`` (relative path → new bytes) in
    place of its files (its ``directory`` is the scratch copy, gone on return);
    :class:`ConfigError` when it would not load, :class:`EditError` when the trial itself cannot
    be made."""
    try:
        with tempfile.TemporaryDirectory(prefix="swervelib-check-") as scratch:
            target = Path(scratch)
            os.mkdir(target / MODULES_DIR)
            for relative in loadable_files(directory):
                if relative in staged:
                    continue
                data = _copy_for_check(directory, relative)
                if data is not None:
                    journal.write_new(target / relative, data, sync=False)
            for relative, data in staged.items():
                journal.make_dirs((target / relative).parent)
                journal.write_new(target / relative, data, sync=False)
            return load_directory(target)
    except OSError as error:
        raise EditError(
            "cannot check the result in a temporary folder "
            f"({describe_os_error(error)}); nothing was changed"
        ) from None


def loadable_files(directory: Path) -> list[str]:
    """The JSON files the loader may read: ``*.json`` and ``modules/*.json``."""
    found: list[str] = []
    for folder in ("", MODULES_DIR):
        try:
            with os.scandir(directory / folder) as entries:
                names = sorted(entry.name for entry in entries)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as error:
            shown = shown_path(directory / folder)
            raise EditError(
                f"cannot list {shown}: {describe_os_error(error)}; nothing was changed"
            ) from None
        found.extend(
            f"{folder}/{name}" if folder else name
            for name in names
            if name.endswith(".json") and not name.startswith(".")
        )
    return found


def _copy_for_check(directory: Path, relative: str) -> bytes | None:
    """A file's bytes for the scratch copy; None for what the loader does not read as a file
    (gone, a directory)."""
    try:
        return _safe_read_file(directory / relative, limit=MAX_FILE_BYTES)
    except UnreadableFile as error:
        if error.problem in (Problem.MISSING, Problem.DIRECTORY):
            return None
        raise EditError(f"cannot check the result: {error}; nothing was changed") from None
