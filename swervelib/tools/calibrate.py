"""The guided calibration session: the calibration corrections by observation, as data.

The session tells a person what to do, one :class:`Step` at a time, watches the robot's raw
telemetry (:mod:`swervelib.tools.telemetry_client`) while they do it, and decides from the
direction of each change which inversion flags must change; at the end it captures every module's
absolute encoder offset with the wheels facing forward. Nothing is written until
:meth:`CalibrationSession.apply`.

Using it (a person at a terminal — ``python -m swervelib calibrate`` — or a simulated person in a
test follow the same calls)::

    from swervelib.tools.calibrate import CalibrationSession
    from swervelib.tools.telemetry_client import NetworkTablesTelemetry

    with NetworkTablesTelemetry("localhost") as source:           # or "1234", "10.12.34.2"
        session = CalibrationSession("deploy/swerve", source)
        while (step := session.next_step()) is not None:
            show(step.setup)                      # prepare (may be ""), before the baseline
            session.begin(step)                   # baseline readings (person holds still)
            show(step.text)                       # the movement to make
            ...                                   # optional: session.live() for live readings
            observation = session.finish(step)    # readings after, and the verdict
            show(observation.explanation)         # not accepted -> next_step() is the same step
        result = session.apply(confirm=ask)       # ask(summary) -> bool; EditResult or None

:class:`Step` fields: ``index``, ``kind`` (a :class:`StepKind`), ``module`` (a module name or None),
``setup`` and ``text`` (what to do before the baseline, and the movement itself), ``watches`` (the
telemetry :class:`~swervelib.tools.telemetry_client.Signal` values judged), ``still`` (values that
must *not* move, e.g. the other modules), ``decides`` (the configuration fields it may change) and
``minimum`` / ``unit`` (the smallest movement judged). The kinds, in order:

1. ``lift`` — lift the robot, disabled; checks that every raw value is published and valid.
2. ``face_bevels_left`` — every wheel pointing forward with its bevel gear facing left.
3. for each module: ``turn_module`` — turn it counter-clockwise (seen from above) about a quarter
   turn: decides ``inverted.angle`` from ``Raw Angle Encoder`` and ``absoluteEncoderInverted`` from
   ``Raw Absolute Encoder`` (the shortest signed change, so 350° → 80° is +90°); then
   ``spin_wheel`` — roll its wheel forward: decides ``inverted.drive`` from ``Raw Drive Encoder``.
   A module whose angle motor has no encoder of its own (a brushed Spark MAX, ``sparkmax_brushed``
   with none named: :attr:`~swervelib.config.model.ModuleConfig.angle_encoder_is_absolute`) steers
   on the absolute encoder on its data port, and its ``Raw Angle Encoder`` *is* that encoder
   (after ``absoluteEncoderInverted``): turning it by hand says nothing about the motor. Its turn
   watches and decides only ``absoluteEncoderInverted``; the step's text, its explanation and
   :meth:`CalibrationSession.summary` (:meth:`CalibrationSession.manual_checks`) tell the person
   that its ``inverted.angle`` cannot be judged by hand and how to check it: enabled, on blocks, a
   small steering command, which the module must turn towards (the runaway Alert says when it
   turns away).
4. ``rotate_robot`` — rotate the whole robot counter-clockwise: decides ``invertedIMU`` (or
   ``invertIMU``, whichever spelling the file uses; both if both) from ``Raw IMU Yaw`` (unwrapped).
5. ``capture_offsets`` — every wheel pointing forward again: each ``Raw Absolute Encoder`` becomes
   that module's ``absoluteEncoderOffset``.

Every reading is published *after* the robot's current flags, so a reading that decreases while the
movement was counter-clockwise means the current flag is wrong: the new flag is the current one
toggled (``true`` if it was ``false``, and ``false`` if it was ``true``). The angle and drive
readings are only used for their direction, so they need no conversion. The captured offset does:
the robot publishes ``Raw Absolute Encoder`` in the direction of its *current*
``absoluteEncoderInverted``; when this session toggles that flag the offset written is
``(360 − raw) mod 360``, the reading the robot will publish once the new flag is deployed (an
inverted absolute encoder reads ``360 − r`` for a raw ``r``). Offsets are written in [0°, 360°),
rounded to 0.01°; one less than a count of the module's encoder away from the offset in the file
(:mod:`swervelib.tools.resolution`: 0.088° for a CANcoder) is noise, and the file keeps its own.
When the capture is skipped (or captured no offset for a module) and the session toggles that
module's ``absoluteEncoderInverted``, the offset in the file, a wheel-forward reading in the old
direction, is converted the same way: ``(360 − old) mod 360``, rounded to 0.01° (0° and 180° stay
as they are), with a reason that the skip's explanation and :meth:`CalibrationSession.summary` show
(:func:`converted_offset_decision`); writing the flag alone would leave the module
``360 − 2 × offset`` degrees off.

Each :class:`Observation` has ``verdict`` (a :class:`Verdict`), ``accepted``, the ``movements``
(``before``, ``after``, signed ``change``, ``travel``) of every watched value, the ``decisions``
(``file``, ``field``, ``old``, ``new``, ``reason``), and an ``explanation`` such as::

    frontleft Raw Angle Encoder went 12.0° → −78.0° while turned counter-clockwise: setting
    inverted.angle = true

A movement is refused, and the step asked again, when it is too small (under
:class:`Thresholds`: 10° for a module, 5 cm for a wheel, 10° for the robot), when the readings went
back and forth or were still changing at the end (noisy), when another module moved instead
(wrong module: or the ids belong to another corner), when the absolute and angle
encoders disagree (inconsistent), or when a value is missing or implausible (no data).

``begin`` / ``finish`` each take ``settle_samples`` readings ``sample_interval_s`` apart (4 readings
0.05 s apart by default); :meth:`CalibrationSession.sample` (called by :meth:`CalibrationSession.live`) adds
readings in between, which lets a wrapping absolute encoder be followed through more than half a
turn. Steps must be done in order; :meth:`CalibrationSession.skip` skips one (nothing is decided,
but a skipped capture still converts the offsets above).

``apply(confirm, dry_run=False)`` refuses while steps are left; otherwise, when something changes,
it calls ``confirm(summary)`` (or takes a bool) and writes every change in one
:class:`~swervelib.tools.edit.ConfigEditor` transaction (validated, backed up, one-line summary),
checking first that no file changed since the session started. It returns the ``EditResult``
(``dry_run``: the diff, nothing written), or None when there was nothing to change or the person
declined. The configuration directory must be the one the robot is running.

Errors, each with a message for the person: ``ConfigError`` (the directory is not valid, from the
constructor), :class:`CalibrationError` (the robot publishes other modules, steps out of order or
left, a file changed meanwhile), ``TelemetryError`` (the robot's ``moduleNames`` is not a list of
module names, from the constructor), ``EditError`` (the write was refused, from ``apply``). Values
from the robot appear in messages only escaped and cut short
(:func:`~swervelib.tools.telemetry_client.describe_value`).
"""

