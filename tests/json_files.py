"""Editing a copied configuration's JSON files in tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def edit_json(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Read the JSON object at ``path``, let ``change`` modify it, write it back (indented)."""
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))
