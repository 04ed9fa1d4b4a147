"""``eight-step DIRECTORY --step N | --next | --restore | --finish``: the eight-step procedure.

For when translation axes change with the robot heading in field-oriented driving and the single
calibration corrections did not fix it. Step N is a *state* of three settings, reached from wherever the
configuration is (the procedure's table read cumulatively):

====  ===========  =====================  ===============================
step  IMU inverted  every inverted.drive  modules (relative to the start)
====  ===========  =====================  ===============================
1     false        false                  as at the start
2     true         false                  as at the start
3     true         true                   as at the start
4     false        true                   as at the start
5     false        true                   flipped
6     false        false                  flipped
7     true         false                  flipped
8     true         true                   flipped
====  ===========  =====================  ===============================

On a robot, swervelib's simulation of the eight states finds 4 that spin out of control, 2 that hold
their heading while field-oriented translation turns with it, 1 that holds its heading but drives
backwards (its front is physically the back: the fix is the :func:`partner` step, which
flips the modules *and* inverts every drive motor; a flip alone makes it spin) and 1 correct one.
Each step's instructions say so.

Every ``inverted.drive`` is set alike, as the spec says, when they all start alike. When they
start different (``calibrate`` found a drive motor turning the other way from the rest and set
that module's flag alone), setting them alike would leave one wheel pushing against the others in
every state, so the column then means "each motor's own starting flag" and "each one reversed";
a flag travels with its motor through a flip.

The IMU flag is written under the spelling the file already uses (``invertedIMU`` or ``invertIMU``,
both when both are present), ``invertedIMU`` when neither is. The first step remembers the starting
bytes of swervedrive.json and of every module file under ``<directory>/.swervelib-eight-step/``
(with the current step in ``state.json``), in the same all-or-nothing transaction as the edit:
``--next`` goes to the following step, ``--restore`` writes the remembered bytes back exactly and
forgets them, ``--finish`` keeps the current files and forgets them. Steps are computed from the
current files, so other edits made between steps (an offset, a PID gain) are kept; ``--restore``
discards them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from pathlib import PurePosixPath
from typing import Any, Final

from swervelib.text import printable, printable_repr, shown_path
from swervelib.tools.edit import (
    DRIVE_FILE,
    ConfigEditor,
    EditError,
    EditResult,
    FaultHook,
)
from swervelib.tools.flip import apply_flip, describe_pairs, diagonal_pairs

STATE_DIR: Final = ".swervelib-eight-step"
STATE_FILE: Final = f"{STATE_DIR}/state.json"
ORIGINALS: Final = f"{STATE_DIR}/original"
IMU_KEYS: Final = ("invertedIMU", "invertIMU")


@dataclass(frozen=True)
class StepState:
    """The configuration of one step."""

    imu_inverted: bool
    drive_inverted: bool
    flipped: bool


STEPS: Final[dict[int, StepState]] = {
    1: StepState(False, False, False),
    2: StepState(True, False, False),
    3: StepState(True, True, False),
    4: StepState(False, True, False),
    5: StepState(False, True, True),
    6: StepState(False, False, True),
    7: StepState(True, False, True),
    8: StepState(True, True, True),
}


@dataclass(frozen=True)
class EightStepResult(EditResult):
    """An :class:`EditResult` plus the step reached (None after restore/finish, and for a dry run)
    and what to do."""

    step: int | None = None
    instructions: str = ""


@dataclass(frozen=True)
class _Progress:
    step: int
    flipped: bool
    files: tuple[str, ...]
    drive_at_start: dict[str, bool] = field(default_factory=dict)  # module file -> inverted.drive


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _read_progress(editor: ConfigEditor) -> _Progress | None:
    raw = editor.read_raw(STATE_FILE)
    if raw is None:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
        step, flipped, files = data["step"], data["flipped"], data["files"]
        drive_at_start = data.get("driveAtStart", {})  # absent: written by an older version
        if (
            not isinstance(step, int)
            or step not in STEPS
            or not isinstance(flipped, bool)
            or not isinstance(files, list)
            or not all(isinstance(f, str) for f in files)
            or not isinstance(drive_at_start, dict)
            or not all(isinstance(v, bool) for v in drive_at_start.values())
        ):
            raise ValueError("unexpected content")
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as error:
        raise EditError(
            f"{shown_path(editor.directory / STATE_FILE)} is unreadable ({printable(str(error))}): "
            f"the starting configuration is in {shown_path(editor.directory / ORIGINALS)}; copy it "
            f"back by hand and delete {shown_path(editor.directory / STATE_DIR)}"
        ) from None
    return _Progress(step, flipped, tuple(files), dict(drive_at_start))


def _state_bytes(progress: _Progress) -> bytes:
    data = {
        "step": progress.step,
        "flipped": progress.flipped,
        "files": list(progress.files),
        "driveAtStart": progress.drive_at_start,
    }
    return (json.dumps(data, indent=2) + "\n").encode("utf-8")


def _forget(editor: ConfigEditor, progress: _Progress) -> None:
    editor.stage_raw(STATE_FILE, None)
    for file in progress.files:
        editor.stage_raw(f"{ORIGINALS}/{file}", None)


def _with(result: EditResult, step: int | None, instructions: str) -> EightStepResult:
    values: dict[str, Any] = {f.name: getattr(result, f.name) for f in fields(EditResult)}
    return EightStepResult(**values, step=step, instructions=instructions)


def _imu_keys(editor: ConfigEditor) -> list[str]:
    present = [k for k in IMU_KEYS if editor.get_text(DRIVE_FILE, k) is not None]
    return present or ["invertedIMU"]


def _mixed(progress: _Progress) -> bool:
    """The modules' ``inverted.drive`` differed at the start: calibrated one by one."""
    return len(set(progress.drive_at_start.values())) > 1