from __future__ import annotations

import enum
import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from swervelib.config import SwerveConfig, load_directory
from swervelib.config.catalog import Bus
from swervelib.tools.reassign import swap_commands
from swervelib.tools.resolution import resolution_deg
from swervelib.tools.telemetry_client import (
    MAX_MODULE_NAME_CHARS,
    MAX_MODULE_NAMES,
    RAW_ABSOLUTE,
    RAW_ANGLE,
    RAW_DRIVE,
    RAW_IMU_YAW,
    Signal,
    Snapshot,
    TelemetryError,
    TelemetrySource,
    describe_value,
    module_signals,
)

if TYPE_CHECKING:
    import os

    from swervelib.tools.edit import EditResult

DRIVE_FILE = "swervedrive.json"
# fields that may be absent from a file, and the value an absent one means
DEFAULTS: Mapping[str, bool | float] = {
    "absoluteEncoderInverted": False,
    "invertedIMU": False,
    "invertIMU": False,
}


# The drive motors brake whenever they are not driven, disabled too (swervelib configures them so
# at start-up), and this session only reads the robot's telemetry: it cannot put them in coast.
BRAKE_WARNING = (
    "The drive motors are in brake mode, even disabled: the wheel resists and feels stiff. Roll "
    "it slowly and steadily. If your robot code can put the drive motors in coast "
    "(SwerveDrive.set_idle_mode(False)), do that for the wheel steps, and put them back in brake "
    "afterwards (restarting the robot code does that too)."
)
BRAKE_REMINDER = "The drive motors are in brake mode (unless you put them in coast): roll slowly."

# A brushed Spark MAX angle motor with no encoder of its own steers on the absolute encoder on its
# data port (ModuleConfig.angle_encoder_is_absolute): its Raw Angle Encoder is that encoder, so
# turning the module by hand cannot show which way the motor turns. {module} is the module's name.
ANGLE_NOT_JUDGED = (
    "{module}'s angle motor (a brushed Spark MAX with no encoder of its own) steers on this "
    "absolute encoder, so its Raw Angle Encoder is the absolute encoder too: this turn checks "
    "absoluteEncoderInverted only. Its inverted.angle cannot be judged by hand; the summary at "
    "the end says how to check it."
)
# The same, in the turn's explanation (after the step's text has said it in full).
ANGLE_NOT_JUDGED_SHORT = (
    "{module} inverted.angle: not judged (its Raw Angle Encoder is its absolute encoder); the "
    "summary says how to check it."
)
# {modules}: their names; {each}: "this module" or "each of these modules".
ANGLE_CHECK = (
    "Not judged: inverted.angle of {modules}. The angle motor of {each} is a brushed Spark MAX "
    "with no encoder of its own: it steers on the absolute encoder on its data port, so turning "
    "the module by hand does not show which way the motor turns. Check it after this session, "
    "once the robot code runs its result: with the robot on blocks, enable it and give a small "
    "steering command (drive slowly to the left, robot-relative, or point every module at 30° "
    "with SwerveDrive.set_module_states). Each module must turn towards its set-point and stop "
    "there. One that turns away from it (spinning or shaking) has the wrong inverted.angle: "
    "change it, restart the robot code and check again; the robot's Alert \"<module> angle is "
    'running away from its setpoint" says so too.'
)
# {modules}: the modules of ANGLE_CHECK whose absoluteEncoderInverted this session changes.
ANGLE_FOLLOWS_ENCODER = (
    "The motor must turn the way the absolute encoder counts: if {modules} steered well before, "
    "changing absoluteEncoderInverted means inverted.angle must change too."
)


class CalibrationError(Exception):
    """The session cannot go on as asked (wrong order, steps left, files changed meanwhile, ...)."""


class StepKind(enum.StrEnum):
    LIFT = "lift"
    FACE_BEVELS_LEFT = "face_bevels_left"
    TURN_MODULE = "turn_module"
    SPIN_WHEEL = "spin_wheel"
    ROTATE_ROBOT = "rotate_robot"
    CAPTURE_OFFSETS = "capture_offsets"


class Verdict(enum.StrEnum):
    DONE = "done"  # accepted, nothing to decide (lift, face bevels left)
    DECIDED = "decided"  # accepted, decisions made
    SKIPPED = "skipped"  # accepted without looking (CalibrationSession.skip)
    TOO_SMALL = "too_small"
    NOISY = "noisy"
    WRONG_MODULE = "wrong_module"
    INCONSISTENT = "inconsistent"
    NO_DATA = "no_data"


ACCEPTED = frozenset({Verdict.DONE, Verdict.DECIDED, Verdict.SKIPPED})

# Each step's title (Step.title); {module} is the module's name.
_TITLES: Mapping[StepKind, str] = {
    StepKind.LIFT: "Lift the robot",
    StepKind.FACE_BEVELS_LEFT: "Point every wheel forward",
    StepKind.TURN_MODULE: "Turn the {module} module counter-clockwise",
    StepKind.SPIN_WHEEL: "Roll the {module} wheel forward",
    StepKind.ROTATE_ROBOT: "Rotate the whole robot counter-clockwise",
    StepKind.CAPTURE_OFFSETS: "Capture the absolute encoder offsets",
}


