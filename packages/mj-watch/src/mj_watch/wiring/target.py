"""What the hook proof looks for: the declared call, one call site, a `<hook>.d/` runner's
sub-hook, or the pre-commit framework's hand-over to `pre-commit hook-impl`.
"""

from __future__ import annotations

from mj_watch.shell import syntax as ast
from mj_watch.wiring import call as hookcall
from mj_watch.wiring.commands import file_test

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Sequence

    from mj_watch.shell.syntax import Command


class Target:
    """The declared command: one of `names` (a bare name also matches `/any/dir/<name>`),
    with exactly `args`; `exec` before it is the same call."""

    blocking_exits = False  # may the hook end with a non-zero status before the call?

    def __init__(self, names: Sequence[str], args: Sequence[str]) -> None:
        self.names = tuple(names)
        self.args = list(args)
        self.shown = " ".join([self.names[0], *self.args]) if self.names else ""

    def matches(self, c: ast.Simple, loopvar: str | None) -> bool:
        values = _argv(c)
        return bool(values) and self.named(values[0]) and hookcall.same_args(values[1:], self.args)

    def named(self, value: str | None) -> bool:
        return hookcall.named(self.names, value)

    def near(self, c: ast.Simple) -> bool:
        """Runs the declared program (with whatever arguments)."""
        values = _argv(c)
        return bool(values) and self.named(values[0])

    def within(self, node: ast.AndOr | Command, loopvar: str | None) -> bool:
        found = _commands(node)
        return any(isinstance(c, ast.Simple) and self.matches(c, loopvar) for c in found)

    def runs_each(self, node: ast.For) -> bool:
        return False

    def present(self, tree: ast.Seq) -> bool:
        """Does the call appear anywhere in the script (reached or not)?"""
        found = ast.commands(tree)
        return any(isinstance(c, ast.Simple) and self.matches(c, None) for c in found)

    def file_test(self, words: list[ast.Word], var: str) -> int | None:
        return None


class Site(Target):
    """One call site, found in the tree beforehand (the undeclared hooks' question)."""

    def __init__(self, node: ast.Simple, names: Sequence[str]) -> None:
        super().__init__(names, [])
        self.node = node

    def matches(self, c: ast.Simple, loopvar: str | None) -> bool:
        return c is self.node


class Runner(Target):
    """`for h in "$0.d"/*; do ... "$h" ...; done`: each file of the hook's `.d` directory."""

    def __init__(self) -> None:
        super().__init__((), [])
        self.shown = "each file of its `.d` directory"

    def matches(self, c: ast.Simple, loopvar: str | None) -> bool:
        return loopvar is not None and bool(c.words) and ast.param(c.words[0]) == loopvar

    def runs_each(self, node: ast.For) -> bool:
        return node.words is not None and len(node.words) == 1 and _each_file(node.words[0])

    def present(self, tree: ast.Seq) -> bool:
        return any(isinstance(c, ast.For) and self.runs_each(c) for c in ast.commands(tree))

    def file_test(self, words: list[ast.Word], var: str) -> int | None:
        return file_test(words, lambda w: ast.param(w) == var, _directory)


class Framework(Target):
    """The pre-commit framework's generated script handing over to `pre-commit hook-impl`."""

    blocking_exits = True  # "pre-commit not found" ends it with 1: the commit is refused

    def __init__(self) -> None:
        super().__init__(("pre-commit",), [])
        self.shown = 'pre-commit "${ARGS[@]}"'

    def matches(self, c: ast.Simple, loopvar: str | None) -> bool:
        words = c.words[1:] if c.words and ast.static(c.words[0]) == "exec" else c.words
        if len(words) == 3 and ast.param(words[0]) == "INSTALL_PYTHON":
            return ast.static(words[1]) == "-mpre_commit" and _all_args(words[2])
        return len(words) == 2 and ast.static(words[0]) == "pre-commit" and _all_args(words[1])


def _argv(c: ast.Simple) -> list[str | None]:
    values = [ast.static(w) for w in c.words]
    return values[1:] if values[:1] == ["exec"] else values


def _commands(node: ast.AndOr | Command) -> list[Command]:
    seq = ast.Seq()
    if isinstance(node, ast.AndOr):
        seq.items.append((node, False))
        return ast.commands(seq)
    found: list[Command] = [node]
    for inner in ast.children(node):
        found += ast.commands(inner)
    return found


def _all_args(word: ast.Word) -> bool:
    part = word.parts[0] if len(word.parts) == 1 else None
    return part is not None and part.kind == ast.PARAM and part.value == "ARGS" and part.op == "[@]"


def _zero_dot_d(parts: list[ast.Part]) -> str | None:
    """`$0` followed by literal text: that text, else None."""
    if not parts or parts[0].kind != ast.PARAM or parts[0].value != "0" or parts[0].op:
        return None
    if not all(p.kind == ast.LIT for p in parts[1:]):
        return None
    return "".join(p.value for p in parts[1:])


def _each_file(word: ast.Word) -> bool:
    """`"$0.d"/*`, `"$0".d/*`, `"${0}.d"/*`: every file in the hook's own `.d` directory."""
    parts = word.parts
    last = parts[-1] if parts else None
    if last is None or last.kind != ast.GLOB or last.value != "*":
        return False
    return _zero_dot_d(parts[:-1]) == ".d/"


def _directory(word: ast.Word) -> bool:
    return _zero_dot_d(word.parts) in (".d", ".d/")
