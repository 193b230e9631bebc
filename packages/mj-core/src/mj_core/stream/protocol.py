"""The stream protocol every stage keeps, so a pipeline fails closed in plain POSIX `sh`.

A stream ends with one `summary` line carrying its producer's verdict: `exit` (the contract's
code) and how many records of each kind came before it. A stage that reads a stream stops
with the upstream's code when the stream is incomplete (2, 12, 13, 15, or any summary that
carries an error: a stage that stopped with 10 on bad input wrote less than it should), stops
with 12 when it read nothing at all, and with 13 when the stream ended without its summary
(the producer died); a verdict over a complete stream (10, 11) passes on, and the reader's
own summary carries the first code in stage order that is not 0. So the exit status of the
last stage of `a | b | c` is the pipeline's, with no `pipefail`.

The input of a stage is JSON Lines, or one JSON or YAML document (which is one record).

A `written` record (`written`) is records a stage read back already serialised — a cache's
lines, `count` records of kind `of` — passed on as bytes rather than rebuilt one object each:
a tool writes its `jsonl` verbatim, a renderer its `text`, the summary counts `count` records
of `of`, and a stage reading it in-process gets the records it stands for. It never appears in
a stream's bytes.
"""

from __future__ import annotations

from mj_core.errors import InternalError
from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.exit_codes import ExitCode

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterable
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]
    Bytes = bytes | memoryview | Callable[[], bytes | memoryview]

COMPLETE = (0, int(ExitCode.CONTRACT_UNMET), int(ExitCode.DRIFT_FOUND))


class Stopped(MjError):
    """The upstream stage failed; this stage stops with its code, adding no error of its own."""


class Upstream:
    """Iterate the records of an upstream stream (its summary held back), then judge how it
    ended: `code` is the upstream's verdict, once the stream has been read to its end."""

    __slots__ = ("_records", "code", "counts", "error", "name", "read", "whole")

    def __init__(
        self, records: Iterable[Record], name: str = "<stdin>", *, whole: bool = False
    ) -> None:
        self._records = records
        self.name = name
        self.whole = whole  # one document: complete without a summary
        self.code = 0
        self.error: str | None = None
        self.read = 0
        self.counts: dict[str, int] = {}

    def __iter__(self) -> Iterator[Record]:
        summary: Record | None = None
        for record in self._records:
            self.read += 1
            if summary is not None:
                raise InternalError(f"{self.name}: a record after the stream's summary")
            kind = record.get("kind")
            if kind == "summary":
                summary = record
                continue
            if kind == WRITTEN:
                yield from expanded(record)
                continue
            yield record
        self._close(summary)

    def _close(self, summary: Record | None) -> None:
        if not self.read:
            raise MissingArtifact(
                f"{self.name}: nothing to read — the upstream stage wrote nothing"
            )
        if summary is None and self.whole:
            return
        if summary is None:
            raise InternalError(
                f"{self.name}: the stream ended without its summary (its stage broke)"
            )
        code = summary.get("exit")
        if type(code) is not int:
            raise InternalError(f"{self.name}: the stream's summary carries no exit code")
        self.code = code
        self.error = str(summary["error"]) if summary.get("error") else None
        counts = summary.get("counts")
        self.counts = dict(counts) if isinstance(counts, dict) else {}
        if code not in COMPLETE or self.error is not None:  # an error never ends a whole stream
            raise Stopped(f"{self.name}: the upstream stage stopped with {code}", ExitCode(code))


WRITTEN = "written"


def written(of: str, count: int, lines: Bytes, text: Bytes | None = None) -> Record:
    """`count` records of kind `of`, as the JSON Lines `lines` (each exactly as `jsonl.dumps`
    writes it) and, for a person, the `text` lines (UTF-8, surrogates escaped) or None; each
    bytes, or a function that reads them when they are first asked for (`written_part`)."""
    return {"kind": WRITTEN, "of": of, "count": count, "jsonl": lines, "text": text}


def written_part(record: Record, part: str) -> bytes | memoryview:
    """The `jsonl` or `text` of a `written` record, read now if it was left to be read."""
    value = record[part]
    data: bytes | memoryview = value() if callable(value) else value
    return data


def expanded(record: Record) -> Iterator[Record]:
    """The records a `written` record stands for, parsed from its JSON Lines."""
    from mj_core.stream import jsonl

    for line in bytes(written_part(record, "jsonl")).split(b"\n"):
        if line:
            yield jsonl.loads_line(line)


def summary(stage: str, code: int, counts: dict[str, int], error: str | None = None) -> Record:
    """The last line of a stream."""
    record: Record = {"kind": "summary", "stage": stage, "exit": int(code), "counts": counts}
    if error is not None:
        record["error"] = error
    return record


def first_failure(*codes: int) -> int:
    """The first code that is not 0, in stage order (0 when all are)."""
    return next((code for code in codes if code), 0)


def documents(data: bytes, name: str) -> tuple[list[Record], bool]:
    """(records, whole) from bytes: JSON Lines (whole only with their summary), or one JSON or
    YAML document — a mapping is one record, a list of mappings several — which is whole."""
    from mj_core.stream import jsonl

    stripped = data.strip()
    if not stripped:
        return [], False
    lines = [line for line in stripped.split(b"\n") if line.strip()]
    if all(line.lstrip()[:1] == b"{" for line in lines):
        try:
            values = [jsonl.loads_line(line) for line in lines]
        except ValueError:
            values = _torn(data, name)  # JSON Lines when the first line is a record
        if values and all(isinstance(item, dict) for item in values):
            return values, False
    return _document(data, name), True


def _torn(data: bytes, name: str) -> list[Record]:
    """[] when the first line is no JSON record (one document spread over lines); else the
    stream is JSON Lines with a line that is not one: cut inside its last line, the producer
    died mid-write (13); a bad line before it is bad input (10, naming the line)."""
    from mj_core.errors import ContractUnmet
    from mj_core.stream import jsonl

    numbered = [(n, line) for n, line in enumerate(data.split(b"\n"), 1) if line.strip()]
    for index, (number, line) in enumerate(numbered):
        try:
            jsonl.loads_line(line)
        except ValueError as exc:
            if index == 0:
                return []
            if index == len(numbered) - 1:
                raise InternalError(
                    f"{name}: the stream was cut inside line {number} (its stage broke)"
                ) from None
            raise ContractUnmet(f"{name}:{number}: not a JSON record ({exc})") from None
    return []


def _document(data: bytes, name: str) -> list[Record]:
    from mj_core.errors import ContractUnmet
    from mj_core.stream import jsonl
    from mj_core.yaml import strict as yamlstrict

    try:
        value = jsonl.loads_line(data)
    except ValueError:
        value = yamlstrict.parse(yamlstrict.decode(data, name), name).data
    records = value if isinstance(value, list) else [value]
    if not records or not all(isinstance(item, dict) for item in records):
        raise ContractUnmet(f"{name}:1: input must be JSON Lines, or one mapping or list of them")
    return records
