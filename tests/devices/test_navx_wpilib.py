"""navX and plain-WPILib sensors (gyros, DIO duty-cycle and analog absolute encoders), through the
vendors' own simulators.

For every type string: turning the bare device counter-clockwise through its sim hook makes the
reading increase with the flag right and decrease with it flipped (yaw rate / velocity too), readings
are in degrees, and faults (disconnect where the simulator can, NaN readings otherwise) raise the
device's Alert and clear on recovery.

The navX runs in a child process per type string: the navX library keeps one device per process and
a second ``AHRS`` (another port, or the same port re-opened) reads nothing in simulation.
"""

from __future__ import annotations

import gc
import json
import math
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from wpilib import simulation

from swervelib.config.catalog import ENCODER_TYPES, IMU_TYPES
from swervelib.config.model import DeviceConfig
from swervelib.devices import registry
from swervelib.devices.faults import NOT_A_NUMBER
from swervelib.devices.settings import EncoderSettings, ImuSettings
from swervelib.devices.wpilib_sensors import PORTS, encoders, gyros
from tests.sim import alert_texts

REPO = Path(__file__).resolve().parents[2]

NAVX_TYPES = ("navx", "navx_spi", "navx_i2c", "navx_usb", "navx_mxp_serial")
GYRO_TYPES = ("adis16448", "adis16470", "adxrs450", "analog")
DUTY_CYCLE_TYPES = ("throughbore", "dutycycle", "ctre_mag", "rev_hex", "am_mag")
ANALOG_ENCODER_TYPES = ("thrifty", "ma3", "analog")

# A distinct channel per type string, so no test depends on another having freed its port.
DIO_CHANNEL = {name: 3 + i for i, name in enumerate(DUTY_CYCLE_TYPES)}
ANALOG_CHANNEL = {name: 2 + i for i, name in enumerate(ANALOG_ENCODER_TYPES)}


# -- helpers ------------------------------------------------------------------------------------------


def imu_settings(type_name: str, inverted: bool, device_id: int = 0) -> ImuSettings:
    return ImuSettings(
        label=f"IMU ({type_name} {device_id}{' inverted' if inverted else ''})",
        device=DeviceConfig(type_name, device_id, None),
        imu_type=IMU_TYPES[type_name],
        inverted=inverted,
    )


def encoder_settings(type_name: str, channel: int, inverted: bool) -> EncoderSettings:
    return EncoderSettings(
        label=f"test absolute encoder ({type_name} {channel}{' inverted' if inverted else ''})",
        device=DeviceConfig(type_name, channel, None),
        encoder_type=ENCODER_TYPES[type_name],
        inverted=inverted,
    )


def published_alerts(level: str) -> list[str]:
    """The texts WPILib publishes for the swerve Alert group (``errors`` / ``warnings``)."""
    return alert_texts((level,))


def step(seconds: float = 0.02) -> None:
    simulation.stepTiming(seconds)


@pytest.fixture(autouse=True)
def paused_time() -> Iterator[None]:
    """Sim time advances only when a test steps it; restored afterwards for other test files."""
    was_paused = simulation.isTimingPaused()
    simulation.pauseTiming()
    yield
    if not was_paused:
        simulation.resumeTiming()


def close_all(*devices: Any) -> None:
    for device in devices:
        device.close()
    gc.collect()


# -- registry -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("type_name", NAVX_TYPES)
def test_registry_builds_navx(type_name: str) -> None:
    assert registry.imu_adapter(type_name).__name__ == "NavXImu"


@pytest.mark.parametrize(
    ("type_name", "class_name"),
    [
        ("adis16448", "ADIS16448Imu"),
        ("adis16470", "ADIS16470Imu"),
        ("adxrs450", "ADXRS450Imu"),
        ("analog", "AnalogGyroImu"),
    ],
)
def test_registry_builds_wpilib_gyros(type_name: str, class_name: str) -> None:
    assert registry.imu_adapter(type_name) is getattr(gyros, class_name)


@pytest.mark.parametrize("type_name", DUTY_CYCLE_TYPES + ANALOG_ENCODER_TYPES)
def test_registry_builds_roborio_encoders(type_name: str) -> None:
    expected = (
        encoders.DutyCycleAbsoluteEncoder
        if type_name in DUTY_CYCLE_TYPES
        else encoders.AnalogAbsoluteEncoder
    )
    assert registry.encoder_adapter(type_name) is expected


