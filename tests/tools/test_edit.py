"""ConfigEditor: byte-preserving edits, validation, lock, backups, journal and recovery."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from swervelib.config import load_directory
from swervelib.tools.edit import (
    BACKUP_DIR,
    JOURNAL_NAME,
    LOCK_NAME,
    MISSING,
    TEMP_SUFFIX,
    ConfigEditor,
    EditError,
    FileChange,
    format_result,
)
from swervelib.tools.journal import WHAT_NAME, WHAT_PENDING, backup_what
from tests.tools import (
    BACKUP_NAME,
    REPO,
    Crash,
    assert_clean,
    backups,
    check_crash_at_every_step,
    copy_config,
    crash_at,
    dead_pid,
    everything,
    leave_stale_lock,
    snapshot,
)

FL = "modules/frontleft.json"
DRIVE = "swervedrive.json"
BOM = b"\xef\xbb\xbf"

MODULE = {
    "location": {"front": 10.75, "left": 10.75},
    "drive": {"type": "sparkmax", "id": 1, "canbus": None},
    "angle": {"type": "sparkmax", "id": 2, "canbus": None},
    "encoder": {"type": "cancoder", "id": 9, "canbus": None},
    "inverted": {"drive": "@D@", "angle": False},
    "absoluteEncoderOffset": 12.3,
    "teamNote": "keep me",
}

ODD = (
    '{ "encoder" : {"type":"cancoder", "id" : 9,"canbus":null} ,\n'
    '    "drive":{ "type": "sparkmax","id":1, "canbus":null},"angle" : {"type":"sparkmax",'
    '"id":2,"canbus":null},\n"inverted":{"drive" : @D@ ,"angle":false},\n\n'
    '  "absoluteEncoderOffset":12.30, "location":{"front":10.75,"left":10.75},'
    ' "teamNote": "d\\u00e9j\\u00e0 vu \u2713", "numbers": [1.50, 2e3 , -0.0] }'
)


def template(style: str) -> str:
    """frontleft.json written in one style, with ``@D@`` where inverted.drive's value goes."""
    if style == "odd":
        return ODD
    if style == "compact":
        text = json.dumps(MODULE, separators=(",", ":"), ensure_ascii=False)
    elif style == "tabs":
        text = json.dumps(MODULE, indent="\t") + "\n"
    else:
        text = json.dumps(MODULE, indent=2) + "\n"
    text = text.replace('"@D@"', "@D@")
    return text.replace("\n", "\r\n") if style == "crlf" else text


def encode(style: str, text: str) -> bytes:
    return (BOM if style == "bom" else b"") + text.encode("utf-8")


STYLES = ["pretty", "tabs", "crlf", "compact", "odd", "bom"]


def styled(tmp_path: Path, style: str) -> tuple[Path, str]:
    directory = copy_config(tmp_path)
    text = template(style)
    (directory / FL).write_bytes(encode(style, text.replace("@D@", "false")))
    return directory, text


# -- byte preservation ----------------------------------------------------------------------------


@pytest.mark.parametrize("style", STYLES)
def test_set_changes_only_the_value(tmp_path: Path, style: str) -> None:
    directory, text = styled(tmp_path, style)
    before = snapshot(directory)
    with ConfigEditor(directory) as editor:
        assert editor.get(FL, "inverted.drive") is False
        editor.set(FL, "inverted.drive", True)
        assert editor.get(FL, "inverted.drive") is True
        result = editor.commit("test")
    assert (directory / FL).read_bytes() == encode(style, text.replace("@D@", "true"))
    after = snapshot(directory)
    assert {k for k in after if after[k] != before[k]} == {FL}
    assert result.changes == (FileChange(FL, "inverted.drive", False, True),)
    assert result.written and result.backup is not None
    assert load_directory(directory).module("frontleft").inverted.drive is True


