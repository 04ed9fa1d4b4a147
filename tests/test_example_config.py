"""The example robot's deploy/swerve is the reference configuration, byte for byte."""

from __future__ import annotations

from tests.conftest import DEPLOY, REPO


def test_example_robot_config_matches_the_reference() -> None:
    example = REPO / "robot_example" / "deploy" / "swerve"
    reference = DEPLOY / "swerve"
    names = sorted(p.relative_to(reference) for p in reference.rglob("*.json"))
    assert names == sorted(p.relative_to(example) for p in example.rglob("*.json"))
    for name in names:
        assert (example / name).read_bytes() == (reference / name).read_bytes(), name
    assert not any(
        p.is_symlink() for p in (REPO / "robot_example").rglob("*")
    )  # deploy skips links
