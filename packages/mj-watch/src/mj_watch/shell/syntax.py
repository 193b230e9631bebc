"""The syntax tree of a POSIX shell script, as `shell.parser` builds it, and what a word says.

A word is a list of parts: literal text (quoted or not), parameter expansions, command
substitutions, arithmetic, pathname patterns, tildes. A word has a *static* value only when
every part is literal text: then the shell passes exactly that string, whatever the
environment. Every node keeps its first line and its span in the source, for messages.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path

# Part kinds
LIT = "lit"  # literal text; `quoted` says whether quoting protected it
PARAM = "param"  # $name, ${name...}: `value` is the name, `op` what follows it inside braces
SUB = "sub"  # $(...) (with its parsed body in `body`) or `...` (body None)
ARITH = "arith"  # $((...))
GLOB = "glob"  # an unquoted *, ? or [...]
TILDE = "tilde"  # an unquoted leading ~user
ANSI = "ansi"  # bash's $'...' or $"..." (dash reads them otherwise)
BRACE = "brace"  # an unquoted {a,b} or {1..3} (bash expands it into several words)

SPECIAL = frozenset("@*#?-$!0123456789")


class Part:
    __slots__ = ("body", "kind", "op", "quoted", "value")

    def __init__(
        self, kind: str, value: str, quoted: bool = False, op: str = "", body: Seq | None = None
    ) -> None:
        self.kind = kind
        self.value = value
        self.quoted = quoted
        self.op = op  # for PARAM: "" for $x and ${x}, else the operator text (":-word", "#", "[@]")
        self.body = body


class Word:
    __slots__ = ("end", "parts", "start")

    def __init__(self, parts: list[Part], start: int, end: int) -> None:
        self.parts = parts
        self.start = start
        self.end = end


def static(word: Word) -> str | None:
    """The string the shell passes for `word`, when no expansion can change it."""
    if all(p.kind == LIT for p in word.parts):
        return "".join(p.value for p in word.parts)
    return None


def plain(word: Word) -> str | None:
    """The text of an unquoted, expansion-free word (how reserved words are recognised)."""
    if len(word.parts) == 1 and word.parts[0].kind == LIT and not word.parts[0].quoted:
        return word.parts[0].value
    return None


def param(word: Word) -> str | None:
    """The name when `word` is one bare expansion, `$x`, `"$x"` or `"${x}"`."""
    if len(word.parts) == 1 and word.parts[0].kind == PARAM and not word.parts[0].op:
        return word.parts[0].value
    return None


def assignment(word: Word) -> str | None:
    """The variable name when `word` is `NAME=value` (the name unquoted literal text)."""
    first = word.parts[0] if word.parts else None
    if first is None or first.kind != LIT or first.quoted or "=" not in first.value:
        return None
    name = first.value.split("=", 1)[0].removesuffix("+")
    return name if is_name(name) else None


def is_name(text: str) -> bool:
    return bool(text) and not text[0].isdigit() and all(c == "_" or c.isalnum() for c in text)


class Redir:
    __slots__ = ("fd", "heredoc", "op", "quoted", "target")

    def __init__(self, op: str, target: Word, fd: str = "") -> None:
        self.op = op
        self.target = target
        self.fd = fd
        self.heredoc: str | None = None  # the body of a here-document
        self.quoted = False  # a quoted delimiter: the body is not expanded


class Node:
    __slots__ = ("end", "line", "redirs", "start")

    def __init__(self, line: int, start: int) -> None:
        self.line = line
        self.start = start
        self.end = start
        self.redirs: list[Redir] = []


class Simple(Node):
    __slots__ = ("arrays", "assigns", "words")

    def __init__(self, line: int, start: int) -> None:
        super().__init__(line, start)
        self.assigns: list[Word] = []
        self.words: list[Word] = []
        self.arrays: list[tuple[str, list[Word]]] = []  # bash's NAME=(...) and NAME+=(...)


class Group(Node):
    __slots__ = ("body", "subshell")

    def __init__(self, line: int, start: int, body: Seq, subshell: bool) -> None:
        super().__init__(line, start)
        self.body = body
        self.subshell = subshell


class If(Node):
    __slots__ = ("arms", "orelse")

    def __init__(self, line: int, start: int) -> None:
        super().__init__(line, start)
        self.arms: list[tuple[Seq, Seq]] = []  # (condition, body) of `if` and each `elif`
        self.orelse: Seq | None = None


class Loop(Node):
    __slots__ = ("body", "cond", "until")

    def __init__(self, line: int, start: int, until: bool, cond: Seq, body: Seq) -> None:
        super().__init__(line, start)
        self.until = until
        self.cond = cond
        self.body = body


class For(Node):
    __slots__ = ("body", "var", "words")

    def __init__(self, line: int, start: int, var: str, words: list[Word] | None) -> None:
        super().__init__(line, start)
        self.var = var
        self.words = words  # None: `for x; do` iterates over "$@"
        self.body = Seq()


class Case(Node):
    __slots__ = ("arms", "word")

    def __init__(self, line: int, start: int, word: Word) -> None:
        super().__init__(line, start)
        self.word = word
        self.arms: list[tuple[list[Word], Seq]] = []


class Func(Node):
    __slots__ = ("body", "name")

    def __init__(self, line: int, start: int, name: str, body: Command) -> None:
        super().__init__(line, start)
        self.name = name
        self.body = body


class Pipeline:
    __slots__ = ("bang", "cmds", "line")

    def __init__(self, line: int, bang: bool, cmds: list[Command]) -> None:
        self.line = line
        self.bang = bang
        self.cmds = cmds


class AndOr:
    __slots__ = ("end", "ops", "parts", "start")

    def __init__(self, parts: list[Pipeline], ops: list[str], start: int, end: int) -> None:
        self.parts = parts
        self.ops = ops  # "&&" or "||" between parts[i] and parts[i + 1]
        self.start = start
        self.end = end

    @property
    def line(self) -> int:
        return self.parts[0].line


class Seq:
    """A list of and-or lists, each run in the foreground or (`&`) in the background."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[tuple[AndOr, bool]] = []


if TYPE_CHECKING:
    Command = Simple | Group | If | Loop | For | Case | Func


def children(node: Command) -> list[Seq]:
    """The lists directly inside a compound command."""
    if isinstance(node, Group):
        return [node.body]
    if isinstance(node, If):
        return [s for arm in node.arms for s in arm] + ([node.orelse] if node.orelse else [])
    if isinstance(node, Loop):
        return [node.cond, node.body]
    if isinstance(node, For):
        return [node.body]
    if isinstance(node, Case):
        return [body for _, body in node.arms]
    if isinstance(node, Func):
        return children(node.body) if not isinstance(node.body, Simple) else []
    return []


def commands(seq: Seq) -> list[Command]:
    """Every command in `seq`, nested ones included, in source order (substitutions excluded)."""
    found: list[Command] = []
    for and_or, _ in seq.items:
        for pipeline in and_or.parts:
            for command in pipeline.cmds:
                found.append(command)
                for inner in children(command):
                    found += commands(inner)
    return found
