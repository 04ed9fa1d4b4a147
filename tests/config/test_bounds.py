"""Every bounded number: accepted at the edges of its range, refused just beyond them, and each
problem names file, field, line:col, the expected range and the value found (issue 12 part 6).

The ranges come from swervelib.config.bounds; tests/config/test_bounds_build.py shows that a drive
builds and drives on every accepted edge.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from swervelib.config import ConfigError, Severity, load_directory
from swervelib.config import bounds as b
from swervelib.config.bounds import Range
from swervelib.config.catalog import ID_RANGES, Bus
from tests.conftest import DEPLOY, FIXTURES

FL, FR, BL = "modules/frontleft.json", "modules/frontright.json", "modules/backleft.json"
PHYS, PIDF = "modules/physicalproperties.json", "modules/pidfproperties.json"
DRIVE, CTRL = "swervedrive.json", "controllerproperties.json"
# With a factor, a gearRatio and diameter are checked but not used, so each can go to the edges
# of its own range (0 included) without the resolved conversion going out of range or missing.
FACTORS = {"conversionFactors": {"angle": {"factor": 16.8}, "drive": {"factor": 0.05}}}

# (file, field, range, other edits to the file)
FIELDS: list[tuple[str, str, Range, dict[str, Any]]] = [
    (PHYS, "currentLimit.drive", b.CURRENT_LIMIT, {}),
    (PHYS, "currentLimit.angle", b.CURRENT_LIMIT, {}),
    (PHYS, "rampRate.drive", b.RAMP_RATE, {}),
    (PHYS, "rampRate.angle", b.RAMP_RATE, {}),
    (PHYS, "optimalVoltage", b.OPTIMAL_VOLTAGE, {}),
    (PHYS, "wheelGripCoefficientOfFriction", b.WHEEL_GRIP, {}),
    (PHYS, "friction.drive", b.FRICTION, {}),
    (PHYS, "steerRotationalInertia", b.STEER_INERTIA, {}),
    (PHYS, "robotMass", b.ROBOT_MASS, {}),
    (PHYS, "conversionFactors.angle.gearRatio", b.ANGLE_GEAR_RATIO, FACTORS),
    (FL, "conversionFactors.angle.factor", b.ANGLE_FACTOR, {}),
    (PHYS, "conversionFactors.drive.gearRatio", b.DRIVE_GEAR_RATIO, FACTORS),
    (PHYS, "conversionFactors.drive.diameter", b.WHEEL_DIAMETER, FACTORS),
    (PHYS, "conversionFactors.drive.factor", b.DRIVE_METRES_PER_ROTATION, {}),
    (FL, "location.front", b.LOCATION, {}),
    (FR, "location.left", b.LOCATION, {}),
    (BL, "absoluteEncoderOffset", b.ABSOLUTE_ENCODER_OFFSET, {}),
    (PIDF, "drive.p", b.GAIN, {}),
    (PIDF, "angle.i", b.GAIN, {}),
    (PIDF, "drive.d", b.GAIN, {}),
    (PIDF, "angle.iz", b.GAIN, {}),
    (PIDF, "drive.f", b.FEEDFORWARD, {}),
    (PIDF, "angle.output.max", b.OUTPUT_LIMIT, {}),
    (CTRL, "heading.p", b.GAIN, {}),
    (CTRL, "heading.d", b.GAIN, {}),
]


def edges(field: str, bounds: Range) -> list[float]:
    """The accepted values at the edges of ``bounds`` (and 0 when it means "none"); an output
    maximum also stays above the minimum (-1)."""
    values = [bounds.low, bounds.high] + ([0.0] if bounds.zero else [])
    if bounds.signed:
        values += [-bounds.high] + ([-bounds.low] if bounds.low else [])
    return [v for v in values if v > -1] if field.endswith("output.max") else values


def beyond(bounds: Range) -> list[float]:
    """Values just outside ``bounds``, and far outside (the ones that crashed)."""
    values = [math.nextafter(bounds.high, math.inf), bounds.high * 10, 1e300]
    if bounds.low > 0:
        values += [math.nextafter(bounds.low, 0.0), bounds.low / 10, 5e-324]
    if bounds.signed:
        values += [-v for v in values]
    return values


def write(tmp_path: Path, file: str, field: str, value: Any, extra: dict[str, Any]) -> Path:
    """A copy of the reference robot with ``field`` of ``file`` set to ``value``."""
    directory = tmp_path / "swerve"
    if directory.exists():
        shutil.rmtree(directory)
    shutil.copytree(DEPLOY / "swerve", directory)
    path = directory / file
    data = json.loads(path.read_text())
    for key, part in extra.items():
        data[key] = json.loads(json.dumps(part))
    node = data
    *parents, last = field.split(".")
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value
    path.write_text(json.dumps(data, indent=2))
    return directory


@pytest.mark.parametrize(("file", "field", "bounds", "extra"), FIELDS, ids=[f[1] for f in FIELDS])
def test_edges_accepted_and_beyond_refused(
    file: str, field: str, bounds: Range, extra: dict[str, Any], tmp_path: Path
) -> None:
    for value in edges(field, bounds):
        config = load_directory(write(tmp_path, file, field, value, extra))
        assert config.modules, (field, value)
    for value in beyond(bounds):
        directory = write(tmp_path, file, field, value, extra)
        with pytest.raises(ConfigError) as caught:
            load_directory(directory)
        problems = [p for p in caught.value.problems if (p.file, p.field) == (file, field)]
        assert len(problems) == 1, (value, [p.format() for p in caught.value.problems])
        (problem,) = problems
        assert "out of range" in problem.message, problem.format()
        assert problem.line is not None and problem.column is not None
        text = (directory / file).read_text().splitlines()[problem.line - 1]
        assert f'"{field.split(".")[-1]}"' in text[problem.column - 1 :], (problem, text)
        assert problem.found is not None and problem.expected is not None


def test_unusual_values_are_warnings_with_position_range_and_value() -> None:
    config = load_directory(FIXTURES / "valid" / "unusual_values")
    warned = {(w.file, w.field): w for w in config.warnings}
    assert set(warned) == {
        (PHYS, "currentLimit.drive"),
        (PHYS, "rampRate.angle"),
        (PHYS, "conversionFactors.drive.diameter"),
        (PHYS, "conversionFactors.drive"),  # the free speed, reported once for all modules
        (FR, "encoder.canbus"),
        (DRIVE, "maxSpeed"),
    }
    for warning in config.warnings:
        assert warning.severity is Severity.WARNING
        assert warning.line is not None and warning.column is not None, warning
        assert warning.expected and warning.found, warning
    assert warned[(PHYS, "currentLimit.drive")].expected == "5 to 120 amperes"
    assert warned[(PHYS, "currentLimit.drive")].found == "200"
    assert warned[(PHYS, "conversionFactors.drive")].found == "0.114 m/s"
    assert "capped" in warned[(DRIVE, "maxSpeed")].message


def test_the_reference_robots_are_well_inside_every_range() -> None:
    for directory in sorted(DEPLOY.iterdir()):
        assert load_directory(directory).warnings == (), directory


@pytest.mark.parametrize(("fraction", "ok"), [(0.0201, True), (0.0199, False)])
def test_max_speed_must_let_the_wheels_steer(fraction: float, ok: bool, tmp_path: Path) -> None:
    free = load_directory(DEPLOY / "swerve").max_speed_mps  # the slowest = fastest module here
    directory = write(tmp_path, DRIVE, "maxSpeed", fraction * free, {})
    if ok:
        assert load_directory(directory).drive.max_speed_mps == pytest.approx(fraction * free)
        return
    with pytest.raises(ConfigError) as caught:
        load_directory(directory)
    (problem,) = caught.value.problems
    assert (problem.file, problem.field, problem.line) == (DRIVE, "maxSpeed", 14)
    assert problem.expected == f"at least {0.02 * free:.3g} m/s"


@pytest.mark.parametrize(
    ("location", "problem"),
    [
        ({"front": 1.0, "left": 0.0}, None),
        ({"front": 0.71, "left": -0.71}, None),
        ({"front": 0.999, "left": 0.0}, "robot centre"),
        ({"front": 1e-300, "left": -1e-300}, "robot centre"),
    ],
)
def test_a_wheel_at_least_1_in_from_the_centre(
    location: dict[str, float], problem: str | None, tmp_path: Path
) -> None:
    directory = write(tmp_path, FL, "location", location, {})
    if problem is None:
        load_directory(directory)
        return
    with pytest.raises(ConfigError) as caught:
        load_directory(directory)
    (found,) = caught.value.problems
    assert (found.file, found.field, found.line) == (FL, "location", 22)
    assert problem in found.message


@pytest.mark.parametrize(("gap", "ok"), [(2.0, True), (1.999, False), (1e-9, False)])
def test_wheels_at_least_2_in_apart(gap: float, ok: bool, tmp_path: Path) -> None:
    """backleft moved next to frontleft (10.75, 10.75)."""
    directory = write(tmp_path, BL, "location", {"front": 10.75 - gap, "left": 10.75}, {})
    if ok:
        load_directory(directory)
        return
    with pytest.raises(ConfigError) as caught:
        load_directory(directory)
    (problem,) = caught.value.problems
    assert (problem.file, problem.field, problem.line, problem.column) == (BL, "location", 22, 3)
    assert "frontleft.json" in problem.message and "closer than 2 in" in problem.message


def test_a_drive_conversion_from_physicalproperties_is_reported_once_there() -> None:
    with pytest.raises(ConfigError) as caught:
        load_directory(FIXTURES / "broken" / "drive_conversion_out_of_range")
    (problem,) = caught.value.problems
    assert (problem.file, problem.field, problem.line, problem.column) == (
        PHYS,
        "conversionFactors.drive",
        6,
        5,
    )
    assert problem.expected == "0, or 0.001 to 1 metres per motor rotation"
    assert problem.found == "3.99e-05 metres per motor rotation"


def test_a_module_s_own_drive_conversion_is_reported_in_its_file(tmp_path: Path) -> None:
    own = {"drive": {"gearRatio": 900, "diameter": 4}, "angle": {"gearRatio": 21.4}}
    directory = write(tmp_path, FR, "conversionFactors", own, {})
    with pytest.raises(ConfigError) as caught:
        load_directory(directory)
    (problem,) = caught.value.problems
    assert (problem.file, problem.field) == (FR, "conversionFactors.drive")
    assert "gearRatio 900 and diameter 4 in" in problem.message


@pytest.mark.parametrize(
    ("device", "ok"),
    [
        ({"type": "throughbore", "id": ID_RANGES[Bus.DIO][1], "canbus": None}, True),
        ({"type": "throughbore", "id": 31, "canbus": None}, False),  # WPILib refuses channel 31
        ({"type": "thrifty", "id": 7, "canbus": None}, True),
        ({"type": "thrifty", "id": 8, "canbus": None}, False),
        ({"type": "none", "id": 2**31 - 1}, True),
        ({"type": "none", "id": -(2**31)}, True),
        ({"type": "none", "id": 2**31}, False),
        ({"type": "cancoder", "id": 62, "canbus": "c" * b.MAX_CANBUS_NAME}, True),
        ({"type": "cancoder", "id": 62, "canbus": "c" * (b.MAX_CANBUS_NAME + 1)}, False),
        ({"type": "cancoder", "id": 62, "canbus": "*"}, True),
        ({"type": "cancoder", "id": 62, "canbus": "Kanäle ✓"}, True),
        ({"type": "cancoder", "id": 62, "canbus": "a\tb"}, False),
        ({"type": "cancoder", "id": 62, "canbus": "a\u2066b"}, False),
        ({"type": "cancoder", "id": 62, "canbus": "\udfff"}, False),
    ],
)
def test_device_ids_and_bus_names(device: dict[str, Any], ok: bool, tmp_path: Path) -> None:
    directory = write(tmp_path, BL, "encoder", device, {})
    if ok:
        assert load_directory(directory).module("backleft").encoder.id == device["id"]
        return
    with pytest.raises(ConfigError) as caught:
        load_directory(directory)
    (problem,) = caught.value.problems
    assert problem.file == BL and problem.field in ("encoder.id", "encoder.canbus")
    assert problem.line is not None


def test_a_rio_bus_with_spaces_is_the_rio_bus_without_a_warning(tmp_path: Path) -> None:
    directory = write(tmp_path, BL, "encoder.canbus", " RIO ", {})
    config = load_directory(directory)
    assert config.module("backleft").encoder.canbus is None
    assert config.warnings == ()


@pytest.mark.parametrize(
    "name", ["back\u202eleft", "back\x1bleft", "back\udc80left", "back\u2028left", "back\x7f"]
)
def test_module_names_must_be_printable(name: str, tmp_path: Path) -> None:
    directory = write(tmp_path, DRIVE, "modules", ["frontleft", "frontright", name], {})
    with pytest.raises(ConfigError) as caught:
        load_directory(directory)
    (problem,) = caught.value.problems
    assert (problem.file, problem.field) == (DRIVE, "modules[2]")
    assert "printable text" in problem.message


README_ROWS = {
    "`currentLimit.*`": b.CURRENT_LIMIT,
    "`rampRate.*`": b.RAMP_RATE,
    "`optimalVoltage`": b.OPTIMAL_VOLTAGE,
    "`conversionFactors.angle.gearRatio`": b.ANGLE_GEAR_RATIO,
    "`conversionFactors.angle.factor`": b.ANGLE_FACTOR,
    "`conversionFactors.drive.gearRatio`": b.DRIVE_GEAR_RATIO,
    "`conversionFactors.drive.diameter`": b.WHEEL_DIAMETER,
    "`conversionFactors.drive.factor`, and the resolved drive conversion": (
        b.DRIVE_METRES_PER_ROTATION
    ),
    "`location.front`, `.left`": b.LOCATION,
    "`absoluteEncoderOffset`": b.ABSOLUTE_ENCODER_OFFSET,
    "PIDF `p`, `i`, `d`, `iz`, heading PID": b.GAIN,
    "PIDF `f`": b.FEEDFORWARD,
    "PIDF `output.min`, `.max`": b.OUTPUT_LIMIT,
    "`robotMass`": b.ROBOT_MASS,
    "`robotMomentOfInertia`": b.ROBOT_MOMENT_OF_INERTIA,
    "`steerRotationalInertia`": b.STEER_INERTIA,
    "`friction.*`": b.FRICTION,
    "`wheelGripCoefficientOfFriction`": b.WHEEL_GRIP,
}


@pytest.mark.parametrize("label", sorted(README_ROWS))
def test_readme_range_table_matches_the_bounds(label: str) -> None:
    import re

    from tests.conftest import REPO

    readme = (REPO / "docs" / "json-reference.md").read_text()
    section = readme.split("## Ranges of numbers", 1)[1].split("\n## ", 1)[0]
    (row,) = [line for line in section.splitlines() if line.startswith(f"| {label} |")]
    accepted, usual = row.split(" | ")[1:3]
    numbers = {float(n.replace("−", "-")) for n in re.findall(r"−?\d+(?:\.\d+)?(?:e-?\d+)?", row)}
    bounds = README_ROWS[label]
    # Warnings from elsewhere: the lint's ±360° offset, and the free speed of the drive factor.
    warned = {
        "`absoluteEncoderOffset`": Range(0, 0, "", "", "", warn_high=360),
        "`conversionFactors.drive.factor`, and the resolved drive conversion": b.FREE_SPEED,
    }.get(label, bounds)
    for value in (bounds.low, bounds.high, warned.warn_low, warned.warn_high):
        if value is not None and value not in (0, math.inf):
            assert value in numbers, (label, value, row)
    assert ("0, or" in accepted) is (bounds.zero and bounds.low > 0), row
    assert (usual == "—") is (warned.warn_low is None and warned.warn_high is None), row