@pytest.mark.parametrize(
    ("style", "added"),
    [
        ("pretty", ',\n  "absoluteEncoderInverted": true'),
        ("tabs", ',\n\t"absoluteEncoderInverted": true'),
        ("crlf", ',\r\n  "absoluteEncoderInverted": true'),
        ("compact", ',"absoluteEncoderInverted":true'),
        ("bom", ',\n  "absoluteEncoderInverted": true'),
    ],
)
def test_new_key_is_appended_in_the_file_style(tmp_path: Path, style: str, added: str) -> None:
    directory, text = styled(tmp_path, style)
    original = text.replace("@D@", "false")
    with ConfigEditor(directory) as editor:
        editor.set(FL, "absoluteEncoderInverted", True)
        result = editor.commit("test")
    end = original.rindex('"keep me"') + len('"keep me"')
    assert (directory / FL).read_bytes() == encode(style, original[:end] + added + original[end:])
    assert result.changes == (FileChange(FL, "absoluteEncoderInverted", MISSING, True),)
    assert repr(result.changes[0].old) == "absent"
    assert load_directory(directory).module("frontleft").absolute_encoder_inverted is True


@pytest.mark.parametrize(
    ("style", "added"),
    [
        (
            "pretty",
            ',\n  "conversionFactors": {\n    "angle": {\n      "gearRatio": 21.4\n    }\n  }',
        ),
        (
            "tabs",
            ',\n\t"conversionFactors": {\n\t\t"angle": {\n\t\t\t"gearRatio": 21.4\n\t\t}\n\t}',
        ),
        ("compact", ',"conversionFactors":{"angle":{"gearRatio":21.4}}'),
    ],
)
def test_missing_parents_are_created(tmp_path: Path, style: str, added: str) -> None:
    directory, text = styled(tmp_path, style)
    original = text.replace("@D@", "false")
    with ConfigEditor(directory) as editor:
        editor.set(FL, "conversionFactors.angle.gearRatio", 21.4)
        editor.commit("test")
    end = original.rindex('"keep me"') + len('"keep me"')
    assert (directory / FL).read_text() == original[:end] + added + original[end:]
    own = load_directory(directory).module("frontleft").conversion_factors  # as written
    assert own.angle.gear_ratio == 21.4


def test_odd_formatting_keeps_number_spelling_and_unicode(tmp_path: Path) -> None:
    directory, _ = styled(tmp_path, "odd")
    with ConfigEditor(directory) as editor:
        assert editor.get_text(FL, "absoluteEncoderOffset") == "12.30"
        assert editor.get_text(FL, "numbers") == "[1.50, 2e3 , -0.0]"
        assert editor.get(FL, "teamNote") == "déjà vu ✓"
        editor.set(FL, "absoluteEncoderOffset", 12.3)  # same value: the text stays
        editor.set(FL, "encoder.id", 20)
        editor.commit("test")
    text = (directory / FL).read_text()
    assert text == ODD.replace("@D@", "false").replace('"id" : 9', '"id" : 20')


