"""flip: hardware to the diagonally opposite module, by location; byte-identical when done twice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from swervelib.config import load_directory
from swervelib.tools.edit import JOURNAL_NAME, LOCK_NAME, ConfigEditor, EditError
from swervelib.tools.flip import flip_modules
from tests.tools import (
    CORPUS,
    REPO,
    VALID,
    VARIANTS,
    backups,
    check_crash_at_every_step,
    copy_config,
    everything,
    snapshot,
)

PAIRS = {
    "frontleft": "backright",
    "backright": "frontleft",
    "frontright": "backleft",
    "backleft": "frontright",
}
HARDWARE = ("drive", "angle", "encoder")


def _module_json(directory: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((directory / "modules" / f"{name}.json").read_bytes())
    return data


def _write(directory: Path, name: str, data: bytes) -> None:
    (directory / "modules" / f"{name}.json").write_bytes(data)


def test_flip_moves_hardware_to_the_diagonal(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = load_directory(directory)
    result = flip_modules(directory)
    after = load_directory(directory)
    assert result.written and result.backup is not None
    assert result.summary.startswith("flip (frontleft↔backright, frontright↔backleft): 16 fields")
    for module in after.modules:
        partner = before.module(PAIRS[module.name])
        own = before.module(module.name)
        assert (module.drive, module.angle, module.encoder) == (
            partner.drive,
            partner.angle,
            partner.encoder,
        )
        assert module.absolute_encoder_offset_deg == partner.absolute_encoder_offset_deg
        assert module.location == own.location
    assert after.drive == before.drive


@pytest.mark.parametrize(
    "source",
    [*VARIANTS, "no_encoder", "unknown_keys", "abs_inverted_explicit", "factors_in_modules"],
)
def test_flip_twice_is_byte_identical(tmp_path: Path, source: str) -> None:
    origin = VALID / source if (VALID / source).is_dir() else source
    directory = copy_config(tmp_path, origin)
    before = snapshot(directory)
    first = flip_modules(directory)
    assert first.written and snapshot(directory) != before
    load_directory(directory)
    flip_modules(directory)
    assert snapshot(directory) == before


def _odd_directory(tmp_path: Path) -> Path:
    """Four module files in four styles, with fields present in only some of them."""
    directory = copy_config(tmp_path)
    fl = _module_json(directory, "frontleft")
    fl_items = list(fl.items())
    fl = dict([*fl_items[:4], ("absoluteEncoderInverted", True), *fl_items[4:]])
    fl["inverted"] = {"drive": True, "angle": True}
    _write(directory, "frontleft", (json.dumps(fl, indent="\t") + "\n").encode())
    fr = _module_json(directory, "frontright")
    # a whole per-module conversion (a partial one is ignored, as YAGSL ignores it)
    fr["conversionFactors"] = {
        "angle": {"gearRatio": 21.4},
        "drive": {"gearRatio": 6.75, "diameter": 4},
    }
    _write(
        directory, "frontright", (json.dumps(fr, indent=4) + "\n").replace("\n", "\r\n").encode()
    )
    bl = _module_json(directory, "backleft")
    bl = {"teamNote": "spare module", **bl}
    _write(directory, "backleft", b"\xef\xbb\xbf" + json.dumps(bl, separators=(",", ":")).encode())
    br = (directory / "modules" / "backright.json").read_text()
    br = br.replace('"absoluteEncoderOffset": 45.0', '"absoluteEncoderOffset" :45.00 ')
    _write(directory, "backright", br.encode())
    load_directory(directory)
    return directory


def test_flip_twice_is_byte_identical_with_odd_formatting(tmp_path: Path) -> None:
    directory = _odd_directory(tmp_path)
    before = snapshot(directory)
    flip_modules(directory)
    middle = snapshot(directory)
    config = load_directory(directory)
    flip_modules(directory)
    assert snapshot(directory) == before
    # the inversion flags and the per-module gearing travelled with the devices
    br, fl = config.module("backright"), config.module("frontleft")
    assert br.absolute_encoder_inverted and not fl.absolute_encoder_inverted
    assert br.inverted.drive and br.inverted.angle
    assert not fl.inverted.drive and not fl.inverted.angle
    assert config.module("backleft").conversion.angle_gear_ratio == 21.4
    assert config.module("frontright").conversion.angle_gear_ratio != 21.4
    assert fl.absolute_encoder_offset_deg == 45.0
    # each file keeps its own style and the fields that belong to the position
    assert middle["modules/frontleft.json"].count(b"\n\t") > 10
    assert b'\n\t"absoluteEncoderInverted"' not in middle["modules/frontleft.json"]
    assert (
        b'\n  "absoluteEncoderInverted": true,\n  "absoluteEncoderOffset"'
        in middle["modules/backright.json"]
    )
    assert middle["modules/backleft.json"].startswith(b'\xef\xbb\xbf{"teamNote":"spare module"')
    assert b"\n" not in middle["modules/backleft.json"]
    assert b'"absoluteEncoderOffset" :45.00 ' not in middle["modules/backright.json"]
    assert middle["modules/frontright.json"].count(b"\r\n") == middle[
        "modules/frontright.json"
    ].count(b"\n")


def test_flip_twice_keeps_a_key_that_follows_a_comment_the_other_file_lacks(
    tmp_path: Path,
) -> None:
    """A member whose predecessors are all missing in the other file goes before its successor
    there, so it comes back between the comment and that successor (not to the end)."""
    directory = copy_config(tmp_path)
    fl = _module_json(directory, "frontleft")
    fl = {"_comment": "FL module, swapped 2025-02", "absoluteEncoderInverted": True, **fl}
    _write(directory, "frontleft", (json.dumps(fl, indent=2) + "\n").encode())
    assert "absoluteEncoderInverted" not in _module_json(directory, "backright")
    before = snapshot(directory)
    flip_modules(directory)
    middle = {name: _module_json(directory, name) for name in ("frontleft", "backright")}
    flip_modules(directory)
    assert snapshot(directory) == before
    assert list(middle["backright"])[:2] == ["absoluteEncoderInverted", "drive"]
    assert "absoluteEncoderInverted" not in middle["frontleft"]


def test_flip_twice_keeps_the_order_of_members_side_by_side_that_one_file_has(
    tmp_path: Path,
) -> None:
    """Two members only frontleft has, next to each other: they travel together, keeping their
    order (the flip used to move them one by one, each just after `inverted`, so they came back
    swapped)."""
    directory = copy_config(tmp_path)
    fl = _module_json(directory, "frontleft")
    fl_items = list(fl.items())
    factors = {"angle": {"gearRatio": 21.4}, "drive": {"gearRatio": 6.75, "diameter": 4}}
    extra = [("absoluteEncoderInverted", True), ("conversionFactors", factors)]
    _write(
        directory,
        "frontleft",
        json.dumps(dict([*fl_items[:4], *extra, *fl_items[4:]]), indent=2).encode(),
    )
    before = snapshot(directory)
    flip_modules(directory)
    middle = _module_json(directory, "backright")
    flip_modules(directory)
    assert snapshot(directory) == before
    keys = list(middle)
    assert keys[keys.index("inverted") + 1 : keys.index("inverted") + 3] == [
        "absoluteEncoderInverted",
        "conversionFactors",
    ]


def test_flip_twice_restores_a_real_folder_with_off_unit_nesting(tmp_path: Path) -> None:
    """cardinaldynamics: members 4 spaces deep, their objects' members 6 (not a whole unit)."""
    directory = copy_config(tmp_path, CORPUS / "cardinaldynamics-offseason2024")
    before = snapshot(directory)
    assert b'\n    "drive": {\n      "type"' in before["modules/frontright.json"]
    flip_modules(directory)
    middle = snapshot(directory)
    flip_modules(directory)
    assert snapshot(directory) == before
    # an object whose nesting is not in its file's units is moved as it is written
    assert b'\n  "drive": {\n      "type"' in middle["modules/backleft.json"]


