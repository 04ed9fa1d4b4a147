"""Build swervelib's sdist and wheel, check them, and test the wheel the way a robot project uses it.

Steps, each timed and summarised at the end (the first failure stops the run, exit code 1):

1. copy the source (the files git knows of, or the whole tree outside git) into a temp folder,
   so building never writes into this checkout;
2. ``python -m build`` there: the sdist, then the wheel built *from the sdist*;
3. ``twine check --strict`` on both;
4. the wheel's content: pure ``py3-none-any``, only ``swervelib/`` and its dist-info (no ``tests/``,
   no ``deploy/``), ``swervelib/py.typed`` present, the only unconditional requirement is
   ``wpilib``, ``Requires-Python`` admits the roboRIO's Python 3.14, the version matches
   ``swervelib.__version__`` (and ``--expect-version``, e.g. the release tag);
5. a clean ``python -m venv`` (no system site-packages), into which pip installs the wheel with the
   ``[all]`` extra plus the example robot's own requirements (``robot_example/pyproject.toml``:
   ``robotpy==<robotpy_version>`` and its ``requires``) and ``pyfrc``;
6. in a temp copy of ``robot_example``, with that venv's python: ``swervelib`` imports from the
   venv's site-packages (not from this checkout); robotpy_installer's own check that ``robotpy
   deploy`` runs first (``are_local_requirements_met``) passes; the local ``pip install`` that ends
   ``robotpy sync`` has nothing left to fetch (``--no-index --dry-run``); the ``swervelib`` console
   script checks ``deploy/swerve``; ``python -m robotpy test`` passes.

Usage::

    python scripts/check_wheel.py                     # build into a temp folder, check, test
    python scripts/check_wheel.py --outdir dist       # ... and keep the checked files in dist/
    python scripts/check_wheel.py --dist dist         # check and test files built earlier

Needs ``build``, ``twine`` and ``packaging`` in the running interpreter (the ``dev`` extra), and
PyPI (or pip's cache) for the build backend and the venv's packages.
"""

from __future__ import annotations

import argparse
import email.parser
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name, parse_wheel_filename

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "robot_example"
ROBORIO_PYTHON = "3.14"  # robotpy_installer.installer._ROBOTPY_PYTHON_VERSION_TUPLE for 2026
RUNTIME_REQUIREMENTS = {"wpilib"}
# Not copied with the example robot: leftovers of earlier local runs (sim, tests).
EXAMPLE_IGNORE = shutil.ignore_patterns(
    "__pycache__", "*.pyc", "ctre_sim", ".pytest_cache", "networktables.json"
)
# Used only outside a git checkout (e.g. an unpacked sdist): what .gitignore would leave out.
TREE_IGNORE = shutil.ignore_patterns(
    ".git",
    "*.egg-info",
    "__pycache__",
    "*.pyc",
    "build",
    "dist",
    ".venv",
    "venv",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "ctre_sim",
    "_build",
)


class CheckFailed(Exception):
    """A step failed; the message says why."""


