"""The strict YAML reader: a subset every YAML parser reads the same way.

Refused, each as `<file>:<line>:<col>: <what> — <how to fix>` (exit 10): anchors and aliases,
flow mappings, block scalars, tags, merge keys, duplicate keys, more than one document, an
unquoted `: ` inside a plain scalar, a plain scalar starting with `` ` ``, `%` or `@`, nested
brackets inside a flow sequence, and plain scalars that YAML 1.1 and YAML 1.2 read as different
types (`yes`, `on`, `012`, `1_000`, ...). Quoted scalars lose exactly their surrounding quotes.
"""

from __future__ import annotations

from mj_core import files
from mj_core import timing
from mj_core import yamlfast
from mj_core.errors import ContractUnmet
from mj_core.yaml11 import plain_value

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from re import Pattern
    from typing import Any

Path_ = tuple[str | int, ...]


class Document:
    """Parsed data plus the position of every key and item, for error messages."""

    __slots__ = ("data", "marks", "name")

    def __init__(
        self, name: str, data: Any, marks: dict[Path_, tuple[int, int]] | None = None
    ) -> None:
        self.name = name
        self.data = data
        self.marks: dict[Path_, tuple[int, int]] = {} if marks is None else marks

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.name, self.data, self.marks)
        return mine == (other.name, other.data, other.marks)

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __repr__(self) -> str:
        return f"Document(name={self.name!r}, data={self.data!r}, marks={self.marks!r})"

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


def parse(text: str, name: str, *, line_offset: int = 0) -> Document:
    """Parse `text` under the subset; an empty text gives `data=None`.

    The line reader (`yamlfast`) takes the common shape; anything else, and every refusal, goes
    through PyYAML's events (`yamlevents`), imported only then.
    """
    timing.count("yaml")
    read = yamlfast.read(text, line_offset)
    if read is None:
        read = _parse_events(text, name, line_offset)
    return Document(name, read[0], read[1])


def _parse_events(
    text: str, name: str, line_offset: int
) -> tuple[Any, dict[Path_, tuple[int, int]]]:
    from mj_core import yamlevents  # imports yaml

    return yamlevents.parse(text, name, line_offset)


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
    try:
        raw = files.read_bytes(path)
        timing.count("files read")
    except FileNotFoundError:
        from mj_core.errors import MissingArtifact

        raise MissingArtifact(f"{shown}: no such file") from None
    except IsADirectoryError:  # the world's fault, not the text's: 15, as a write would be
        from mj_core.errors import Refused

        raise Refused(f"{shown}: is a directory — a file is expected here") from None
    except OSError as exc:
        from mj_core.errors import Refused

        raise Refused(f"{shown}: unreadable ({exc.strerror})") from None
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


_SAFE_PLAIN = r"[A-Za-z0-9_./(~][A-Za-z0-9_./()~+=@ ,:<>*-]*"
_safe_plain: list[Pattern[str]] = []


def _safe_plain_match(text: str) -> bool:
    if not _safe_plain:
        import re

        _safe_plain.append(re.compile(_SAFE_PLAIN))
    return _safe_plain[0].fullmatch(text) is not None


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    plain_ok = (
        _safe_plain_match(text)
        and ": " not in text
        and not text.endswith((" ", ":"))
        and plain_value(text) == (True, text)
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