def test_flip_twice_restores_a_pair_with_different_line_ends_and_nesting(tmp_path: Path) -> None:
    """cardinaldynamics with its front files saved with CRLF line ends and its back files
    re-laid with 2 spaces: the front files' objects (off their 4-space unit) move to the back files
    as written, CRLF included, and the line ends of what comes back to a back file are its own
    (they used to be judged from the whole text, so the CRLF objects that had arrived made the
    returning ones CRLF too)."""
    directory = copy_config(tmp_path, CORPUS / "cardinaldynamics-offseason2024")
    for name in ("frontleft", "frontright"):
        text = (directory / "modules" / f"{name}.json").read_bytes()
        _write(directory, name, text.replace(b"\n", b"\r\n"))
    for name in ("backleft", "backright"):
        _write(
            directory, name, (json.dumps(_module_json(directory, name), indent=2) + "\n").encode()
        )
    load_directory(directory)
    before = snapshot(directory)
    flip_modules(directory)
    assert b'"drive": {\r\n      "type"' in snapshot(directory)["modules/backleft.json"]
    flip_modules(directory)
    assert b"\r" not in snapshot(directory)["modules/backleft.json"]
    assert snapshot(directory) == before


def test_flip_twice_restores_a_4_then_2_file_paired_with_a_compact_one(tmp_path: Path) -> None:
    """frontleft nests 4 spaces then 2 and writes every object on one line but its own
    conversionFactors; backright is compact. On the way back, frontleft's style used to be
    judged after its drive had been swapped back to one line, from a file with no value on
    several lines left (so 4-then-4), and conversionFactors came back 4 spaces deeper per level."""
    directory = copy_config(tmp_path)
    fl = _module_json(directory, "frontleft")
    lines = [f"    {json.dumps(key)}: {json.dumps(value)}" for key, value in fl.items()]
    factors = (
        '    "conversionFactors": {\n      "angle": {\n        "gearRatio": 21.4\n      },\n'
        '      "drive": {\n        "gearRatio": 6.75,\n        "diameter": 4\n      }\n    }'
    )
    _write(directory, "frontleft", ("{\n" + ",\n".join([*lines, factors]) + "\n}\n").encode())
    br = _module_json(directory, "backright")
    _write(directory, "backright", json.dumps(br, separators=(",", ":")).encode())
    assert load_directory(directory).module("frontleft").conversion.angle_gear_ratio == 21.4
    before = snapshot(directory)
    flip_modules(directory)
    assert load_directory(directory).module("backright").conversion.angle_gear_ratio == 21.4
    flip_modules(directory)
    assert snapshot(directory) == before