# -- WPILib gyros -------------------------------------------------------------------------------------


def build_gyro_pair(type_name: str, device_id: int = 0) -> tuple[Any, Any]:
    """The same device twice: flag right (un-inverted) and flag flipped. They share one port."""
    cls = registry.imu_adapter(type_name)
    return cls(imu_settings(type_name, False, device_id)), cls(
        imu_settings(type_name, True, device_id)
    )


@pytest.mark.parametrize("type_name", GYRO_TYPES)
def test_gyro_turning_ccw_increases_yaw_and_rate_unless_flipped(type_name: str) -> None:
    right, flipped = build_gyro_pair(type_name)
    try:
        right.sim.set_raw_yaw(0.0, 0.0)
        assert right.get_raw_yaw_degrees() == pytest.approx(0.0, abs=1e-9)
        assert right.get_yaw_rate_dps() == pytest.approx(0.0, abs=1e-9)

        right.sim.set_raw_yaw(30.0, 45.0)  # the robot turned 30° counter-clockwise at 45°/s
        assert right.get_raw_yaw_degrees() == pytest.approx(30.0)
        assert right.get_yaw_rate_dps() == pytest.approx(45.0)
        assert flipped.get_raw_yaw_degrees() == pytest.approx(-30.0)
        assert flipped.get_yaw_rate_dps() == pytest.approx(-45.0)

        # Degrees, not wrapped: one and a bit turns reads 400°.
        right.sim.set_raw_yaw(400.0, -10.0)
        assert right.get_raw_yaw_degrees() == pytest.approx(400.0)
        assert right.get_yaw_rate_dps() == pytest.approx(-10.0)
        assert flipped.get_raw_yaw_degrees() == pytest.approx(-400.0)
        assert flipped.get_yaw_rate_dps() == pytest.approx(10.0)
        assert right.fault() is None and flipped.fault() is None
    finally:
        close_all(right, flipped)


@pytest.mark.parametrize("type_name", GYRO_TYPES)
def test_gyro_sim_hook_speaks_the_devices_own_ccw_frame(type_name: str) -> None:
    """The hook's frame is the device's own CCW-positive API, not just our adapter's sign."""
    right, flipped = build_gyro_pair(type_name)
    try:
        right.sim.set_raw_yaw(30.0, 0.0)
        device = right._device
        if type_name in ("adxrs450", "analog"):
            assert device.getRotation2d().degrees() == pytest.approx(30.0)
            assert device.getAngle() == pytest.approx(-30.0)  # WPILib: clockwise positive
        else:
            assert device.getAngle() == pytest.approx(30.0)  # WPILib: CCW positive
    finally:
        close_all(right, flipped)


@pytest.mark.parametrize("type_name", GYRO_TYPES)
def test_gyro_nan_reading_is_a_fault_and_keeps_last_good(type_name: str) -> None:
    right, flipped = build_gyro_pair(type_name)
    try:
        right.sim.set_raw_yaw(12.0, 3.0)
        assert right.get_raw_yaw_degrees() == pytest.approx(12.0)
        assert right.get_yaw_rate_dps() == pytest.approx(3.0)
        assert right.fault() is None

        right.sim.set_raw_yaw(math.nan, math.nan)
        assert right.get_raw_yaw_degrees() == pytest.approx(12.0)
        assert right.get_yaw_rate_dps() == pytest.approx(3.0)
        assert right.fault() == NOT_A_NUMBER
        assert right.alert.active == NOT_A_NUMBER
        assert f"{right.label}: {NOT_A_NUMBER}" in published_alerts("errors")

        right.sim.set_raw_yaw(20.0, 1.0)
        assert right.get_raw_yaw_degrees() == pytest.approx(20.0)
        assert right.fault() is None
        assert right.alert.active is None
        assert not any(text.startswith(right.label) for text in published_alerts("errors"))
    finally:
        close_all(right, flipped)


