"""What `robotpy deploy` uploads from a robot project that carries swervelib as a folder.

`robotpy deploy` copies the folder that holds robot.py with ``Deploy._copy_to_tmpdir`` (skipping
dot folders, ``__pycache__``, ``ctre_sim``, ``venv``, dotfiles and ``*.pyc *.whl *.ipk *.zip *.gz
*.wpilog``), sends that copy to the roboRIO as ``/home/lvuser/py`` and runs ``robot.py`` there with
``/home/lvuser/py`` first on ``sys.path``. These tests run that selection on a copy of the example
robot with ``swervelib/`` copied next to ``robot.py``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from robotpy_installer import cli_deploy

from tests.conftest import REPO

CACHES = shutil.ignore_patterns("__pycache__", "*.pyc", "ctre_sim", "networktables.json")


def package_files() -> set[str]:
    """The files of the swervelib package, as paths relative to the robot project."""
    root = REPO / "swervelib"
    return {
        f"swervelib/{p.relative_to(root).as_posix()}"
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def uploaded(project: Path, staging: Path) -> set[str]:
    """Run deploy's own copy into ``staging`` (what becomes /home/lvuser/py); list what is there."""
    cli_deploy.Deploy(argparse.ArgumentParser())._copy_to_tmpdir(staging, project)
    return {p.relative_to(staging).as_posix() for p in staging.rglob("*") if p.is_file()}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The example robot with swervelib/ copied beside robot.py, plus what a team's folder holds
    that must not be uploaded."""
    robot = tmp_path / "robot"
    shutil.copytree(REPO / "robot_example", robot, ignore=CACHES)
    shutil.copytree(REPO / "swervelib", robot / "swervelib", ignore=CACHES)
    for junk in (
        "swervelib/__pycache__/angles.cpython-314.pyc",
        "ctre_sim/Talon FX vers. C - 01 - 0 - ext.dat",
        ".venv/lib/site.py",
        ".wpilib/wpilib_preferences.json",
        "wheels/swervelib-0.1.0-py3-none-any.whl",
    ):
        (robot / junk).parent.mkdir(parents=True, exist_ok=True)
        (robot / junk).write_bytes(b"x")
    return robot


def test_deploy_uploads_the_vendored_package_and_the_deploy_folder(
    project: Path, tmp_path: Path
) -> None:
    files = uploaded(project, tmp_path / "py_new")
    assert package_files() <= files, sorted(package_files() - files)
    assert "swervelib/py.typed" in files
    deploy_files = {
        f"deploy/{p.relative_to(project / 'deploy').as_posix()}"
        for p in (project / "deploy").rglob("*")
        if p.is_file()
    }
    assert "deploy/swerve/swervedrive.json" in deploy_files
    assert deploy_files <= files
    assert {"robot.py", "physics.py", "pyproject.toml"} <= files
    for left_out in ("__pycache__", "ctre_sim/", ".venv/", ".wpilib/", ".whl"):
        assert not [f for f in files if left_out in f], left_out


def test_nothing_in_the_vendored_project_trips_the_large_file_prompt(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def no(prompt: str) -> bool:
        asked.append(prompt)
        return False

    monkeypatch.setattr(cli_deploy, "yesno", no)
    deploy = cli_deploy.Deploy(argparse.ArgumentParser())
    assert deploy._check_large_files(project)
    assert asked == []
    # the control: a file over 250,000 bytes does make deploy ask (and stop on "no")
    (project / "deploy" / "field.bin").write_bytes(bytes(250_001))
    assert not deploy._check_large_files(project)
    assert asked == ["Upload anyways?"]


def test_a_symlinked_package_folder_is_not_uploaded(tmp_path: Path) -> None:
    robot = tmp_path / "robot"
    shutil.copytree(REPO / "robot_example", robot, ignore=CACHES)
    try:
        os.symlink(REPO / "swervelib", robot / "swervelib", target_is_directory=True)
    except OSError:
        pytest.skip("cannot create symlinks here")
    files = uploaded(robot, tmp_path / "py_new")
    assert "robot.py" in files
    assert not [f for f in files if f.startswith("swervelib/")]


def test_robotpy_imports_the_vendored_copy_first(project: Path) -> None:
    """swervelib is also installed in this environment; robotpy puts the robot's folder first on
    sys.path, as it does on the roboRIO, so the copy beside robot.py is the one imported."""
    (project / "tests" / "test_vendored_copy.py").write_text(
        "from pathlib import Path\n"
        "import swervelib\n"
        "def test_vendored_copy():\n"
        "    here = Path(__file__).resolve().parents[1] / 'swervelib' / '__init__.py'\n"
        "    assert Path(swervelib.__file__).resolve() == here, swervelib.__file__\n"
    )
    cmd = [sys.executable, "-m", "robotpy", "--main", "robot.py", "test"]
    cmd += ["--", "-q", "-p", "no:cacheprovider", "-k", "vendored_copy"]
    run = subprocess.run(cmd, cwd=project, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "1 passed" in run.stdout
