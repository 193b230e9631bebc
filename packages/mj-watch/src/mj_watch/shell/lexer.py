"""Tokens of a POSIX shell script: words (with their quoting and expansions), operators,
newlines; here-document bodies are read at the newline that ends their line.

The parser pulls tokens one at a time, so a command substitution `$(...)` is handed back to it
(`subparse`) and parsed as the full grammar it is, `case` patterns and nested quotes included.
Anything the lexer cannot read is a `ShellSyntax` error, never a guess.
"""

from __future__ import annotations

from mj_watch.shell.expand import Expansions
from mj_watch.shell.expand import ShellSyntax
from mj_watch.shell.expand import lit
from mj_watch.shell.syntax import BRACE
from mj_watch.shell.syntax import GLOB
from mj_watch.shell.syntax import SUB
from mj_watch.shell.syntax import TILDE
from mj_watch.shell.syntax import Part
from mj_watch.shell.syntax import Word
from mj_watch.shell.syntax import static

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_watch.shell.expand import SubParse
    from mj_watch.shell.syntax import Redir

META = frozenset(" \t\n;&|()<>")
OPS = ("<<-", "&&", "||", ";;", ";&", "((", "<<", ">>", "<&", ">&", "<>", ">|")
SINGLE = frozenset(";&|()<>")
WORD, OP, NEWLINE, EOF, IO = "word", "op", "newline", "eof", "io"


class Token:
    __slots__ = ("end", "kind", "start", "text", "word")

    def __init__(
        self, kind: str, text: str, start: int, end: int, word: Word | None = None
    ) -> None:
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end
        self.word = word


class Lexer(Expansions):
    def __init__(self, text: str, pos: int, subparse: SubParse) -> None:
        self.text = text
        self.pos = pos
        self.subparse = subparse
        self.pending: list[tuple[Redir, bool]] = []  # here-documents whose body comes next

    def heredoc(self, redir: Redir, strip_tabs: bool) -> None:
        self.pending.append((redir, strip_tabs))

    def token(self) -> Token:
        text, n = self.text, len(self.text)
        while self.pos < n and (text[self.pos] in " \t" or text.startswith("\\\n", self.pos)):
            self.pos += 1 if text[self.pos] != "\\" else 2
        start = self.pos
        if start >= n:
            return Token(EOF, "", start, start)
        if text[start] == "#":
            end = text.find("\n", start)
            self.pos = n if end < 0 else end
            return self.token()
        if text[start] == "\n":
            self.pos += 1
            self._bodies()
            return Token(NEWLINE, "\n", start, start + 1)
        for op in OPS:
            if text.startswith(op, start):
                self.pos += len(op)
                return Token(OP, op, start, self.pos)
        if text[start] in SINGLE:
            self.pos += 1
            return Token(OP, text[start], start, self.pos)
        word = self._word()
        raw = text[start : self.pos]
        kind = IO if raw.isdigit() and self.pos < n and text[self.pos] in "<>" else WORD
        return Token(kind, raw, start, self.pos, word)

    def _bodies(self) -> None:
        for redir, strip in self.pending:
            delimiter = static(redir.target)
            if delimiter is None:
                raise ShellSyntax(redir.target.start, "a here-document delimiter with an expansion")
            lines, found = [], False
            while self.pos < len(self.text) and not found:
                end = self.text.find("\n", self.pos)
                end = len(self.text) if end < 0 else end
                line = self.text[self.pos : end]
                self.pos = min(end + 1, len(self.text))
                found = (line.lstrip("\t") if strip else line) == delimiter
                if not found:
                    lines.append(line + "\n")
            redir.heredoc = "".join(lines)
        self.pending = []

    # words

    def _word(self) -> Word:
        start, parts = self.pos, list[Part]()
        text, n = self.text, len(self.text)
        while self.pos < n and text[self.pos] not in META:
            c = text[self.pos]
            if c == "\\":
                self._backslash(parts, quoted=False)
            elif c == "'":
                end = text.find("'", self.pos + 1)
                if end < 0:
                    raise ShellSyntax(self.pos, "an unterminated single quote")
                lit(parts, text[self.pos + 1 : end], True)
                self.pos = end + 1
            elif c == '"':
                self._double(parts)
            elif c == "$":
                self._dollar(parts, quoted=False)
            elif c == "`":
                parts.append(Part(SUB, self._backquote(), False))
            else:
                self._bare(parts, c, at_start=self.pos == start)
        return Word(parts, start, self.pos)

    def _bare(self, parts: list[Part], c: str, at_start: bool) -> None:
        if c in "*?" or (c == "[" and self._closes("]")):
            parts.append(Part(GLOB, c))
        elif c == "~" and at_start:
            end = self._scan_bare(self.pos, "/")
            parts.append(Part(TILDE, self.text[self.pos : end]))
            self.pos = end
            return
        elif c == "{" and self._brace_expansion():
            end = self.text.index("}", self.pos)
            parts.append(Part(BRACE, self.text[self.pos : end + 1]))
            self.pos = end + 1
            return
        else:
            lit(parts, c, False)
        self.pos += 1

    def _scan_bare(self, pos: int, stop: str) -> int:
        while pos < len(self.text) and self.text[pos] not in META and self.text[pos] not in stop:
            pos += 1
        return pos

    def _closes(self, closing: str) -> bool:
        end = self._scan_bare(self.pos + 1, "'\"" + closing)
        return end < len(self.text) and self.text[end] == closing

    def _brace_expansion(self) -> bool:
        end = self._scan_bare(self.pos + 1, "'\"}")
        if end >= len(self.text) or self.text[end] != "}":
            return False
        inner = self.text[self.pos + 1 : end]
        return "," in inner or ".." in inner


__all__ = ["EOF", "IO", "NEWLINE", "OP", "WORD", "Lexer", "ShellSyntax", "Token"]