def test_adxrs450_disconnect_is_a_fault_and_recovers() -> None:
    right, flipped = build_gyro_pair("adxrs450")
    try:
        right.sim.set_raw_yaw(15.0, 0.0)
        assert right.get_raw_yaw_degrees() == pytest.approx(15.0)
        assert flipped.get_raw_yaw_degrees() == pytest.approx(-15.0)

        right.sim.set_connected(False)
        right.sim.set_raw_yaw(90.0, 5.0)  # ignored: the device is not answering
        assert right.get_raw_yaw_degrees() == pytest.approx(15.0)
        assert flipped.get_raw_yaw_degrees() == pytest.approx(-15.0)
        assert right.fault() == gyros.NOT_CONNECTED
        assert right.alert.active == gyros.NOT_CONNECTED
        assert f"{right.label}: {gyros.NOT_CONNECTED}" in published_alerts("errors")

        right.sim.set_connected(True)
        assert right.fault() is None
        assert right.alert.active is None
        assert right.get_raw_yaw_degrees() == pytest.approx(90.0)
        assert f"{right.label}: {gyros.NOT_CONNECTED}" not in published_alerts("errors")
    finally:
        close_all(right, flipped)


class _Unplugged:
    """A stand-in for an ADIS whose ``isConnected()`` says False (its sim cannot)."""

    def __init__(self, device: Any) -> None:
        self._device = device

    def isConnected(self) -> bool:
        return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._device, name)


@pytest.mark.parametrize("type_name", ["adis16448", "adis16470", "analog"])
def test_gyros_whose_sim_cannot_disconnect_say_so(type_name: str) -> None:
    right, flipped = build_gyro_pair(type_name)
    try:
        with pytest.raises(NotImplementedError):
            right.sim.set_connected(False)
    finally:
        close_all(right, flipped)


@pytest.mark.parametrize("type_name", ["adis16448", "adis16470"])
def test_adis_not_connected_is_a_fault(type_name: str) -> None:
    right, flipped = build_gyro_pair(type_name)
    try:
        right.sim.set_raw_yaw(25.0, 0.0)
        assert right.get_raw_yaw_degrees() == pytest.approx(25.0)
        real = right._device
        right._device = _Unplugged(real)
        right.sim.set_raw_yaw(50.0, 0.0)
        assert right.get_raw_yaw_degrees() == pytest.approx(25.0)
        assert right.fault() == gyros.NOT_CONNECTED
        assert right.alert.active == gyros.NOT_CONNECTED
        right._device = real
        assert right.get_raw_yaw_degrees() == pytest.approx(50.0)
        assert right.fault() is None
        assert right.alert.active is None
    finally:
        close_all(right, flipped)


def test_gyro_close_frees_the_port() -> None:
    first = gyros.ADXRS450Imu(imu_settings("adxrs450", False))
    second = gyros.ADXRS450Imu(imu_settings("adxrs450", False))
    assert PORTS.is_open(("spi:ADXRS450", 0))
    first.close()
    assert PORTS.is_open(("spi:ADXRS450", 0))  # still used by `second`
    second.close()
    assert not PORTS.is_open(("spi:ADXRS450", 0))
    gc.collect()
    again = gyros.ADXRS450Imu(imu_settings("adxrs450", False))
    try:
        assert again.fault() is None  # a fresh device answers again
    finally:
        close_all(again)


def test_analog_gyro_uses_the_configured_channel() -> None:
    gyro = gyros.AnalogGyroImu(imu_settings("analog", False, device_id=1))
    try:
        simulation.AnalogGyroSim(1).setAngle(-33.0)  # the bare device: clockwise-positive 33°
        assert gyro.get_raw_yaw_degrees() == pytest.approx(33.0)
    finally:
        close_all(gyro)


# -- roboRIO absolute encoders ------------------------------------------------------------------------


def channel_of(type_name: str) -> int:
    return DIO_CHANNEL.get(type_name, ANALOG_CHANNEL.get(type_name, -1))


def build_encoder_pair(type_name: str) -> tuple[Any, Any]:
    cls = registry.encoder_adapter(type_name)
    channel = channel_of(type_name)
    return (
        cls(encoder_settings(type_name, channel, False), None),
        cls(encoder_settings(type_name, channel, True), None),
    )


