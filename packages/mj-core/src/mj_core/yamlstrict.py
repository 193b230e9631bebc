"""The strict YAML reader: a subset every YAML parser reads the same way.

Refused, each as `<file>:<line>:<col>: <what> — <how to fix>` (exit 10): anchors and aliases,
flow mappings, block scalars, tags, merge keys, duplicate keys, more than one document, an
unquoted `: ` inside a plain scalar, a plain scalar starting with `` ` ``, `%` or `@`, nested
brackets inside a flow sequence, and plain scalars that YAML 1.1 and YAML 1.2 read as different
types (`yes`, `on`, `012`, `1_000`, ...). Quoted scalars lose exactly their surrounding quotes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import yaml

from mj_core import timing
from mj_core.errors import ContractUnmet

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVER = yaml.resolver.Resolver()
_TAG = "tag:yaml.org,2002:"
_QUOTE_FIX = "quote the value"
Path_ = tuple[str | int, ...]

_FRAMING = (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentEndEvent)
_NULL12 = {"", "~", "null", "Null", "NULL"}
_BOOL12 = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT12 = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_FLOAT12 = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")


@dataclass
class Document:
    """Parsed data plus the position of every key and item, for error messages."""

    name: str
    data: Any
    marks: dict[Path_, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: Path_ = ()) -> str:
        """`file:line:col` of the closest marked ancestor of `path`."""
        for cut in range(len(path), -1, -1):
            mark = self.marks.get(tuple(path[:cut]))
            if mark:
                return f"{self.name}:{mark[0]}:{mark[1]}"
        return f"{self.name}:1:1"

    def line(self, path: Path_ = ()) -> int:
        for cut in range(len(path), -1, -1):
            mark = self.marks.get(tuple(path[:cut]))
            if mark:
                return mark[0]
        return 1


def _refuse(name: str, mark: Any, what: str, fix: str, offset: int) -> ContractUnmet:
    return ContractUnmet(f"{name}:{mark.line + 1 + offset}:{mark.column + 1}: {what} — {fix}")


def _plain_value(value: str) -> tuple[bool, Any]:
    """(agreed, value): a plain scalar under YAML 1.2 core, if YAML 1.1 reads the same type."""
    tag11 = str(_RESOLVER.resolve(yaml.ScalarNode, value, (True, False)))[len(_TAG) :]  # type: ignore[no-untyped-call]
    if tag11 == "timestamp":
        return True, value  # both read a date; the tool keeps the text
    if value in _NULL12:
        return tag11 == "null", None
    if value in _BOOL12:
        return tag11 == "bool", _BOOL12[value]
    if _INT12.fullmatch(value):
        return tag11 == "int", int(value)
    if _FLOAT12.fullmatch(value) and any(c.isdigit() for c in value):
        return tag11 == "float", float(value)
    return tag11 == "str", value


class _Builder:
    def __init__(self, name: str, offset: int) -> None:
        self.name = name
        self.offset = offset
        self.marks: dict[Path_, tuple[int, int]] = {}

    def refuse(self, event: Any, what: str, fix: str) -> ContractUnmet:
        return _refuse(self.name, event.start_mark, what, fix, self.offset)

    def mark(self, path: Path_, event: Any) -> None:
        self.marks[path] = (event.start_mark.line + 1 + self.offset, event.start_mark.column + 1)

    def node(self, event: Any, events: Iterator[Any], path: Path_, in_flow: bool) -> Any:
        if isinstance(event, yaml.AliasEvent):
            raise self.refuse(event, f"alias *{event.anchor}", "write the value out in full")
        if getattr(event, "anchor", None):
            raise self.refuse(event, f"anchor &{event.anchor}", "remove the anchor")
        if getattr(event, "tag", None):
            raise self.refuse(event, f"tag {event.tag}", "remove the tag")
        if isinstance(event, yaml.ScalarEvent):
            return self.scalar(event)
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

    def scalar(self, event: Any) -> Any:
        if event.style in ("|", ">"):
            raise self.refuse(
                event, f"block scalar '{event.style}'", "write a single-line quoted string"
            )
        if event.style:  # quoted ('' is plain under the C parser, None under the Python one)
            return event.value
        if ": " in event.value:
            raise self.refuse(event, "unquoted ': ' inside a plain scalar", _QUOTE_FIX)
        agreed, value = _plain_value(event.value)
        if not agreed:
            raise self.refuse(
                event,
                f"plain scalar '{event.value}' is read differently by other YAML parsers",
                _QUOTE_FIX,
            )
        return value

    def sequence(self, events: Iterator[Any], path: Path_, in_flow: bool) -> list[Any]:
        out: list[Any] = []
        for event in events:
            if isinstance(event, yaml.SequenceEndEvent):
                return out
            self.mark((*path, len(out)), event)
            out.append(self.node(event, events, (*path, len(out)), in_flow))
        raise ContractUnmet(f"{self.name}: unterminated sequence")

    def mapping(self, events: Iterator[Any], path: Path_) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for event in events:
            if isinstance(event, yaml.MappingEndEvent):
                return out
            key = self.key(event)
            if key in out:
                raise self.refuse(event, f"duplicate key '{key}'", "keep one of the two entries")
            self.mark((*path, key), event)
            out[key] = self.node(next(events), events, (*path, key), False)
        raise ContractUnmet(f"{self.name}: unterminated mapping")

    def key(self, event: Any) -> str:
        if not isinstance(event, yaml.ScalarEvent):
            raise self.refuse(event, "a key that is not a scalar", "use a plain string key")
        if not event.style and event.value == "<<":
            raise self.refuse(event, "merge key '<<'", "write the keys out in full")
        value = self.scalar(event)
        if not isinstance(value, str):
            raise self.refuse(event, f"key '{event.value}' is not a string", _QUOTE_FIX)
        return value


def _syntax_fix(problem: str, char: str) -> str:
    if char in "`%@":
        return f"a plain scalar cannot start with '{char}'; {_QUOTE_FIX}"
    if "mapping values are not allowed" in problem:
        return f"an unquoted ': ' inside a plain scalar; {_QUOTE_FIX}"
    if char == "\t" or "\\t" in problem:
        return "indent with spaces, not tabs"
    return "fix the YAML syntax (block mappings and sequences, plain or quoted scalars)"


def parse(text: str, name: str, *, line_offset: int = 0) -> Document:
    """Parse `text` under the subset; an empty text gives `data=None`."""
    timing.count("yaml")
    builder = _Builder(name, line_offset)
    data: Any = None
    documents = 0
    try:
        events = iter(yaml.parse(text, Loader=_Loader))
        for event in events:
            if isinstance(event, yaml.DocumentStartEvent):
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
        problem = exc.problem or exc.context or "invalid YAML"
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
    return Document(name, data, builder.marks)


def decode(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContractUnmet(
            f"{name}:1:1: not UTF-8 (byte {exc.start}) — save the file as UTF-8"
        ) from None


def read_text(path: Path, name: str | None = None) -> str:
    """A file's text, or the one-line error for a directory, a missing file or bad bytes."""
    shown = name or str(path)
    if path.is_dir():
        raise ContractUnmet(f"{shown}:1:1: is a directory — a file is expected here")
    try:
        raw = path.read_bytes()
        timing.count("files read")
    except FileNotFoundError:
        from mj_core.errors import MissingArtifact

        raise MissingArtifact(f"{shown}: no such file") from None
    except OSError as exc:
        raise ContractUnmet(f"{shown}:1:1: unreadable ({exc.strerror})") from None
    return decode(raw, shown)


