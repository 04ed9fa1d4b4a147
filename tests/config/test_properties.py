"""Property tests: random valid configurations round-trip; random corruptions raise ConfigError."""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swervelib.config import ENCODER_TYPES, IMU_TYPES, MOTOR_TYPES, ConfigError, load_directory
from swervelib.config.catalog import BRUSHED_ENCODERS, ID_RANGES, Bus
from tests.conftest import DEPLOY

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Within the accepted ranges of swervelib.config.bounds (locations within 100 in, gear ratios
# 0.1-1000, a drive conversion of 0.001-1 m per motor rotation).
finite = st.floats(min_value=-100, max_value=100, allow_nan=False, allow_infinity=False)
degrees = st.floats(min_value=-720, max_value=720, allow_nan=False)
angle_ratio = st.floats(min_value=0.1, max_value=1000, allow_nan=False)
drive_ratio = st.floats(min_value=1, max_value=30, allow_nan=False)
diameter = st.floats(min_value=1, max_value=10, allow_nan=False)


def far_enough(where: tuple[float, float], others: set[tuple[float, float]]) -> bool:
    """At least 1 in from the robot centre and 2 in from every other module."""
    return math.hypot(*where) >= 1 and all(
        math.hypot(where[0] - x, where[1] - y) >= 2 for x, y in others
    )


ENCODER_PORT = sorted(name for name, e in BRUSHED_ENCODERS.items() if not e.data_port)


def _brushed(motor_type: str) -> bool:
    return MOTOR_TYPES[motor_type].brushed


@st.composite
def module_spec(draw: st.DrawFn, index: int, angle_type: str, used: set[int]) -> dict[str, Any]:
    controller = MOTOR_TYPES[angle_type].controller
    encoders = [
        name
        for name, entry in ENCODER_TYPES.items()
        if not entry.requires_controller or controller in entry.requires_controller
    ]
    encoder_type = draw(st.sampled_from(encoders))
    bus = ENCODER_TYPES[encoder_type].bus
    low, high = ID_RANGES.get(bus, (0, 0))
    encoder_id = draw(st.integers(low, high).filter(lambda i: i not in used))
    if bus in (Bus.CAN, Bus.DIO, Bus.ANALOG):
        used.add(encoder_id)
    drive_type = draw(st.sampled_from(sorted(MOTOR_TYPES)))
    # A brushed Spark MAX names its encoder in `canbus` (on the encoder port for an angle motor,
    # whose data port may hold the absolute encoder).
    drive_bus = draw(st.sampled_from(sorted(BRUSHED_ENCODERS))) if _brushed(drive_type) else None
    angle_bus = draw(st.sampled_from(ENCODER_PORT)) if _brushed(angle_type) else None
    spec: dict[str, Any] = {
        "drive": {"type": drive_type, "id": 2 * index, "canbus": drive_bus},
        "angle": {"type": angle_type, "id": 2 * index + 1, "canbus": angle_bus},
        "encoder": {"type": encoder_type, "id": encoder_id, "canbus": None},
        "inverted": {"drive": draw(st.booleans()), "angle": draw(st.booleans())},
        "absoluteEncoderOffset": draw(degrees),
        "location": {"front": draw(finite), "left": draw(finite)},
    }
    if draw(st.booleans()):
        spec["absoluteEncoderInverted"] = draw(st.booleans())
    return spec


@st.composite
def configuration(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.sampled_from([2, 3, 4, 6]))  # what WPILib's kinematics support
    used: set[int] = set()
    modules = {}
    locations: set[tuple[float, float]] = set()
    for index in range(count):
        angle_type = draw(st.sampled_from(sorted(MOTOR_TYPES)))
        spec = draw(module_spec(index, angle_type, used))
        where = (spec["location"]["front"], spec["location"]["left"])
        spare = 0
        while not far_enough(where, locations):  # a spot on a row no drawn spot is near enough
            where = (-95.0 + 7 * spare, 99.0 if all(y < 97 for _, y in locations) else -99.0)
            spare += 1
        spec["location"] = {"front": where[0], "left": where[1]}
        locations.add(where)
        modules[f"m{index}"] = spec
    imu_type = draw(st.sampled_from(sorted(IMU_TYPES)))
    imu_id = 0 if imu_type == "analog" else draw(st.integers(0, 62))
    drive: dict[str, Any] = {
        "imu": {"type": imu_type, "id": imu_id, "canbus": draw(st.sampled_from([None, "rio"]))},
        "modules": [f"{name}.json" for name in modules],
    }
    spelling = draw(st.sampled_from(["invertedIMU", "invertIMU", None]))
    if spelling:
        drive[spelling] = draw(st.booleans())
    physical = {
        "conversionFactors": {
            "angle": {"gearRatio": draw(angle_ratio)},
            "drive": {"gearRatio": draw(drive_ratio), "diameter": draw(diameter)},
        }
    }
    return {"drive": drive, "modules": modules, "physical": physical}


def write(root: Path, spec: dict[str, Any]) -> None:
    (root / "modules").mkdir(parents=True, exist_ok=True)
    (root / "swervedrive.json").write_text(json.dumps(spec["drive"], indent=2))
    (root / "modules" / "physicalproperties.json").write_text(json.dumps(spec["physical"]))
    for name, module in spec["modules"].items():
        (root / "modules" / f"{name}.json").write_text(json.dumps(module, indent=2))


@FAST
@given(configuration())
def test_random_valid_configurations_round_trip(spec: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp), spec)
        config = load_directory(tmp)
    assert [m.name for m in config.modules] == list(spec["modules"])
    drive = spec["drive"]
    assert config.drive.imu.type == drive["imu"]["type"]
    assert config.drive.imu_inverted == drive.get("invertedIMU", drive.get("invertIMU", False))
    factors = spec["physical"]["conversionFactors"]
    for module in config.modules:
        written = spec["modules"][module.name]
        assert module.drive.type == written["drive"]["type"]
        assert module.drive.brushed_encoder == written["drive"]["canbus"]
        assert module.angle.brushed_encoder == written["angle"]["canbus"]
        assert module.encoder.id == written["encoder"]["id"]
        assert module.inverted.drive == written["inverted"]["drive"]
        assert module.inverted.angle == written["inverted"]["angle"]
        assert module.absolute_encoder_inverted == written.get("absoluteEncoderInverted", False)
        assert module.absolute_encoder_offset_deg == written["absoluteEncoderOffset"]
        assert module.location.front_in == written["location"]["front"]
        assert module.location.left_m == pytest.approx(written["location"]["left"] * 0.0254)
        assert module.conversion.angle_deg_per_rotation == pytest.approx(
            360 / factors["angle"]["gearRatio"]
        )
        assert module.conversion.drive_m_per_rotation == pytest.approx(
            math.pi * factors["drive"]["diameter"] * 0.0254 / factors["drive"]["gearRatio"]
        )
        assert math.isfinite(module.max_drive_speed_mps)


