"""Angle arithmetic in degrees, pure Python (property-tested); shared by devices and drive."""

from __future__ import annotations

import math

# Conversion factors, for per-loop code (a multiplication costs less than math.radians()).
RADIANS_PER_DEGREE = math.pi / 180.0
DEGREES_PER_RADIAN = 180.0 / math.pi


def wrap_360(degrees: float) -> float:
    """Wrap to [0, 360)."""
    wrapped = degrees % 360.0  # Python's float modulo takes the divisor's sign: [0, 360]
    return 0.0 if wrapped >= 360.0 else wrapped  # a tiny negative rounds up to exactly 360


def wrap_180(degrees: float) -> float:
    """Wrap to [-180, 180)."""
    wrapped = (degrees + 180.0) % 360.0
    return -180.0 if wrapped >= 360.0 else wrapped - 180.0


def module_angle(raw_absolute_deg: float, offset_deg: float) -> float:
    """Module angle = wrap to [0°, 360°) of (absolute reading after inversion − offset)."""
    return wrap_360(raw_absolute_deg - offset_deg)


def nearest_equivalent(target_deg: float, current_deg: float) -> float:
    """The angle equal to ``target_deg`` modulo 360 that is closest to ``current_deg``."""
    return current_deg + wrap_180(target_deg - current_deg)
