"""The compound commands of the grammar: `if`, `while` / `until`, `for` and `case`.

Each builder takes the parser standing on the reserved word and returns the node; an empty
list where sh requires commands is a syntax error, as it is for dash and bash.
"""

from __future__ import annotations

from mj_watch.shell import syntax as ast
from mj_watch.shell.lexer import NEWLINE
from mj_watch.shell.lexer import WORD

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable

    from mj_watch.shell.reading import Reading
    from mj_watch.shell.syntax import Command

NONE: frozenset[str] = frozenset()
THEN = frozenset(("then",))
ARM = frozenset(("elif", "else", "fi"))
FI = frozenset(("fi",))
DO = frozenset(("do",))
DONE = frozenset(("done",))
ESAC = frozenset(("esac",))
BREAK = frozenset((";;",))


def _if(p: Reading) -> Command:
    token = p.take()
    node = ast.If(p.line(token), token.start)
    while True:
        cond = p.nonempty(p.compound_list(THEN, NONE))
        p.expect_word("then")
        node.arms.append((cond, p.nonempty(p.compound_list(ARM, NONE))))
        if not p.word_is("elif"):
            break
        p.take()
    if p.word_is("else"):
        p.take()
        node.orelse = p.nonempty(p.compound_list(FI, NONE))
    p.expect_word("fi")
    return node


def _loop(p: Reading) -> Command:
    token = p.take()
    until = token.text == "until"
    cond = p.nonempty(p.compound_list(DO, NONE))
    p.expect_word("do")
    body = p.nonempty(p.compound_list(DONE, NONE))
    p.expect_word("done")
    return ast.Loop(p.line(token), token.start, until, cond, body)


def _for(p: Reading) -> Command:
    token = p.take()
    name = p.peek()
    if name.kind != WORD or name.word is None or not ast.is_name(ast.plain(name.word) or ""):
        p.unexpected()
    p.take()
    words: list[ast.Word] | None = None
    p.newlines()
    if p.word_is("in"):
        p.take()
        words = []
        while p.peek().kind == WORD and p.peek().word is not None:
            word = p.take().word
            assert word is not None
            words.append(word)
        if not (p.op_is(";") or p.peek().kind == NEWLINE):
            p.unexpected()
        p.take()
    elif p.op_is(";"):
        p.take()
    p.newlines()
    node = ast.For(p.line(token), token.start, name.text, words)
    p.expect_word("do")
    node.body = p.nonempty(p.compound_list(DONE, NONE))
    p.expect_word("done")
    return node


def _case(p: Reading) -> Command:
    token = p.take()
    subject = p.peek()
    if subject.kind != WORD or subject.word is None:
        p.unexpected()
    p.take()
    node = ast.Case(p.line(token), token.start, subject.word)
    p.newlines()
    p.expect_word("in")
    p.newlines()
    while not p.word_is("esac"):
        node.arms.append((_patterns(p), p.compound_list(ESAC, BREAK)))
        if p.op_is(";;"):
            p.take()
            p.newlines()
        elif not p.word_is("esac"):
            p.unexpected()
    p.expect_word("esac")
    return node


def _patterns(p: Reading) -> list[ast.Word]:
    if p.op_is("("):
        p.take()
    patterns = []
    while True:
        token = p.peek()
        if token.kind != WORD or token.word is None:
            p.unexpected()
        patterns.append(token.word)
        p.take()
        if not p.op_is("|"):
            break
        p.take()
    p.expect_op(")")
    return patterns


BUILDERS: dict[str, Callable[[Reading], Command]] = {
    "if": _if,
    "while": _loop,
    "until": _loop,
    "for": _for,
    "case": _case,
}
