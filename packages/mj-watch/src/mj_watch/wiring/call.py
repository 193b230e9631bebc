"""What the hook proof hands back, what counts as the declared command's name, and the hook
`init` prints, recognised without the shell parser.

A hook that is exactly `#!/bin/sh` and one `<plain words> || exit $?` line (what `init` prints
and most repositories keep) is proven here, at the cost of a string comparison: every path
reaches the words as a simple command and `|| exit $?` carries their status. The full proof
(`wiring.prove`) agrees on every such text; tests hold the two equal.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Sequence

TAIL = " || exit $?"
# first words the shell does not run as a command: reserved words (POSIX's, and bash's, for a
# /bin/sh that is bash), and `exec` (which runs the rest)
NOT_A_COMMAND = frozenset(("if", "then", "else", "elif", "fi", "do", "done", "case", "esac"))
NOT_A_COMMAND |= {"while", "until", "for", "in", "exec", "function", "select", "time", "coproc"}
PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=+,:@%")


class Verdict:
    """`kind` is ok, absent (no such call), unproven, or swallow (the call runs and its status
    can be lost); `line` is the call's line when ok, else the line of the reason."""

    __slots__ = ("kind", "line", "reason")

    def __init__(self, kind: str, line: int, reason: str = "") -> None:
        self.kind = kind
        self.line = line
        self.reason = reason

    @property
    def ok(self) -> bool:
        return self.kind == "ok"

    def __repr__(self) -> str:
        return f"Verdict({self.kind!r}, {self.line!r}, {self.reason!r})"


def named(names: Sequence[str], value: str | None) -> bool:
    """Is `value` one of `names`? A bare name also matches it from any directory."""
    if value is None:
        return False
    return any(value == n or ("/" not in n and value.endswith("/" + n)) for n in names)


def printed(text: str) -> list[str] | None:
    """The words of a hook that is exactly `#!/bin/sh` and `<plain words> || exit $?`."""
    lines = text.split("\n")
    if len(lines) != 3 or lines[0] != "#!/bin/sh" or lines[2] or not lines[1].endswith(TAIL):
        return None
    words = lines[1][: -len(TAIL)].split(" ")
    if not all(words) or "=" in words[0] or words[0] in NOT_A_COMMAND:
        return None
    if any(not PLAIN.issuperset(w) for w in words):
        return None
    return words


def same_args(found: Sequence[str | None], declared: Sequence[str]) -> bool:
    """Are `found` the declared arguments (the options `mj_policy.hooks.lines.PRINTING` names
    for them allowed after them)?"""
    from mj_policy.hooks.lines import PRINTING

    wanted = list(declared)
    return list(found) in (wanted, [*wanted, *PRINTING.get(tuple(wanted), ())])


def proven(text: str, declared: Sequence[str], names: Sequence[str]) -> Verdict | None:
    """OK at line 2 when `text` is the printed hook for `declared`; None to ask the proof."""
    words = printed(text)
    if words is None or not named(names, words[0]) or not same_args(words[1:], declared[1:]):
        return None
    return Verdict("ok", 2)
