"""``reassign DIRECTORY SOURCE=DEST ...``: move modules' hardware between arbitrary module files.

The spec (§2.5) asks for each module file's ``drive``, ``angle`` and ``encoder`` ids to match the
module's physical position, and for the ids to be re-assigned among the module files when they do
not (the robot, spun counter-clockwise with powered wheels, does not spin as expected; in
``calibrate``, turning one module moves another module's readings). ``flip`` is the one fixed
re-assignment (each module with its diagonal); this is any of them.

``SOURCE=DEST`` reads "the devices ``SOURCE``'s file names are physically at ``DEST``'s corner":
everything that belongs to that physical module (:data:`~swervelib.tools.flip.TRAVELLING_FIELDS`:
the devices, both ``inverted`` flags, ``absoluteEncoderInverted``, ``absoluteEncoderOffset`` and a
module's own ``conversionFactors``) moves from ``SOURCE``'s file to ``DEST``'s. ``location`` and
every other key stay with the file, which is a position on the robot. The offset moves unchanged:
it is the encoder's reading with that physical module's wheel facing the robot's front, wherever
the module sits.

The moves must say where every moved module's hardware goes and what takes its place: together
they are a permutation of the named modules (two swapped: ``frontleft=frontright
frontright=frontleft``; three in a ring: ``a=b b=c c=a``). Each ring is carried out as exchanges of
two files (the same text-for-text exchange as ``flip``), so the moves reversed
(``b=a c=b a=c``) give back the same bytes, with ``flip``'s one documented exception.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise
from pathlib import PurePosixPath
from typing import Literal

from swervelib.text import printable
from swervelib.tools.edit import ConfigEditor, EditError, EditResult, FaultHook
from swervelib.tools.fieldpath import MODULES_DIR
from swervelib.tools.flip import TRAVELLING_FIELDS
from swervelib.tools.shell_words import cmd_word, posix_word, powershell_word, shared_windows_word

Move = tuple[str, str]
"""``(source, destination)``: the hardware in ``source``'s file goes to ``destination``'s."""


def _splits(text: str) -> list[Move]:
    """``text`` split at each of its ``=`` that has something besides spaces on both sides (a
    module name may hold ``=``), the sides as written."""
    return [
        (text[:index], text[index + 1 :])
        for index, char in enumerate(text)
        if char == "=" and text[:index].strip() and text[index + 1 :].strip()
    ]


def _shown(name: str) -> str:
    """A module name for a message: as it is, or quoted when spaces around it (or a comma or
    quote in it) would not show."""
    if name and name == name.strip() and not any(c in name for c in ",'\"\\"):
        return printable(name)
    return printable(repr(name))


def _read_move(text: str, modules: Sequence[str] | None) -> Move | str:
    """The move ``text`` says, or why it is not one. Without ``modules``: split at its one
    ``=``, spaces around each side dropped. With them: split where each side names a module (a
    text with several ``=``, one of them in a name, is split where both sides are modules), each
    side the module it names (:func:`module_candidates`); a side that names no module, or
    several, is kept as written for :func:`plan_moves` to explain."""
    splits = _splits(text)
    if modules is None:
        if len(splits) != 1:
            return printable(repr(text))
        source, destination = splits[0]
        return source.strip(), destination.strip()
    readings = [
        (
            source,
            destination,
            module_candidates(source, modules),
            module_candidates(destination, modules),
        )
        for source, destination in splits
    ]
    fitting = [r for r in readings if r[2] and r[3]]
    if len(fitting) > 1:
        ways = ", or ".join(
            f"{' or '.join(map(_shown, s))}'s devices to {' or '.join(map(_shown, d))}"
            for _, _, s, d in fitting
        )
        return (
            f"{printable(repr(text))} (it reads as {ways}: name the modules as files, e.g. "
            "SOURCE.json=DEST.json, to say which)"
        )
    if len(fitting) == 1:
        source, destination, sources, destinations = fitting[0]
    elif len(splits) == 1:
        (source, destination), sources, destinations = splits[0], [], []
    else:
        return printable(repr(text))
    return (
        sources[0] if len(sources) == 1 else source,
        destinations[0] if len(destinations) == 1 else destination,
    )


def parse_moves(texts: Iterable[str], modules: Sequence[str] | None = None) -> list[Move]:
    """Each ``"SOURCE=DEST"`` as a pair of names; :class:`EditError` naming every text that is
    not one. With the module names ``modules``, each side is read as the module it names (exactly
    as written, else ignoring spaces around it: :func:`module_candidates`), and a text with
    several ``=`` is split where both sides name modules (``fl=1=fr=2`` is ``fl=1``'s hardware to
    ``fr=2``), refused if that is not one place."""
    moves: list[Move] = []
    bad: list[str] = []
    for text in texts:
        move = _read_move(text, modules)
        if isinstance(move, str):
            bad.append(move)
        else:
            moves.append(move)
    if bad:
        raise EditError(
            f"not a move: {', '.join(bad)}. Write SOURCE=DEST, e.g. frontleft=frontright (the "
            "devices modules/frontleft.json names are at the front-right corner)"
        )
    return moves


def _stem(file: str) -> str:
    return PurePosixPath(file).stem


def _file_stem(name: str) -> str:
    return name.replace("\\", "/").removeprefix(f"{MODULES_DIR}/").removesuffix(".json")


def module_candidates(name: str, modules: Sequence[str]) -> list[str]:
    """The modules of ``modules`` (the file stems) that ``name`` may mean: ``frontleft``,
    ``frontleft.json`` and ``modules/frontleft.json`` all name the same module. The module it
    names exactly, if any; else every module it names once the spaces around both are ignored
    (`` fl`` in swervedrive.json is named by ``fl``, and by `` fl`` exactly even when there is an
    ``fl`` too); empty when it names none."""
    stem = _file_stem(name)
    if stem in modules:
        return [stem]
    loose = _file_stem(name.strip()).strip()
    return [module for module in modules if module.strip() == loose]


def _cycles(moves: dict[str, str], order: Sequence[str]) -> list[list[str]]:
    """The permutation ``moves`` as rings, each starting at its first module in ``order`` (so
    a permutation and its inverse are carried out as the same exchanges in reverse order)."""
    rings: list[list[str]] = []
    seen: set[str] = set()
    for start in order:
        if start not in moves or start in seen:
            continue
        ring = [start]
        seen.add(start)
        following = moves[start]
        while following != start:
            ring.append(following)
            seen.add(following)
            following = moves[following]
        rings.append(ring)
    return rings


def plan_moves(moves: Iterable[Move], modules: Sequence[str]) -> dict[str, str]:
    """Check ``moves`` against the module names ``modules`` (in swervedrive.json's order) and
    return them as ``{source: destination}``; :class:`EditError` naming every problem."""
    planned: dict[str, str] = {}
    problems: list[str] = []
    arrivals: dict[str, str] = {}
    listed = ", ".join(_shown(n) for n in modules)
    for raw_source, raw_destination in moves:
        named = [module_candidates(raw, modules) for raw in (raw_source, raw_destination)]
        for raw, candidates in zip((raw_source, raw_destination), named, strict=True):
            if not candidates:
                problems.append(
                    f"no module named {printable(repr(raw))} (swervedrive.json lists {listed})"
                )
            elif len(candidates) > 1:
                problems.append(
                    f"{printable(repr(raw))} could be any of {', '.join(map(_shown, candidates))} "
                    "(names that differ only in the spaces around them): write the name exactly "
                    "as swervedrive.json lists it, quoted for the shell"
                )
        if any(len(candidates) != 1 for candidates in named):
            continue
        source, destination = named[0][0], named[1][0]
        shown_source, shown_destination = _shown(source), _shown(destination)
        if source == destination:
            problems.append(f"{shown_source}={shown_destination} moves nothing")
            continue
        if source in planned:
            problems.append(
                f"{shown_source}'s hardware is sent to both {_shown(planned[source])} and "
                f"{shown_destination}"
            )
            continue
        if destination in arrivals:
            problems.append(
                f"{shown_destination} is given the hardware of both "
                f"{_shown(arrivals[destination])} and {shown_source}"
            )
            continue
        planned[source] = destination
        arrivals[destination] = source
    if not planned and not problems:
        problems.append("no move given")
    for start in modules:  # an open chain: start's corner left empty, its end's hardware unsent
        if start in planned and start not in arrivals:
            chain = [start]
            while chain[-1] in planned:
                chain.append(planned[chain[-1]])
            end = chain[-1]
            given = " ".join(f"{_shown(a)}={_shown(b)}" for a, b in pairwise(chain))
            first, last = _shown(start), _shown(end)
            problems.append(
                f"{given} leaves {first}'s corner without hardware and sends {last}'s nowhere: "
                f"add {last}={first} if {last}'s devices are at {first}'s corner"
            )
    if problems:
        raise EditError("cannot reassign:\n" + "\n".join(f"  {p}" for p in problems))
    return planned


def apply_moves(editor: ConfigEditor, moves: Iterable[Move]) -> list[list[str]]:
    """Stage the moves in ``editor``; returns the rings carried out (module names)."""
    files = {_stem(file): file for file in editor.module_files()}
    planned = plan_moves(moves, list(files))
    rings = _cycles(planned, list(files))
    for ring in rings:
        first = files[ring[0]]
        for other in ring[1:]:
            editor.exchange_members(first, files[other], TRAVELLING_FIELDS)
    return rings


def describe_rings(rings: Sequence[Sequence[str]]) -> str:
    """``frontleft↔frontright`` for a swap, ``a→b→c→a`` for a longer ring."""
    parts = []
    for ring in rings:
        names = [_shown(name) for name in ring]
        if len(names) == 2:
            parts.append(f"{names[0]}↔{names[1]}")
        else:
            parts.append("→".join([*names, names[0]]))
    return ", ".join(parts)


def reassign_modules(
    directory: str | os.PathLike[str],
    moves: Iterable[Move],
    *,
    dry_run: bool = False,
    fault_hook: FaultHook | None = None,
) -> EditResult:
    """Move each ``(source, destination)``'s hardware fields from ``source``'s module file to
    ``destination``'s (names as in swervedrive.json's ``modules``, with or without ``.json``);
    refuses moves that are not a permutation of the modules they name."""
    return _reassign(directory, lambda _modules: list(moves), dry_run, fault_hook)


def reassign_texts(
    directory: str | os.PathLike[str],
    texts: Iterable[str],
    *,
    dry_run: bool = False,
    fault_hook: FaultHook | None = None,
) -> EditResult:
    """:func:`reassign_modules` with the moves as ``SOURCE=DEST`` texts (the command line's),
    read against the directory's module names (:func:`parse_moves`)."""
    return _reassign(directory, lambda modules: parse_moves(texts, modules), dry_run, fault_hook)


def _reassign(
    directory: str | os.PathLike[str],
    moves_for: Callable[[list[str]], list[Move]],
    dry_run: bool,
    fault_hook: FaultHook | None,
) -> EditResult:
    with ConfigEditor(directory, dry_run=dry_run, fault_hook=fault_hook) as editor:
        modules = [_stem(file) for file in editor.module_files()]
        rings = apply_moves(editor, moves_for(modules))
        return editor.commit(f"reassign ({describe_rings(rings)})")


Shell = Literal["posix", "cmd", "powershell"]
_QUOTE: dict[Shell, Callable[[str], str]] = {
    "posix": posix_word,
    "cmd": cmd_word,
    "powershell": powershell_word,
}
POSIX_PROGRAM = "python -m swervelib"
WINDOWS_PROGRAM = "py -m swervelib"  # the launcher: `python` is often not on a Windows PATH


def _swap_words(directory: str, a: str, b: str) -> list[str]:
    """``reassign DIRECTORY a=b b=a`` as words, with ``--`` first when a word would otherwise
    be read as an option (it starts with ``-``)."""
    words = [directory, f"{a}={b}", f"{b}={a}"]
    return ["reassign", *(["--"] if any(w.startswith("-") for w in words) else []), *words]


def swap_command(directory: str, a: str, b: str, shell: Shell = "posix") -> str:
    """The command that exchanges two modules' hardware (what ``calibrate`` suggests), each word
    quoted for ``shell`` (:mod:`swervelib.tools.shell_words`): module names may hold spaces,
    ``=`` or shell characters, and ``directory`` is given whole (never cut)."""
    program = POSIX_PROGRAM if shell == "posix" else WINDOWS_PROGRAM
    quote = _QUOTE[shell]
    return " ".join([program, *(quote(word) for word in _swap_words(directory, a, b))])


def on_windows() -> bool:
    """Whether the person types commands on Windows (``cmd.exe`` or PowerShell)."""
    return os.name == "nt"


def swap_commands(directory: str, a: str, b: str) -> list[tuple[str, str]]:
    """``(where, command)`` for each command to show: on Windows one command read alike by
    ``cmd.exe`` and PowerShell when there is one (``where`` empty), else one for each
    (``where`` ``cmd.exe`` and ``PowerShell``); elsewhere the POSIX shell's, ``where`` empty."""
    if not on_windows():
        return [("", swap_command(directory, a, b, "posix"))]
    shared = [shared_windows_word(word) for word in _swap_words(directory, a, b)]
    if all(word is not None for word in shared):
        return [("", " ".join([WINDOWS_PROGRAM, *(w for w in shared if w is not None)]))]
    return [
        ("cmd.exe", swap_command(directory, a, b, "cmd")),
        ("PowerShell", swap_command(directory, a, b, "powershell")),
    ]