def _drive_flags(editor: ConfigEditor, progress: _Progress, wanted: StepState) -> dict[str, bool]:
    """Each module file's ``inverted.drive`` in the ``wanted`` state.

    When every module started alike this is the spec's value (every one false, or every one
    true). When they started different (``calibrate`` found one drive motor turning the other way
    from the rest), setting them all alike would undo that, and none of the eight states could be
    right for the robot: then "false" is each motor's own starting flag and "true" the opposite
    of it. A flag belongs to its motor, so after a flip a file takes its diagonal partner's.
    """
    modules = editor.module_files()
    if not _mixed(progress):
        return {module: wanted.drive_inverted for module in modules}
    motor_of = {module: module for module in modules}
    if wanted.flipped:
        for first, second in diagonal_pairs(editor):
            motor_of[first], motor_of[second] = second, first
    start = progress.drive_at_start
    return {m: start.get(motor_of[m], False) != wanted.drive_inverted for m in modules}


def partner(step: int) -> int:
    """The step with the same IMU inversion but every ``inverted.drive`` and the flip the other
    way: where a step whose robot holds its heading but drives backwards must go (a flip alone
    reverses rotation, and with it the heading hold)."""
    state = STEPS[step]
    wanted = StepState(state.imu_inverted, not state.drive_inverted, not state.flipped)
    return next(n for n, s in STEPS.items() if s == wanted)


def _watch_for(directory: str, step: int) -> str:
    # What to expect is swervelib's simulation of the eight states (tests/sim/test_symptoms.py):
    # 4 spin, 2 hold their heading while translation turns with it, 1 holds its heading but
    # drives backwards, 1 is correct. (The spec counts 6 spinning and 1 heading-dependent.)
    other = partner(step)
    lines = [
        "Deploy (or restart the robot code), then drive field-oriented, robot on blocks first, "
        "then on the ground, and watch:",
        "  1. Spin in place counter-clockwise: the robot must turn under control and hold its "
        "heading when you let go. In 4 of the 8 steps it spins out of control.",
        "  2. Drive forward, turn the robot about 90°, drive forward again: field-oriented forward "
        "must stay the same field direction whatever the heading. In 2 of the steps it turns "
        "with the robot instead.",
        "  If both hold and forward drives the robot away from you, stop here: "
        f"`python -m swervelib eight-step {directory} --finish` keeps this configuration.",
        "  If both hold but forward drives the robot towards you (in 1 of the steps: its front "
        f"is physically the back), step {other} is the one: it flips the modules and "
        "inverts every drive motor together (flipping alone would make the robot spin): "
        f"`python -m swervelib eight-step {directory} --step {other}`.",
    ]
    if step < 8:
        lines.append(
            f"  Otherwise: `python -m swervelib eight-step {directory} --next` (step {step + 1})."
        )
    else:
        lines.append(
            "  Step 8 was the last. If none of the eight worked, the hardware configuration or the "
            "wiring is wrong (check device ids against positions)."
        )
    lines.append(f"  `python -m swervelib eight-step {directory} --restore` returns to the start.")
    return "\n".join(lines)


