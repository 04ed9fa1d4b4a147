"""One Spark object, and one of each simulator object, per CAN id for the life of the process.

REVLib allows one ``SparkMax``/``SparkFlex`` object per CAN id, and in simulation the sub-devices
it registers (relative, absolute and analog encoders) outlive the Spark object: a second Spark
created later with the same id gets encoders the simulator can no longer reach. Building a drive
twice in one process (tests, a robot that rebuilds its drive) therefore reuses the Spark objects;
each new adapter reconfigures them fully, so nothing of the earlier configuration survives.

A simulator object can point at what it was built with without owning it: REVLib's
``SparkMaxSim``/``SparkFlexSim`` keep a pointer to their ``DCMotor``, and robotpy-rev holds no
reference to it. The pool keeps such an object (``keep``) for as long as the simulator, so a
later adapter reusing the simulator after the one that built it is gone does not read freed
memory (seen: a motor current that was not finite, and a Spark whose current limit then held its
output at zero). The simulator keeps the motor model it was built with.
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
        self._kept: dict[tuple[str, int, str], Any] = {}  # what each simulator points at

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

    def sim(
        self,
        controller: str,
        device_id: int,
        kind: str,
        factory: Callable[[], Any],
        *,
        keep: Any = None,
    ) -> Any:
        """The simulator of ``kind`` for this Spark, built by ``factory`` the first time;
        ``keep``: an object that simulator points at without owning it, kept alive with it."""
        key = (controller, device_id, kind)
        sim = self._sims.get(key)
        if sim is None:
            sim = factory()
            self._sims[key] = sim
            if keep is not None:
                self._kept[key] = keep
        return sim


POOL = SparkPool()
