"""Read and validate a configuration directory (YAGSL layout) into a :class:`SwerveConfig`.

Layout::

    swervedrive.json                 imu, invertedIMU (or invertIMU), modules, optional maxSpeed (m/s)
    controllerproperties.json        optional: heading PID and joystick deadband
    modules/<name>.json              one per entry of `modules`, in that order
    modules/physicalproperties.json  optional: conversion factors, current limits, ramp rates, ...
    modules/pidfproperties.json      optional: drive and angle PIDF

Every problem found in the whole directory is collected; if any is an error, one
:class:`ConfigError` carrying all of them is raised. Warnings (unknown keys, suspicious values) are
kept on the returned config. The range of every number, and why, is in
:mod:`swervelib.config.bounds`; checks across fields are in :mod:`swervelib.config.combined`.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from swervelib.config import bounds, combined
from swervelib.config.brushed import read_brushed_encoder
from swervelib.config.catalog import (
    ENCODER_TYPES,
    ID_RANGES,
    IMU_TYPES,
    MOTOR_TYPES,
    UNSUPPORTED,
    Bus,
    MotorType,
    Vendor,
)
from swervelib.config.combined import Reporter, Source
from swervelib.config.conversions import (
    PHYSICAL_FILE,
    PHYSICAL_LEGACY_KEYS,
    has_legacy,
    read_conversion_factors,
    resolve_conversion,
    warn_stale_legacy,
)
from swervelib.config.errors import ConfigError, Problem, Severity
from swervelib.config.fields import (
    FileContext,
    ObjectView,
    describe,
    key_text,
    suggest,
)
from swervelib.config.jsonpos import JSONSyntaxError, parse
from swervelib.config.lint import layout_warnings
from swervelib.config.model import (
    PIDF,
    ControllerProperties,
    ConversionFactors,
    DeviceConfig,
    DriveConfig,
    DriveFeedforward,
    Location,
    ModuleConfig,
    MotorInversion,
    PhysicalProperties,
    PIDFProperties,
    SwerveConfig,
)
from swervelib.config.names import module_name_problem, read_canbus
from swervelib.config.native_counts import (
    PER_ROTATION,
    FactorUnits,
    module_units,
    shared_units,
    units_for,
)
from swervelib.config.static_feedforward import check_static_feedforward, read_static_feedforward
from swervelib.config.steering import KEY as steering_key
from swervelib.config.steering import read_steering
from swervelib.safe_read import MAX_FILE_BYTES, UnreadableFile, read_file
from swervelib.safe_read import Problem as ReadProblem
from swervelib.text import printable_repr

FEEDFORWARD_KEY = "feedforward"  # pidfproperties.json drive.feedforward: swervelib's own key
MOI_KEY = "robotMomentOfInertia"  # kg·m², optional: swervelib's own key (YAGSL ignores it)
JOURNAL_FILE = ".swervelib-journal.json"  # written by swervelib.tools.edit during a commit
DRIVE_FILE = "swervedrive.json"
CONTROLLER_FILE = "controllerproperties.json"
MODULES_DIR = "modules"
PIDF_FILE = f"{MODULES_DIR}/pidfproperties.json"

# WPILib has kinematics and pose estimators for these module counts only (SwerveDrive refuses the
# rest with the same message).
SUPPORTED_MODULE_COUNTS: Final = (2, 3, 4, 6)
MODULE_COUNT_MESSAGE: Final = "WPILib kinematics support 2, 3, 4 or 6 modules"

_CATALOGS: dict[str, Any] = {"motor": MOTOR_TYPES, "encoder": ENCODER_TYPES, "imu": IMU_TYPES}


@dataclass(frozen=True, slots=True)
class _PlacedDevice:
    """A device with where it was written, for the duplicate-id check."""

    file: str
    field: str
    device: DeviceConfig
    line: int | None
    column: int | None


class _Loader:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.problems: list[Problem] = []
        self.motors: list[_PlacedDevice] = []
        self.encoders: list[_PlacedDevice] = []
        self.reporter = Reporter()
        self.physical_context: FileContext | None = None  # physicalproperties.json, once parsed
        self.module_files: dict[str, FileContext] = {}  # by module name
        self.drive_context: FileContext | None = None  # swervedrive.json, once parsed
        self.physical_root: ObjectView | None = None
        self.physical_legacy: str | None = None  # an older format's key in physicalproperties
        self.pidf_context: FileContext | None = None  # pidfproperties.json, once parsed

    # -- files -----------------------------------------------------------------------------------
    def fail(self, file: str, message: str, **details: Any) -> None:
        self.problems.append(Problem(file, "", message, **details))

    def open(self, relative: str, *, required: bool) -> FileContext | None:
        """Read a file (a regular file, its size checked before reading: a FIFO, a device or a
        6 GiB file is a problem, never a hang or an exhausted memory)."""
        path = self.directory / relative
        try:
            raw = read_file(path, limit=MAX_FILE_BYTES)  # follows links, like path.is_file()
        except UnreadableFile as error:
            if error.problem is ReadProblem.MISSING:
                if required:
                    self.fail(relative, "file not found", expected=f"a file at {path}")
            elif error.problem is ReadProblem.TOO_LARGE:
                self.fail(
                    relative,
                    "file too large for a configuration file",
                    expected=f"at most {error.limit} bytes",
                    found=f"{error.size} bytes",
                )
            else:
                self.fail(relative, f"cannot read the file: it {error.reason}")
            return None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            before = raw[: error.start]
            line = before.count(b"\n") + 1
            column = error.start - (before.rfind(b"\n") + 1) + 1
            self.fail(relative, "not UTF-8 text", line=line, column=column)
            return None
        try:
            document = parse(text, trailing=True)
        except JSONSyntaxError as error:
            self.fail(
                relative,
                f"JSON syntax error: {error.message}",
                line=error.line,
                column=error.column,
            )
            return None
        return FileContext(relative, document, self.problems)

    # -- devices -----------------------------------------------------------------------------------
    def device(self, parent: ObjectView, key: str, kind: str) -> DeviceConfig | None:
        view = parent.obj(key)
        if view is None:
            return None
        catalog = _CATALOGS[kind]
        type_name = view.string("type")
        entry = None
        if type_name is not None and view.ok("type"):
            entry = catalog.get(type_name)
            if entry is None:
                self.unknown_type(view, type_name, kind, catalog)
        bus = entry.bus if entry is not None else Bus.CAN
        id_range = ID_RANGES.get(bus)
        if id_range is not None:
            device_id = view.integer("id", minimum=id_range[0], maximum=id_range[1])
        else:  # ignored, but it still goes into labels and vendor calls
            low, high = bounds.IGNORED_ID_RANGE
            device_id = view.integer("id", 0, minimum=low, maximum=high)
        brushed_encoder = None
        if isinstance(entry, MotorType) and entry.brushed:  # `canbus` names its encoder
            brushed_encoder = read_brushed_encoder(view, key)
            canbus = None
        else:
            canbus = self.canbus(view, entry, type_name)
        view.finish()
        if entry is not None and bus is Bus.ANALOG and kind == "imu" and device_id not in (0, 1):
            view.error("id", "the analog gyro must be on analog input 0 or 1", found=str(device_id))
        if entry is not None and canbus is not None and entry.vendor is not Vendor.CTRE_PHOENIX6:
            view.warn(
                "canbus",
                f"`{key_text(str(type_name))}` is not a phoenix6 device; `canbus` is ignored",
            )
            canbus = None
        if type_name is None or entry is None or not view.ok("id", "canbus"):
            return None
        return DeviceConfig(type_name, device_id, canbus, brushed_encoder)

    @staticmethod
    def canbus(view: ObjectView, entry: Any, type_name: str | None) -> str | None:
        """``canbus``; a number on a device with no CAN bus choice is read as text and ignored,
        as YAGSL does (a CTRE phoenix6 device would look for a bus of that name: an error)."""
        raw = view.data.get("canbus")
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            return read_canbus(view)
        view.ignore("canbus")
        if entry is not None and entry.vendor is not Vendor.CTRE_PHOENIX6:
            view.warn(
                "canbus",
                f"a number where a CAN bus name belongs: read as text and ignored, as YAGSL does "
                f"(`{key_text(str(type_name))}` has no CAN bus choice)",
                found=describe(raw),
            )
            return None
        view.error(
            "canbus",
            "wrong type: a CAN bus name is text; YAGSL would look for a CANivore named after "
            "this number and the device would never answer (a CAN id belongs in `id`)",
            expected="a CANivore name, `*`, `rio` or null",
            found=describe(raw),
        )
        return None

    def unknown_type(self, view: ObjectView, type_name: str, kind: str, catalog: Any) -> None:
        accepted = ", ".join(sorted(catalog))
        reason = UNSUPPORTED.get(type_name)
        if reason is not None:
            view.error(
                "type", f"`{type_name}` is not supported: {reason}", expected=f"one of {accepted}"
            )
            return
        shown = key_text(type_name)
        wrong_kind = [
            k for k, other in _CATALOGS.items() if other is not catalog and type_name in other
        ]
        close = suggest(type_name, catalog)
        message = f"unknown {kind} type `{shown}`"
        if wrong_kind:
            message += f" (that is a {wrong_kind[0]} type)"
        if close:
            message += f"; did you mean `{close}`?"
        view.error("type", message, expected=f"one of {accepted}")

    def place(
        self,
        bucket: list[_PlacedDevice],
        file: FileContext,
        field: str,
        device: DeviceConfig | None,
    ) -> None:
        if device is None:
            return
        line, column = file.document.position((field, "id"))
        bucket.append(_PlacedDevice(file.file, field, device, line, column))

    def check_duplicate_ids(self) -> None:
        def key(placed: _PlacedDevice, catalog: Any) -> tuple[str, str, int, str] | None:
            entry = catalog[placed.device.type]
            if entry.bus in (Bus.ATTACHED, Bus.PORT, Bus.NONE):
                return None
            bus_name = (placed.device.canbus or "rio") if entry.bus is Bus.CAN else ""
            # A CAN frame carries the maker and the device kind beside the id, so a Spark and a
            # Talon may share an id (real robots do); two devices of one maker's kind may not.
            maker = entry.vendor.maker if entry.bus is Bus.CAN else ""
            return (entry.bus.value, bus_name, placed.device.id, maker)

        for bucket, catalog, what in (
            (self.motors, MOTOR_TYPES, "motor controllers"),
            (self.encoders, ENCODER_TYPES, "absolute encoders"),
        ):
            first: dict[tuple[str, str, int, str], _PlacedDevice] = {}
            for placed in bucket:
                slot = key(placed, catalog)
                if slot is None:
                    continue
                earlier = first.setdefault(slot, placed)
                if earlier is placed:
                    continue
                bus_kind, bus_name, number, maker = slot
                where = (
                    f"CAN id {number} on bus `{bus_name}` ({maker})"
                    if bus_kind == "can"
                    else (f"{bus_kind.upper()} channel {number}")
                )
                self.problems.append(
                    Problem(
                        placed.file,
                        f"{placed.field}.id",
                        f"{where} is used by two {what}: also {earlier.file} `{earlier.field}`",
                        line=placed.line,
                        column=placed.column,
                    )
                )

    # -- files' contents ---------------------------------------------------------------------------
    def error_count(self) -> int:
        return sum(1 for p in self.problems if p.severity is Severity.ERROR)

    def conversion_factors(
        self, parent: ObjectView, units: FactorUnits = PER_ROTATION
    ) -> ConversionFactors | None:
        """``conversionFactors``, per motor rotation (None when it has errors, already reported);
        ``units``: what its ``factor``s are written per (a Talon SRX's native counts)."""
        errors_before = self.error_count()
        factors = read_conversion_factors(parent, units)
        return factors if self.error_count() == errors_before else None

    def drive_file(self) -> tuple[DriveConfig | None, list[tuple[str, FileContext, int]]]:
        file = self.open(DRIVE_FILE, required=True)
        root = file.root() if file else None
        if file is None or root is None:
            return None, []
        imu = self.device(root, "imu", "imu")
        inverted = self.imu_inversion(root)
        max_speed = (
            root.number("maxSpeed", 0.0, above=0, unit="metres per second")
            if root.has("maxSpeed")
            else None
        )
        if max_speed is not None and not root.ok("maxSpeed"):
            max_speed = None
        self.drive_context = file
        names = self.module_names(root, file)
        root.finish()
        if imu is None or inverted is None:
            return None, names
        config = DriveConfig(imu, inverted, tuple(n for n, _, _ in names), max_speed)
        return config, names

    def imu_inversion(self, root: ObjectView) -> bool | None:
        spellings = [k for k in ("invertedIMU", "invertIMU") if root.has(k)]
        values = {k: root.boolean(k, False) for k in spellings}
        if not root.ok(*spellings):
            return None
        if len(values) == 2 and values["invertedIMU"] != values["invertIMU"]:
            root.error(
                "invertIMU",
                "`invertedIMU` and `invertIMU` are the same setting and disagree; keep one",
                expected=f"{str(values['invertedIMU']).lower()} (as invertedIMU)",
                found=str(values["invertIMU"]).lower(),
            )
            return None
        if values == {"invertIMU": True}:
            root.warn(
                "invertIMU",
                "YAGSL reads only `invertedIMU` and would leave the yaw as it is; swervelib "
                "inverts it, as the eight-step procedure means. Rename the field `invertedIMU` "
                "so that both read this folder alike",
                found="true",
            )
        return next(iter(values.values()), False)

    def module_names(
        self, root: ObjectView, file: FileContext
    ) -> list[tuple[str, FileContext, int]]:
        entries = root.array("modules")
        if entries is None:
            return []
        if not entries:
            root.error(
                "modules",
                "no modules listed",
                expected="at least two module file names",
                found="an empty array",
            )
            return []
        result: list[tuple[str, FileContext, int]] = []
        seen: set[str] = set()
        for index, entry in enumerate(entries):
            path = ("modules", index)
            if not isinstance(entry, str):
                file.report(
                    path, "wrong type", expected="a module file name", found=describe(entry)
                )
                continue
            problem = module_name_problem(entry)
            if problem:
                file.report(
                    path,
                    problem,
                    expected="a file name inside modules/, like frontleft.json",
                    found=printable_repr(entry, 120),
                )
                continue
            name = entry[:-5] if entry.endswith(".json") else entry
            if name in seen:
                file.report(path, f"module `{name}` is listed twice")
                continue
            seen.add(name)
            result.append((name, file, index))
        if len(entries) == 1:
            root.error("modules", "a swerve drive needs at least two modules", found="one module")
        elif len(result) == len(entries) and len(result) not in SUPPORTED_MODULE_COUNTS:
            root.error("modules", MODULE_COUNT_MESSAGE, found=f"{len(result)} modules")
        return result

    def open_module(self, name: str, listed_in: FileContext, index: int) -> FileContext | None:
        """One module file, read and parsed (None when it cannot be, already reported)."""
        relative = f"{MODULES_DIR}/{name}.json"
        if not _exists(self.directory / relative):  # anything else there: open() says what
            listed_in.report(
                ("modules", index),
                f"module file {relative} does not exist",
                expected=f"a file at {self.directory / relative}",
            )
            return None
        return self.open(relative, required=True)

    def module_file(
        self, name: str, file: FileContext | None, physical: ConversionFactors | None
    ) -> ModuleConfig | None:
        """One module file (:meth:`open_module`'s); ``physical`` is None when physicalproperties'
        factors had errors."""
        root = file.root() if file else None
        if file is None or root is None:
            return None
        self.module_files[name] = file
        drive = self.device(root, "drive", "motor")
        angle = self.device(root, "angle", "motor")
        encoder = self.device(root, "encoder", "encoder")
        self.place(self.motors, file, "drive", drive)
        self.place(self.motors, file, "angle", angle)
        self.place(self.encoders, file, "encoder", encoder)
        if angle is not None and encoder is not None:
            needs = ENCODER_TYPES[encoder.type].requires_controller
            controller = MOTOR_TYPES[angle.type].controller
            if needs and controller not in needs:
                file.report(
                    ("encoder", "type"),
                    f"`{encoder.type}` is plugged into the angle motor controller, "
                    f"which must be a {' or '.join(needs)}",
                    expected=f"angle motor of type {' or '.join(needs)}",
                    found=f"`{angle.type}`",
                )
                encoder = None
        inverted = self.inversion(root)
        abs_inverted = root.boolean("absoluteEncoderInverted", False)
        if not root.has("absoluteEncoderOffset") and (encoder is None or encoder.type != "none"):
            root.warn(
                None,
                "`absoluteEncoderOffset` is missing and is read as 0, as YAGSL does: the wheels "
                "point wherever the encoder reads 0; find the offsets with "
                "`python -m swervelib offsets` or `calibrate`",
            )
        offset = root.number("absoluteEncoderOffset", 0.0, within=bounds.ABSOLUTE_ENCODER_OFFSET)
        location = self.location(root)
        legacy = has_legacy(root)
        own = self.conversion_factors(
            root, units_for(angle.type if angle else None, drive.type if drive else None)
        )
        cosine = root.boolean("useCosineCompensator", True)
        conversion = None
        if own is not None and physical is not None:
            drive_type = drive.type if drive is not None else None
            conversion = resolve_conversion(
                root,
                own,
                physical,
                drive_type,
                self.reporter,
                self.physical_context,
                (legacy, self.physical_legacy),
            )
        steering, conversion = read_steering(root, angle, encoder, conversion, own, physical)
        root.finish()
        if None in (drive, angle, encoder, inverted, location, conversion) or not root.ok(
            "absoluteEncoderInverted",
            "absoluteEncoderOffset",
            "useCosineCompensator",
            steering_key,
        ):
            return None
        assert drive and angle and encoder and inverted and location and conversion
        return ModuleConfig(
            name=name,
            file=file.file,
            drive=drive,
            angle=angle,
            encoder=encoder,
            inverted=inverted,
            absolute_encoder_inverted=abs_inverted,
            absolute_encoder_offset_deg=offset,
            location=location,
            conversion=conversion,
            use_cosine_compensator=cosine,
            conversion_factors=own or ConversionFactors(),
            steer_feedback=steering,
        )

    def inversion(self, root: ObjectView) -> MotorInversion | None:
        view = root.obj("inverted")
        if view is None:
            return None
        drive = view.boolean("drive")
        angle = view.boolean("angle")
        view.finish()
        return MotorInversion(drive, angle) if view.ok("drive", "angle") else None

    def location(self, root: ObjectView) -> Location | None:
        view = root.obj("location")
        if view is None:
            return None
        for legacy in ("x", "y"):
            if view.has(legacy):
                view.ignore(legacy)
                view.warn(
                    legacy,
                    f"`location.{legacy}` is the 2023 format and is ignored; "
                    "use `front` and `left` (inches)",
                )
        if not (view.has("front") or view.has("left")) and (view.has("x") or view.has("y")):
            view.ignore("front", "left")
            view.error(
                None,
                "only the 2023 `location.x`/`location.y` is set, which YAGSL 2025.3+ and "
                "swervelib do not read: run `python -m swervelib migrate DIRECTORY` to convert it",
                expected="`front` and `left` (inches)",
            )
            view.finish()
            return None
        front = view.number("front", unit="inches, forward positive", within=bounds.LOCATION)
        left = view.number("left", unit="inches, left positive", within=bounds.LOCATION)
        view.finish()
        if not view.ok("front", "left"):
            return None
        if math.hypot(front, left) < bounds.MIN_CENTRE_DISTANCE_IN:
            least = bounds.MIN_CENTRE_DISTANCE_IN
            what = "front and left both 0" if front == left == 0 else f"less than {least:g} in away"
            root.error(
                "location",
                f"the module is at the robot centre ({what}), where it cannot help turn the robot",
                expected=f"the wheel's distance from the robot centre in inches, at least {least:g} in",
                found=f"front {front:g}, left {left:g}",
            )
            return None
        return Location(front, left)

    def pidf(
        self, parent: ObjectView, key: str, *, required: bool = True, default: PIDF | None = None
    ) -> PIDF | None:
        view = parent.obj(key, required=required)
        if view is None:
            return default
        base = default or PIDF()
        gain = bounds.GAIN
        p = view.number("p", base.p, minimum=0, within=gain)
        i = view.number("i", base.i, minimum=0, within=gain)
        d = view.number("d", base.d, minimum=0, within=gain)
        f = view.number("f", base.f, within=bounds.FEEDFORWARD)
        iz = view.number("iz", base.iz, minimum=0, within=gain)
        static = read_static_feedforward(view, key, base)
        low, high = base.output_min, base.output_max
        output = view.obj("output", required=False)
        if output is not None:
            limit = bounds.OUTPUT_LIMIT
            low = output.number("min", base.output_min, minimum=-1, maximum=1, within=limit)
            high = output.number("max", base.output_max, minimum=-1, maximum=1, within=limit)
            output.finish()
            if output.ok("min", "max") and low >= high:
                output.error(
                    None, "output.min must be below output.max", found=f"min {low:g}, max {high:g}"
                )
        view.finish(known_elsewhere=(FEEDFORWARD_KEY,) if key == "drive" else ())
        return PIDF(p=p, i=i, d=d, f=f, iz=iz, output_min=low, output_max=high, s=static)

    @staticmethod
    def drive_feedforward(root: ObjectView) -> DriveFeedforward | None:
        """``drive.feedforward`` of pidfproperties.json: ``{"kS": V, "kV": V per m/s, "kA": V per
        m/s²}`` (each optional, 0 when left out, kV required); None when there is none."""
        drive = root.data.get("drive")
        if not isinstance(drive, dict) or FEEDFORWARD_KEY not in drive:
            return None
        view = root.obj("drive")
        feedforward = view.obj(FEEDFORWARD_KEY) if view is not None else None
        if feedforward is None:
            return None
        ks = feedforward.number("kS", 0.0, minimum=0, within=bounds.FEEDFORWARD_KS)
        kv = feedforward.number("kV", within=bounds.FEEDFORWARD_KV)
        ka = feedforward.number("kA", 0.0, minimum=0, within=bounds.FEEDFORWARD_KA)
        feedforward.finish()
        if not feedforward.ok("kS", "kV", "kA"):
            return None
        return DriveFeedforward(ks, kv, ka)

    def physical_file(
        self, units: FactorUnits = PER_ROTATION
    ) -> tuple[PhysicalProperties | None, ConversionFactors | None]:
        """The physical properties, and their conversion factors (None when those had errors);
        ``units``: what their ``factor``s are written per (see :meth:`peek_factor_units`)."""
        file = self.open(PHYSICAL_FILE, required=False)
        root = file.root() if file else None
        if root is None:
            return None, ConversionFactors() if file is None else None
        self.physical_context = file
        self.physical_root = root
        default = PhysicalProperties()
        self.physical_legacy = has_legacy(root, PHYSICAL_LEGACY_KEYS)
        factors = self.conversion_factors(root, units)

        def pair(key: str, value: Any, **bounds: Any) -> Any:
            return type(value)(*root.pair(key, (value.drive, value.angle), **bounds))

        result = PhysicalProperties(
            conversion_factors=factors or ConversionFactors(),
            current_limit=pair(
                "currentLimit", default.current_limit, above=0, within=bounds.CURRENT_LIMIT
            ),
            ramp_rate=pair("rampRate", default.ramp_rate, minimum=0, within=bounds.RAMP_RATE),
            wheel_grip_coefficient_of_friction=root.number(
                "wheelGripCoefficientOfFriction",
                default.wheel_grip_coefficient_of_friction,
                above=0,
                within=bounds.WHEEL_GRIP,
            ),
            optimal_voltage=root.number(
                "optimalVoltage", default.optimal_voltage, above=0, within=bounds.OPTIMAL_VOLTAGE
            ),
            friction=pair("friction", default.friction, minimum=0, within=bounds.FRICTION),
            steer_rotational_inertia=root.number(
                "steerRotationalInertia",
                default.steer_rotational_inertia,
                above=0,
                within=bounds.STEER_INERTIA,
            ),
            robot_mass_lb=root.number(
                "robotMass", default.robot_mass_lb, above=0, within=bounds.ROBOT_MASS
            ),
            robot_moment_of_inertia=self.moment_of_inertia(root),
        )
        root.finish()
        return result, factors

    @staticmethod
    def moment_of_inertia(root: ObjectView) -> float | None:
        """``robotMomentOfInertia`` (kg·m²); absent or null: None (the simulation's default)."""
        if not root.has(MOI_KEY):
            return None
        if root.data[MOI_KEY] is None:
            root.ignore(MOI_KEY)
            return None
        return root.number(MOI_KEY, above=0, within=bounds.ROBOT_MOMENT_OF_INERTIA)

    def pidf_file(self) -> PIDFProperties | None:
        file = self.open(PIDF_FILE, required=False)
        root = file.root() if file else None
        if root is None:
            return None
        self.pidf_context = file
        drive = self.pidf(root, "drive")
        angle = self.pidf(root, "angle")
        feedforward = self.drive_feedforward(root)
        root.finish()
        return PIDFProperties(drive, angle, feedforward) if drive and angle else None

    def controller_file(self) -> ControllerProperties | None:
        file = self.open(CONTROLLER_FILE, required=False)
        root = file.root() if file else None
        if root is None:
            return None
        deadband = root.number("angleJoystickRadiusDeadband", 0.0, minimum=0, maximum=1)
        heading = self.pidf(root, "heading")
        root.finish()
        return ControllerProperties(deadband, heading) if heading else None

    # -- the whole directory -------------------------------------------------------------------------
    def load(self) -> SwerveConfig:
        directory = self.directory
        if not directory.is_dir():
            what = "is not a directory" if directory.exists() else "does not exist"
            raise ConfigError(
                [Problem(str(directory), "", f"configuration directory {what}")], str(directory)
            )
        drive, names = self.drive_file()
        files = [self.open_module(name, listed_in, index) for name, listed_in, index in names]
        # physicalproperties.json's factors are in the units the module files' motors give
        units = shared_units([module_units(f.document.value if f else None) for f in files])
        physical, factors = self.physical_file(units)
        modules = [
            self.module_file(name, file, factors)
            for (name, _, _), file in zip(names, files, strict=True)
        ]
        if self.physical_legacy and self.physical_root is not None and None not in modules:
            warn_stale_legacy(self.physical_root, self.physical_legacy)
        pidf = self.pidf_file()
        controller = self.controller_file()
        self.warn_misplaced_files()
        self.check_duplicate_ids()
        valid_modules = [m for m in modules if m is not None]
        if pidf is not None:
            check_static_feedforward(self.pidf_context, pidf.angle, valid_modules)
        self.check_module_layout(valid_modules)
        if drive is not None and drive.max_speed_mps is not None and self.drive_context:
            source = Source(self.drive_context, ("maxSpeed",))
            combined.max_speed(self.reporter, source, drive.max_speed_mps, valid_modules)
        if drive is not None and len(valid_modules) == len(modules):
            self.problems += layout_warnings(drive, valid_modules)
        errors = [p for p in self.problems if p.severity is Severity.ERROR]
        if _is_file(directory / JOURNAL_FILE):
            self.problems.append(
                Problem(
                    JOURNAL_FILE,
                    "",
                    "a swervelib edit of this directory was interrupted and the files may be a mix "
                    "of old and new: run `python -m swervelib check --recover DIRECTORY`",
                    severity=Severity.WARNING,
                )
            )
        warnings = tuple(p for p in self.problems if p.severity is Severity.WARNING)
        if errors or drive is None or any(m is None for m in modules):
            raise ConfigError(errors or self.problems, str(directory), warnings=warnings)
        return SwerveConfig(
            directory=str(directory),
            drive=drive,
            modules=tuple(m for m in modules if m is not None),
            physical=physical,
            pidf=pidf,
            controller=controller,
            warnings=warnings,
        )

    def warn_misplaced_files(self) -> None:
        """A properties file in the other folder (a copy of physicalproperties.json beside
        swervedrive.json, say) is read neither by YAGSL nor here: editing it changes nothing."""
        for read in (PHYSICAL_FILE, PIDF_FILE, CONTROLLER_FILE):
            name = read.rpartition("/")[2]
            misplaced = name if "/" in read else f"{MODULES_DIR}/{name}"
            if _is_file(self.directory / misplaced):
                self.problems.append(
                    Problem(
                        misplaced,
                        "",
                        f"not read: `{read}` is (as in YAGSL); edits to this copy change nothing",
                        severity=Severity.WARNING,
                    )
                )

    def check_module_layout(self, modules: list[ModuleConfig]) -> None:
        placed = [(m, self.module_files[m.name]) for m in modules if m.name in self.module_files]
        combined.location_spacing(self.reporter, placed)


def _exists(path: Path) -> bool:
    """Whether anything (a broken link included) is at ``path``; False for names the OS refuses."""
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):
        return False


def _is_file(path: Path) -> bool:
    """``path.is_file()``, False instead of an exception for names the OS refuses."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def load_directory(directory: str | os.PathLike[str]) -> SwerveConfig:
    """Read and validate a configuration directory; raise :class:`ConfigError` listing every error."""
    return _Loader(Path(directory)).load()
