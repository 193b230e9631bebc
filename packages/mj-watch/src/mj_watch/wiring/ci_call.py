"""`wired_by: ci:<path>`: the CI file names the declared command (Decision: the file must
exist and contain the call).

A CI file is YAML or a script, so it is not proven like a hook: each line is read with the
shell lexer, and the call is the declared words at the start of a command (after an operator,
`run:` and the like, or at the line's start), with nothing more; a quoted value holding a
command line is read the same way. `|| true`, `|| :`, `|| exit 0` or `; true` after it is named.
"""

from __future__ import annotations

from mj_watch.shell import syntax as ast
from mj_watch.shell.lexer import EOF
from mj_watch.shell.lexer import OP
from mj_watch.shell.lexer import WORD
from mj_watch.shell.lexer import ShellSyntax
from mj_watch.shell.parser import Parser
from mj_watch.wiring.target import Target

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Sequence

    from mj_watch.shell.lexer import Token

SWALLOWS = (("||", "true"), ("||", ":"), ("||", "exit", "0"), (";", "true"))


def find(text: str, declared: Sequence[str], names: Sequence[str]) -> tuple[int, str | None] | None:
    """(line, the swallow after the call or None) of the first call, or None."""
    target = Target(names, declared[1:])
    for number, line in enumerate(text.splitlines(), start=1):
        found = _in_line(line, target, len(declared), 0)
        if found is not None:
            return number, found or None
    return None


def _in_line(line: str, target: Target, size: int, depth: int) -> str | None:
    """ "" or the swallow text when `line` holds the call, else None."""
    tokens = _tokens(line)
    values = [ast.static(t.word) if t.kind == WORD and t.word else None for t in tokens]
    for index, token in enumerate(tokens):
        words = values[index : index + size]
        following = tokens[index + size] if index + size < len(tokens) else None
        exact = following is None or following.kind != WORD
        if (
            token.kind == WORD
            and len(words) == size
            and target.named(words[0])
            and words[1:] == target.args
            and exact
            and _starts_command(tokens, values, index)
        ):
            return _swallow(tokens[index + size :], values[index + size :])
        value = values[index]
        if depth < 3 and value and " " in value:
            inner = _in_line(value, target, size, depth + 1)
            if inner is not None:
                return inner
    return None


def _tokens(line: str) -> list[Token]:
    parser = Parser(line, 0, False, 0, [])
    found = []
    try:
        while parser.peek().kind != EOF:
            found.append(parser.take())
    except ShellSyntax:
        return []
    return found


def _starts_command(tokens: list[Token], values: list[str | None], index: int) -> bool:
    if index == 0 or tokens[index - 1].kind == OP:
        return True
    before = values[index - 1] or ""
    return before.endswith(":") or before in ("-", "exec")


def _swallow(rest: list[Token], values: list[str | None]) -> str:
    texts = [t.text if t.kind == OP else (v or "") for t, v in zip(rest, values, strict=True)]
    for form in SWALLOWS:
        if tuple(texts[: len(form)]) == form:
            return " ".join(form)
    return ""
