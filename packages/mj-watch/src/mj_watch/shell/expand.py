"""Quoting and expansions inside a word: double quotes, backslashes, `$name`, `${...}`,
`$(...)` (parsed by the parser it is handed back to), `$((...))`, backquotes and bash's `$'...'`.
"""

from __future__ import annotations

from mj_watch.shell.syntax import ANSI
from mj_watch.shell.syntax import ARITH
from mj_watch.shell.syntax import LIT
from mj_watch.shell.syntax import PARAM
from mj_watch.shell.syntax import SPECIAL
from mj_watch.shell.syntax import SUB
from mj_watch.shell.syntax import Part
from mj_watch.shell.syntax import is_name

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable

    from mj_watch.shell.syntax import Seq

    SubParse = Callable[[int], tuple[Seq, int]]  # start offset → (body, offset after its `)`)


class ShellSyntax(Exception):
    def __init__(self, pos: int, message: str) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message


class Expansions:
    """The lexer's readers of quoted text and expansions, from `pos` in `text`."""

    text: str
    pos: int
    subparse: SubParse

    def _backslash(self, parts: list[Part], quoted: bool) -> None:
        nxt = self.text[self.pos + 1 : self.pos + 2]
        if nxt == "\n":
            self.pos += 2
        elif not nxt:
            lit(parts, "\\", quoted)
            self.pos += 1
        elif quoted and nxt not in '$`"\\':
            lit(parts, "\\" + nxt, True)
            self.pos += 2
        else:
            lit(parts, nxt, True)
            self.pos += 2

    def _double(self, parts: list[Part]) -> None:
        text = self.text
        self.pos += 1
        before = len(parts)
        while True:
            if self.pos >= len(text):
                raise ShellSyntax(self.pos, "an unterminated double quote")
            c = text[self.pos]
            if c == '"':
                self.pos += 1
                if len(parts) == before:
                    parts.append(Part(LIT, "", True))  # "" is an (empty) word of its own
                return
            if c == "\\":
                self._backslash(parts, quoted=True)
            elif c == "$":
                self._dollar(parts, quoted=True)
            elif c == "`":
                parts.append(Part(SUB, self._backquote(), True))
            else:
                lit(parts, c, True)
                self.pos += 1

    def _dollar(self, parts: list[Part], quoted: bool) -> None:
        text, pos = self.text, self.pos
        nxt = text[pos + 1 : pos + 2]
        end = self._arithmetic(pos) if text.startswith("$((", pos) else None
        if end is not None:
            parts.append(Part(ARITH, text[pos:end], quoted))
            self.pos = end
        elif nxt == "(":
            body, self.pos = self.subparse(pos + 2)
            parts.append(Part(SUB, text[pos : self.pos], quoted, body=body))
        elif nxt == "{":
            end = self._braced(pos + 2)
            parts.append(_braced_part(text[pos + 2 : end], quoted))
            self.pos = end + 1
        elif nxt in ("'", '"') and not quoted:
            self.pos += 1
            scratch: list[Part] = []
            if nxt == '"':
                self._double(scratch)
            else:
                self._ansi()
            parts.append(Part(ANSI, text[pos : self.pos], quoted))
        elif nxt and (nxt in SPECIAL or nxt == "_" or nxt.isalpha()):
            end = pos + 2
            if nxt == "_" or nxt.isalpha():
                while end < len(text) and (text[end] == "_" or text[end].isalnum()):
                    end += 1
            parts.append(Part(PARAM, text[pos + 1 : end], quoted))
            self.pos = end
        else:
            lit(parts, "$", quoted)
            self.pos += 1

    def _ansi(self) -> None:
        pos = self.pos + 1
        while pos < len(self.text) and self.text[pos] != "'":
            pos += 2 if self.text[pos] == "\\" else 1
        if pos >= len(self.text):
            raise ShellSyntax(self.pos, "an unterminated $'...' string")
        self.pos = pos + 1

    def _arithmetic(self, pos: int) -> int | None:
        depth, i = 0, pos + 1
        while i < len(self.text):
            if self.text[i] == "(":
                depth += 1
            elif self.text[i] == ")":
                depth -= 1
                if depth == 0:
                    return i + 1 if self.text[i - 1] == ")" else None
            i += 1
        return None

    def _braced(self, pos: int) -> int:
        depth, text = 1, self.text
        while pos < len(text):
            c = text[pos]
            if c == "\\":
                pos += 2
                continue
            if c in "'\"":
                pos = _closing(text, pos)
                if pos < 0:
                    break
            elif c == "$" and text.startswith("$(", pos):
                _, pos = self.subparse(pos + 2)
                continue
            elif c == "`":
                self.pos = pos
                self._backquote()
                pos = self.pos
                continue
            elif text.startswith("${", pos):
                depth += 1
                pos += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return pos
            pos += 1
        raise ShellSyntax(pos, "an unterminated ${...}")

    def _backquote(self) -> str:
        start, pos = self.pos, self.pos + 1
        while pos < len(self.text) and self.text[pos] != "`":
            pos += 2 if self.text[pos] == "\\" else 1
        if pos >= len(self.text):
            raise ShellSyntax(start, "an unterminated backquote")
        self.pos = pos + 1
        return self.text[start : self.pos]


def lit(parts: list[Part], value: str, quoted: bool) -> None:
    last = parts[-1] if parts else None
    if last is not None and last.kind == LIT and last.quoted == quoted:
        last.value += value
    else:
        parts.append(Part(LIT, value, quoted))


def _closing(text: str, pos: int) -> int:
    """The offset of the quote that closes the one at `pos` (-1 when there is none)."""
    quote, pos = text[pos], pos + 1
    while pos < len(text) and text[pos] != quote:
        pos += 2 if text[pos] == "\\" and quote == '"' else 1
    return pos if pos < len(text) else -1


def _braced_part(inner: str, quoted: bool) -> Part:
    """`${inner}`: the parameter's name, and whatever operator follows it."""
    if inner in SPECIAL or inner.isdigit() or is_name(inner):
        return Part(PARAM, inner, quoted)
    if inner[:1] in ("#", "!") and len(inner) > 1:
        return Part(PARAM, inner[1:], quoted, op=inner[0])
    if inner[:1].isdigit():
        size = len(inner) - len(inner.lstrip("0123456789"))
    elif inner[:1] in SPECIAL:
        size = 1
    else:
        size = 0
        while size < len(inner) and (inner[size] == "_" or inner[size].isalnum()):
            size += 1
    return Part(PARAM, inner[:size], quoted, op=inner[size:] or "?")
