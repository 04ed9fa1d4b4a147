"""The eight-step procedure and ``flip``, followed on a simulated phoenix6 robot, in processes of
their own.

The robot was calibrated with its front at the wrong end (spec §3.4: tuned correctly while the
intended front is physically the back), and one of its drive motors turns the other way from the
rest, which ``calibrate`` found and wrote (backleft's ``inverted.drive`` is true, the others
false). Following the tool's words only: step 1 holds its heading but drives backwards, and the
tool names the step to go to; that step must drive the robot field-oriented correctly.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from swervelib.config import load_directory
from swervelib.sim import HardwareTruth
from swervelib.tools.eight_step import eight_step
from swervelib.tools.flip import after_flip, flip_modules
from swervelib.tools.offsets import add_to_offsets
from tests.calibrate.test_session_sim import (
    DRIVE_CHECK,
    check_result,
    drives_correctly,
    start_check,
)
from tests.conftest import DEPLOY
from tests.json_files import edit_json
from tests.tools import copy_config


def front_is_back(truth: HardwareTruth) -> HardwareTruth:
    """The same hardware seen from the other end: every corner mirrored through the centre, and
    a wheel facing the new front reads half a turn from one facing the old front."""
    corners = tuple(
        replace(c, front=-c.front, left=-c.left, encoder_zero_deg=(c.encoder_zero_deg + 180) % 360)
        for c in truth.corners
    )
    return replace(truth, corners=corners)


def test_a_robot_with_one_drive_motor_the_other_way_is_fixed_by_the_step_the_tool_names(
    tmp_path: Path,
) -> None:
    directory = copy_config(tmp_path, DEPLOY / "kraken_cancoder_pigeon2", "swerve")
    edit_json(directory / "modules" / "backleft.json", lambda d: d["inverted"].update(drive=True))
    truth = HardwareTruth.matching(load_directory(directory))  # backleft's motor: as calibrated
    truth_file = tmp_path / "truth.json"
    front_is_back(truth).save(truth_file)

    first = eight_step(directory, next=True)
    assert first.step == 1
    words = " ".join(first.instructions.split())
    assert "step 5 is the one" in words
    backwards = check_result(start_check(DRIVE_CHECK, directory, truth_file, tmp_path / "step1"))
    assert backwards["x"] < -0.8, backwards  # heading held, driving towards the driver

    eight_step(directory, 5)  # as the tool says
    fixed = check_result(start_check(DRIVE_CHECK, directory, truth_file, tmp_path / "step5"))
    assert drives_correctly(fixed), fixed
    # step 1 left backleft's inverted.drive as calibrated (it set it to false before)
    assert "inverted.drive" not in first.instructions.splitlines()[1], first.instructions


def test_flip_and_what_its_output_says_turn_the_front_around(tmp_path: Path) -> None:
    """Spec §3.4: a robot tuned with its front physically at the back. ``flip`` alone leaves it
    driving backwards (and rotation mirrored); with the offsets +180 its output asks for, it
    drives field-oriented correctly."""
    directory = copy_config(tmp_path, DEPLOY / "kraken_cancoder_pigeon2", "swerve")
    truth_file = tmp_path / "truth.json"
    front_is_back(HardwareTruth.matching(load_directory(directory))).save(truth_file)

    flip_modules(directory)
    flipped = check_result(start_check(DRIVE_CHECK, directory, truth_file, tmp_path / "flip"))
    assert flipped["x"] < -0.8, flipped  # still backwards

    said = " ".join(after_flip(str(directory)).split())
    assert f"python -m swervelib offsets {directory} --add 180" in said
    add_to_offsets(directory, 180)
    fixed = check_result(start_check(DRIVE_CHECK, directory, truth_file, tmp_path / "fixed"))
    assert drives_correctly(fixed), fixed
