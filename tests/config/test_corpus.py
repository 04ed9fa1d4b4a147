"""The corpus of real team folders (tests/corpus, sources in SOURCES.md): every folder YAGSL
accepts passes `check` and loads; every genuinely broken one fails naming the right file and field."""

from __future__ import annotations

import argparse
import io

import pytest

from swervelib.cli import check
from swervelib.config import ConfigError, load_directory
from tests.config.corpus import ACCEPTED, BROKEN, CORPUS, EXPECTATIONS, UNSUPPORTED


def test_the_corpus_is_large_and_varied() -> None:
    assert len(EXPECTATIONS) >= 20 and len(ACCEPTED) >= 20
    assert len(BROKEN) >= 1
    assert {p.name for p in CORPUS.iterdir() if p.is_dir()} == set(EXPECTATIONS)
    sources = (CORPUS / "SOURCES.md").read_text()
    for name in EXPECTATIONS:
        assert f"`{name}`" in sources or f"| {name} " in sources, f"{name} has no source"


@pytest.mark.parametrize("name", ACCEPTED)
def test_a_folder_yagsl_accepts_loads_and_passes_check(name: str) -> None:
    config = load_directory(CORPUS / name)
    assert len(config.modules) == 4
    out, err = io.StringIO(), io.StringIO()
    args = argparse.Namespace(directory=str(CORPUS / name), recover=False)
    assert check.run(args, out, err) == 0, err.getvalue()
    summary = out.getvalue()
    # The steering YAGSL would use: on the absolute encoder for `angle.factor: 360` beside a
    # data-port encoder, otherwise on the angle motor's encoder.
    steering = f"steering: on the {EXPECTATIONS[name]['steering']}"
    assert "valid, 4 modules" in summary and summary.count(steering) == 4, summary


@pytest.mark.parametrize("name", BROKEN + UNSUPPORTED)
def test_a_broken_folder_fails_naming_the_file_and_field(name: str) -> None:
    expected = EXPECTATIONS[name]
    with pytest.raises(ConfigError) as caught:
        load_directory(CORPUS / name)
    places = [(p.file, p.field) for p in caught.value.problems]
    assert any(
        file == expected["file"] and field.startswith(expected["field"]) for file, field in places
    ), (expected, [p.format() for p in caught.value.problems])


@pytest.mark.parametrize("name", UNSUPPORTED)
def test_a_folder_swervelib_cannot_build_says_why(name: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_directory(CORPUS / name)
    assert any("not supported: no RobotPy package" in p.message for p in caught.value.problems)
