"""Pitch and roll of the navX, navX3 and WPILib gyros, through the vendors' own simulators.

Each check writes the bare device's pitch and roll in the device's own convention (the navX's
SimDevice values, the ADIS sims' X/Y gyro angles) and expects ``get_pitch_roll_degrees()`` in
WPILib's NWU convention: pitch positive with the front down, roll positive with the left side up,
whatever ``invertedIMU`` says. Each sim hook's ``set_tilt`` (what ``SwerveSim.set_tilt`` calls)
takes WPILib's pitch and roll and writes them in the device's convention, so the adapter reads
them back. Single-axis gyros, closed or unplugged devices and NaN readings give None. The navX types run in a child process, as in test_navx_wpilib.py (one navX a process).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.devices.test_navx_wpilib import _Unplugged, build_gyro_pair, close_all

REPO = Path(__file__).resolve().parents[2]


# -- ADIS16448 / ADIS16470 -----------------------------------------------------------------------------


def adis_sim(type_name: str, imu: Any) -> Any:
    from wpilib.simulation import ADIS16448_IMUSim, ADIS16470_IMUSim

    cls = ADIS16448_IMUSim if type_name == "adis16448" else ADIS16470_IMUSim
    return cls(imu._device)


@pytest.mark.parametrize("type_name", ["adis16448", "adis16470"])
def test_adis_pitch_is_the_y_axis_and_roll_the_x_axis_whatever_the_flag(type_name: str) -> None:
    right, flipped = build_gyro_pair(type_name)
    try:
        sim = adis_sim(type_name, right)
        # The robot's front goes down 7° (counter-clockwise about +y, the chip's Y axis) and its
        # left side up 4° (counter-clockwise about +x, the chip's X axis).
        sim.setGyroAngleY(7.0)
        sim.setGyroAngleX(4.0)
        assert right.get_pitch_roll_degrees() == pytest.approx((7.0, 4.0))
        assert flipped.get_pitch_roll_degrees() == pytest.approx((7.0, 4.0))  # yaw's flag only
        sim.setGyroAngleY(-12.5)
        sim.setGyroAngleX(30.0)
        assert right.get_pitch_roll_degrees() == pytest.approx((-12.5, 30.0))
        if type_name == "adis16470":  # WPILib's ADIS16470 names Y its pitch axis, X its roll
            axis = type(right._device).IMUAxis
            assert (right._device.getPitchAxis(), right._device.getRollAxis()) == (axis.kY, axis.kX)
        # The yaw still reads the Z axis, as before.
        right.sim.set_raw_yaw(20.0, 0.0)
        assert right.get_raw_yaw_degrees() == pytest.approx(20.0)
        assert right.get_pitch_roll_degrees() == pytest.approx((-12.5, 30.0))
    finally:
        close_all(right, flipped)


@pytest.mark.parametrize("type_name", ["adis16448", "adis16470"])
def test_adis_nan_unplugged_or_closed_gives_none(type_name: str) -> None:
    right, flipped = build_gyro_pair(type_name)
    try:
        sim = adis_sim(type_name, right)
        sim.setGyroAngleY(3.0)
        sim.setGyroAngleX(math.nan)
        assert right.get_pitch_roll_degrees() is None
        sim.setGyroAngleX(2.0)
        assert right.get_pitch_roll_degrees() == pytest.approx((3.0, 2.0))

        real = right._device
        right._device = _Unplugged(real)
        assert right.get_pitch_roll_degrees() is None
        right._device = real
        assert right.get_pitch_roll_degrees() == pytest.approx((3.0, 2.0))

        class Broken(_Unplugged):
            def isConnected(self) -> bool:
                return True

            def getGyroAngleX(self) -> float:
                raise RuntimeError("SPI read failed")

            def getAngle(self, *axis: Any) -> float:
                raise RuntimeError("SPI read failed")

        right._device = Broken(real)
        assert right.get_pitch_roll_degrees() is None  # never raises
        right._device = real
    finally:
        close_all(right, flipped)
    assert right.get_pitch_roll_degrees() is None  # closed


@pytest.mark.parametrize("type_name", ["adis16448", "adis16470"])
def test_adis_sim_hook_tilts_the_y_and_x_axes_as_the_adapter_reads_them(type_name: str) -> None:
    right, flipped = build_gyro_pair(type_name)
    try:
        right.sim.set_tilt(7.5, -4.0)  # the front down 7.5°, the left side down 4°
        axis = type(right._device).IMUAxis if type_name == "adis16470" else None
        if axis is None:
            assert (right._device.getGyroAngleY(), right._device.getGyroAngleX()) == (7.5, -4.0)
        else:
            assert (right._device.getAngle(axis.kY), right._device.getAngle(axis.kX)) == (7.5, -4.0)
        assert right.get_pitch_roll_degrees() == pytest.approx((7.5, -4.0))
        assert flipped.get_pitch_roll_degrees() == pytest.approx((7.5, -4.0))
        right.sim.set_tilt(0.0, 0.0)
        assert right.get_pitch_roll_degrees() == pytest.approx((0.0, 0.0))
    finally:
        close_all(right, flipped)


@pytest.mark.parametrize(("type_name", "device_id"), [("adxrs450", 0), ("analog", 1)])
def test_single_axis_gyros_have_no_pitch_or_roll(type_name: str, device_id: int) -> None:
    right, flipped = build_gyro_pair(type_name, device_id)
    try:
        right.sim.set_tilt(15.0, -5.0)  # nothing to see: ignored
        right.sim.set_raw_yaw(10.0, 0.0)
        assert right.get_raw_yaw_degrees() == pytest.approx(10.0)
        assert right.get_pitch_roll_degrees() is None
        assert flipped.get_pitch_roll_degrees() is None
    finally:
        close_all(right, flipped)


# -- navX (AHRS) and navX3, each in a child process ----------------------------------------------------

_NAVX_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from wpilib import simulation
    from wpilib.simulation import SimDeviceSim
    from swervelib.config.catalog import IMU_TYPES
    from swervelib.config.model import DeviceConfig
    from swervelib.devices import registry
    from swervelib.devices.settings import ImuSettings

    type_name, device_id, sim_name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    simulation.pauseTiming()

    def settings(inverted):
        label = f"IMU ({type_name}{' inverted' if inverted else ''})"
        return ImuSettings(label, DeviceConfig(type_name, device_id, None), IMU_TYPES[type_name],
                           inverted)

    cls = registry.imu_adapter(type_name)
    right, flipped = cls(settings(False)), cls(settings(True))
    device = SimDeviceSim(sim_name)
    pitch, roll = device.getDouble("Pitch"), device.getDouble("Roll")
    out = {"before": right.get_pitch_roll_degrees()}  # the navX is not up yet
    for _ in range(10):
        simulation.stepTiming(0.02)

    def read(p, r):
        pitch.set(p)
        roll.set(r)
        simulation.stepTiming(0.02)  # the navX library takes its SimDevice in on its update
        return [right.get_pitch_roll_degrees(), flipped.get_pitch_roll_degrees()]

    out["tilted"] = read(10.0, -20.0)
    out["other_way"] = read(-5.5, 33.0)
    out["nan"] = read(float("nan"), 1.0)
    out["error_flag"] = read(360.0, 1.0)
    out["back"] = read(2.0, 3.0)
    connected = device.getBoolean("Connected")
    if connected:
        connected.set(False)
        simulation.stepTiming(0.04)
        out["disconnected"] = right.get_pitch_roll_degrees()
        connected.set(True)
        simulation.stepTiming(0.1)
        out["reconnected"] = right.get_pitch_roll_degrees()
    right.sim.set_tilt(12.0, -7.0)  # WPILib's: the front down 12°, the left side down 7°
    simulation.stepTiming(0.02)
    out["sim_tilt"] = [right.get_pitch_roll_degrees(), flipped.get_pitch_roll_degrees()]
    out["sim_tilt_raw"] = [pitch.get(), roll.get()]  # as the device reports them
    print("RESULT " + json.dumps(out), flush=True)
    """
)

