"""Models of how Windows shells turn a typed line into a Python program's ``sys.argv``.

No ``cmd.exe`` or PowerShell here: these follow their documented parsing, on the side of caution
(every ``%NAME%`` that could be a variable is taken as one), to check the commands swervelib prints
for them (:mod:`swervelib.tools.shell_words`).

* :func:`cmd_prompt`: ``cmd.exe`` at the interactive prompt. Percent phase first: ``%NAME%``
  becomes the variable's value when ``NAME`` (up to a ``:``) is defined, even between double
  quotes; an undefined one stays and the scan goes on from its second ``%``. Here every name is
  defined except the empty one and those starting with ``^`` (the most any environment could
  hold). Then the special-character phase: outside double quotes ``^`` makes the next character
  plain (at the end of the line it asks for a continuation line), ``&`` ``|`` ``<`` ``>`` end the
  command or redirect it; every ``"`` not made plain by ``^`` switches quoting on or off.
* :func:`c_runtime_argv`: the Microsoft C runtime's split of the resulting line into ``argv``
  (what ``py`` and ``python`` use): spaces and tabs outside double quotes separate words, ``2n``
  backslashes before a ``"`` are ``n`` backslashes and the quote switches quoting, ``2n+1`` are
  ``n`` and a plain ``"``, other backslashes are plain, and ``""`` inside quotes is a plain ``"``.
* :func:`powershell_words`: PowerShell's reading of bare words, ``'single'`` (two single quotes,
  ASCII or typographic, are the second one) and ``"double"`` quoted words without ``$``, backquote or ``"`` inside (the forms the
  swap commands use); anything else is refused.
"""

from __future__ import annotations

EXPANDED = "<EXPANDED>"
SINGLE_QUOTES = "'\u2018\u2019\u201a\u201b"  # PowerShell takes the typographic ones as quotes too


class ShellError(Exception):
    """The line would not run as one command with these words."""


def _defined(name: str) -> bool:
    base = name.split(":", 1)[0]
    return bool(base) and not base.startswith("^")


def _percent_phase(line: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(line):
        if line[i] != "%":
            out.append(line[i])
            i += 1
            continue
        end = line.find("%", i + 1)
        if end < 0:
            out.append(line[i:])
            break
        if _defined(line[i + 1 : end]):
            out.append(EXPANDED)
            i = end + 1
        else:
            out.append(line[i:end])
            i = end  # the scan goes on from the second %
    return "".join(out)


def _special_phase(line: str) -> str:
    out: list[str] = []
    quoted = False
    i = 0
    while i < len(line):
        char = line[i]
        if quoted:
            quoted = char != '"'
            out.append(char)
        elif char == "^":
            if i + 1 == len(line):
                raise ShellError("a ^ at the end asks for a continuation line")
            out.append(line[i + 1])
            i += 1
        elif char in "&|<>":
            raise ShellError(f"{char!r} outside quotes at {i} of {line!r}")
        else:
            quoted = char == '"'
            out.append(char)
        i += 1
    return "".join(out)


def cmd_prompt(line: str) -> str:
    """The command line ``cmd.exe`` gives the program for ``line`` typed at its prompt."""
    return _special_phase(_percent_phase(line))


def c_runtime_argv(line: str) -> list[str]:
    """``line`` split into words as the Microsoft C runtime does."""
    words: list[str] = []
    i, n = 0, len(line)
    while True:
        while i < n and line[i] in " \t":
            i += 1
        if i >= n:
            return words
        word: list[str] = []
        quoted = False
        while i < n and (quoted or line[i] not in " \t"):
            char = line[i]
            if char == "\\":
                count = len(line[i:]) - len(line[i:].lstrip("\\"))
                i += count
                if i < n and line[i] == '"':
                    word.append("\\" * (count // 2))
                    if count % 2:
                        word.append('"')
                        i += 1
                else:
                    word.append("\\" * count)
            elif char == '"':
                if quoted and i + 1 < n and line[i + 1] == '"':
                    word.append('"')
                    i += 2
                else:
                    quoted = not quoted
                    i += 1
            else:
                word.append(char)
                i += 1
        words.append("".join(word))


def cmd_argv(line: str) -> list[str]:
    """``sys.argv`` (with the program's own words) of a Python program run by ``line`` typed at
    ``cmd.exe``'s prompt."""
    return c_runtime_argv(cmd_prompt(line))


def powershell_words(line: str) -> list[str]:
    """The words PowerShell gives a program for ``line`` (bare, single- or double-quoted
    words only)."""
    words: list[str] = []
    i, n = 0, len(line)
    while i < n:
        if line[i] == " ":
            i += 1
            continue
        if line[i] == "'":
            word: list[str] = []
            i += 1
            while True:
                if i >= n:
                    raise ShellError(f"unclosed ' in {line!r}")
                if line[i] in SINGLE_QUOTES:
                    if i + 1 < n and line[i + 1] in SINGLE_QUOTES:
                        word.append(line[i + 1])
                        i += 2
                        continue
                    i += 1
                    break
                word.append(line[i])
                i += 1
            words.append("".join(word))
        elif line[i] == '"':
            end = line.find('"', i + 1)
            if end < 0:
                raise ShellError(f'unclosed " in {line!r}')
            inner = line[i + 1 : end]
            if any(c in inner for c in "$`\u201c\u201d\u201e"):
                raise ShellError(f"{inner!r} would be expanded")
            words.append(inner)
            i = end + 1
        else:
            end = line.find(" ", i)
            end = n if end < 0 else end
            bare = line[i:end]
            special = '"$`(){};,|&<>#\u201c\u201d\u201e' + SINGLE_QUOTES
            if any(c in bare for c in special) or bare[0] == "@" or bare == "--":
                raise ShellError(f"{bare!r} is not a plain word to PowerShell")
            words.append(bare)
            i = end
        if i < n and line[i] != " ":
            raise ShellError(f"a word of {line!r} runs on into another at {i}")
    return words
