"""Typed, problem-collecting access to one JSON object of one configuration file.

Every getter records a :class:`Problem` (with file, field path, expectation, finding and position)
instead of raising, and returns a fallback so that validation can go on and report everything at
once. Keys never asked for are reported as warnings by :meth:`ObjectView.finish`, with the closest
known key suggested.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable
from typing import Any, Final

from swervelib.config.bounds import Range
from swervelib.config.errors import Problem, Severity
from swervelib.config.jsonpos import Document, LongInteger, PathKey, format_path
from swervelib.text import printable

# Unknown keys reported one by one in one object, then counted in a last warning; likewise
# duplicated keys in one file (a file of 40 000 stray keys would otherwise take seconds to list).
MAX_LISTED = 20


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final = _Required()
NULL_AS_ZERO: Final = "null (YAGSL would read 0, which is not usable here)"


def number_text(value: int | float) -> str:
    """A number as found in a file, short: ``12.5``, ``NaN``, ``an integer of about 400 digits``
    (``repr`` of an integer past 4300 digits raises, and a 400-digit one helps nobody)."""
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    sign = "a negative" if value < 0 else "an"
    if isinstance(value, LongInteger):
        return f"{sign} integer of {value.digits} digits"
    if value.bit_length() > 64:
        return f"{sign} integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    return repr(value)


def key_text(key: str) -> str:
    """A key (or other name from a file) to quote in a message: printable and at most 60 chars."""
    return printable(key, 60)


def describe(value: Any) -> str:
    """A short description of a JSON value for "found ..." in messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'} (a boolean)"
    if isinstance(value, float) and not math.isfinite(value):
        return number_text(value)
    if isinstance(value, int | float):
        return f"{number_text(value)} (a number)"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"{printable(repr(shown), 80)} (a string)"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__


def suggest(word: str, choices: Iterable[str]) -> str | None:
    """The closest of ``choices`` to ``word`` (case-insensitive first), or None."""
    options = list(choices)
    for option in options:
        if option.lower() == word.lower():
            return option
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not close:
        lowered = {option.lower(): option for option in options}
        close = [lowered[m] for m in difflib.get_close_matches(word.lower(), lowered, 1, 0.6)]
    return close[0] if close else None


class FileContext:
    """Problems of one file, with positions taken from its parsed document."""

    def __init__(self, file: str, document: Document, problems: list[Problem]) -> None:
        self.file = file
        self.document = document
        self.problems = problems

    def report(
        self,
        path: PathKey,
        message: str,
        *,
        expected: str | None = None,
        found: str | None = None,
        severity: Severity = Severity.ERROR,
    ) -> None:
        line, column = self.document.position(path)
        self.problems.append(
            Problem(
                self.file,
                format_path(path),
                message,
                expected=expected,
                found=found,
                line=line,
                column=column,
                severity=severity,
            )
        )

    def warn(
        self, path: PathKey, message: str, *, expected: str | None = None, found: str | None = None
    ) -> None:
        self.report(path, message, expected=expected, found=found, severity=Severity.WARNING)

    def root(self) -> ObjectView | None:
        value = self.document.value
        if not isinstance(value, dict):
            self.report(
                (), "the file must hold a JSON object", expected="{...}", found=describe(value)
            )
            return None
        if self.document.trailing is not None:
            line, column = self.document.trailing
            self.problems.append(
                Problem(
                    self.file,
                    "",
                    "text after the JSON object is ignored, as YAGSL does; delete it",
                    line=line,
                    column=column,
                    severity=Severity.WARNING,
                )
            )
        duplicates = self.document.duplicates
        for duplicate in duplicates[:MAX_LISTED]:
            self.problems.append(
                Problem(
                    self.file,
                    format_path(duplicate.path),
                    f"key appears twice in one object (first on line {duplicate.first_line})",
                    line=duplicate.line,
                    column=duplicate.column,
                )
            )
        if len(duplicates) > MAX_LISTED:
            rest = duplicates[MAX_LISTED]
            self.problems.append(
                Problem(
                    self.file,
                    format_path(rest.path),
                    f"and {len(duplicates) - MAX_LISTED} more keys that appear twice in one "
                    "object (not listed)",
                    line=rest.line,
                    column=rest.column,
                )
            )
        return ObjectView(self, (), value)