BASE = DEPLOY / "swerve"
BASE_FILES = {
    str(p.relative_to(BASE)): json.loads(p.read_text()) for p in sorted(BASE.rglob("*.json"))
}
MODULE_FILES = [f for f in BASE_FILES if f.startswith("modules/") and "properties" not in f]
REQUIRED_MODULE_PATHS = [
    ("drive",),
    ("angle",),
    ("encoder",),
    ("inverted",),
    ("inverted", "drive"),
    ("inverted", "angle"),
    ("location",),
    ("location", "front"),
    ("location", "left"),
    ("drive", "type"),
    ("encoder", "id"),
]
# null is not here: YAGSL reads null into a number or boolean as 0 / false, and so does swervelib
# (with a warning; see test_null_in_a_number_or_boolean_is_read_as_yagsl_reads_it).
wrong_values = st.sampled_from(
    ["text", "", [], {}, True, [1, 2], {"x": 1}, "NaN", -1.5e300]
) | st.text(max_size=8)


def get_parent(document: Any, path: tuple[str, ...]) -> Any:
    node = document
    for part in path[:-1]:
        node = node[part]
    return node


def load_with(files: dict[str, Any]) -> Any:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for relative, content in files.items():
            target = root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            text = content if isinstance(content, str) else json.dumps(content)
            target.write_text(text)
        return load_directory(root)


@FAST
@given(st.sampled_from(MODULE_FILES), st.sampled_from(REQUIRED_MODULE_PATHS), wrong_values)
def test_wrong_type_for_required_field_raises_config_error(
    file: str, path: tuple[str, ...], value: Any
) -> None:
    files = json.loads(json.dumps(BASE_FILES))
    parent = get_parent(files[file], path)
    original = parent[path[-1]]
    if type(value) is type(original) and not isinstance(value, dict | list):
        value = [value]
    parent[path[-1]] = value
    with pytest.raises(ConfigError) as caught:
        load_with(files)
    assert any(p.file == file for p in caught.value.problems)


