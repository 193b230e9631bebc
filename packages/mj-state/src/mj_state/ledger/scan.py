"""The ledger judged: which lines `history --validate` reports, and one reading of it for a
judge (`Scan`: rows, values, malformed lines and the hash chain's verdict), whole or from the
newest `task.started` on. The lines themselves are read by `ledger.read`.
"""

from __future__ import annotations

from operator import itemgetter

from mj_core import line_hash as linehash
from mj_core.stream import jsonl

from mj_state.ledger import chain
from mj_state.ledger import tail as ledgertail
from mj_state.ledger.read import Event
from mj_state.ledger.read import Line
from mj_state.ledger.read import contents
from mj_state.ledger.read import judged
from mj_state.ledger.read import parse
from mj_state.ledger.read import parse_line
from mj_state.ledger.read import plain_objects
from mj_state.ledger.read import rows_of
from mj_state.ledger.read import vocabulary
from mj_state.ledger.typed import all_typed
from mj_state.task import tail as tasktail

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any


def problem(line: Line) -> str | None:
    """Why `line` fails `history --validate`: malformed, or an event no reader knows."""
    if line.error:
        return line.error
    assert line.record is not None
    if line.record["event"] not in vocabulary():
        return f"event {line.record['event']!r} is not declared in share/events.yaml"
    return None


def _declared_events(values: list[Any], declared: dict[str, Event]) -> list[str] | None:
    """Each value's event, when every value is an object whose `ts` is a string and whose
    `event` is a declared name (each asked of the whole list at once, not line by line); else
    None."""
    if values and set(map(type, values)) != {dict}:
        return None
    try:
        stamps = set(map(type, map(itemgetter("ts"), values)))
        names = list(map(itemgetter("event"), values))
        events = set(names)
    except (KeyError, TypeError):  # a line without one, or an event that is not hashable
        return None
    if (
        stamps <= {str}
        and all(type(event) is str for event in events)
        and events <= declared.keys()
    ):
        return names
    return None


class Scan:
    """One reading of the ledger for a judge: rows, values, malformed lines, the chain."""

    __slots__ = ("_before", "_chain", "_problems", "_rows", "_verify", "events", "hashes",
                 "local_problems", "local_rows", "parsed", "tip", "values")  # fmt: skip

    def __init__(
        self,
        rows: list[tuple[int, bytes, bool]],
        values: list[Any],
        problems: list[tuple[int, str]],
        verdict: chain.Verdict | Callable[[], chain.Verdict],
        tip: tuple[chain.Tip | None, bool, int] | None = None,
        *,
        parsed: list[Any] | None = None,
        before: Callable[[], int] | None = None,
    ) -> None:
        # numbered from the first line read when `before` (what counts the ledger's lines
        # before it) is given, else by the ledger's numbers (those of `rows` and `problems`)
        self.local_rows = rows
        self.local_problems = problems  # (line number, why) for every line `problem` reports
        self._before = before
        self._rows: list[tuple[int, bytes, bool]] | None = None if before else rows
        self._problems: list[tuple[int, str]] | None = None if before and problems else problems
        self.values = values  # each line's object, or None when it is not one a reader takes
        # each line's object as parsed (a mistyped line's too): what the chain reads
        self.parsed = values if parsed is None else parsed
        self._chain = verdict if isinstance(verdict, chain.Verdict) else None
        self._verify = None if isinstance(verdict, chain.Verdict) else verdict
        self.tip = tip  # (the tip, whether the file was there, the ledger's size) as read
        self.hashes: list[str] | None = None  # each row's digest, when a whole scan made them
        # each line's event when every line is a declared, well-typed object (a whole scan)
        self.events: list[str] | None = None

    def lines_before(self) -> int:
        """The ledger's lines before the first of `local_rows` (counted when first asked)."""
        return 0 if self._before is None else self._before()

    @property
    def rows(self) -> list[tuple[int, bytes, bool]]:
        """(the ledger's line number, bytes, complete) of each line read."""
        if self._rows is None:
            shift = self.lines_before()
            self._rows = [(n + shift, text, done) for n, text, done in self.local_rows]
        return self._rows

    @property
    def problems(self) -> list[tuple[int, str]]:
        """(the ledger's line number, why) for every line `problem` reports."""
        if self._problems is None:
            shift = self.lines_before()
            self._problems = [(n + shift, why) for n, why in self.local_problems]
        return self._problems

    @property
    def chain(self) -> chain.Verdict:
        """The chain's verdict, worked out (every line hashed) when first asked: a reader that
        never asks, such as `start` deciding whether a task is active, does not pay for it."""
        if self._chain is None:
            assert self._verify is not None
            self._chain = self._verify()
        return self._chain