@pytest.mark.parametrize("type_name", DUTY_CYCLE_TYPES + ANALOG_ENCODER_TYPES)
def test_encoder_turning_ccw_increases_reading_unless_flipped(type_name: str) -> None:
    right, flipped = build_encoder_pair(type_name)
    try:
        right.sim.set_raw(0.10, 0.0)
        assert right.get_absolute_degrees() == pytest.approx(36.0)
        assert flipped.get_absolute_degrees() == pytest.approx(324.0)

        right.sim.set_raw(0.15, 0.0)  # turned 18° counter-clockwise
        assert right.get_absolute_degrees() == pytest.approx(54.0)
        assert flipped.get_absolute_degrees() == pytest.approx(306.0)

        # Any raw value wraps into [0, 360) degrees.
        right.sim.set_raw(1.25, 0.0)
        assert right.get_absolute_degrees() == pytest.approx(90.0)
        assert flipped.get_absolute_degrees() == pytest.approx(270.0)
        right.sim.set_raw(-0.25, 0.0)
        assert right.get_absolute_degrees() == pytest.approx(270.0)
        assert flipped.get_absolute_degrees() == pytest.approx(90.0)
        right.sim.set_raw(0.0, 0.0)
        assert right.get_absolute_degrees() == 0.0
        assert flipped.get_absolute_degrees() == 0.0
        assert right.fault() is None and flipped.fault() is None
    finally:
        close_all(right, flipped)


@pytest.mark.parametrize("type_name", DUTY_CYCLE_TYPES + ANALOG_ENCODER_TYPES)
def test_encoder_velocity_is_filtered_difference_across_the_seam(type_name: str) -> None:
    right, flipped = build_encoder_pair(type_name)
    try:
        right.get_velocity_dps(), flipped.get_velocity_dps()
        step(0.02)
        rotations = 0.8  # a jump from 0: 0.8 turn in 20 ms reads as the shortest way, -0.2 turn
        right.sim.set_raw(rotations, 0.0)
        assert right.get_velocity_dps() < -1000.0
        assert flipped.get_velocity_dps() > 1000.0
        step(encoders.MAX_SAMPLE_GAP_S + 0.01)  # a gap: the estimate starts again from 0
        assert right.get_velocity_dps() == 0.0
        assert flipped.get_velocity_dps() == 0.0
        seen: list[float] = []
        for _ in range(40):  # 0.5 turn/s = 180°/s counter-clockwise, through 360 → 0
            step(0.02)
            rotations += 0.01
            right.sim.set_raw(rotations, 0.5)
            seen.append(right.get_velocity_dps())
            flipped.get_velocity_dps()
        assert all(0.0 < v <= 180.0 * (1 + 1e-9) for v in seen)  # no spike at the seam
        assert right.get_velocity_dps() == pytest.approx(180.0, rel=1e-3)
        assert flipped.get_velocity_dps() == pytest.approx(-180.0, rel=1e-3)
    finally:
        close_all(right, flipped)


@pytest.mark.parametrize("type_name", DUTY_CYCLE_TYPES)
def test_duty_cycle_disconnect_is_a_fault_and_recovers(type_name: str) -> None:
    right, flipped = build_encoder_pair(type_name)
    try:
        right.sim.set_raw(0.25, 0.0)
        assert right.get_absolute_degrees() == pytest.approx(90.0)
        assert flipped.get_absolute_degrees() == pytest.approx(270.0)
        assert right.fault() is None

        right.sim.set_connected(False)
        right.sim.set_raw(0.5, 0.0)
        assert right.get_absolute_degrees() == pytest.approx(90.0)  # last good
        assert flipped.get_absolute_degrees() == pytest.approx(270.0)
        assert right.get_velocity_dps() == 0.0
        assert right.fault() is not None and "not connected" in right.fault()
        assert right.alert.active == right.fault()
        assert f"{right.label}: {right.fault()}" in published_alerts("errors")

        right.sim.set_connected(True)
        assert right.get_absolute_degrees() == pytest.approx(180.0)
        assert right.fault() is None
        assert right.alert.active is None
        assert not any(text.startswith(right.label + ":") for text in published_alerts("errors"))
    finally:
        close_all(right, flipped)


@pytest.mark.parametrize("type_name", DUTY_CYCLE_TYPES + ANALOG_ENCODER_TYPES)
def test_encoder_nan_reading_is_a_fault_and_keeps_last_good(type_name: str) -> None:
    right, flipped = build_encoder_pair(type_name)
    try:
        right.sim.set_raw(0.5, 0.0)
        assert right.get_absolute_degrees() == pytest.approx(180.0)
        right.sim.set_raw(math.nan, 0.0)
        assert right.get_absolute_degrees() == pytest.approx(180.0)
        assert right.fault() == NOT_A_NUMBER
        assert right.alert.active == NOT_A_NUMBER
        right.sim.set_raw(0.75, 0.0)
        assert right.get_absolute_degrees() == pytest.approx(270.0)
        assert right.fault() is None
        assert right.alert.active is None
    finally:
        close_all(right, flipped)