def test_set_object_merges_key_by_key(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    original = (directory / FL).read_text()
    with ConfigEditor(directory) as editor:
        editor.set(FL, "encoder", {"canbus": None, "id": 20, "type": "cancoder"})
        result = editor.commit("test")
    assert (directory / FL).read_text() == original.replace('"id": 9,', '"id": 20,')
    assert result.changes == (FileChange(FL, "encoder.id", 9, 20),)


def test_replacing_a_scalar_with_an_object_uses_the_file_layout(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    original = (directory / FL).read_text()
    with ConfigEditor(directory) as editor:
        editor.set(FL, "absoluteEncoderOffset", {"a": [1, 2]})
        assert editor.get(FL, "absoluteEncoderOffset") == {"a": [1, 2]}
        new = editor.get_text(FL, "absoluteEncoderOffset")
    assert new == '{\n    "a": [\n      1,\n      2\n    ]\n  }'
    assert (directory / FL).read_text() == original  # nothing committed


@pytest.mark.parametrize("style", ["pretty", "tabs", "crlf", "compact"])
def test_delete_removes_exactly_the_member(tmp_path: Path, style: str) -> None:
    directory, text = styled(tmp_path, style)
    original = text.replace("@D@", "false")
    end = original.rindex('"keep me"') + len('"keep me"')
    last_removed = original[: original.rindex(",", 0, end)] + original[end:]
    with ConfigEditor(directory) as editor:
        editor.delete(FL, "teamNote")
        editor.delete(FL, "noSuchKey")  # absent: nothing happens
        assert editor.get_text(FL, "") == last_removed.rstrip()
        editor.set(FL, "teamNote", "keep me")  # appended back exactly where it was
        assert editor.get_text(FL, "") == original.rstrip()
        editor.delete(FL, "location")  # the first member: its following separator goes too
        first_removed = editor.get_text(FL, "")
    drive_at = original.index('"drive"')
    assert (
        first_removed == (original[: original.index('"location"')] + original[drive_at:]).rstrip()
    )
    assert (directory / FL).read_bytes().decode() == original  # nothing committed


def test_get_paths_and_defaults(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    with ConfigEditor(directory) as editor:
        assert editor.files() == [
            DRIVE,
            "modules/frontleft.json",
            "modules/frontright.json",
            "modules/backleft.json",
            "modules/backright.json",
        ]
        assert editor.get(DRIVE, "modules[1]") == "frontright.json"
        assert editor.get(DRIVE, "imu") == {"type": "pigeon2", "id": 13, "canbus": "rio"}
        assert editor.get(FL, "absoluteEncoderInverted", None) is None
        assert editor.get_text(FL, "absoluteEncoderInverted") is None
        with pytest.raises(EditError, match="no field `absoluteEncoderInverted`"):
            editor.get(FL, "absoluteEncoderInverted")
        with pytest.raises(EditError, match="not a file path inside"):
            editor.get("../swerve/swervedrive.json", "imu")
        with pytest.raises(EditError, match="does not exist"):
            editor.get("modules/nothere.json", "drive")
        with pytest.raises(EditError, match="finite"):
            editor.set(FL, "absoluteEncoderOffset", float("nan"))
        with pytest.raises(EditError, match="cannot write"):
            editor.set(FL, "absoluteEncoderOffset", object())


def test_syntax_error_is_reported_with_position(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    (directory / FL).write_text('{\n  "drive": ,\n}')
    with ConfigEditor(directory) as editor, pytest.raises(EditError, match=r"frontleft.json:2:"):
        editor.get(FL, "drive")


def test_a_trailing_comma_is_named(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    (directory / FL).write_text('{\n  "drive": {"id": 1},\n}')
    with (
        ConfigEditor(directory) as editor,
        pytest.raises(
            EditError,
            match=r"frontleft.json:3:1: .*\(trailing comma before `}`\? "
            r"JSON allows none: remove the comma at line 2, column 21\)",
        ),
    ):
        editor.get(FL, "drive")


def test_text_after_the_json_is_refused_unless_kept(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    path = directory / FL
    tail = b"\n// from the old robot: 3."
    path.write_bytes(path.read_bytes() + tail)
    with (
        ConfigEditor(directory) as editor,
        pytest.raises(EditError, match=r"frontleft.json:\d+:1: JSON syntax error: extra data"),
    ):
        editor.get(FL, "drive")
    old = path.read_bytes()
    with ConfigEditor(directory, keep_trailing_text=True) as editor:
        assert editor.get(FL, "inverted.drive") is False
        editor.set(FL, "inverted.drive", True)
        result = editor.commit("test")
    assert path.read_bytes() == old.replace(b'"drive": false', b'"drive": true', 1)
    assert path.read_bytes().endswith(b"}\n" + tail)
    assert [(c.field, c.old, c.new) for c in result.changes] == [("inverted.drive", False, True)]
    (backup,) = backups(directory)
    assert (backup / FL).read_bytes() == old


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ('{"a": 1,}', "before `}`? JSON allows none: remove the comma at line 1, column 8"),
        ("[1, 2,]", "before `]`? JSON allows none: remove the comma at line 1, column 6"),
        (
            '{"a": [1,\r\n\t]\r\n}',
            "before `]`? JSON allows none: remove the comma at line 1, column 9",
        ),
        ('{"a": 1,,}', None),  # a doubled comma, not a trailing one
        ('{"a" 1}', None),
        ('{"a": 1}', None),
    ],
)
def test_trailing_comma_hint(text: str, hint: str | None) -> None:
    from swervelib.config.jsonpos import JSONSyntaxError, parse
    from swervelib.tools.json_style import trailing_comma_hint

    try:
        parse(text)
    except JSONSyntaxError as error:
        found = trailing_comma_hint(text, error.line, error.column)
    else:
        found = None
    assert found == (None if hint is None else f"trailing comma {hint}")
    assert trailing_comma_hint(text, 99, 1) is None and trailing_comma_hint(text, 1, 999) is None


# -- commit -----------------------------------------------------------------------------------------


def test_dry_run_writes_nothing_and_shows_the_diff(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    with ConfigEditor(directory, dry_run=True) as editor:
        assert not (directory / LOCK_NAME).exists()
        editor.set(FL, "inverted.drive", True)
        result = editor.commit("test")
    assert everything(directory) == before
    assert not result.written and result.backup is None
    assert result.summary == "test: would change 1 field in 1 file (dry run, nothing written)"
    assert "--- a/modules/frontleft.json" in result.diff
    assert '-    "drive": false,' in result.diff and '+    "drive": true,' in result.diff
    assert format_result(result, show_diff=True).endswith(result.summary)
    assert format_result(result, show_diff=False) == result.summary


def test_invalid_result_is_refused_with_the_problems(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    with ConfigEditor(directory) as editor:
        editor.set(FL, "inverted.drive", "yes")
        with pytest.raises(
            EditError, match=r"(?s)would not load.*frontleft.json:\d+:\d+: inverted.drive"
        ):
            editor.commit("test")
    assert everything(directory) == before


def test_nothing_to_change(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    with ConfigEditor(directory) as editor:
        editor.set(FL, "inverted.drive", False)
        result = editor.commit("test")
    assert result.summary == "test: nothing to change"
    assert not result.written and result.changes == () and backups(directory) == []


def test_backup_is_timestamped_and_holds_the_old_bytes(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    old = (directory / FL).read_bytes()
    with ConfigEditor(directory) as editor:
        editor.set(FL, "inverted.drive", True)
        first = editor.commit("one")
        editor.set(FL, "inverted.angle", True)
        second = editor.commit("two")
    assert first.backup is not None and second.backup is not None
    assert first.backup != second.backup
    assert [p.name for p in backups(directory)] == sorted([first.backup.name, second.backup.name])
    for backup in (first.backup, second.backup):
        assert backup.parent == directory / BACKUP_DIR and BACKUP_NAME.match(backup.name)
    assert (first.backup / FL).read_bytes() == old
    assert json.loads((second.backup / FL).read_bytes())["inverted"] == {
        "drive": True,
        "angle": False,
    }
    assert first.summary == f"one: 1 field in 1 file (backup: {BACKUP_DIR}/{first.backup.name})"
    # each backup says what made it, on one line
    assert (first.backup / WHAT_NAME).read_bytes() == b"one\n"
    assert backup_what(first.backup) == "one" and backup_what(second.backup) == "two"
    assert backup_what(directory) is None  # a folder that does not say


def test_file_changed_meanwhile_is_refused(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    with ConfigEditor(directory) as editor:
        editor.set(FL, "inverted.drive", True)
        outside = (directory / FL).read_bytes().replace(b"12.3", b"99.9")
        (directory / FL).write_bytes(outside)
        with pytest.raises(EditError, match="changed on disk"):
            editor.commit("test")
    assert (directory / FL).read_bytes() == outside
    assert backups(directory) == []


def test_commit_without_with_block_takes_the_lock_for_the_write(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    editor = ConfigEditor(directory, fault_hook=lambda step: seen.append(step))
    seen: list[str] = []
    editor.set(FL, "inverted.drive", True)
    result = editor.commit("test")
    assert result.written and seen[-1] == "done"
    assert not (directory / LOCK_NAME).exists()
    assert load_directory(directory).module("frontleft").inverted.drive is True


# -- lock -------------------------------------------------------------------------------------------


def test_second_editor_is_refused_while_the_first_is_open(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    with ConfigEditor(directory):
        lock = json.loads((directory / LOCK_NAME).read_text())
        assert lock["pid"] == os.getpid()
        with (
            pytest.raises(
                EditError, match=rf"being edited by another swervelib tool \(process {os.getpid()}"
            ),
            ConfigEditor(directory),
        ):
            pass
        with pytest.raises(EditError, match="being edited"), ConfigEditor(directory, dry_run=True):
            pass
    assert not (directory / LOCK_NAME).exists()
    with ConfigEditor(directory):
        pass


def test_lock_held_by_another_process(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    script = (
        "import sys\n"
        "from swervelib.tools.edit import ConfigEditor\n"
        "with ConfigEditor(sys.argv[1]):\n"
        "    print('locked', flush=True)\n"
        "    sys.stdin.read()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(directory)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "locked"
        with pytest.raises(EditError, match=rf"process {child.pid}"), ConfigEditor(directory):
            pass
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=30)
    assert child.returncode == 0
    with ConfigEditor(directory) as editor:
        assert editor.notes == []


def test_stale_lock_is_broken_with_a_note(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    leave_stale_lock(directory)
    with ConfigEditor(directory) as editor:
        assert editor.notes == [
            f"removed a stale lock left by process {dead_pid()}, which is no longer running"
        ]
        editor.set(FL, "inverted.drive", True)
        result = editor.commit("test")
    assert result.notes == tuple(editor.notes)
    assert not (directory / LOCK_NAME).exists()


@pytest.mark.parametrize(
    ("content", "note"),
    [
        (b"", None),  # a tool killed between creating the file and writing its record
        (b'{"pid": 12', "removed a stale lock file that was unreadable (no tool held it)"),
    ],
)
def test_lock_file_nobody_holds_is_taken_over_at_once(
    tmp_path: Path, content: bytes, note: str | None
) -> None:
    """Only the OS lock counts: a fresh empty or half-written lock file never blocks the next run."""
    directory = copy_config(tmp_path)
    (directory / LOCK_NAME).write_bytes(content)
    with ConfigEditor(directory) as editor:
        assert editor.notes == ([] if note is None else [note])
        record = json.loads((directory / LOCK_NAME).read_text())
        assert record["pid"] == os.getpid()
    assert not (directory / LOCK_NAME).exists()


# -- journal and recovery ---------------------------------------------------------------------------


def _two_files(directory: Path, hook: object) -> None:
    with ConfigEditor(directory, fault_hook=hook) as editor:  # type: ignore[arg-type]
        editor.set(FL, "inverted.drive", True)
        editor.set(DRIVE, "invertedIMU", True)
        editor.commit("two files")


def test_kill_at_every_step_leaves_old_or_new(tmp_path: Path) -> None:
    steps = check_crash_at_every_step(lambda name: copy_config(tmp_path, name=name), _two_files)
    assert steps == [
        "backup",
        f"temp {FL}",
        f"temp {DRIVE}",
        "journal",
        f"replace {FL}",
        f"replace {DRIVE}",
        "done",
    ]


def test_a_kill_while_backing_up_leaves_no_partial_backup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after the first of two files was backed up: the half-made backup folder is never
    taken for a backup, and the next run removes it."""
    directory = copy_config(tmp_path)
    old = snapshot(directory)
    real_fsync = os.fsync
    synced: list[int] = []

    def fsync(fd: int) -> None:
        if stat.S_ISREG(os.fstat(fd).st_mode):  # a backup file (directories are synced too)
            synced.append(fd)
            if len(synced) == 2:
                raise Crash("killed while backing up")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(Crash):
        _two_files(directory, None)
    monkeypatch.undo()
    leave_stale_lock(directory)
    with ConfigEditor(directory) as editor:
        assert len(editor.notes) == 1 and "stale lock" in editor.notes[0]
    assert snapshot(directory) == old
    assert backups(directory) == [] and not (directory / BACKUP_DIR).exists()
    assert_clean(directory)


@pytest.mark.parametrize("step", [f"temp {FL}", "journal", f"replace {FL}"])
def test_dry_run_refuses_while_an_edit_is_pending_or_cleans_nothing(
    tmp_path: Path, step: str
) -> None:
    directory = copy_config(tmp_path)
    with pytest.raises(Crash):
        _two_files(directory, crash_at(step))
    before = everything(directory)
    if (directory / JOURNAL_NAME).exists():
        with pytest.raises(EditError, match="without --dry-run"):
            ConfigEditor(directory, dry_run=True).__enter__()
    else:
        with ConfigEditor(directory, dry_run=True) as editor:
            assert editor.get(FL, "inverted.drive") is False
    assert everything(directory) == before


def test_incomplete_temps_are_rolled_back_from_the_backup(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    old = snapshot(directory)
    with pytest.raises(Crash):
        _two_files(directory, crash_at(f"replace {FL}"))
    # the first file is already replaced; the second file's new content is lost
    assert (directory / FL).read_bytes() != old[FL]
    temp = directory / f".{DRIVE}{TEMP_SUFFIX}"
    temp.write_bytes(b"{")
    with ConfigEditor(directory) as editor:
        assert len(editor.notes) == 1 and editor.notes[0].startswith("undid an edit")
    assert snapshot(directory) == old
    assert not (directory / JOURNAL_NAME).exists() and not temp.exists()
    # the backup stays, but no longer says the edit was made: it never was
    (backup,) = backups(directory)
    assert (backup / FL).read_bytes() == old[FL] and backup_what(backup) is None


@pytest.mark.parametrize(
    ("step", "made"),
    [("backup", False), (f"temp {DRIVE}", False), ("journal", True), (f"replace {FL}", True)],
)
def test_a_backup_says_what_made_it_only_once_that_edit_is_bound_to_happen(
    tmp_path: Path, step: str, made: bool
) -> None:
    """Killed before the journal, the edit never happened: the backup folder left behind (complete,
    so kept) must not claim it; killed after, recovery completes the edit and the backup says so."""
    directory = copy_config(tmp_path)
    with pytest.raises(Crash):
        _two_files(directory, crash_at(step))
    (backup,) = backups(directory)
    if step == f"replace {FL}":  # said as soon as the journal is written
        assert backup_what(backup) == "two files"
    else:  # not yet, or never
        assert backup_what(backup) is None
        assert (backup / WHAT_PENDING).read_bytes() == b"two files\n"
    with ConfigEditor(directory) as editor:
        assert editor.notes == (
            ["completed an edit that was interrupted (the journal was complete)"] if made else []
        )
    assert backup_what(backup) == ("two files" if made else None)
    assert not (backup / WHAT_PENDING).exists()


def test_an_ordinary_error_while_writing_is_cleaned_up_at_once(tmp_path: Path) -> None:
    def fail_at(step: str) -> object:
        def hook(name: str) -> None:
            if name == step:
                raise OSError(28, "No space left on device")

        return hook

    directory = copy_config(tmp_path)
    old = snapshot(directory)
    with pytest.raises(EditError, match="nothing was changed"):
        _two_files(directory, fail_at(f"temp {DRIVE}"))
    assert snapshot(directory) == old
    assert_clean(directory)
    with pytest.raises(EditError, match="completed an edit"):
        _two_files(directory, fail_at(f"replace {FL}"))
    assert_clean(directory)
    config = load_directory(directory)
    assert config.module("frontleft").inverted.drive and config.drive.imu_inverted


def test_loader_warns_about_an_interrupted_edit_and_check_recovers_it(tmp_path: Path) -> None:
    """An edit killed mid-way is visible to a plain load, and `check --recover` finishes it."""
    import shutil
    import subprocess
    import sys

    from swervelib.config import load_directory
    from swervelib.tools.edit import JOURNAL_NAME, ConfigEditor

    directory = tmp_path / "swerve"
    shutil.copytree(Path(__file__).resolve().parents[2] / "deploy" / "swerve", directory)

    class Crash(BaseException):  # like a kill: not handled by the editor
        pass

    def crash_after_first_replace(step: str) -> None:
        if step.startswith("replace"):
            raise Crash(step)

    editor = ConfigEditor(directory, fault_hook=crash_after_first_replace)
    editor.set("swervedrive.json", "invertedIMU", True)
    editor.set("modules/frontleft.json", "inverted.drive", True)
    with pytest.raises(Crash):
        editor.commit("test")
    assert (directory / JOURNAL_NAME).exists()
    warnings = [w.format() for w in load_directory(directory).warnings]
    assert any("interrupted" in w and "--recover" in w for w in warnings), warnings
    result = subprocess.run(
        [sys.executable, "-m", "swervelib", "check", "--recover", str(directory)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    config = load_directory(directory)
    assert config.warnings == ()
    assert config.drive.imu_inverted is True and config.modules[0].inverted.drive is True


def test_calibration_writes_survive_a_kill_at_every_step(tmp_path: Path) -> None:
    """The calibrate session's single transaction (flags + offsets across files) is old-or-new."""
    from swervelib.tools.calibrate import Decision, write_decisions
    from tests.tools import check_crash_at_every_step, copy_config

    decisions = [
        Decision("modules/frontleft.json", "inverted.angle", False, True, "test"),
        Decision("modules/backright.json", "absoluteEncoderInverted", False, True, "test"),
        Decision("modules/backright.json", "absoluteEncoderOffset", 45.0, 315.0, "test"),
        Decision("swervedrive.json", "invertedIMU", False, True, "test"),
    ]
    steps = check_crash_at_every_step(
        lambda name: copy_config(tmp_path, name=name),
        lambda directory, hook: write_decisions(
            directory, decisions, "calibrate", dry_run=False, fault_hook=hook
        ),
    )
    assert sum(step.startswith("replace") for step in steps) == 3
