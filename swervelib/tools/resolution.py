"""How finely each absolute encoder type can tell an angle: one count, in degrees.

A captured ``absoluteEncoderOffset`` that differs from the one in the file by less than one count
of the module's encoder is noise, not a correction: the calibration tools keep the old value instead
of rewriting the file (:func:`resolution_deg`).

Where the figures come from (counts per turn of the reading the robot gets):

* CANcoder, CTRE SRX Mag Encoder (absolute, pulse width: ``ctre_mag``, ``talonsrx_pwm``,
  ``srxmag_standalone``): 4096, 12 bits. CTRE's Phoenix 5 documentation, "Bring Up: Talon FX/SRX
  Sensors", sensor resolution table (CANCoder 4096, CTRE Magnetic Encoder absolute 4096, any pulse
  width position 4096 units for 100 % duty cycle).
* An analog encoder on a Talon SRX (``talonsrx_analog``): 1024, the Talon's 10-bit analog input
  (the same table: "Analog 1024"). The Talon FXS's analog input (``talonfxs_analog``) is taken to be
  no finer.
* REV Through Bore Encoder, absolute (duty cycle) output: 1024 positions per turn, 10 bits (REV's
  datasheet, REV-11-1271). It is what ``throughbore``, ``rev_hex`` and most Spark data-port
  encoders (``attached``, ``integrated``, ``sparkflex_attached``, ...) are.
* Redux Canandmag (``canandmag``, ``canandcoder``, on a Spark's data port): Redux documents a
  14-bit sensor; read as a duty cycle it is taken as 4096, 12 bits, like any pulse width above.
* An analog encoder on the roboRIO (``analog``, ``thrifty``): 4096, the roboRIO's 12-bit analog
  inputs (NI roboRIO specifications). The US Digital MA3 (``ma3``) comes in 10- and 12-bit
  versions: 1024, the coarser.
* Encoders the type does not name (``dutycycle``, ``am_mag``) and a Spark's analog input
  (``sparkmax_analog``, ``sparkmax_analog5v``): 1024, the coarsest of the encoders above, so that a
  change is only written when it is real for any of them.

The figures are the best an encoder can do: its noise is usually a count or two more, which the
capture's averaging and its 2° stillness check deal with.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

COUNTS_PER_TURN: Final[Mapping[str, int]] = MappingProxyType(
    {
        "cancoder": 4096,
        "ctre_mag": 4096,
        "talonsrx_pwm": 4096,
        "srxmag_standalone": 4096,
        "talonsrx_analog": 1024,
        "talonfxs_analog": 1024,
        "throughbore": 1024,
        "rev_hex": 1024,
        "integrated": 1024,
        "attached": 1024,
        "sparkflex_integrated": 1024,
        "sparkflex_attached": 1024,
        "canandmag": 4096,
        "canandcoder": 4096,
        "sparkflex_canandmag": 4096,
        "sparkflex_canandcoder": 4096,
        "analog": 4096,
        "thrifty": 4096,
        "ma3": 1024,
        "dutycycle": 1024,
        "am_mag": 1024,
        "sparkmax_analog": 1024,
        "sparkmax_analog5v": 1024,
    }
)
"""Counts per turn of each absolute encoder type string (``none`` has no encoder)."""

UNKNOWN_COUNTS_PER_TURN: Final = 1024  # a type missing from the table: the coarsest above


def resolution_deg(encoder_type: str) -> float:
    """One count of ``encoder_type`` in degrees (360 / counts per turn)."""
    return 360.0 / COUNTS_PER_TURN.get(encoder_type, UNKNOWN_COUNTS_PER_TURN)
