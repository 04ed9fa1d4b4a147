"""Configuration-writing tools: safe, format-preserving edits of a configuration directory.

Pure Python (no wpilib or vendor import). Each tool is also a command of ``python -m swervelib``:

* :func:`add_to_offsets` — ``offsets DIRECTORY --add DEGREES`` (the +180 fix)
* :func:`flip_modules` — ``flip DIRECTORY``
* :func:`reassign_modules` — ``reassign DIRECTORY SOURCE=DEST ...`` (hardware to the module files of
  the corners it is really at)
* :func:`eight_step` — ``eight-step DIRECTORY --step N | --next | --restore | --finish``
* :func:`migrate` — ``migrate DIRECTORY [--max-speed-in-feet] [--talonfx-from-yagsl-2025]``: an older
  YAGSL folder to the current format (and, with the flag, a Talon FX/FXS folder tuned on YAGSL 2025+
  to swervelib's inversion meaning); :func:`plan` says, read-only, what it would change (``check``
  uses it)

All of them go through :class:`ConfigEditor` (``swervelib.tools.edit``): text splicing that keeps
every untouched byte, validation with ``load_directory``, a lock, timestamped backups, and an
all-or-nothing multi-file commit that survives being killed at any point.
"""

from swervelib.tools.edit import (
    MISSING,
    ConfigEditor,
    EditError,
    EditResult,
    FileChange,
    format_result,
    recover,
)
from swervelib.tools.eight_step import EightStepResult, eight_step
from swervelib.tools.flip import flip_modules
from swervelib.tools.migrate import MigrationResult, MigrationStep, migrate, plan
from swervelib.tools.offsets import add_to_offsets, wrap_degrees
from swervelib.tools.reassign import reassign_modules

__all__ = [
    "MISSING",
    "ConfigEditor",
    "EditError",
    "EditResult",
    "EightStepResult",
    "FileChange",
    "MigrationResult",
    "MigrationStep",
    "add_to_offsets",
    "eight_step",
    "flip_modules",
    "format_result",
    "migrate",
    "plan",
    "reassign_modules",
    "recover",
    "wrap_degrees",
]