@dataclass(frozen=True)
class Thresholds:
    """When a movement is big and clean enough to judge."""

    min_turn_deg: float = 10.0  # a module turned by hand
    min_roll_m: float = 0.05  # a wheel rolled by hand
    min_robot_deg: float = 10.0  # the whole robot rotated
    backtrack: float = 0.5  # travel may exceed |change| by this fraction (+ 2 × settle tolerance)
    settle_deg: float = 2.0  # the final readings must agree within this ...
    settle_m: float = 0.01  # ... or this, for the wheel
    max_jump_deg: float = 150.0  # largest absolute-encoder change between two readings
    agreement: float = 0.25  # |Δ absolute| and |Δ angle| may differ by this fraction of |Δ angle|
    capture_deg: float = 2.0  # captured absolute readings must agree within this


@dataclass(frozen=True)
class Step:
    """One instruction for the person, and what the session watches while they follow it."""

    index: int
    kind: StepKind
    module: str | None
    setup: str  # what to do before the baseline is taken ("" = nothing)
    text: str  # the movement (or action) itself
    watches: tuple[Signal, ...] = ()  # judged
    still: tuple[Signal, ...] = ()  # must not move (the other modules)
    decides: tuple[str, ...] = ()  # configuration fields this step may change
    minimum: float | None = None  # smallest movement judged, in `unit`
    unit: str = ""

    @property
    def title(self) -> str:
        """What the step asks, for people: ``Turn the frontleft module counter-clockwise``."""
        return _TITLES[self.kind].format(module=self.module or "")


@dataclass(frozen=True)
class Movement:
    """How one watched value moved during an attempt."""

    signal: Signal
    before: float
    after: float
    change: float  # signed; for the absolute encoder the sum of shortest changes (wrap-safe)
    travel: float  # total distance covered (≥ |change|; more means back and forth)
    largest_jump: float  # the largest change between two consecutive readings
    final_spread: float  # how much the last readings disagreed (still moving?)

    def describe(self) -> str:
        unit = self.signal.unit
        text = f"{self.signal.label} went {_fmt(self.before, unit)} → {_fmt(self.after, unit)}"
        if self.signal.wraps and abs(self.before + self.change - self.after) > 1e-6:
            text += f" ({_fmt(self.change, unit, sign=True)}, through 0°/360°)"
        return text


@dataclass(frozen=True)
class Decision:
    """The value one configuration field gets, and why."""

    file: str  # relative to the directory, e.g. "modules/frontleft.json"
    field: str  # dotted, e.g. "inverted.angle"
    old: bool | float
    new: bool | float
    reason: str

    @property
    def changed(self) -> bool:
        if isinstance(self.old, bool) or isinstance(self.new, bool):
            return self.old != self.new
        return abs(wrap_180(float(self.new) - float(self.old))) >= 0.005

    def describe(self) -> str:
        return f"{self.file} {self.field}: {_json(self.old)} → {_json(self.new)}"


@dataclass(frozen=True)
class Observation:
    """The outcome of one attempt at a step."""

    step: Step
    verdict: Verdict
    explanation: str
    movements: tuple[Movement, ...] = ()
    decisions: tuple[Decision, ...] = ()
    attempt: int = 1
    commands: tuple[str, ...] = ()
    """Lines of ``explanation`` that are commands to paste: a front end shows each whole, on a
    line of its own (never wrapped or cut)."""

    @property
    def accepted(self) -> bool:
        return self.verdict in ACCEPTED


# -- small helpers ---------------------------------------------------------------------------------
def _swap_text(swaps: Sequence[tuple[str, str]]) -> str:
    """What the swap command(s) below the prose are: one, or one per Windows shell."""
    if len(swaps) == 1:
        return "this command swaps them"
    (first, _), (second, _) = swaps
    return f"these commands swap them (the first in {first}, the second in {second})"


def wrap_180(degrees: float) -> float:
    """``degrees`` in [−180°, 180°)."""
    return (degrees + 180.0) % 360.0 - 180.0


def wrap_360(degrees: float) -> float:
    """``degrees`` in [0°, 360°)."""
    value = degrees % 360.0
    return 0.0 if value >= 360.0 else value


def circular_mean_deg(values: Sequence[float]) -> float:
    """The mean direction of angles in degrees, in [0°, 360°)."""
    s = sum(math.sin(math.radians(v)) for v in values)
    c = sum(math.cos(math.radians(v)) for v in values)
    return wrap_360(math.degrees(math.atan2(s, c)))


def inverted_reading(raw_deg: float) -> float:
    """What an absolute encoder reads for raw ``raw_deg`` once its inversion is toggled."""
    return wrap_360(360.0 - raw_deg)


def _fmt(value: float, unit: str, *, sign: bool = False, digits: int | None = None) -> str:
    if digits is None:
        digits = 3 if unit.strip() == "m" else 1
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    return text.replace("-", "−") + unit


def _json(value: bool | float) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}"


def _names(names: Sequence[object]) -> str:
    """Module names (perhaps the robot's) for a message: escaped, at most as many and as long as
    a robot may publish, the rest counted."""
    return describe_value(
        list(names[:MAX_MODULE_NAMES]), items=MAX_MODULE_NAMES, item_limit=MAX_MODULE_NAME_CHARS
    ) + (f" and {len(names) - MAX_MODULE_NAMES} more" if len(names) > MAX_MODULE_NAMES else "")


def _diff(signal: Signal, a: float, b: float) -> float:
    return wrap_180(b - a) if signal.wraps else b - a


def movement(signal: Signal, values: Sequence[float], before_index: int, final: int) -> Movement:
    """Analyse one signal's readings; ``values[before_index]`` is the baseline, the last ``final``
    readings are the ones taken at the end."""
    series = values[before_index:]
    diffs = [_diff(signal, a, b) for a, b in pairwise(series)]
    last = values[-1]
    tail = [_diff(signal, last, v) for v in values[-final:]]
    return Movement(
        signal=signal,
        before=series[0],
        after=last,
        change=sum(diffs),
        travel=sum(abs(d) for d in diffs),
        largest_jump=max((abs(d) for d in diffs), default=0.0),
        final_spread=max(tail) - min(tail) if tail else 0.0,
    )


