"""The `none` absolute encoder: the module uses its angle motor's relative encoder."""

from __future__ import annotations

from typing import Any


def no_encoder(settings: Any, angle_motor: Any) -> None:
    """No absolute encoder is fitted; the module falls back to the relative angle encoder."""
    return None
