"""Fuzzing the loader: mutated configurations load or raise ConfigError, and nothing else.

A modest number of cases runs here; benchmarks/fuzz_config.py runs many more and reports counts.
The attack cases of issue 12 (huge and subnormal numbers, hostile text) are also tried at every
place they can go in the reference configuration.
"""

from __future__ import annotations

import random
import re
import tempfile
from pathlib import Path

import pytest

from swervelib.config import ConfigError, load_directory
from swervelib.text import is_printable
from tests.conftest import DEPLOY
from tests.fuzzing import (
    HOSTILE_NUMBERS,
    HOSTILE_TEXT,
    Files,
    mutate,
    problems_printable,
    read_directory,
    write_directory,
)

CASES = 300
REFERENCE = read_directory(DEPLOY / "swerve")


def outcome(files: Files) -> str:
    """Load ``files``: "loaded" or "config_error"; any other exception fails the test. Every
    problem and warning must be printable as it is."""
    with tempfile.TemporaryDirectory() as tmp:
        write_directory(Path(tmp), files)
        try:
            config = load_directory(tmp)
        except ConfigError as error:
            assert error.problems
            assert all(p.file and p.message for p in error.problems)
            assert problems_printable([*error.problems, *error.warnings]) == []
            str(error).encode("utf-8", "strict")  # formatting never fails, encodes
            return "config_error"
        assert problems_printable(config.warnings) == []
        devices = [config.drive.imu] + [
            d for m in config.modules for d in (m.drive, m.angle, m.encoder)
        ]
        names = [m.name for m in config.modules] + [d.canbus for d in devices if d.canbus]
        assert all(is_printable(name) for name in names), names  # what reaches devices and NT
        return "loaded"


@pytest.mark.parametrize("base", sorted(p.name for p in DEPLOY.iterdir()))
def test_mutated_configurations_load_or_raise_config_error(base: str) -> None:
    rng = random.Random(f"swervelib-fuzz-{base}")
    original = read_directory(DEPLOY / base)
    outcomes = {"loaded": 0, "config_error": 0}
    for _ in range(CASES // 4):
        files, _applied = mutate(rng, dict(original))
        outcomes[outcome(files)] += 1
    assert outcomes["config_error"] > CASES // 8  # most mutations break something


NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def places(pattern: re.Pattern[str]) -> list[tuple[str, int, int]]:
    """(file, start, end) of every match of ``pattern`` in the reference configuration."""
    return [
        (name, match.start(), match.end())
        for name, text in sorted(REFERENCE.items())
        for match in pattern.finditer(text)
    ]


@pytest.mark.parametrize("number", HOSTILE_NUMBERS, ids=lambda n: n[:12] + f"[{len(n)}]")
def test_every_number_replaced_by_a_hostile_one(number: str) -> None:
    """Each number of the reference robot (a value, an id, a gain) in turn becomes a 5000-digit
    integer, 1e400, 5e-324, NaN, ...: each load gives a ConfigError or a configuration."""
    spots = places(NUMBER)
    assert len(spots) > 40
    refused = 0
    for name, start, end in spots:
        text = REFERENCE[name]
        refused += outcome({**REFERENCE, name: text[:start] + number + text[end:]}) != "loaded"
    assert refused > 0


@pytest.mark.parametrize("hostile", HOSTILE_TEXT)
def test_every_string_holding_hostile_text(hostile: str) -> None:
    """Each string of the reference robot (keys, types, module names, bus names) in turn gets a
    lone surrogate, an ANSI escape, a bidi override, a NUL...: ConfigError or a configuration,
    with every message printable."""
    spots = places(STRING)
    assert len(spots) > 50
    for name, start, end in spots:
        text = REFERENCE[name]
        damaged = text[: start + 1] + hostile + text[start + 1 : end]
        outcome({**REFERENCE, name: damaged + text[end:]})


def test_thousands_of_stray_keys_are_counted_not_listed() -> None:
    """40 000 unknown keys took 2.7 s to list one by one (each with a suggestion); now 20 are
    listed and the rest counted, for unknown keys and for keys written twice alike."""
    stray = ", ".join(f'"unknownKey{i}": 0' for i in range(15_000))
    twice = ", ".join(['"inverted": {"drive": false, "angle": false}'] * 15_000)
    module = REFERENCE["modules/frontleft.json"].rstrip().rstrip("}")
    files = {**REFERENCE, "modules/frontleft.json": f"{module}, {stray}, {twice}}}"}
    with tempfile.TemporaryDirectory() as tmp:
        write_directory(Path(tmp), files)
        with pytest.raises(ConfigError) as caught:
            load_directory(tmp)
    errors = [p for p in caught.value.problems if p.file == "modules/frontleft.json"]
    warnings = [w for w in caught.value.warnings if w.file == "modules/frontleft.json"]
    assert len(errors) == 21 and "14980 more keys that appear twice" in errors[-1].message
    assert len(warnings) == 21 and "14980 more unknown keys" in warnings[-1].message
