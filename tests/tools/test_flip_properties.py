"""flip, as properties: for generated pairs of module files (any subset and order of the members
that move, unknown keys, each file in its own style), flipping twice gives back the same bytes and
a flip keeps every other key where it was."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from swervelib.config import load_directory
from swervelib.tools.flip import TRAVELLING_FIELDS, flip_modules
from swervelib.tools.splice import exchange_members
from tests.tools import DEPLOY, snapshot

MOVING = frozenset(TRAVELLING_FIELDS)
KEPT = ("location", "useCosineCompensator", "_comment", "teamNote", "spare")
"""Keys that stay with the file: ``location`` (always there) and keys flip does not know."""

STYLES: tuple[dict[str, Any], ...] = (
    {"indent": 2},
    {"indent": 4},
    {"indent": "\t"},
    {},  # one line, ", " and ": "
    {"separators": (",", ":")},  # compact
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text("abc xyz_-", max_size=6)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(("type", "id", "drive", "angle", "k")), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def styles(draw: st.DrawFn) -> tuple[dict[str, Any], bool, bool]:
    """json.dumps arguments, CRLF line ends, a final line end."""
    return draw(st.sampled_from(STYLES)), draw(st.booleans()), draw(st.booleans())


def render(members: list[tuple[str, Any]], style: tuple[dict[str, Any], bool, bool]) -> str:
    arguments, crlf, final = style
    text = json.dumps(dict(members), ensure_ascii=False, **arguments)
    if "indent" in arguments:
        text += "\n" if final else ""
        if crlf:
            text = text.replace("\n", "\r\n")
    return text


@st.composite
def module_text(
    draw: st.DrawFn, kept: list[str], style: tuple[dict[str, Any], bool, bool]
) -> tuple[str, list[tuple[str, Any]]]:
    """One module file's text and its members: the ``kept`` keys and any moving ones, any order."""
    moving = draw(st.lists(st.sampled_from(TRAVELLING_FIELDS), unique=True))
    keys = draw(st.permutations([*kept, *moving]))
    members = [(key, draw(values)) for key in keys]
    return render(members, style), members


@st.composite
def pairs(draw: st.DrawFn, same_kept: bool) -> tuple[tuple[str, list[Any]], tuple[str, list[Any]]]:
    """Two module files; with ``same_kept`` both have the same kept keys (in any order each)."""
    kept_a = ["location", *draw(st.lists(st.sampled_from(KEPT[1:]), unique=True))]
    kept_b = (
        kept_a
        if same_kept
        else ["location", *draw(st.lists(st.sampled_from(KEPT[1:]), unique=True))]
    )
    return (
        draw(module_text(kept_a, draw(styles()))),
        draw(module_text(kept_b, draw(styles()))),
    )


def _keys(text: str) -> list[str]:
    return list(json.loads(text))


def _kept(keys: list[str]) -> list[str]:
    return [key for key in keys if key not in MOVING]


def _check_one_exchange(
    a: tuple[str, list[tuple[str, Any]]], b: tuple[str, list[tuple[str, Any]]], new_a: str
) -> None:
    """``new_a``: ``a``'s other keys in their order and with their values, and ``b``'s moving
    members."""
    (text_a, members_a), (_, members_b) = a, b
    result = json.loads(new_a)
    assert _kept(_keys(new_a)) == _kept(_keys(text_a))
    assert {k: v for k, v in result.items() if k not in MOVING} == {
        k: v for k, v in members_a if k not in MOVING
    }
    assert {k: v for k, v in result.items() if k in MOVING} == {
        k: v for k, v in members_b if k in MOVING
    }


@settings(max_examples=300)
@given(pairs(same_kept=True))
def test_exchanging_twice_gives_back_the_same_bytes(pair: Any) -> None:
    a, b = pair
    new_a, new_b = exchange_members(a[0], b[0], (), TRAVELLING_FIELDS)
    _check_one_exchange(a, b, new_a)
    _check_one_exchange(b, a, new_b)
    assert exchange_members(new_a, new_b, (), TRAVELLING_FIELDS) == (a[0], b[0])