class ObjectView:
    """One JSON object inside a file."""

    def __init__(self, context: FileContext, path: PathKey, data: dict[str, Any]) -> None:
        self.context = context
        self.path = path
        self.data = data
        self.seen: set[str] = set()
        self.failed: set[str] = set()

    # -- reporting -------------------------------------------------------------------------------
    def error(self, key: str | None, message: str, **details: str | None) -> None:
        path = self.path if key is None else (*self.path, key)
        self.context.report(path, message, **details)  # type: ignore[arg-type]
        if key is not None:
            self.failed.add(key)

    def warn(self, key: str | None, message: str, **details: str | None) -> None:
        self.context.warn(self.path if key is None else (*self.path, key), message, **details)

    def null_read_as(self, key: str, value: str) -> None:
        """A JSON ``null`` where a number or boolean belongs: read as YAGSL does, said out loud."""
        self.warn(
            key,
            f"null is read as {value}, as YAGSL does; write {value} (or the intended value) "
            "to silence this",
            found="null",
        )

    @staticmethod
    def _zero_refused(
        zero: float,
        minimum: float | None,
        above: float | None,
        maximum: float | None,
        within: Range | None,
    ) -> bool:
        """Whether 0 (what YAGSL reads for null) is outside a field's accepted range."""
        return (
            (minimum is not None and zero < minimum)
            or (above is not None and zero <= above)
            or (maximum is not None and zero > maximum)
            or (within is not None and within.error(zero) is not None)
        )

    def ok(self, *keys: str) -> bool:
        """True when none of ``keys`` failed validation."""
        return not self.failed.intersection(keys)

    def has(self, key: str) -> bool:
        return key in self.data

    def ignore(self, *keys: str) -> None:
        """Accept ``keys`` without reading them (no unknown-key warning)."""
        self.seen.update(keys)

    def _fetch(self, key: str, default: Any, what: str) -> tuple[bool, Any]:
        self.seen.add(key)
        if key not in self.data:
            if default is REQUIRED:
                self.error(key, "required field is missing", expected=what)
            return False, default
        return True, self.data[key]

    # -- getters -----------------------------------------------------------------------------------
    def boolean(self, key: str, default: bool | _Required = REQUIRED) -> bool:
        present, value = self._fetch(key, default, "true or false")
        if not present:
            return value if isinstance(value, bool) else False
        if value is None:
            self.null_read_as(key, "false")
            return False
        if not isinstance(value, bool):
            self.error(key, "wrong type", expected="true or false", found=describe(value))
            return default if isinstance(default, bool) else False
        return value

    def number(
        self,
        key: str,
        default: float | _Required = REQUIRED,
        *,
        minimum: float | None = None,
        above: float | None = None,
        maximum: float | None = None,
        unit: str = "",
        within: Range | None = None,
    ) -> float:
        """A number; ``within`` (see :mod:`swervelib.config.bounds`) makes values outside its
        range errors and unusual ones warnings, each with the range and the reason."""
        if within is not None and within.unit:
            unit = unit or within.unit
        what = f"a number{f' ({unit})' if unit else ''}"
        present, value = self._fetch(key, default, what)
        fallback = float(default) if isinstance(default, int | float) else 0.0
        if not present:
            return fallback
        if value is None:  # YAGSL (Jackson) reads null into a number field as 0
            if self._zero_refused(0.0, minimum, above, maximum, within):
                self.error(key, "null is not a number", expected=what, found=NULL_AS_ZERO)
                return fallback
            self.null_read_as(key, "0")
            return 0.0
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.error(key, "wrong type", expected=what, found=describe(value))
            return fallback
        try:
            number = float(value)
        except OverflowError:  # an integer of 309 digits or more
            number = math.inf
        if not math.isfinite(number):
            message = "not a finite number" if isinstance(value, float) else "number too large"
            expected = within.expected() if within is not None else what
            self.error(key, message, expected=expected, found=describe(value))
            return fallback
        if minimum is not None and number < minimum:
            expected = f"a number >= {minimum:g}"
        elif above is not None and number <= above:
            expected = f"a number > {above:g}"
        elif maximum is not None and number > maximum:
            expected = f"a number <= {maximum:g}"
        elif within is not None and (why := within.error(number)) is not None:
            self.error(
                key, f"out of range: {why}", expected=within.expected(), found=number_text(value)
            )
            return fallback
        else:
            if within is not None and (oddity := within.warning(number)) is not None:
                self.warn(
                    key,
                    f"unusual value: {oddity}",
                    expected=within.usual(),
                    found=number_text(value),
                )
            return number
        self.error(key, "out of range", expected=expected, found=number_text(value))
        return fallback

    def integer(
        self,
        key: str,
        default: int | _Required = REQUIRED,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> int:
        present, value = self._fetch(key, default, "an integer")
        fallback = default if isinstance(default, int) else 0
        if not present:
            return fallback
        if value is None:  # read as 0, as YAGSL does
            if self._zero_refused(0, minimum, None, maximum, None):
                self.error(key, "null is not an integer", expected="an integer", found=NULL_AS_ZERO)
                return fallback
            self.null_read_as(key, "0")
            return 0
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and math.isfinite(value) and value.is_integer():
                found = f"{value!r} (write it without a decimal point)"
            else:
                found = describe(value)
            self.error(key, "wrong type", expected="an integer", found=found)
            return fallback
        low = "" if minimum is None else str(minimum)
        high = "" if maximum is None else str(maximum)
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            self.error(
                key,
                "out of range",
                expected=f"an integer in {low}..{high}",
                found=number_text(value),
            )
        return value

    def string(self, key: str, default: str | _Required | None = REQUIRED) -> str | None:
        present, value = self._fetch(key, default, "a string")
        if not present:
            return value if isinstance(value, str) else None
        if value is None and default is None:
            return None
        if not isinstance(value, str):
            expected = "a string or null" if default is None else "a string"
            self.error(key, "wrong type", expected=expected, found=describe(value))
            return default if isinstance(default, str) else None
        return value

    def obj(self, key: str, *, required: bool = True) -> ObjectView | None:
        present, value = self._fetch(key, REQUIRED if required else None, "an object")
        if not present:
            return None
        if not isinstance(value, dict):
            self.error(key, "wrong type", expected="an object", found=describe(value))
            return None
        return ObjectView(self.context, (*self.path, key), value)

    def array(self, key: str, *, required: bool = True) -> list[Any] | None:
        present, value = self._fetch(key, REQUIRED if required else None, "an array")
        if not present:
            return None
        if not isinstance(value, list):
            self.error(key, "wrong type", expected="an array", found=describe(value))
            return None
        return value

    def pair(
        self,
        key: str,
        default: tuple[float, float] | None,
        *,
        above: float | None = None,
        minimum: float | None = None,
        unit: str = "",
        within: Range | None = None,
    ) -> tuple[float, float]:
        """A ``{"drive": x, "angle": y}`` object; missing halves take the default."""
        fallback = default or (0.0, 0.0)
        view = self.obj(key, required=default is None)
        if view is None:
            return fallback
        pick: dict[str, float | _Required] = (
            {"drive": fallback[0], "angle": fallback[1]}
            if default
            else {"drive": REQUIRED, "angle": REQUIRED}
        )
        bounds: dict[str, Any] = {"above": above, "minimum": minimum, "unit": unit}
        if default:
            for half, value in pick.items():
                if not view.has(half):  # YAGSL (Jackson) reads 0 for a half left out
                    view.warn(
                        half,
                        f"missing: swervelib uses {value:g}{unit}, its default for `{key}`, where "
                        "YAGSL would read 0; write the value you want to silence this",
                    )
        drive = view.number("drive", pick["drive"], within=within, **bounds)
        angle = view.number("angle", pick["angle"], within=within, **bounds)
        view.finish()
        return drive, angle

    def finish(self, known_elsewhere: Iterable[str] = ()) -> None:
        """Warn about every key that nothing asked for, suggesting the closest known key."""
        self.seen.add("$schema")
        known = self.seen | set(known_elsewhere)
        unknown = [key for key in self.data if key not in known]
        for key in unknown[:MAX_LISTED]:
            close = suggest(key, sorted(known - {"$schema"}))
            hint = f", did you mean `{close}`?" if close else " (ignored)"
            self.warn(key, f"unknown key `{key_text(key)}` in {self.context.file}{hint}")
        if len(unknown) > MAX_LISTED:
            self.warn(
                unknown[MAX_LISTED],
                f"and {len(unknown) - MAX_LISTED} more unknown keys in {self.context.file} "
                "(ignored, not listed)",
            )
