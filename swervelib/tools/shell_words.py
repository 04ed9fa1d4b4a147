"""Words of a command line quoted so that a shell gives the program exactly those words.

A command the tools print for the person to paste (``calibrate``'s swap command) must run as
printed in the shell they use. Module names and directories may hold spaces, shell characters,
``%`` or ``"``, so each word is quoted for one shell:

* :func:`posix_word`: sh, bash, zsh (single quotes, :func:`shlex.quote`).
* :func:`powershell_word`: PowerShell (single quotes, each single quote doubled; PowerShell 7.3 and
  later pass the word to the program as it is; Windows PowerShell 5.1 drops a ``"`` inside it).
* :func:`cmd_word`: Windows ``cmd.exe`` typed at the prompt, then Python's own reading of its
  command line (the Microsoft C runtime's rules, which ``py``/``python`` use). Two layers:

  - ``cmd.exe`` first replaces ``%NAME%`` by the variable ``NAME`` (when defined, and even
    between double quotes), then reads ``^`` as "the next character is plain" and ``&`` ``|``
    ``<`` ``>`` as command separators and redirections, except between double quotes, where only
    ``%`` is still special. Every ``"`` switches its quoting on or off. ``=`` ``,`` ``;`` reach the
    program unchanged.
  - The C runtime splits the rest at spaces outside double quotes; ``\\"`` is a plain ``"``,
    and backslashes are plain except just before a ``"``, where each pair is one backslash.

  A word without ``%`` or ``"`` is put between double quotes when it needs quoting (both layers
  agree on those). A word with ``%`` or ``"`` is written so that ``cmd.exe`` never enters its
  quoting: every quote is ``^"`` (plain to ``cmd.exe``, a quote to the C runtime), every character
  special to ``cmd.exe`` has a ``^`` before it, and every ``%`` a ``^`` after it, so each name
  ``cmd.exe`` could try to expand starts with ``^`` (no variable is named so) and ``cmd.exe``
  then drops the ``^``. This is for the interactive prompt: a batch file reads ``%`` otherwise.

:func:`shared_windows_word` is a word both ``cmd.exe`` and PowerShell read the same way, when
there is one (plain double quotes, no ``%`` ``"`` ``$`` or backquote), so that one command can be
printed for both.
"""

from __future__ import annotations

import re
import shlex

_PLAIN = re.compile(r"[A-Za-z0-9_.:/\\=+@~-]+")
_CMD_SPECIAL = frozenset('^&|<>()"')
_POWERSHELL_SINGLE_QUOTES = frozenset("'\u2018\u2019\u201a\u201b")
_POWERSHELL_DOUBLE_QUOTED_SPECIAL = frozenset('$`"\u201c\u201d\u201e')


def posix_word(word: str) -> str:
    """``word`` for sh, bash or zsh."""
    return shlex.quote(word)


def powershell_word(word: str) -> str:
    """``word`` for PowerShell: plain, or between single quotes with each single quote (and
    PowerShell's typographic single quotes) doubled."""
    if _plain(word):
        return word
    quoted = "".join(c + c if c in _POWERSHELL_SINGLE_QUOTES else c for c in word)
    return f"'{quoted}'"


def _plain(word: str) -> bool:
    """Whether ``word`` needs no quoting in any of the shells (``-`` and ``@`` only inside)."""
    return bool(_PLAIN.fullmatch(word)) and word[0] not in "-@~" and word[-1] != "\\"


def _runtime_quoted(word: str) -> list[str]:
    """``word`` between double quotes as the C runtime reads them, as a list of units: ``"`` for a
    quote the runtime reads as quoting, ``\\"`` for a plain quote, and single characters."""
    units = ['"']
    backslashes = 0
    for char in word:
        if char == "\\":
            backslashes += 1
            continue
        if char == '"':
            units.extend("\\" * (2 * backslashes))
            units.append('\\"')
        else:
            units.extend("\\" * backslashes)
            units.append(char)
        backslashes = 0
    units.extend("\\" * (2 * backslashes))  # before the closing quote, each backslash doubled
    units.append('"')
    return units


def cmd_word(word: str) -> str:
    """``word`` for ``cmd.exe`` typed at the prompt, read by a Python program (see the module's
    text for the rules)."""
    if _plain(word):
        return word
    units = _runtime_quoted(word)
    if "%" not in word and '"' not in word:
        return "".join(units)
    out: list[str] = []
    escaped = False  # the previous unit ended with a ^ that makes this one's first character plain
    for unit in units:
        if unit == "%":
            out.append("%^")
            escaped = True
            continue
        for char in unit:
            if char in _CMD_SPECIAL and not escaped:
                out.append("^")
            out.append(char)
            escaped = False
    return "".join(out)


def shared_windows_word(word: str) -> str | None:
    """``word`` written so that ``cmd.exe`` and PowerShell both give it to the program as it is,
    or None when no one spelling does (it holds ``%``, ``"``, ``$``, a backquote or a
    typographic double quote, or ends with a backslash)."""
    if _plain(word):
        return word
    if "%" in word or word.endswith("\\"):  # PowerShell would keep the doubled last backslash
        return None
    if any(c in _POWERSHELL_DOUBLE_QUOTED_SPECIAL for c in word):
        return None
    return "".join(_runtime_quoted(word))
