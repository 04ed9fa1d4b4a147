"""The loader reads only regular files, and checks the size before reading (issue 12 item 5): a
FIFO, a device or a 6 GiB file in a configuration directory is a problem naming its real cause,
never a hang or an exhausted memory."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from swervelib.config import ConfigError, load_directory
from tests.conftest import DEPLOY


def huge(path: Path) -> None:
    with path.open("wb") as handle:
        handle.truncate(6 << 30)  # 6 GiB, sparse


def link_to_dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "fifo": (lambda p: os.mkfifo(p), "is a FIFO"),
    "dev zero": (link_to_dev_zero, "character device"),
    "6 GiB": (huge, "file too large"),
    "directory": (lambda p: p.mkdir(), "is a directory"),
}


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return Path(shutil.copytree(DEPLOY / "swerve", tmp_path / "swerve"))


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("name", ["modules/frontleft.json", "modules/physicalproperties.json"])
def test_a_file_that_cannot_be_read_is_reported_with_its_cause(
    config: Path, case: str, name: str
) -> None:
    make, cause = CASES[case]
    (config / name).unlink()
    make(config / name)
    with pytest.raises(ConfigError) as raised:
        load_directory(config)
    problems = [p for p in raised.value.problems if p.file == name]
    assert problems, raised.value.format()
    assert any(cause in p.format() for p in problems), raised.value.format()
    assert not any("does not exist" in p.format() for p in raised.value.problems)