def write_decisions(
    directory: Path,
    decisions: Sequence[Decision],
    what: str,
    *,
    dry_run: bool,
    fault_hook: Callable[[str], None] | None = None,
) -> EditResult:
    """Write ``decisions`` in one ConfigEditor transaction, refusing if a file changed meanwhile.

    ``fault_hook`` is passed to the editor (tests use it to kill the write at every step)."""
    from swervelib.tools.edit import ConfigEditor

    with ConfigEditor(directory, dry_run=dry_run, fault_hook=fault_hook) as editor:
        for d in decisions:
            if d.field in DEFAULTS:
                current = editor.get(d.file, d.field, DEFAULTS[d.field])
            else:
                current = editor.get(d.file, d.field)
            if not _same(current, d.old):
                raise CalibrationError(
                    f"{d.file} {d.field} is now {current!r}, not {_json(d.old)} as when the "
                    "readings were taken: the file changed meanwhile; run the calibration again"
                )
            editor.set(d.file, d.field, d.new)
        return editor.commit(what)


def _same(current: object, old: bool | float) -> bool:
    if isinstance(old, bool):
        return isinstance(current, bool) and current == old
    if isinstance(current, bool) or not isinstance(current, int | float):
        return False
    return abs(float(current) - float(old)) < 1e-6


