"""eight-step: the eight states of spec §3.2, --next, --restore byte for byte, --finish."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from swervelib.config import SwerveConfig, load_directory
from swervelib.tools.edit import EditError
from swervelib.tools.eight_step import STATE_DIR, eight_step
from swervelib.tools.offsets import add_to_offsets
from tests.tools import (
    VALID,
    VARIANTS,
    backups,
    check_crash_at_every_step,
    copy_config,
    everything,
    snapshot,
)

# spec §3.2, cumulative: (IMU inverted, every inverted.drive, modules flipped)
EXPECTED = {
    1: (False, False, False),
    2: (True, False, False),
    3: (True, True, False),
    4: (False, True, False),
    5: (False, True, True),
    6: (False, False, True),
    7: (True, False, True),
    8: (True, True, True),
}
DIAGONAL = {
    "frontleft": "backright",
    "frontright": "backleft",
    "backleft": "frontright",
    "backright": "frontleft",
}


def state_of(config: SwerveConfig, start: SwerveConfig) -> tuple[bool, bool, bool]:
    drives = {m.inverted.drive for m in config.modules}
    assert len(drives) == 1, "every module's inverted.drive must be the same"
    same = all(m.drive == start.module(m.name).drive for m in config.modules)
    swapped = all(m.drive == start.module(DIAGONAL[m.name]).drive for m in config.modules)
    assert same != swapped
    for module in config.modules:
        assert module.location == start.module(module.name).location
    return config.drive.imu_inverted, drives.pop(), swapped


@pytest.mark.parametrize("variant", VARIANTS)
def test_next_visits_all_eight_states_then_restore(tmp_path: Path, variant: str) -> None:
    directory = copy_config(tmp_path, variant)
    original = snapshot(directory)
    start = load_directory(directory)
    seen = []
    for step in range(1, 9):
        result = eight_step(directory, next=True)
        assert result.step == step
        state = state_of(load_directory(directory), start)
        assert state == EXPECTED[step], step
        seen.append(state)
        assert json.loads((directory / STATE_DIR / "state.json").read_text())["step"] == step
    assert len(set(seen)) == 8
    with pytest.raises(EditError, match="step 8 was the last"):
        eight_step(directory, next=True)
    result = eight_step(directory, restore=True)
    assert result.step is None and result.written
    assert snapshot(directory) == original
    assert not (directory / STATE_DIR).exists()


def test_jumping_between_steps_and_restore(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    original = snapshot(directory)
    start = load_directory(directory)
    for step in (7, 2, 5, 5, 8, 1, 6, 3):
        eight_step(directory, step)
        assert state_of(load_directory(directory), start) == EXPECTED[step]
    eight_step(directory, next=True)
    assert state_of(load_directory(directory), start) == EXPECTED[4]
    eight_step(directory, restore=True)
    assert snapshot(directory) == original


def test_restore_is_byte_identical_with_odd_files(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    drive = directory / "swervedrive.json"
    drive.write_bytes(b"\xef\xbb\xbf" + drive.read_bytes().replace(b"\n", b"\r\n"))
    fl = directory / "modules" / "frontleft.json"
    fl.write_bytes(json.dumps(json.loads(fl.read_bytes()), separators=(",", ":")).encode())
    original = snapshot(directory)
    eight_step(directory, 8)
    assert load_directory(directory).drive.imu_inverted
    eight_step(directory, restore=True)
    assert snapshot(directory) == original


def test_imu_spelling_follows_the_file(tmp_path: Path) -> None:
    only_invert = copy_config(tmp_path, VALID / "invert_imu_spelling")
    eight_step(only_invert, 1)
    text = (only_invert / "swervedrive.json").read_text()
    assert '"invertIMU": false' in text and "invertedIMU" not in text
    eight_step(only_invert, 2)
    assert load_directory(only_invert).drive.imu_inverted

    both = copy_config(tmp_path, VALID / "both_imu_spellings_agree")
    eight_step(both, 2)
    text = (both / "swervedrive.json").read_text()
    assert '"invertedIMU": true' in text and '"invertIMU": true' in text

    neither = copy_config(tmp_path, name="neither")
    drive = neither / "swervedrive.json"
    drive.write_text(drive.read_text().replace('  "invertedIMU": false,\n', ""))
    original = snapshot(neither)
    eight_step(neither, 1)
    assert snapshot(neither)["swervedrive.json"] == original["swervedrive.json"]
    eight_step(neither, 2)
    assert drive.read_text().endswith('  ],\n  "invertedIMU": true\n}\n')
    eight_step(neither, restore=True)
    assert snapshot(neither) == original


def test_instructions_say_what_changed_and_what_to_watch(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    first = eight_step(directory, 1)
    assert first.summary == "eight-step 1: no configuration change"
    assert first.written  # the starting files are remembered
    assert "Nothing to change for this step." in first.instructions
    second = eight_step(directory, next=True)
    assert "Changed: invertedIMU: false → true." in second.instructions
    assert "counter-clockwise" in second.instructions
    assert "--next" in second.instructions and "(step 3)" in second.instructions
    fifth = eight_step(directory, 5)
    assert "flipped the modules (frontleft↔backright, frontright↔backleft)" in fifth.instructions
    assert (
        "inverted.drive → true on frontleft, frontright, backleft, backright" in fifth.instructions
    )
    eighth = eight_step(directory, 8)
    assert "wiring" in eighth.instructions and "--next" not in eighth.instructions


def test_drive_flags_calibrated_one_by_one_keep_their_differences(tmp_path: Path) -> None:
    """backleft's drive motor turns the other way (calibrate set its flag alone): every step
    keeps each motor's own flag or reverses all of them, and a flag stays with its motor through
    a flip; setting them all alike would make every step wrong for one wheel."""
    directory = copy_config(tmp_path)
    edit = json.loads((directory / "modules/backleft.json").read_text())
    edit["inverted"]["drive"] = True
    (directory / "modules/backleft.json").write_text(json.dumps(edit, indent=2))
    start = load_directory(directory)

    def drives() -> dict[str, bool]:
        config = load_directory(directory)
        return {m.name: m.inverted.drive for m in config.modules}

    as_at_start = {"frontleft": False, "frontright": False, "backleft": True, "backright": False}
    reversed_ = {name: not value for name, value in as_at_start.items()}
    # after a flip, each file holds its diagonal partner's motors and their flag
    flipped_start = {n: as_at_start[DIAGONAL[n]] for n in as_at_start}
    flipped_reversed = {n: not v for n, v in flipped_start.items()}
    expected = {
        1: as_at_start,
        2: as_at_start,
        3: reversed_,
        4: reversed_,
        5: flipped_reversed,
        6: flipped_start,
        7: flipped_start,
        8: flipped_reversed,
    }
    for step in range(1, 9):
        result = eight_step(directory, next=True)
        assert drives() == expected[step], step
        config = load_directory(directory)
        swapped = all(m.drive == start.module(DIAGONAL[m.name]).drive for m in config.modules)
        assert (config.drive.imu_inverted, swapped) == (EXPECTED[step][0], EXPECTED[step][2])
        assert "each keeps its own" in " ".join(result.instructions.split())
    eight_step(directory, restore=True)
    assert drives() == as_at_start


def test_edits_between_steps_are_kept_until_restore(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    original = snapshot(directory)
    eight_step(directory, 2)
    add_to_offsets(directory, 180)
    eight_step(directory, next=True)
    assert load_directory(directory).module("frontleft").absolute_encoder_offset_deg == 192.3
    eight_step(directory, restore=True)
    assert snapshot(directory) == original


def test_finish_keeps_the_step_and_forgets_the_start(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    eight_step(directory, 3)
    kept = {k: v for k, v in snapshot(directory).items() if not k.startswith(STATE_DIR)}
    result = eight_step(directory, finish=True)
    assert result.summary.startswith(
        "eight-step --finish (keeping step 3): no configuration change"
    )
    assert snapshot(directory) == kept
    with pytest.raises(EditError, match="nothing to restore"):
        eight_step(directory, restore=True)


def test_refusals(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    with pytest.raises(EditError, match="nothing to restore"):
        eight_step(directory, restore=True)
    with pytest.raises(EditError, match="exactly one"):
        eight_step(directory, 2, next=True)
    with pytest.raises(EditError, match="exactly one"):
        eight_step(directory)
    with pytest.raises(EditError, match="from 1 to 8"):
        eight_step(directory, 9)
    assert everything(directory) == before

    three = copy_config(tmp_path, VALID / "three_modules")
    eight_step(three, 4)
    at_four = everything(three)
    with pytest.raises(EditError, match="diagonally opposite"):
        eight_step(three, next=True)
    assert everything(three) == at_four


def test_a_folder_that_does_not_load_is_refused_even_when_the_step_changes_nothing(
    tmp_path: Path,
) -> None:
    """Step 1 on the reference robot changes no JSON value (IMU and drives already false): the
    procedure still must not start on a folder the robot cannot load (two motors on one id)."""
    directory = copy_config(tmp_path)
    path = directory / "modules" / "frontright.json"
    path.write_text(path.read_text().replace('"id": 4,', '"id": 2,', 1))
    before = everything(directory)
    with pytest.raises(EditError, match="would not load"):
        eight_step(directory, 1)
    assert everything(directory) == before
    assert not (directory / STATE_DIR).exists()


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    result = eight_step(directory, 5, dry_run=True)
    assert everything(directory) == before
    assert not result.written and result.backup is None
    assert '+  "invertedIMU": false' not in result.diff  # already false
    assert '+    "drive": true,' in result.diff and '+    "id": 7,' in result.diff


@pytest.mark.parametrize(
    ("before", "operation"),
    [
        (None, {"step": 2}),  # first step: remembers the start, changes the IMU
        (4, {"next": True}),  # step 5: flips the modules
        (6, {"restore": True}),  # restore: every file back, the remembered start deleted
    ],
)
def test_kill_at_every_step_of_eight_step(
    tmp_path: Path, before: int | None, operation: dict[str, object]
) -> None:
    def make(name: str) -> Path:
        directory = copy_config(tmp_path, name=name)
        if before is not None:
            eight_step(directory, before)
            for backup in backups(directory):  # keep only the crashed run's backup
                for path in sorted(backup.rglob("*"), reverse=True):
                    path.unlink() if path.is_file() else path.rmdir()
                backup.rmdir()
        return directory

    steps = check_crash_at_every_step(
        make,
        lambda directory, hook: eight_step(directory, fault_hook=hook, **operation),  # type: ignore[arg-type]
    )
    if operation == {"restore": True}:
        assert any(s.startswith(f"delete {STATE_DIR}/") for s in steps)
    else:
        assert f"temp {STATE_DIR}/state.json" in steps


# The eight states as swervelib's simulation measures them (the README's measured table,
# tests/sim/test_symptoms.py): which settings are wrong for the hardware (IMU inversion, drive
# inversion, flip) → what the robot does.
MEASURED = {
    (False, False, False): "correct",
    (True, False, False): "spins",
    (True, True, False): "translation depends on heading",
    (False, True, False): "spins",
    (False, True, True): "reversed",
    (False, False, True): "spins",
    (True, False, True): "translation depends on heading",
    (True, True, True): "spins",
}


def test_the_instructions_agree_with_the_measured_table(tmp_path: Path) -> None:
    from collections import Counter

    from swervelib.tools.eight_step import STEPS, partner

    counts = Counter(MEASURED.values())
    directory = copy_config(tmp_path)
    text = " ".join(eight_step(directory, 3).instructions.split())
    assert f"In {counts['spins']} of the 8 steps it spins out of control" in text
    assert f"In {counts['translation depends on heading']} of the steps it turns with" in text
    assert f"(in {counts['reversed']} of the steps: its front is physically the back" in text
    assert "6 of the 8" not in text
    # Whichever step is right for a robot, the one that holds its heading but drives backwards
    # sends the person to it (not to `flip`, which from there makes the robot spin).
    for right, truth in STEPS.items():
        for step, state in STEPS.items():
            wrong = (
                state.imu_inverted != truth.imu_inverted,
                state.drive_inverted != truth.drive_inverted,
                state.flipped != truth.flipped,
            )
            if MEASURED[wrong] == "reversed":
                assert partner(step) == right, (step, right)
                flipped_only = (wrong[0], wrong[1], not wrong[2])
                assert MEASURED[flipped_only] == "spins"
    fifth = " ".join(eight_step(directory, 5).instructions.split())
    assert "step 1 is the one" in fifth and "--step 1`" in fifth
    assert "swervelib flip" not in fifth
