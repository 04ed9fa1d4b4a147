"""migrate writes in each file's own style: a number it moves keeps its text (``16.80``,
``1.15E1``, more digits than a float holds) and an object it creates is indented as the file
indents, also a file that nests 4 spaces at the top and 2 below."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from swervelib.config.jsonpos import Node, parse
from swervelib.tools.json_style import line_indent
from swervelib.tools.migrate import migrate
from tests.tools import CORPUS, copy_config, snapshot
from tests.tools.legacy_folders import DRIVE, PHYSICAL, season_2023, season_2024, write


def _nodes(node: Node) -> list[Node]:
    found = [node]
    for child in [m.node for m in node.members] + node.items:
        found += _nodes(child)
    return found


def literals(text: str) -> list[str]:
    """The text of every number in a JSON text, in order."""
    root = parse(text.removeprefix("\ufeff"), trailing=True).root
    written = [text.removeprefix("\ufeff")[n.start : n.end] for n in _nodes(root)]
    return [w for w in written if w[:1] == "-" or w[:1].isdigit()]


def steps(text: str) -> set[tuple[str, str]]:
    """How much each object or array laid out on several lines indents its members, beyond its
    own line: ("root", …) for the root object, ("nested", …) for the others."""
    text = text.removeprefix("\ufeff")
    root = parse(text, trailing=True).root
    found = set()
    for node in _nodes(root):
        starts = [m.key_start for m in node.members] + [item.start for item in node.items]
        if starts and "\n" in text[node.start : starts[0]]:
            base, inner = line_indent(text, node.start), line_indent(text, starts[0])
            found.add(("root" if node is root else "nested", inner.removeprefix(base)))
    return found


def _assert_in_style(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    """Every number in a changed file was written so somewhere in the folder before, and every
    indentation step is one the file used at that level; returns the changed files."""
    known = {w for data in before.values() for w in literals(data.decode("utf-8"))}
    changed = [f for f in after if f.endswith(".json") and after[f] != before.get(f)]
    for file in changed:
        text = after[file].decode("utf-8")
        assert set(literals(text)) <= known, (file, set(literals(text)) - known)
        if file in before:
            old = steps(before[file].decode("utf-8"))
            levels = {level for level, _ in old}
            new = {(level, step) for level, step in steps(text) if level in levels}
            assert new <= old, (file, new - old)
    return changed


FOLDERS = sorted(p.name for p in CORPUS.iterdir() if (p / "swervedrive.json").is_file())


@pytest.mark.parametrize("name", FOLDERS)
def test_corpus_folders_migrate_in_their_own_style(tmp_path: Path, name: str) -> None:
    directory = copy_config(tmp_path, CORPUS / name)
    before = snapshot(directory)
    migrate(directory)
    _assert_in_style(before, snapshot(directory))


def test_corpus_numbers_keep_their_digits_and_new_objects_their_file_s_nesting(
    tmp_path: Path,
) -> None:
    """bearbots writes its drive factor with 34 digits (a float keeps 17); 2145 indents 4 spaces
    at the top and 2 below, and migrate creates objects two levels down."""
    bearbots = copy_config(tmp_path, CORPUS / "bearbots-g2024")
    migrate(bearbots)
    physical = (bearbots / PHYSICAL).read_text()
    assert '"drive": {\n      "factor": 0.0453801486585422767857142857142857\n    }' in physical
    team_2145 = copy_config(tmp_path, CORPUS / "2145-swerve2024")
    migrate(team_2145)
    physical = (team_2145 / PHYSICAL).read_text()
    expected = (
        '    "conversionFactors": {\n      "angle": {\n        "factor": 16.8\n      },\n'
        '      "drive": {\n        "factor": 0.05407383195\n      }\n    },\n'
    )
    assert expected in physical


def _four_then_two(text: str) -> str:
    """A 2-space json.dumps text re-indented as some teams write: 4 spaces at the top, 2 below."""
    lines = text.split("\n")
    return "\n".join(
        [lines[0], *("  " + line if line.strip() not in ("}", "") else line for line in lines[1:])]
    )


STYLES = ("2 spaces", "4 then 2", "tabs", "CRLF", "one line")


def _restyle(directory: Path, style: str) -> None:
    for path in sorted(directory.rglob("*.json")):
        data = json.loads(path.read_text())
        if style == "one line":
            text = json.dumps(data, separators=(",", ":"))
        else:
            text = json.dumps(data, indent="\t" if style == "tabs" else 2) + "\n"
            text = _four_then_two(text) if style == "4 then 2" else text
            text = text.replace("\n", "\r\n") if style == "CRLF" else text
        path.write_bytes(text.encode())


def _write_numbers(directory: Path, file: str, numbers: dict[str, str]) -> None:
    """Replace each ``"key": value`` member's number text (as json.dumps wrote it) by another
    text for about the same number."""
    path = directory / file
    text = path.read_bytes().decode()
    for old, new in numbers.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_bytes(text.encode())


@pytest.mark.parametrize("style", STYLES)
def test_moved_numbers_keep_their_text_and_new_objects_follow_the_file(
    tmp_path: Path, style: str
) -> None:
    directory = write(tmp_path / "old", season_2023())
    _restyle(directory, style)
    colon = ":" if style == "one line" else ": "
    _write_numbers(
        directory,
        PHYSICAL,
        {
            f'"wheelDiameter"{colon}4': f'"wheelDiameter"{colon}4.0',
            f'"drive"{colon}6.75': f'"drive"{colon}6.750',
            f'"angle"{colon}21.428571428571427': f'"angle"{colon}2.1428571428571427E1',
        },
    )
    _write_numbers(
        directory, DRIVE, {f'"optimalVoltage"{colon}11.5': f'"optimalVoltage"{colon}1.15e1'}
    )
    before = snapshot(directory)
    result = migrate(directory)
    assert result.changed and result.remaining == ()
    after = snapshot(directory)
    assert PHYSICAL in _assert_in_style(before, after)
    physical = after[PHYSICAL].decode()
    for number in ("4.0", "6.750", "2.1428571428571427E1", "1.15e1"):
        assert number in literals(physical)
    if style == "4 then 2":
        assert '\n    "conversionFactors": {\n      "angle": {\n        "gearRatio": ' in physical


@pytest.mark.parametrize("style", STYLES)
def test_a_2024_factor_keeps_its_text(tmp_path: Path, style: str) -> None:
    directory = write(tmp_path / "old", season_2024(drive=0.0473, angle=16.8))
    _restyle(directory, style)
    colon = ":" if style == "one line" else ": "
    _write_numbers(
        directory,
        PHYSICAL,
        {
            f'"drive"{colon}0.0473': f'"drive"{colon}4.730e-2',
            f'"angle"{colon}16.8': f'"angle"{colon}16.80',
        },
    )
    before = snapshot(directory)
    migrate(directory)
    after = snapshot(directory)
    _assert_in_style(before, after)
    assert literals(after[PHYSICAL].decode())[:2] == ["4.730e-2", "16.80"]