@pytest.mark.parametrize("type_name", ANALOG_ENCODER_TYPES)
def test_analog_encoder_cannot_simulate_a_disconnect(type_name: str) -> None:
    right, flipped = build_encoder_pair(type_name)
    try:
        with pytest.raises(NotImplementedError):
            right.sim.set_connected(False)
    finally:
        close_all(right, flipped)


def test_encoder_reads_the_configured_channels() -> None:
    dio = encoders.DutyCycleAbsoluteEncoder(encoder_settings("throughbore", 20, False), None)
    analog = encoders.AnalogAbsoluteEncoder(encoder_settings("thrifty", 7, False), None)
    try:
        simulation.DutyCycleEncoderSim(20).set(0.125)
        assert dio.get_absolute_degrees() == pytest.approx(45.0)
        assert analog.channel == 7
        assert simulation.SimDeviceSim("AnalogEncoder[7]").getDouble("Position").get() == 0.0
        analog.sim.set_raw(0.5, 0.0)
        assert simulation.SimDeviceSim("AnalogEncoder[7]").getDouble("Position").get() == 0.5
    finally:
        close_all(dio, analog)


# -- navX (one child process per type string) ---------------------------------------------------------

_NAVX_SCRIPT = textwrap.dedent(
    """
    import json, sys
    import ntcore, wpilib
    from wpilib import simulation
    from swervelib.config.catalog import IMU_TYPES
    from swervelib.config.model import DeviceConfig
    from swervelib.devices import registry
    from swervelib.devices.settings import ImuSettings

    type_name = sys.argv[1]
    simulation.pauseTiming()

    def settings(inverted):
        label = f"IMU ({type_name}{' inverted' if inverted else ''})"
        return ImuSettings(label, DeviceConfig(type_name, 0, None), IMU_TYPES[type_name], inverted)

    def alerts(level):
        wpilib.SmartDashboard.updateValues()
        table = ntcore.NetworkTableInstance.getDefault().getTable("SmartDashboard")
        return list(table.getSubTable("Swerve Alerts").getStringArray(level, []))

    cls = registry.imu_adapter(type_name)
    right, flipped = cls(settings(False)), cls(settings(True))
    out = {"fault_at_start": right.fault(), "warnings": alerts("warnings"), "label": right.label}
    for _ in range(10):
        simulation.stepTiming(0.02)
    out["fault_connected"] = right.fault()
    out["sim_devices"] = list(simulation.SimDeviceSim.enumerateDevices("navX"))

    # Turn counter-clockwise 10° per 20 ms (500°/s), through the navX's ±180° seam.
    right.sim.set_raw_yaw(150.0, 0.0)
    simulation.stepTiming(0.02)
    # navX's getRate() is the average since the previous read; the drive reads every loop.
    right.get_yaw_rate_dps()
    ramp = []
    for k in range(1, 9):
        right.sim.set_raw_yaw(150.0 + 10.0 * k, 500.0)
        simulation.stepTiming(0.02)
        ramp.append([150.0 + 10.0 * k, right.get_raw_yaw_degrees(), right.get_yaw_rate_dps(),
                     right.get_yaw_rate_dps(), flipped.get_raw_yaw_degrees(),
                     flipped.get_yaw_rate_dps()])
    out["ramp"] = ramp
    out["device_rotation2d"] = right._device.getRotation2d().degrees()

    right.sim.set_connected(False)
    simulation.stepTiming(0.04)
    right.sim.set_raw_yaw(0.0, 0.0)
    simulation.stepTiming(0.04)
    out["disconnected"] = [right.get_raw_yaw_degrees(), flipped.get_raw_yaw_degrees(),
                           right.fault(), right.alert.active, alerts("errors"), right.usable]
    right.sim.set_connected(True)
    simulation.stepTiming(0.1)
    out["reconnected"] = [right.get_raw_yaw_degrees(), right.fault(), right.alert.active,
                          alerts("errors"), right.usable]

    right.sim.set_raw_yaw(float("nan"), 0.0)  # what a test writes for a garbage reading
    simulation.stepTiming(0.04)
    out["nan"] = [right.get_raw_yaw_degrees(), right.usable, right.fault(), right.alert.active]
    right.sim.set_raw_yaw(10.0, 0.0)
    simulation.stepTiming(0.04)
    out["after_nan"] = [right.get_raw_yaw_degrees(), right.usable, right.fault()]
    print("RESULT " + json.dumps(out), flush=True)
    """
)


