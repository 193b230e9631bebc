"""Reading the ledger: every stored line with its value, within `limits.LEDGER`.

The first occurrence of a duplicated key wins, and a malformed line is reported on its `Line`
instead of raised, so a damaged ledger stays readable. The verdicts over the lines (which are
malformed, the chain) are `ledger.scan`'s.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import repeat
from pathlib import Path

from mj_core import files
from mj_core import limits
from mj_core.stream import jsonl

from mj_state.ledger import typed as ledgertypes
from mj_state.ledger.typed import declaration

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any


_KEY_END = rb'"\s*:'  # compiled on first use: only a line with a blank after a quote needs it


class Event:
    """One declared event: its name, its writer, its required and optional payload keys and
    the type expression of each (`mj_core.json_types`)."""

    __slots__ = ("name", "optional", "required", "types", "writer")

    def __init__(
        self,
        name: str,
        writer: str,
        required: tuple[str, ...],
        optional: tuple[str, ...],
        types: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.writer = writer
        self.required = required
        self.optional = optional
        self.types = types or {}


@cache
def vocabulary() -> dict[str, Event]:
    """The declared events, by name."""
    return {
        name: Event(
            name,
            str(spec["writer"]),
            tuple(spec["required"]),
            tuple(spec["optional"]),
            dict(spec["types"]),
        )
        for name, spec in declaration()["events"].items()
    }


class Line:
    """One stored line: its number, the object it holds (or None) and why it is malformed."""

    __slots__ = ("error", "lineno", "parsed", "raw", "record")

    def __init__(
        self,
        lineno: int,
        record: dict[str, Any] | None,
        error: str | None,
        raw: bytes,
        parsed: dict[str, Any] | None = None,
    ) -> None:
        self.lineno = lineno
        self.record = record  # what a reader may take
        self.error = error
        self.raw = raw
        # the object as parsed, withheld from readers or not: what the hash chain reads
        self.parsed = record if parsed is None else parsed


def read(ledger: Path) -> Iterator[Line]:
    """Every line of `ledger` in order; a missing file is an empty ledger."""
    data = contents(ledger)
    rows = rows_of(data)
    values = plain_objects(data, rows)
    if values is not None:  # the common case: one parse, the same verdicts
        for (number, text, _), value in zip(rows, values, strict=True):
            yield judged(number, text, value)
        return
    exact = jsonl.each_line(b"\n".join(text for _, text, _ in rows)) if rows else []
    for (number, text, complete), value in zip(rows, exact, strict=True):
        yield parse(number, text, complete=complete, decoded=value)


def plain_objects(
    data: bytes, rows: list[tuple[int, bytes, bool]], end: int | None = None
) -> list[dict[str, Any]] | None:
    """Every line's object from one parse of the whole ledger (of `data[:end]`), or None when
    any line needs the line-by-line reading: a torn, empty or over-long line, a value that is
    not an object, or an object (at any depth) that names a key twice, which the decoder itself
    reports."""
    if rows and max(len(text) for _, text, _ in rows) > limits.LEDGER[1]:
        return None  # a line over the cap is malformed: `parse` says so
    values = array_of(data, len(rows), end)
    if values is None or (values and set(map(type, values)) != {dict}):
        return None
    return values


def _blank_after_quote(data: bytes) -> bool:
    """True when JSON whitespace follows a `"` somewhere in `data` (where `"k" :` could spell a
    key that `":` does not count). A pair of bytes is searched slowly, one byte fast: the rare
    tab and carriage return are looked for alone first, and few spaces are visited one by one."""
    for blank in (b"\t", b"\r"):
        if blank in data and b'"' + blank in data:
            return True
    if data.count(b" ") > len(data) >> 8:  # many spaces: one search for the pair is cheaper
        return b'" ' in data
    at = data.find(b" ")
    while at != -1:
        if at and data[at - 1] == 0x22:  # `"`
            return True
        at = data.find(b" ", at + 1)
    return False


def array_of(data: bytes, lines: int, end: int | None = None) -> list[Any] | None:
    """The `lines` newline-terminated JSON values of `data`, parsed at once as one array; None
    when that parse fails (a key named twice in an object included) or gives another count (an
    empty line, two values on one line)."""
    end = len(data) if end is None else end
    if data[end - 1 : end] != b"\n":
        return None
    try:
        values = jsonl.loads_unique(b"[" + data[: end - 1].replace(b"\n", b",") + b"]")
    except ValueError:
        return None
    return values if len(values) == lines else None


def raw_lines(ledger: Path) -> list[tuple[int, bytes, bool]]:
    """(line number, bytes without the newline, ends with a newline) for every stored line."""
    return rows_of(contents(ledger))


def newest_first(ledger: Path) -> Iterator[tuple[int, bytes, bool]]:
    """`raw_lines` from the newest line back, each cut from the file's bytes only when reached:
    a reader that stops after a few lines of a long ledger never splits the rest."""
    data = contents(ledger)
    number = data.count(b"\n")
    end = len(data)
    if data and not data.endswith(b"\n"):  # a torn last line
        start = data.rfind(b"\n") + 1
        yield number + 1, data[start:], False
        end = start
    while number > 0:
        start = data.rfind(b"\n", 0, end - 1) + 1
        yield number, data[start : end - 1], True
        number -= 1
        end = start


def contents(ledger: Path) -> bytes:
    """The ledger's bytes (none when it is missing), refused (10) past `limits.LEDGER`'s file
    cap; a line past its line cap is one malformed line (`parse`)."""
    try:
        return files.read_most(ledger, f"state/{ledger.name}", limits.LEDGER[0])
    except FileNotFoundError:
        return b""


def rows_of(data: bytes, first: int = 1) -> list[tuple[int, bytes, bool]]:
    """(line number, bytes, complete) of each line of `data`, numbered from `first`."""
    lines = data.split(b"\n")
    last = lines.pop()  # b"" when the file ends with a newline, else a torn line
    out = list(zip(range(first, first + len(lines)), lines, repeat(True)))
    if last:
        out.append((first + len(lines), last, False))
    return out


def parse_line(number: int, raw: bytes) -> Line:
    """One stored line (with its newline, if it has one)."""
    return parse(number, raw.rstrip(b"\r\n"), complete=raw.endswith(b"\n"))


def parse(number: int, text: bytes, *, complete: bool, decoded: Any = jsonl.NOT_EXACT) -> Line:
    """`text` is the line without its newline; `raw` keeps exactly that.

    `decoded` is the line's value when the caller already has it (`jsonl.each_line`).
    """
    if len(text) > limits.LEDGER[1]:
        return Line(number, None, f"a line over {limits.LEDGER[1]} bytes (docs/FORMATS.md)", text)
    try:
        value = jsonl.loads_line(text) if decoded is jsonl.NOT_EXACT else decoded
    except jsonl.DecodeError as exc:
        if not complete:
            return Line(number, None, "truncated line (no newline, not a JSON object)", text)
        return Line(
            number,
            None,
            "empty line" if not text.strip() else f"not JSON ({jsonl.reason(exc)})",
            text,
        )
    if type(value) is not dict:
        return Line(number, None, "not a JSON object", text)
    if not _plainly_unique(text, value):
        value = _first_wins(text)  # a duplicated key (or an unusual spelling): decode carefully
    return judged(number, text, value)


def judged(number: int, text: bytes, value: dict[str, Any]) -> Line:
    """The line for an object whose keys are each written once. A field of another type than
    `share/events.yaml` declares makes the line malformed, its object withheld (`ledger.typed`):
    no reader takes a value of a shape it was not promised."""
    if type(value.get("ts")) is not str:
        return Line(number, value, "no 'ts' string", text)
    if type(value.get("event")) is not str:
        return Line(number, value, "no 'event' string", text)
    wrong = ledgertypes.decoded_mistyped(value)
    if wrong is not None:
        return Line(number, None, wrong, text, value)
    return Line(number, value, None, text)


def _plainly_unique(text: bytes, value: dict[str, Any]) -> bool:
    """True when `text` cannot hold a duplicated key.

    With no whitespace after any quote, each key written in `text` ends in exactly one `":`,
    so as many `":` as decoded keys means no key was written twice. Otherwise count every
    `"<space>:` spelling; more of them than decoded keys sends the line to the careful path.
    """
    if not _blank_after_quote(text):
        return text.count(b'":') == _count_keys(value)
    return len(re.findall(_KEY_END, text)) == _count_keys(value)


def _count_keys(value: Any) -> int:
    count = 0
    if type(value) is dict:
        count = len(value)
        for child in value.values():
            if type(child) is dict or type(child) is list:
                count += _count_keys(child)
    elif type(value) is list:
        for child in value:
            if type(child) is dict or type(child) is list:
                count += _count_keys(child)
    return count


def _first_wins(text: bytes) -> dict[str, Any]:
    import json

    def first(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, item in pairs:
            out.setdefault(key, item)
        return out

    value: dict[str, Any] = json.loads(text, object_pairs_hook=first)
    return value
