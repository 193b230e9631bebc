"""The strict YAML subset read from PyYAML's events: every refusal and its message comes from here.

Imported only when `yaml.strict.parse` meets a text outside the line reader's shape (or by tests
that compare the two readers), so PyYAML is loaded only then. Before libyaml sees the text, the
characters parsers break lines at differently (U+0085, U+2028, U+2029, a byte-order mark past
the first character, a lone carriage return) are refused; the events are then built under the
subset's rules (tags, anchors, aliases on keys and values, nesting, plain-scalar agreement);
last, a tab is refused unless it lies inside a quoted scalar the events located.
"""

from __future__ import annotations

import yaml

from mj_core import limits
from mj_core.errors import ContractUnmet
from mj_core.yaml.scalars import plain_value
from mj_core.yaml.scalars import refusal
from mj_core.yaml.scalars import shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_core.yaml.scalars import Path_

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_QUOTE_FIX = "quote the value"
_FRAMING = (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentEndEvent)
_FLOW_SAFE = frozenset("?:#")  # a plain scalar in a flow sequence ends there for PyYAML
_BREAKS = {"\x85": "U+0085", "\u2028": "U+2028", "\u2029": "U+2029"}


def _refuse(name: str, mark: Any, what: str, fix: str, offset: int) -> ContractUnmet:
    return ContractUnmet(f"{name}:{mark.line + 1 + offset}:{mark.column + 1}: {what} — {fix}")


class _Builder:
    def __init__(self, name: str, offset: int) -> None:
        self.name = name
        self.offset = offset
        self.marks: dict[Path_, tuple[int, int]] = {}
        self.quoted: list[tuple[int, int, int, int]] = []  # (line, col) to (line, col), from 0
        self.depth = 0

    def refuse(self, event: Any, what: str, fix: str) -> ContractUnmet:
        return _refuse(self.name, event.start_mark, what, fix, self.offset)

    def mark(self, path: Path_, event: Any) -> None:
        self.marks[path] = (event.start_mark.line + 1 + self.offset, event.start_mark.column + 1)

    def plain(self, event: Any) -> None:
        """Refuse an alias, an anchor or a tag on `event` (a value or a key)."""
        if isinstance(event, yaml.AliasEvent):
            raise self.refuse(
                event, f"alias *{shown(str(event.anchor))}", "write the value out in full"
            )
        if getattr(event, "anchor", None):
            raise self.refuse(event, f"anchor &{shown(str(event.anchor))}", "remove the anchor")
        if getattr(event, "tag", None):
            raise self.refuse(event, f"tag {shown(str(event.tag))}", "remove the tag")

    def node(self, event: Any, events: Iterator[Any], path: Path_, in_flow: bool) -> Any:
        self.plain(event)
        if isinstance(event, yaml.ScalarEvent):
            return self.scalar(event, in_flow)
        if isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
            self.depth += 1
            if self.depth > limits.NESTING:
                what = f"nesting deeper than {limits.NESTING} levels"
                raise self.refuse(event, what, "flatten the document")
        if isinstance(event, yaml.SequenceStartEvent):
            if event.flow_style and in_flow:
                raise self.refuse(
                    event, "nested brackets inside a flow sequence", "write a block sequence"
                )
            return self.sequence(events, path, in_flow or bool(event.flow_style))
        if isinstance(event, yaml.MappingStartEvent):
            if event.flow_style:
                raise self.refuse(event, "flow mapping", "write a block mapping, one key a line")
            return self.mapping(events, path)
        raise self.refuse(event, f"unexpected {type(event).__name__}", "fix the YAML structure")

    def scalar(self, event: Any, in_flow: bool = False) -> Any:
        if event.style in ("|", ">"):
            raise self.refuse(
                event, f"block scalar '{event.style}'", "write a single-line quoted string"
            )
        if event.style:  # quoted ('' is plain under the C parser, None under the Python one)
            start, end = event.start_mark, event.end_mark
            self.quoted.append((start.line, start.column, end.line, end.column))
            return event.value
        if ": " in event.value:
            raise self.refuse(event, "unquoted ': ' inside a plain scalar", _QUOTE_FIX)
        if in_flow and not _FLOW_SAFE.isdisjoint(event.value):
            what = f"plain scalar '{shown(event.value)}' inside brackets holds one of ? : #"
            raise self.refuse(event, what, "quote it: libyaml and PyYAML split it differently")
        agreed, value = plain_value(event.value)
        if not agreed:
            raise self.refuse(event, *refusal(event.value))
        return value

    def sequence(self, events: Iterator[Any], path: Path_, in_flow: bool) -> list[Any]:
        out: list[Any] = []
        for event in events:
            if isinstance(event, yaml.SequenceEndEvent):
                self.depth -= 1
                return out
            self.mark((*path, len(out)), event)
            out.append(self.node(event, events, (*path, len(out)), in_flow))
        raise ContractUnmet(f"{self.name}: unterminated sequence")

    def mapping(self, events: Iterator[Any], path: Path_) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for event in events:
            if isinstance(event, yaml.MappingEndEvent):
                self.depth -= 1
                return out
            key = self.key(event)
            if key in out:
                what = f"duplicate key '{shown(key)}'"
                raise self.refuse(event, what, "keep one of the two entries")
            self.mark((*path, key), event)
            out[key] = self.node(next(events), events, (*path, key), False)
        raise ContractUnmet(f"{self.name}: unterminated mapping")

    def key(self, event: Any) -> str:
        self.plain(event)
        if not isinstance(event, yaml.ScalarEvent):
            raise self.refuse(event, "a key that is not a scalar", "use a plain string key")
        if not event.style and event.value == "<<":
            raise self.refuse(event, "merge key '<<'", "write the keys out in full")
        value = self.scalar(event)
        if not isinstance(value, str):
            raise self.refuse(event, f"key '{shown(event.value)}' is not a string", _QUOTE_FIX)
        return value