def test_unknown_keys_and_location_stay(tmp_path: Path) -> None:
    directory = copy_config(tmp_path, VALID / "unknown_keys")
    before = {n: _module_json(directory, n) for n in PAIRS}
    flip_modules(directory)
    for name, partner in PAIRS.items():
        after = _module_json(directory, name)
        for key, value in before[name].items():
            if key in HARDWARE or key in ("absoluteEncoderOffset", "inverted"):
                assert after[key] == before[partner][key], (name, key)
            else:
                assert after[key] == value, (name, key)
        assert list(after) == list(before[name])  # key order kept


def test_pairs_by_location_whatever_the_names(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    modules = directory / "modules"
    names = {"frontleft": "m1", "backright": "m2", "frontright": "m3", "backleft": "m4"}
    for old, new in names.items():
        (modules / f"{old}.json").rename(modules / f"{new}.json")
    drive = json.loads((directory / "swervedrive.json").read_text())
    drive["modules"] = ["m3.json", "m1", "m4.json", "m2.json"]
    (directory / "swervedrive.json").write_text(json.dumps(drive, indent=2))
    before = load_directory(directory)
    result = flip_modules(directory)
    after = load_directory(directory)
    assert result.summary.startswith("flip (m3↔m4, m1↔m2)")
    for a, b in (("m1", "m2"), ("m3", "m4"), ("m2", "m1"), ("m4", "m3")):
        assert after.module(a).drive == before.module(b).drive
        assert after.module(a).location == before.module(a).location


def test_six_modules_pair_through_the_centre(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    template = _module_json(directory, "frontleft")
    for name, left, base in (("midleft", 12.0, 20), ("midright", -12.0, 30)):
        module = dict(template)
        module["drive"] = {"type": "sparkmax", "id": base, "canbus": None}
        module["angle"] = {"type": "sparkmax", "id": base + 1, "canbus": None}
        module["encoder"] = {"type": "cancoder", "id": base + 2, "canbus": None}
        module["location"] = {"front": 0, "left": left}
        _write(directory, name, json.dumps(module, indent=2).encode())
    drive = json.loads((directory / "swervedrive.json").read_text())
    drive["modules"] += ["midleft.json", "midright.json"]
    (directory / "swervedrive.json").write_text(json.dumps(drive, indent=2))
    result = flip_modules(directory)
    assert "midleft↔midright" in result.summary
    assert load_directory(directory).module("midleft").drive.id == 30


def _move(directory: Path, name: str, front: float, left: float) -> None:
    module = _module_json(directory, name)
    module["location"] = {"front": front, "left": left}
    _write(directory, name, json.dumps(module, indent=2).encode())


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ("trapezoid", "no module is diagonally opposite modules/frontleft.json"),
        ("three", "no module is diagonally opposite"),
        ("ambiguous", "are all diagonally opposite modules/frontleft.json"),
    ],
)
def test_refuses_layouts_without_clean_diagonal_pairs(
    tmp_path: Path, layout: str, message: str
) -> None:
    if layout == "three":
        directory = copy_config(tmp_path, VALID / "three_modules")
    else:
        directory = copy_config(tmp_path)
        if layout == "trapezoid":
            _move(directory, "backleft", -10.75, 12.0)
            _move(directory, "backright", -10.75, -12.0)
        else:
            _move(directory, "backleft", -10.75, -10.5)  # within 0.5 in of backright's mirror
    if layout != "ambiguous":  # two wheels 0.25 in apart no longer load: flip still says why
        load_directory(directory)
    before = everything(directory)
    with pytest.raises(EditError, match=message):
        flip_modules(directory)
    with pytest.raises(EditError, match=message):
        flip_modules(directory, dry_run=True)
    assert everything(directory) == before


