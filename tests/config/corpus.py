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
ACCEPTED = sorted(name for name, e in EXPECTATIONS.items() if e["yagsl_accepts"])
BROKEN = sorted(name for name, e in EXPECTATIONS.items() if not e["yagsl_accepts"])

CORPUS_GROUP_PREFIX = "corpus-"
"""Each accepted folder drives in the isolated test group ``corpus-<name>`` (tests/conftest.py)."""