def tail_of(whole: Scan) -> Scan:
    """What `task_scan` gives, from a `scan` of the whole ledger already made: its lines from
    the newest `task.started` on, with the chain judged over them (the file is not read again)."""
    start = 0
    for index in range(len(whole.values) - 1, -1, -1):
        value = whole.values[index]
        if type(value) is dict and value.get("event") == "task.started":
            start = index
            break
    rows, values, parsed = whole.rows[start:], whole.values[start:], whole.parsed[start:]
    first = rows[0][0] if rows else 0
    found = [(number, why) for number, why in whole.problems if number >= first]
    expected, line_before = chain.GENESIS, None
    hashes = whole.hashes[start:] if whole.hashes is not None else None
    if start:
        before = whole.rows[start - 1]
        expected = chain.prev_after(before[1], whole.parsed[start - 1], only=before[0] == 1)
        line_before = before[1] if expected == chain.digest(before[1]) else None
    tip, present, size = whole.tip if whole.tip is not None else (None, False, 0)
    verdict = chain.verify(
        rows,
        parsed,
        tip,
        tip_present=present,
        size=size,
        expected=expected,
        before=line_before,
        hashes=hashes,  # hashed once, with the whole ledger
    )
    return Scan(rows, values, found, verdict, whole.tip, parsed=parsed)


def scan(ledger: Path) -> Scan:
    """The ledger read once: the tip first (so an append racing this read is seen as pending,
    never as a removal), then every line, parsed once, judged and chained."""
    tip_bytes, data = _tip_then_data(ledger)
    rows = rows_of(data)
    values, parsed, found, events = _read(data, rows)
    tip = chain.parse_tip(tip_bytes) if tip_bytes is not None else None
    hashes = linehash.hexdigests([raw for _, raw, _ in rows])
    present = tip_bytes is not None
    verdict = chain.verify(rows, parsed, tip, tip_present=present, size=len(data), hashes=hashes)
    whole = Scan(rows, values, found, verdict, (tip, present, len(data)), parsed=parsed)
    whole.hashes = hashes
    whole.events = events
    return whole


def task_scan(ledger: Path) -> Scan:
    """`scan` of the ledger's tail from its newest `task.started` line: what a judge of the
    task needs. Its chain verdict covers that tail (its first link to the line before, each
    link after, the tip); `scan` judges the whole ledger (history --validate, doctor, watch).
    The tail is read from the file's end (`ledger.tail`), its lines numbered from its first;
    the lines before it are neither held nor, until a reader asks for a line's number in the
    ledger (`Scan.rows`, `Scan.problems`, a break in the chain), counted."""
    tip_bytes = _tip(ledger)
    found = ledgertail.tail(ledger, _record) or _whole_tail(contents(ledger))
    segment = found.data
    rows = rows_of(segment)
    values, parsed, problems = _values_and_problems(segment, rows)
    expected, line_before = chain.GENESIS, None
    if found.before is not None:
        previous = found.before
        expected = chain.prev_after(previous, _maybe(previous), only=found.only)
        line_before = previous if expected == chain.digest(previous) else None
    tip = chain.parse_tip(tip_bytes) if tip_bytes is not None else None

    def verdict() -> chain.Verdict:  # rows numbered here: a tail opening on line 1 is the
        # file, and a later one opens on its `task.started` line, which is no seal either way
        present, size = tip_bytes is not None, found.size
        judged = chain.verify(rows, parsed, tip, tip_present=present, size=size,
                              expected=expected, before=line_before)  # fmt: skip
        if judged.broken is not None:  # named by the ledger's number
            judged.broken = (judged.broken[0] + found.number, judged.broken[1])
        return judged

    counted = None if found.start == 0 else found.counted
    return Scan(rows, values, problems, verdict, parsed=parsed, before=counted)


