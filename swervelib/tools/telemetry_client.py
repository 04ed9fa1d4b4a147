"""Reading a robot's raw swerve telemetry from outside the robot.

The robot (``SwerveDrive``, telemetry verbosity ``HIGH``) publishes under
``/SmartDashboard/swerve/``: per module ``modules/<name>/Raw Absolute Encoder`` (degrees, after
``absoluteEncoderInverted``, before the offset), ``Raw Angle Encoder`` (degrees of module rotation,
after ``inverted.angle``), ``Raw Drive Encoder`` (metres, after ``inverted.drive``), and
``Raw IMU Yaw`` (degrees, after ``invertedIMU``, unwrapped), plus ``moduleNames`` once. Each
module's ``Absolute Encoder Read Issue`` says its absolute encoder cannot be read (bad magnet,
unplugged, not answering): its ``Raw Absolute Encoder`` is then the last good reading, not the
encoder now; :attr:`Snapshot.read_issues` names those modules.

:class:`TelemetrySource` is the small interface the calibration tools read through:

* :meth:`TelemetrySource.module_names` — the module names the robot says it has (``None`` when it
  does not say);
* :meth:`TelemetrySource.read` — one :class:`Snapshot` of every raw value, each already validated.

Two implementations:

* :class:`NetworkTablesTelemetry` — a NetworkTables 4 *client* (its own
  ``NetworkTableInstance.create()``, never the process's default instance), connecting to a host
  name or address, a team number (``"1234"`` → ``setServerTeam(1234)``) or ``"localhost"``
  (``robotpy sim``), with an optional port. Subscribers are created once, in the constructor. A
  client not connected after :data:`RESTART_CLIENT_S` is started again; if no robot answers within
  ``timeout_s`` it raises :class:`TelemetryConnectionError` with a message saying what to check.
* :class:`MemoryTelemetry` — values held in a dictionary, for tests and dry runs.

Validation: every value read is checked before anything can use it — it must be published, be a
number (a double, float or integer topic; a boolean is not a number), be finite, and lie in a
plausible range (:data:`PLAUSIBLE`). A value failing a check is left out of the snapshot and its
problem is recorded instead (``Snapshot.problems``); :meth:`Snapshot.get` then raises
:class:`TelemetryError` with that message. A snapshot therefore never hands out NaN, infinity, a
string, or an absurd number.

Everything read from the robot is untrusted text for the terminal too: a problem message quotes a
wrong-typed value only cut short and escaped (:func:`swervelib.text.printable`), and
``moduleNames`` must be a list of at most :data:`MAX_MODULE_NAMES` names, each 1 to
:data:`MAX_MODULE_NAME_CHARS` characters without control, bidirectional-override or other invisible
characters; anything else is refused with :class:`TelemetryError` (an empty list means "not
published").
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Final, Protocol

from swervelib.text import printable, printable_repr, shown_number

ROOT: Final = "/SmartDashboard/swerve"
RAW_ABSOLUTE: Final = "Raw Absolute Encoder"
RAW_ANGLE: Final = "Raw Angle Encoder"
RAW_DRIVE: Final = "Raw Drive Encoder"
RAW_IMU_YAW: Final = "Raw IMU Yaw"
READ_ISSUE: Final = "Absolute Encoder Read Issue"
MODULE_SIGNALS: Final = (RAW_ABSOLUTE, RAW_ANGLE, RAW_DRIVE)
DEFAULT_PORT4: Final = 5810
MAX_MODULE_NAMES: Final = 16  # WPILib kinematics take 2, 3, 4 or 6 modules
MAX_MODULE_NAME_CHARS: Final = 100  # as in a configuration's "modules" list
# A NetworkTables client that has not connected after this long is started again. ntcore clients
# are known to stay unconnected at times (PhotonVision restarts its client for that); a local
# connection normally takes about 0.1 s.
RESTART_CLIENT_S: Final = 3.0

# name -> (lowest, highest, unit): a reading outside is not believed.
PLAUSIBLE: Final[Mapping[str, tuple[float, float, str]]] = {
    RAW_ABSOLUTE: (-720.0, 720.0, "°"),  # [0, 360) from swervelib; some robots publish ±180
    RAW_ANGLE: (-1.0e7, 1.0e7, "°"),  # unwrapped: many turns are fine, 27 000 turns are not
    RAW_DRIVE: (-1.0e5, 1.0e5, " m"),
    RAW_IMU_YAW: (-1.0e7, 1.0e7, "°"),  # unwrapped
}


class TelemetryError(Exception):
    """A telemetry value is missing or not believable; the message says which and why."""


class TelemetryConnectionError(TelemetryError):
    """No robot answered (or the connection was lost)."""


@dataclass(frozen=True, slots=True)
class Signal:
    """One raw telemetry value: ``module`` None for drive-level values (``Raw IMU Yaw``)."""

    module: str | None
    name: str

    @property
    def path(self) -> str:
        """Relative to ``/SmartDashboard/swerve/``, e.g. ``modules/frontleft/Raw Angle Encoder``."""
        return self.name if self.module is None else f"modules/{self.module}/{self.name}"

    @property
    def topic(self) -> str:
        return f"{ROOT}/{self.path}"

    @property
    def label(self) -> str:
        """For people: ``frontleft Raw Angle Encoder``."""
        return self.name if self.module is None else f"{self.module} {self.name}"

    @property
    def unit(self) -> str:
        return PLAUSIBLE[self.name][2]

    @property
    def wraps(self) -> bool:
        """True when the value wraps at a full turn (the absolute encoder's [0°, 360°))."""
        return self.name == RAW_ABSOLUTE


def module_signals(modules: Iterable[str]) -> tuple[Signal, ...]:
    """Every raw signal of these modules, then ``Raw IMU Yaw``."""
    signals = [Signal(m, name) for m in modules for name in MODULE_SIGNALS]
    return (*signals, Signal(None, RAW_IMU_YAW))


def validate(signal: Signal, value: object) -> tuple[float | None, str | None]:
    """``(number, None)`` when ``value`` is believable for ``signal``, else ``(None, problem)``."""
    if value is None:
        return None, f"{signal.label}: not published by the robot"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None, (
            f"{signal.label}: wrong type (expected a number, found {type(value).__name__} "
            f"{describe_value(value)})"
        )
    number = float(value)
    if not math.isfinite(number):
        return None, f"{signal.label}: not a finite number ({number})"
    low, high, unit = PLAUSIBLE[signal.name]
    if not low <= number <= high:
        return None, (
            f"{signal.label}: implausible value {number:g}{unit} (expected {low:g} to {high:g})"
        )
    return number, None


def describe_value(value: object, limit: int = 60, *, items: int = 5, item_limit: int = 20) -> str:
    """A value read from the robot, for a message: escaped (:func:`~swervelib.text.printable`)
    and cut short, however long it is (NT strings and arrays can hold megabytes): a string to
    ``limit`` characters, a list to its first ``items`` entries of ``item_limit`` characters."""
    if isinstance(value, str | bytes):
        shown = printable_repr(value[:limit], None)
        return shown + (f"… ({len(value)} characters)" if len(value) > limit else "")
    if isinstance(value, list | tuple):
        shown = ", ".join(
            type(v).__name__
            if isinstance(v, list | tuple | dict)
            else describe_value(v, item_limit)
            for v in value[:items]
        )
        return f"[{shown}" + (f", … ({len(value)} items)]" if len(value) > items else "]")
    return printable_repr(value, limit)


def module_names_problem(value: object) -> str | None:
    """Why ``value`` (the robot's ``moduleNames``) is not a list of module names; None if it is."""
    if not isinstance(value, list | tuple):
        return f"not a list of names but {printable(type(value).__name__, 40)}"
    if not value:
        return "an empty list"
    if len(value) > MAX_MODULE_NAMES:
        return f"{len(value)} names, more than {MAX_MODULE_NAMES}"
    for index, name in enumerate(value):
        if not isinstance(name, str):
            return f"entry {index} is {printable(type(name).__name__, 40)}, not a name"
        if not name or len(name) > MAX_MODULE_NAME_CHARS:
            return (
                f"entry {index} is {len(name)} characters long (names have 1 to "
                f"{MAX_MODULE_NAME_CHARS})"
            )
        if printable(name, None) != name:
            return f"entry {index} ({shown_number(name)}) holds control or invisible characters"
    return None


@dataclass(frozen=True)
class Snapshot:
    """Every raw value at one moment: the believable ones, and what is wrong with the others."""

    values: Mapping[Signal, float]
    problems: Mapping[Signal, str] = field(default_factory=dict)
    time_s: float = 0.0  # the reader's monotonic clock
    # modules whose robot reports an Absolute Encoder Read Issue (their Raw Absolute Encoder is the
    # last good reading, not the encoder now)
    read_issues: frozenset[str] = frozenset()

    def get(self, signal: Signal) -> float:
        """The validated value, or :class:`TelemetryError` saying why there is none."""
        try:
            return self.values[signal]
        except KeyError:
            problem = self.problems.get(signal, f"{signal.label}: not read")
            raise TelemetryError(problem) from None

    def problem(self, signal: Signal) -> str | None:
        if signal in self.values:
            return None
        return self.problems.get(signal, f"{signal.label}: not read")


class TelemetrySource(Protocol):
    """Where the calibration tools read the robot's raw values from."""

    def module_names(self) -> tuple[str, ...] | None:
        """The module names the robot publishes (``moduleNames``), or None if it publishes none.
        Raises TelemetryError when what it publishes is not a list of module names."""
        ...

    def read(self) -> Snapshot:
        """Every raw value now, validated. Raises TelemetryConnectionError if the robot is gone."""
        ...


def snapshot_from(
    raw: Mapping[Signal, object],
    *,
    time_s: float | None = None,
    read_issues: Iterable[str] = (),
) -> Snapshot:
    """Validate raw values (``None`` = not published) into a :class:`Snapshot`; ``read_issues``:
    the modules whose robot reports an ``Absolute Encoder Read Issue``."""
    values: dict[Signal, float] = {}
    problems: dict[Signal, str] = {}
    for signal, value in raw.items():
        number, problem = validate(signal, value)
        if number is not None:
            values[signal] = number
        elif problem is not None:
            problems[signal] = problem
    when = time.monotonic() if time_s is None else time_s
    return Snapshot(values, problems, when, frozenset(read_issues))


def flag(value: object) -> bool:
    """A published ``Absolute Encoder Read Issue``: a boolean (swervelib, YAGSL 2025+), or 1/0 as
    YAGSL published it up to 2025.1; anything else (not published) is no issue reported."""
    if isinstance(value, bool):
        return value
    return isinstance(value, int | float) and value == 1


class MemoryTelemetry:
    """An in-memory :class:`TelemetrySource`: set values with :meth:`set` (tests, dry runs).

    Values go through the same validation as network values, so a test can feed NaN, a string or
    an absurd number and see it refused.
    """

    def __init__(self, modules: Sequence[str], *, publish_names: bool = True) -> None:
        self._modules = tuple(modules)
        self._publish_names = publish_names
        self._lock = threading.Lock()
        self._raw: dict[Signal, object] = dict.fromkeys(module_signals(self._modules), 0.0)
        self._read_issues: set[str] = set()
        self.reads = 0

    def module_names(self) -> tuple[str, ...] | None:
        return self._modules if self._publish_names else None

    def set(self, module: str | None, name: str, value: object) -> None:
        """Set one value (``None`` = not published)."""
        with self._lock:
            self._raw[Signal(module, name)] = value

    def set_read_issue(self, module: str, issue: bool) -> None:
        """Report (or clear) an ``Absolute Encoder Read Issue`` for ``module``."""
        with self._lock:
            (self._read_issues.add if issue else self._read_issues.discard)(module)

    def add(self, module: str | None, name: str, delta: float) -> None:
        """Move one numeric value by ``delta``."""
        with self._lock:
            signal = Signal(module, name)
            current = self._raw.get(signal)
            if not isinstance(current, int | float) or isinstance(current, bool):
                raise TypeError(f"{signal.label} holds {current!r}, not a number")
            self._raw[signal] = float(current) + delta

    def value(self, module: str | None, name: str) -> object:
        with self._lock:
            return self._raw.get(Signal(module, name))

    def read(self) -> Snapshot:
        with self._lock:
            self.reads += 1
            raw = dict(self._raw)
            issues = frozenset(self._read_issues)
        return snapshot_from(raw, read_issues=issues)


_TEAM = re.compile(r"^\d{1,5}$")


def describe_server(server: str, port: int | None = None) -> str:
    """``team 1234``, ``localhost:5810``, ... for messages."""
    server = server.strip()
    if _TEAM.match(server):
        return f"team {int(server)}" + (f" (port {port})" if port else "")
    return f"{server}:{port or DEFAULT_PORT4}"


def _number(value: Any) -> object:
    """The Python value of an ntcore Value, ``None`` when unassigned; strings etc. pass through."""
    import ntcore

    kind = value.type()
    if kind == ntcore.NetworkTableType.kUnassigned:
        return None
    if kind in (
        ntcore.NetworkTableType.kDouble,
        ntcore.NetworkTableType.kFloat,
        ntcore.NetworkTableType.kInteger,
    ):
        return float(value.value())
    result: object = value.value()
    return result


def _release(handles: list[Any]) -> None:
    """Close each NT handle in ``handles`` now, emptying the list: typed ones by ``close()``;
    generic subscribers, which have none in pyntcore, by dropping the last reference."""
    while handles:
        handle = handles.pop()
        close = getattr(handle, "close", None)
        if close is not None:
            close()


class NetworkTablesTelemetry:
    """A NetworkTables 4 client reading the robot's raw swerve telemetry.

    ``server``: a host name or IP address, a team number (``"1234"``), or ``"localhost"``;
    ``port``: the NT4 port (default 5810). ``modules``: the module names to subscribe to (default:
    the robot's ``moduleNames``). Connects in the constructor and raises
    :class:`TelemetryConnectionError` if no robot answers within ``timeout_s``. Use as a context
    manager, or call :meth:`close`.
    """

    def __init__(
        self,
        server: str = "localhost",
        *,
        port: int | None = None,
        modules: Sequence[str] | None = None,
        timeout_s: float = 5.0,
        identity: str = "swervelib-calibrate",
        periodic_s: float = 0.02,
    ) -> None:
        import ntcore

        self.server = server.strip() or "localhost"
        self.port = port
        self.where = describe_server(self.server, port)
        self._closed = False
        self._instance: Any = ntcore.NetworkTableInstance.create()
        inst = self._instance
        try:
            self._start_client(identity)
            deadline = time.monotonic() + timeout_s
            restart_at = time.monotonic() + RESTART_CLIENT_S
            options = ntcore.PubSubOptions(periodic=periodic_s)
            self._names_sub: Any = inst.getStringArrayTopic(f"{ROOT}/moduleNames").subscribe(
                [], options
            )
            while not inst.isConnected():
                now = time.monotonic()
                if now >= deadline:
                    raise TelemetryConnectionError(
                        f"no robot answered at {self.where} within {timeout_s:g} s: is the robot "
                        "on (or `robotpy sim` running), and is this the right address or team "
                        "number?"
                    )
                if now >= restart_at:  # stuck: start the client again (subscriptions stay)
                    inst.stopClient()
                    self._start_client(identity)
                    restart_at = now + RESTART_CLIENT_S
                time.sleep(0.01)
            if modules is None:
                while not self._names_sub.exists() or not self._names_sub.get():
                    if time.monotonic() >= deadline:
                        raise TelemetryError(
                            f"connected to {self.where}, but it publishes no {ROOT}/moduleNames "
                            "within the time-out: is it running swervelib with telemetry on?"
                        )
                    time.sleep(0.01)
                modules = self._checked_names(self._names_sub.get())
            self._modules = tuple(modules)
            self._signals = module_signals(self._modules)
            self._subs: dict[Signal, Any] = {
                s: inst.getTopic(s.topic).genericSubscribe(options) for s in self._signals
            }
            self._issue_subs: dict[str, Any] = {
                m: inst.getTopic(f"{ROOT}/{Signal(m, READ_ISSUE).path}").genericSubscribe(options)
                for m in self._modules
            }
            # wait (within the same time-out) until the raw values have arrived
            while not all(
                sub.exists() and _number(sub.get()) is not None for sub in self._subs.values()
            ):
                if time.monotonic() >= deadline:
                    break
                time.sleep(0.01)
            if not any(_number(sub.get()) is not None for sub in self._subs.values()):
                raise TelemetryError(
                    f"connected to {self.where}, but it publishes none of the raw values under "
                    f"{ROOT}/modules/<module>/ (e.g. {self._signals[0].topic}): is its telemetry "
                    "verbosity HIGH (the default)?"
                )
        except BaseException:
            self.close()
            raise

    def _start_client(self, identity: str) -> None:
        inst = self._instance
        inst.startClient4(identity)
        if _TEAM.match(self.server):
            inst.setServerTeam(int(self.server), self.port or 0)
        else:
            inst.setServer(self.server, self.port or 0)

    def _checked_names(self, value: object) -> tuple[str, ...]:
        problem = module_names_problem(value)
        if problem is not None or not isinstance(value, list | tuple):
            raise TelemetryError(
                f"{ROOT}/moduleNames from {self.where} is not a list of module names: {problem}"
            )
        return tuple(value)

    @property
    def modules(self) -> tuple[str, ...]:
        return self._modules

    def module_names(self) -> tuple[str, ...] | None:
        if self._closed or not self._names_sub.exists():
            return None
        value = self._names_sub.get()
        return self._checked_names(value) if value else None

    def connected(self) -> bool:
        return not self._closed and bool(self._instance.isConnected())

    def read(self) -> Snapshot:
        if self._closed:
            raise TelemetryConnectionError("the telemetry connection is closed")
        if not self._instance.isConnected():
            raise TelemetryConnectionError(f"lost the connection to the robot at {self.where}")
        issues = [m for m, sub in self._issue_subs.items() if flag(_number(sub.get()))]
        raw = {s: _number(sub.get()) for s, sub in self._subs.items()}
        return snapshot_from(raw, read_issues=issues)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        import ntcore

        inst = self._instance
        try:
            # Every subscriber goes before the instance: a handle released later (when its Python
            # object is collected) would close whatever a newer instance, reusing the destroyed
            # one's index, has under the same handle number.
            subs = [
                getattr(self, "_names_sub", None),
                *getattr(self, "_subs", {}).values(),
                *getattr(self, "_issue_subs", {}).values(),
            ]
            self._names_sub = None
            self._subs = {}
            self._issue_subs = {}
            _release(subs)
            inst.stopClient()
        finally:
            ntcore.NetworkTableInstance.destroy(inst)

    def __enter__(self) -> NetworkTablesTelemetry:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
