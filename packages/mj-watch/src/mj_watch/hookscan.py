"""Reading hook scripts: where a tool is called, and whether its exit code survives the call.

A hook that receives a non-zero code and carries on breaks the contract. A call is judged on
its own line: an explicit swallow (`|| true`, `|| :`, `|| exit 0`, `|| return 0`, `; true`)
fails it outright; otherwise its code must propagate — through `|| exit …`, `exec`, `set -e`
in force, an `if ! …; then … exit` block, or by being the script's last command. `set +e`
in force around a call that relies on none of these is named as the swallow.
"""

from __future__ import annotations

import re

# Source text, compiled by `re` (and cached there) when a hook line first calls the tool.
_SWALLOW = r"\|\|\s*(?:true|:|exit\s+0|return\s+0)(?=\s|;|&|\)|$)|;\s*true(?=\s|;|$)"
_EXIT_ON_FAIL = r"\|\|\s*(exit|return)(\s+(\$\?|[1-9][0-9]*|\"\$\?\"))?\s*(;|$|#)"
_SET = r"^\s*set\s+([-+])([a-zA-Z]*)\s*(?:-o\s+(\S+))?"
_SET_O = r"^\s*set\s+([-+])o\s+errexit\b"
_SEP = r"(?:^|[\s;&|(`!])"


class Call:
    """A call of the tool on one line of a hook script."""

    __slots__ = ("explicit", "line", "lineno", "swallow")

    def __init__(self, lineno: int, line: str, swallow: str | None, explicit: bool) -> None:
        self.lineno = lineno  # 1-based
        self.line = line
        self.swallow = swallow  # why the exit code is lost, or None when it propagates
        self.explicit = explicit  # the line itself discards the code (`|| true` and kin)

    def __repr__(self) -> str:
        return (
            f"Call(lineno={self.lineno!r}, line={self.line!r}, swallow={self.swallow!r}, "
            f"explicit={self.explicit!r})"
        )


def _code_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of lines that are not blank and not comments."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            out.append((number, line))
    return out


def call_pattern(executables: list[str], subcommand: str | None) -> re.Pattern[str]:
    """A call of any of `executables` (a bare name matches any directory before it)."""
    names = "|".join(
        re.escape(e) if "/" in e else r"(?:[^\s;&|()'\"]*/)?" + re.escape(e) for e in executables
    )
    sub = rf"\s+{re.escape(subcommand)}(?=\s|;|\||&|\)|$)" if subcommand else r"(?=\s|;|\||&|\)|$)"
    return re.compile(rf"{_SEP}(?:exec\s+)?(?P<exe>{names}){sub}")


def _errexit(text: str, upto: int) -> tuple[bool, bool]:
    """(errexit on, `set +e` seen last) at line `upto`, from the shebang and `set` lines."""
    lines = text.splitlines()
    on = bool(lines) and lines[0].startswith("#!") and re.search(r"\s-\w*e", lines[0]) is not None
    plus = False
    for line in lines[: upto - 1]:
        match = re.match(_SET, line)
        option = re.match(_SET_O, line)
        if option:
            on, plus = option.group(1) == "-", option.group(1) == "+"
        elif match and "e" in match.group(2):
            on, plus = match.group(1) == "-", match.group(1) == "+"
    return on, plus


def _if_not_exits(code: list[tuple[int, str]], index: int) -> bool:
    line = code[index][1].strip()
    if not re.match(r"^if\s+!\s", line):
        return False
    for _, later in code[index + 1 : index + 6]:
        stripped = later.strip()
        if re.match(r"^(exit|return)(\s+(\$\?|[1-9][0-9]*))?\s*(;|$)", stripped):
            return True
        if stripped.startswith("fi"):
            return False
    return False


def explicit_swallow(rest: str) -> str | None:
    swallowed = re.search(_SWALLOW, rest)
    return f"`{swallowed.group(0).strip()}` after the call" if swallowed else None


def judge(text: str, code: list[tuple[int, str]], index: int, start: int) -> str | None:
    number, line = code[index]
    rest = line[start:]
    explicit = explicit_swallow(rest)
    if explicit:
        return explicit
    if re.search(_EXIT_ON_FAIL, rest) or re.search(rf"{_SEP}exec\s", line[: start + 6]):
        return None
    on, plus = _errexit(text, number)
    if on or _if_not_exits(code, index) or index == len(code) - 1:
        return None
    if plus:
        return "`set +e` is in force around the call"
    return "the hook carries on after the call; end the line with `|| exit $?`"


def calls(text: str, pattern: re.Pattern[str]) -> list[Call]:
    code = _code_lines(text)
    found = []
    for index, (number, line) in enumerate(code):
        match = pattern.search(line)
        if match:
            reason = judge(text, code, index, match.end())
            explicit = explicit_swallow(line[match.end() :]) is not None
            found.append(Call(number, line.strip(), reason, explicit))
    return found
