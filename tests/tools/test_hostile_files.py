"""The editing commands against files that are not what they claim: one clear line, no hang, no
memory blow-up, nothing changed, no lock left, and a symbolic link never replaced by a file."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from swervelib.cli.flip import error_lines
from swervelib.cli.main import main
from swervelib.safe_read import Problem, UnreadableFile
from swervelib.tools.edit import LOCK_NAME, EditError
from tests.tools import REPO, copy_config, everything

FL = "modules/frontleft.json"
COMMANDS = {
    "offsets": ["offsets", "{dir}", "--add", "180"],
    "flip": ["flip", "{dir}"],
    "eight-step": ["eight-step", "{dir}", "--next"],
}


def run(capsys: pytest.CaptureFixture[str], argv: list[str], directory: Path) -> tuple[int, str]:
    code = main([a.format(dir=directory) for a in argv])
    out, err = capsys.readouterr()
    assert out == "" or code == 0
    return code, err


def tree(directory: Path) -> list[str]:
    """Every name under the directory, folders and links included (not followed)."""
    return sorted(p.relative_to(directory).as_posix() for p in directory.rglob("*"))


def huge(path: Path) -> None:
    with open(path, "wb") as handle:
        handle.truncate(6 << 30)  # 6 GiB, sparse


HOSTILE: dict[str, tuple[Callable[[Path], None], str]] = {
    "fifo": (os.mkfifo, "is a FIFO (named pipe), not a regular file"),
    "dev-zero": (lambda p: p.symlink_to("/dev/zero"), "is a character device, not a regular file"),
    "6-GiB": (huge, "is too large (6442450944 bytes, at most 1048576)"),
    "directory": (lambda p: p.mkdir(), "is a directory, not a file"),
    "dangling-link": (
        lambda p: p.symlink_to("gone.json"),
        "is a symbolic link to gone.json, which does not exist",
    ),
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", HOSTILE)
def test_a_module_file_that_is_not_a_file_is_refused_with_its_cause(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, kind: str
) -> None:
    directory = copy_config(tmp_path)
    (directory / FL).unlink()
    make, reason = HOSTILE[kind]
    make(directory / FL)
    names = tree(directory)
    code, err = run(capsys, COMMANDS[command], directory)
    assert code == 1
    assert err == f"error: {directory / FL} {reason}\n"
    assert tree(directory) == names
    assert not os.path.lexists(directory / LOCK_NAME)


def test_a_fifo_cannot_hang_the_real_command(tmp_path: Path) -> None:
    """In a separate process (the timeout is a failsafe for a regression, not a measurement)."""
    directory = copy_config(tmp_path)
    (directory / FL).unlink()
    os.mkfifo(directory / FL)
    done = subprocess.run(
        [sys.executable, "-m", "swervelib", "offsets", str(directory), "--add", "180"],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"error: {directory / FL} is a FIFO (named pipe), not a regular file\n"
    assert not os.path.lexists(directory / LOCK_NAME)


def test_permission_denied_is_named_not_does_not_exist(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = copy_config(tmp_path)
    secret = str(directory / FL)
    real_open = os.open

    def denied(name: object, flags: int, *args: object) -> int:
        if os.fspath(name) == secret:  # type: ignore[call-overload]
            raise PermissionError(errno.EACCES, "Permission denied", secret)
        return real_open(name, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", denied)
    before = everything(directory)
    code, err = run(capsys, COMMANDS["flip"], directory)
    assert (code, err) == (1, f"error: {secret} cannot be read: permission denied\n")
    assert everything(directory) == before


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_linked_module_file_is_never_replaced_by_a_plain_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dry_run: bool
) -> None:
    directory = copy_config(tmp_path)
    shared = tmp_path / "shared-frontleft.json"
    (directory / FL).rename(shared)
    (directory / FL).symlink_to(shared)
    before, shared_before = everything(directory), shared.read_bytes()
    argv = [*COMMANDS["offsets"], *(["--dry-run"] if dry_run else [])]
    code, err = run(capsys, argv, directory)
    assert code == 1
    assert err.startswith(f"error: {directory / FL} is a symbolic link (to {shared})")
    assert "nothing was changed" in err and len(err.splitlines()) == 1
    assert (directory / FL).is_symlink() and shared.read_bytes() == shared_before
    assert everything(directory) == before


def test_a_linked_file_that_does_not_change_is_fine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only writing through a link is refused: a linked file read but not changed is edited
    around (here physicalproperties.json, read by the check of the result)."""
    directory = copy_config(tmp_path)
    physical = directory / "modules" / "physicalproperties.json"
    shared = tmp_path / "physical.json"
    physical.rename(shared)
    physical.symlink_to(shared)
    code, err = run(capsys, COMMANDS["offsets"], directory)
    assert (code, err) == (0, "")
    assert physical.is_symlink()


def test_outside_text_is_escaped_in_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A module name with a terminal escape and a bidi override, and an offset that is a long
    string: printed escaped and cut, never raw."""
    directory = copy_config(tmp_path)
    drive = json.loads((directory / "swervedrive.json").read_text())
    drive["modules"][0] = "front\x1b[2Jleft\u202e"
    (directory / "swervedrive.json").write_text(json.dumps(drive))
    code, err = run(capsys, COMMANDS["flip"], directory)
    assert code == 1 and "\x1b" not in err and "\u202e" not in err
    assert "front\\x1b[2Jleft\\u202e.json does not exist" in err

    directory = copy_config(tmp_path, name="other")
    module = json.loads((directory / FL).read_text())
    module["absoluteEncoderOffset"] = "\x1b]0;pwned\x07" + "x" * 5000
    (directory / FL).write_text(json.dumps(module))
    code, err = run(capsys, COMMANDS["offsets"], directory)
    assert code == 1 and "\x1b" not in err and "\x07" not in err
    assert "absoluteEncoderOffset is '\\x1b]0;pwned\\x07xxx" in err
    assert len(err) < 1000


@pytest.mark.parametrize(
    ("error", "lines"),
    [
        (EditError(""), ["error: EditError"]),
        (MemoryError(), ["error: out of memory"]),
        (OSError(), ["error: OSError"]),
        (
            OSError(errno.ENOSPC, "No space left on device", "/x/y.json"),
            ["error: /x/y.json: no space left on device"],
        ),
        (UnreadableFile("a\x1b.json", Problem.FIFO, "is a FIFO"), ["error: a\\x1b.json is a FIFO"]),
        (
            EditError("refusing:\n  a.json:1:2: bad\x1b"),
            ["error: refusing:", "  a.json:1:2: bad\\x1b"],
        ),
        (ValueError("two\nlines"), ["error: two", "error: lines"]),
    ],
)
def test_no_error_is_ever_a_bare_error_line(error: BaseException, lines: list[str]) -> None:
    assert error_lines(error) == lines
