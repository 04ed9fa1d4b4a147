"""One Spark object, and one of each simulator object, per CAN id for the life of the process.

REVLib allows one ``SparkMax``/``SparkFlex`` object per CAN id, and in simulation the sub-devices
it registers (relative, absolute and analog encoders) outlive the Spark object: a second Spark
created later with the same id gets encoders the simulator can no longer reach. Building a drive
twice in one process (tests, a robot that rebuilds its drive) therefore reuses the Spark objects;
each new adapter reconfigures them fully, so nothing of the earlier configuration survives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import rev


class SparkPool:
    """Spark objects by (controller, CAN id, brushed), and their simulator objects by kind."""

    def __init__(self) -> None:
        self._sparks: dict[tuple[str, int, bool], Any] = {}
        self._sims: dict[tuple[str, int, str], Any] = {}

    def spark(self, controller: str, device_id: int, brushed: bool = False) -> Any:
        key = (controller, device_id, brushed)
        spark = self._sparks.get(key)
        if spark is None:
            spark_class: Any = rev.SparkMax if controller == "sparkmax" else rev.SparkFlex
            motor_type = rev.SparkLowLevel.MotorType
            spark = spark_class(
                device_id, motor_type.kBrushed if brushed else motor_type.kBrushless
            )
            self._sparks[key] = spark
        return spark

    def sim(self, controller: str, device_id: int, kind: str, factory: Callable[[], Any]) -> Any:
        key = (controller, device_id, kind)
        sim = self._sims.get(key)
        if sim is None:
            sim = factory()
            self._sims[key] = sim
        return sim


POOL = SparkPool()