def _whole_tail(data: bytes) -> ledgertail.Tail:
    """`ledger.tail.tail` of bytes already read whole."""
    start, value = tasktail.newest_start(data, _record)
    start = max(start, 0)
    before = data[data.rfind(b"\n", 0, start - 1) + 1 : start - 1] if start else None
    number = data.count(b"\n", 0, start)
    return ledgertail.Tail(start, value, data[start:], number=number, before=before, size=len(data))


def task_rows(ledger: Path) -> list[tuple[int, Any]]:
    """(line number, value) of the only lines `task.log.derive` can take the newest task from:
    the newest `task.started` line and every later line that names its id (`task.tail.rows`,
    each line read by `parse_line`). Derived from these, the task is what `task_scan`'s lines
    give, read from a few lines instead of every line of the tail (`start` asks no more); no
    line is judged and no link is checked here. Where an escape could spell the event or the
    id, the whole tail is read by `task_scan`."""
    found = tasktail.rows(contents(ledger), _record)
    return _derive_rows(task_scan(ledger)) if found is None else found


def _record(number: int, raw: bytes) -> Any:
    return parse_line(number, raw).record


def _derive_rows(found: Scan) -> list[tuple[int, Any]]:
    return list(zip((row[0] for row in found.rows), found.values, strict=True))


def _tip(ledger: Path) -> bytes | None:
    try:
        return ledger.with_name(chain.TIP).read_bytes()
    except FileNotFoundError:
        return None


def _tip_then_data(ledger: Path) -> tuple[bytes | None, bytes]:
    tip_bytes = _tip(ledger)
    return tip_bytes, contents(ledger)


def _maybe(line: bytes) -> object:
    try:
        return jsonl.loads_line(line)
    except ValueError:
        return None


def _values_and_problems(
    data: bytes, rows: list[tuple[int, bytes, bool]], end: int | None = None
) -> tuple[list[Any], list[Any], list[tuple[int, str]]]:
    """(each line's object for readers, each line's object as parsed, the problems): a line
    with a field of another type than declared is parsed, reported, and withheld (None)."""
    values, parsed, found, _ = _read(data, rows, end)
    return values, parsed, found


def _read(
    data: bytes, rows: list[tuple[int, bytes, bool]], end: int | None = None
) -> tuple[list[Any], list[Any], list[tuple[int, str]], list[str] | None]:
    """`_values_and_problems`, and each line's event when every line is a declared,
    well-typed object (else None)."""
    declared = vocabulary()
    plain = plain_objects(data, rows, end)
    found: list[tuple[int, str]] = []
    values: list[Any] = []
    parsed: list[Any] = []
    names = _declared_events(plain, declared) if plain is not None else None
    if plain is not None and names is not None and all_typed(plain, names):
        values = list(plain)
        return values, values, found, names
    if plain is not None:
        values, parsed = list(plain), list(plain)
        for index, ((number, _, _), value) in enumerate(zip(rows, plain, strict=True)):
            line = judged(number, b"", value)
            reason = problem(line)
            if reason:
                found.append((number, reason))
            if line.record is None:  # a field of another type: no reader takes the object
                values[index] = None
        return values, parsed, found, None
    exact = jsonl.each_line(b"\n".join(text for _, text, _ in rows)) if rows else []
    for (number, text, complete), decoded in zip(rows, exact, strict=True):
        line = parse(number, text, complete=complete, decoded=decoded)
        values.append(line.record)
        parsed.append(line.parsed)
        reason = problem(line)
        if reason:
            found.append((number, reason))
    return values, parsed, found, None
