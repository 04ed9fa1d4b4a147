"""Every code block of README.md and docs/*.md runs (or parses), so the documentation cannot rot.

Each fenced block is handled by its language:

* ``python``: run as a script in a fresh Python process, in a temporary robot project (a copy of
  ``robot_example`` and of the repository's ``deploy/`` folders, so ``deploy/swerve`` is there);
  it must exit 0. A block that defines a ``Robot`` class (a ``wpilib.TimedRobot``) is then driven
  in teleop for one simulated second with the driver's left stick pushed forward, and the robot
  must have driven forward: its joystick signs are right.
* ``bash``: run with ``bash -euo pipefail`` in the same kind of project; it must exit 0.
* ``json`` and ``toml``: parsed.
* ``text`` or no language: output and file layouts, not code.

HTML comments directly above a block change that:

* ``<!-- not run: REASON -->``: not executed (a ``pip install``, a ``robotpy deploy``, a command
  that waits for a person). A ``python`` or ``bash`` block that is not run must say why: nothing
  is skipped silently.
* ``<!-- run with: robotpy sim -->``: run while the example robot runs in ``robotpy sim`` in the
  project (on hardware miswired against its configuration, so calibration has work to do).
* ``<!-- expect: TEXT -->``: the block's output must contain TEXT.

The README's two set-up commands at its top are the exception: they install packages, so they are
not run here; the test command is the one ``.ci/run`` runs, and the first one runs the example
robot, which ``robot_example/tests`` test.

Besides: every NetworkTables key the pages name is one a real drive publishes, no page cites the
specification's section numbers, the README's links into the docs resolve, and the Sphinx build
passes with warnings as errors.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import ROBOTPY_SIM
from tests.processes import copy_example, running_sim

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
README = REPO / "README.md"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
TIMEOUT_S = 90.0  # one block; a block normally takes about a second
LANGUAGES = {"python", "bash", "json", "toml", "text", ""}
MARKS = ("not run", "run with", "expect")
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)\s*(?P<info>[^\s`]*)[^`]*$")
MARK = re.compile(r"^<!--\s*(?P<key>[a-z ]+):\s*(?P<value>.*?)\s*-->$")


@dataclass
class Block:
    page: Path
    line: int  # the opening fence, counted from 1
    language: str
    text: str
    marks: dict[str, list[str]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"

    def mark(self, key: str) -> str | None:
        values = self.marks.get(key)
        return values[0] if values else None


def read_blocks(page: Path) -> list[Block]:
    """The fenced blocks of a Markdown page with the marks in the comments right above each."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if match is None:
            index += 1
            continue
        indent, fence, info = len(match["indent"]), match["fence"], match["info"]
        end = index + 1
        while end < len(lines) and not (
            lines[end].strip().startswith(fence) and not lines[end].strip().strip(fence[0])
        ):
            end += 1
        assert end < len(lines), f"{page.name}:{index + 1}: a code block is never closed"
        body = [
            line[indent:] if line[:indent].isspace() else line for line in lines[index + 1 : end]
        ]
        marks: dict[str, list[str]] = {}
        above = index - 1
        while above >= 0 and (mark := MARK.match(lines[above].strip())):
            marks.setdefault(mark["key"], []).insert(0, mark["value"])
            above -= 1
        if not info.startswith("{"):  # MyST directives ({toctree}, {eval-rst}) are not code
            blocks.append(Block(page, index + 1, info, "\n".join(body), marks))
        index = end + 1
    return blocks


BLOCKS = [block for page in PAGES for block in read_blocks(page)]
# The README's first two blocks: `pip install ... && run the example robot`, and the test command.
SETUP_COMMANDS = [b for b in BLOCKS if b.page == README][:2]
RUN = [
    b
    for b in BLOCKS
    if b.language in ("python", "bash") and "not run" not in b.marks and b not in SETUP_COMMANDS
]


# -- the blocks themselves -------------------------------------------------------------------------
def test_every_block_is_known_and_marked() -> None:
    """A language this test does not handle, an unknown mark, or a skip without a reason fails."""
    assert len(RUN) >= 20, "the docs are missing (or their blocks were not found)"
    for block in BLOCKS:
        assert block.language in LANGUAGES, f"{block.name}: unknown language {block.language!r}"
        for key in block.marks:
            assert key in MARKS, f"{block.name}: unknown mark {key!r}"
        if "not run" in block.marks:
            assert block.language in ("python", "bash"), f"{block.name}: only code is run"
            assert block.mark("not run"), f"{block.name}: `not run` must say why"
            assert "run with" not in block.marks, block.name


def test_the_readme_starts_with_the_two_set_up_commands() -> None:
    install, tests = SETUP_COMMANDS
    assert (install.language, tests.language) == ("bash", "bash")
    assert install.text.startswith('pip install -e ".[all,dev]" && ')
    assert "--main robot_example sim" in install.text
    assert (REPO / "robot_example" / "robot.py").is_file()
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert tests.text in ci, "the README's test command is the one CI runs"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A robot project like a team's: robot.py, physics.py, pyproject.toml and deploy/."""
    root = tmp_path / "robot"
    copy_example(root, "tests")
    shutil.copytree(REPO / "deploy", root / "deploy", dirs_exist_ok=True)
    return root


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SWERVELIB_DEMO", "PYTHONSTARTUP")}
    # `python` in a bash block is this interpreter; swervelib is this checkout
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