def run(cmd: Sequence[str | Path], *, cwd: Path, timeout: float, env: dict[str, str]) -> str:
    """Run a command, return its combined output, raise CheckFailed (with the output's tail) if it
    fails or times out."""
    args = [str(c) for c in cmd]
    try:
        proc = subprocess.run(
            args,
            cwd=cwd,
            env=env,
            timeout=timeout,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
    except subprocess.TimeoutExpired as e:
        out = e.stdout if isinstance(e.stdout, str) else ""
        raise CheckFailed(f"timed out after {timeout:.0f} s: {' '.join(args)}\n{tail(out)}") from e
    if proc.returncode != 0:
        raise CheckFailed(f"exit code {proc.returncode}: {' '.join(args)}\n{tail(proc.stdout)}")
    return proc.stdout


def tail(text: str, lines: int = 40) -> str:
    return "\n".join("    " + line for line in text.rstrip().splitlines()[-lines:])


def clean_env() -> dict[str, str]:
    """The environment for every child: nothing that would put this checkout or the user's
    site-packages on a child's sys.path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONNOUSERSITE"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def source_version() -> str:
    text = (REPO / "swervelib" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"', text, re.MULTILINE)
    if match is None:
        raise CheckFailed('no __version__ = "..." line in swervelib/__init__.py')
    return match.group(1)


def copy_source(dest: Path, env: dict[str, str]) -> str:
    """Copy the files a fresh clone would have (plus new, not ignored files) into dest."""
    try:
        git = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
        listed = subprocess.run(git, cwd=REPO, env=env, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(REPO, dest, ignore=TREE_IGNORE)
        return "whole tree (not a git checkout)"
    count = 0
    for name in filter(None, listed.decode().split("\0")):
        src = REPO / name
        if src.is_file():  # a tracked file deleted in the work tree is skipped
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
            count += 1
    return f"{count} files from git ls-files"


def find_dists(dist: Path) -> tuple[Path, Path]:
    wheels = sorted(dist.glob("swervelib-*.whl"))
    sdists = sorted(dist.glob("swervelib-*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        found = ", ".join(p.name for p in sorted(dist.iterdir())) or "nothing"
        raise CheckFailed(f"expected one swervelib wheel and one sdist in {dist}, found: {found}")
    return wheels[0], sdists[0]


def check_wheel_content(wheel: Path, expect_version: str | None) -> str:
    name, version, _build, tags = parse_wheel_filename(wheel.name)
    problems: list[str] = []
    if {str(t) for t in tags} != {"py3-none-any"}:
        problems.append(f"wheel tags {sorted(map(str, tags))}, expected only py3-none-any")
    dist_info = f"{name}-{version}.dist-info"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        metadata = email.parser.Parser().parsestr(zf.read(f"{dist_info}/METADATA").decode())
        wheel_info = email.parser.Parser().parsestr(zf.read(f"{dist_info}/WHEEL").decode())
    stray = sorted({n.split("/")[0] for n in names} - {"swervelib", dist_info})
    if stray:
        problems.append(f"unexpected top-level entries in the wheel: {stray} (tests/, deploy/?)")
    if "swervelib/py.typed" not in names:
        problems.append("swervelib/py.typed is missing (PEP 561 marker)")
    if wheel_info.get("Root-Is-Purelib", "").lower() != "true":
        problems.append("WHEEL says Root-Is-Purelib is not true")
    runtime = {
        canonicalize_name(r.name)
        for r in map(Requirement, metadata.get_all("Requires-Dist") or [])
        if r.marker is None
    }
    if runtime != RUNTIME_REQUIREMENTS:
        problems.append(f"unconditional requirements {sorted(runtime)}, expected only wpilib")
    requires_python = SpecifierSet(metadata.get("Requires-Python", ""))
    if not requires_python.contains(ROBORIO_PYTHON):
        problems.append(
            f"Requires-Python {requires_python} excludes the roboRIO's {ROBORIO_PYTHON}"
        )
    expected = {source_version()} | ({expect_version} if expect_version else set())
    if {str(version)} != expected or metadata["Version"] != str(version):
        problems.append(
            f"version {version} (METADATA {metadata['Version']}); expected {sorted(expected)} "
            "(swervelib.__version__, --expect-version)"
        )
    if problems:
        raise CheckFailed("\n".join(problems))
    return f"{len(names)} files, requires {sorted(runtime)}, Requires-Python {requires_python}"


def check_sdist_content(sdist: Path) -> str:
    with tarfile.open(sdist) as tf:
        names = {m.name.split("/", 1)[1] for m in tf.getmembers() if "/" in m.name}
    missing = {"PKG-INFO", "pyproject.toml", "README.md", "swervelib/py.typed"} - names
    if missing:
        raise CheckFailed(f"missing from {sdist.name}: {sorted(missing)}")
    return f"{len(names)} entries"


def example_requirements(wheel: Path) -> list[str]:
    """What `robotpy sync` would install for robot_example, with swervelib taken from the wheel."""
    with open(EXAMPLE / "pyproject.toml", "rb") as fp:
        robotpy = tomllib.load(fp)["tool"]["robotpy"]
    components = robotpy.get("components") or []
    extras = f"[{','.join(components)}]" if components else ""
    reqs = [f"{wheel}[all]", f"robotpy{extras}=={robotpy['robotpy_version']}", "pyfrc"]
    for line in robotpy.get("requires") or []:
        if canonicalize_name(Requirement(line).name) != "swervelib":
            reqs.append(line)
    return reqs


WHERE = (
    "import swervelib, sysconfig\n"
    "print(swervelib.__file__)\n"
    "print(sysconfig.get_paths()['purelib'])\n"
)
DEPLOY_CHECK = (
    "import pathlib, sys\n"
    "from robotpy_installer import pyproject\n"
    "ok, missing = pyproject.load(pathlib.Path('.')).are_local_requirements_met()\n"
    "print('; '.join(missing) or 'all requirements met')\n"
    "sys.exit(0 if ok else 1)\n"
)

# `robotpy sync` ends with a local `pip install <get_install_list()>`, without --find-links: once
# the wheel is installed, nothing of it may need an index (pip's dry run would say "Would install").
SYNC_CHECK = (
    "import pathlib, subprocess, sys\n"
    "from robotpy_installer import pyproject\n"
    "packages = pyproject.load(pathlib.Path('.')).get_install_list()\n"
    "cmd = [sys.executable, '-m', 'pip', 'install', '--no-index', '--dry-run', *packages]\n"
    "out = subprocess.run(cmd, capture_output=True, text=True)\n"
    "print(out.stdout, out.stderr)\n"
    "sys.exit(out.returncode or ('Would install' in out.stdout))\n"
)


class Checker:
    """The steps, sharing the temp folder layout: work/{src,dist,venv,robot}."""

    def __init__(self, work: Path, dist: Path | None, expect_version: str | None) -> None:
        self.env = clean_env()
        self.work = work
        self.src = work / "src"
        self.dist = dist or work / "dist"
        self.venv = work / "venv"
        self.robot = work / "robot"
        bindir = self.venv / ("Scripts" if os.name == "nt" else "bin")
        self.python = bindir / ("python.exe" if os.name == "nt" else "python")
        self.bindir = bindir
        self.expect_version = expect_version
        self.wheel = self.sdist = Path()

    def run(self, cmd: Sequence[str | Path], timeout: float, cwd: Path | None = None) -> str:
        return run(cmd, cwd=cwd or self.work, timeout=timeout, env=self.env)

    def copy_source(self) -> str:
        return copy_source(self.src, self.env)

    def build(self) -> str:
        out = self.run([sys.executable, "-m", "build", "--outdir", self.dist, self.src], 600)
        return out.strip().splitlines()[-1]

    def find(self) -> str:
        self.wheel, self.sdist = find_dists(self.dist)
        return f"{self.sdist.name}, {self.wheel.name}"

    def twine_check(self) -> str:
        cmd: list[str | Path] = [sys.executable, "-m", "twine", "--no-color", "check", "--strict"]
        cmd += [self.wheel, self.sdist]
        return " ".join(self.run(cmd, 120).split())

    def wheel_content(self) -> str:
        return check_wheel_content(self.wheel, self.expect_version)

    def sdist_content(self) -> str:
        return check_sdist_content(self.sdist)

    def make_venv(self) -> str:
        self.run([sys.executable, "-m", "venv", self.venv], 300)
        return f"{self.venv} (Python {sys.version.split()[0]}, no system site-packages)"

    def install(self) -> str:
        reqs = example_requirements(self.wheel)
        out = self.run([self.python, "-m", "pip", "install", *reqs], 1200)
        shown = " ".join(r.replace(str(self.wheel), self.wheel.name) for r in reqs)
        return f"pip install {shown}\n{out.strip().splitlines()[-1][:300]}"

    def copy_example(self) -> str:
        shutil.copytree(EXAMPLE, self.robot, ignore=EXAMPLE_IGNORE)
        return str(self.robot)

    def imported_from_venv(self) -> str:
        out = self.run([self.python, "-c", WHERE], 120, self.robot)
        module_file, purelib = out.strip().splitlines()[-2:]
        module = Path(module_file).resolve()
        if not module.is_relative_to(Path(purelib).resolve()) or module.is_relative_to(REPO):
            raise CheckFailed(f"swervelib imported from {module_file}, not from {purelib}")
        return module_file

    def deploy_check(self) -> str:
        return self.run([self.python, "-c", DEPLOY_CHECK], 120, self.robot).strip()

    def sync_check(self) -> str:
        out = self.run([self.python, "-c", SYNC_CHECK], 120, self.robot)
        return "already satisfied: " + ", ".join(
            line.split()[3]
            for line in out.splitlines()
            if "already satisfied:" in line and "(from " not in line
        )

    def console_script(self) -> str:
        console = shutil.which("swervelib", path=str(self.bindir))
        if console is None:
            raise CheckFailed(f"no swervelib console script in {self.bindir}")
        return self.run([console, "check", "deploy/swerve"], 120, self.robot).splitlines()[0]

    def robotpy_test(self) -> str:
        out = self.run([self.python, "-m", "robotpy", "test"], 900, self.robot)
        summary = [line for line in out.splitlines() if re.search(r"\d+ (passed|failed)", line)]
        return summary[-1].strip("= ") if summary else "(no pytest summary line)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--dist", type=Path, help="check these built files instead of building")
    parser.add_argument("--outdir", type=Path, help="on success, copy the sdist and wheel here")
    parser.add_argument("--expect-version", help="the version the files must have (release tag)")
    parser.add_argument("--keep", action="store_true", help="keep the temp folder on failure")
    args = parser.parse_args(argv)

    start = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="swervelib-check-wheel-"))
    c = Checker(work, args.dist.resolve() if args.dist else None, args.expect_version)
    steps: list[tuple[str, Callable[[], str]]] = []
    if not args.dist:
        steps += [
            ("copy the source into a temp folder", c.copy_source),
            ("python -m build (the sdist, then the wheel from the sdist)", c.build),
        ]
    steps += [
        (f"find the sdist and wheel in {c.dist}", c.find),
        ("twine check --strict", c.twine_check),
        ("wheel content", c.wheel_content),
        ("sdist content", c.sdist_content),
        ("python -m venv (clean)", c.make_venv),
        ("install the wheel [all] + robot_example's requirements + pyfrc", c.install),
        ("copy robot_example into a temp folder", c.copy_example),
        ("swervelib imports from the venv, not from this checkout", c.imported_from_venv),
        ("robotpy deploy's local requirement check (robotpy_installer)", c.deploy_check),
        ("robotpy sync's local install needs no index now (pip --dry-run)", c.sync_check),
        ("swervelib check deploy/swerve (console script)", c.console_script),
        ("python -m robotpy test (robot_example)", c.robotpy_test),
    ]

    results: list[tuple[str, bool, float, str]] = []
    ok = False
    try:
        for title, action in steps:
            print(f"--- {title}", flush=True)
            t0 = time.monotonic()
            try:
                detail, passed = action(), True
            except Exception as e:  # a failed step ends the run; any error is a failure
                detail, passed = (str(e) if isinstance(e, CheckFailed) else repr(e)), False
            results.append((title, passed, time.monotonic() - t0, detail))
            if not passed:
                break
        ok = all(passed for _, passed, _, _ in results) and len(results) == len(steps)
        if ok and args.outdir:
            args.outdir.mkdir(parents=True, exist_ok=True)
            for f in (c.wheel, c.sdist):
                shutil.copy2(f, args.outdir / f.name)
    finally:
        keep = args.keep and not ok
        if not keep:
            shutil.rmtree(work, ignore_errors=True)

    print("\ncheck_wheel summary")
    for title, passed, seconds, detail in results:
        print(f"  {'PASS' if passed else 'FAIL'}  {title}  ({seconds:.1f} s)")
        print("\n".join("        " + line for line in detail.splitlines()))
    total = time.monotonic() - start
    if ok:
        kept = f"; sdist and wheel copied to {args.outdir}" if args.outdir else ""
        print(f"RESULT: PASS in {total:.0f} s{kept}")
        return 0
    print(f"RESULT: FAIL in {total:.0f} s" + (f" (temp folder kept: {work})" if keep else ""))
    return 1


if __name__ == "__main__":
    sys.exit(main())
