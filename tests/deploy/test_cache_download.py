"""A locally built wheel in the roboRIO download cache, through robotpy_installer's own commands.

`robotpy sync --find-links DIR` and `robotpy installer download --find-links DIR …` both call
``RobotpyInstaller.pip_download``: ``pip download --only-binary :all: --platform linux_roborio
--python-version 314 --implementation cp --abi cp314 -d <cache>/pip_cache`` (run through
robotpy_installer's pip stub). `robotpy deploy` then checks that cache
(``get_pip_cache_packages``, ``are_requirements_met``) and has pip on the roboRIO install from it
with ``--no-index --find-links <cache server>/pip_cache/``. Offline here, see conftest.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from packaging.utils import parse_wheel_filename
from robotpy_installer import pypackages, pyproject
from robotpy_installer.installer import RobotpyInstaller


def robotpy_download(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m robotpy -v installer download ARGS` (-v logs the pip command it runs)."""
    cmd = [sys.executable, "-m", "robotpy", "-v", "installer", "download", *args]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)


def robot_project(path: Path, requires: str) -> pyproject.RobotPyProjectToml:
    path.mkdir()
    (path / "pyproject.toml").write_text(
        f'[tool.robotpy]\nrobotpy_version = "2026.2.2"\nrequires = [{requires}]\n'
    )
    return pyproject.load(path)


def test_installer_download_saves_the_local_wheel_in_the_roborio_cache(
    installer: RobotpyInstaller, swervelib_wheel: Path, tmp_path: Path
) -> None:
    version = parse_wheel_filename(swervelib_wheel.name)[1]
    run = robotpy_download(
        tmp_path, "--no-deps", "--find-links", str(swervelib_wheel.parent), f"swervelib=={version}"
    )
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    # robotpy_installer's pip command, for the roboRIO
    for flag in ("'--platform', 'linux_roborio'", "'--python-version', '314'", "'--abi', 'cp314'"):
        assert flag in out, out
    cached = installer.pip_cache / swervelib_wheel.name
    assert cached.read_bytes() == swervelib_wheel.read_bytes()
    packages = pypackages.get_pip_cache_packages(installer.cache_root)
    assert [str(v) for v in packages["swervelib"]] == [str(version)]


def test_a_wheel_that_excluded_python_314_would_not_be_downloaded(
    installer: RobotpyInstaller, swervelib_wheel: Path, tmp_path: Path
) -> None:
    """The control for the first test: the download really checks the roboRIO's Python."""
    links = tmp_path / "links"
    links.mkdir()
    narrowed = links / swervelib_wheel.name
    with zipfile.ZipFile(swervelib_wheel) as src, zipfile.ZipFile(narrowed, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.endswith(".dist-info/METADATA"):
                lines = data.decode().splitlines(keepends=True)
                data = "".join(
                    "Requires-Python: <3.14,>=3.11\n" if ln.startswith("Requires-Python:") else ln
                    for ln in lines
                ).encode()
            dst.writestr(item, data)
    run = robotpy_download(tmp_path, "--no-deps", "--find-links", str(links), "swervelib")
    assert run.returncode != 0
    assert "requires a different Python: 3.14" in run.stdout + run.stderr
    assert not installer.pip_cache.exists() or not any(installer.pip_cache.iterdir())


def test_a_rebuilt_wheel_of_the_same_version_does_not_replace_the_cached_one(
    installer: RobotpyInstaller, swervelib_wheel: Path, tmp_path: Path
) -> None:
    """Why docs/deploying.md asks for a new version with every change."""
    links = tmp_path / "links"
    links.mkdir()
    shutil.copy2(swervelib_wheel, links)
    first = robotpy_download(tmp_path, "--no-deps", "--find-links", str(links), "swervelib")
    assert first.returncode == 0, first.stdout + first.stderr
    with zipfile.ZipFile(links / swervelib_wheel.name, "a") as wheel:
        wheel.writestr("swervelib/changed.py", "")
    run = robotpy_download(tmp_path, "--no-deps", "--find-links", str(links), "swervelib")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "File was already downloaded" in run.stdout
    assert (installer.pip_cache / swervelib_wheel.name).read_bytes() == swervelib_wheel.read_bytes()


def test_deploy_finds_swervelib_in_the_cache_and_pip_installs_it_from_there(
    installer: RobotpyInstaller, swervelib_wheel: Path, tmp_path: Path
) -> None:
    version = str(parse_wheel_filename(swervelib_wheel.name)[1])
    installer.pip_download(
        no_deps=True,
        pre=False,
        requirements=[],
        packages=["swervelib"],
        find_links=swervelib_wheel.parent,
    )
    project = robot_project(tmp_path / "robot", f'"swervelib[rev]=={version}"')
    cached = pypackages.get_pip_cache_packages(installer.cache_root)

    # deploy's "Project requirements not found in download cache!" check: swervelib is there;
    # robotpy and the vendor libraries come from wpilib's artifactory, which is not asked here
    ok, missing = project.are_requirements_met(
        cached, pypackages.roborio_env(), pypackages.make_cache_extra_resolver(cached)
    )
    assert not ok
    assert [m for m in missing if "swervelib" in m] == []
    assert project.get_deploy_list(cached) == ["robotpy==2026.2.2", f"swervelib[rev]=={version}"]

    # the roboRIO's pip step, replayed here with the same pip stub and index options
    # (on the roboRIO the cache is served over SSH at http://localhost:<port>/pip_cache/)
    target = tmp_path / "rio-site-packages"
    pip = [sys.executable, "-m", "robotpy_installer._pipstub", "--no-cache-dir", "install"]
    pip += ["--no-index", "--find-links", str(installer.pip_cache), "--no-deps"]
    pip += ["--target", str(target), f"swervelib=={version}"]
    run = subprocess.run(pip, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (target / "swervelib" / "__init__.py").is_file()
    assert (target / "swervelib" / "py.typed").is_file()