# Runs a Python block, then drives its Robot class if it has one.
DRIVER = r"""
import runpy
import sys

namespace = runpy.run_path(sys.argv[1], run_name="__main__")
robot_class = namespace.get("Robot")
if robot_class is not None:
    import ntcore
    import wpilib
    from wpilib.simulation import (
        DriverStationSim, XboxControllerSim, pauseTiming, stepTimingAsync,
    )

    from swervelib import SwerveDrive

    assert issubclass(robot_class, wpilib.TimedRobot), robot_class
    ntcore.NetworkTableInstance.getDefault().startLocal()  # RobotBase would start a server
    pauseTiming()
    robot = robot_class()
    robot.robotInit()
    (drive,) = [v for v in vars(robot).values() if isinstance(v, SwerveDrive)]
    DriverStationSim.setDsAttached(True)
    DriverStationSim.setAutonomous(False)
    DriverStationSim.setEnabled(True)
    DriverStationSim.notifyNewData()
    pad = XboxControllerSim(0)
    pad.setLeftY(-1.0)  # the driver pushes the left stick forward (WPILib: forward is negative)
    pad.notifyNewData()
    robot.teleopInit()
    for _ in range(50):  # one second of teleop
        robot.robotPeriodic()
        robot.teleopPeriodic()
        stepTimingAsync(0.02)
    pose = drive.get_pose()
    print(f"teleop, left stick forward for 1 s: x={pose.X():+.2f} m, y={pose.Y():+.2f} m")
    assert pose.X() > 0.5 and abs(pose.Y()) < 0.1 * pose.X(), pose
"""


