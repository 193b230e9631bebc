"""JSON Lines in and out, with one serialiser (orjson) and one key-order rule.

Key order is the order the record's builder inserted keys, with `kind` first when present.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from typing import IO
from typing import Any

import orjson

from mj_core.errors import ContractUnmet


def dumps(record: dict[str, Any]) -> bytes:
    """One record as one line, newline included."""
    if "kind" in record and next(iter(record)) != "kind":
        record = {"kind": record["kind"], **{k: v for k, v in record.items() if k != "kind"}}
    return orjson.dumps(record, option=orjson.OPT_APPEND_NEWLINE)


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
            value = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise ContractUnmet(f"{name}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(value, dict):
            raise ContractUnmet(f"{name}:{number}: a JSON Lines record must be an object")
        yield value


def loads_line(line: bytes | str) -> Any:
    """Parse one line; raises orjson.JSONDecodeError (a ValueError) on bad input."""
    return orjson.loads(line)
