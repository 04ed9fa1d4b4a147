"""The corpus of real team configuration folders (``tests/corpus``) and what each should do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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

CORPUS_GROUP_PREFIX = "corpus-"
"""Each accepted folder drives in the isolated test group ``corpus-<name>`` (tests/conftest.py)."""
