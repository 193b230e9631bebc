"""The POSIX shell grammar a hook uses, parsed into `shell.syntax` nodes by recursive descent.

Simple commands with assignments and redirections (here-documents included), pipelines, `!`,
`&&` / `||` lists, `;` `&` and newlines, `{ }`, `( )`, `if`, `while`, `until`, `for`, `case`
and function definitions. Bash's `NAME=(...)` arrays are read only for a bash script. What the
grammar does not cover (`((`, `[[` with operators inside, `;&`, ...) is a syntax error: the
caller treats an unreadable script as unproven, never as understood.
"""

from __future__ import annotations

from bisect import bisect_right

from mj_watch.shell import compound as sh_compound
from mj_watch.shell import syntax as ast
from mj_watch.shell.lexer import EOF
from mj_watch.shell.lexer import IO
from mj_watch.shell.lexer import NEWLINE
from mj_watch.shell.lexer import OP
from mj_watch.shell.lexer import WORD
from mj_watch.shell.lexer import Lexer
from mj_watch.shell.lexer import ShellSyntax
from mj_watch.shell.lexer import Token

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import NoReturn

    from mj_watch.shell.syntax import Command

REDIRECTS = frozenset(("<", ">", ">>", "<&", ">&", "<>", ">|", "<<", "<<-"))
OPENERS = frozenset(("if", "while", "until", "for", "case", "{"))
RESERVED = frozenset(("then", "else", "elif", "fi", "do", "done", "esac", "}", "in"))
_DEPTH = 200  # nesting deeper than this is not a hook anyone writes: a syntax error


def parse(text: str, bash: bool = False) -> ast.Seq:
    """The whole script; `ShellSyntax` (with the offset) when it does not parse."""
    parser = Parser(text, 0, bash, 0, [i for i, c in enumerate(text) if c == "\n"])
    body = parser.compound_list(frozenset(), frozenset())
    if parser.peek().kind != EOF:
        parser.unexpected()
    return body


