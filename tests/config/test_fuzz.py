"""Fuzzing the loader: mutated configurations load or raise ConfigError, and nothing else.

A modest number of cases runs here; benchmarks/fuzz_config.py runs many more and reports counts.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest

from swervelib.config import ConfigError, load_directory
from tests.conftest import DEPLOY
from tests.fuzzing import mutate, read_directory, write_directory

CASES = 300


@pytest.mark.parametrize("base", sorted(p.name for p in DEPLOY.iterdir()))
def test_mutated_configurations_load_or_raise_config_error(base: str) -> None:
    rng = random.Random(f"swervelib-fuzz-{base}")
    original = read_directory(DEPLOY / base)
    outcomes = {"loaded": 0, "config_error": 0}
    for case in range(CASES // 4):
        files, applied = mutate(rng, dict(original))
        with tempfile.TemporaryDirectory() as tmp:
            write_directory(Path(tmp), files)
            try:
                load_directory(tmp)
            except ConfigError as error:
                assert error.problems, (case, applied)
                assert all(p.file and p.message for p in error.problems)
                str(error)  # formatting never fails
                outcomes["config_error"] += 1
            else:
                outcomes["loaded"] += 1
    assert outcomes["config_error"] > CASES // 8  # most mutations break something