NAVX_RUNS = {"navx": ("navx", "0", "navX-Sensor[4]"), "navx3": ("navx3", "7", "NavX3[7]")}


@pytest.fixture(scope="module")
def navx_tilt(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    results: dict[str, dict[str, Any]] = {}
    for name, args in NAVX_RUNS.items():
        proc = subprocess.run(
            [sys.executable, "-c", _NAVX_SCRIPT, *args],
            cwd=tmp_path_factory.mktemp(name),
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
        assert proc.returncode == 0 and lines, f"{name}: rc={proc.returncode}\n{proc.stderr}"
        results[name] = json.loads(lines[-1][len("RESULT ") :])
    return results


def test_navx_pitch_and_roll_are_negated_into_nwu(navx_tilt: dict[str, dict[str, Any]]) -> None:
    """The navX's pitch is positive front up and its roll positive left side down (Kauai Labs):
    WPILib's are the other way round. The flag (the yaw's) changes neither."""
    result = navx_tilt["navx"]
    assert result["before"] is None  # not connected yet
    assert result["tilted"] == [pytest.approx([-10.0, 20.0])] * 2
    assert result["other_way"] == [pytest.approx([5.5, -33.0])] * 2
    assert result["nan"] == [None, None]
    assert result["back"] == [pytest.approx([-2.0, -3.0])] * 2
    assert result["disconnected"] is None
    assert result["reconnected"] == pytest.approx([-2.0, -3.0])
    # the sim hook writes WPILib's tilt in the navX's convention: both negated
    assert result["sim_tilt_raw"] == pytest.approx([-12.0, 7.0])
    assert result["sim_tilt"] == [pytest.approx([12.0, -7.0])] * 2


def test_navx3_pitch_and_roll_as_reported(navx_tilt: dict[str, dict[str, Any]]) -> None:
    """The navX3's pitch and roll as it gives them; 360 (its error flag) and NaN give None."""
    result = navx_tilt["navx3"]
    assert result["before"] == [0.0, 0.0]
    assert result["tilted"] == [pytest.approx([10.0, -20.0])] * 2
    assert result["other_way"] == [pytest.approx([-5.5, 33.0])] * 2
    assert result["nan"] == [None, None]
    assert result["error_flag"] == [None, None]
    assert result["back"] == [pytest.approx([2.0, 3.0])] * 2
    assert "disconnected" not in result  # the simulated navX3 has no connection value
    # the sim hook writes the tilt as the adapter reads it (the navX3's taken as WPILib's)
    assert result["sim_tilt_raw"] == pytest.approx([12.0, -7.0])
    assert result["sim_tilt"] == [pytest.approx([12.0, -7.0])] * 2
