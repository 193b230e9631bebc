"""Reading the ledger: every stored line with its value, the verdicts `history --validate` gives.

The first occurrence of a duplicated key wins, and a malformed line is reported on its `Line`
instead of raised, so a damaged ledger stays readable. `scan` reads the ledger once for a
judge: each line's bytes and value, the malformed lines, and the hash chain's verdict.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import repeat
from pathlib import Path

from mj_core import jsonl
from mj_core import share
from mj_core import yamlstrict

from mj_state import chain

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any


_KEY_END = re.compile(rb'"\s*:')


class Event:
    """One declared event: its name, its writer and its required and optional payload keys."""

    __slots__ = ("name", "optional", "required", "writer")

    def __init__(
        self, name: str, writer: str, required: tuple[str, ...], optional: tuple[str, ...]
    ) -> None:
        self.name = name
        self.writer = writer
        self.required = required
        self.optional = optional


@cache
def vocabulary() -> dict[str, Event]:
    """The declared events, from `share/events.yaml`."""
    doc = yamlstrict.parse(share.read_text("events.yaml"), "share/events.yaml")
    events = (doc.data or {}).get("events") or {}
    return {
        name: Event(name, str(spec["writer"]), tuple(spec["required"]), tuple(spec["optional"]))
        for name, spec in events.items()
    }


class Line:
    """One stored line: its number, the object it holds (or None) and why it is malformed."""

    __slots__ = ("error", "lineno", "raw", "record")

    def __init__(
        self, lineno: int, record: dict[str, Any] | None, error: str | None, raw: bytes
    ) -> None:
        self.lineno = lineno
        self.record = record
        self.error = error
        self.raw = raw


def read(ledger: Path) -> Iterator[Line]:
    """Every line of `ledger` in order; a missing file is an empty ledger."""
    try:
        data = ledger.read_bytes()
    except FileNotFoundError:
        return
    rows = _rows(data)
    values = _plain_objects(data, rows)
    if values is not None:  # the common case: one parse, the same verdicts
        for (number, text, _), value in zip(rows, values, strict=True):
            yield _judged(number, text, value)
        return
    exact = jsonl.each_line(b"\n".join(text for _, text, _ in rows)) if rows else []
    for (number, text, complete), value in zip(rows, exact, strict=True):
        yield parse(number, text, complete=complete, decoded=value)


def _plain_objects(data: bytes, rows: list[tuple[int, bytes, bool]]) -> list[dict[str, Any]] | None:
    """Every line's object from one parse of the whole ledger, or None when any line needs the
    line-by-line reading: a torn or empty line, a value that is not an object, or text where a
    duplicated key could hide (`_plainly_unique` over the whole file: as many `":` as keys)."""
    if b'" ' in data or b'"\t' in data:
        return None
    values = _array(data, len(rows))
    if values is None or (values and set(map(type, values)) != {dict}):
        return None
    keys = sum(map(len, values))
    if data.count(b"{") != len(rows):  # an object inside another: its keys count too
        for (_, text, _), value in zip(rows, values, strict=True):
            if text.count(b"{") > 1:
                keys += _count_keys(value) - len(value)
    return values if data.count(b'":') == keys else None


def _array(data: bytes, lines: int) -> list[Any] | None:
    """The `lines` newline-terminated JSON values of `data`, parsed at once as one array; None
    when that parse fails or gives another count (an empty line, two values on one line)."""
    if not data.endswith(b"\n"):
        return None
    try:
        values = jsonl.loads_line(b"[" + data[:-1].replace(b"\n", b",") + b"]")
    except ValueError:
        return None
    return values if len(values) == lines else None


def raw_lines(ledger: Path) -> list[tuple[int, bytes, bool]]:
    """(line number, bytes without the newline, ends with a newline) for every stored line."""
    try:
        data = ledger.read_bytes()
    except FileNotFoundError:
        return []
    return _rows(data)


def _rows(data: bytes) -> list[tuple[int, bytes, bool]]:
    lines = data.split(b"\n")
    last = lines.pop()  # b"" when the file ends with a newline, else a torn line
    out = list(zip(range(1, len(lines) + 1), lines, repeat(True)))
    if last:
        out.append((len(lines) + 1, last, False))
    return out


def parse_line(number: int, raw: bytes) -> Line:
    """One stored line (with its newline, if it has one)."""
    return parse(number, raw.rstrip(b"\r\n"), complete=raw.endswith(b"\n"))


def parse(number: int, text: bytes, *, complete: bool, decoded: Any = jsonl.NOT_EXACT) -> Line:
    """`text` is the line without its newline; `raw` keeps exactly that.

    `decoded` is the line's value when the caller already has it (`jsonl.each_line`).
    """
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
    return _judged(number, text, value)


def _judged(number: int, text: bytes, value: dict[str, Any]) -> Line:
    """The line for an object whose keys are each written once."""
    if type(value.get("ts")) is not str:
        return Line(number, value, "no 'ts' string", text)
    if type(value.get("event")) is not str:
        return Line(number, value, "no 'event' string", text)
    return Line(number, value, None, text)


def _plainly_unique(text: bytes, value: dict[str, Any]) -> bool:
    """True when `text` cannot hold a duplicated key.

    With no whitespace after any quote, each key written in `text` ends in exactly one `":`,
    so as many `":` as decoded keys means no key was written twice. Otherwise count every
    `"<space>:` spelling; more of them than decoded keys sends the line to the careful path.
    """
    if b'" ' not in text and b'"\t' not in text:
        return text.count(b'":') == _count_keys(value)
    return len(_KEY_END.findall(text)) == _count_keys(value)


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


def problem(line: Line) -> str | None:
    """Why `line` fails `history --validate`: malformed, or an event no reader knows."""
    if line.error:
        return line.error
    assert line.record is not None
    if line.record["event"] not in vocabulary():
        return f"event {line.record['event']!r} is not declared in share/events.yaml"
    return None


def problems(ledger: Path) -> tuple[int, list[tuple[int, str]]]:
    """(lines judged, [(line number, reason)] for every line `history --validate` reports).

    The same verdict as `problem(parse(...))`, faster: only `ts` and `event` decide validity,
    so a line naming each of them once needs no duplicate-key analysis of the other keys.
    """
    declared = vocabulary()
    try:
        data = ledger.read_bytes()
    except FileNotFoundError:
        return 0, []
    whole = _all_valid(data, declared)
    if whole is not None:
        return whole, []
    count = 0
    found: list[tuple[int, str]] = []
    rows = _rows(data)
    exact = jsonl.each_line(b"\n".join(text for _, text, _ in rows)) if rows else []
    for (number, text, complete), value in zip(rows, exact, strict=True):
        count = number
        single = text.count(b'"ts"') == 1 and text.count(b'"event"') == 1 and b"\\u" not in text
        if type(value) is dict and single and complete:
            ts, event = value.get("ts"), value.get("event")
            if type(ts) is str and type(event) is str and event in declared:
                continue
        reason = problem(parse(number, text, complete=complete))
        if reason:
            found.append((number, reason))
    return count, found


def _all_valid(data: bytes, declared: dict[str, Event]) -> int | None:
    """The number of lines when every line of `data` passes `problem`, else None.

    The common case, decided by one JSON parse of the whole ledger as an array instead of one
    per line. Every line ends with a newline. With no `\\u` escape in the text a key is spelled
    only literally, so a line whose object holds `ts` and `event` writes each at least once,
    and as many `"ts"` and `"event"` in the text as lines means each line writes each exactly
    once: no duplicate can hide behind JSON's last-wins. Anything else (an empty line, two
    values on one line, ...) fails the parse or the count and goes to the line-by-line verdict.
    """
    lines = data.count(b"\n")
    if b"\\u" in data or data.count(b'"ts"') != lines or data.count(b'"event"') != lines:
        return None
    values = _array(data, lines)
    if values is None:
        return None
    for value in values:
        if type(value) is not dict:
            return None
        ts, event = value.get("ts"), value.get("event")
        if type(ts) is not str or type(event) is not str or event not in declared:
            return None
    return lines


class Scan:
    """One reading of the ledger for a judge: rows, values, malformed lines, the chain."""

    __slots__ = ("chain", "problems", "rows", "values")

    def __init__(
        self,
        rows: list[tuple[int, bytes, bool]],
        values: list[Any],
        problems: list[tuple[int, str]],
        verdict: chain.Verdict,
    ) -> None:
        self.rows = rows
        self.values = values  # each line's object, or None when it is not one
        self.problems = problems  # (line number, why) for every line `problem` reports
        self.chain = verdict


def scan(ledger: Path) -> Scan:
    """The ledger read once: the tip first (so an append racing this read is seen as pending,
    never as a removal), then every line, parsed once, judged and chained."""
    tip_bytes, data = _tip_then_data(ledger)
    rows = _rows(data)
    values, found = _values_and_problems(data, rows)
    tip = chain.parse_tip(tip_bytes) if tip_bytes is not None else None
    verdict = chain.verify(rows, values, tip, tip_present=tip_bytes is not None, size=len(data))
    return Scan(rows, values, found, verdict)


def task_scan(ledger: Path) -> Scan:
    """`scan` of the ledger's tail from its newest `task.started` line: what a judge of the
    task needs. Its chain verdict covers that tail (its first link to the line before, each
    link after, the tip); `scan` judges the whole ledger (history --validate, doctor, watch)."""
    tip_bytes, data = _tip_then_data(ledger)
    start = _newest_start(data)
    number = data.count(b"\n", 0, start)
    segment = data[start:]
    rows = [(n + number, text, complete) for n, text, complete in _rows(segment)]
    values, found = _values_and_problems(segment, rows)
    expected = chain.GENESIS
    if start:
        previous = data[data.rfind(b"\n", 0, start - 1) + 1 : start - 1]
        expected = chain.prev_after(previous, _maybe(previous), only=number == 1)
    tip = chain.parse_tip(tip_bytes) if tip_bytes is not None else None
    verdict = chain.verify(
        rows, values, tip, tip_present=tip_bytes is not None, size=len(data), expected=expected
    )
    return Scan(rows, values, found, verdict)


def _tip_then_data(ledger: Path) -> tuple[bytes | None, bytes]:
    try:
        tip_bytes: bytes | None = ledger.with_name(chain.TIP).read_bytes()
    except FileNotFoundError:
        tip_bytes = None
    try:
        data = ledger.read_bytes()
    except FileNotFoundError:
        data = b""
    return tip_bytes, data


_STARTED = b'"event":"task.started"'


def _newest_start(data: bytes) -> int:
    """The offset of the newest line whose own event is `task.started` (0 when none): the
    bytes can appear nested in a line, so each candidate line is parsed to be sure."""
    end = len(data)
    while True:
        found = data.rfind(_STARTED, 0, end)
        if found == -1:
            return 0
        start = data.rfind(b"\n", 0, found) + 1
        stop = data.find(b"\n", found)
        value = _maybe(data[start : stop if stop != -1 else len(data)])
        if type(value) is dict and value.get("event") == "task.started":
            return start
        end = start


def _maybe(line: bytes) -> object:
    try:
        return jsonl.loads_line(line)
    except ValueError:
        return None


def _values_and_problems(
    data: bytes, rows: list[tuple[int, bytes, bool]]
) -> tuple[list[Any], list[tuple[int, str]]]:
    declared = vocabulary()
    plain = _plain_objects(data, rows)
    found: list[tuple[int, str]] = []
    if plain is not None:
        for (number, _, _), value in zip(rows, plain, strict=True):
            ts, event = value.get("ts"), value.get("event")
            if type(ts) is not str or type(event) is not str or event not in declared:
                reason = problem(_judged(number, b"", value))
                if reason:
                    found.append((number, reason))
        return list(plain), found
    values: list[Any] = []
    exact = jsonl.each_line(b"\n".join(text for _, text, _ in rows)) if rows else []
    for (number, text, complete), decoded in zip(rows, exact, strict=True):
        line = parse(number, text, complete=complete, decoded=decoded)
        values.append(line.record)
        reason = problem(line)
        if reason:
            found.append((number, reason))
    return values, found