def eight_step(
    directory: str | os.PathLike[str],
    step: int | None = None,
    *,
    next: bool = False,
    restore: bool = False,
    finish: bool = False,
    dry_run: bool = False,
    fault_hook: FaultHook | None = None,
) -> EightStepResult:
    """Set the configuration to the state of ``step`` (or the ``next`` one), or ``restore`` the
    starting files byte for byte, or ``finish`` (keep the current files, forget the start)."""
    chosen = [
        name
        for name, on in (
            ("--step", step is not None),
            ("--next", next),
            ("--restore", restore),
            ("--finish", finish),
        )
        if on
    ]
    if len(chosen) != 1:
        raise EditError("choose exactly one of --step N, --next, --restore, --finish")
    if step is not None and (
        isinstance(step, bool) or not isinstance(step, int) or step not in STEPS
    ):
        raise EditError(f"the step must be a whole number from 1 to 8, not {printable_repr(step)}")
    shown = shown_path(directory)
    with ConfigEditor(directory, dry_run=dry_run, fault_hook=fault_hook) as editor:
        progress = _read_progress(editor)
        if restore or finish:
            if progress is None:
                raise EditError(
                    f"no eight-step procedure is in progress in {shown} (nothing to "
                    f"{'restore' if restore else 'finish'})"
                )
            if restore:
                for file in progress.files:
                    original = editor.read_raw(f"{ORIGINALS}/{file}")
                    if original is None:
                        raise EditError(
                            f"the starting copy of {printable(file)} is missing from "
                            f"{shown_path(editor.directory / ORIGINALS)}; nothing was restored"
                        )
                    editor.replace_file(file, original)
            _forget(editor, progress)
            if restore:
                result = editor.commit("eight-step --restore", validate=False)
                text = (
                    f"Would restore the configuration from before step 1 (now at step "
                    f"{progress.step})."
                    if dry_run
                    else f"Restored the configuration from before step 1 (was at step "
                    f"{progress.step})."
                )
            else:
                result = editor.commit(f"eight-step --finish (keeping step {progress.step})")
                text = (
                    f"Would keep the configuration of step {progress.step} and forget the start."
                    if dry_run
                    else f"Kept the configuration of step {progress.step}; the start is forgotten."
                )
            return _with(result, None, text)

        if next:
            if progress is not None and progress.step >= 8:
                raise EditError(
                    "step 8 was the last one. If none of the eight steps worked, the hardware "
                    f"configuration or wiring is wrong; `eight-step {shown} --restore` "
                    "returns to the start"
                )
            target = 1 if progress is None else progress.step + 1
        else:
            assert step is not None
            target = step
        wanted = STEPS[target]

        if progress is None:
            files = editor.files()
            for file in files:
                editor.stage_raw(f"{ORIGINALS}/{file}", editor.original_bytes(file))
            at_start = {
                m: editor.get(m, "inverted.drive", False) is True for m in editor.module_files()
            }
            progress = _Progress(0, False, tuple(files), at_start)

        modules = editor.module_files()
        imu_keys = _imu_keys(editor)
        imu_before = editor.get(DRIVE_FILE, imu_keys[0], False)
        drive_before = {m: editor.get(m, "inverted.drive", None) for m in modules}

        done: list[str] = []
        if wanted.flipped != progress.flipped:
            pairs = apply_flip(editor)
            done.append(
                ("flipped the modules" if wanted.flipped else "flipped the modules back")
                + f" ({describe_pairs(pairs)})"
            )
        elif wanted.flipped:
            diagonal_pairs(editor)  # still a flippable layout
        for key in imu_keys:
            if wanted.imu_inverted or editor.get_text(DRIVE_FILE, key) is not None:
                editor.set(DRIVE_FILE, key, wanted.imu_inverted)  # absent already means false
        if imu_before is not wanted.imu_inverted:
            done.append(
                f"{' and '.join(imu_keys)}: {_flag(bool(imu_before))} → {_flag(wanted.imu_inverted)}"
            )
        drive_after = _drive_flags(editor, progress, wanted)
        for module in modules:
            editor.set(module, "inverted.drive", drive_after[module])
        # what each file said before (after a flip a file holds its partner's motors)
        for value in (True, False):
            changed = [
                printable(PurePosixPath(m).stem)
                for m in modules
                if drive_after[m] is value and drive_before[m] is not value
            ]
            if changed:
                done.append(f"inverted.drive → {_flag(value)} on {', '.join(changed)}")
        editor.stage_raw(
            STATE_FILE,
            _state_bytes(
                _Progress(target, wanted.flipped, progress.files, progress.drive_at_start)
            ),
        )
        if not done:  # no JSON value changes, so commit() would not check that the folder loads
            editor.validate()
        result = editor.commit(f"eight-step {target}")

    if _mixed(progress):
        drives = (
            "every drive motor's inverted.drive "
            f"{'reversed from' if wanted.drive_inverted else 'as'} at the start (the modules "
            "started with different ones: each keeps its own, reversed or not)"
        )
    else:
        drives = f"every inverted.drive {_flag(wanted.drive_inverted)}"
    settings = (
        f"IMU inverted {_flag(wanted.imu_inverted)}, {drives}, modules "
        f"{'flipped' if wanted.flipped else 'as at the start'}."
    )
    if dry_run:
        lines = [
            f"Dry run: step {target} of 8 would be {settings}",
            "Would change: " + "; ".join(done) + "."
            if done
            else "Nothing to change for this step.",
            "Nothing was written; run the command without --dry-run to go to this step.",
        ]
        return _with(result, None, "\n".join(lines))
    state = f"Step {target} of 8: {settings}"
    what = "Changed: " + "; ".join(done) + "." if done else "Nothing to change for this step."
    return _with(result, target, "\n".join([state, what, _watch_for(shown, target)]))
