"""Mutations of a valid configuration directory, shared by the fuzz test and benchmarks/fuzz_config.py.

Each mutation takes the files of a valid directory (relative path → text) and a random generator,
and returns damaged files. Loading the result must either succeed or raise ``ConfigError``: any
other exception (or a hang) is a bug.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
    except ValueError:  # already damaged by an earlier mutation
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
]


def mutate(rng: random.Random, files: Files, rounds: int = 3) -> tuple[Files, list[str]]:
    applied = []
    for _ in range(rng.randrange(1, rounds + 1)):
        mutation = rng.choice(MUTATIONS)
        files = mutation(rng, files)
        applied.append(mutation.__name__)
    return files, applied
