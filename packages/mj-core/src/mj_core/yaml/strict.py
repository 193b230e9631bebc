"""The strict YAML reader: a subset every YAML parser reads the same way (docs/FORMATS.md).

A text is accepted only when PyYAML (pure and libyaml), YAML 1.1 as its specification types
scalars, and YAML 1.2 core (ruamel.yaml) all read it to the same value; property tests hold it
to those libraries. Refused, each as `<file>:<line>:<col>: <what> — <how to fix>` (exit 10):

- anchors, aliases and tags anywhere — on values and on keys (`!foo version: 1`);
- flow mappings, block scalars (`|`, `>`), merge keys, duplicate keys, non-string keys, more
  than one document, `%YAML`/`%TAG` directives, nested brackets inside a flow sequence;
- an unquoted `: ` inside a plain scalar, a plain scalar starting with `` ` ``, `%` or `@`, a
  plain scalar inside brackets holding `?`, `:` or `#` (libyaml and PyYAML split it apart);
- a byte-order mark anywhere but the file's first character; U+0085, U+2028, U+2029 anywhere
  (YAML 1.1 breaks lines there, an editor does not); a carriage return not ending a line;
- a tab anywhere outside a quoted scalar (indentation, after a colon, at a line's end, in a
  comment);
- a plain scalar YAML 1.1 and 1.2 type apart — `y`, `n`, `yes`, `on`, `off`, `012`, `0o17`,
  `0x1F`, `1_000`, `1:20`, `1e3`, `.inf` — or one a parser types against both (`-_`);
- a date or moment that does not exist (`2001-02-30`) and any date shape but `YYYY-MM-DD` and
  `YYYY-MM-DDTHH:MM:SSZ` (kept as text); an integer outside the signed 64-bit range; a float
  that is not finite;
- nesting deeper than `limits.NESTING` (64) mappings and sequences.

Files are read through `files.read_capped` (`limits`: a byte cap and a line cap per kind of
file, 1 MiB and 16 KiB for layer YAML). Quoted scalars lose exactly their surrounding quotes.
The writer (`dump`, in `yaml.write`) quotes every string any of those resolvers could type.
"""

from __future__ import annotations

from mj_core import files
from mj_core import timing
from mj_core.errors import ContractUnmet
from mj_core.limits import LAYER
from mj_core.yaml import fast as yamlfast
from mj_core.yaml.scalars import Path_

__all__ = ["Document", "decode", "dump", "load_file", "parse", "read_text", "split_front_matter"]


def dump(data: dict[str, Any]) -> str:
    """`yaml.write.dump`: the writer, loaded by the commands that write YAML only."""
    from mj_core.yaml import write as yamlwrite

    return yamlwrite.dump(data)


TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


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

    The line reader (`yaml.fast`) takes the common shape; anything else, and every refusal, goes
    through PyYAML's events (`yaml.events`), imported only then.
    """
    timing.count("yaml")
    read = yamlfast.read(text, line_offset)
    if read is None:
        read = _parse_events(text, name, line_offset)
    return Document(name, read[0], read[1])


def _parse_events(
    text: str, name: str, line_offset: int
) -> tuple[Any, dict[Path_, tuple[int, int]]]:
    from mj_core.yaml import events as yamlevents  # imports yaml

    return yamlevents.parse(text, name, line_offset)


def decode(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContractUnmet(
            f"{name}:1:1: not UTF-8 (byte {exc.start}) — save the file as UTF-8"
        ) from None


def read_text(path: Path | str, name: str | None = None, limit: tuple[int, int] = LAYER) -> str:
    """A file's text within `limit` (bytes, line bytes), or the one-line error for a directory,
    a missing file, a file that is not regular, one over the limit or bad bytes."""
    shown = name or str(path)
    try:
        raw = files.read_capped(path, shown, limit)
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


def load_file(
    path: Path, name: str | None = None, *, required: bool = True, limit: tuple[int, int] = LAYER
) -> Document:
    """Parse a YAML file; `required` refuses an empty one."""
    shown = name or str(path)
    doc = parse(read_text(path, shown, limit), shown)
    if required and doc.data is None:
        raise ContractUnmet(f"{shown}:1:1: empty — this file needs content")
    return doc


def split_front_matter(text: str, name: str) -> tuple[Document, str, int]:
    """(front matter, body, first body line) of a Markdown file opening with `---`."""
    lines = text.removeprefix("\ufeff").split("\n")
    if not lines or lines[0].rstrip("\r") != "---":
        raise ContractUnmet(f"{name}:1:1: no front matter — start the file with a '---' line")
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r") == "---":
            doc = parse("\n".join(lines[1:index]) + "\n", name, line_offset=1)
            return doc, "\n".join(lines[index + 1 :]), index + 2
    raise ContractUnmet(f"{name}:1:1: front matter is not closed — add a closing '---' line")