def test_a_location_too_large_for_a_float_is_refused_clearly(tmp_path: Path) -> None:
    """An integer of 400 digits (the parser keeps it) used to escape flip as an OverflowError
    from float(), which the command printed as "int too large to convert to float"."""
    directory = copy_config(tmp_path)
    path = directory / "modules" / "frontleft.json"
    path.write_text(path.read_text().replace('"front": 10.75', '"front": 1' + "0" * 399))
    before = everything(directory)
    for dry_run in (False, True):
        with pytest.raises(EditError, match=r"frontleft\.json: location\.front is an integer too"):
            flip_modules(directory, dry_run=dry_run)
    assert everything(directory) == before


def test_locations_within_tolerance_still_pair(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    _move(directory, "backright", -10.5, -11.0)
    result = flip_modules(directory)
    assert "frontleft↔backright" in result.summary


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    directory = copy_config(tmp_path)
    before = everything(directory)
    result = flip_modules(directory, dry_run=True)
    assert everything(directory) == before
    assert not result.written and result.backup is None
    assert "--- a/modules/backright.json" in result.diff
    assert result.summary.endswith("would change 16 fields in 4 files (dry run, nothing written)")


def test_kill_at_every_step_of_flip(tmp_path: Path) -> None:
    steps = check_crash_at_every_step(
        lambda name: copy_config(tmp_path, name=name),
        lambda directory, hook: flip_modules(directory, fault_hook=hook),
    )
    assert len([s for s in steps if s.startswith("replace ")]) == 4


def test_flip_killed_part_way_loses_nothing(tmp_path: Path) -> None:
    """A real process, killed (os._exit: no cleanup at all) between two file replacements."""
    reference = copy_config(tmp_path, name="reference")
    old = snapshot(reference)
    flip_modules(reference)
    new = snapshot(reference)
    directory = copy_config(tmp_path, name="killed")
    script = (
        "import os, sys\n"
        "from swervelib.tools.flip import flip_modules\n"
        "def hook(step):\n"
        "    if step == sys.argv[2]:\n"
        "        os._exit(137)\n"
        "flip_modules(sys.argv[1], fault_hook=hook)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.run(
        [sys.executable, "-c", script, str(directory), "replace modules/frontright.json"],
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert child.returncode == 137, child.stderr
    on_disk = snapshot(directory)
    changed = {f for f in old if on_disk.get(f) != old[f]}
    assert changed == {"modules/frontleft.json", "modules/frontright.json"}  # a mix, for now
    assert (directory / JOURNAL_NAME).exists() and (directory / LOCK_NAME).exists()
    with pytest.raises(EditError, match="without --dry-run"):
        flip_modules(directory, dry_run=True)
    with ConfigEditor(directory) as editor:
        assert any("stale lock" in n for n in editor.notes)
        assert any(n.startswith("completed an edit") for n in editor.notes)
    assert snapshot(directory) == new
    assert len(backups(directory)) == 1
    assert (backups(directory)[0] / "modules/backleft.json").read_bytes() == old[
        "modules/backleft.json"
    ]
