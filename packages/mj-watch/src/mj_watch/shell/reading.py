"""What a builder of compound commands (`shell.compound`) asks of the parser standing on its
reserved word: the parser's reading interface, as a type. `shell.parser.Parser` is one; this module
is imported for types only, so the builders and the parser that calls them are no circle."""

from __future__ import annotations

TYPE_CHECKING = False  # the type exists for the type checker only: nothing imports it at run time
if TYPE_CHECKING:
    from typing import NoReturn
    from typing import Protocol

    from mj_watch.shell import syntax as ast
    from mj_watch.shell.lexer import Token

    class Reading(Protocol):
        def peek(self) -> Token: ...

        def take(self) -> Token: ...

        def line(self, token: Token) -> int: ...

        def unexpected(self) -> NoReturn: ...

        def word_is(self, *words: str) -> bool: ...

        def op_is(self, *ops: str) -> bool: ...

        def expect_word(self, word: str) -> Token: ...

        def expect_op(self, op: str) -> None: ...

        def newlines(self) -> None: ...

        def compound_list(
            self, stop_words: frozenset[str], stop_ops: frozenset[str]
        ) -> ast.Seq: ...

        def nonempty(self, seq: ast.Seq) -> ast.Seq: ...
