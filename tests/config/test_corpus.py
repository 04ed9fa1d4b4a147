"""The corpus of real team folders (tests/corpus, sources in SOURCES.md): every folder YAGSL
accepts passes `check` and loads; every genuinely broken one fails naming the right file and field;
one broken only by an older YAGSL format passes once `migrate` has upgraded it; the devices and
values expectations.json names are the ones read."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from swervelib.cli import check
from swervelib.config import ConfigError, load_directory
from swervelib.config.errors import Problem
from tests.config.corpus import (
    ACCEPTED,
    BROKEN,
    CORPUS,
    EXPECTATIONS,
    LOADS,
    UNSUPPORTED,
    runnable,
)


def test_the_corpus_is_large_and_varied() -> None:
    assert len(EXPECTATIONS) >= 20 and len(ACCEPTED) >= 20
    assert len(BROKEN) >= 1
    assert {p.name for p in CORPUS.iterdir() if p.is_dir()} == set(EXPECTATIONS)
    sources = (CORPUS / "SOURCES.md").read_text()
    for name in EXPECTATIONS:
        assert f"`{name}`" in sources or f"| {name} " in sources, f"{name} has no source"


@pytest.mark.parametrize("name", LOADS)
def test_a_folder_yagsl_accepts_loads_and_passes_check(name: str, tmp_path: Path) -> None:
    """Also a broken folder that `migrate` upgrades (MIGRATES), once migrated."""
    directory = runnable(name, tmp_path)
    config = load_directory(directory)
    assert len(config.modules) == 4
    out, err = io.StringIO(), io.StringIO()
    args = argparse.Namespace(directory=str(directory), recover=False)
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
    named = [
        p
        for p in caught.value.problems
        if p.file == expected["file"] and p.field.startswith(expected["field"])
    ]
    assert named, (expected, [p.format() for p in caught.value.problems])
    # the reason, where expectations.json gives the words that must say it
    assert all(expected.get("says", "") in p.message for p in named), [p.format() for p in named]


@pytest.mark.parametrize("name", UNSUPPORTED)
def test_a_folder_swervelib_cannot_build_says_why(name: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_directory(CORPUS / name)
    assert any("not supported: no RobotPy package" in p.message for p in caught.value.problems)


@pytest.mark.parametrize("name", sorted(n for n in LOADS if "values" in EXPECTATIONS[n]))
def test_a_folder_reads_the_devices_and_values_it_names(name: str, tmp_path: Path) -> None:
    """The IMU, every module's device types and its cosine compensation, as the files write them
    (the folders added for a type or field no other folder used: expectations.json `values`; an
    `encoder` given by module name where the modules differ)."""
    values = EXPECTATIONS[name]["values"]
    config = load_directory(runnable(name, tmp_path))
    assert config.drive.imu.type == values["imu"]
    for module in config.modules:
        encoder = values["encoder"]
        expected_encoder = encoder[module.name] if isinstance(encoder, dict) else encoder
        types = (module.drive.type, module.angle.type, module.encoder.type)
        assert types == (values["drive"], values["angle"], expected_encoder), module.name
        cosine = values.get("useCosineCompensator", True)
        assert module.use_cosine_compensator is cosine, module.name


def _warnings(name: str) -> tuple[Problem, ...]:
    if name in ACCEPTED:
        return load_directory(CORPUS / name).warnings
    with pytest.raises(ConfigError) as caught:
        load_directory(CORPUS / name)
    return caught.value.warnings


@pytest.mark.parametrize("name", sorted(n for n in EXPECTATIONS if "warns" in EXPECTATIONS[n]))
def test_a_folder_is_warned_about_what_yagsl_passes_over_in_silence(name: str) -> None:
    """A misspelt key YAGSL ignores without a word is warned, naming the file, key and spelling
    (also when the folder is refused for something else)."""
    expected = EXPECTATIONS[name]["warns"]
    warned = [
        w for w in _warnings(name) if (w.file, w.field) == (expected["file"], expected["field"])
    ]
    assert warned and expected["says"] in warned[0].message, [w.format() for w in _warnings(name)]
