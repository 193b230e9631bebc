"""JSON Lines in and out, with one serialiser and one key-order rule.

The standard library's `json` is the codec: every tool reads and writes a few records per run,
and a compiled codec costs more to import than it saves on that work. Output is compact UTF-8
(`{"a":1}`), NaN and Infinity are refused both ways. Key order is the order the record's builder
inserted keys, with `kind` first when present.
"""

from __future__ import annotations

import json

from mj_core.errors import ContractUnmet

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import IO
    from typing import Any

DecodeError = ValueError  # what `loads_line` raises: bad JSON, bad UTF-8, NaN or Infinity

_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_constant)


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise ValueError("a key written twice in one object")
    return value


_UNIQUE = json.JSONDecoder(parse_constant=_constant, object_pairs_hook=_unique_pairs)


def encode(value: Any) -> bytes:
    """Any JSON value as compact UTF-8, without a newline.

    A string carrying a file name git gave as bytes that are not UTF-8 (surrogate escapes) is
    written with JSON's own `\\udcNN` escape, which reads back as the same string."""
    text = _ENCODER.encode(value)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace")  # only lone surrogates cannot encode


def pretty(value: Any) -> bytes:
    """A JSON document for people: two-space indent, UTF-8, a final newline."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, indent=2)
    return text.encode("utf-8", "backslashreplace") + b"\n"


def dumps(record: dict[str, Any]) -> bytes:
    """One record as one line, newline included."""
    if "kind" in record and next(iter(record)) != "kind":
        record = {"kind": record["kind"], **{k: v for k, v in record.items() if k != "kind"}}
    return encode(record) + b"\n"


def write(stream: IO[bytes], record: dict[str, Any]) -> None:
    stream.write(dumps(record))


def write_all(stream: IO[bytes], records: Iterable[dict[str, Any]]) -> None:
    for record in records:
        stream.write(dumps(record))


def read(stream: IO[bytes], name: str = "<stdin>") -> Iterator[dict[str, Any]]:
    """Records from a JSON Lines stream; a line that is not an object is refused (10)."""
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            value = loads_line(line)
        except ValueError as exc:
            raise ContractUnmet(f"{name}:{number}: not JSON ({reason(exc)})") from None
        if not isinstance(value, dict):
            raise ContractUnmet(f"{name}:{number}: a JSON Lines record must be an object")
        yield value


def loads_line(line: bytes | str) -> Any:
    """Parse one line; raises `DecodeError` (a ValueError) on bad input, nesting too deep for
    the decoder included. Only JSON's own whitespace may surround the value: a form feed or a
    no-break space is not JSON to any other reader, so it is not JSON here."""
    text = line.decode("utf-8") if isinstance(line, bytes) else line
    try:
        return _DECODER.decode(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def loads_unique(text: bytes) -> Any:
    """`loads_line`, refusing (`DecodeError`) an object, at any depth, that names a key twice
    (spelled alike or escaped apart): the caller then reads each line under its own rule."""
    try:
        return _UNIQUE.decode(text.decode("utf-8"))
    except RecursionError:
        raise ValueError("nested too deeply") from None


def each_line(data: bytes) -> list[Any]:
    """For each `\n`-separated line of `data`: its JSON value if the line is exactly one JSON
    value (nothing around it), else `NOT_EXACT` — the caller then parses that line alone.

    One decode of the whole text and one scan per line, for files of thousands of lines.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return [NOT_EXACT] * (data.count(b"\n") + 1)
    out: list[Any] = []
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        try:
            value, stop = _DECODER.raw_decode(text, start)
        except (ValueError, RecursionError):
            value, stop = NOT_EXACT, -1
        out.append(value if stop == end and line else NOT_EXACT)
        start = end + 1
    return out


NOT_EXACT = object()


def reason(exc: ValueError) -> str:
    """The short cause of a `DecodeError`, without the position prose."""
    if isinstance(exc, json.JSONDecodeError):
        return exc.msg
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 at byte {exc.start}"
    return str(exc)
