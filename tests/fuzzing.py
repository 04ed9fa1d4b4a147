"""Mutations of a valid configuration directory, shared by the fuzz test and benchmarks/fuzz_config.py.

Each mutation takes the files of a valid directory (relative path → text) and a random generator,
and returns damaged files. Loading the result must either succeed or raise ``ConfigError``: any
other exception (or a hang) is a bug, and so is a problem whose text is not printable as it is
(see :func:`problems_printable`).

Besides wrong types and broken syntax, the attack cases of issue 12: integers of 309 to 900 000
digits, numbers that overflow to infinity or underflow to subnormals, NaN and Infinity literals,
lone surrogates, ANSI escapes, bidi overrides and NUL in names, keys, types and bus names, and
nesting 100 000 levels deep.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from swervelib.text import is_printable

Files = dict[str, str]

WEIRD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    2**70,
    -(2**63),
    1e308,
    -1e308,
    5e-324,
    1e-300,
    1e300,
    2**31,
    2**31 - 1,
    10**400,
    -(10**330),
    float("nan"),
    float("inf"),
    float("-inf"),
    "",
    "sparkmax",
    "cancoder",
    "pigeon2",
    "../../etc/passwd",
    "/abs/path.json",
    "C:\\x.json",
    "\x00",
    "ünïcödé ✓ 🚀",
    "\u202e",
    "\udc80",
    "\ud800",
    "\x1b[31mred\x1b[0m",
    "left\u202ethgir",
    "can\x00ivore",
    "\r\n",
    "a" * 10_000,
    [],
    {},
    [1, 2, 3],
    {"type": "sparkmax", "id": 1},
    {"front": 1},
]


def read_directory(directory: Path) -> Files:
    return {
        str(path.relative_to(directory)): path.read_text()
        for path in sorted(directory.rglob("*.json"))
    }


def write_directory(directory: Path, files: Files) -> None:
    for relative, text in files.items():
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", errors="surrogatepass")


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


def _dumps(value: Any) -> str:
    return json.dumps(value, indent=2, allow_nan=True)


def _structural(rng: random.Random, files: Files, change: Callable[[Any, Any, Any], None]) -> Files:
    name = rng.choice(sorted(files))
    try:
        document = json.loads(files[name])
    except (ValueError, RecursionError):  # already damaged by an earlier mutation
        return files
    paths = [p for p in _paths(document) if p]
    if not paths:
        return files
    path = rng.choice(paths)
    parent = document
    for part in path[:-1]:
        parent = parent[part]
    change(parent, path[-1], document)
    return {**files, name: _dumps(document)}


def replace_value(rng: random.Random, files: Files) -> Files:
    def change(parent: Any, key: Any, _: Any) -> None:
        parent[key] = rng.choice(WEIRD_VALUES)

    return _structural(rng, files, change)


def delete_key(rng: random.Random, files: Files) -> Files:
    def change(parent: Any, key: Any, _: Any) -> None:
        del parent[key]

    return _structural(rng, files, change)


def rename_key(rng: random.Random, files: Files) -> Files:
    def change(parent: Any, key: Any, _: Any) -> None:
        if isinstance(parent, dict):
            parent[str(key) + rng.choice(["x", "", "_", "É"])[::-1]] = parent.pop(key)

    return _structural(rng, files, change)


def deep_nesting(rng: random.Random, files: Files) -> Files:
    def change(parent: Any, key: Any, _: Any) -> None:
        value: Any = 1
        for _ in range(rng.choice([10, 100, 1000])):
            value = [value] if rng.random() < 0.5 else {"k": value}
        parent[key] = value

    name = rng.choice(sorted(files))
    try:
        return _structural(rng, {name: files[name]}, change) | {
            k: v for k, v in files.items() if k != name
        }
    except RecursionError:
        return files


def duplicate_key(rng: random.Random, files: Files) -> Files:
    name = rng.choice(sorted(files))
    text = files[name]
    index = text.find("{")
    if index < 0:
        return files
    key = rng.choice(['"drive"', '"id"', '"modules"', '"inverted"', '"location"'])
    return {**files, name: text[: index + 1] + f" {key}: 1," + text[index + 1 :]}


def text_damage(rng: random.Random, files: Files) -> Files:
    name = rng.choice(sorted(files))
    text = files[name]
    at = rng.randrange(len(text) + 1)
    kind = rng.randrange(5)
    if kind == 0:
        damaged = text[:at]
    elif kind == 1:
        damaged = (
            text[:at]
            + rng.choice(["{", "}", "[", "]", ",", ":", '"', "\\", "\x00", "\ufeff"])
            + text[at:]
        )
    elif kind == 2:
        damaged = text[:at] + text[at + rng.randrange(1, 20) :]
    elif kind == 3:
        damaged = text[:at] + "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(8)) + text[at:]
    else:
        damaged = text * rng.choice([2, 3])
    return {**files, name: damaged}


# Text that a JSON file can carry and a terminal or a vendor library cannot: lone surrogates
# (as JSON escapes: a raw one is not UTF-8), ANSI escapes, bidi overrides, NUL, line breaks.
HOSTILE_TEXT = [
    "\\udc80",
    "\\ud800x",
    "\\u001b[2J\\u001b[31m",
    "\\u202eevil",
    "\\u2066x\\u2069",
    "can\\u0000ivore",
    "line\\nbreak",
    "\\u0085\\u2028",
    "\\uffff\\ue000",
]
# Number literals that Python's json module would turn into crashes or silent nonsense.
HOSTILE_NUMBERS = [
    "9" * 309,
    "-" + "9" * 400,
    "1" * 4300,
    "7" * 5000,
    "1" * 200_000,
    "1e400",
    "-1e400",
    "1e-400",
    "5e-324",
    "2.5e-308",
    "NaN",
    "Infinity",
    "-Infinity",
    "2147483648",
    "-0.0",
    "0." + "0" * 5000 + "1",
]
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _replace_one(rng: random.Random, text: str, pattern: re.Pattern[str], new: str) -> str:
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    match = rng.choice(matches)
    return text[: match.start()] + new + text[match.end() :]


def hostile_number(rng: random.Random, files: Files) -> Files:
    """A number literal (a value or an id) replaced by one of :data:`HOSTILE_NUMBERS`."""
    name = rng.choice(sorted(files))
    return {**files, name: _replace_one(rng, files[name], _NUMBER, rng.choice(HOSTILE_NUMBERS))}


def hostile_text(rng: random.Random, files: Files) -> Files:
    """A string (a key, a type, a module name, a bus name) with :data:`HOSTILE_TEXT` inside."""
    name = rng.choice(sorted(files))
    text = files[name]
    matches = list(_STRING.finditer(text))
    if not matches:
        return files
    match = rng.choice(matches)
    inner = match.group()[1:-1]
    at = rng.randrange(len(inner) + 1)
    damaged = '"' + inner[:at] + rng.choice(HOSTILE_TEXT) + inner[at:] + '"'
    return {**files, name: text[: match.start()] + damaged + text[match.end() :]}


def deep_raw(rng: random.Random, files: Files) -> Files:
    """Nesting far beyond any recursion limit, written as raw text (json.dumps cannot)."""
    name = rng.choice(sorted(files))
    depth = rng.choice([65, 1_000, 100_000])
    opener, closer = rng.choice([("[", "]"), ('{"k":', "}")])
    nested = opener * depth + "1" + closer * depth * rng.randrange(2)
    return {**files, name: _replace_one(rng, files[name], _NUMBER, nested)}


def huge_file(rng: random.Random, files: Files) -> Files:
    name = rng.choice(sorted(files))
    padding = " " * rng.choice([10_000, 2_000_000])
    return {**files, name: files[name] + padding}


def remove_file(rng: random.Random, files: Files) -> Files:
    name = rng.choice(sorted(files))
    return {k: v for k, v in files.items() if k != name}


MUTATIONS: list[Callable[[random.Random, Files], Files]] = [
    replace_value,
    replace_value,
    replace_value,
    delete_key,
    rename_key,
    deep_nesting,
    duplicate_key,
    text_damage,
    text_damage,
    huge_file,
    remove_file,
    hostile_number,
    hostile_number,
    hostile_text,
    hostile_text,
    deep_raw,
]


def problems_printable(problems: Iterable[Any]) -> list[str]:
    """The formatted problems whose text is not printable as it is (should be none: every field
    of a Problem goes through swervelib.text.printable)."""
    bad = []
    for problem in problems:
        line = problem.format()
        parts = (problem.file, problem.field, problem.message, problem.expected, problem.found)
        if not is_printable(line) or not all(is_printable(p) for p in parts if p is not None):
            bad.append(line)
    return bad


def mutate(rng: random.Random, files: Files, rounds: int = 3) -> tuple[Files, list[str]]:
    applied = []
    for _ in range(rng.randrange(1, rounds + 1)):
        mutation = rng.choice(MUTATIONS)
        files = mutation(rng, files)
        applied.append(mutation.__name__)
    return files, applied