def load_file(path: Path, name: str | None = None, *, required: bool = True) -> Document:
    """Parse a YAML file; `required` refuses an empty one."""
    shown = name or str(path)
    doc = parse(read_text(path, shown), shown)
    if required and doc.data is None:
        raise ContractUnmet(f"{shown}:1:1: empty — this file needs content")
    return doc


def split_front_matter(text: str, name: str) -> tuple[Document, str, int]:
    """(front matter, body, first body line) of a Markdown file opening with `---`."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r") != "---":
        raise ContractUnmet(f"{name}:1:1: no front matter — start the file with a '---' line")
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r") == "---":
            doc = parse("\n".join(lines[1:index]) + "\n", name, line_offset=1)
            return doc, "\n".join(lines[index + 1 :]), index + 2
    raise ContractUnmet(f"{name}:1:1: front matter is not closed — add a closing '---' line")


_SAFE_PLAIN = re.compile(r"[A-Za-z0-9_./(~][A-Za-z0-9_./()~+=@ ,:<>*-]*")


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    plain_ok = (
        _SAFE_PLAIN.fullmatch(text) is not None
        and ": " not in text
        and not text.endswith((" ", ":"))
        and _plain_value(text) == (True, text)
    )
    if plain_ok:
        return text
    return _double_quoted(text)


def _yaml_printable(char: str) -> bool:
    code = ord(char)  # YAML 1.1 reads U+0085, U+2028 and U+2029 as line breaks: escape them
    return (
        0x20 <= code <= 0x7E
        or (0xA0 <= code <= 0xD7FF and code not in (0x2028, 0x2029))
        or 0xE000 <= code <= 0xFFFD
        or code >= 0x10000
    )


def _double_quoted(text: str) -> str:
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif _yaml_printable(char):
            out.append(char)
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return '"' + "".join(out) + '"'


def dump(data: dict[str, Any]) -> str:
    """Emit a mapping in the subset: block style, plain scalars where safe, else double-quoted."""
    return "".join(_emit_mapping(data, 0))


def _emit_mapping(data: dict[str, Any], indent: int) -> Iterator[str]:
    pad = " " * indent
    for key, value in data.items():
        if isinstance(value, dict):
            if not value:
                raise ValueError(f"cannot emit an empty mapping for {key!r} in the subset")
            yield f"{pad}{_scalar(key)}:\n"
            yield from _emit_mapping(value, indent + 2)
        elif isinstance(value, list):
            if not value:
                yield f"{pad}{_scalar(key)}: []\n"
                continue
            yield f"{pad}{_scalar(key)}:\n"
            yield from _emit_sequence(value, indent + 2)
        else:
            yield f"{pad}{_scalar(key)}: {_scalar(value)}\n"


def _emit_sequence(items: list[Any], indent: int) -> Iterator[str]:
    pad = " " * indent
    for item in items:
        if isinstance(item, dict):
            lines = list(_emit_mapping(item, indent + 2))
            yield f"{pad}- {lines[0].lstrip()}"
            yield from lines[1:]
        elif isinstance(item, list):
            raise ValueError("nested sequences are outside the subset's emitter")
        else:
            yield f"{pad}- {_scalar(item)}\n"