def run_command(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` in ``cwd`` as a page's reader runs it: the docs' environment, no input, its
    output captured, :data:`TIMEOUT_S` at most (``subprocess.TimeoutExpired`` beyond)."""
    return subprocess.run(
        command,
        cwd=cwd,
        env=environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )


def run_block(block: Block, cwd: Path) -> str:
    if block.language == "python":
        script = cwd / "_snippet.py"
        script.write_text(block.text + "\n", encoding="utf-8")
        command = [sys.executable, "-c", DRIVER, str(script)]
    else:
        command = ["bash", "-euo", "pipefail", "-c", block.text]
    try:
        done = run_command(command, cwd)
    except subprocess.TimeoutExpired as expired:
        pytest.fail(f"{block.name}: still running after {TIMEOUT_S:g} s\n{expired.stdout}")
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{block.name} exited {done.returncode}:\n{block.text}\n{output}"
    for text in block.marks.get("expect", []):
        assert text in output, f"{block.name}: {text!r} not in its output:\n{output}"
    return output


@pytest.fixture(scope="module")
def robotpy_sim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The example robot in `robotpy sim`, on hardware its configuration describes wrongly."""
    from dataclasses import replace

    from swervelib.config import load_directory
    from swervelib.sim import HardwareTruth
    from swervelib.tools.telemetry_client import NetworkTablesTelemetry, TelemetryError

    root = tmp_path_factory.mktemp("sim") / "robot"
    copy_example(root, "tests")
    truth = HardwareTruth.matching(load_directory(root / "deploy" / "swerve"))
    truth = truth.with_corner("frontleft", angle_reversed=True, encoder_zero_deg=250.0)
    truth = truth.with_corner("backright", drive_reversed=True)
    replace(truth, imu_reversed=True).save(root / "sim_hardware.json")
    quiet = subprocess.DEVNULL
    with running_sim(root, environment(), stdin=quiet, stdout=quiet, stderr=quiet) as process:
        deadline = time.monotonic() + 60.0
        while True:  # until the robot publishes its telemetry
            assert process.poll() is None, "robotpy sim stopped"
            try:
                with NetworkTablesTelemetry("localhost", timeout_s=2.0):
                    break
            except TelemetryError:
                assert time.monotonic() < deadline, "robotpy sim never published its telemetry"
        yield root


@pytest.mark.parametrize(
    "block",
    [pytest.param(b, marks=ROBOTPY_SIM) if b.mark("run with") else b for b in RUN],
    ids=[b.name for b in RUN],
)
def test_code_block_runs(block: Block, request: pytest.FixtureRequest) -> None:
    with_ = block.mark("run with")
    if with_ is None:
        run_block(block, request.getfixturevalue("project"))
    else:
        assert with_ == "robotpy sim", f"{block.name}: unknown `run with: {with_}`"
        run_block(block, request.getfixturevalue("robotpy_sim"))


DATA = [b for b in BLOCKS if b.language in ("json", "toml")]


@pytest.mark.parametrize("block", DATA, ids=[b.name for b in DATA])
def test_data_block_parses(block: Block) -> None:
    if block.language == "json":
        json.loads(block.text)
    else:
        tomllib.loads(block.text)


def getting_started_project(tmp_path: Path) -> Path:
    """A robot project made of Getting started's own pyproject.toml and robot.py blocks, and the
    repository's deploy/swerve."""
    blocks = read_blocks(DOCS / "getting-started.md")
    root = tmp_path / "my-robot"
    root.mkdir()
    (pyproject,) = [b for b in blocks if b.language == "toml" and "[tool.robotpy]" in b.text]
    (robot,) = [b for b in blocks if b.language == "python" and "class Robot" in b.text]
    (root / "pyproject.toml").write_text(pyproject.text + "\n", encoding="utf-8")
    (root / "robot.py").write_text(robot.text + "\n", encoding="utf-8")
    shutil.copytree(REPO / "deploy" / "swerve", root / "deploy" / "swerve")
    return root


def test_the_getting_started_project_passes_its_tests(tmp_path: Path) -> None:
    """A project made of Getting started's own files (its pyproject.toml, its robot.py and
    deploy/swerve) passes `robotpy test` run as that page says: `robotpy deploy` runs it first and
    refuses to upload when it fails, and with no tests/ folder it fails."""
    page = DOCS / "getting-started.md"
    blocks = read_blocks(page)
    root = getting_started_project(tmp_path)
    commands = [b for b in blocks if b.language == "bash" and "robotpy test" in b.text]
    assert commands, f"{page.name} gives no command that runs `robotpy test`"
    for command in commands:
        output = run_block(command, root)
        assert "passed" in output, output


PROCESS_PER_TEST = """
import os


def test_one(robot):
    print("robot process", os.getpid())


def test_two(robot):
    print("robot process", os.getpid())
"""


def test_robotpy_test_runs_each_test_in_its_own_process_unless_told_not_to(tmp_path: Path) -> None:
    """Simulation says so: a process per test by default, one process with --no-isolation (where
    the second robot's drive reuses the first one's Sparks)."""
    text = " ".join((DOCS / "simulation.md").read_text(encoding="utf-8").split())
    assert "each test in a robot process of its own by default" in text
    assert "With `--no-isolation`" in text
    root = getting_started_project(tmp_path)
    (root / "tests").mkdir()
    (root / "tests" / "test_processes.py").write_text(PROCESS_PER_TEST, encoding="utf-8")
    pids = {}
    for mode in ((), ("--no-isolation",)):
        done = run_command([sys.executable, "-m", "robotpy", "test", *mode, "--", "-s", "-q"], root)
        assert done.returncode == 0, done.stdout + done.stderr
        pids[mode] = set(re.findall(r"robot process (\d+)", done.stdout))
    assert len(pids[()]) == 2, pids  # two tests, two robot processes
    assert len(pids[("--no-isolation",)]) == 1, pids


# -- what the pages say ----------------------------------------------------------------------------
KEY = re.compile(r"`(/SmartDashboard/[^`]+)`")

PUBLISHED = r"""
import ntcore
import wpilib
from swervelib import SwerveDrive

drive = SwerveDrive.from_directory("deploy/swerve")
for _ in range(10):
    drive.periodic()
wpilib.SmartDashboard.updateValues()
for topic in ntcore.NetworkTableInstance.getDefault().getTopics():
    print(topic.getName())
"""


def test_every_documented_key_is_published(project: Path) -> None:
    """Each `/SmartDashboard/...` key the pages name (`<module>` for each module) is published by a
    drive built from deploy/swerve: a topic, or the folder of some (`/SmartDashboard/Field`)."""
    documented = {key for page in PAGES for key in KEY.findall(page.read_text(encoding="utf-8"))}
    assert "/SmartDashboard/Field" in documented  # the Field2d, as SmartDashboard.putData names it
    done = subprocess.run(
        [sys.executable, "-c", PUBLISHED],
        cwd=project,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=True,
    )
    topics = {line for line in done.stdout.splitlines() if line.startswith("/")}
    for key in sorted(documented):
        for module in ("frontleft", "backright"):
            name = key.replace("<module>", module).rstrip("/")
            assert name in topics or any(t.startswith(name + "/") for t in topics), key


def test_no_page_cites_the_specification() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "§" not in text, f"{page.name} cites a section number"
        assert not re.search(r"\b(the spec|spec's)\b", text, re.IGNORECASE), page.name


def test_the_readme_is_short_and_links_into_the_docs() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text) < 8000, len(text)
    links = re.findall(r"\]\((docs/[^)#\s]+)(?:#[^)\s]*)?\)", text)
    assert len(set(links)) >= 6, links
    for link in links:
        assert (REPO / link).is_file(), link
    # every docs page is in the site's table of contents
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    toctrees = re.findall(r"```\{toctree\}\n(.*?)```", index, re.DOTALL)
    listed = {line.strip() for tree in toctrees for line in tree.splitlines()}
    for page in DOCS.glob("*.md"):
        if page.name != "index.md":
            assert page.stem in listed, f"{page.name} is not in docs/index.md's table of contents"


def test_sphinx_build_passes_with_warnings_as_errors(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            "-d",
            str(tmp_path / "doctrees"),
            str(DOCS),
            str(tmp_path / "html"),
        ],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "html" / "api.html").is_file()
