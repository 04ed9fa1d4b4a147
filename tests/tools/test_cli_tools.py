"""``python -m swervelib offsets | flip | reassign | eight-step``: output, exit codes, no tracebacks."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from swervelib.cli.main import main
from swervelib.config import load_directory
from swervelib.tools.edit import ConfigEditor, EditResult
from tests.tools import REPO, VALID, copy_config, everything, leave_stale_lock, snapshot


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_offsets_dry_run_then_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    code, out, err = run(capsys, "offsets", str(directory), "--add", "180", "--dry-run")
    assert (code, err) == (0, "")
    assert everything(directory) == before
    lines = out.splitlines()
    assert lines[0] == "--- a/modules/frontleft.json"
    assert '+  "absoluteEncoderOffset": 192.3,' in lines  # the folder's [0, 360)
    assert lines[-1] == (
        "offsets +180°, kept in [0°, 360°) like the folder's: would change 4 fields in 4 files "
        "(dry run, nothing written)"
    )

    code, out, err = run(capsys, "offsets", str(directory), "--add", "180", "--signed")
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 1
    assert out.startswith("offsets +180° in (−180°, 180°]: 4 fields in 4 files (backup: ")
    assert load_directory(directory).module("frontleft").absolute_encoder_offset_deg == -167.7

    code, out, _ = run(capsys, "offsets", str(directory), "--add", "-180", "--unsigned")
    assert code == 0 and out.startswith("offsets -180° in [0°, 360°): ")
    assert snapshot(directory) == {k: v for k, v in before.items()}

    code, out, _ = run(capsys, "offsets", str(directory), "--add", "180")
    assert code == 0 and run(capsys, "offsets", str(directory), "--add", "180")[0] == 0
    assert snapshot(directory) == before  # the folder's own convention: +180 twice, same bytes


def test_flip_and_flip_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = copy_config(tmp_path)
    before = snapshot(directory)
    code, out, err = run(capsys, "flip", str(directory))
    assert (code, err) == (0, "")
    assert out.startswith("flip (frontleft↔backright, frontright↔backleft): 16 fields in 4 files")
    # a flip alone does not turn the robot's front around: the output says what else to do
    # (tests/calibrate/test_eight_step_sim.py drives the simulated robot both ways)
    assert f"python -m swervelib offsets {directory} --add 180" in " ".join(out.split())
    assert load_directory(directory).module("frontleft").drive.id == 7
    assert run(capsys, "flip", str(directory))[0] == 0
    assert snapshot(directory) == before


def test_reassign_and_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = copy_config(tmp_path)
    before = snapshot(directory)
    swap = ["frontleft=frontright", "frontright=frontleft"]
    code, out, err = run(capsys, "reassign", str(directory), *swap, "--dry-run")
    assert (code, err) == (0, "") and snapshot(directory) == before
    assert out.splitlines()[-1] == (
        "reassign (frontleft↔frontright): would change 8 fields in 2 files (dry run, nothing "
        "written)"
    )
    code, out, err = run(capsys, "reassign", str(directory), *swap)
    assert (code, err) == (0, "")
    assert out.startswith("reassign (frontleft↔frontright): 8 fields in 2 files (backup: ")
    assert "Restart the robot code" in out
    assert load_directory(directory).module("frontleft").drive.id == 3
    assert run(capsys, "reassign", str(directory), *swap)[0] == 0
    assert snapshot(directory) == before


def test_eight_step_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = copy_config(tmp_path)
    before = snapshot(directory)
    code, out, _ = run(capsys, "eight-step", str(directory), "--step", "3")
    assert code == 0
    assert out.splitlines()[0].startswith("eight-step 3: 5 fields in 5 files (backup: ")
    assert "Step 3 of 8" in out and "counter-clockwise" in out
    code, out, _ = run(capsys, "eight-step", str(directory), "--next", "--dry-run")
    assert code == 0 and out.startswith("--- a/swervedrive.json")
    assert '+  "invertedIMU": false,' in out.splitlines()
    assert "eight-step 4: would change 1 field in 1 file (dry run, nothing written)" in out
    code, out, _ = run(capsys, "eight-step", str(directory), "--next")
    assert code == 0 and load_directory(directory).drive.imu_inverted is False
    code, out, _ = run(capsys, "eight-step", str(directory), "--restore")
    assert code == 0 and out.startswith("eight-step --restore: ")
    assert snapshot(directory) == before


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["flip", "{dir}/nothere"], "error: configuration directory"),
        (["flip", "{three}"], "error: cannot flip: no module is diagonally opposite"),
        (["reassign", "{dir}", "frontleft=frontright"], "error: cannot reassign:\n  frontleft="),
        (["reassign", "{dir}", "frontleft", "x=y=z"], "error: not a move: 'frontleft', 'x=y=z'"),
        (["eight-step", "{dir}", "--restore"], "error: no eight-step procedure is in progress"),
        (["offsets", "{dir}", "--add", "nan"], "error: cannot add nan degrees"),
        (["offsets", "{dir}", "--add", "180", "--server", "x"], "error: --server only applies"),
        (["offsets", "{dir}", "--capture", "--unsigned"], "error: --unsigned only applies"),
        (["offsets", "{dir}", "--capture", "--signed"], "error: --signed only applies"),
    ],
)
def test_errors_are_one_clear_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    directory = copy_config(tmp_path)
    three = copy_config(tmp_path, VALID / "three_modules")
    before = everything(directory), everything(three)
    args = [a.format(dir=directory, three=three) for a in argv]
    code, out, err = run(capsys, *args)
    assert code == 1 and out == ""
    assert err.startswith(message) and "Traceback" not in err
    assert (everything(directory), everything(three)) == before


def test_refused_while_locked_and_notes_a_stale_lock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = copy_config(tmp_path)
    with ConfigEditor(directory):
        code, out, err = run(capsys, "flip", str(directory))
    assert code == 1 and "being edited by another swervelib tool" in err
    leave_stale_lock(directory)
    code, out, err = run(capsys, "flip", str(directory), "--dry-run")
    assert out.rstrip().endswith("(dry run, nothing written)")
    assert code == 0 and err == ""  # a dry run reads past a stale lock and leaves it
    code, _, err = run(capsys, "flip", str(directory))
    assert code == 0 and err.startswith("note: removed a stale lock left by process")


def test_capture_is_delegated_lazily(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, dict[str, Any]]] = []

    def capture_offsets(directory: Any, **options: Any) -> EditResult:
        calls.append((directory, options))
        return EditResult((), "", None, "offsets --capture: nothing to change", False)

    fake = types.ModuleType("swervelib.tools.capture")
    fake.capture_offsets = capture_offsets  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "swervelib.tools.capture", fake)
    directory = copy_config(tmp_path)
    code, out, _ = run(
        capsys, "offsets", str(directory), "--capture", "--server", "1234", "--dry-run"
    )
    assert code == 0 and out == "offsets --capture: nothing to change\n"
    assert calls == [(str(directory), {"server": "1234", "dry_run": True})]
    code, _, _ = run(capsys, "offsets", str(directory), "--capture")
    assert calls[-1] == (str(directory), {"dry_run": False})


def test_help_and_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["eight-step", "x"])
    assert exit_info.value.code == 2
    assert (
        "one of the arguments --step --next --restore --finish is required"
        in capsys.readouterr().err
    )
    with pytest.raises(SystemExit):
        main(["offsets", "x", "--add", "180", "--capture"])
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["offsets", "x", "--add", "180", "--signed", "--unsigned"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_as_a_real_command(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "swervelib", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )

    listed = command("--help")
    assert all(name in listed.stdout for name in ("offsets", "flip", "eight-step"))
    done = command("flip", str(directory), "--dry-run")
    assert done.returncode == 0 and done.stdout.rstrip().endswith("(dry run, nothing written)")
    failed = command("eight-step", str(directory / "nothere"), "--next")
    assert failed.returncode == 1 and failed.stdout == ""
    assert (
        failed.stderr.startswith("error: configuration directory")
        and "Traceback" not in failed.stderr
    )


@pytest.mark.parametrize(
    ("argv", "before"),
    [
        (["flip", "{dir}", "--dry-run"], None),
        (["offsets", "{dir}", "--add", "180", "--dry-run"], None),
        (["eight-step", "{dir}", "--step", "7", "--dry-run"], None),
        (["eight-step", "{dir}", "--next", "--dry-run"], 2),
        (["eight-step", "{dir}", "--restore", "--dry-run"], 3),
        (["eight-step", "{dir}", "--finish", "--dry-run"], 3),
    ],
)
def test_a_dry_run_never_reads_as_done(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], before: int | None
) -> None:
    directory = copy_config(tmp_path)
    if before is not None:
        assert run(capsys, "eight-step", str(directory), "--step", str(before))[0] == 0
    files = everything(directory)
    code, out, err = run(capsys, *[a.format(dir=directory) for a in argv])
    assert (code, err) == (0, "")
    assert everything(directory) == files
    said = "\n".join(
        line for line in out.splitlines() if not line.startswith(("---", "+", "-", "@", " "))
    )
    assert "(dry run, nothing written)" in said
    assert "would" in said.lower() or "no configuration change" in said
    for done in ("Changed:", "Restored", "Kept the", "Deploy, then", "(backup:"):
        assert done not in said, said
    if argv[0] == "eight-step":
        assert "Nothing was written" in said or "Would " in said
        assert not re.search(r"^Step \d of 8", said, re.M), said


def test_an_os_error_any_command_lets_through_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from swervelib.cli import check

    def broken(args: object, *more: object) -> int:
        raise OSError(5, "Input/output error", "deploy/swerve/swervedrive.json")

    monkeypatch.setattr(check, "run", broken)
    code = main(["check", "anything"])
    assert code == 1
    assert capsys.readouterr().err == "error: deploy/swerve/swervedrive.json: input/output error\n"


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_every_command_prints_on_a_console_that_lacks_characters(
    tmp_path: Path, encoding: str
) -> None:
    """flip prints "↔", offsets "°": an ASCII or cp1252 console gets escapes, not a traceback."""
    import shutil

    from tests.conftest import DEPLOY

    directory = Path(shutil.copytree(DEPLOY / "swerve", tmp_path / "swerve"))
    env = dict(os.environ, PYTHONIOENCODING=encoding)
    for argv in (["flip", "--dry-run"], ["offsets", "--add", "180", "--dry-run"]):
        result = subprocess.run(
            [sys.executable, "-m", "swervelib", argv[0], str(directory), *argv[1:]],
            capture_output=True,
            text=True,
            encoding=encoding,
            env=env,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        assert "would change" in result.stdout
        assert "\\u2194" in result.stdout or "\\xb0" in result.stdout or "°" in result.stdout


@pytest.mark.parametrize("columns", [80, 60])
def test_eight_step_instructions_fit_the_terminal(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    columns: int,
) -> None:
    copy_config(tmp_path)
    monkeypatch.chdir(tmp_path)

    def instructions(width: int, step: str) -> str:
        monkeypatch.setenv("COLUMNS", str(width))
        code, out, _ = run(capsys, "eight-step", "swerve", "--step", step)
        assert code == 0 and run(capsys, "eight-step", "swerve", "--restore")[0] == 0
        return out.split("\n", 1)[1]  # after the one-line summary (its backup name differs)

    for step in ("2", "5", "8"):
        text = instructions(columns, step)
        assert max(len(line) for line in text.splitlines()) <= columns, text
        assert text.split() == instructions(10_000, step).split()  # no word cut in two
