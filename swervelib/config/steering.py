"""Which sensor closes each module's steering loop (see :class:`SteerFeedback`).

YAGSL 2025.1+ reads ``conversionFactors.angle.factor: 360`` beside an encoder on a Spark's data
port as "steer on the absolute encoder": the encoder becomes the Spark's feedback sensor and 360 is
its degrees per turn, not the motor's (taken literally, 360°/motor rotation would make a 46:1 module
turn 46 times too far). swervelib does the same, says so in a warning, and lets a module file say
it explicitly with ``"steerOnAbsoluteEncoder": true`` (or ``false``), a key YAGSL ignores.

Pure Python.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from swervelib.config.brushed import NAMES
from swervelib.config.catalog import BRUSHED_ENCODERS, ENCODER_TYPES, MOTOR_TYPES
from swervelib.config.conversions import effective_factors
from swervelib.config.fields import ObjectView
from swervelib.config.model import (
    ConversionFactors,
    DeviceConfig,
    ResolvedConversion,
    SteerFeedback,
)

KEY: Final = "steerOnAbsoluteEncoder"
ATTACHED_KIND: Final = "spark_attached"
# Analog absolute encoders on a Spark MAX's data port (`sparkmax_analog`, `sparkmax_analog5v`).
ANALOG_KINDS: Final = ("spark_analog", "spark_analog5v")
SPARKS: Final = ("sparkmax", "sparkflex")
YAGSL_FACTOR: Final = 360.0


def read_steering(
    root: ObjectView,
    angle: DeviceConfig | None,
    encoder: DeviceConfig | None,
    conversion: ResolvedConversion | None,
    own: ConversionFactors | None,
    physical: ConversionFactors | None,
) -> tuple[SteerFeedback, ResolvedConversion | None]:
    """The module's steering mode, and its conversion adjusted for it (problems go to the file)."""
    explicit: bool | None = root.boolean(KEY, False) if root.has(KEY) else None
    if explicit is not None and not root.ok(KEY):
        explicit = None
    attached = (
        angle is not None
        and encoder is not None
        and ENCODER_TYPES[encoder.type].kind == ATTACHED_KIND
        and MOTOR_TYPES[angle.type].controller in SPARKS
    )
    brushed = angle is not None and MOTOR_TYPES[angle.type].brushed
    if brushed and not _brushed_angle_ok(root, angle, encoder, attached, explicit):
        return SteerFeedback.MOTOR_ENCODER, conversion
    if explicit and not attached and encoder is not None and angle is not None:
        root.error(
            KEY,
            "steering on the absolute encoder needs an encoder on the angle Spark's data port",
            expected="encoder type `attached`/`canandmag` (Spark MAX) or "
            "`sparkflex_attached`/`sparkflex_canandmag` (Spark FLEX) with a Spark angle motor",
            found=f"encoder `{encoder.type}` with angle motor `{angle.type}`",
        )
        return SteerFeedback.MOTOR_ENCODER, conversion
    if conversion is None:
        return SteerFeedback.MOTOR_ENCODER, None
    factor_360 = conversion.angle_deg_per_rotation == YAGSL_FACTOR
    # A brushed Spark MAX steers on an encoder on its data port whatever the factor (YAGSL).
    yagsl_mode = attached and (factor_360 or brushed)
    if factor_360 and not attached and encoder is not None and angle is not None:
        root.warn(
            "encoder",
            "conversionFactors.angle gives 360° of module rotation per angle-motor rotation, read "
            "as a 1:1 steering gear (as YAGSL does: only an encoder on a Spark's data port turns "
            "360 into steering on the absolute encoder); no swerve module steers 1:1, so give the "
            "angle gearRatio (e.g. 12.8 or 150/7)",
            found=f"encoder `{encoder.type}` with angle motor `{angle.type}`",
        )
    if explicit is False or (explicit is None and not yagsl_mode):
        if yagsl_mode:
            root.warn(
                KEY,
                "the angle motor's encoder is read at 360° of module rotation per motor "
                "rotation (a 1:1 steering gear), as this file asks; YAGSL 2025+ would steer on "
                "the absolute encoder instead"
                if factor_360
                else "the angle motor steers on its own encoder, as this file asks; YAGSL "
                "would steer a brushed Spark MAX on the absolute encoder on its data port",
            )
        return SteerFeedback.MOTOR_ENCODER, conversion
    gear = _written_gear_ratio(own, physical)
    if gear is None and not factor_360:  # a factor in motor degrees gives the gearing
        gear = 360.0 / conversion.angle_deg_per_rotation
    adjusted = replace(
        conversion,
        angle_deg_per_rotation=360.0 / gear if gear else conversion.angle_deg_per_rotation,
        angle_gear_ratio=gear,
    )
    if explicit is None and not brushed:
        root.warn(
            ("encoder"),
            "conversionFactors.angle gives 360° per rotation with an encoder on the Spark's "
            "data port: as YAGSL 2025+ does, the Spark steers on the absolute encoder (its own "
            f'PID, wrapping on) instead of the motor encoder; add "{KEY}": true to say so',
            found=f"encoder `{encoder.type if encoder else '?'}`",
        )
    return SteerFeedback.ABSOLUTE_ENCODER, adjusted