@FAST
@given(st.sampled_from(MODULE_FILES), st.sampled_from(REQUIRED_MODULE_PATHS))
def test_deleted_required_field_raises_config_error(file: str, path: tuple[str, ...]) -> None:
    files = json.loads(json.dumps(BASE_FILES))
    del get_parent(files[file], path)[path[-1]]
    with pytest.raises(ConfigError) as caught:
        load_with(files)
    fields = {(p.file, p.field) for p in caught.value.problems}
    assert (file, ".".join(path)) in fields


@FAST
@given(st.sampled_from(sorted(BASE_FILES)), st.data())
def test_truncated_file_raises_config_error_with_position(file: str, data: st.DataObject) -> None:
    text = json.dumps(BASE_FILES[file], indent=2)
    cut = data.draw(st.integers(0, len(text) - 1))
    files = dict(BASE_FILES)
    files[file] = text[:cut]
    with pytest.raises(ConfigError) as caught:
        load_with(files)
    (problem,) = [p for p in caught.value.problems if p.file == file]
    assert problem.line is not None and problem.column is not None


@FAST
@given(st.sampled_from(sorted(BASE_FILES)), st.binary(max_size=40), st.data())
def test_arbitrary_byte_damage_raises_config_error_or_loads(
    file: str, junk: bytes, data: st.DataObject
) -> None:
    text = json.dumps(BASE_FILES[file], indent=2).encode()
    at = data.draw(st.integers(0, len(text)))
    damaged = text[:at] + junk + text[at + len(junk) // 2 :]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for relative, content in BASE_FILES.items():
            target = root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(damaged if relative == file else json.dumps(content).encode())
        try:
            load_directory(root)
        except ConfigError as error:
            assert error.problems


NULLABLE_MODULE_PATHS = [
    ("inverted", "drive"),
    ("inverted", "angle"),
    ("absoluteEncoderOffset",),
    ("location", "front"),
    ("location", "left"),
    ("encoder", "id"),
    ("drive", "id"),
]


@FAST
@given(st.sampled_from(MODULE_FILES), st.sampled_from(NULLABLE_MODULE_PATHS))
def test_null_in_a_number_or_boolean_is_read_as_yagsl_reads_it(
    file: str, path: tuple[str, ...]
) -> None:
    """null → 0 / false with a warning at that field, or (where 0 is not usable, or 0 clashes
    with another value) an error; never a traceback."""
    files = json.loads(json.dumps(BASE_FILES))
    get_parent(files[file], path)[path[-1]] = None
    field = ".".join(path)
    try:
        config = load_with(files)
    except ConfigError as error:
        assert error.problems
        return
    here = [w for w in config.warnings if (w.file, w.field) == (file, field)]
    (warning,) = [w for w in here if "null is read as" in w.message]
    assert warning.line is not None and warning.found == "null"
    module = config.module(Path(file).stem)
    value = {
        ("inverted", "drive"): module.inverted.drive,
        ("inverted", "angle"): module.inverted.angle,
        ("absoluteEncoderOffset",): module.absolute_encoder_offset_deg,
        ("location", "front"): module.location.front_in,
        ("location", "left"): module.location.left_in,
        ("encoder", "id"): module.encoder.id,
        ("drive", "id"): module.drive.id,
    }[path]
    assert value == 0


@FAST
@given(st.sampled_from(MODULE_FILES))
def test_missing_offset_is_read_as_zero_with_a_warning(file: str) -> None:
    files = json.loads(json.dumps(BASE_FILES))
    del files[file]["absoluteEncoderOffset"]
    config = load_with(files)
    assert config.module(Path(file).stem).absolute_encoder_offset_deg == 0
    assert any(
        w.file == file and "absoluteEncoderOffset" in w.message and "read as 0" in w.message
        for w in config.warnings
    )


@FAST
@given(
    st.sampled_from(sorted(BASE_FILES)),
    st.sampled_from(["3.", "}", '{"maxSpeed": 1}', "// note", "\x00junk"]),
)
def test_text_after_the_json_object_is_ignored_with_a_warning(file: str, junk: str) -> None:
    """Jackson (YAGSL) reads a file's first JSON value and ignores what follows; so does the
    loader, saying where the ignored text starts. Real folders have a stray `3.` after the `}`."""
    text = json.dumps(BASE_FILES[file], indent=2)
    files: dict[str, Any] = dict(BASE_FILES)
    files[file] = text + "\n" + junk
    config = load_with(files)
    (warning,) = [w for w in config.warnings if w.file == file]
    assert "text after the JSON object is ignored" in warning.message
    assert (warning.line, warning.column) == (text.count("\n") + 2, 1)
    clean = load_with(BASE_FILES)
    assert (config.modules, config.drive) == (clean.modules, clean.drive)