class Parser:
    def __init__(self, text: str, pos: int, bash: bool, depth: int, breaks: list[int]) -> None:
        if depth > _DEPTH:
            raise ShellSyntax(pos, "nesting too deep")
        self.text = text
        self.bash = bash
        self.depth = depth
        self.breaks = breaks  # offsets of the newlines, for line numbers
        self.lexer = Lexer(text, pos, self._substitution)
        self.ahead: Token | None = None

    def _substitution(self, pos: int) -> tuple[ast.Seq, int]:
        inner = Parser(self.text, pos, self.bash, self.depth + 1, self.breaks)
        body = inner.compound_list(frozenset(), frozenset((")",)))
        inner.expect_op(")")
        return body, inner.here()

    # tokens

    def peek(self) -> Token:
        if self.ahead is None:
            self.ahead = self.lexer.token()
        return self.ahead

    def here(self) -> int:
        """The offset where the next token starts (or the lexer stands)."""
        return self.lexer.pos if self.ahead is None else self.ahead.start

    def take(self) -> Token:
        token = self.peek()
        self.ahead = None
        return token

    def line(self, token: Token) -> int:
        return bisect_right(self.breaks, token.start - 1) + 1

    def unexpected(self) -> NoReturn:
        token = self.peek()
        shown = "end of file" if token.kind == EOF else repr(token.text)
        raise ShellSyntax(token.start, f"unexpected {shown}")

    def word_is(self, *words: str) -> bool:
        token = self.peek()
        return token.kind == WORD and token.word is not None and ast.plain(token.word) in words

    def op_is(self, *ops: str) -> bool:
        token = self.peek()
        return token.kind == OP and token.text in ops

    def expect_word(self, word: str) -> Token:
        if not self.word_is(word):
            self.unexpected()
        return self.take()

    def expect_op(self, op: str) -> None:
        if not self.op_is(op):
            self.unexpected()
        self.take()

    def newlines(self) -> None:
        while self.peek().kind == NEWLINE:
            self.take()

    # lists

    def compound_list(self, stop_words: frozenset[str], stop_ops: frozenset[str]) -> ast.Seq:
        seq = ast.Seq()

        def stop() -> bool:
            return self.peek().kind == EOF or self.word_is(*stop_words) or self.op_is(*stop_ops)

        self.newlines()
        while not stop():
            and_or = self.and_or()
            background = False
            if self.op_is(";", "&"):
                background = self.take().text == "&"
            elif self.peek().kind != NEWLINE and not stop():
                self.unexpected()
            seq.items.append((and_or, background))
            self.newlines()
        return seq

    def nonempty(self, seq: ast.Seq) -> ast.Seq:
        if not seq.items:
            self.unexpected()  # sh and bash both refuse an empty list here
        return seq

    def and_or(self) -> ast.AndOr:
        start = self.peek().start
        parts, ops = [self.pipeline()], []
        while self.op_is("&&", "||"):
            ops.append(self.take().text)
            self.newlines()
            parts.append(self.pipeline())
        return ast.AndOr(parts, ops, start, self.here())

    def pipeline(self) -> ast.Pipeline:
        line = self.line(self.peek())
        bang = self.word_is("!")
        if bang:
            self.take()
        cmds = [self.command()]
        while self.op_is("|"):
            self.take()
            self.newlines()
            cmds.append(self.command())
        return ast.Pipeline(line, bang, cmds)

    # commands

    def command(self) -> Command:
        token = self.peek()
        if token.kind == OP and token.text in ("(", "(("):
            if token.text == "((":
                self.unexpected()  # bash arithmetic, or two subshells written together
            node: Command = self.group(subshell=True)
        elif self.word_is(*OPENERS):
            node = self.compound()
        elif self.word_is(*RESERVED, "!"):
            self.unexpected()
        else:
            return self.simple()
        self.redirects(node)
        node.end = self.here()
        return node

    def compound(self) -> Command:
        word = self.peek().word
        keyword = ast.plain(word) if word is not None else None
        if keyword == "{":
            return self.group(subshell=False)
        return sh_compound.BUILDERS[str(keyword)](self)

    def group(self, subshell: bool) -> ast.Group:
        token = self.take()
        if subshell:
            body = self.compound_list(frozenset(), frozenset((")",)))
            self.expect_op(")")
        else:
            body = self.compound_list(frozenset(("}",)), frozenset())
            self.expect_word("}")
        return ast.Group(self.line(token), token.start, self.nonempty(body), subshell)

    def redirects(self, node: ast.Node) -> None:
        while self.peek().kind == IO or self.op_is(*REDIRECTS):
            self.redirect(node)

    def redirect(self, node: ast.Node) -> None:
        fd = self.take().text if self.peek().kind == IO else ""
        op = self.take()
        if op.kind != OP or op.text not in REDIRECTS or self.peek().kind != WORD:
            self.unexpected()
        target = self.take().word
        assert target is not None
        redir = ast.Redir(op.text, target, fd)
        if op.text in ("<<", "<<-"):
            redir.quoted = any(part.quoted for part in target.parts)
            self.lexer.heredoc(redir, strip_tabs=op.text == "<<-")
        node.redirs.append(redir)

    def simple(self) -> Command:
        first = self.peek()
        node = ast.Simple(self.line(first), first.start)
        while True:
            token = self.peek()
            if token.kind == IO or self.op_is(*REDIRECTS):
                self.redirect(node)
            elif token.kind == WORD and token.word is not None:
                self.take()
                if not node.words and self._array(node, token):
                    continue
                if not node.words and ast.assignment(token.word):
                    node.assigns.append(token.word)
                else:
                    node.words.append(token.word)
                if self._function_ahead(node):
                    return self.function(node)
            else:
                break
        if not (node.words or node.assigns or node.redirs or node.arrays):
            self.unexpected()
        node.end = self.here()
        return node

    def _array(self, node: ast.Simple, token: Token) -> bool:
        """bash's `NAME=(words...)` or `NAME+=(words...)`, written together."""
        text = token.text
        if not (self.bash and text.endswith("=") and ast.is_name(text[:-1].removesuffix("+"))):
            return False
        if not (self.op_is("(") and self.peek().start == token.end):
            return False
        self.take()
        items: list[ast.Word] = []
        while not self.op_is(")"):
            nxt = self.take()
            if nxt.kind == NEWLINE:
                continue
            if nxt.kind != WORD or nxt.word is None:
                raise ShellSyntax(nxt.start, f"unexpected {nxt.text!r} in an array")
            items.append(nxt.word)
        self.take()
        node.arrays.append((text[:-1], items))
        return True

    def _function_ahead(self, node: ast.Simple) -> bool:
        if len(node.words) != 1 or node.assigns or node.redirs or not self.op_is("("):
            return False
        name = ast.plain(node.words[0])
        return name is not None and ast.is_name(name)

    def function(self, node: ast.Simple) -> ast.Func:
        self.take()
        self.expect_op(")")
        self.newlines()  # dash takes any command for the body, bash only a compound one
        if self.word_is("!") or (self.bash and not (self.word_is(*OPENERS) or self.op_is("("))):
            self.unexpected()
        body = self.command()
        name = ast.plain(node.words[0]) or ""
        func = ast.Func(node.line, node.start, name, body)
        func.end = body.end
        return func