# -- the session -----------------------------------------------------------------------------------
@dataclass
class _Attempt:
    step: Step
    number: int
    baseline: list[Snapshot] = field(default_factory=list)
    middle: list[Snapshot] = field(default_factory=list)
    final: list[Snapshot] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class CalibrationSession:
    """The calibration procedure over ``source`` for the configuration in ``directory``.

    See the module docstring for the protocol. ``thresholds`` sets what is judged;
    ``settle_samples`` / ``sample_interval_s`` how many readings ``begin`` and ``finish`` take and
    how far apart; ``sleep`` is the pause between them (tests may pass a no-op).
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        source: TelemetrySource,
        *,
        thresholds: Thresholds | None = None,
        settle_samples: int = 4,
        sample_interval_s: float = 0.05,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.directory = Path(directory)
        self.config: SwerveConfig = load_directory(self.directory)
        self.source = source
        self.thresholds = thresholds or Thresholds()
        self.settle_samples = max(1, settle_samples)
        self.sample_interval_s = max(0.0, sample_interval_s)
        self._sleep = sleep
        self._lock = threading.RLock()
        names = tuple(m.name for m in self.config.modules)
        robot = source.module_names()
        if robot is not None and tuple(robot) != names:
            raise CalibrationError(
                f"the robot publishes modules {_names(robot)}, but {self.directory} has "
                f"{_names(names)}: deploy this configuration (or point at the directory the robot "
                "runs) first"
            )
        self._modules = {m.name: m for m in self.config.modules}
        self._imu_fields = self._imu_field_names()
        self.steps: tuple[Step, ...] = self._build_steps()
        self.observations: list[Observation] = []  # every attempt, in order
        self._accepted: dict[int, Observation] = {}
        self._attempt: _Attempt | None = None

    # -- the steps ---------------------------------------------------------------------------------
    def _imu_field_names(self) -> tuple[str, ...]:
        try:
            data = json.loads((self.directory / DRIVE_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        present = tuple(
            k for k in ("invertedIMU", "invertIMU") if isinstance(data, dict) and k in data
        )
        return present or ("invertedIMU",)

    def _has_encoder(self, module: str) -> bool:
        return self._modules[module].encoder_type.bus is not Bus.NONE

    def _angle_on_absolute(self, module: str) -> bool:
        """The module's Raw Angle Encoder is its absolute encoder (a brushed Spark MAX angle
        motor with no encoder of its own): ``inverted.angle`` cannot be judged by hand."""
        return self._has_encoder(module) and self._modules[module].angle_encoder_is_absolute

    def manual_checks(self) -> tuple[str, ...]:
        """What this session cannot judge by hand, and how to check it (also in :meth:`summary`):
        ``inverted.angle`` of the modules whose angle motor steers on the absolute encoder."""
        names = [n for n in self._modules if self._angle_on_absolute(n)]
        if not names:
            return ()
        each = "this module" if len(names) == 1 else "each of these modules"
        text = ANGLE_CHECK.format(modules=", ".join(names), each=each)
        flipped = [
            n
            for n in names
            if self.planned_encoder_inverted(n) != self._modules[n].absolute_encoder_inverted
        ]
        if flipped:
            text += " " + ANGLE_FOLLOWS_ENCODER.format(modules=", ".join(flipped))
        return (text,)

    def _build_steps(self) -> tuple[Step, ...]:
        t = self.thresholds
        names = list(self._modules)
        steps: list[Step] = []

        def add(
            kind: StepKind,
            module: str | None,
            setup: str,
            text: str,
            *,
            watches: tuple[Signal, ...] = (),
            still: tuple[Signal, ...] = (),
            decides: tuple[str, ...] = (),
            minimum: float | None = None,
            unit: str = "",
        ) -> None:
            steps.append(
                Step(len(steps), kind, module, setup, text, watches, still, decides, minimum, unit)
            )

        add(
            StepKind.LIFT,
            None,
            "",
            "Lift the robot so that every wheel turns freely (on blocks, or on its side) and leave "
            "it disabled, connected and running: you will turn the modules and wheels by hand. "
            "(Counter-clockwise always means seen from above.)",
            watches=module_signals(names),
        )
        add(
            StepKind.FACE_BEVELS_LEFT,
            None,
            "",
            "Turn every module by hand so that its wheel points straight forward, towards the "
            "robot's front, with the wheel's bevel gear facing left.",
        )
        for number, name in enumerate(names):
            watches: list[Signal] = []
            decides: list[str] = []
            angle_judged = not self._angle_on_absolute(name)
            if angle_judged:
                watches.append(Signal(name, RAW_ANGLE))
                decides.append("inverted.angle")
            if self._has_encoder(name):
                watches.append(Signal(name, RAW_ABSOLUTE))
                decides.append("absoluteEncoderInverted")
            add(
                StepKind.TURN_MODULE,
                name,
                f"Make sure the {name} wheel points forward, bevel gear facing left, and hold it "
                "still.",
                f"Turn the {name} module counter-clockwise (seen from above) by hand, about a "
                f"quarter turn (at least {t.min_turn_deg:g}°, less than half a turn), then hold it "
                "still." + ("" if angle_judged else "\n" + ANGLE_NOT_JUDGED.format(module=name)),
                watches=tuple(watches),
                still=tuple(Signal(o, RAW_ANGLE) for o in names if o != name),
                decides=tuple(decides),
                minimum=t.min_turn_deg,
                unit="°",
            )
            add(
                StepKind.SPIN_WHEEL,
                name,
                f"Turn the {name} module back so that its wheel points straight forward, bevel "
                "gear facing left, and hold it still.\n"
                + (BRAKE_WARNING if number == 0 else BRAKE_REMINDER),
                f"Roll the {name} wheel forward by hand (its top moving towards the robot's front: "
                f"counter-clockwise seen from the bevel side), at least {100 * t.min_roll_m:g} cm "
                "(about a quarter turn of the wheel), then hold it still.",
                watches=(Signal(name, RAW_DRIVE),),
                still=tuple(Signal(o, RAW_DRIVE) for o in names if o != name),
                decides=("inverted.drive",),
                minimum=t.min_roll_m,
                unit=" m",
            )
        add(
            StepKind.ROTATE_ROBOT,
            None,
            "Hold the robot still, disabled: on its cart or lifted is easiest, as on the floor "
            "its wheels must roll against the drive motors' brake mode.",
            "Rotate the whole robot counter-clockwise (seen from above) by about a quarter turn "
            f"(at least {t.min_robot_deg:g}°), then hold it still.",
            watches=(Signal(None, RAW_IMU_YAW),),
            decides=self._imu_fields,
            minimum=t.min_robot_deg,
            unit="°",
        )
        with_encoders = [n for n in names if self._has_encoder(n)]
        if with_encoders:
            add(
                StepKind.CAPTURE_OFFSETS,
                None,
                "Point every wheel straight forward, bevel gears facing left as at the start, as "
                "exactly as you can (a straight edge along the wheels helps).",
                "Hold every wheel still while the absolute encoder readings are captured.",
                watches=tuple(Signal(n, RAW_ABSOLUTE) for n in with_encoders),
                decides=("absoluteEncoderOffset",),
                unit="°",
            )
        return tuple(steps)

    def next_step(self) -> Step | None:
        """The first step without an accepted observation (the same step again after a refusal)."""
        for step in self.steps:
            if step.index not in self._accepted:
                return step
        return None

    @property
    def done(self) -> bool:
        return self.next_step() is None

    def accepted(self, step: Step) -> Observation | None:
        return self._accepted.get(step.index)

    # -- reading -----------------------------------------------------------------------------------
    def _read(self, attempt: _Attempt) -> Snapshot | None:
        try:
            return self.source.read()
        except TelemetryError as error:
            attempt.errors.append(str(error))
            return None

    def _window(self, attempt: _Attempt, into: list[Snapshot]) -> None:
        for i in range(self.settle_samples):
            if i:
                self._sleep(self.sample_interval_s)
            snapshot = self._read(attempt)
            if snapshot is not None:
                into.append(snapshot)

    def _check_order(self, step: Step) -> None:
        expected = self.next_step()
        if expected is None or expected.index != step.index:
            want = "none (all done)" if expected is None else f"{expected.index} ({expected.title})"
            raise CalibrationError(
                f"step {step.index} ({step.title}) is not the next step: the next one is {want}"
            )

    def begin(self, step: Step) -> None:
        """Start an attempt at ``step``: take the baseline readings (the person holds still)."""
        with self._lock:
            self._check_order(step)
            number = 1 + sum(1 for o in self.observations if o.step.index == step.index)
            attempt = _Attempt(step, number)
            self._window(attempt, attempt.baseline)
            self._attempt = attempt

    def sample(self) -> Snapshot | None:
        """Take one reading during the movement (optional; follows wraps more closely)."""
        with self._lock:
            attempt = self._attempt
            if attempt is None:
                return None
            snapshot = self._read(attempt)
            if snapshot is not None:
                attempt.middle.append(snapshot)
            return snapshot

    def live(self) -> str:
        """One line of live readings for the step in progress (takes a :meth:`sample`)."""
        with self._lock:
            attempt = self._attempt
            snapshot = self.sample()
            if attempt is None or snapshot is None:
                return "(no reading)" if attempt is not None else ""
            step = attempt.step
            signals = step.watches or ()
            parts = []
            for signal in signals:
                value = snapshot.values.get(signal)
                if value is None:
                    parts.append(f"{signal.label}: {snapshot.problem(signal)}")
                    continue
                text = f"{signal.label} {_fmt(value, signal.unit)}"
                base = attempt.baseline[-1].values.get(signal) if attempt.baseline else None
                if base is not None and step.kind is not StepKind.CAPTURE_OFFSETS:
                    text += f" ({_fmt(_diff(signal, base, value), signal.unit, sign=True)})"
                parts.append(text)
            return " | ".join(parts)

    def skip(self, step: Step) -> Observation:
        """Accept ``step`` without judging it: nothing is decided for it."""
        with self._lock:
            self._check_order(step)
            self._attempt = None
            observation = Observation(step, Verdict.SKIPPED, f"{step.title}: skipped")
            if step.kind is StepKind.CAPTURE_OFFSETS:  # say which offsets apply() converts
                converted = [d.reason for d in self._offset_conversions()]
                observation = Observation(
                    step, Verdict.SKIPPED, "\n".join([observation.explanation, *converted])
                )
            self.observations.append(observation)
            self._accepted[step.index] = observation
            return observation

    def finish(self, step: Step) -> Observation:
        """End the attempt: take the final readings and judge them."""
        with self._lock:
            attempt = self._attempt
            if attempt is None or attempt.step.index != step.index:
                raise CalibrationError(f"finish({step.title}) without begin({step.title})")
            self._window(attempt, attempt.final)
            self._attempt = None
            observation = self._judge(attempt)
            self.observations.append(observation)
            if observation.accepted:
                self._accepted[step.index] = observation
            return observation

    # -- judging -----------------------------------------------------------------------------------
    def _refuse(
        self,
        attempt: _Attempt,
        verdict: Verdict,
        text: str,
        movements: Iterable[Movement] = (),
        commands: tuple[str, ...] = (),
    ) -> Observation:
        return Observation(
            attempt.step,
            verdict,
            f"{text} Do it again.",
            tuple(movements),
            (),
            attempt.number,
            commands,
        )

    def _judge(self, attempt: _Attempt) -> Observation:
        step = attempt.step
        snapshots = [*attempt.baseline, *attempt.middle, *attempt.final]
        if attempt.errors:
            return self._refuse(attempt, Verdict.NO_DATA, attempt.errors[-1] + ".")
        if not attempt.baseline or not attempt.final:
            return self._refuse(attempt, Verdict.NO_DATA, "No readings were taken.")
        signals = (*step.watches, *step.still)
        for snapshot in snapshots:
            for signal in signals:
                problem = snapshot.problem(signal)
                if problem is not None:
                    return self._refuse(attempt, Verdict.NO_DATA, problem + ".")
        if step.kind is StepKind.CAPTURE_OFFSETS:
            unread = [
                s.module for s in step.watches if any(s.module in x.read_issues for x in snapshots)
            ]
            if unread:
                return self._refuse(
                    attempt,
                    Verdict.NO_DATA,
                    f"{', '.join(m for m in unread if m)}: the robot reports an "
                    "Absolute Encoder Read Issue, so Raw Absolute Encoder is the last good "
                    "reading, not where the wheel points now: fix the encoder (magnet, wiring, "
                    "CAN id and bus).",
                )
        if step.kind is StepKind.LIFT:
            return Observation(
                step,
                Verdict.DONE,
                f"All {len(step.watches)} raw readings are published and believable.",
                attempt=attempt.number,
            )
        if not step.watches:
            return Observation(step, Verdict.DONE, "Done.", attempt=attempt.number)
        b = len(attempt.baseline) - 1
        n = len(attempt.final)
        moves = {s: movement(s, [snap.values[s] for snap in snapshots], b, n) for s in signals}
        if step.kind is StepKind.CAPTURE_OFFSETS:
            final = {s: [snap.values[s] for snap in attempt.final] for s in step.watches}
            return self._judge_capture(attempt, moves, final)
        return self._judge_movement(attempt, moves)

    def _settle(self, signal: Signal) -> float:
        return self.thresholds.settle_m if signal.name == RAW_DRIVE else self.thresholds.settle_deg

    def _judge_movement(self, attempt: _Attempt, moves: Mapping[Signal, Movement]) -> Observation:
        step, t = attempt.step, self.thresholds
        minimum = step.minimum or 0.0
        main = step.watches[0]
        judged = [moves[s] for s in step.watches]
        for m in judged:
            if m.final_spread > self._settle(m.signal):
                return self._refuse(
                    attempt,
                    Verdict.NOISY,
                    f"{m.signal.label} was still changing at the end (by "
                    f"{_fmt(m.final_spread, m.signal.unit)}): hold still before finishing.",
                    judged,
                )
        moved_others = [moves[s] for s in step.still if abs(moves[s].change) >= minimum]
        if moved_others:
            other = moved_others[0]
            target = moves[main]
            if abs(target.change) < minimum:
                here, there = step.module or "", other.signal.module or ""
                swaps = swap_commands(os.fspath(self.directory), there, here)
                text = (
                    f"{step.module} did not move, but {other.signal.label} moved "
                    f"{_fmt(other.change, other.signal.unit, sign=True)}: either the wrong module "
                    f"was moved, or the ids in modules/{step.module}.json belong to another "
                    f"corner. If you moved the module at {step.module}'s location, the devices "
                    f"there are the ones modules/{other.signal.module}.json names: quit (q) and "
                    "move each module's devices (with their flags and offset) to the file of the "
                    "corner they are at; if the two modules' devices are swapped, "
                    f"{_swap_text(swaps)} (see `reassign --help` for any other re-assignment):\n"
                    + "\n".join(command for _, command in swaps)
                    + "\nThen restart the robot code and calibrate again. If you moved another "
                    "module:"
                )
                commands = tuple(command for _, command in swaps)
                return self._refuse(
                    attempt, Verdict.WRONG_MODULE, text, (*judged, *moved_others), commands
                )
            else:
                text = (
                    f"{other.signal.label} moved {_fmt(other.change, other.signal.unit, sign=True)}"
                    f" as well: move only {step.module}."
                )
            return self._refuse(attempt, Verdict.WRONG_MODULE, text, (*judged, *moved_others))
        target = moves[main]
        if abs(target.change) < minimum:
            return self._refuse(
                attempt,
                Verdict.TOO_SMALL,
                f"{target.describe()}: a change of only "
                f"{_fmt(abs(target.change), main.unit)}, too small to judge (at least "
                f"{_fmt(minimum, main.unit)}).",
                judged,
            )
        for m in judged:
            allowed = abs(m.change) * (1.0 + t.backtrack) + 2.0 * self._settle(m.signal)
            if m.travel > allowed:
                return self._refuse(
                    attempt,
                    Verdict.NOISY,
                    f"{m.signal.label} went back and forth ({_fmt(m.travel, m.signal.unit)} of "
                    f"travel for a change of {_fmt(m.change, m.signal.unit, sign=True)}): move in "
                    "one direction only.",
                    judged,
                )
        absolute = next((m for m in judged if m.signal.name == RAW_ABSOLUTE), None)
        if (
            step.kind is StepKind.TURN_MODULE
            and absolute is not None
            and absolute.largest_jump > t.max_jump_deg
        ):
            return self._refuse(
                attempt,
                Verdict.INCONSISTENT,
                f"{absolute.signal.label} jumped {_fmt(absolute.largest_jump, '°')} between "
                "two readings, too far to tell its direction through 0°/360°: turn about a "
                "quarter turn, not more.",
                judged,
            )
        if step.kind is StepKind.TURN_MODULE and absolute is not None and absolute is not target:
            if abs(absolute.change) < minimum:
                return self._refuse(
                    attempt,
                    Verdict.INCONSISTENT,
                    f"{absolute.describe()}, hardly moving while {target.signal.name} changed "
                    f"{_fmt(target.change, '°', sign=True)}: is the absolute encoder connected, "
                    "and is it this module's?",
                    judged,
                )
            gap = abs(abs(absolute.change) - abs(target.change))
            if gap > max(minimum, t.agreement * abs(target.change)):
                return self._refuse(
                    attempt,
                    Verdict.INCONSISTENT,
                    f"{absolute.signal.name} changed {_fmt(absolute.change, '°', sign=True)} but "
                    f"{target.signal.name} {_fmt(target.change, '°', sign=True)}: they should turn "
                    "by the same amount (turn less than half a turn; check the angle gear ratio).",
                    judged,
                )
        decisions = tuple(self._flag_decision(step, m) for m in judged)
        explanation = "\n".join(d.reason for d in decisions)
        if step.kind is StepKind.TURN_MODULE and self._angle_on_absolute(step.module or ""):
            explanation += "\n" + ANGLE_NOT_JUDGED_SHORT.format(module=step.module)
        return Observation(
            step, Verdict.DECIDED, explanation, tuple(judged), decisions, attempt.number
        )

    def _flag_decision(self, step: Step, m: Movement) -> Decision:
        signal = m.signal
        if signal.name == RAW_IMU_YAW:
            file, fields = DRIVE_FILE, self._imu_fields
            old: bool = self.config.drive.imu_inverted
            action = "while the robot was rotated counter-clockwise"
        else:
            module = self._modules[signal.module or ""]
            file = module.file
            if signal.name == RAW_ANGLE:
                fields, old = ("inverted.angle",), module.inverted.angle
                action = "while turned counter-clockwise"
            elif signal.name == RAW_ABSOLUTE:
                fields, old = ("absoluteEncoderInverted",), module.absolute_encoder_inverted
                action = "while turned counter-clockwise"
            else:
                fields, old = ("inverted.drive",), module.inverted.drive
                action = "while rolled forward"
        decreased = m.change < 0
        new = old != decreased
        name = " and ".join(fields)
        if new != old:
            verdict = f"setting {name} = {_json(new)}" + (" (it was true)" if old else "")
        else:
            verdict = f"{name} stays {_json(old)}"
        reason = f"{m.describe()} {action}: {verdict}"
        # the first spelling carries the decision; extra spellings are written alongside (apply)
        return Decision(file, fields[0], old, new, reason)

    def _judge_capture(
        self,
        attempt: _Attempt,
        moves: Mapping[Signal, Movement],
        final: Mapping[Signal, Sequence[float]],
    ) -> Observation:
        step, t = attempt.step, self.thresholds
        judged = [moves[s] for s in step.watches]
        for m in judged:
            spread = max(m.final_spread, m.travel)
            if spread > t.capture_deg:
                return self._refuse(
                    attempt,
                    Verdict.NOISY,
                    f"{m.signal.label} changed by {_fmt(spread, '°')} while it should be still "
                    f"(at most {_fmt(t.capture_deg, '°')}): hold every wheel still.",
                    judged,
                )
        decisions = []
        for m in judged:
            raw = circular_mean_deg(final[m.signal])  # the readings at the end, averaged
            decisions.append(self._offset_decision(m.signal.module or "", raw))
        return Observation(
            step,
            Verdict.DECIDED,
            "\n".join(d.reason for d in decisions),
            tuple(judged),
            tuple(decisions),
            attempt.number,
        )

    def planned_encoder_inverted(self, module: str) -> bool:
        """``absoluteEncoderInverted`` for ``module`` after this session's decisions."""
        config = self._modules[module]
        for observation in self._accepted.values():
            for d in observation.decisions:
                if d.file == config.file and d.field == "absoluteEncoderInverted":
                    return bool(d.new)
        return config.absolute_encoder_inverted

    def _converted_offsets(self) -> tuple[Decision, ...]:
        """Once the capture step is over: ``absoluteEncoderOffset`` converted to the new direction
        for every module whose ``absoluteEncoderInverted`` this session changes but whose offset
        was not captured (the capture was skipped), in module order."""
        capture = next((s for s in self.steps if s.kind is StepKind.CAPTURE_OFFSETS), None)
        if capture is not None and capture.index not in self._accepted:
            return ()  # not yet: the capture may still read them
        return self._offset_conversions()

    def _offset_conversions(self) -> tuple[Decision, ...]:
        """The conversions of :meth:`_converted_offsets`, whether or not the capture is over."""
        captured = {
            d.file
            for o in self._accepted.values()
            if o.step.kind is StepKind.CAPTURE_OFFSETS
            for d in o.decisions
            if d.field == "absoluteEncoderOffset"
        }
        result = []
        for config in self.config.modules:
            new_inverted = self.planned_encoder_inverted(config.name)
            if new_inverted == config.absolute_encoder_inverted or config.file in captured:
                continue
            result.append(
                converted_offset_decision(
                    config.file,
                    config.name,
                    config.absolute_encoder_offset_deg,
                    new_inverted=new_inverted,
                )
            )
        return tuple(result)

    def _offset_decision(self, module: str, raw_deg: float) -> Decision:
        config = self._modules[module]
        return offset_decision(
            config.file,
            module,
            raw_deg,
            old_offset=config.absolute_encoder_offset_deg,
            old_inverted=config.absolute_encoder_inverted,
            new_inverted=self.planned_encoder_inverted(module),
            encoder_type=config.encoder.type,
        )

    # -- the result --------------------------------------------------------------------------------
    def decisions(self) -> tuple[Decision, ...]:
        """Every decision of the accepted observations (changed or not), in step order, then the
        offsets converted because the capture was skipped (see the module docstring)."""
        ordered = sorted(self._accepted.values(), key=lambda o: o.step.index)
        return (*(d for o in ordered for d in o.decisions), *self._converted_offsets())

    def changes(self) -> tuple[Decision, ...]:
        """The decisions that change a value, each field written under every spelling it has."""
        result: list[Decision] = []
        for d in self.decisions():
            if not d.changed:
                continue
            if d.file == DRIVE_FILE and d.field in ("invertedIMU", "invertIMU"):
                result.extend(
                    Decision(d.file, spelling, d.old, d.new, d.reason)
                    for spelling in self._imu_fields
                )
            else:
                result.append(d)
        return tuple(result)

    def summary(self) -> str:
        """The changes apply() would write, for the person to confirm."""
        changes = self.changes()
        kept = sum(1 for d in self.decisions() if not d.changed)
        if not changes:
            return "\n".join(
                (
                    f"Nothing to change in {self.directory}: all {kept} settings checked are "
                    "right.",
                    *self.manual_checks(),
                )
            )
        width = max(len(d.file) for d in changes)
        files_in_order = list(dict.fromkeys(d.file for d in changes))
        lines = [f"Changes to write in {self.directory}:"]
        for d in sorted(changes, key=lambda d: files_in_order.index(d.file)):
            lines.append(f"  {d.file:<{width}}  {d.field}: {_json(d.old)} → {_json(d.new)}")
        files = len({d.file for d in changes})
        lines.append(
            f"{len(changes)} change{'s' if len(changes) != 1 else ''} in {files} "
            f"file{'s' if files != 1 else ''}; {kept} setting{'s' if kept != 1 else ''} already "
            "right."
        )
        skipped = [o.step.title for o in self._accepted.values() if o.verdict is Verdict.SKIPPED]
        if skipped:
            lines.append(f"Skipped (nothing decided): {', '.join(skipped)}.")
        lines.extend(d.reason for d in self._converted_offsets() if d.changed)
        lines.extend(self.manual_checks())
        return "\n".join(lines)

    def apply(
        self, confirm: Callable[[str], bool] | bool, *, dry_run: bool = False
    ) -> EditResult | None:
        """Write the changes after ``confirm(summary())`` says yes; see the module docstring."""
        left = [s.title for s in self.steps if s.index not in self._accepted]
        if left:
            raise CalibrationError(
                f"{len(left)} step{'s' if len(left) != 1 else ''} not done yet (the next: "
                f"{left[0]})"
            )
        changes = self.changes()
        if not changes:
            return None
        ok = confirm if isinstance(confirm, bool) else confirm(self.summary())
        if not ok:
            return None
        return write_decisions(self.directory, changes, "calibrate", dry_run=dry_run)