def _written_gear_ratio(
    own: ConversionFactors | None, physical: ConversionFactors | None
) -> float | None:
    """The angle ``gearRatio`` written beside the angle conversion the module uses (in the same
    file, :func:`~swervelib.config.conversions.effective_factors`), if any."""
    if own is None or physical is None:
        return None
    ratio = effective_factors(own, physical).angle.gear_ratio
    return ratio if ratio not in (0.0, 1.0) else None


def _brushed_angle_ok(
    root: ObjectView,
    angle: DeviceConfig | None,
    encoder: DeviceConfig | None,
    attached: bool,
    explicit: bool | None,
) -> bool:
    """A brushed Spark MAX angle motor has an encoder to steer on, and its data port is not asked
    to hold two encoders (problems go to the file)."""
    if angle is None or encoder is None:
        return True
    own = angle.brushed_encoder
    if own is None and not (attached and explicit is not False):
        if attached:
            reason = (
                f"`{KEY}: false` asks the angle motor to steer on its own encoder, and it has "
                "none (none named in its `canbus`)"
            )
        elif ENCODER_TYPES[encoder.type].kind in ANALOG_KINDS:
            # YAGSL hands only a duty-cycle encoder (SparkMaxEncoderSwerve) to the motor; an
            # analog one on the same data port is read for the angle, never steered on.
            reason = (
                "a brushed Spark MAX angle motor with no encoder of its own (none named in its "
                "`canbus`) steers only on a duty-cycle absolute encoder on its data port: YAGSL "
                f"reads the analog encoder there (`{encoder.type}`) for the module's angle but "
                "never steers the motor on it, so the motor has nothing to steer on"
            )
        else:
            reason = (
                "a brushed Spark MAX angle motor with no encoder of its own (none named in its "
                "`canbus`) steers on an absolute encoder on its data port, and this module has none"
            )
        root.error(
            "angle",
            reason,
            expected=f"`canbus` naming the motor's encoder (one of {NAMES}) or an encoder of "
            "type `attached`/`canandmag` on its data port",
            found=f"encoder `{encoder.type}`, no motor encoder",
        )
        return False
    if own is not None and attached and BRUSHED_ENCODERS[own].data_port:
        root.error(
            "angle",
            "the Spark MAX data port holds one encoder: the quadrature encoder named in `canbus` "
            "and the absolute encoder cannot both be on it",
            expected="the quadrature encoder on the encoder port (a name without `_dataport`), "
            "or no motor encoder",
            found=f"`{own}` with encoder `{encoder.type}`",
        )
        return False
    return True
