"""The corpus of real team configuration folders (``tests/corpus``) and what each should do."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from swervelib.tools.migrate import migrate

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
EXPECTATIONS: dict[str, dict[str, Any]] = (
    json.loads((CORPUS / "expectations.json").read_text())
    if (CORPUS / "expectations.json").exists()
    else {}
)
# YAGSL accepts these and swervelib builds them: they load, pass `check` and drive.
ACCEPTED = sorted(
    name for name, e in EXPECTATIONS.items() if e["yagsl_accepts"] and not e.get("unsupported")
)
# Genuinely broken: they fail naming `file` and `field`.
BROKEN = sorted(name for name, e in EXPECTATIONS.items() if not e["yagsl_accepts"])
# YAGSL builds these, swervelib cannot (a device with no RobotPy package): refused with the reason.
UNSUPPORTED = sorted(name for name, e in EXPECTATIONS.items() if e.get("unsupported"))
# Broken only by an older YAGSL format that `python -m swervelib migrate` upgrades: once migrated,
# they load, pass `check` and drive as the accepted ones do.
MIGRATES = sorted(name for name in BROKEN if EXPECTATIONS[name].get("migrates"))
# Every folder that loads and passes `check` (as it is, or once migrated).
LOADS = sorted(ACCEPTED + MIGRATES)
# Every folder that drives in simulation (tests/corpus_drive), each in a group of its own: all of
# LOADS.
DRIVEN = LOADS

CORPUS_GROUP_PREFIX = "corpus-"
"""Each folder of DRIVEN drives in the isolated test group ``corpus-<name>`` (tests/conftest.py)."""


def runnable(name: str, tmp_path: Path) -> Path:
    """The folder a team would run: the corpus folder itself, or (for MIGRATES) a copy of it under
    ``tmp_path`` upgraded by ``migrate``."""
    if name not in MIGRATES:
        return CORPUS / name
    directory = tmp_path / name
    shutil.copytree(CORPUS / name, directory)
    migrate(directory)
    return directory
