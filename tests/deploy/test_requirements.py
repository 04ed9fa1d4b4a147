"""What `robotpy sync` and `robotpy deploy` read from a robot project's pyproject.toml.

Both call ``robotpy_installer.pyproject.load``; the list they install (``get_install_list``) is
``robotpy==<robotpy_version>`` followed by ``[tool.robotpy] requires``. These tests use that code on
the example robot and on every TOML block of docs/deploying.md.
"""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from robotpy_installer import pyproject

from tests.conftest import REPO

DOCS_PAGE = REPO / "docs" / "deploying.md"


def vendor_requirements(extras: tuple[str, ...] = ("rev", "ctre", "navx")) -> set[str]:
    """The packages of swervelib's vendor extras (rev, ctre, navx), or of ``extras``."""
    with open(REPO / "pyproject.toml", "rb") as fp:
        declared = tomllib.load(fp)["project"]["optional-dependencies"]
    return {canonicalize_name(Requirement(r).name) for x in extras for r in declared[x]}


def test_the_example_robot_installs_robotpy_swervelib_vendor_and_integration_libraries() -> None:
    project = pyproject.load(REPO / "robot_example")
    install = project.get_install_reqs()
    assert str(install[0]) == f"robotpy=={project.robotpy_version}"
    names = [canonicalize_name(r.name) for r in project.requires]
    assert "swervelib" in names
    integrations = vendor_requirements(("pathplanner", "commands", "choreo"))
    assert set(names) - {"swervelib"} <= vendor_requirements() | integrations, names
    assert integrations <= set(names), "the example's autos need every integration it imports"
    # a plain name, no URL: sync downloads it, deploy installs it from the cache by name
    assert all(r.url is None for r in project.requires)


def test_every_pyproject_block_of_the_deploying_page_is_read_by_robotpy_installer() -> None:
    blocks = re.findall(r"```toml\n(.*?)```", DOCS_PAGE.read_text(encoding="utf-8"), re.DOTALL)
    robot_blocks = [b for b in blocks if "[tool.robotpy]" in b]
    assert len(robot_blocks) >= 2, "the page shows the requires lines of both paths"
    seen_extras = set()
    for block in robot_blocks:
        project = pyproject.loads(block)
        assert project.get_install_list()[0] == f"robotpy=={project.robotpy_version}"
        for req in project.requires:
            if canonicalize_name(req.name) == "swervelib":
                assert req.url is None, "a URL requirement would need `robotpy sync`'s pip wheel"
                seen_extras |= req.extras
            else:
                assert canonicalize_name(req.name) in vendor_requirements(), req
    assert seen_extras, "the page shows swervelib with a vendor extra"
    assert seen_extras <= {"rev", "ctre", "navx", "all"}