@pytest.fixture(scope="module")
def navx_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each navX type string run in its own interpreter (five in parallel, well under 10 s)."""
    workdir = tmp_path_factory.mktemp("navx")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-c", _NAVX_SCRIPT, name],
            cwd=workdir,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in NAVX_TYPES
    }
    results: dict[str, dict[str, Any]] = {}
    for name, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=60)
        lines = [line for line in stdout.splitlines() if line.startswith("RESULT ")]
        assert proc.returncode == 0 and lines, f"{name}: rc={proc.returncode}\n{stdout}\n{stderr}"
        results[name] = json.loads(lines[-1][len("RESULT ") :])
    return results


NAVX_SIM_NAME = {
    "navx": "navX-Sensor[4]",
    "navx_spi": "navX-Sensor[4]",
    "navx_i2c": "navX-Sensor[1]",
    "navx_usb": "navX-Sensor[2]",
    "navx_mxp_serial": "navX-Sensor[1]",
}


@pytest.mark.parametrize("type_name", NAVX_TYPES)
def test_navx_turning_ccw_increases_yaw_and_rate_unless_flipped(
    navx_results: dict[str, dict[str, Any]], type_name: str
) -> None:
    result = navx_results[type_name]
    assert result["sim_devices"] == [NAVX_SIM_NAME[type_name]]
    assert result["fault_at_start"] == "not connected"  # the navX takes ~50 ms to come up
    assert result["fault_connected"] is None
    for expected, yaw, rate, rate_again, flipped_yaw, flipped_rate in result["ramp"]:
        assert yaw == pytest.approx(expected, abs=1e-3)  # unwrapped through 180°
        assert flipped_yaw == pytest.approx(-expected, abs=1e-3)
        assert rate == pytest.approx(500.0, rel=1e-3)
        assert rate_again == pytest.approx(500.0, rel=1e-3)  # reading twice is harmless
        assert flipped_rate == pytest.approx(-500.0, rel=1e-3)
    # The hook's frame is the navX's own CCW-positive API (getRotation2d), not just our sign.
    last = result["ramp"][-1][0]
    assert math.remainder(result["device_rotation2d"] - last, 360.0) == pytest.approx(0.0, abs=1e-3)


@pytest.mark.parametrize("type_name", NAVX_TYPES)
def test_navx_disconnect_is_a_fault_and_recovers(
    navx_results: dict[str, dict[str, Any]], type_name: str
) -> None:
    result = navx_results[type_name]
    last_good = result["ramp"][-1][0]
    yaw, flipped_yaw, fault, active, errors, usable = result["disconnected"]
    assert usable is False  # the drive turns to the wheels for its heading
    assert yaw == pytest.approx(last_good, abs=1e-3)
    assert flipped_yaw == pytest.approx(-last_good, abs=1e-3)
    assert fault == active == "not connected"
    assert f"{result['label']}: not connected" in errors
    yaw, fault, active, errors, usable = result["reconnected"]
    assert fault is None and active is None and usable is True
    assert f"{result['label']}: not connected" not in errors
    # Back to the device's reading: raw 0° after 310°, i.e. one full turn counted (360).
    assert yaw % 360.0 == pytest.approx(0.0, abs=1e-3)


@pytest.mark.parametrize("type_name", NAVX_TYPES)
def test_navx_nan_reading_is_a_fault_and_recovers(
    navx_results: dict[str, dict[str, Any]], type_name: str
) -> None:
    """The sim hook takes a NaN yaw (it raised ValueError from math.floor) and the adapter keeps
    its last good yaw, reports the NaN, and takes the next good reading."""
    result = navx_results[type_name]
    last_good = result["reconnected"][0]
    yaw, usable, fault, active = result["nan"]
    assert yaw == pytest.approx(last_good, abs=1e-3)
    assert usable is False
    assert fault == active == NOT_A_NUMBER
    yaw, usable, fault = result["after_nan"]
    assert usable is True and fault is None
    assert math.remainder(yaw - 10.0, 360.0) == pytest.approx(0.0, abs=1e-3)


@pytest.mark.parametrize("type_name", NAVX_TYPES)
def test_navx_port_warnings(navx_results: dict[str, dict[str, Any]], type_name: str) -> None:
    warnings = [w for w in navx_results[type_name]["warnings"] if w.startswith("IMU (navx")]
    if type_name in ("navx", "navx_spi"):
        assert warnings == []
    elif type_name == "navx_i2c":
        assert len(warnings) == 2 and all("I2C" in w and "lock" in w for w in warnings)
    else:
        assert len(warnings) == 2 and all("serial" in w for w in warnings)


# -- navX3 on CAN (its own child process, like the other navX types) ----------------------------------

_NAVX3_SCRIPT = textwrap.dedent(
    """
    import json, math
    from wpilib import simulation
    from swervelib.config.catalog import IMU_TYPES
    from swervelib.config.model import DeviceConfig
    from swervelib.devices import registry
    from swervelib.devices.settings import ImuSettings

    simulation.pauseTiming()

    def settings(inverted):
        label = f"IMU (navx3 7{' inverted' if inverted else ''})"
        return ImuSettings(label, DeviceConfig("navx3", 7, None), IMU_TYPES["navx3"], inverted)

    cls = registry.imu_adapter("navx3")
    right, flipped = cls(settings(False)), cls(settings(True))
    out = {"class": cls.__name__, "fault_at_start": right.fault(), "label": right.label,
           "sim_devices": list(simulation.SimDeviceSim.enumerateDevices("NavX3"))}
    # Turn counter-clockwise 20° a step through the ±180° seam, one and a half turns.
    ramp = []
    for k in range(0, 28):
        expected = 100.0 + 20.0 * k
        right.sim.set_raw_yaw(expected, 0.0)
        simulation.stepTiming(0.02)
        ramp.append([expected, right.get_raw_yaw_degrees(), flipped.get_raw_yaw_degrees()])
    out["ramp"] = ramp
    error, rotation = right._device.getRotation2D()
    out["device_rotation2d"] = [error, rotation.degrees()]
    out["rate"] = [right.get_yaw_rate_dps(), flipped.get_yaw_rate_dps()]

    right.sim.set_raw_yaw(float("nan"), 0.0)
    simulation.stepTiming(0.02)
    out["nan"] = [right.get_raw_yaw_degrees(), right.usable, right.fault(), right.alert.active]
    right.sim.set_raw_yaw(ramp[-1][0] + 10.0, 0.0)
    simulation.stepTiming(0.02)
    out["recovered"] = [right.get_raw_yaw_degrees(), right.usable, right.fault(),
                        right.alert.active]
    print("RESULT " + json.dumps(out), flush=True)
    """
)


@pytest.fixture(scope="module")
def navx3_result(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    proc = subprocess.run(
        [sys.executable, "-c", _NAVX3_SCRIPT],
        cwd=tmp_path_factory.mktemp("navx3"),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, f"rc={proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return json.loads(lines[-1][len("RESULT ") :])  # type: ignore[no-any-return]


def test_navx3_turning_ccw_increases_the_unwrapped_yaw_unless_flipped(
    navx3_result: dict[str, Any],
) -> None:
    result = navx3_result
    assert result["class"] == "NavX3Imu"
    assert result["sim_devices"] == ["NavX3[7]"]  # the CAN id from `id`
    assert result["fault_at_start"] is None
    for expected, yaw, flipped_yaw in result["ramp"]:
        assert yaw == pytest.approx(expected, abs=1e-3)  # continuous through ±180° and 360°
        assert flipped_yaw == pytest.approx(-expected, abs=1e-3)
    # The hook's frame is the navX3's own CCW-positive API (getRotation2D), not just our sign.
    error, degrees = result["device_rotation2d"]
    last = result["ramp"][-1][0]
    assert error is False
    assert math.remainder(degrees - last, 360.0) == pytest.approx(0.0, abs=1e-3)
    assert result["rate"] == [0.0, 0.0]  # the simulated navX3 has no angular velocity


def test_navx3_nan_reading_is_a_fault_and_recovers(navx3_result: dict[str, Any]) -> None:
    last = navx3_result["ramp"][-1][0]
    yaw, usable, fault, active = navx3_result["nan"]
    assert yaw == pytest.approx(last, abs=1e-3) and usable is False
    assert fault == active == "reading NaN"
    yaw, usable, fault, active = navx3_result["recovered"]
    assert yaw == pytest.approx(last + 10.0, abs=1e-3) and usable is True
    assert fault is None and active is None