def offset_decision(
    file: str,
    module: str,
    raw_deg: float,
    *,
    old_offset: float,
    old_inverted: bool,
    new_inverted: bool,
    encoder_type: str | None = None,
) -> Decision:
    """``absoluteEncoderOffset`` from a ``Raw Absolute Encoder`` reading taken with the wheel facing
    forward under ``old_inverted``, for a configuration that will have ``new_inverted``.

    With ``encoder_type`` (the module's encoder ``type``), a new offset less than one count of that
    encoder away from ``old_offset`` (:func:`swervelib.tools.resolution.resolution_deg`) is noise:
    the old offset stays."""
    reading = wrap_360(raw_deg)
    if new_inverted != old_inverted:
        value = round(inverted_reading(reading), 2)
        how = (
            f"{module} Raw Absolute Encoder reads {_fmt(reading, '°')} facing forward, in the old "
            f"direction; with absoluteEncoderInverted = {_json(new_inverted)} that is "
            f"{_fmt(value, '°')}"
        )
    else:
        value = round(reading, 2)
        how = f"{module} Raw Absolute Encoder reads {_fmt(reading, '°')} facing forward"
    value = 0.0 if value >= 360.0 else value
    decision = Decision(file, "absoluteEncoderOffset", float(old_offset), value, "")
    count = resolution_deg(encoder_type) if encoder_type is not None else 0.0
    if decision.changed and abs(wrap_180(value - float(old_offset))) >= count:
        verdict = f"absoluteEncoderOffset {_json(old_offset)} → {_json(value)}"
    else:
        decision = Decision(file, "absoluteEncoderOffset", float(old_offset), float(old_offset), "")
        verdict = f"absoluteEncoderOffset stays {_json(old_offset)}"
        if abs(wrap_180(value - float(old_offset))) >= 0.005:
            verdict += (
                f" (less than one count of its {encoder_type} encoder, {_fmt(count, '°', digits=3)}"
                ", away)"
            )
    return Decision(decision.file, decision.field, decision.old, decision.new, f"{how}: {verdict}")


def converted_offset_decision(
    file: str, module: str, old_offset: float, *, new_inverted: bool
) -> Decision:
    """``absoluteEncoderOffset`` for a module whose ``absoluteEncoderInverted`` becomes
    ``new_inverted`` without a captured reading: ``old_offset``, the wheel-forward reading in the
    old direction, converted to the new one (``(360 − old) mod 360``, rounded to 0.01° like a
    captured offset; 0° and 180° stay as they are): :func:`offset_decision` given the old offset
    as the reading, with its own reason."""
    decision = offset_decision(
        file,
        module,
        old_offset,
        old_offset=old_offset,
        old_inverted=not new_inverted,
        new_inverted=new_inverted,
    )
    why = f"{module}: no offset captured, and absoluteEncoderInverted becomes {_json(new_inverted)}"
    if decision.changed:
        verdict = (
            f"absoluteEncoderOffset {_json(old_offset)} → {_json(decision.new)} (the same "
            f"wheel-forward position, read in the new direction: 360° − {_json(old_offset)}°)"
        )
    else:
        verdict = f"absoluteEncoderOffset stays {_json(old_offset)} (the same in either direction)"
    return Decision(decision.file, decision.field, decision.old, decision.new, f"{why}: {verdict}")
