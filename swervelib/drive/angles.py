"""Angle arithmetic in degrees, pure Python (property-tested)."""

from __future__ import annotations

import math


def wrap_360(degrees: float) -> float:
    """Wrap to [0, 360)."""
    wrapped = math.fmod(degrees, 360.0)
    if wrapped < 0:
        wrapped += 360.0
    # fmod of a tiny negative number can give exactly 360.0 after the addition
    return 0.0 if wrapped >= 360.0 else wrapped


def wrap_180(degrees: float) -> float:
    """Wrap to [-180, 180)."""
    return wrap_360(degrees + 180.0) - 180.0


def module_angle(raw_absolute_deg: float, offset_deg: float) -> float:
    """Module angle = wrap to [0°, 360°) of (absolute reading after inversion − offset)."""
    return wrap_360(raw_absolute_deg - offset_deg)


def nearest_equivalent(target_deg: float, current_deg: float) -> float:
    """The angle equal to ``target_deg`` modulo 360 that is closest to ``current_deg``."""
    return current_deg + wrap_180(target_deg - current_deg)