def _comes_back(text: str, other: str, key: str) -> bool:
    """Whether the documented rule brings ``key`` (moving, in ``text`` only) back to its place.
    The keys that stay where they are (all but the moving members only one file has) place it:
    it comes back when the staying key just before it is one ``other`` has too, or when no shared
    staying key comes before it and the staying key just after it is shared, or when the files
    share no staying key and it is first."""
    keys, other_keys = _keys(text), _keys(other)
    staying = [k for k in keys if k not in MOVING or k in other_keys]
    shared = {k for k in other_keys if k not in MOVING or k in keys} & set(staying)
    index = keys.index(key)
    before = [k for k in keys[:index] if k in staying]
    after = [k for k in keys[index + 1 :] if k in staying]
    if before and before[-1] in shared:
        return True
    if not any(k in shared for k in before) and after and after[0] in shared:
        return True
    return not before and not shared


@settings(max_examples=300)
@given(pairs(same_kept=False))
def test_keys_only_one_file_has_keep_their_order_and_values(pair: Any) -> None:
    """With unknown keys only one file has, no rule can restore every layout (``{"_note", "k"}``
    and ``{"k", "_note"}`` flip to the same pair of files when the other file lacks both keys):
    every other key still keeps its place, every value comes back, and the bytes come back when
    each member that only one file has is next to a key both files have."""
    a, b = pair
    new_a, new_b = exchange_members(a[0], b[0], (), TRAVELLING_FIELDS)
    _check_one_exchange(a, b, new_a)
    _check_one_exchange(b, a, new_b)
    back_a, back_b = exchange_members(new_a, new_b, (), TRAVELLING_FIELDS)
    assert json.loads(back_a) == json.loads(a[0]) and json.loads(back_b) == json.loads(b[0])
    assert _kept(_keys(back_a)) == _kept(_keys(a[0]))
    only_a = [k for k in _keys(a[0]) if k in MOVING and k not in _keys(b[0])]
    only_b = [k for k in _keys(b[0]) if k in MOVING and k not in _keys(a[0])]
    if all(_comes_back(a[0], b[0], k) for k in only_a) and all(
        _comes_back(b[0], a[0], k) for k in only_b
    ):
        assert (back_a, back_b) == (a[0], b[0])


# -- the same through `flip` on whole folders ----------------------------------------------------

UNKNOWN: dict[str, Any] = {"_comment": "module", "teamNote": {"spare": False}, "serial": 1234}
NAMES = ("frontleft", "frontright", "backleft", "backright")


@st.composite
def optional_members(draw: st.DrawFn) -> dict[str, Any]:
    """Some of the members a module file may leave out, with values of their own."""
    members = {
        "absoluteEncoderInverted": draw(st.booleans()),
        "conversionFactors": {
            "angle": {"gearRatio": draw(st.sampled_from((12.8, 21.4, 150 / 7)))},
            "drive": {"gearRatio": draw(st.sampled_from((6.75, 8.14))), "diameter": 4},
        },
    }
    keys = draw(st.lists(st.sampled_from(sorted(members)), unique=True))
    return {key: members[key] for key in keys}


@st.composite
def module_layouts(draw: st.DrawFn) -> dict[str, tuple[list[tuple[str, Any]], Any]]:
    """For each module: its members in any order (the required ones, some optional ones and the
    unknown keys every module has) and its style."""
    unknown = draw(st.lists(st.sampled_from(sorted(UNKNOWN)), unique=True))
    layouts = {}
    for name in NAMES:
        data = json.loads((DEPLOY / "swerve" / "modules" / f"{name}.json").read_text())
        data["inverted"] = {"drive": draw(st.booleans()), "angle": draw(st.booleans())}
        data.update(draw(optional_members()))
        data.update((key, UNKNOWN[key]) for key in unknown)
        keys = draw(st.permutations(list(data)))
        layouts[name] = ([(key, data[key]) for key in keys], draw(styles()))
    return layouts


@settings(max_examples=40)
@given(module_layouts())
def test_flip_twice_gives_back_every_generated_folder(layouts: Any) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary) / "swerve"
        shutil.copytree(DEPLOY / "swerve", directory)
        for name, (members, style) in layouts.items():
            path = directory / "modules" / f"{name}.json"
            path.write_text(render(members, style), newline="")
        load_directory(directory)
        before = snapshot(directory)
        flip_modules(directory)
        middle = snapshot(directory)
        for file, text in before.items():
            if file.startswith("modules/") and file.removeprefix("modules/")[:-5] in NAMES:
                assert _kept(_keys(middle[file].decode())) == _kept(_keys(text.decode()))
        flip_modules(directory)
        assert snapshot(directory) == before