def _syntax_fix(problem: str, char: str) -> str:
    if char in "`%@":
        return f"a plain scalar cannot start with '{char}'; {_QUOTE_FIX}"
    if "mapping values are not allowed" in problem:
        return f"an unquoted ': ' inside a plain scalar; {_QUOTE_FIX}"
    if char == "\t" or "\\t" in problem:
        return "indent with spaces, not tabs"
    return "fix the YAML syntax (block mappings and sequences, plain or quoted scalars)"


def parse(text: str, name: str, line_offset: int = 0) -> tuple[Any, dict[Path_, tuple[int, int]]]:
    """(data, marks) of `text` under the subset, or the one-line refusal as ContractUnmet."""
    if text.startswith("\ufeff") and not line_offset:
        text = text[1:]  # a byte-order mark as the file's first character is no content
    _refuse_characters(text, name, line_offset)
    builder = _Builder(name, line_offset)
    data: Any = None
    documents = 0
    try:
        events = iter(yaml.parse(text, Loader=_Loader))
        for event in events:
            if isinstance(event, yaml.DocumentStartEvent):
                if event.version or event.tags:
                    raise builder.refuse(event, "a %YAML or %TAG directive", "remove it")
                documents += 1
                if documents > 1:
                    raise builder.refuse(
                        event, "more than one document", "keep one document per file"
                    )
            elif isinstance(event, _FRAMING):
                continue
            else:
                data = builder.node(event, events, (), False)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = shown(exc.problem or exc.context or "invalid YAML", 200)
        if mark is None:
            raise ContractUnmet(f"{name}:1:1: {problem} — {_syntax_fix(problem, '')}") from None
        lines = text.splitlines()
        row = lines[mark.line] if mark.line < len(lines) else ""
        char = row[mark.column] if mark.column < len(row) else ""
        raise _refuse(name, mark, problem, _syntax_fix(problem, char), line_offset) from None
    except yaml.reader.ReaderError as exc:
        before = text[: exc.position]
        line = before.count("\n") + 1 + line_offset
        col = exc.position - (before.rfind("\n") + 1) + 1
        raise ContractUnmet(
            f"{name}:{line}:{col}: unacceptable character #x{exc.character:04x}"
            " — remove the control character"
        ) from None
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else "invalid YAML"
        raise ContractUnmet(f"{name}:1:1: {first} — fix the YAML syntax") from None
    _refuse_tabs(text, name, line_offset, builder.quoted)
    return data, builder.marks


def _where(text: str, index: int, offset: int) -> tuple[int, int]:
    """(line, column), from 1, of `text[index]`; lines as YAML counts them (`\n` breaks)."""
    before = text.rfind("\n", 0, index)
    return text.count("\n", 0, index) + 1 + offset, index - before


def _refuse_characters(text: str, name: str, offset: int) -> None:
    """A byte-order mark past the file's first character, or a Unicode line break: YAML 1.1
    parsers break the line there (and libyaml restarts its indentation at a BOM), so an editor
    and a parser would disagree on the structure."""
    for char, label in _BREAKS.items():
        index = text.find(char)
        if index >= 0:
            line, col = _where(text, index, offset)
            what = f"{label} (a Unicode line break)"
            raise ContractUnmet(f"{name}:{line}:{col}: {what} — remove it or write it as an escape")
    index = text.find("\ufeff")
    if index >= 0:
        line, col = _where(text, index, offset)
        what = "byte-order mark U+FEFF inside the document"
        raise ContractUnmet(f"{name}:{line}:{col}: {what} — remove it")
    index = text.find("\r")
    while index >= 0:
        if text[index + 1 : index + 2] != "\n":
            line, col = _where(text, index, offset)
            what = "a carriage return that does not end a line"
            raise ContractUnmet(f"{name}:{line}:{col}: {what} — end lines with LF or CRLF")
        index = text.find("\r", index + 2)


def _refuse_tabs(
    text: str, name: str, offset: int, quoted: list[tuple[int, int, int, int]]
) -> None:
    """A tab outside a quoted scalar (after a colon, at a line's end, in a comment, as
    indentation) — parsers differ on where a tab may stand; inside quotes it is text."""
    index = text.find("\t")
    while index >= 0:
        line, col = _where(text, index, 0)
        spot = (line - 1, col - 1)
        if not any((a, b) <= spot < (c, d) for a, b, c, d in quoted):
            where = f"{name}:{line + offset}:{col}"
            raise ContractUnmet(f"{where}: a tab outside quotes — indent and separate with spaces")
        index = text.find("\t", index + 1)
